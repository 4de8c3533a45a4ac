"""A history laid out as columns, for the one chain that rates it in order (chain.py).

A history is a run of sections in rating order (`ToRate`): an office's sections from a
key on, or a folder's events. Rows are (section, system, entrant) as in core/layout.py,
one group per (section, system). Each member-system has a *slot* in the chain's state
(`Slots`), which the chain reads before a section and writes after it. What does not
depend on the rules' numbers is decided here, once, for every variant of them: each
row's slot, the rating its file gives, its games, and where its pre-event rating comes
from, as `core.pre_event.choose` chooses it by default:

- the chain's state, where the member-system has one (rated earlier in the history, or
  given in `Starting`: the office's state before the history, or an imported baseline);
- else the file's rating;
- else Step 1, by the blended initialization (computed in the loop, from the file or the
  chain's state of that moment: `Blend`), or by the priority lists or by hand from the
  file and the member's facts alone (computed here: *static*).

A section for which that default is not the whole rule is a *Python section*: the chain
stops before it and chooses its pre-event ratings with the core's own functions
(`core.pre_event.lineup_pre_event`, `core.layout.before_rows`) from its state of that
moment. They are the sections rated with the file's ratings (`PreRatings.FILE`), those
with a floor set by hand in force for one of their members, a member whose rating is
still the one US Chess published (`Starting.published`), and a Step 1 by the priority
lists that reads a rating of the chain. A match or a foreign FIDE event (sections 6 and
7) has no lineup: the chain stops before it and rates it with `core.pipeline.rate_section`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from itertools import compress
from typing import NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from ..core.initial import BLENDED_SOURCE_FIELDS, blended_sources, initial_rating
from ..core.layout import (
    UNRATED_ROW,
    BeforeRow,
    Columns,
    FileRatings,
    Lineup,
    holds_rating,
    rated_file_row,
)
from ..core.model import Player, Rating, Section, System
from ..core.pipeline import section_systems
from ..core.pre_event import FloorsSetByHand, MemberFacts, PreRatings, prepare_player
from ..core.records import Before, Games
from ..core.rules import RULE_SETS, RuleSet, rules_for
from .engine import arrays

SYSTEMS = tuple(System)
#: (end date, start date, event id, section number): the office's rating order
SectionKey = tuple[date, date, str, int]


class PublishedHistory(Protocol):
    """A member's ratings as US Chess published them (formats/member_history.py)."""

    @property
    def systems(self) -> Collection[System]: ...

    def rating_before(self, system: System, before: SectionKey | None) -> Rating | None: ...


@dataclass(frozen=True)
class ToRate:
    """One section of a history: its lineup (member ids as rated: merged ids followed),
    or for a match or a foreign FIDE event, its model."""

    event_id: str
    number: int
    start: date
    end: date
    lineup: Lineup | None
    model: Section | None = None  #: a match's or a foreign event's players and games
    mode: PreRatings = PreRatings.DATABASE
    earns_norms: bool = False  #: `core.norms.section_reason` gives no reason

    @property
    def key(self) -> SectionKey:
        return (self.end, self.start, self.event_id, self.number)


@dataclass(frozen=True)
class Starting:
    """What a history starts from besides its files (an office's database; empty for a
    folder)."""

    #: each member-system's state before the history: the office's own, or a baseline
    states: Mapping[tuple[str, System], Rating] = field(default_factory=dict)
    #: of those, the ones the office rated itself (not a baseline): a published history
    #: no longer stands for them
    own: Collection[tuple[str, System]] = frozenset()
    facts: Mapping[str, MemberFacts | None] = field(default_factory=dict)
    floors: FloorsSetByHand = field(default_factory=dict)
    published: Mapping[str, PublishedHistory] = field(default_factory=dict)


