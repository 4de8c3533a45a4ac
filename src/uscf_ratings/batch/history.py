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
from array import array
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from ..core.constants import Constants
from ..core.initial import BLENDED_SOURCE_FIELDS, blended_sources, initial_rating
from ..core.layout import (
    UNRATED_ROW,
    Lineup,
    file_columns,
    file_rating,
    rating_items,
)
from ..core.model import Player, Rating, Section, System
from ..core.pipeline import section_systems
from ..core.pre_event import FloorsSetByHand, MemberFacts, PreRatings, prepare_player
from ..core.records import Before, Games, Terms
from ..core.rules import RULE_SETS, RuleSet, rules_for
from .engine import record_of_columns, record_of_rows

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
    the same history, and are added to.

    Two passes. The first, a section at a time, gives each row its slot (made in the
    order met) and gathers the lineups' columns. The second decides
    where each row's pre-event rating comes from with arrays: a member-system has a
    state in the chain before a section if it had one before the history part, or a
    section before it in ``sections`` rated it (`_Known`). Only the rows that need a
    Python object (a file rating that is not plain, Step 1) are then visited one by
    one: a year's re-rate laid out a section at a time spent about 1.9 s here."""
    slots = Slots() if slots is None else slots
    other_states: set[int] = set()
    for key in starting.states:  # a state before the history: read from the chain
        place = slots.of(key)
        slots.rated[place] = 1
        other_states.add(place)
    for key in starting.own:
        if key in slots.index:
            slots.own[slots.index[key]] = 1
    got = _gather(sections, slots, other_states)
    known = _Known(slots, got)
    slot, row_section = got.slot, got.row_section
    in_python = np.zeros(len(sections), dtype=np.bool_)
    chained = (slot >= 0) & known.before(slot, row_section)
    held = np.array(got.held, dtype=np.bool_)
    filed, firsts = ~chained & held, ~chained & ~held
    reads: dict[tuple[str, int], tuple[System, ...]] = {}  # `_chain_systems`, by section
    for index in _to_check(sections, starting, got, firsts):
        in_python[index] = _in_python(index, sections[index], starting, slots, known,
                                      firsts, got, reads)
    python = in_python[row_section]
    from_file, step1 = filed & ~python, firsts & ~python
    given, given_ratings = _given(got, from_file)
    step1_rows = _step1_rows(sections, starting, slots, known, got, step1, reads)
    known.mark()
    games = Games(got.first, got.last, got.opponent, got.score)
    terms = record_of_rows(Terms, got.terms)
    by_group = np.array([g[:4] for g in got.per_group], dtype=np.int64).reshape(-1, 4)
    start, stop, half_k, dual_regular, regular = (
        np.asarray(column) for column in (terms.start, terms.stop, terms.half_k,
                                          terms.dual_regular, terms.regular))
    layout = HistoryLayout(
        tuple(sections), np.array(got.section_rows, np.int64),
        np.array(got.section_group, np.int64), start, stop, half_k, dual_regular, regular,
        by_group[:, 0], by_group[:, 1], by_group[:, 2], np.array(got.section_stop, np.int64),
        by_group[:, 3].astype(np.bool_), np.array([g[4] for g in got.per_group], np.int64),
        slot, from_file, step1, python, got.won, got.drawn, got.lost, given, given_ratings,
        games, step1_rows, blend_table(len(slot), step1_rows, RULE_SETS, slots.index),
        starting, slots, frozenset(other_states))
    _static_step1(layout)
    return layout


