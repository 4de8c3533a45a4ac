"""A history laid out once as arrays, for every variant to re-rate (compiled.py).

Rows are (section, system, entrant), as in core/layout.py, one group per (section,
system), in the history's rating order. What does not depend on the variant is laid out
here: each row's member-system (its *slot* in the chain's state), the rating its file
gives, the games, and which rows need Step 1. Whether a member has a state in a system
when a section is reached does not depend on the variant either (the same games are
played under every rule), so this module decides, once, which rows take their pre-event
rating from the chain, which from the file, and which from Step 1. Step 1 itself depends
on the rules, so it is left to each variant (compiled.py); what it reads is laid out
here. For the blended initialization, that is each row's sources (`Blend`): a rating of
the file, FIDE or CFC, or the chain's slot whose state the variant's loop reads when it
reaches the section. A row whose Step 1 reads none of the chain's ratings (a member new
to every system) is *static*.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..batch.engine import arrays
from ..core.initial import BLENDED_SOURCE_FIELDS, blended_sources
from ..core.layout import Columns, Lineup, before_rows, lineup
from ..core.model import Player, Rating, Section, System
from ..core.norms import section_reason
from ..core.pipeline import PROCEDURE_TYPES, section_systems
from ..core.pre_event import MemberFacts, prepare_player
from ..core.records import Before, Games
from ..core.rules import RULE_SETS, RuleSet, rules_for
from ..core.steps import merge_entrants
from .chain import MODE
from .history import History

SYSTEMS = tuple(System)


@dataclass(frozen=True)
class Step1Row:
    """A row whose pre-event rating is Step 1's: what `initial_rating` needs."""

    row: int
    first_group: int  #: the first group of the row's section: Step 1 is read before it
    member: str  #: "" for a player without a member id
    player: Player  #: the file's player
    system: System
    start: date
    end: date
    rule_set: int  #: index in rules.RULE_SETS
    #: the systems in which the member's rating is the chain's (rated before the section)
    chain: tuple[System, ...]

    @property
    def static(self) -> bool:
        """Reads no rating of the chain (only the file's)."""
        return not self.chain


