"""Rating stored sections in order: the office's one loop, used by every operation.

A `RatingRun` works inside one transaction. It hands the sections to rate, in rating
order, to the history engine (batch/history.py lays them out as columns, batch/chain.py
rates them in one compiled chain), a part at a time (`PART`), with what the database
adds to their files (`Starting`): each member's state before the first of them (the
office's own, else an imported baseline), the members' facts for Step 1, the floors set
by hand and the histories US Chess published. The chain's state carries from one part to
the next, and from one transaction to the next where `uscf db rate` of many files
shares a run (`resume`). Each part's results are written in bulk, without their
explanations (office/explain.py rebuilds those); a re-rate writes the rows of the
sections stored from its key on again in place (store.write_sections).

Several transactions in a row can share a run: `RatingRun.resume` keeps its state
when the database is as the run left it, which it knows from the id of the last audit
row.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, select

from ..core.layout import Lineup, lineup
from ..core.model import Event, Rating, Section, System
from ..core.norms import NORM_CODES, NORM_RULE_SETS
from ..core.pre_event import FloorsSetByHand, MemberFacts, PreRatings
from ..core.rules import rules_for
from ..core.steps import merge_entrants
from ..formats.member_history import MemberHistory
from . import schema as t
from .collector import no_collections
from .db import Driver
from .prefetch import PREFETCH_FROM, prefetched
from .store import (
    SYSTEM_CODES,
    SectionColumns,
    SectionKey,
    after_or_at,
    aliases,
    baseline_states,
    has_match_changes,
    has_published,
    insert_rows,
    latest_states,
    member_facts,
    office_floors,
    order_key,
    outcome_rows,
    remove_outcomes,
    row_states,
    section_key,
    stored_histories,
    stored_members,
    stored_sections,
    write_sections,
)
from .submission import SectionEntry, Submission, stored_event, submission

if TYPE_CHECKING:  # the engine (Numba) is imported when a run first rates
    from ..batch.chain import State, _Extras
    from ..batch.history import HistoryLayout, Slots, ToRate

#: the system whose rows hold the norms (core/norms.py: every rule set's so far)
NORM_SYSTEM = NORM_RULE_SETS[-1].system
#: members loaded by one query before a long re-rate (each query takes one value per
#: member, and some SQLite builds take 32,766 at most)
LOAD_AT_ONCE = 10_000
#: sections laid out and rated at a time: the layout of a part and its results are in
#: memory until written (a year's re-rate is about 20 parts)
PART = 1_000


@cache
def load_kernels() -> None:
    """Import the history engine and load its compiled code (`batch.chain.load`) now
    rather than at the first section rated: about a second, which ``uscf db rate``
    spends while its files are checked in other processes instead of in the rating
    loop, its critical path (docs/performance.md). Once a process."""
    from ..batch.chain import load
    load()


def first_key(event: Event) -> SectionKey:
    """The key of the event's first section in rating order."""
    return min(section_key(event.id, s) for s in event.sections)


def member_ids(section: Section, merged: dict[str, str]) -> dict[int, str]:
    """Each pair number's member id, a merged id followed to the id it was merged into."""
    return {p.pair: merged.get(p.id, p.id) for p in section.players if p.id}


def merged_followed(section: Section, merged: dict[str, str]) -> Section:
    """The section with each merged id replaced by the id it was merged into."""
    ids = member_ids(section, merged)
    return replace(section, players=tuple(
        replace(p, id=ids[p.pair]) if p.id else p for p in section.players))


@dataclass(frozen=True)
class Rated:
    """One section rated by a run: its key and how many player-systems it rated."""

    key: SectionKey
    ratings: int


def last_audit_id(c: Connection) -> int:
    return int(Driver(c).execute("SELECT max(id) FROM audit").fetchone()[0] or 0)


