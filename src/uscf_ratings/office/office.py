"""The ratings office: rate events in order, re-rate, correct, and keep the history.

Each public method is one transaction (see :func:`.db.writing`): after a crash or a kill
the database holds either all of what the method did or none of it. Rating an event dated
before events already rated re-rates everything after it, in the same transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from ..core import floors as floor_rules
from ..core.model import CfcRating, Event, FideRating, Rating, Section, System
from ..core.pipeline import rate_section, section_systems
from ..core.results import SectionResult
from ..core.rules import rules_for
from ..formats.event_json import event_from_dict, event_to_json
from . import schema as t
from .db import check_schema, make_engine, upgrade, writing
from .members import MemberRecord
from .store import (
    SectionKey,
    after_or_at,
    aliases,
    audit,
    ensure_members,
    event_source,
    latest_states,
    member_facts,
    now,
    office_floors,
    upsert_member,
    write_results,
)

PRE_FROM_DATABASE = "database"
PRE_FROM_FILE = "file"
PRE_FROM_FILE_ONLY = "file-without-history"  #: the file's ratings, no history carried


class OfficeError(ValueError):
    """An office operation that cannot be done as asked (the message says why)."""


@dataclass(frozen=True)
class RatedSection:
    key: SectionKey
    result: SectionResult


def section_key(event_id: str, section: Section) -> SectionKey:
    return (section.end_date, section.start_date, event_id, section.number)


class Office:
    """A ratings database and the operations on it."""

    def __init__(self, url: str | None = None):
        self.engine = make_engine(url)

    def init(self) -> str:
        """Create or upgrade the schema; returns its revision."""
        return upgrade(self.engine)

    # --- members ---------------------------------------------------------------

    def import_members(self, records: Sequence[MemberRecord]) -> int:
        with writing(self.engine) as c:
            check_schema(c)
            for record in records:
                upsert_member(c, record)
            audit(c, "import_members", {"count": len(records)})
            first = _first_key_of_members(c, [r.id for r in records])
            if first is not None:
                _rerate_from(c, first)
        return len(records)

    # --- events ----------------------------------------------------------------

    def rate(self, event: Event, pre_ratings: str = PRE_FROM_DATABASE) -> list[SectionResult]:
        """Store and rate an event; re-rate every later section. Refused if the event id
        is already rated (use :meth:`correct`)."""
        with writing(self.engine) as c:
            check_schema(c)
            if _event_exists(c, event.id):
                raise OfficeError(f"event {event.id} is already rated; to replace it, use "
                                  f"`uscf db correct {event.id} FILE`")
            _store_event(c, event, pre_ratings, corrections=0)
            rated = _rerate_from(c, min(section_key(event.id, s) for s in event.sections))
            audit(c, "rate", {"event": event.id, "sections": len(event.sections)})
        return [r.result for r in rated if r.key[2] == event.id]

    def correct(self, event_id: str, event: Event) -> list[SectionResult]:
        """Replace a rated event by a corrected one and re-rate what follows."""
        if event.id != event_id:
            event = replace(event, id=event_id)
        with writing(self.engine) as c:
            check_schema(c)
            old = event_source(c, event_id)
            if old is None:
                raise OfficeError(f"event {event_id} is not in the database")
            old_first = _first_key_of_event(c, event_id)
            corrections = c.execute(select(t.events.c.corrections)
                                    .where(t.events.c.id == event_id)).scalar_one()
            c.execute(delete(t.ratings).where(t.ratings.c.event_id == event_id))
            c.execute(delete(t.sections).where(t.sections.c.event_id == event_id))
            c.execute(delete(t.events).where(t.events.c.id == event_id))
            _store_event(c, event, old.get("pre_ratings", PRE_FROM_DATABASE), corrections + 1)
            new_first = min(section_key(event_id, s) for s in event.sections)
            rated = _rerate_from(c, min(k for k in (old_first, new_first) if k is not None))
            audit(c, "correct", {"event": event_id})
        return [r.result for r in rated if r.key[2] == event_id]

    def withdraw(self, event_id: str) -> None:
        """Remove a rated event and re-rate everything after it."""
        with writing(self.engine) as c:
            check_schema(c)
            first = _first_key_of_event(c, event_id)
            if first is None:
                raise OfficeError(f"event {event_id} is not in the database")
            c.execute(delete(t.ratings).where(t.ratings.c.event_id == event_id))
            c.execute(delete(t.sections).where(t.sections.c.event_id == event_id))
            c.execute(delete(t.events).where(t.events.c.id == event_id))
            _rerate_from(c, first)
            audit(c, "withdraw", {"event": event_id})

    # --- office operations -----------------------------------------------------------

    def merge(self, keep: str, drop: str) -> None:
        """Two member ids that are one person: ``drop``'s games become ``keep``'s."""
        if keep == drop:
            raise OfficeError("cannot merge a member id into itself")
        with writing(self.engine) as c:
            check_schema(c)
            for ident in (keep, drop):
                if not c.execute(select(t.members.c.id).where(t.members.c.id == ident)).first():
                    raise OfficeError(f"member {ident} is not in the database")
            first = _first_key_of_members(c, [keep, drop])
            c.execute(update(t.members).where(t.members.c.id == drop).values(merged_into=keep))
            if first is not None:
                _rerate_from(c, first)
            audit(c, "merge", {"keep": keep, "drop": drop})

    def set_floor(self, member: str, system: System, floor: float, effective: date,
                  reason: str) -> None:
        """Set or lower a member's floor by hand (a prize floor, a granted match request)
        from ``effective`` on, and re-rate the sections from that date."""
        with writing(self.engine) as c:
            check_schema(c)
            if not c.execute(select(t.members.c.id).where(t.members.c.id == member)).first():
                raise OfficeError(f"member {member} is not in the database")
            c.execute(insert(t.floors).values(member_id=member, system=system.value,
                                              floor=floor, effective=effective, reason=reason))
            first = c.execute(
                select(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                       t.sections.c.number)
                .where(t.sections.c.start_date >= effective)
                .order_by(t.sections.c.end_date, t.sections.c.start_date,
                          t.sections.c.event_id, t.sections.c.number).limit(1)).first()
            if first is not None:
                _rerate_from(c, tuple(first))  # type: ignore[arg-type]
            audit(c, "set_floor", {"member": member, "system": system.value, "floor": floor,
                                   "effective": effective.isoformat(), "reason": reason})

    def correct_member(self, member: str, **changes: Any) -> None:
        """Correct a member's birth date, adult flag or FIDE/CFC rating; re-rate from the
        member's first rated section."""
        allowed = {"birth_date", "adult", "fide_rating", "fide_date", "cfc_rating", "cfc_date",
                   "canadian_resident", "name", "state"}
        unknown = set(changes) - allowed
        if unknown:
            raise OfficeError(f"cannot correct {', '.join(sorted(unknown))}")
        with writing(self.engine) as c:
            check_schema(c)
            if not c.execute(select(t.members.c.id).where(t.members.c.id == member)).first():
                raise OfficeError(f"member {member} is not in the database")
            c.execute(update(t.members).where(t.members.c.id == member).values(**changes))
            first = _first_key_of_members(c, [member])
            if first is not None:
                _rerate_from(c, first)
            audit(c, "correct_member", {"member": member} | {
                k: v.isoformat() if isinstance(v, date) else v for k, v in changes.items()})


