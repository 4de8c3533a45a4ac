"""What is stored is what was rated, checked for one event: the function a test or a
fuzzer calls.

`check_stored_as_rated` rates an event three ways and compares the numbers bit for bit:

1. as ``uscf rate`` rates it, from the file alone (`core.pipeline.rate_section` of the
   settled event, core/settled.py);
2. as the office stores and rates it (`Office.rate`, into an office that holds
   nothing else, so that every pre-event rating is the file's);
3. as the office rates it again from what it stored (every section rated again from
   the database, as a later, earlier-dated event would make it: office/run.py).

Each gives every member's rating after each section in each system, with N after it
and the whole state stored (its columns, `store.STATE_COLUMNS`: what the next event starts
from).
The three must be equal to the bit: 2 and 3 in everything, 1 and 2 in the rating and
N (``uscf rate`` stores no state), where no member plays in two sections: the office
rates such a member (and the opponents) in the second section from the state after the
first, in any system (a blended start reads the others), ``uscf rate`` rates each
section from the file alone, so there 1 may differ, by design, and only 2 and 3 are
compared. docs/office.md, "What is stored is what was rated".
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select

from ..core.model import Event, System
from ..core.pipeline import rate_section
from ..core.settled import settled
from . import schema as t
from .db import writing
from .office import Office, count_rows
from .run import RatingRun
from .store import STATE_COLUMNS, SectionKey

#: a rating after a section: (section number, member id, system)
Place = tuple[int, str, System]
#: its value: (rating after, N after, the stored state's other columns; None from
#: ``uscf rate``)
Value = tuple[float, int, tuple[Any, ...] | None]


@dataclass(frozen=True)
class StoredRated:
    """The three ratings of one event (the module's docstring), each by `Place`."""

    rated: dict[Place, Value]  #: as ``uscf rate`` rates the file
    stored: dict[Place, Value]  #: as the office rated it when it stored it
    rerated: dict[Place, Value]  #: as the office rated it again from the database

    def differences(self) -> list[str]:
        """Every place where the three differ, in words; [] when stored = rated."""
        out = []
        places = self.rated.keys() | self.stored.keys() | self.rerated.keys()
        sections_of: dict[str, set[int]] = {}
        for number, member, _ in places:
            sections_of.setdefault(member, set()).add(number)
        alone = all(len(n) == 1 for n in sections_of.values())  # else chained sections
        for place in sorted(places):
            rated, stored, again = (d.get(place) for d in (self.rated, self.stored,
                                                           self.rerated))
            label = f"section {place[0]}, {place[1]}, {place[2].value}"
            if alone and (rated is None or stored is None or rated[:2] != stored[:2]):
                out.append(f"{label}: uscf rate gives {_shown(rated)}, the office stored "
                           f"{_shown(stored)}")
            if stored != again:
                out.append(f"{label}: stored {_shown(stored)}, rated again from the "
                           f"database {_shown(again)}")
        return out


def _shown(value: Value | None) -> str:
    if value is None:
        return "nothing"
    return f"{value[0]!r} after {value[1]} games" + (f" (state {value[2]})" if value[2] else "")


def check_stored_as_rated(event: Event, folder: Path | None = None) -> StoredRated:
    """Rate ``event`` as ``uscf rate`` does, store and rate it in a new SQLite office
    (in ``folder``, else a temporary one), rate it again from the database; the three
    ratings (`StoredRated.differences` compares them). Raises what ``uscf rate`` or the
    office raises for an event they refuse."""
    rated = rated_from_file(event)
    if folder is None:
        with tempfile.TemporaryDirectory() as temporary:
            return _stored_and_rerated(event, Path(temporary), rated)
    return _stored_and_rerated(event, folder, rated)


def rated_from_file(event: Event) -> dict[Place, Value]:
    """The ratings ``uscf rate`` gives ``event``: each member's after each section in
    which the member played a rated game (the office keeps no row of the others)."""
    out: dict[Place, Value] = {}
    for section in settled(event).sections:
        for player in rate_section(section).players:
            for system, r in player.ratings.items():
                if player.id and r.m and r.post is not None and r.games_after is not None:
                    out[(section.number, player.id, system)] = (r.post, r.games_after, None)
    return out


def _stored_and_rerated(event: Event, folder: Path, rated: dict[Place, Value]) -> StoredRated:
    office = Office(f"sqlite:///{folder / 'stored_rated.db'}")
    try:
        office.init()
        office.rate(event)
        stored = stored_ratings(office)
        rerate_everything(office)
        return StoredRated(rated, stored, stored_ratings(office))
    finally:
        office.engine.dispose()


def stored_ratings(office: Office) -> dict[Place, Value]:
    """Every rating the office holds, by `Place` (its events' section numbers, which
    are unique where the office holds one event)."""
    r = t.ratings.c
    with office.engine.connect() as c:
        return {(row.section, row.member_id, System(row.system)):
                (row.post, row.games_after, tuple(row[-len(STATE_COLUMNS):]))
                for row in c.execute(select(r.section, r.member_id, r.system, r.post,
                                            r.games_after, *(r[n] for n in STATE_COLUMNS)))}


def rerate_everything(office: Office) -> int:
    """Rate every stored section again, from the events as stored (their event JSON)
    and the database's states: a fresh `RatingRun` holds nothing of the runs that
    stored them. How many sections."""
    if not count_rows(office)["sections"]:
        return 0
    with writing(office.engine) as c:
        row = c.execute(
            select(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                   t.sections.c.number)
            .order_by(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                      t.sections.c.number).limit(1)).one()
        first: SectionKey = (row[0], row[1], row[2], row[3])  # Row.tuple() is deprecated
        return len(RatingRun(c).rate_from(first))