@dataclass
class Slots:
    """Each member-system's place in the chain's state, in the order first met, and
    which of them have a state (``rated``: before the history or by a section laid out
    so far) and which the office rated itself (``own``: not a baseline); grows as a
    history goes on (an office's run keeps them from one part to the next, and from one
    transaction to the next)."""

    keys: list[tuple[str, System]] = field(default_factory=list)
    index: dict[tuple[str, System], int] = field(default_factory=dict)
    #: a byte a slot, 1 where it has a state / the office rated it (a year has 300,000
    #: slots: as sets of their numbers, the two took 16 MB)
    rated: bytearray = field(default_factory=bytearray)
    own: bytearray = field(default_factory=bytearray)

    def of(self, key: tuple[str, System]) -> int:
        place = self.index.get(key)
        if place is None:
            place = self.index[key] = len(self.keys)
            self.keys.append(key)
            self.rated.append(0)
            self.own.append(0)
        return place

    def places(self, members: Sequence[str], system: System) -> list[int]:
        """The slot of each of ``members`` in ``system``, made in that order where new;
        -1 for a player without a member id."""
        get = self.index.get
        out = [get((member, system), -1) for member in members]  # most are found
        if -1 in out:  # new member-systems, or players without a member id
            for e, member in enumerate(members):
                if out[e] < 0 and member:
                    out[e] = self.of((member, system))
        return out


class Blend(NamedTuple):
    """What the blended initialization of each Step 1 row reads (initial.blended_sources),
    as arrays: per row, the range of its sources and the player's age; per source, a
    rating of the file (X_k, its games, its date) or the chain's slot whose state at the
    section's start gives them."""

    first: NDArray[np.int64]  #: per row: its first source
    stop: NDArray[np.int64]  #: one past its last
    birth_known: NDArray[np.bool_]
    birth_day: NDArray[np.int64]  #: an ordinal
    adult: NDArray[np.bool_]  #: known to be an adult
    slot: NDArray[np.int64]  #: per source: the chain's slot, or -1: the values below
    rating: NDArray[np.float64]
    games: NDArray[np.float64]
    larger: NDArray[np.bool_]  #: the larger Game Factor
    rated_day: NDArray[np.int64]  #: an ordinal; 0: no date


@dataclass(frozen=True)
class Step1Row:
    """A row whose pre-event rating is Step 1's and is not a Python section's."""

    row: int
    member: str  #: "" for a player without a member id
    player: Player  #: the file's player, with the member's facts (prepare_player)
    system: System
    end: date
    rule_set: int  #: index in rules.RULE_SETS
    #: the systems in which the member's rating is the chain's when the section starts
    chain: tuple[System, ...]


