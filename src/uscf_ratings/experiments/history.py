"""The history an experiment re-rates: events read once, their sections in rating order.

A history is a folder of event files or an office database. Each file is read and
checked as `uscf db rate` reads it (office/checked_file.py), so a variant equal to the
documented rules meets the same sections the office rates. A database gives the files
it stored, each with the way its pre-event ratings were chosen, and what else the office
rates with (`FromOffice`): its members' facts, the baselines of a member list,
floors set by hand, and merged ids (followed in the files, as the office follows them).
The sections are kept in the office's rating order (end date, start date, event id,
section number: office/store.section_key), and only those that start within the period.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from ..core.model import Event, Rating, Section, System
from ..core.pre_event import FloorsSetByHand, MemberFacts
from ..office import schema as t
from ..office.checked_file import CHECK_FAILURES, named, read_checked
from ..office.db import DatabaseError, check_schema_to_read, check_url, make_engine, shown_url
from ..office.defaults import PreRatings
from ..office.run import merged_followed
from ..office.store import (
    SectionKey,
    aliases,
    baseline_states,
    member_facts,
    office_floors,
    section_key,
)
from ..office.submission import event_of_source

#: members read from an office database at once
CHUNK = 10_000


class HistoryError(ValueError):
    """The history cannot be read: the message names the file or folder."""


@dataclass(frozen=True)
class Period:
    """Sections that start on or after ``start`` and on or before ``end`` (None: open)."""

    start: date | None = None
    end: date | None = None

    def holds(self, day: date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)

    def __str__(self) -> str:
        if self.start is None and self.end is None:
            return "every date"
        return f"{self.start or '...'} to {self.end or '...'}"


@dataclass(frozen=True)
class FromOffice:
    """What an office database rates its events with besides their files (office/run.py
    reads the same): empty for a folder of files."""

    #: each event's way of choosing pre-event ratings (`uscf db rate --pre-ratings`);
    #: an event not named: PreRatings.DATABASE, the default
    modes: Mapping[str, PreRatings] = field(default_factory=dict)
    #: the members table's facts (birth dates, FIDE and CFC ratings), for Step 1
    facts: dict[str, MemberFacts | None] = field(default_factory=dict)
    #: each member's standing before any event (`uscf db import-members`), by system
    baselines: Mapping[tuple[str, System], Rating] = field(default_factory=dict)
    floors: FloorsSetByHand = field(default_factory=dict)

    def mode(self, event_id: str) -> PreRatings:
        return self.modes.get(event_id, PreRatings.DATABASE)


@dataclass(frozen=True)
class History:
    """Sections in rating order, each with its event id: the input of every variant."""

    sections: tuple[tuple[str, Section], ...]
    source: str  #: the folder or the database it was read from
    period: Period
    files: int
    office: FromOffice = FromOffice()

    @property
    def games(self) -> int:
        """Rated games (each game once)."""
        return sum(1 for _, s in self.sections for p in s.players for r in p.results
                   if r.played and r.opponent is not None and p.pair < r.opponent)

    def keys(self) -> Iterable[SectionKey]:
        return (section_key(event_id, s) for event_id, s in self.sections)


def event_files(folder: Path) -> list[Path]:
    """The files of ``folder`` and its subfolders, in name order; hidden ones left out."""
    if not folder.is_dir():
        raise HistoryError(f"{folder}: not a folder of event files")
    files = sorted(p for p in folder.rglob("*") if p.is_file()
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    if not files:
        raise HistoryError(f"{folder}: no event files in it")
    return files


def is_database_url(text: str | Path) -> bool:
    """Whether ``text`` names a database (sqlite:///office.db, postgresql://...) rather
    than a folder."""
    return isinstance(text, str) and re.match(r"[A-Za-z][A-Za-z0-9+]*://", text) is not None


def read_history(source: Path | str, period: Period = Period()) -> History:
    """The history of a folder of event files (`read_folder`) or of an office database
    given by its URL (`read_office`)."""
    if is_database_url(source):
        return read_office(str(source), period)
    return read_folder(Path(source), period)


def read_folder(folder: Path, period: Period = Period()) -> History:
    """Every event file of ``folder`` (`event_files`), checked as the office checks it;
    one file that cannot be read stops the experiment, naming the file."""
    events: list[Event] = []
    files = event_files(folder)
    for path in files:
        try:
            event = read_checked(path).event
        except CHECK_FAILURES as error:
            raise HistoryError(named(path, error)) from None
        events.append(event)
    return history_of(events, str(folder), period, len(files))


def read_office(url: str, period: Period = Period()) -> History:
    """The events an office database stored, from the files it stored, with what else it
    rates them with (`FromOffice`). Merged ids are followed in the files. A database
    with published histories (`uscf db import-history`) is refused: the rating a member
    starts from there depends on each section's date, which the chain does not follow
    yet. Anything that cannot be read ends in a `HistoryError` naming the database."""
    shown = shown_url(url)
    try:
        check_url(url, must_exist=True)
    except DatabaseError as error:  # it names the URL
        raise HistoryError(str(error)) from None
    try:
        engine = make_engine(url)
    except DatabaseError as error:
        raise HistoryError(f"{shown}: {error}") from None
    except (ArgumentError, ImportError) as error:  # a driver SQLAlchemy cannot load
        raise HistoryError(f"{shown}: cannot be opened: {error}") from None
    try:
        with engine.connect() as c:
            check_schema_to_read(c)
            if c.execute(select(func.count()).select_from(t.published_history)).scalar():
                raise HistoryError(
                    f"{shown}: holds published histories (uscf db import-history), which an "
                    "experiment does not read yet: give a folder of the event files instead")
            merged = aliases(c)
            events: list[Event] = []
            modes: dict[str, PreRatings] = {}
            for event_id, text in c.execute(select(t.events.c.id, t.events.c.source)):
                event, mode = event_of_source(event_id, json.loads(text))
                events.append(replace(event, sections=tuple(
                    merged_followed(s, merged) for s in event.sections)) if merged else event)
                if mode is not PreRatings.DATABASE:
                    modes[event_id] = mode
            facts: dict[str, MemberFacts | None] = {}
            baselines: dict[tuple[str, System], Rating] = {}
            ids = [i for (i,) in c.execute(select(t.members.c.id))]
            for at in range(0, len(ids), CHUNK):  # some SQLite builds take 32,766 values at most
                some = ids[at:at + CHUNK]
                facts.update((i, f) for i, f in member_facts(c, some).items()
                             if any(v is not None for v in vars(f).values()))
                baselines.update(baseline_states(c, some))
            office = FromOffice(modes, facts, baselines, office_floors(c, None))
    except DatabaseError as error:
        raise HistoryError(f"{shown}: {error}") from None
    except SQLAlchemyError as error:
        raise HistoryError(f"{shown}: cannot be read: {str(error).splitlines()[0]}") from None
    finally:
        engine.dispose()
    found = history_of(events, shown, period)
    return replace(found, office=office)


def history_of(events: Sequence[Event], source: str, period: Period = Period(),
               files: int | None = None) -> History:
    """The sections of ``events`` within ``period``, in rating order; two events with
    one id are refused (the office stores an event once)."""
    seen: set[str] = set()
    for event in events:
        if event.id in seen:
            raise HistoryError(f"{source}: the event id {event.id} is given twice")
        seen.add(event.id)
    sections = sorted(((e.id, s) for e in events for s in e.sections
                       if period.holds(s.start_date)),
                      key=lambda pair: section_key(pair[0], pair[1]))
    return History(tuple(sections), source, period, len(events) if files is None else files)
