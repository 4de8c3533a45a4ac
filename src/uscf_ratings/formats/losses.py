"""What a written file did not keep: `write_any` reads the files it wrote back with the
target format's reader and compares them with the event, field by field, so that
`uscf convert` can say what the target format could not hold (Q ratings, N, rating
dates, FIDE ratings, ...) instead of dropping it without a word.

Reading back rather than listing each writer's gaps by hand keeps the warnings true when
a writer changes: whatever the written file gives back differently is reported.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from pathlib import Path
from types import ModuleType

from ..core.model import Director, Event, EventDetails, Player, Rating, Section
from .errors import ParseError

LABELS = {"json": "event JSON", "dbf": "the DBF rating report", "trf": "TRF",
          "csv": "the CSV crosstable", "csvjson": "the CSV crosstable's JSON",
          "sjson": "SwissSys", "wintd": "WinTD", "pgn": "PGN", "api": "ratings-API records"}
#: How many players a warning names before "and N more".
SHOWN = 10
_HISTORY = ("wins", "draws", "losses", "events3", "peak", "floor", "floor_lowered_from",
            "floor_lowered_to", "olm", "games_above_2200", "match_changes")


def losses(event: Event, fmt: str, reader: ModuleType, target: Path,
           paths: list[Path]) -> list[str]:
    """One warning per field (and per written file) that reading ``paths`` back with
    ``reader`` (the module of format ``fmt``, as `detect` loads it) does not give as
    ``event`` holds it. The caller passes the module: this one does not import `detect`,
    which imports it."""
    label = LABELS.get(fmt, fmt)
    try:
        back = _read_back(fmt, reader, target, paths)
    except (ParseError, ValueError, OSError) as error:
        return [f"{target}: what {label} kept could not be checked: reading it back "
                f"failed: {error}"]
    found: dict[tuple[Path, str, str], list[str]] = defaultdict(list)
    notes: list[str] = []
    by_number = {s.number: (p, s) for p, e in back for s in e.sections}
    where0 = paths[0] if paths else target
    for where, e in back:
        for key, given, kept in (("id", event.id, e.id), ("name", event.name, e.name),
                                 *_detail_fields(event.details, e.details)):
            if given != kept:
                notes.append(f"{where}: {label} cannot hold the event's {key}: {given!r} "
                             f"is written as {kept!r}")
    for s in event.sections:
        if s.number not in by_number:
            notes.append(f"{where0}: section {s.number} is not in what {label} wrote")
            continue
        where, b = by_number[s.number]
        for field_, old, new in _section_fields(s, b):
            notes.append(f"{where}: {label} cannot hold section {s.number}'s {field_}: "
                         f"{old!r} is written as {new!r}")
        players = {q.pair: q for q in b.players}
        for p in s.players:
            q = players.get(p.pair)
            if q is None:
                found[(where, "players", "not written")].append(_who(p))
                continue
            for field_, verb in _player_fields(p, q, s.start_date):
                found[(where, field_, verb)].append(_who(p))
    for (where, field_, verb), who in found.items():
        shown = ", ".join(who[:SHOWN]) + (f" and {len(who) - SHOWN} more" if len(who) > SHOWN
                                          else "")
        notes.append(f"{where}: {label} cannot hold {field_}: {len(who)} player(s)' "
                     f"{field_} {verb} ({shown})")
    return notes


#: each field of `EventDetails` as a warning names it
DETAIL_LABELS = {"city": "city", "state": "state", "zip_code": "ZIP code",
                 "country": "country", "site": "site", "affiliate_id": "affiliate id",
                 "affiliate_name": "affiliate name", "chief_director": "chief director",
                 "assistant_director": "assistant director",
                 "other_directors": "other directors"}


def _detail_fields(given: EventDetails, kept: EventDetails) -> list[tuple[str, str, str]]:
    """(label, given, kept) for each field of the event's details, as text."""
    def text(value: object) -> str:
        if isinstance(value, Director):
            return " ".join(x for x in (value.id, value.name) if x)
        if isinstance(value, tuple):
            return ", ".join(text(x) for x in value)
        return "" if value is None else str(value)

    return [(label, text(getattr(given, name)), text(getattr(kept, name)))
            for name, label in DETAIL_LABELS.items()]


