"""The history an experiment re-rates: events read once, their sections in rating order.

Each file is read and checked as `uscf db rate` reads it (office/checked_file.py), so a
variant equal to the documented rules meets the same sections the office rates. The
sections are kept in the office's rating order (end date, start date, event id, section
number: office/store.section_key), and only those that start within the period.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..core.model import Event, Section
from ..office.checked_file import CHECK_FAILURES, named, read_checked
from ..office.store import SectionKey, section_key


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
class History:
    """Sections in rating order, each with its event id: the input of every variant."""

    sections: tuple[tuple[str, Section], ...]
    source: str  #: the folder it was read from
    period: Period
    files: int

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


def read_history(folder: Path, period: Period = Period()) -> History:
    """Every event file of ``folder`` (`event_files`), checked as the office checks it;
    one file that cannot be read stops the experiment, naming the file."""
    events: list[Event] = []
    files = event_files(folder)
    for path in files:
        try:
            event, _, _ = read_checked(path)
        except CHECK_FAILURES as error:
            raise HistoryError(named(path, error)) from None
        events.append(event)
    return history_of(events, str(folder), period, len(files))


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