class Blend(NamedTuple):
    """What the blended initialization of each Step 1 row reads (initial.blended_sources),
    as arrays: per row, the range of its sources and the player's age; per source, a
    rating of the file (X_k, its games, its date) or the chain's slot whose state at the
    section's start gives them. FIDE and CFC are converted by the rules they were laid out
    with (`blend_table`)."""

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
class HistoryLayout:
    """The history's groups, rows and games as arrays (see the module's docstring)."""

    # per group
    start: NDArray[np.int64]
    stop: NDArray[np.int64]
    half_k: NDArray[np.bool_]
    dual_regular: NDArray[np.bool_]
    regular: NDArray[np.bool_]
    system: NDArray[np.int64]  #: index in SYSTEMS
    rule_set: NDArray[np.int64]  #: index in rules.RULE_SETS, by the section's start date
    end_day: NDArray[np.int64]  #: the section's end date, as an ordinal
    month_ends_before: NDArray[np.bool_]  #: a month of the history ends before this group
    month: tuple[str, ...]  #: "2026-03": the month of each group's section's end date
    #: the section's Step 1 is read before its first group: for that group, one past the
    #: section's last row; for any other group, its own start (no rows)
    section_stop: NDArray[np.int64]
    # per row
    slot: NDArray[np.int64]  #: the member-system's place in the chain's state; -1: none
    from_file: NDArray[np.bool_]  #: the pre-event rating is the file's
    step1: NDArray[np.bool_]  #: the pre-event rating is Step 1's
    #: the file's ratings; for the rows of Step 1, its R0 and N by the documented rules
    given: Before
    games: Games
    # Step 1, and the member-systems
    step1_rows: tuple[Step1Row, ...]
    slots: tuple[tuple[str, System], ...]  #: in the order the chain first rates them
    facts: dict[str, MemberFacts | None]  #: the members' facts an office database adds
    blend: Blend  #: by the documented rules
    #: per group: the section earns norms (core.norms.section_reason gives no reason)
    earns_norms: NDArray[np.bool_]
    group_section: tuple[tuple[str, int], ...]  #: per group: (event id, section number)

    @functools.cached_property
    def row_rule_set(self) -> NDArray[np.int64]:
        """Each row's rule set, as an index in rules.RULE_SETS."""
        return np.repeat(self.rule_set, self.stop - self.start)

    @functools.cached_property
    def assigned(self) -> NDArray[np.bool_]:
        """The Step 1 rows whose initial rating the ratings office assigned by hand."""
        out = np.zeros(self.rows, dtype=np.bool_)
        out[[r.row for r in self.step1_rows if r.system in r.player.initial]] = True
        return out

    @property
    def rows(self) -> int:
        return len(self.slot)

    @functools.cached_property
    def slot_index(self) -> dict[tuple[str, System], int]:
        """Each member-system's slot."""
        return {key: i for i, key in enumerate(self.slots)}

    def blend_by(self, rules: Sequence[RuleSet]) -> Blend:
        """The blended initialization's sources by ``rules`` (indexed as RULE_SETS): the
        layout's own where they read the same fields (`BLENDED_SOURCE_FIELDS`)."""
        if all(getattr(r, f) == getattr(d, f) for r, d in zip(rules, RULE_SETS, strict=True)
               for f in BLENDED_SOURCE_FIELDS):
            return self.blend
        return blend_table(self.rows, self.step1_rows, rules, self.slot_index, self.facts)

    @functools.cached_property
    def static_step1_rows(self) -> NDArray[np.int64]:
        """The rows whose Step 1 reads no rating of the chain."""
        return np.array([r.row for r in self.step1_rows if r.static], dtype=np.int64)

    @functools.cached_property
    def slot_system(self) -> NDArray[np.int64]:
        """Each slot's system, as an index in SYSTEMS."""
        return np.array([SYSTEMS.index(s) for _, s in self.slots], dtype=np.int64)

    @functools.cached_property
    def keys(self) -> tuple[tuple[tuple[str, str], ...], NDArray[np.int64]]:
        """The (member, system code) of every slot, sorted, and the slots in that order."""
        codes = [(m, s.value) for m, s in self.slots]
        order = sorted(range(len(codes)), key=codes.__getitem__)
        return tuple(codes[i] for i in order), np.array(order, dtype=np.int64)


class NotLaidOut(ValueError):
    """The history holds a section the compiled chain does not rate (a match or a
    foreign FIDE event): the chain of chain.py rates it."""