@dataclass(frozen=True)
class HistoryLayout:
    """The history's groups, rows and games as arrays (see the module's docstring)."""

    sections: tuple[ToRate, ...]
    # per section
    section_rows: NDArray[np.int64]  #: its first row (its rows follow: one group a system)
    section_group: NDArray[np.int64]  #: its first group (for a model section: the next one)
    # per group
    start: NDArray[np.int64]
    stop: NDArray[np.int64]
    half_k: NDArray[np.bool_]
    dual_regular: NDArray[np.bool_]
    regular: NDArray[np.bool_]
    system: NDArray[np.int64]  #: index in SYSTEMS
    rule_set: NDArray[np.int64]  #: index in rules.RULE_SETS, by the section's start date
    end_day: NDArray[np.int64]  #: the section's end date, as an ordinal
    #: the section's Step 1 is read before its first group: for that group, one past the
    #: section's last row; for any other group, its own start (no rows)
    section_stop: NDArray[np.int64]
    earns_norms: NDArray[np.bool_]
    group_section: NDArray[np.int64]  #: the index of the group's section
    # per row
    slot: NDArray[np.int64]  #: the member-system's place in the chain's state; -1: none
    from_file: NDArray[np.bool_]  #: the pre-event rating is the file's (or the published)
    step1: NDArray[np.bool_]  #: the pre-event rating is Step 1's
    python: NDArray[np.bool_]  #: a Python section's row: chosen at the chain's stop
    won: NDArray[np.int64]  #: the event's rated games won, drawn and lost by the entrant
    drawn: NDArray[np.int64]
    lost: NDArray[np.int64]
    #: the file's ratings (or the published ones); for the static Step 1 rows, Step 1's
    #: R0 and N by the documented rules
    given: Before
    #: the rating each row of `given` is, for what the arrays do not hold (whether N was
    #: known, the match changes), where it is unusual; by row
    given_ratings: Mapping[int, Rating]
    games: Games
    step1_rows: tuple[Step1Row, ...]
    blend: Blend  #: by the documented rules
    starting: Starting
    slots: Slots
    #: the slots given a state other than by a row: before the history, or by a match
    #: or a foreign event
    other_states: frozenset[int] = frozenset()

    @functools.cached_property
    def rated_keys(self) -> tuple[tuple[tuple[str, str], ...], NDArray[np.int64]]:
        """The (member, system code) of every slot the history gives a state, sorted,
        and those slots in that order: the same for every variant of the rules, since
        the same games are played under any (an experiment's last ratings)."""
        played = (np.asarray(self.games.last) - np.asarray(self.games.first)) > 0
        found = set(self.slot[played & (self.slot >= 0)].tolist()) | self.other_states
        keys, code = self.slots.keys, {system: system.value for system in SYSTEMS}
        codes = sorted((keys[s][0], code[keys[s][1]], s) for s in found)
        return (tuple((m, code) for m, code, _ in codes),
                np.array([s for _, _, s in codes], dtype=np.int64))

    @functools.cached_property
    def slot_systems(self) -> NDArray[np.int64]:
        """Each slot's system (its index in SYSTEMS), for an experiment's followed system."""
        index = {system: i for i, system in enumerate(SYSTEMS)}
        return np.array([index[system] for _, system in self.slots.keys], dtype=np.int64)

    @functools.cached_property
    def section_months(self) -> tuple[str, ...]:
        """Each section's month ("2026-03"), for an experiment's ratings over time."""
        return tuple(entry.end.strftime("%Y-%m") for entry in self.sections)

    @property
    def rows(self) -> int:
        return len(self.slot)

    @property
    def groups(self) -> int:
        return len(self.start)

    @functools.cached_property
    def row_rule_set(self) -> NDArray[np.int64]:
        return np.repeat(self.rule_set, self.stop - self.start)

    @functools.cached_property
    def assigned(self) -> NDArray[np.bool_]:
        """The Step 1 rows whose initial rating the ratings office assigned by hand."""
        out = np.zeros(self.rows, dtype=np.bool_)
        out[[r.row for r in self.step1_rows if r.system in r.player.initial]] = True
        return out

    @functools.cached_property
    def python_sections(self) -> tuple[int, ...]:
        """The sections whose pre-event ratings are chosen at the chain's stops."""
        return tuple(int(i) for i in np.unique(self.group_section[
            np.repeat(np.arange(self.groups), self.stop - self.start)[self.python]]))

    @functools.cached_property
    def model_sections(self) -> tuple[int, ...]:
        """The sections rated from their model (matches and foreign events)."""
        return tuple(i for i, s in enumerate(self.sections) if s.model is not None)

    def without_lineups(self) -> HistoryLayout:
        """The layout without the lineups the chain cannot read, for sending to other
        processes: it reads a section's lineup only at a stop, before a Python section,
        which under some rules may be one whose Step 1 reads the chain."""
        group_of = np.searchsorted(self.start, [r.row for r in self.step1_rows if r.chain],
                                   side="right") - 1
        kept = (set(self.python_sections) | set(self.model_sections)
                | set(self.group_section[group_of].tolist()))
        return replace(self, sections=tuple(
            entry if i in kept else replace(entry, lineup=None)
            for i, entry in enumerate(self.sections)))

    def with_shared_facts(self) -> HistoryLayout:
        """This layout with what every variant of the rules reads of it made now
        (`rated_keys`, `slot_systems`, `section_months`, `row_rule_set`, `assigned`, the
        Python and model sections): made once where the layout is made, it travels with
        it to the processes that rate the variants, rather than being made again in each
        (the members' keys sorted alone took about a second of a year's first variant)."""
        _ = (self.rated_keys, self.slot_systems, self.section_months, self.row_rule_set,
             self.assigned, self.python_sections, self.model_sections)  # kept as made
        return self

    def blend_by(self, rules: Sequence[RuleSet]) -> Blend:
        """The blended initialization's sources by ``rules`` (indexed as RULE_SETS)."""
        if all(getattr(r, f) == getattr(d, f) for r, d in zip(rules, RULE_SETS, strict=True)
               for f in BLENDED_SOURCE_FIELDS):
            return self.blend
        return blend_table(self.rows, self.step1_rows, rules, self.slots.index)