class RatingRun:
    """Rates sections in order inside a transaction, through the history engine."""

    def __init__(self, c: Connection):
        self.c = c
        self.driver = Driver(c)  #: for the statements run once per part
        self.merged = aliases(c)
        self.floors: FloorsSetByHand = office_floors(c, None)
        self.facts: dict[str, MemberFacts | None] = {}  #: None: a member row with no facts
        #: whether any published history was imported (else not looked for, each time)
        self.published = has_published(c)
        #: the published histories of the members loaded (office/history.py)
        self.histories: dict[str, MemberHistory] = {}
        #: events and their pre_ratings, kept until their last section is rated
        self.events: dict[str, tuple[Submission, PreRatings]] = {}
        self.last: SectionKey | None = None  #: the last section rated
        self.audit_id = -1  #: the last audit row when the run's transaction ended
        #: resumed after ``last``, which is then the last section in the database: only
        #: the sections added since are to be rated
        self.appending = False
        self.added: list[SectionKey] = []
        #: while re-rating from a key: the rows each section from it on holds from
        #: before, which its rating writes again, and the key; the states of a member
        #: first seen meanwhile are those before the key
        self.stored: dict[SectionKey, int] = {}
        self.rerating: SectionKey | None = None
        #: whether a stored state may carry match changes (store.write_sections)
        self.had_changes = has_match_changes(self.driver)
        #: the engine's slots and state, carried from part to part and run to run
        self.slots: Slots | None = None
        self.state: State | None = None
        self.extras: _Extras | None = None
        #: members whose states are in the engine's; and the states of those loaded
        #: since the last part, with which of them the office rated (not baselines)
        self.loaded: set[str] = set()
        self.starting: dict[tuple[str, System], Rating] = {}
        self.own: set[tuple[str, System]] = set()

    @classmethod
    def resume(cls, previous: RatingRun | None, c: Connection, first: SectionKey) -> RatingRun:
        """``previous`` on a new transaction if nobody has written since it ended and
        ``first`` comes after every section it rated; else a new run."""
        if (previous is not None and previous.last is not None and previous.last < first
                and previous.audit_id == last_audit_id(c)):
            previous.c, previous.driver = c, Driver(c)
            previous.appending = True
            return previous
        return cls(c)

    def seal(self, audit_id: int) -> None:
        """Call at the end of the transaction with the id of its audit row."""
        self.audit_id = audit_id

    def add_event(self, event: Submission, pre_ratings: PreRatings) -> None:
        """An event just stored: rate it from this object rather than re-reading it."""
        self.events[event.id] = (event, pre_ratings)
        self.added.extend(s.key(event.id) for s in event.sections)

    def rate_from(self, key: SectionKey) -> list[Rated]:
        """Rate every section from ``key`` on again, in order: each one's stored results
        are written anew, and the rows of a section no longer stored are removed."""
        with no_collections():  # office/collector.py says why
            return self._rate_from(key)

    def _rate_from(self, key: SectionKey) -> list[Rated]:
        c = self.c
        if self.appending:  # nothing rated from ``key`` on: just the sections added
            keys = sorted(k for k in self.added if k >= key)
        else:
            keys = [(end, start, event_id, number) for event_id, number, start, end in c.execute(
                select(t.sections.c.event_id, t.sections.c.number, t.sections.c.start_date,
                       t.sections.c.end_date)
                .where(after_or_at(t.sections, key))
                .order_by(*order_key(t.sections).clauses))]
            self.stored = stored_sections(c, key)
            self._forget()  # states read before may be later than ``key``: read again
            if self.stored:
                self.rerating = key
                gone = self.stored.keys() - set(keys)  # rows of no section stored: none
                if gone:
                    remove_outcomes(self.driver, gone)
                if len(keys) >= PREFETCH_FROM:
                    self._load_stored_members(key)
        self.appending, self.added = False, []
        last_of = {key[2]: i for i, key in enumerate(keys)}
        ahead = self._read_ahead(keys)
        rated: list[Rated] = []
        for at in range(0, len(keys), PART):
            self._load_part(keys[at:at + PART])
            part: list[tuple[ToRate, SectionEntry]] = []
            for i in range(at, min(at + PART, len(keys))):
                end, start, event_id, number = keys[i]
                if event_id not in self.events and ahead is not None:
                    self._take(next(ahead))
                event, pre_ratings = self._event(event_id)
                entry = event.section(number)
                part.append((self._to_rate(event, entry, pre_ratings), entry))
                if last_of[event_id] == i:  # its last section: a year would not fit
                    del self.events[event_id]
            rated += self._rate_part(part)
        self.stored, self.rerating = {}, None  # every row from ``key`` on is written again
        return rated

    def _forget(self) -> None:
        """A new history from a key: no state carried from before it."""
        self.slots, self.state, self.extras = None, None, None
        self.loaded.clear()
        self.starting.clear()
        self.own.clear()

    def _to_rate(self, event: Submission, entry: SectionEntry, pre_ratings: PreRatings
                 ) -> ToRate:
        """A section as the engine takes it: its lineup with merged ids followed, or for a
        match or a foreign event its model."""
        from ..batch.history import ToRate

        laid = entry.lineup
        model: Section | None = None
        if laid is None:
            model = merged_followed(self._model(event, entry), self.merged)
            self._load({p.id: p.name for p in model.players if p.id})
        elif self.merged and any(i in self.merged for i in laid.ids):
            # its members were loaded with the event's (`_load_part`, `_take`, `_event`)
            laid = self._merged_lineup(event, entry, laid)
        return ToRate(event.id, entry.number, entry.start_date, entry.end_date, laid, model,
                      pre_ratings, entry.norm_reason is None)

    def _merged_lineup(self, event: Submission, entry: SectionEntry, laid: Lineup) -> Lineup:
        """The lineup with merged ids followed: made again from the model where two of its
        ids are one member (rare: they are then one player, as a member entered twice)."""
        ids = [self.merged.get(i, i) for i in laid.ids]
        if len(set(i for i in ids if i)) == len([i for i in ids if i]):
            return replace(laid, ids=tuple(ids))
        section = merged_followed(self._model(event, entry), self.merged)
        rules = rules_for(section.start_date)
        return lineup(section, rules, laid.systems, merge_entrants(section.players))

    def _rate_part(self, part: list[tuple[ToRate, SectionEntry]]) -> list[Rated]:
        """Sections laid out, rated by the engine from the state carried, and written."""
        from ..batch.chain import rate_history
        from ..batch.history import Slots, Starting, lay_out

        if self.slots is None:
            self.slots = Slots()
        starting = Starting(dict(self.starting), frozenset(self.own), self.facts, self.floors,
                            self.histories)
        laid = lay_out([entry for entry, _ in part], starting, self.slots)
        done = rate_history(laid, state=self.state, extras=self.extras)
        self.state, self.extras = done.state, done.extras
        self.starting.clear()
        self.own.clear()
        return self._write(laid, done, part)

    def _write(self, laid: HistoryLayout, done: Any, part: list[tuple[ToRate, SectionEntry]]
               ) -> list[Rated]:
        """The part's results written in bulk: each section's rows and match changes."""
        driver = self.driver
        columns = [(entry.event_id, entry.number, driver.date(entry.end),
                    driver.date(entry.start)) for entry, _ in part]
        rows, changes = lineup_rows(laid, done.outputs, done.extras.by_row, columns, driver)
        for model in done.models:  # a match or a foreign event: its rows from its model
            rows[model.section] = outcome_rows(columns[model.section], model.outcomes,
                                               model.ids, {}, model.norms, NORM_SYSTEM,
                                               changes[model.section])
        sections = []
        rated: list[Rated] = []
        for i, (entry, _) in enumerate(part):
            key = entry.key
            sections.append((columns[i], rows[i], self.stored.pop(key, 0), changes[i]))
            rated.append(Rated(key, len(rows[i])))
            self.last = key
        write_sections(driver, sections, self.had_changes)
        self.had_changes = self.had_changes or any(s[3] for s in sections)
        return rated

    def _model(self, event: Submission, entry: SectionEntry) -> Section:
        model = event.model if event.has_model else self._stored(event.id)[0]
        return next(s for s in model.sections if s.number == entry.number)

    def _load_stored_members(self, key: SectionKey) -> None:
        """Before a long re-rate, the members it rates again (those with rows from
        ``key`` on) loaded at once, a few large queries in order of their ids, rather
        than a few dozen at a time as the parts meet them: those small queries read
        pages the rows the run writes had pushed out of SQLite's cache. The states
        before ``key`` do not change while the re-rate runs, so loading them early reads
        what loading them later would."""
        # every id in ratings has its member row (a foreign key): none is inserted here,
        # so no name is needed
        ids = list(dict.fromkeys(self.merged.get(i, i) for i in stored_members(self.c, key)))
        for at in range(0, len(ids), LOAD_AT_ONCE):
            self._load(dict.fromkeys(ids[at:at + LOAD_AT_ONCE], ""))

    def _load_part(self, keys: Sequence[SectionKey]) -> None:
        """The members of a part's sections whose events this run holds, loaded at once
        (a few queries for them all, rather than a few a section: a round trip each on
        PostgreSQL). What the database holds of them before the part does not change
        until the part is written."""
        held = [self.events[event_id][0].section(number).lineup
                for _, _, event_id, number in keys if event_id in self.events]
        names = self._member_names(laid for laid in held if laid is not None)
        ids = list(names)
        for at in range(0, len(ids), LOAD_AT_ONCE):  # a query's values are bounded
            self._load({i: names[i] for i in ids[at:at + LOAD_AT_ONCE]})

    def _take(self, events: list[tuple[Submission, PreRatings]]) -> None:
        """Events read ahead, with their members loaded at once (one query for them all
        rather than one a section: what the database holds of them from before the
        re-rate does not change while it runs)."""
        for event, pre_ratings in events:
            self.events[event.id] = (event, pre_ratings)
        self._load_members_of([event for event, _ in events])

    def _load_members_of(self, events: Sequence[Submission]) -> None:
        """The members of the events' sections laid out, loaded: before their sections
        are rated."""
        self._load(self._member_names(entry.lineup for event in events
                                      for entry in event.sections if entry.lineup is not None))

    def _member_names(self, lineups: Iterable[Lineup]) -> dict[str, str]:
        """The name of each member of ``lineups``, by the id it was merged into."""
        names: dict[str, str] = {}
        for laid in lineups:
            names.update(zip(laid.ids, laid.names, strict=True))
        names.pop("", None)  # players without a member id
        if self.merged:
            return {self.merged.get(i, i): n for i, n in names.items()}
        return names

    def _read_ahead(self, keys: list[SectionKey]
                    ) -> Iterator[list[tuple[Submission, PreRatings]]] | None:
        """For a long re-rate, the stored events it reads, in the order it first needs
        them, read in a pool of processes (office/prefetch.py)."""
        if len(keys) < PREFETCH_FROM:
            return None
        wanted = list(dict.fromkeys(k[2] for k in keys if k[2] not in self.events))
        return prefetched(self.driver, wanted)

    def _event(self, event_id: str) -> tuple[Submission, PreRatings]:
        """An event held (added, read ahead), or read now with its members loaded."""
        if event_id not in self.events:
            event, pre_ratings = self._stored(event_id)
            self.events[event_id] = (submission(event), pre_ratings)
            self._load_members_of([self.events[event_id][0]])
        return self.events[event_id]

    def _stored(self, event_id: str) -> tuple[Event, PreRatings]:
        stored = stored_event(self.c, event_id)
        assert stored is not None, f"event {event_id} has sections but is not stored"
        return stored

    def _load(self, names: dict[str, str]) -> None:
        """Members first seen by this run: their facts and states before the history
        (the office's own where it has rated them, else a baseline), their published
        histories, and a row for new ids."""
        if self.loaded.issuperset(names):  # most calls: every one is loaded already
            return
        new = [i for i in names if i not in self.loaded]
        found = member_facts(self.c, new)
        missing = [i for i in new if i not in found]
        if missing:
            insert_rows(self.c, t.members, [{"id": i, "name": names[i]} for i in missing])
        self.facts.update(found)
        self.facts.update(dict.fromkeys(missing))
        if found:  # a member row made just now has no baseline and no results yet
            ids = list(found)
            self.starting.update(baseline_states(self.c, ids))
            own = row_states(self.c, ids, self.rerating)
            self.starting.update(own)
            self.own.update(own)
            if self.published:
                self.histories.update(stored_histories(self.c, ids))
        self.loaded.update(new)


