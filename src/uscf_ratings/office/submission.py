"""An event as the office takes it: what it stores, and its sections laid out to rate.

A `Submission` is made from an event's model where the office is handed one
(`Office.rate`), or in the process that checked the file (`office.ingest`,
office/checked_file.py), which then sends it without the model: the office needs the
model only for a section it cannot rate from its lineup (office/run.py says when), and
builds it again from the event JSON it stores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from typing import Any

from sqlalchemy import Connection

from ..core.layout import FileRatings, Lineup, lineup
from ..core.model import Event, EventDetails, Player, System, player_of_fields
from ..core.norms import section_reason
from ..core.pipeline import PROCEDURE_TYPES, section_systems
from ..core.rules import rules_for
from ..core.settled import settled
from ..core.steps import merge_entrants
from ..formats.event_json import event_from_dict, event_to_json
from .defaults import PreRatings
from .fingerprint import fingerprint
from .store import SectionKey, event_source, section_key


@dataclass(frozen=True)
class SectionEntry:
    """A section's row in the ``sections`` table, and its lineup."""

    number: int
    name: str
    start_date: date
    end_date: date
    systems: tuple[System, ...]
    rule_set: date  #: the effective date of the rule set it is rated under
    #: its players and games as the procedure of section 1 reads them (core/layout.py);
    #: None for a match or a foreign FIDE event, rated from the model (sections 6 and 7)
    lineup: Lineup | None
    #: why none of its players can earn a norm toward a title, or None when they can
    #: (`core.norms.section_reason`: kept here, as the lineup does not say whether the
    #: section was played online)
    norm_reason: str | None = None

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
    #: the events table's ``city`` and ``state`` (`place_columns`); the source has them too
    city: str | None = None
    state: str | None = None
    #: its content's fingerprint (office/fingerprint.py); None: made from the model when
    #: the office stores it (the checks' processes make it beside the lineups)
    fingerprint: str | None = None

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

    def content_fingerprint(self) -> str:
        """`fingerprint`, made from the model where it was not given."""
        return self.fingerprint if self.fingerprint is not None else fingerprint(self.model)

    def without_model(self) -> Submission:
        """This submission as a worker sends it (with its source, unless the caller
        attaches the file's text later)."""
        return replace(self, event=None)


def submission(event: Event, source: str | None = None) -> Submission:
    """The event as the office takes it, every default filled in (`core.settled`): what
    it rates is what it stores. ``source`` is its event JSON text if at hand, used only
    where nothing was filled (else the settled model is written out, unless the caller
    adds what was filled to the file's own JSON: `checked_file.settled_text`). Its
    Swiss and round-robin sections are laid out (their lineups)."""
    filled = settled(event)
    if filled is not event:
        event, source = filled, None
    entries = []
    for s in event.sections:
        rules = rules_for(s.start_date)
        systems = section_systems(s, rules)
        laid = _travelling(lineup(s, rules, systems, merge_entrants(s.players))) \
            if s.type in PROCEDURE_TYPES else None
        entries.append(SectionEntry(stored_number(s.number), s.name, s.start_date, s.end_date,
                                    systems, rules.effective, laid,
                                    section_reason(s.type, s.online, systems, s.start_date)))
    city, state = place_columns(event.details)
    return Submission(event.id, event.name, event.start_date, event.end_date, tuple(entries),
                      event.rated_games, source, event, city, state)


def stored_number(number: Any) -> Any:
    """A section's number as the database stores it: a whole float as the int it is.
    JSON's ``1.0`` is an integer to the event schema and a whole number to the domain
    (core/domain.py), and SQLite stored it as 1; PostgreSQL's integer column refused
    it, and `uscf db rate` ended in a traceback."""
    return int(number) if type(number) is float and number.is_integer() else number


def place_columns(details: EventDetails) -> tuple[str | None, str | None]:
    """The events table's ``city`` (as given) and ``state`` (upper-cased, so that a
    search by state matches ``fl`` and ``FL`` alike); None for what the file does not
    give."""
    return details.city or None, details.state.upper() or None


def _travelling(laid: Lineup) -> Lineup:
    """The lineup as it travels from the checks' processes through the spool
    (office/spool.py) and from the readers of a re-rate (office/prefetch.py): its
    unrated players without their results (Step 1 reads a player's facts, not the
    games, and the results made loading it a fifth slower), and the file's ratings
    made again only where the rating loop reads them (`FileRatings`)."""
    return replace(laid, ratings=FileRatings(laid.ratings),
                   unrated={e: _without_results(p) for e, p in laid.unrated.items()})


def _without_results(p: Player) -> Player:
    """``replace(p, results=())``, made with every field at once (`model.player_of_fields`)
    for a plain `Player`: a reader makes one for each unrated entrant, and with
    ``replace`` a re-rate reader's `submission` took 0.170 ms an event, not 0.148."""
    if type(p) is not Player:  # a subclass stays itself
        return replace(p, results=())
    return player_of_fields(p.pair, p.id, p.name, p.birth_date, p.adult, p.ratings, p.initial,
                            p.fide, p.cfc, ())


def stored_event(c: Connection, event_id: str) -> tuple[Event, PreRatings] | None:
    """A stored event, read back without the schema check it passed when it was stored,
    and the pre_ratings mode it was rated with; None if the database does not hold it."""
    source = event_source(c, event_id)
    return None if source is None else event_of_source(event_id, source)


def event_of_source(event_id: str, source: dict[str, Any]) -> tuple[Event, PreRatings]:
    """A stored event from its ``events.source`` (parsed), and its pre_ratings mode."""
    return (event_from_dict(source["input"], f"event {event_id}", checked=True),
            PreRatings(source.get("pre_ratings", PreRatings.DATABASE)))