def lay_out(sections: Sequence[ToRate], starting: Starting = Starting(),
            slots: Slots | None = None) -> HistoryLayout:
    """Lay ``sections`` out (in rating order). ``slots`` carry on from an earlier part of
    the same history, and are added to."""
    slots = Slots() if slots is None else slots
    known, owned = slots.rated, slots.own
    other_states: set[int] = set()
    for key in starting.states:  # a state before the history: read from the chain
        known[slots.of(key)] = 1
        other_states.add(slots.index[key])
    for key in starting.own:
        if key in slots.index:
            owned[slots.index[key]] = 1
    gathered = Columns()
    per_group: list[tuple[int, int, int, bool, int]] = []  #: system, rule set, end, norms, section
    section_stop: list[int] = []
    section_rows: list[int] = []
    section_group: list[int] = []
    slot: list[int] = []
    from_file: list[bool] = []
    step1: list[bool] = []
    python: list[bool] = []
    won: list[int] = []
    drawn: list[int] = []
    lost: list[int] = []
    step1_rows: list[Step1Row] = []
    given_ratings: dict[int, Rating] = {}
    starts = [rs.effective for rs in RULE_SETS]
    for index, entry in enumerate(sections):
        section_rows.append(len(slot))
        section_group.append(len(per_group))
        laid = entry.lineup
        if laid is None:  # a match or a foreign event: rated at a stop, from its model
            assert entry.model is not None, f"section {entry.key} has neither lineup nor model"
            systems = section_systems(entry.model, rules_for(entry.start))
            for p in entry.model.players:
                if p.id and any(r.played for r in p.results):
                    for system in systems:  # a state after it
                        place = slots.of((p.id, system))
                        known[place] = owned[place] = 1
                        other_states.add(place)
            continue
        rules = rules_for(entry.start)
        at = len(gathered.rows)
        values: list[BeforeRow] = []  #: each row's `Before` values, where the file's
        rule_set = starts.index(rules.effective)
        for g in range(len(laid.systems)):
            per_group.append((SYSTEMS.index(laid.systems[g]), rule_set, entry.end.toordinal(),
                              entry.earns_norms, index))
            section_stop.append(at + len(laid.systems) * laid.size if g == 0
                                else at + g * laid.size)
        size, ids = laid.size, laid.ids
        # each row's slot, made in row order (system by system), before anything reads them
        places = [slots.places(ids, system) for system in laid.systems]
        held = _held(laid.ratings)
        # where each row's pre-event rating comes from, by system: the chain's state
        # (``chained``), else the file's (``filed``), else Step 1
        chained = [[place >= 0 and known[place] == 1 for place in group] for group in places]
        filed = [[not c and h for c, h in zip(chain, held[g * size:(g + 1) * size],
                                              strict=True)]
                 for g, chain in enumerate(chained)]
        firsts = [[not c and not f for c, f in zip(chain, file, strict=True)]
                  for chain, file in zip(chained, filed, strict=True)]
        reads: dict[str, tuple[System, ...]] = {}  # `_chain_systems`, for this section
        in_python = _in_python(entry, laid, starting, slots, known, owned, firsts, reads)
        losses = [b - a - w - d for a, b, w, d in zip(laid.first, laid.last, laid.won,
                                                         laid.drawn, strict=True)]
        rows = size * len(laid.systems)
        python.extend([in_python] * rows)
        for g, system in enumerate(laid.systems):
            slot.extend(places[g])
            won.extend(laid.won)
            drawn.extend(laid.drawn)
            lost.extend(losses)
            if in_python:  # chosen at the chain's stop
                from_file.extend([False] * size)
                step1.extend([False] * size)
                values.extend([UNRATED_ROW] * size)
                continue
            from_file.extend(filed[g])
            step1.extend(firsts[g])
            group_values = [UNRATED_ROW] * size  # the chain's state, or Step 1's
            base = g * size
            for e in compress(range(size), filed[g]):  # the file's rating (made only
                row_values, plain = rated_file_row(laid.ratings, base + e)  # where unusual)
                group_values[e] = row_values
                if not plain:
                    file_rating = laid.ratings[base + e]
                    assert file_rating is not None
                    given_ratings[at + base + e] = file_rating
            values.extend(group_values)
            for e in compress(range(size), firsts[g]):  # Step 1
                member = ids[e]
                chain = _chain_systems(member, slots, known, reads) if member else ()
                player = laid.unrated[e]
                if member:
                    player = prepare_player(player, member, {}, starting.facts,
                                            {}, entry.start, entry.mode)
                step1_rows.append(Step1Row(at + base + e, member, player, system,
                                           entry.end, rule_set, chain))
        gathered.add(laid, values)
        for g in range(len(laid.systems)):  # the member-systems it rates: a state after it
            for place, a, b in zip(places[g], laid.first, laid.last, strict=True):
                if place >= 0 and b > a:
                    known[place] = owned[place] = 1
    terms, given, games = arrays(gathered)
    by_group = np.array([g[:4] for g in per_group], dtype=np.int64).reshape(-1, 4)
    start, stop, half_k, dual_regular, regular = (
        np.asarray(column) for column in (terms.start, terms.stop, terms.half_k,
                                          terms.dual_regular, terms.regular))
    layout = HistoryLayout(
        tuple(sections), np.array(section_rows, np.int64), np.array(section_group, np.int64),
        start, stop, half_k, dual_regular, regular, by_group[:, 0], by_group[:, 1],
        by_group[:, 2], np.array(section_stop, np.int64), by_group[:, 3].astype(np.bool_),
        np.array([g[4] for g in per_group], np.int64),
        np.array(slot, np.int64), np.array(from_file, np.bool_), np.array(step1, np.bool_),
        np.array(python, np.bool_), np.array(won, np.int64), np.array(drawn, np.int64),
        np.array(lost, np.int64), given, given_ratings, games, tuple(step1_rows),
        blend_table(len(slot), step1_rows, RULE_SETS, slots.index), starting, slots,
        frozenset(other_states))
    _static_step1(layout)
    return layout


