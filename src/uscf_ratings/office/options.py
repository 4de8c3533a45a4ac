"""The options of the office's bulk operations: how files are read (`ReadOptions`),
how events are rated and committed (`RateOptions`), and both with how many files are
checked and rated (`IngestOptions`, for `office.ingest.ingest`).

This module imports nothing heavy: the CLI builds its options from it without
importing the office (SQLAlchemy, Numba).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from ..core.model import System
from .defaults import COMMIT_EVERY, PreRatings

if TYPE_CHECKING:
    from ..formats.detect import Format

__all__ = ["COMMIT_EVERY", "IngestOptions", "PreRatings", "RateOptions", "ReadOptions"]


@dataclass(frozen=True)
class ReadOptions:
    """How event files are read (``uscf db rate``'s ``--from``, ``--date``, ``--systems``
    and ``--assign-ids``)."""

    #: the format (one of `formats.detect.FORMATS`), if the content and extension do
    #: not tell it
    format: Format | None = None
    #: the date of files that give none; a file that states another is refused
    event_date: date | None = None
    #: the systems of sections that name none; a file that states others is refused
    systems: tuple[System, ...] | None = None
    #: give each player without a member id the id EVENT/SECTION/PAIR (else the file
    #: is refused: office/admission.py)
    assign_ids: bool = False


@dataclass(frozen=True)
class RateOptions:
    """How the office stores and rates many events (`Office.rate_many`)."""

    #: where the pre-event ratings come from
    pre_ratings: PreRatings = PreRatings.DATABASE
    #: treat an event already rated as a correction (else it is refused)
    replace_rated: bool = False
    #: commit whole events once those since the last commit hold this many games (0:
    #: each event in its own transaction); see `defaults.COMMIT_EVERY`
    commit_every: int = COMMIT_EVERY
    #: store an event whose content (dates, players, games: office/fingerprint.py) is
    #: stored under another id: the user says it is another event (else it is refused)
    different_event: bool = False

    def __post_init__(self) -> None:
        if self.commit_every < 0:
            raise ValueError(f"commit_every {self.commit_every}: expected a number of "
                             "games, 0 or more")


@dataclass(frozen=True)
class IngestOptions:
    """How `office.ingest.ingest` stores and rates many event files."""

    reading: ReadOptions = field(default_factory=ReadOptions)
    rating: RateOptions = field(default_factory=RateOptions)
    #: check every file before rating any; else (the default) the events of files that
    #: come in rating order are rated while the rest are still being checked, in a
    #: transaction that commits nothing until every file has passed
    check_first: bool = False
