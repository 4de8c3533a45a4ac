"""What the app reads from the office, made public (see `privacy`).

The office's own queries (`uscf_ratings.office.queries`) do the work; this module
adds what only the web app needs (searching members, listing events) and passes every
rating through `privacy` (ratings to whole points, what follows from an age withheld).
Nothing here selects the birth date column.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import ColumnElement, Connection, func, or_, select

from ..core.model import System
from ..office import queries
from ..office import schema as t
from ..office.store import latest_states
from .lists import OfficeReads
from .privacy import public_player, public_section


def player(c: Connection, member_id: str) -> dict[str, Any] | None:
    """A member's ratings, floors and history (queries.player: no birth date in it), the
    systems in the rating system's order (R, Q, B, OR, OQ, OB) rather than alphabetical."""
    found = queries.player(c, member_id)
    if found is not None:
        ratings = found["ratings"]
        found["ratings"] = {s.value: ratings[s.value] for s in System if s.value in ratings}
        found = public_player(found)
    return found


def event(c: Connection, event_id: str) -> dict[str, Any] | None:
    found = queries.event(c, event_id)
    if found is None:
        return None
    found["sections"] = [public_section(s) for s in found["sections"]]
    return found


def event_exists(c: Connection, event_id: str) -> bool:
    return c.execute(select(t.events.c.id).where(t.events.c.id == event_id)).first() is not None


@dataclass(frozen=True)
class MemberRow:
    id: str
    name: str
    state: str
    ratings: dict[str, str]  #: system -> the rating as published (1846, 1582P14)


def members(c: Connection, kept: OfficeReads, query: str, limit: int, offset: int = 0
            ) -> tuple[list[MemberRow], int]:
    """Members whose id starts with ``query`` or whose name contains it (case ignored),
    by name; and how many match in all (`lists.OfficeReads.members`). Merged ids are
    left out: they are their target."""
    found = kept.members(c, query)
    rows = found[offset:offset + limit]
    states = latest_states(c, [r.id for r in rows])
    shown = [MemberRow(r.id, r.name, r.state,
                       {s.value: queries.display(st.rating, st.games)
                        for s in System if (st := states.get((r.id, s))) is not None})
             for r in rows]
    return shown, len(found)


@dataclass(frozen=True)
class EventRow:
    id: str
    name: str
    start_date: str
    end_date: str
    corrections: int
    place: str  #: city and state, as far as the file gave them


def events(c: Connection, limit: int, offset: int = 0, query: str = "",
           since: date | None = None, until: date | None = None,
           state: str = "") -> tuple[list[EventRow], int]:
    """Events, the latest first: those whose name contains ``query`` or whose id starts
    with it (case ignored), that end on or after ``since`` and start on or before
    ``until`` (an event running on a day is found by that day for both), and that were
    played in ``state`` (as the file gave it, case ignored); and how many match in all."""
    where: list[ColumnElement[bool]] = []
    if state.strip():
        where.append(t.events.c.state == state.strip().upper())
    text = query.strip()
    if text:
        pattern = _like(text)
        # the id as typed, and lowered (a database's lower() may fold ASCII alone)
        where.append(or_(t.events.c.id.like(f"{_like(text, fold=False)}%", escape="\\"),
                         func.lower(t.events.c.id).like(f"{pattern}%", escape="\\"),
                         func.lower(t.events.c.name).like(f"%{pattern}%", escape="\\")))
    if since is not None:
        where.append(t.events.c.end_date >= since)
    if until is not None:
        where.append(t.events.c.start_date <= until)
    total = c.execute(select(func.count()).select_from(t.events).where(*where)).scalar_one()
    rows = c.execute(select(t.events.c.id, t.events.c.name, t.events.c.start_date,
                            t.events.c.end_date, t.events.c.corrections, t.events.c.city,
                            t.events.c.state).where(*where)
                     .order_by(t.events.c.end_date.desc(), t.events.c.id.desc())
                     .limit(limit).offset(offset))
    return [EventRow(r.id, r.name, r.start_date.isoformat(), r.end_date.isoformat(),
                     r.corrections, ", ".join(p for p in (r.city, r.state) if p))
            for r in rows], total


def _like(text: str, fold: bool = True) -> str:
    """``text`` (lowered unless ``fold`` is False), for a LIKE pattern: its own % and _
    are matched as themselves."""
    text = text.lower() if fold else text
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