@dataclass
class _Gathered:
    """What the first pass of `lay_out` gathers: per section, per group and per row."""

    section_rows: list[int] = field(default_factory=list)
    section_group: list[int] = field(default_factory=list)
    #: per group: system, rule set, end, norms, section; and its `Terms` values
    per_group: list[tuple[int, int, int, bool, int]] = field(default_factory=list)
    section_stop: list[int] = field(default_factory=list)
    terms: list[tuple[Any, ...]] = field(default_factory=list)
    #: per row: the member's id, its file rating as held (`rating_items`), whether it has one
    ids: list[str] = field(default_factory=list)
    items: list[Any] = field(default_factory=list)
    held: list[bool] = field(default_factory=list)
    #: the slots a match or a foreign event gives a state, and its section
    model_slots: list[int] = field(default_factory=list)
    model_sections: list[int] = field(default_factory=list)
    constants: Constants | None = None
    # per row (and `lost`), made as arrays at the end of the first pass (`_gather`)
    slot: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    row_section: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    first: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    last: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    won: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    drawn: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    lost: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    #: per game
    opponent: NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    score: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0, np.float64))


def _gather(sections: Sequence[ToRate], slots: Slots, other_states: set[int]) -> _Gathered:
    """The first pass of `lay_out`: each row's slot, made in the order rows are met, and
    the lineups' columns gathered: their typed arrays (`core.layout.Lineup`) are copied
    onto the part's, a section at a time, and read as NumPy arrays at the end."""
    got = _Gathered()
    slot: list[int] = []
    rows_of: list[int] = []  #: per section, its rows
    first, last = array("q"), array("q")  #: per row, its entrant's first and last game in
    base: list[int] = []  # its section, and the section's first game
    won, drawn = array("q"), array("q")
    opponent, score = array("q"), array("d")  #: per game
    starts = [rs.effective for rs in RULE_SETS]
    for index, entry in enumerate(sections):
        at = len(slot)
        got.section_rows.append(at)
        got.section_group.append(len(got.per_group))
        laid = entry.lineup
        if laid is None:  # a match or a foreign event: rated at a stop, from its model
            assert entry.model is not None, f"section {entry.key} has neither lineup nor model"
            systems = section_systems(entry.model, rules_for(entry.start))
            for p in entry.model.players:
                if p.id and any(r.played for r in p.results):
                    for system in systems:  # a state after it
                        place = slots.of((p.id, system))
                        got.model_slots.append(place)
                        got.model_sections.append(index)
                        other_states.add(place)
            rows_of.append(0)
            continue
        if got.constants is None:
            got.constants = laid.constants
        elif laid.constants != got.constants:
            raise ValueError("sections rated together must share the formulas' numbers "
                             "(constants.Constants); rate variants of the rules apart")
        rule_set = starts.index(rules_for(entry.start).effective)
        size, count = laid.size, len(laid.systems)
        for g, system in enumerate(laid.systems):
            got.per_group.append((SYSTEMS.index(system), rule_set, entry.end.toordinal(),
                                  entry.earns_norms, index))
            got.section_stop.append(at + count * size if g == 0 else at + g * size)
            got.terms.append((at + g * size, at + (g + 1) * size, *laid.terms[g]))
            slot += slots.places(laid.ids, system)
        items = rating_items(laid.ratings)
        got.items += items
        got.held += [item is not None for item in items]
        got.ids += laid.ids * count
        first.extend(laid.first * count)
        last.extend(laid.last * count)
        won.extend(laid.won * count)
        drawn.extend(laid.drawn * count)
        base += [len(opponent)] * (size * count)
        opponent.extend(laid.opponent)
        score.extend(laid.score)
        rows_of.append(size * count)
    offset = np.array(base, np.int64)
    got.slot = np.array(slot, np.int64)
    got.row_section = np.repeat(np.arange(len(sections), dtype=np.int64),
                                np.array(rows_of, np.int64))
    got.first = np.frombuffer(first, np.int64) + offset
    got.last = np.frombuffer(last, np.int64) + offset
    got.won, got.drawn = np.frombuffer(won, np.int64), np.frombuffer(drawn, np.int64)
    got.opponent, got.score = np.frombuffer(opponent, np.int64), np.frombuffer(score)
    got.lost = got.last - got.first - got.won - got.drawn
    return got