#: the engine's outputs (batch.chain.Outputs) that are floats with NaN for NULL, and
#: counts with UNKNOWN (negative) for NULL
_NAN_TO_NULL = ("pre", "floor", "peak", "by_hand", "lowered_from", "lowered_to")
_UNKNOWN_TO_NULL = ("pre_games", "wins", "draws", "losses", "events3", "above_2200")


@cache
def _code_tables() -> tuple[Any, Any, int]:
    """Each system's code by its index in batch.history.SYSTEMS, each norm's code by its
    level, as arrays to index; and the index of the system norms are stored on."""
    import numpy as np

    from ..batch.history import SYSTEMS
    return (np.array([SYSTEM_CODES[s] for s in SYSTEMS], dtype=object),
            np.array(NORM_CODES, dtype=object), SYSTEMS.index(NORM_SYSTEM))


def lineup_rows(laid: HistoryLayout, outputs: Any, by_row: dict[int, Any],
                sections: Sequence[SectionColumns], driver: Driver
                ) -> tuple[list[list[tuple[Any, ...]]], list[list[tuple[Any, ...]]]]:
    """The rows of ``ratings`` (store.ROW_ORDER) of a part's lineup sections (``sections``:
    each one's columns, in the part's order) from the engine's outputs, by section: a row
    for each member-system with a rated game, in the layout's order; and by section, the
    rows of the match changes its states carry (``by_row``). Made a column at a time,
    with the values the driver binds fastest (`db.Driver.null`): about four fifths of the
    time of making each row by itself, over a year's re-rate (docs/performance.md)."""
    import numpy as np

    written = np.flatnonzero((laid.slot >= 0) & ~np.isnan(outputs.post))
    section = np.searchsorted(laid.section_rows, written, side="right") - 1
    counts = np.bincount(section, minlength=len(sections)).tolist()
    null = driver.null
    values: dict[str, list[Any]] = {}
    for name, column in zip(outputs._fields, outputs, strict=True):
        taken = column[written]
        if name == "olm":  # as the driver binds booleans
            taken = np.where(taken, driver.true, driver.false)
        unknown = None
        if name in _NAN_TO_NULL and null is None:  # (else NaN, which SQLite stores as NULL)
            unknown = np.isnan(taken)
        elif name in _UNKNOWN_TO_NULL:
            unknown = taken < 0
        if unknown is not None and unknown.any():
            taken = taken.astype(object)
            taken[unknown] = null
        values[name] = taken.tolist()
    system_codes, norm_codes, norm_system = _code_tables()
    members = list(map(itemgetter(0), map(laid.slots.keys.__getitem__,
                                          laid.slot[written].tolist())))
    system = laid.system[np.searchsorted(laid.start, written, side="right") - 1]
    systems = system_codes[system].tolist()
    norm = outputs.norm[written]
    earned = (norm >= 0) & (system == norm_system)
    codes = norm_codes[np.maximum(norm, 0)]
    codes[~earned] = null
    norms = codes.tolist()
    carried = [0] * len(written)
    known = [driver.true] * len(written)
    changes: list[list[tuple[Any, ...]]] = [[] for _ in sections]
    for row, (games_known, made) in sorted(by_row.items()):
        at = int(np.searchsorted(written, row))
        if at == len(written) or written[at] != row:
            continue  # no row written for it
        known[at] = driver.true if games_known else driver.false
        carried[at] = len(made)
        i = int(section[at])
        event_id, number = sections[i][:2]
        changes[i] += [(event_id, number, members[at], systems[at], k, c.date, c.change)
                       for k, c in enumerate(made, 1)]
    event_ids: list[str] = []
    numbers: list[int] = []
    ends: list[Any] = []
    starts: list[Any] = []
    for (event_id, number, end, start), count in zip(sections, counts, strict=True):
        event_ids += [event_id] * count
        numbers += [number] * count
        ends += [end] * count
        starts += [start] * count
    won, drawn, lost = (column[written].tolist() for column in (laid.won, laid.drawn,
                                                                 laid.lost))
    v = values
    rows = list(zip(v["pre"], v["pre_games"], v["post"], v["games"], v["floor"], won, drawn,
                    lost, norms, v["wins"], v["draws"], v["losses"], v["events3"], v["peak"],
                    v["by_hand"], v["lowered_from"], v["lowered_to"], v["olm"],
                    v["above_2200"], carried, known, event_ids, numbers, members, systems,
                    ends, starts, strict=True))
    by_section = []
    at = 0
    for count in counts:
        by_section.append(rows[at:at + count])
        at += count
    return by_section, changes


def states_and_facts(c: Connection, ids: Any, before_key: SectionKey | None = None
                     ) -> tuple[dict[tuple[str, System], Rating], dict[str, MemberFacts | None],
                                FloorsSetByHand]:
    """What `core.pre_event.prepare` needs for ``ids``, read from the database: the
    states after the last section (or the last before ``before_key``), facts and floors
    set by hand."""
    ids = list(ids)
    facts: dict[str, MemberFacts | None] = dict(member_facts(c, ids))
    return latest_states(c, ids, before_key), facts, office_floors(c, ids)