def _held(ratings: Sequence[Rating | None]) -> list[bool]:
    """Whether each row of a lineup's file ratings has one, without making them
    (`core.layout.holds_rating`)."""
    if isinstance(ratings, FileRatings):
        return [item is not None for item in ratings.items]
    return [holds_rating(ratings, row) for row in range(len(ratings))]


def _chain_systems(member: str, slots: Slots, known: bytearray,
                   reads: dict[str, tuple[System, ...]]) -> tuple[System, ...]:
    """The systems in which ``member`` has a state in the chain before the section (what
    its Step 1 reads of the chain), kept in ``reads``: the same for each of the member's
    rows, as the section's own states are known only once it is laid out."""
    found = reads.get(member)
    if found is None:
        index = slots.index
        found = reads[member] = tuple(s for s in SYSTEMS
                                      if (place := index.get((member, s), -1)) >= 0
                                      and known[place])
    return found


def _in_python(entry: ToRate, laid: Lineup, starting: Starting, slots: Slots,
               known: bytearray, own: bytearray, firsts: Sequence[Sequence[bool]],
               reads: dict[str, tuple[System, ...]]) -> bool:
    """Whether the section's pre-event ratings are chosen at the chain's stop (the
    module's docstring). ``firsts``: by system, whether each entrant's pre-event rating
    is Step 1's (a member-system with no state in the chain, to which the file gives
    no rating); ``reads``: `_chain_systems` kept for the section."""
    if entry.mode is not PreRatings.DATABASE:
        return True
    members = [m for m in laid.ids if m]
    if starting.floors and any(
            any(day <= entry.start for day, _ in starting.floors.get((m, s), ()))
            for m in members for s in laid.systems):
        return True
    if starting.published and any(
            m in starting.published and any(
                (slot := slots.index.get((m, s), -1)) < 0 or not own[slot]
                for s in starting.published[m].systems)
            for m in members):
        return True
    blended = rules_for(entry.start).initialization == "blended"
    for group in firsts:  # Step 1 that reads a rating of the chain
        for e in compress(range(len(group)), group):
            member = laid.ids[e]
            if not member:
                continue  # a player without a member id: it reads no member's rating
            read = _chain_systems(member, slots, known, reads)
            if read and not blended:  # the priority lists
                return True
            for s in read:  # the loop reads a state that has games; a baseline may have none
                before = starting.states.get((member, s))
                if before is not None and before.games <= 0:
                    return True
    return False


