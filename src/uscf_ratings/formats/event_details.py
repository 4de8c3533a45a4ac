"""An event's details (`core.model.EventDetails`) as event JSON holds them, and what the
readers share when they fill them.

Event JSON keeps them under ``event.details`` (schemas/event.schema.json, ``$defs/details``):
the model's field names, empty fields left out, a director as ``{"id", "name"}`` with at
least one of the two. The result JSON of ``uscf rate --json`` repeats them in the same
shape (formats/result_json.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.model import Director, EventDetails

#: the text fields of `EventDetails`, as event JSON names them (the model's names)
DETAIL_TEXTS = ("city", "state", "zip_code", "country", "site", "affiliate_id",
                "affiliate_name")


def director(ident: str = "", name: str = "") -> Director | None:
    """A director from what a file gives, spaces trimmed; None when it gives neither an
    id nor a name (a blank field is no director)."""
    found = Director(ident.strip(), name.strip())
    return None if found == Director() else found


def directors(found: Iterable[Director | None]) -> tuple[Director, ...]:
    """The directors given, in order, blanks left out."""
    return tuple(d for d in found if d is not None)


def web_address(text: str) -> bool:
    """Whether ``text`` is a web address (an online event's page), not a city or a name."""
    return text.strip().lower().startswith(("http://", "https://"))


def details_from_json(d: dict[str, Any]) -> EventDetails:
    """``event.details`` (already checked by the schema) as the model holds it; text loses
    its surrounding spaces, as in every reader."""
    if not d:
        return EventDetails()

    def text(key: str) -> str:
        value: str = d.get(key, "")
        return value.strip()

    def person(x: dict[str, str] | None) -> Director | None:
        return None if x is None else director(x.get("id", ""), x.get("name", ""))

    return EventDetails(city=text("city"), state=text("state"), zip_code=text("zip_code"),
                        country=text("country"), site=text("site"),
                        affiliate_id=text("affiliate_id"),
                        affiliate_name=text("affiliate_name"),
                        chief_director=person(d.get("chief_director")),
                        assistant_director=person(d.get("assistant_director")),
                        other_directors=directors(person(x)
                                                  for x in d.get("other_directors", ())))


def details_to_json(details: EventDetails) -> dict[str, Any]:
    """The details as ``event.details``: what the model holds, empty fields left out, so
    that `details_from_json` gives the same model back."""
    out: dict[str, Any] = {k: v for k in DETAIL_TEXTS if (v := getattr(details, k))}
    for key in ("chief_director", "assistant_director"):
        found = getattr(details, key)
        if found is not None and found != Director():
            out[key] = director_to_json(found)
    others = [director_to_json(x) for x in details.other_directors if x != Director()]
    if others:
        out["other_directors"] = others
    return out


def director_to_json(found: Director) -> dict[str, str]:
    return {k: v for k, v in (("id", found.id), ("name", found.name)) if v}


def details_to_dict(details: EventDetails) -> dict[str, Any]:
    """Every field, empty ones included (``""``, ``None``, ``[]``): the shape a page reads
    (office/queries.py), which need not ask whether a key is there."""
    def person(found: Director | None) -> dict[str, str] | None:
        return None if found is None else {"id": found.id, "name": found.name}

    return {**{k: getattr(details, k) for k in DETAIL_TEXTS},
            "chief_director": person(details.chief_director),
            "assistant_director": person(details.assistant_director),
            "other_directors": [person(x) for x in details.other_directors]}
