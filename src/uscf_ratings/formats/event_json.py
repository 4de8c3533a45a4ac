"""The event JSON format: read it into the core model (schema: schemas/event.schema.json).

The file is checked against the JSON Schema first, every problem reported with its path.
A compiled validator answers the common case of a valid file: jsonschema-rs where the
extra [fast] is installed, else fastjsonschema. A file it doubts goes to fastjsonschema,
and one that fails there to jsonschema, which lists every problem. Values the schema
cannot check (calendar dates) are checked while building the model.
Consistency between players (mirrored results, known pair numbers) is checked by the core
when the section is rated.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from datetime import date
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.model import (
    CfcRating,
    Event,
    FideRating,
    InitialRating,
    KFactor,
    MatchChange,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
    player_of_fields,
    rating_of_fields,
)
from .bounds import parse_json, read_input
from .common import in_domain
from .errors import Issue, ParseError
from .event_details import details_from_json, details_to_json

if TYPE_CHECKING:  # the validators are imported when first used: `uscf --help` needs none
    import jsonschema


@cache
def schema() -> dict[str, Any]:
    text = resources.files("uscf_ratings").joinpath("schemas/event.schema.json").read_text()
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _valid_or_raise() -> Callable[[Any], Any]:
    """The schema compiled to Python: fast, but it stops at the first problem. It must
    not fill in the schema's defaults (``use_default``): the builder applies them. It gets
    a copy: compiling rewrites the schema's references in place."""
    import fastjsonschema

    check: Callable[[Any], Any] = fastjsonschema.compile(copy.deepcopy(schema()),
                                                         use_default=False)
    return check


@cache
def _quickly_valid() -> Callable[[Any], bool] | None:
    """jsonschema-rs's answer to "is it valid?", about 15 times faster than fastjsonschema
    on event files (0.07 ms against 1.2 ms for a 30-player event); None without it. It
    can only be stricter than fastjsonschema here (a regular expression's ``$`` is the end
    of the text, where Python's also allows a final newline), and a file it doubts goes
    to fastjsonschema, so the files accepted are the same (a test checks it)."""
    try:  # the extra [fast]: a validator compiled to machine code
        import jsonschema_rs
    except ImportError:  # pragma: no cover - exercised where the extra is not installed
        return None
    check: Callable[[Any], bool] = jsonschema_rs.validator_for(schema()).is_valid
    return check


@cache
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema

    return jsonschema.Draft202012Validator(schema())