def _event_exists(c: Connection, event_id: str) -> bool:
    return c.execute(select(t.events.c.id).where(t.events.c.id == event_id)).first() is not None


def _store_event(c: Connection, event: Event, pre_ratings: str, corrections: int) -> None:
    source = {"input": event_to_json(event), "pre_ratings": pre_ratings}
    c.execute(insert(t.events).values(
        id=event.id, name=event.name, start_date=event.start_date, end_date=event.end_date,
        source=json.dumps(source), submitted_at=now(), corrections=corrections))
    for s in event.sections:
        rules = rules_for(s.start_date)
        c.execute(insert(t.sections).values(
            event_id=event.id, number=s.number, name=s.name, start_date=s.start_date,
            end_date=s.end_date, systems=",".join(x.value for x in section_systems(s, rules)),
            rule_set=rules.effective))


def _first_key_of_event(c: Connection, event_id: str) -> SectionKey | None:
    row = c.execute(select(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                           t.sections.c.number).where(t.sections.c.event_id == event_id)
                    .order_by(t.sections.c.end_date, t.sections.c.start_date,
                              t.sections.c.number).limit(1)).first()
    return None if row is None else (row[0], row[1], row[2], row[3])


def _first_key_of_members(c: Connection, ids: list[str]) -> SectionKey | None:
    """The first section in which any of ``ids`` appears (rated or not)."""
    keys = []
    for row in c.execute(select(t.events.c.id, t.events.c.source)):
        event = json.loads(row.source)["input"]
        for s in event["sections"]:
            if any(p.get("id") in ids for p in s["players"]):
                keys.append((date.fromisoformat(s["end_date"]), date.fromisoformat(s["start_date"]),
                             row.id, s["number"]))
    return min(keys) if keys else None