def lay_out_history(history: History) -> HistoryLayout:
    """Lay ``history`` out (sections of matches and foreign events: `NotLaidOut`)."""
    gathered = Columns()
    groups: list[tuple[int, int, int]] = []  #: system, rule set, end day
    months: list[str] = []
    section_stop: list[int] = []
    earns_norms: list[bool] = []
    group_section: list[tuple[str, int]] = []
    slot: list[int] = []
    from_file: list[bool] = []
    step1: list[bool] = []
    step1_rows: list[Step1Row] = []
    slots: dict[tuple[str, System], int] = {}
    starts = [rs.effective for rs in RULE_SETS]
    beyond = history.office.beyond_the_compiled_chain
    if beyond:
        raise NotLaidOut(f"the database holds {beyond}")
    for event_id, section in history.sections:
        if section.type not in PROCEDURE_TYPES:
            raise NotLaidOut(f"section {section.number} of {section.start_date} is a "
                             f"{section.type.value}")
        rules = rules_for(section.start_date)
        systems = section_systems(section, rules)
        laid = lineup(section, rules, systems, merge_entrants(section.players))
        rows, _ = before_rows(laid, laid.ratings, {}, rules, section.end_date)
        at = gathered.add(laid, rows)
        rule_set = starts.index(rules.effective)
        month = section.end_date.strftime("%Y-%m")
        earns = section_reason(section.type, section.online, systems,
                               section.start_date) is None
        for g, system in enumerate(laid.systems):
            earns_norms.append(earns)
            group_section.append((event_id, section.number))
            groups.append((SYSTEMS.index(system), rule_set, section.end_date.toordinal()))
            months.append(month)
            section_stop.append(at + len(laid.systems) * laid.size if g == 0
                                else at + g * laid.size)
        known = len(slots)  # the member-systems rated before this section
        _rated(laid, slots)
        _rows(section, laid, at, slots, known, slot, from_file, step1, step1_rows,
              len(groups), rule_set)
    by_group = np.array(groups, dtype=np.int64).reshape(-1, 3)
    terms, given, games = arrays(gathered)  # the documented rules' terms: the flags hold
    ends_before = np.array([i > 0 and months[i] != months[i - 1] for i in range(len(months))],
                           dtype=np.bool_)
    start, stop, half_k, dual_regular, regular = (
        np.asarray(column) for column in (terms.start, terms.stop, terms.half_k,
                                          terms.dual_regular, terms.regular))
    return HistoryLayout(start, stop, half_k, dual_regular, regular, by_group[:, 0],
                         by_group[:, 1], by_group[:, 2],
                         ends_before, tuple(months), np.array(section_stop, dtype=np.int64),
                         np.array(slot, dtype=np.int64),
                         np.array(from_file, dtype=np.bool_), np.array(step1, dtype=np.bool_),
                         given, games, tuple(step1_rows), tuple(slots), history.office.facts,
                         blend_table(len(slot), step1_rows, RULE_SETS, slots,
                                     history.office.facts),
                         np.array(earns_norms, dtype=np.bool_), tuple(group_section))


#: a stand-in for the chain's rating in a system, for `blend_table`: `blended_sources`
#: lists it (a chain's state always has a game), and its values are read at run time
_FROM_CHAIN = Rating(math.nan, 1)


def blend_table(rows: int, step1_rows: Sequence[Step1Row], rules: Sequence[RuleSet],
                slot_index: dict[tuple[str, System], int],
                facts: dict[str, MemberFacts | None]) -> Blend:
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
        if one.member:
            placeholders = {(one.member, s): _FROM_CHAIN for s in one.chain}
            player = prepare_player(player, one.member, placeholders, facts, {}, one.start,
                                    MODE)
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


def _rows(section: Section, laid: Lineup, at: int, slots: dict[tuple[str, System], int],
          known: int, slot: list[int], from_file: list[bool], step1: list[bool],
          step1_rows: list[Step1Row], groups: int, rule_set: int) -> None:
    """Each row of the lineup: its slot and where its pre-event rating comes from (the
    chain's state where the member has one, that is a slot below ``known``, else the
    file's, else Step 1: as core.pre_event.pre_event_rating chooses by default)."""
    size = laid.size
    first_group = groups - len(laid.systems)
    for g, system in enumerate(laid.systems):
        for e in range(size):
            row = at + g * size + e
            member = laid.ids[e]
            key = (member, system)
            place = slots.get(key, -1) if member else -1
            slot.append(place)
            in_chain = 0 <= place < known
            from_file.append(not in_chain and laid.ratings[g * size + e] is not None)
            needs = not in_chain and laid.ratings[g * size + e] is None
            step1.append(needs)
            if needs:
                chain = tuple(s for s in SYSTEMS if 0 <= slots.get((member, s), -1) < known
                              ) if member else ()
                step1_rows.append(Step1Row(row, first_group, member, laid.unrated[e],
                                           system, section.start_date, section.end_date,
                                           rule_set, chain))


def _rated(laid: Lineup, slots: dict[tuple[str, System], int]) -> None:
    """The member-systems this lineup rates (a row with a rated game) get their slots,
    in the order the office first stores them."""
    size = laid.size
    for system in laid.systems:
        for e in range(size):
            member = laid.ids[e]
            if member and laid.last[e] > laid.first[e] and (member, system) not in slots:
                slots[(member, system)] = len(slots)