class _Known:
    """Which slots have a state in the chain before each section of a history part:
    those that had one before the part (`Slots.rated`; `Slots.own`: the office rated
    them), and those a section before it in the part rated (a row with a game, or a
    match or a foreign event). Made from the part's rows alone: an office's pool holds
    far more slots than a part meets."""

    def __init__(self, slots: Slots, got: _Gathered):
        self.slots = slots
        marked = (got.slot >= 0) & (got.last > got.first)
        places = np.concatenate([got.slot[marked], np.array(got.model_slots, np.int64)])
        by = np.concatenate([got.row_section[marked], np.array(got.model_sections, np.int64)])
        order = np.lexsort((by, places))  # by slot, then section
        places, by = places[order], by[order]
        first = np.ones(len(places), dtype=np.bool_)
        first[1:] = places[1:] != places[:-1]
        #: the slots the part gives a state, sorted, and the first section that does
        self.places, self.from_section = places[first], by[first]
        self._from: dict[int, int] | None = None

    def before(self, slot: NDArray[np.int64], section: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Per row, whether its slot (-1: none) has a state before its section."""
        found = slot >= 0
        had = np.zeros(len(slot), dtype=np.bool_)
        flags = np.frombuffer(self.slots.rated, dtype=np.uint8)
        had[found] = flags[slot[found]] != 0
        del flags  # a bytearray with a view of it cannot grow
        if len(self.places):
            at = np.minimum(np.searchsorted(self.places, slot), len(self.places) - 1)
            had |= (self.places[at] == slot) & (self.from_section[at] < section)
        result: NDArray[np.bool_] = found & had
        return result

    def at(self, place: int, section: int) -> bool:
        """Whether slot ``place`` has a state before section ``section``."""
        return bool(self.slots.rated[place]) or self._first(place) < section

    def own_at(self, place: int, section: int) -> bool:
        """Whether the office rated slot ``place`` itself before section ``section``."""
        return bool(self.slots.own[place]) or self._first(place) < section

    def _first(self, place: int) -> int:
        if self._from is None:
            self._from = dict(zip(self.places.tolist(), self.from_section.tolist(),
                                  strict=True))
        return self._from.get(place, _NEVER)

    def mark(self) -> None:
        """The slots the part gives a state: a state (the office's) after it."""
        for flags in (self.slots.rated, self.slots.own):
            view = np.frombuffer(flags, dtype=np.uint8)  # writes to the bytearray
            view[self.places] = 1
            del view  # a bytearray with a view of it cannot grow


#: a section after every section: a slot the part does not give a state
_NEVER = int(np.iinfo(np.int64).max)


def _to_check(sections: Sequence[ToRate], starting: Starting, got: _Gathered,
              firsts: NDArray[np.bool_]) -> list[int]:
    """The lineup sections that may be Python sections (`_in_python`): all where the
    pre-event ratings are not the database's or floors or published ratings are given,
    else those with a Step 1 row of a member (which may read the chain)."""
    lineups = [i for i, entry in enumerate(sections) if entry.lineup is not None]
    if starting.floors or starting.published:
        return lineups
    member_firsts = np.unique(got.row_section[firsts & (got.slot >= 0)]).tolist()
    other = [i for i in lineups if sections[i].mode is not PreRatings.DATABASE]
    return sorted(set(member_firsts) | set(other))


def _given(got: _Gathered, from_file: NDArray[np.bool_]
           ) -> tuple[Before, dict[int, Rating]]:
    """The `Before` values of the rows whose pre-event rating is the file's (the others
    unrated: the chain's state or Step 1 fill them), and the file's rating of those
    whose rating is not plain, by row."""
    rows = from_file.nonzero()[0].tolist()
    items = [got.items[row] for row in rows]
    values, plain = file_columns(items)
    unusual: dict[int, Rating] = {}
    for at, is_plain in enumerate(plain):
        if not is_plain:
            made = file_rating(items[at])
            assert made is not None
            unusual[rows[at]] = made
    size = len(from_file)
    if not rows:
        return Before(*(np.full(size, blank, dtype=kind) for kind, blank in _blanks())), unusual
    columns = []
    for (kind, blank), value in zip(_blanks(), record_of_columns(Before, values), strict=True):
        column = np.full(size, blank, dtype=kind)
        column[rows] = value
        columns.append(column)
    return Before(*columns), unusual


@functools.cache
def _blanks() -> tuple[tuple[np.dtype[Any], Any], ...]:
    """Each `Before` field's kind and its value in an unrated row (`UNRATED_ROW`)."""
    unrated = record_of_rows(Before, [UNRATED_ROW])
    return tuple((np.asarray(column).dtype, np.asarray(column)[0]) for column in unrated)


def _step1_rows(sections: Sequence[ToRate], starting: Starting, slots: Slots, known: _Known,
                got: _Gathered, step1: NDArray[np.bool_],
                reads: dict[tuple[str, int], tuple[System, ...]]) -> tuple[Step1Row, ...]:
    """The rows whose pre-event rating is Step 1's, in row order."""
    out = []
    section_rows = got.section_rows
    for row in step1.nonzero()[0].tolist():
        index = int(got.row_section[row])
        entry = sections[index]
        laid = entry.lineup
        assert laid is not None
        g, e = divmod(row - section_rows[index], laid.size)
        member = got.ids[row]
        chain = _chain_systems(member, index, slots, known, reads) if member else ()
        player = laid.unrated[e]
        if member:
            player = prepare_player(player, member, {}, starting.facts, {}, entry.start,
                                    entry.mode)
        rule_set = got.per_group[got.section_group[index] + g][1]  # as `_gather` found it
        out.append(Step1Row(row, member, player, laid.systems[g], entry.end, rule_set, chain))
    return tuple(out)


def _chain_systems(member: str, section: int, slots: Slots, known: _Known,
                   reads: dict[tuple[str, int], tuple[System, ...]]) -> tuple[System, ...]:
    """The systems in which ``member`` has a state in the chain before section
    ``section`` (what its Step 1 reads of the chain), kept in ``reads``."""
    found = reads.get((member, section))
    if found is None:
        index = slots.index
        found = reads[(member, section)] = tuple(
            s for s in SYSTEMS if (place := index.get((member, s), -1)) >= 0
            and known.at(place, section))
    return found


def _in_python(index: int, entry: ToRate, starting: Starting, slots: Slots, known: _Known,
               firsts: NDArray[np.bool_], got: _Gathered,
               reads: dict[tuple[str, int], tuple[System, ...]]) -> bool:
    """Whether the lineup section ``index`` is a Python section: its pre-event ratings
    are chosen at the chain's stop (the module's docstring). ``firsts``: per row,
    whether its pre-event rating is Step 1's (a member-system with no state in the
    chain, to which the file gives no rating)."""
    laid = entry.lineup
    assert laid is not None
    if entry.mode is not PreRatings.DATABASE:
        return True
    members = [m for m in laid.ids if m]
    if starting.floors and any(
            any(day <= entry.start for day, _ in starting.floors.get((m, s), ()))
            for m in members for s in laid.systems):
        return True
    if starting.published and any(
            m in starting.published and any(
                (slot := slots.index.get((m, s), -1)) < 0 or not known.own_at(slot, index)
                for s in starting.published[m].systems)
            for m in members):
        return True
    blended = rules_for(entry.start).initialization == "blended"
    at = got.section_rows[index]
    for row in firsts[at:at + laid.size * len(laid.systems)].nonzero()[0].tolist():
        member = got.ids[at + row]  # Step 1 that reads a rating of the chain
        if not member:
            continue  # a player without a member id: it reads no member's rating
        read = _chain_systems(member, index, slots, known, reads)
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