def _read_back(fmt: str, module: ModuleType, target: Path,
               paths: list[Path]) -> list[tuple[Path, Event]]:
    if fmt == "dbf":
        return [(target, module.read(target))]
    if fmt == "json":
        return [(p, module.read_event(p)) for p in paths]
    return [(p, module.read(p)) for p in paths]


def _who(p: Player) -> str:
    return f"id {p.id}" if p.id else f"pair {p.pair}"


def _section_fields(s: Section, b: Section) -> list[tuple[str, object, object]]:
    out: list[tuple[str, object, object]] = []
    pairs = (("name", s.name, b.name), ("time control", s.time_control, b.time_control),
             ("type", s.type.value, b.type.value), ("K", s.k.value, b.k.value),
             ("online mark", s.online, b.online), ("youth mark", s.youth, b.youth),
             ("start date", s.start_date, b.start_date), ("end date", s.end_date, b.end_date))
    out += [(f, o, n) for f, o, n in pairs if o != n]
    old = ",".join(x.value for x in s.systems) if s.systems else "(not stated)"
    new = ",".join(x.value for x in b.systems) if b.systems else "(not stated)"
    if set(s.systems or ()) != set(b.systems or ()):
        out.append(("rating systems", old, new))
    return out


def _player_fields(p: Player, q: Player, start: date) -> list[tuple[str, str]]:
    """(field, what happened) for each field of ``p`` that ``q`` does not give back."""
    out: list[tuple[str, str]] = []
    for system, r in p.ratings.items():
        rb = q.ratings.get(system)
        if rb is None:
            out.append((f"{system} ratings", "are not written"))
            continue
        if rb.rating != r.rating:
            out.append((f"{system} ratings", "are written rounded"))
        if (rb.games, rb.games_known) != (r.games, r.games_known):
            out.append((f"{system} N (games)", "are not written"))
        if _dated(r, start) != _dated(rb, start):
            out.append((f"{system} rating dates", "are not written"))
        if any(getattr(r, k) != getattr(rb, k) for k in _HISTORY):
            out.append((f"{system} rating history (wins, draws, losses, peak, floors)",
                        "is not written"))
    for system in q.ratings.keys() - p.ratings.keys():
        out.append((f"{system} ratings", "are written although the event has none"))
    out += _other_fields(p, q)
    return out


def _dated(r: Rating, start: date) -> date | None:
    """A rating's date, None when it is the section's start (what readers assume)."""
    return None if r.date in (None, start) else r.date


def _other_fields(p: Player, q: Player) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if p.fide and not q.fide:
        out.append(("FIDE ratings", "are not written"))
    elif p.fide and q.fide and p.fide.rating != q.fide.rating:
        out.append(("FIDE ratings", "are written rounded"))
    elif p.fide and q.fide and p.fide.date != q.fide.date:
        out.append(("FIDE rating dates", "are not written"))
    if p.cfc and q.cfc != p.cfc:
        out.append(("CFC ratings", "are not written"))
    if p.initial and q.initial != p.initial:
        out.append(("initial ratings", "are not written"))
    if p.birth_date != q.birth_date:
        out.append(("birth dates", "are not written"))
    if p.adult != q.adult and p.adult is not None:
        out.append(("adult marks", "are not written"))
    if p.id != q.id:
        out.append(("member ids", "are not written"))
    if p.name != q.name:
        out.append(("names", "are not written as they are"))
    if tuple(p.results) != tuple(q.results):
        out.append(("results", "are not written as they are"))
    return out