def _static_step1(layout: HistoryLayout) -> None:
    """Step 1 of the rows that read no rating of the chain and are not the blended
    initialization's, by the documented rules: written into ``given`` (R0 and N)."""
    for one in layout.step1_rows:
        rules = RULE_SETS[one.rule_set]
        if rules.initialization == "blended" and one.system not in one.player.initial:
            continue  # computed in the loop
        initial = initial_rating(one.player, one.system, rules, one.end)
        layout.given.r0[one.row] = initial.rating
        layout.given.n[one.row] = initial.games


#: a stand-in for the chain's rating in a system, for `blend_table`: `blended_sources`
#: lists it (a chain's state always has a game), and its values are read at run time
_FROM_CHAIN = Rating(math.nan, 1)


def blend_table(rows: int, step1_rows: Sequence[Step1Row], rules: Sequence[RuleSet],
                slot_index: Mapping[tuple[str, System], int]) -> Blend:
    """The sources of every Step 1 row's blended initialization, chosen as the office
    chooses them (`prepare_player`, `blended_sources`), by ``rules`` (indexed as
    rules.RULE_SETS): a rating of the chain stands as its slot."""
    first, stop, birth_day = (np.zeros(rows, dtype=np.int64) for _ in range(3))
    birth_known, adult = (np.zeros(rows, dtype=np.bool_) for _ in range(2))
    slot: list[int] = []
    rating: list[float] = []
    games: list[float] = []
    larger: list[bool] = []
    rated_day: list[int] = []
    for one in step1_rows:
        player = one.player
        if one.chain:
            player = prepare_player(player, one.member, {(one.member, s): _FROM_CHAIN
                                                         for s in one.chain}, {}, {},
                                    one.end, PreRatings.DATABASE)
        chain = {s.value for s in one.chain}
        first[one.row] = len(slot)
        for item in blended_sources(player, one.system, rules[one.rule_set]):
            from_chain = item.source in chain
            slot.append(slot_index[(one.member, System(item.source))] if from_chain else -1)
            rating.append(item.rating)
            games.append(item.games)
            larger.append(item.larger)
            rated_day.append(item.rated_on.toordinal() if item.rated_on is not None else 0)
        stop[one.row] = len(slot)
        if player.birth_date is not None:
            birth_known[one.row] = True
            birth_day[one.row] = player.birth_date.toordinal()
        adult[one.row] = bool(player.adult)
    return Blend(first, stop, birth_known, birth_day, adult, np.array(slot, dtype=np.int64),
                 np.array(rating, dtype=np.float64), np.array(games, dtype=np.float64),
                 np.array(larger, dtype=np.bool_), np.array(rated_day, dtype=np.int64))