def _rerate_from(c: Connection, key: SectionKey) -> list[RatedSection]:
    """Delete every result from ``key`` on and rate those sections again, in order."""
    c.execute(delete(t.ratings).where(after_or_at(t.ratings, key, number_column="section")))
    sections = c.execute(
        select(t.sections.c.event_id, t.sections.c.number, t.sections.c.start_date,
               t.sections.c.end_date)
        .where(after_or_at(t.sections, key))
        .order_by(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                  t.sections.c.number)).all()
    merged = aliases(c)
    events: dict[str, tuple[Event, str]] = {}
    states: dict[tuple[str, System], Rating] = {}
    loaded: set[str] = set()
    rated = []
    for event_id, number, start, end in sections:
        if event_id not in events:
            source = event_source(c, event_id)
            assert source is not None
            events[event_id] = (event_from_dict(source["input"], f"event {event_id}",
                                                checked=True),
                                source.get("pre_ratings", PRE_FROM_DATABASE))
        event, pre_ratings = events[event_id]
        section = next(s for s in event.sections if s.number == number)
        ids = {p.pair: merged.get(p.id, p.id) for p in section.players if p.id}
        ensure_members(c, {ids[p.pair]: p.name for p in section.players if p.id})
        new = [i for i in set(ids.values()) if i not in loaded]
        if new:
            states.update(latest_states(c, new))
            loaded.update(new)
        prepared = _prepare(c, section, ids, states, pre_ratings)
        result = rate_section(prepared)
        states.update(write_results(c, event_id, number, start, end, result, ids))
        rated.append(RatedSection((end, start, event_id, number), result))
    return rated


def _prepare(c: Connection, section: Section, ids: dict[int, str],
             states: dict[tuple[str, System], Rating], pre_ratings: str) -> Section:
    """The section as the office rates it: pre-event ratings, history and floors from the
    database, and the members' birth dates and FIDE/CFC ratings where the file has none."""
    facts = member_facts(c, ids.values())
    floors = office_floors(c, ids.values())
    players = []
    for p in section.players:
        member = ids.get(p.pair)
        if member is None:
            players.append(p)
            continue
        ratings: dict[System, Rating] = {}
        for system in System:
            known = states.get((member, system))
            given = p.ratings.get(system)
            chosen = _choose(known, given, pre_ratings)
            if chosen is None:
                continue
            set_by_hand = [f for d, f in floors.get((member, system), []) if d <= section.start_date]
            if set_by_hand:
                chosen = _with_floor_set_by_hand(chosen, system, set_by_hand[-1])
            ratings[system] = chosen
        fact = facts.get(member)
        players.append(replace(
            p, id=member, ratings=ratings,
            birth_date=p.birth_date or (fact.birth_date if fact else None),
            adult=p.adult if p.adult is not None else (fact.adult if fact else None),
            fide=p.fide or (FideRating(fact.fide_rating, fact.fide_date)
                            if fact and fact.fide_rating else None),
            cfc=p.cfc or (CfcRating(fact.cfc_rating, fact.cfc_date,
                                    fact.canadian_resident is not False)
                          if fact and fact.cfc_rating else None),
        ))
    return replace(section, players=tuple(players))


def _with_floor_set_by_hand(rating: Rating, system: System, value: float) -> Rating:
    """A floor set by hand raises the player's floor (a prize floor) or, when it is below
    the floor the peak or the OLM title gives, lowers that floor (a granted match
    request, section 7)."""
    peaks = [p for p in (rating.peak, rating.rating if rating.established else None) if p]
    computed = [f for f in (floor_rules.peak_floor(max(peaks)) if peaks else None,
                            floor_rules.OLM_FLOOR if rating.olm and system is System.R else None)
                if f is not None]
    if computed and value < max(computed):
        return replace(rating, floor=None, floor_lowered_from=max(computed),
                       floor_lowered_to=value)
    return replace(rating, floor=value)


def fill_from_database(c: Connection, section: Section) -> Section:
    """A section as the office would rate it now: pre-event ratings, N, history and floors
    of the members the database knows, without storing anything (``uscf rate --db``)."""
    merged = aliases(c)
    ids = {p.pair: merged.get(p.id, p.id) for p in section.players if p.id}
    return _prepare(c, section, ids, latest_states(c, set(ids.values())), PRE_FROM_DATABASE)


def _choose(known: Rating | None, given: Rating | None, pre_ratings: str) -> Rating | None:
    """The pre-event rating to rate with.

    By default the database's state wins and the file's rating is used only for a member
    the database has not rated in that system. With ``pre_ratings="file"`` (re-running
    published history) the file's rating is taken as given, and the history the file
    cannot show (N, wins, draws, losses, events, peak) is carried from the database only
    where the database's rating rounds to the file's.
    """
    if pre_ratings == PRE_FROM_FILE_ONLY and given is not None:
        return given
    if pre_ratings != PRE_FROM_FILE or given is None:
        return known if known is not None else given
    if known is None or round(known.rating) != round(given.rating):
        return given
    return replace(given, games=known.games if not given.games_known else given.games,
                   games_known=given.games_known or known.games_known,
                   wins=known.wins, draws=known.draws, losses=known.losses,
                   events3=known.events3, peak=known.peak, olm=known.olm,
                   games_above_2200=known.games_above_2200, match_changes=known.match_changes)


def count_rows(office: Office) -> dict[str, int]:
    with office.engine.connect() as c:
        return {name: c.execute(select(func.count()).select_from(table)).scalar_one()
                for name, table in (("events", t.events), ("sections", t.sections),
                                    ("ratings", t.ratings), ("members", t.members))}



