"""An event as the office takes it: what it stores, and its sections laid out to rate.

A `Submission` is made from an event's model where the office is handed one
(`Office.rate`), or in the worker that read the file (``uscf db rate``, cli/reading.py),
which then sends it without the model: the office needs the model only for a section
it cannot rate from the columns (office/run.py says when), and builds it again from the
event JSON it stores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING

from ..core.model import Event, System
from ..core.pipeline import section_systems
from ..core.rules import rules_for
from ..formats.event_json import event_from_dict, event_to_json
from .store import SectionKey, section_key

if TYPE_CHECKING:
    from ..batch.laid import LaidSection

try:  # the columns need the extra [fast] (numba, numpy)
    from ..batch.laid import lay_out_section
except ImportError:  # pragma: no cover - exercised where the extra is not installed
    lay_out_section = None  # type: ignore[assignment]

#: whether sections are laid out as columns (the extra [fast] is installed)
LAYS_OUT = lay_out_section is not None


@dataclass(frozen=True)
class SectionEntry:
    """A section's row in the ``sections`` table, and its columns if laid out."""

    number: int
    name: str
    start_date: date
    end_date: date
    systems: tuple[System, ...]
    rule_set: date  #: the effective date of the rule set it is rated under
    laid: LaidSection | None  #: None: rated from the model (or the extra is missing)

    def key(self, event_id: str) -> SectionKey:
        return section_key(event_id, self)


@dataclass(frozen=True)
class Submission:
    """An event to store and rate, checked (core.validate.check_section) or not."""

    id: str
    name: str
    start_date: date
    end_date: date
    sections: tuple[SectionEntry, ...]
    rated_games: int
    #: the event JSON as text; None: written from ``event`` when the office stores it
    source: str | None = None
    #: the model; None: built again from ``source`` when a section needs it
    event: Event | None = field(default=None, compare=False)

    @property
    def first_key(self) -> SectionKey:
        """The key of its first section in rating order."""
        return min(s.key(self.id) for s in self.sections)

    def section(self, number: int) -> SectionEntry:
        return next(s for s in self.sections if s.number == number)

    @property
    def has_model(self) -> bool:
        """Whether `model` can be had without the database (its model or its source)."""
        return self.event is not None or self.source is not None

    @cached_property
    def model(self) -> Event:
        if self.event is not None:
            return self.event
        assert self.source is not None, "a submission has its model or its source"
        return event_from_dict(json.loads(self.source), f"event {self.id}", checked=True)

    def source_text(self) -> str:
        """The event JSON the office stores."""
        if self.source is not None:
            return self.source
        return json.dumps(event_to_json(self.model))

    def without_model(self) -> Submission:
        """This submission as a worker sends it (with its source, unless the caller
        attaches the file's text later)."""
        return replace(self, event=None)


def submission(event: Event, source: str | None = None) -> Submission:
    """The event as the office takes it; ``source`` is its event JSON text if at hand.
    Its sections are laid out where the extra [fast] is installed."""
    entries = []
    for s in event.sections:
        rules = rules_for(s.start_date)
        laid = lay_out_section(s) if lay_out_section is not None else None
        entries.append(SectionEntry(s.number, s.name, s.start_date, s.end_date,
                                    section_systems(s, rules), rules.effective, laid))
    return Submission(event.id, event.name, event.start_date, event.end_date, tuple(entries),
                      event.rated_games, source, event)
