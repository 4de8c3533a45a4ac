"""Rating stored sections in order: the office's one loop, used by every operation.

A `RatingRun` works inside one transaction. It reads what it needs once and keeps
it for the sections that follow: merged ids, floors set by hand, each member's facts and
each member's latest state, updated as it rates. Each section's results are written in
one statement, without their explanations (office/explain.py rebuilds those). A re-rate
writes the rows of the sections stored from its key on again in place
(`write_outcomes`), rather than deleting them first.

A Swiss or round-robin section is rated from its lineup (core/layout.py), laid out when
the event was read: the run chooses each player's pre-event rating (`pre_event_rating`:
the database's state or the file's, a merged id followed, a floor set by hand applied),
gives Step 1 to the players unrated in both, and rates the lineup with `rate_lineups`:
the procedure's kernels, compiled where the extra ``[fast]`` is installed
(`batch.engine.rate_lineups_and_norms`), else run by Python (office/norms.py). The same
call gives each entrant's norm toward a title from the post-event Regular ratings just
computed (core/norms.py), stored on the member's Regular row; a re-rate computes them
again, as it does the ratings.
Consecutive sections that share no member are rated in one call (`_SideBySide`): for a
section of a few dozen players, calling the compiled kernels costs more than their work.
A match or a foreign FIDE event, which have their own procedures (sections 6 and 7), is
rated from its model prepared the same way (`prepare`), after the sections before it.

Several transactions in a row (``uscf db rate`` of many files, one event each) can share
a run: `RatingRun.resume` keeps its caches when the database is as the run left
it, which it knows from the id of the last audit row.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from sqlalchemy import Connection, select

from ..core.layout import Lineup, before_rows, lineup
from ..core.model import Event, Rating, Section, System
from ..core.norms import NORM_RULE_SETS
from ..core.pipeline import LineupToRate, rate_section
from ..core.pre_event import FloorsSetByHand, MemberFacts, lineup_pre_event, prepare
from ..core.results import Outcome, outcomes_of
from ..core.rules import rules_for
from ..core.steps import merge_entrants
from ..formats.member_history import MemberHistory
from . import schema as t
from .collector import fewer_collections
from .db import Driver
from .defaults import PreRatings
from .norms import result_norms
from .prefetch import PREFETCH_FROM, prefetched
from .store import (
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
    write_outcomes,
)
from .submission import SectionEntry, Submission, stored_event, submission

#: the system whose rows hold the norms (core/norms.py: every rule set's so far)
NORM_SYSTEM = NORM_RULE_SETS[-1].system
SYSTEMS = tuple(System)  #: iterating the enum itself is slow, and this runs per player
#: members loaded by one call of `RatingRun._load` before a long re-rate (each query
#: takes one value per member, and some SQLite builds take 32,766 at most)
LOAD_AT_ONCE = 10_000


LineupsRated = tuple[list[tuple[Outcome, ...]], list[dict[int, str]]]


def rate_lineups(lineups: Sequence[LineupToRate], earn: Sequence[bool]) -> LineupsRated:
    """The lineups rated by the procedure's kernels (`_kernels`), and the norm codes
    each entrant earns by pair number in the lineups whose ``earn`` is true."""
    return _kernels()(lineups, earn)


@cache
def _kernels() -> Callable[[Sequence[LineupToRate], Sequence[bool]], LineupsRated]:
    """The procedure's kernels, compiled where the extra ``[fast]`` (Numba, NumPy) is
    installed, else run by Python; imported when a run first rates a lineup, not with
    this module: importing Numba takes about half a second, which the commands that
    only read the office (``uscf db player``, the explanations of office/explain.py)
    need not spend (docs/performance.md)."""
    try:
        from ..batch.engine import rate_lineups_and_norms as compiled
    except ImportError:  # pragma: no cover - exercised where the extra is not installed
        from .norms import rate_lineups_and_norms as in_python
        return in_python
    return compiled


@cache
def load_kernels() -> None:
    """Import the procedure's kernels (`_kernels`) and load their compiled code
    (`batch.engine.load`) now rather than at the first section rated: about 0.9 s, which
    ``uscf db rate`` spends while its files are checked in other processes (a batch of
    late events waits for every file before its re-rate starts) instead of in the rating
    loop, its critical path (docs/performance.md). Once a process: a second call does
    nothing."""
    if _kernels().__module__.endswith("batch.engine"):
        from ..batch.engine import load
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
    """Rates sections in order inside a transaction, reading each member once."""

    def __init__(self, c: Connection):
        self.c = c
        self.driver = Driver(c)  #: for the statements run once per section
        self.merged = aliases(c)
        self.floors: FloorsSetByHand = office_floors(c, None)
        self.floored = {member for member, _ in self.floors}  #: members with such floors
        self.facts: dict[str, MemberFacts | None] = {}  #: None: a member row with no facts
        self.states: dict[tuple[str, System], Rating] = {}
        self.loaded: set[str] = set()  #: members whose states are in ``states``
        #: whether any published history was imported (else not looked for, each time)
        self.published = has_published(c)
        #: the published histories of the members loaded (office/history.py)
        self.histories: dict[str, MemberHistory] = {}
        #: of those members, the (member, system) the pool has rated
        self.own: set[tuple[str, System]] = set()
        #: events and their pre_ratings, kept until their last section is rated
        self.events: dict[str, tuple[Submission, PreRatings]] = {}
        self.last: SectionKey | None = None  #: the last section rated
        self.audit_id = -1  #: the last audit row when the run's transaction ended
        #: resumed after ``last``, which is then the last section in the database: only
        #: the sections added since are to be rated
        self.appending = False
        self.added: list[SectionKey] = []
        #: while re-rating from a key: the rows each section from it on holds from
        #: before, which its rating writes again (`write_outcomes`), and the key; the
        #: states of a member first seen meanwhile are those before the key
        self.stored: dict[SectionKey, int] = {}
        self.rerating: SectionKey | None = None
        #: whether a stored state may carry match changes (store.write_outcomes)
        self.had_changes = has_match_changes(self.driver)

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
        with fewer_collections():
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
            if self.stored:  # states read before may be later than ``key``: read again
                self.states.clear()
                self.loaded.clear()
                self.own.clear()
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
        waiting = _SideBySide()
        for i, (end, start, event_id, number) in enumerate(keys):
            if event_id not in self.events and ahead is not None:
                self._take(next(ahead))
            event, pre_ratings = self._event(event_id)
            entry = event.section(number)
            at = (end, start, event_id, number)
            laid = self._lineup_of(event, entry)
            if laid is None:  # a match or a foreign event: rated alone, after those before
                rated += self._rate_side_by_side(waiting)
                found, ids, norms = self._rate_model(self._model(event, entry), pre_ratings, at)
                rated.append(self._write(event_id, entry, found, ids, norms))
            else:
                members = [self.merged.get(i, i) for i in laid.ids]  # "": no member id
                if not waiting.takes(members, laid):  # a member's state is to come
                    rated += self._rate_side_by_side(waiting)
                waiting.add(event_id, entry, members,
                            self._lineup_to_rate(entry, laid, members, pre_ratings, at))
            if last_of[event_id] == i:  # its last section: a year of events would not fit
                del self.events[event_id]
        rated += self._rate_side_by_side(waiting)
        self.stored, self.rerating = {}, None  # every row from ``key`` on is written again
        return rated

    def _load_stored_members(self, key: SectionKey) -> None:
        """Before a long re-rate, the members it rates again (those with rows from
        ``key`` on) loaded at once, a few large queries in order of their ids, rather
        than a few dozen at a time as the loop meets them: those small queries read
        pages the rows the loop writes had pushed out of SQLite's cache, and took about
        a tenth of a year's re-rate. The states before ``key`` do not change while the
        re-rate runs, so loading them early reads what loading them later would."""
        # every id in ratings has its member row (a foreign key): none is inserted here,
        # so no name is needed
        ids = list(dict.fromkeys(self.merged.get(i, i) for i in stored_members(self.c, key)))
        for at in range(0, len(ids), LOAD_AT_ONCE):
            self._load(dict.fromkeys(ids[at:at + LOAD_AT_ONCE], ""))

    def _take(self, events: list[tuple[Submission, PreRatings]]) -> None:
        """Events read ahead, with their members' facts and states read at once (one
        query for them all rather than one a section: what the database holds of them
        from before the re-rate does not change while it runs)."""
        names: dict[str, str] = {}
        for event, pre_ratings in events:
            self.events[event.id] = (event, pre_ratings)
            for entry in event.sections:
                if entry.lineup is not None:
                    names.update((i, n) for i, n in zip(entry.lineup.ids, entry.lineup.names,
                                                        strict=True) if i)
        self._load({self.merged.get(i, i): n for i, n in names.items()})

    def _read_ahead(self, keys: list[SectionKey]
                    ) -> Iterator[list[tuple[Submission, PreRatings]]] | None:
        """For a long re-rate, the stored events it reads, in the order it first needs
        them, read in a pool of processes (office/prefetch.py)."""
        if len(keys) < PREFETCH_FROM:
            return None
        wanted = list(dict.fromkeys(k[2] for k in keys if k[2] not in self.events))
        return prefetched(self.driver, wanted)

    def _event(self, event_id: str) -> tuple[Submission, PreRatings]:
        if event_id not in self.events:
            event, pre_ratings = self._stored(event_id)
            self.events[event_id] = (submission(event), pre_ratings)
        return self.events[event_id]

    def _stored(self, event_id: str) -> tuple[Event, PreRatings]:
        stored = stored_event(self.c, event_id)
        assert stored is not None, f"event {event_id} has sections but is not stored"
        return stored

    def _rate_side_by_side(self, waiting: _SideBySide) -> list[Rated]:
        """The lineups waiting, rated in one call (`rate_lineups`) and written, in order."""
        if not waiting.lineups:
            return []
        found, norms = rate_lineups(waiting.lineups,
                                    [entry.norm_reason is None for _, entry, _ in waiting.sections])
        done = [self._write(event_id, entry, outcomes, ids, codes)
                for (event_id, entry, ids), outcomes, codes
                in zip(waiting.sections, found, norms, strict=True)]
        waiting.clear()
        return done

    def _write(self, event_id: str, entry: SectionEntry, found: Sequence[Outcome],
               ids: Mapping[int, str], norms: Mapping[int, str]) -> Rated:
        """A section's outcomes stored with the norms earned (by pair number), and its
        members' states kept for the next."""
        key = entry.key(event_id)
        stored = (event_id, entry.number, self.driver.date(entry.end_date),
                  self.driver.date(entry.start_date))
        changes: list[tuple[Any, ...]] = []
        rows = outcome_rows(stored, found, ids, self.states, norms, NORM_SYSTEM, changes)
        write_outcomes(self.driver, stored, rows, self.stored.pop(key, 0), changes,
                       self.had_changes)
        self.had_changes = self.had_changes or bool(changes)
        if self.histories:  # rare: members with a published history, now rated here
            self.own.update((ids[o.pair], o.system) for o in found
                            if ids.get(o.pair) in self.histories)
        self.last = key
        return Rated(key, len(rows))

    def _model(self, event: Submission, entry: SectionEntry) -> Section:
        model = event.model if event.has_model else self._stored(event.id)[0]
        return next(s for s in model.sections if s.number == entry.number)

    def _lineup_of(self, event: Submission, entry: SectionEntry) -> Lineup | None:
        """The lineup the section is rated from, merged ids followed; None for a match or
        a foreign event, rated from its model."""
        laid = entry.lineup
        if laid is not None and self._merged_in(laid):
            laid = self._merged_lineup(event, entry, laid)
        return laid

    def _merged_in(self, laid: Lineup) -> bool:
        """Whether two of the lineup's ids are one member merged (rare: then they are
        one player, as a member entered twice is)."""
        merged = self.merged
        if not merged or not any(i in merged for i in laid.ids):
            return False
        ids = [merged.get(i, i) for i in laid.ids if i]
        return len(set(ids)) < len(ids)

    def _merged_lineup(self, event: Submission, entry: SectionEntry, laid: Lineup) -> Lineup:
        """The lineup made again from the model with the merged ids followed."""
        section = merged_followed(self._model(event, entry), self.merged)
        rules = rules_for(section.start_date)
        return lineup(section, rules, laid.systems, merge_entrants(section.players))

    def _lineup_to_rate(self, entry: SectionEntry, laid: Lineup, members: list[str],
                        pre_ratings: PreRatings, key: SectionKey) -> LineupToRate:
        """A Swiss or round-robin section whose entrants are ``members``: each row's
        pre-event rating chosen, and Step 1 for the players unrated in both the file and
        the database; what `rate_lineups` takes."""
        if not self.loaded.issuperset(members):  # most are, in a long run
            self._load({i: name for i, name in zip(members, laid.names, strict=True) if i})
        if self.histories:
            self._published_before(members, key)
        ratings, players = lineup_pre_event(laid, members, self.states, self.facts,
                                            self.floors, entry.start_date, pre_ratings)
        rows, _ = before_rows(laid, ratings, players, rules_for(entry.start_date),
                              entry.end_date)
        return laid, ratings, rows, entry.end_date

    def _rate_model(self, section: Section, pre_ratings: PreRatings, key: SectionKey
                    ) -> tuple[tuple[Outcome, ...], dict[int, str], dict[int, str]]:
        ids = member_ids(section, self.merged)
        self._load({ids[p.pair]: p.name for p in section.players if p.id})
        if self.histories:
            self._published_before(list(ids.values()), key)
        prepared = prepare(section, ids, self.states, self.facts, self.floors, pre_ratings)
        result = rate_section(prepared)
        # a player's games are those of every row of the member (entered twice, or two
        # ids merged), as the lineup counts them (core/layout.py)
        rows = {p.pair: p.pairs for p in result.players}
        codes = {p.pair: [r.code for r in p.results if r.played] for p in section.players}
        played = {pair: [c for row in rows[pair] for c in codes[row]] for pair in rows}
        return tuple(o._replace(wins=played[o.pair].count("W"), draws=played[o.pair].count("D"),
                                losses=played[o.pair].count("L"))
                     for o in outcomes_of(result)), ids, result_norms(result)

    def _published_before(self, ids: Iterable[str], key: SectionKey) -> None:
        """Until the pool has rated a member in a system, the member's rating before
        each section is the one US Chess published before it, where a history was
        imported (office/history.py); a history may hold sections between two of the
        pool's."""
        for member in ids:
            history = self.histories.get(member)
            if history is None:
                continue
            for system in history.systems:
                if (member, system) not in self.own:
                    rating = history.rating_before(system, key)
                    if rating is not None:
                        self.states[(member, system)] = rating

    def _load(self, names: dict[str, str]) -> None:
        """Members first seen by this run: their facts and states (the pool's own, where
        it has rated them: ``own``); their published histories; a row for new ids."""
        new = [i for i in names if i not in self.loaded]
        if not new:
            return
        found = member_facts(self.c, new)
        missing = [i for i in new if i not in found]
        if missing:
            insert_rows(self.c, t.members, [{"id": i, "name": names[i]} for i in missing])
        self.facts.update(found)
        self.facts.update(dict.fromkeys(missing))
        if found:  # a member row made just now has no baseline and no results yet
            ids = list(found)
            self.states.update(baseline_states(self.c, ids))
            own = row_states(self.c, ids, self.rerating)
            self.states.update(own)
            if self.published:
                self.histories.update(stored_histories(self.c, ids))
                self.own.update(k for k in own if k[0] in self.histories)
        self.loaded.update(new)


