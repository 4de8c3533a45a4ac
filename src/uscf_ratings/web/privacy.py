"""What the open pages and endpoints may show of a rating: nothing that gives an age away.

Birth dates and contact details are never shown: many members are minors. The office's
tables hold no contact details, and no page or endpoint reads the birth date column. But
the numbers of a rating carry the age too:

* an age-based initial rating is R0 = 50 x age (section 2.3): R0 to one decimal gives the
  age, and with the event's date the birth date, to the day. Rounded to whole points it
  still narrows the birth date to a week, and two such starts (two systems, two dates)
  can narrow it to a day: so it is **withheld**, and so is everything that follows
  closely from it (the player's Step 3 estimate, which is R0's special formula with
  N' = 1; R0' and S' of the player's steps; the same numbers in the opponents' steps);
* a blended start (2024 and 2025 texts, section 2) weights its sources by
  exp(0.06 (z - 6) D/365.25) with z = (X - P)/350 and P = 50 x age at the source's
  date: P, z, the staleness factor and the weight are **withheld**;
* every rating that follows is a function of those numbers, and of the opponents'
  (E of a game against a junior gives the junior's exact rating away): so every
  rating-valued number (pre, post, R0, the steps' ratings, floors, peaks, list
  entries) is shown to **whole points**, the precision US Chess publishes; K, E,
  K(S - E), the bonus, N' and S' to **two decimals**. One rating point is 7.3 days of
  age; a whole point of an estimate or of a post-event rating moves far less with
  R0 (that is the formula's damping), so what is left narrows an age to weeks at best.

`public_section` applies all of it to one section (the opponents' steps need the
section); `public_ratings` to a player's ratings alone.

>>> view = public_rating({"R0": 520.0342, "pre": None, "post": 688.4121, "N": 0,
...     "initial": {"rating": 520.0342, "games": 0, "method": "age",
...     "detail": "age-based rating (section 2.3): age 10.40: 50 x age, within 100..1300",
...     "sources": [{"source": "age", "rating": 520.0342, "games": 0}]}, "steps": []})
>>> view["R0"], view["post"], view["initial"]["rating"]
(None, 688, None)
>>> view["initial"]["detail"]
"age-based rating (section 2.3): from the member's age, which is private (R0 withheld)"
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable
from typing import Any

from ..core.formulas import round_half_up, rounded_rating

#: The age-based ratings that say nothing exact about an age (section 2.3): no usable
#: birth date (750, 1300), a miscoded one (under 3), or an age of 26 or more (1300).
NO_AGE = (750.0, 1300.0)
AGE_TEXT = re.compile(r"\bage \d+(?:\.\d+)?")
AGE_DETAIL = ("age-based rating (section 2.3): from the member's age, which is private "
              "(R0 withheld)")
BLENDED_NOTE = ("; P, z, staleness factors and weights are not shown: they depend on "
                "the member's age")
RATING_IN_TEXT = re.compile(r"(\b(?:rating|converted to) )(\d+\.\d+)")
#: Keys whose values are ratings (whole points) and statistics (two decimals).
RATINGS = {"pre", "post", "post_2dp", "R0", "rating", "unfloored", "R0_adjusted", "peak",
           "floor", "absolute", "olm", "office", "floor_lowered_from", "floor_lowered_to"}
FIGURES = {"K", "E", "change", "bonus", "N_eff", "S_adjusted", "S"}
#: What a blended source shows of its weighting: nothing.
BLENDED_HIDDEN = ("age_rating", "z", "staleness_factor", "weight")


def whole(value: Any) -> Any:
    """A rating to whole points (half up), as published; anything else unchanged."""
    if isinstance(value, float) and math.isfinite(value):
        return rounded_rating(value)
    return value


def two_decimals(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return round_half_up(value, 2)
    return value


def from_age(explanation: dict[str, Any]) -> bool:
    """Whether R0 is 50 x age of a birth date (an age-based start that used one)."""
    initial = explanation.get("initial") or {}
    return (initial.get("method") == "age" and initial.get("rating") not in NO_AGE
            and AGE_TEXT.search(str(initial.get("detail", ""))) is not None)


def _secrets(explanations: Iterable[dict[str, Any]]) -> set[float]:
    """The numbers that follow closely from an age-based R0: R0 and the Step 3 estimate
    of each such player. Where they appear (as an opponent's rating too), they are
    withheld; compared as the exact floats the engine produced."""
    found: set[float] = set()
    for r in explanations:
        if from_age(r) and isinstance(r.get("R0"), float):
            found.add(r["R0"])
            for step in r.get("steps") or []:
                if step.get("step") == 3:
                    found.update(v for v in (step.get("unfloored"), step.get("rating"))
                                 if isinstance(v, float))
    return found


def _initial(initial: dict[str, Any], age_based: bool) -> None:
    method = initial.get("method")
    detail = str(initial.get("detail", ""))
    if age_based:
        initial["rating"] = None
        initial["detail"] = AGE_DETAIL
        for source in initial.get("sources") or []:
            source["rating"] = None
        return
    if method == "age":  # 750 or 1300: say why without the age
        if "under 3" in detail:
            detail = AGE_TEXT.sub("age", detail)
        else:
            detail = AGE_TEXT.sub("age 26 or more", detail, count=1)
    if method == "blended":
        names = ", ".join(f"{s.get('source')} {whole(s.get('rating'))}"
                          for s in initial.get("sources") or [])
        detail = f"weighted average of {names} (2025 text, section 2){BLENDED_NOTE}"
        for source in initial.get("sources") or []:
            for key in BLENDED_HIDDEN:
                source.pop(key, None)
    initial["detail"] = RATING_IN_TEXT.sub(lambda m: m.group(1) + str(whole(float(m.group(2)))),
                                           detail)
    initial["rating"] = whole(initial.get("rating"))
    for source in initial.get("sources") or []:
        source["rating"] = whole(source.get("rating"))


def _numbers(node: Any, secrets: set[float]) -> Any:
    """Ratings to whole points and figures to two decimals, everywhere in ``node``;
    a number in ``secrets`` withheld (None)."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if isinstance(value, float) and value in secrets:
                out[key] = None
            elif key == "post_2dp" and isinstance(node.get("post"), float):
                # from the float itself: whole(1134.495) is 1134, whole(1134.50) 1135
                out[key] = None if node["post"] in secrets else whole(node["post"])
            elif key in RATINGS:
                out[key] = whole(value)
            elif key in FIGURES:
                out[key] = two_decimals(value)
            elif key == "opponents":
                out[key] = [None if o in secrets else whole(o) for o in value]
            else:
                out[key] = _numbers(value, secrets)
        return out
    if isinstance(node, list):
        return [_numbers(item, secrets) for item in node]
    if isinstance(node, float) and node in secrets:
        return None
    return node


def public_rating(explanation: dict[str, Any], secrets: set[float] | None = None) -> dict[str, Any]:
    """One rating explanation (``rating_to_dict``'s shape) as the public may see it.
    ``secrets``: the section's numbers that follow from an age (see `public_section`)."""
    out = copy.deepcopy(explanation)
    age_based = from_age(out)
    hidden = set(secrets or ()) | _secrets([out])
    if out.get("initial"):
        _initial(out["initial"], age_based)
    if age_based:
        out["R0"] = None
        for step in out.get("steps") or []:
            for key in ("R0_adjusted", "S_adjusted"):
                if key in step:
                    step[key] = None
    out["notes"] = [AGE_TEXT.sub("age", note) for note in out.get("notes") or []]
    initial = out.pop("initial", None)
    shown: dict[str, Any] = _numbers(out, hidden)
    shown["initial"] = initial
    return shown


def public_ratings(ratings: dict[str, dict[str, Any]],
                   secrets: dict[str, set[float]] | None = None) -> dict[str, dict[str, Any]]:
    return {system: public_rating(r, (secrets or {}).get(system))
            for system, r in ratings.items()}


def public_section(section: dict[str, Any]) -> dict[str, Any]:
    """A section (players with ``ratings``: system -> explanation) with every player's
    ratings made public, the opponents' view of each age-based start withheld too."""
    players = section.get("players") or []
    systems = {s for p in players for s in (p.get("ratings") or {})}
    secrets = {s: _secrets(p["ratings"][s] for p in players if s in (p.get("ratings") or {}))
               for s in systems}
    out = dict(section)
    out["players"] = [p | {"ratings": public_ratings(p.get("ratings") or {}, secrets)}
                      for p in players]
    return out


def public_player(found: dict[str, Any]) -> dict[str, Any]:
    """`queries.player` made public: ratings, peaks and history to whole points."""
    out = copy.deepcopy(found)
    for r in out["ratings"].values():
        r["rating"], r["peak"] = whole(r["rating"]), whole(r["peak"])
    for h in out["history"]:
        h["pre"], h["post"] = whole(h["pre"]), whole(h["post"])
    return out