def schema_problems(data: Any) -> list[Issue]:
    """Every place where ``data`` breaks the event schema, with its path; [] if none."""
    quick = _quickly_valid()
    if quick is not None and quick(data):
        return []
    import fastjsonschema

    try:
        _valid_or_raise()(data)
        return []
    except fastjsonschema.JsonSchemaException:
        pass
    errors = sorted(_validator().iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [Issue(_path(e.absolute_path), _explain(e)) for e in errors]


def read_event(path: Path | str) -> Event:
    """Read an event JSON file."""
    path = Path(path)
    try:
        text = read_input(path).decode("utf-8")
    except UnicodeDecodeError as error:
        problem = Issue("", f"not UTF-8 text ({error.reason} at byte {error.start})")
        raise ParseError(str(path), [problem]) from None
    return parse_event(text, str(path))


def parse_event(text: str, source: str = "<event>") -> Event:
    """Event JSON text as an event; a `ParseError` naming the place of each problem (its
    depth and numbers bounded as every reader's JSON, `bounds.parse_json`)."""
    return event_from_dict(parse_json(text, source), source)


def _path(parts: Any) -> str:
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def event_from_dict(data: Any, source: str = "<event>", *, checked: bool = False) -> Event:
    """Build an event from event JSON, every value in its domain (core/domain.py).
    ``checked=True`` skips the schema and domain checks, for JSON this project wrote
    itself (the office re-reads the events it stored at every re-rate, and checking them
    again was half the cost of rating)."""
    if not checked:
        problems = schema_problems(data)
        if problems:
            raise ParseError(source, problems)
    issues: list[Issue] = []
    builder = _Builder(issues)
    event = builder.event(data)
    if issues:
        raise ParseError(source, issues)
    return event if checked else in_domain(event, source)


def _explain(error: jsonschema.ValidationError) -> str:
    if error.validator == "pattern" and "results" in map(str, error.absolute_path):
        return (f"result {error.instance!r} is not a US Chess code: expected W, L or D with the "
                "opponent's pair number (W8), X or F with an optional pair number, H, B or U")
    if error.validator == "pattern":
        return f"{error.instance!r} is not a date as YYYY-MM-DD"
    return error.message


_SYSTEMS = {s.value: s for s in System}
_CODES = {s: s.value for s in System}


class _Builder:
    """Turn checked JSON into model objects, noting bad calendar dates as issues."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        #: each date read, by its text: a file gives the same few dates to most of its
        #: players' ratings, and one object for them is pickled once when the event
        #: travels between processes (office/spool.py, office/prefetch.py)
        self.dates: dict[str, date] = {}

    def calendar_date(self, text: str | None, where: str) -> date | None:
        if text is None:
            return None
        made = self.dates.get(text)
        if made is not None:
            return made
        try:
            made = self.dates[text] = date.fromisoformat(text)
        except ValueError:
            self.issues.append(Issue(where, f"{text!r} is not a calendar date"))
            return date(1970, 1, 1)
        return made

    def event(self, data: dict[str, Any]) -> Event:
        e = data["event"]
        start = self.calendar_date(e["start_date"], "event.start_date")
        end = self.calendar_date(e.get("end_date"), "event.end_date") or start
        assert start is not None and end is not None
        online = bool(e.get("online", False))
        sections = tuple(self.section(s, f"sections[{i}]", start, end, online)
                         for i, s in enumerate(data["sections"]))
        return Event(e["id"], start, end, sections, e.get("name", ""), online,
                     details_from_json(e.get("details", {})))

    def section(self, s: dict[str, Any], where: str, start: date, end: date,
                online: bool) -> Section:
        s_start = self.calendar_date(s.get("start_date"), f"{where}.start_date") or start
        s_end = self.calendar_date(s.get("end_date"), f"{where}.end_date") or end
        systems = tuple(_SYSTEMS[x] for x in s["systems"]) if "systems" in s else None
        players = tuple(self.player(p, f"{where}.players[{i}]", s_start)
                        for i, p in enumerate(s["players"]))
        return Section(
            number=s["number"], name=s.get("name", ""), start_date=s_start, end_date=s_end,
            players=players, time_control=s.get("time_control"),
            online=s.get("online", online), type=SectionType(s.get("type", "swiss")),
            systems=systems, k=KFactor(s.get("k", "full")), youth=s.get("youth", False),
        )

    def player(self, p: dict[str, Any], where: str, section_start: date) -> Player:
        ratings = {_SYSTEMS[k]: self.rating(v, f"{where}.ratings.{k}", section_start)
                   for k, v in p.get("ratings", {}).items()}
        initial = {_SYSTEMS[k]: InitialRating(v["rating"], v.get("games", 0))
                   for k, v in p.get("initial", {}).items()}
        fide = p.get("fide")
        cfc = p.get("cfc")
        cells = p["results"]
        # every field given at once (`model.player_of_fields`, `model.rating_of_fields`):
        # a reader makes one for every player and rating of a file: the checks of a
        # year's files read 300,000 players, and a re-rate's readers read them again
        # (office/prefetch.py)
        return player_of_fields(
            p["pair"], p.get("id", ""), p.get("name", ""),
            self.calendar_date(p.get("birth_date"), f"{where}.birth_date"),
            p.get("adult"), ratings, initial,
            FideRating(fide["rating"], self.calendar_date(fide.get("date"), f"{where}.fide.date"))
            if fide else None,
            CfcRating(cfc["rating"], self.calendar_date(cfc.get("date"), f"{where}.cfc.date"),
                      cfc.get("canadian_resident", True)) if cfc else None,
            tuple(map(parse_cell, cells, range(1, len(cells) + 1))),
        )

    def rating(self, r: dict[str, Any], where: str, section_start: date) -> Rating:
        get = r.get
        return rating_of_fields(
            float(r["rating"]), r["games"],
            self.calendar_date(get("date"), f"{where}.date") or section_start,
            get("wins"), get("draws"), get("losses"), get("events3"), get("peak"),
            get("floor"), get("floor_lowered_from"), get("floor_lowered_to"),
            get("olm", False), get("games_above_2200"),
            tuple(
                MatchChange(self.calendar_date(c["date"], f"{where}.match_changes[{i}].date")
                            or section_start, float(c["change"]))
                for i, c in enumerate(r["match_changes"])) if "match_changes" in r else (),
            get("games_known", True),
        )


@lru_cache(maxsize=65536)
def parse_cell(cell: str, round_number: int) -> Result:
    """A report cell such as 'W12', 'X', 'F7' or 'H' (the schema has checked its shape).
    Cached: results are immutable and the same cells recur in every event."""
    code, digits = cell[0], cell[1:]
    return Result(round_number, code, int(digits) if digits else None)


read = read_event


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as event JSON: the inverse of `event_from_dict`."""
    from .result_json import rating_state

    def player(p: Player) -> dict[str, Any]:
        out: dict[str, Any] = {"pair": p.pair}
        if p.id:
            out["id"] = p.id
        if p.name:
            out["name"] = p.name
        if p.birth_date:
            out["birth_date"] = p.birth_date.isoformat()
        if p.adult is not None:
            out["adult"] = p.adult
        if p.ratings:
            out["ratings"] = {_CODES[s]: rating_state(r) for s, r in p.ratings.items()}
        if p.initial:
            out["initial"] = {s.value: {"rating": i.rating, "games": i.games}
                              for s, i in p.initial.items()}
        if p.fide:
            out["fide"] = {"rating": p.fide.rating} | (
                {"date": p.fide.date.isoformat()} if p.fide.date else {})
        if p.cfc:
            out["cfc"] = {"rating": p.cfc.rating, "canadian_resident": p.cfc.canadian_resident} | (
                {"date": p.cfc.date.isoformat()} if p.cfc.date else {})
        results = p.results
        if any(a.round > b.round for a, b in pairwise(results)):
            results = tuple(sorted(results, key=lambda r: r.round))
        # The n-th cell is round n (`parse_cell`): a round without a result (a reader
        # that leaves an unpaired round out, as WinTD and PGN do) is written U, or every
        # later result would be read back a round early, unmirrored.
        cells: list[str] = []
        for r in results:
            cells.extend("U" * (r.round - len(cells) - 1))
            cells.append(r.code if r.opponent is None else f"{r.code}{r.opponent}")
        out["results"] = cells
        return out

    def section(s: Section) -> dict[str, Any]:
        out: dict[str, Any] = {"number": s.number, "name": s.name,
                               "start_date": s.start_date.isoformat(),
                               "end_date": s.end_date.isoformat(), "online": s.online,
                               "type": s.type.value, "k": s.k.value}
        if s.time_control:
            out["time_control"] = s.time_control
        if s.systems:
            out["systems"] = [x.value for x in s.systems]
        if s.youth:
            out["youth"] = True
        out["players"] = [player(p) for p in s.players]
        return out

    head: dict[str, Any] = {"id": event.id, "name": event.name,
                            "start_date": event.start_date.isoformat(),
                            "end_date": event.end_date.isoformat(), "online": event.online}
    if not event.details.empty:
        head["details"] = details_to_json(event.details)
    return {"event": head, "sections": [section(s) for s in event.sections]}


def write(event: Event, path: Path | str) -> list[Path]:
    """Write ``event`` as event JSON; the path written."""
    Path(path).write_text(json.dumps(event_to_json(event), indent=2) + "\n", encoding="utf-8")
    return [Path(path)]