class _SideBySide:
    """Swiss and round-robin sections waiting to be rated in one call (`rate_lineups`):
    consecutive sections of which none rates a member another one rates, so that each
    one's pre-event ratings are as rating them one by one gives. They share the
    formulas' numbers (one rule set's)."""

    def __init__(self) -> None:
        self.lineups: list[LineupToRate] = []
        #: each one's event, section and member by pair number
        self.sections: list[tuple[str, SectionEntry, dict[int, str]]] = []
        self.members: set[str] = set()

    def takes(self, members: Sequence[str], laid: Lineup) -> bool:
        """Whether a lineup of ``members`` can be rated with those waiting."""
        if not self.lineups:
            return True
        return (laid.constants == self.lineups[0][0].constants
                and self.members.isdisjoint(members))

    def add(self, event_id: str, entry: SectionEntry, members: Sequence[str],
            lineup: LineupToRate) -> None:
        self.lineups.append(lineup)
        pairs = lineup[0].pairs
        self.sections.append((event_id, entry, {pair: member for pair, member
                                                in zip(pairs, members, strict=True) if member}))
        self.members.update(m for m in members if m)  # "": no member, no state

    def clear(self) -> None:
        self.lineups, self.sections = [], []
        self.members.clear()


def states_and_facts(c: Connection, ids: Iterable[str], before_key: SectionKey | None = None
                     ) -> tuple[dict[tuple[str, System], Rating], dict[str, MemberFacts | None],
                                FloorsSetByHand]:
    """What `prepare` needs for ``ids``, read from the database: the states after
    the last section (or the last before ``before_key``), facts and floors set by hand."""
    ids = list(ids)
    facts: dict[str, MemberFacts | None] = dict(member_facts(c, ids))
    return latest_states(c, ids, before_key), facts, office_floors(c, ids)
