"""One variant over a laid-out history (layout.py), compiled: the chain of chain.py
without a Python step per section.

The loop walks the groups in rating order. Each group's `Before` rows are read from the
chain's state (arrays, one place per member-system), from the file, or from Step 1; then
the procedure's own kernels, compiled (batch/compiled.py: `prepare`, `rate`), rate the
group, and its outcomes become the state a later group reads. Step 1 of the blended
initialization is compiled too: before a section's first group, each of its rows that
needs Step 1 reads its sources (layout.Blend) from the file or from the chain's state of
that moment, through core/blending.py's functions. Step 1 by the priority lists, or
assigned by hand, stays in Python (core/initial.py): the rows whose Step 1 reads no
rating of the chain are done before the loop, and the loop stops before each section
that has one that does. It also stops at each month's end, for the ratings over time.
The numbers are chain.py's to the last bit (tests/experiments).

The norms are computed in the loop too, from each Regular group's post-event ratings, by
core/norms.py's kernels compiled unchanged (`NORM_KERNELS`, rebuilt as batch/compiled.py
rebuilds core/kernels.py's); each rated Regular row is kept (`Awarded`) for the titles,
which core/titles.py gives after the loop (awards.py).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

from ..batch.compiled import KERNELS, NORM_ORDER, SOURCES, drop_stale_caches, prepare, rate
from ..batch.engine import outcome_records
from ..core import norms as norm_rules
from ..core.constants import Constants
from ..core.initial import initial_rating
from ..core.kernels import UNKNOWN
from ..core.model import Rating, System
from ..core.norms import NORM_CODES, NORM_ELIGIBLE
from ..core.pre_event import MemberFacts, prepare_player
from ..core.records import Before, Final, Games, Terms
from ..core.rules import RULE_SETS, RuleSet
from ..core.titles import TitleEvent
from ..core.variants import STEP1_FIELDS, Variant
from .awards import Awards, awards_of
from .chain import MODE, Rerated
from .layout import SYSTEMS, Blend, HistoryLayout, Step1Row
from .scores import movement, predict

# the machine code cached for this file holds the kernels' code too (batch/compiled.py)
drop_stale_caches((*SOURCES, Path(norm_rules.__file__ or ""), Path(__file__)),
                  Path(__file__).parent / "__pycache__" / "compiled.sha256")
age_rating = KERNELS["age_rating"]
source_weight = KERNELS["source_weight"]
blended_average = KERNELS["blended_average"]

#: core/norms.py's kernels, compiled once with the others (batch/compiled.py)
NORM_KERNELS = {name: KERNELS[name] for name in NORM_ORDER}
highest_norm = KERNELS["highest_norm"]
norm_eligibility = KERNELS["norm_eligibility"]
most_meetings = KERNELS["most_meetings"]
counted_norm_games = KERNELS["counted_norm_games"]


class State(NamedTuple):
    """The chain's state after each member-system's last section (one place per slot),
    as the `Before` values a later section reads: what office.store keeps as a rating's
    state (``rated`` is False for a slot not rated yet)."""

    values: Before
    day: NDArray[np.int64]  #: the end date of the last section, an ordinal


class Rows(NamedTuple):
    """Where each row's pre-event rating comes from, and Step 1's numbers."""

    slot: NDArray[np.int64]
    from_file: NDArray[np.bool_]
    step1: NDArray[np.bool_]
    blended: NDArray[np.bool_]  #: Step 1 is the blended initialization, computed here
    under_3_adult: NDArray[np.bool_]  #: the age-based rating's rule for an age under 3
    step1_r0: NDArray[np.float64]
    step1_n: NDArray[np.int64]


class Scored(NamedTuple):
    """What the scores read (scores.py), filled as the chain goes; ``filled`` holds how
    many games, changes and rated player-systems are filled."""

    pre_a: NDArray[np.float64]
    pre_b: NDArray[np.float64]
    provisional: NDArray[np.bool_]
    y: NDArray[np.float64]
    changes: NDArray[np.float64]
    filled: NDArray[np.int64]


class Awarded(NamedTuple):
    """Each rated row of a Regular group, as the loop meets them: its slot (-1: no
    member), group, norm (the level's index, -1: none), post-event rating, N after and
    OLM flag; ``filled[0]`` rows are filled."""

    slot: NDArray[np.int64]
    group: NDArray[np.int64]
    norm: NDArray[np.int64]
    post: NDArray[np.float64]
    games: NDArray[np.int64]
    olm: NDArray[np.bool_]
    filled: NDArray[np.int64]


@numba.njit(cache=True, nogil=True)
def _norm(i: int, played: Games, final: Final, c: Constants) -> int:
    """Row ``i``'s norm, as core.norms.player_norm decides it, through the same
    functions compiled: `most_meetings`, `norm_eligibility`, `counted_norm_games`,
    `highest_norm`."""
    first, last = played.first[i], played.last[i]
    most = most_meetings(played.opponent, first, last)
    if norm_eligibility(last - first, most, c) != NORM_ELIGIBLE:
        return -1
    opponents = np.empty(last - first)
    m, score = counted_norm_games(played.opponent, played.score, first, last, final.post, 0,
                                  opponents)
    return highest_norm(np.sort(opponents[:m]), m, score, c)  # type: ignore[no-any-return]


@numba.njit(cache=True, nogil=True)
def _unrated(size: int) -> Before:
    """``size`` rows of an unrated player with no history: counts UNKNOWN, ratings and
    floors NaN (Step 1's R0 and N are written in)."""
    counts = [np.full(size, UNKNOWN, np.int64) for _ in range(6)]
    floats = [np.full(size, np.nan) for _ in range(5)]
    return Before(r0=floats[0], n=counts[0], wins=counts[1], draws=counts[2],
                  losses=counts[3], events3=counts[4], above_2200=counts[5], peak=floats[1],
                  floor=floats[2], lowered_from=floats[3], lowered_to=floats[4],
                  olm=np.zeros(size, np.bool_), rated=np.zeros(size, np.bool_))


@numba.njit(cache=True, nogil=True)
def _copy(to: Before, i: int, source: Before, j: int) -> None:
    """Row ``j`` of ``source`` into row ``i`` of ``to``."""
    to.r0[i], to.n[i], to.wins[i], to.draws[i] = (source.r0[j], source.n[j], source.wins[j],
                                                  source.draws[j])
    to.losses[i], to.events3[i] = source.losses[j], source.events3[j]
    to.above_2200[i], to.peak[i], to.floor[i] = (source.above_2200[j], source.peak[j],
                                                 source.floor[j])
    to.lowered_from[i], to.lowered_to[i] = source.lowered_from[j], source.lowered_to[j]
    to.olm[i], to.rated[i] = source.olm[j], source.rated[j]


@numba.njit(cache=True, nogil=True)
def _before(start: int, size: int, rows: Rows, given: Before, state: State) -> Before:
    """The group's `Before` rows: Step 1's, the file's rating or the chain's state."""
    before = _unrated(size)
    for i in range(size):
        row = start + i
        if rows.step1[row]:  # unrated: Step 1's R0 and N, no history
            before.r0[i], before.n[i] = rows.step1_r0[row], rows.step1_n[row]
        elif rows.from_file[row]:
            _copy(before, i, given, row)
        else:
            _copy(before, i, state.values, rows.slot[row])
    return before


@numba.njit(cache=True, nogil=True)
def _initial(row: int, end: int, rows: Rows, blend: Blend, state: State, c: Constants
             ) -> None:
    """Step 1 of ``row`` by the blended initialization (initial._blended), in a section
    ending on day ``end``: each source's values from the file or, for the chain's, from
    its state now (a state always has a game, as `blended_sources` asks)."""
    first, stop = blend.first[row], blend.stop[row]
    known, born, adult = blend.birth_known[row], blend.birth_day[row], blend.adult[row]
    if stop == first:  # no source: the age-based rating, N = 0 (initial._age)
        rows.step1_r0[row] = age_rating(known, end - born, adult, rows.under_3_adult[row])
        rows.step1_n[row] = 0
        return
    ratings, weights = np.empty(stop - first), np.empty(stop - first)
    for k in range(first, stop):
        s = blend.slot[k]
        x, games, day = blend.rating[k], blend.games[k], blend.rated_day[k]
        if s >= 0:
            x, games, day = state.values.r0[s], float(state.values.n[s]), state.day[s]
        ratings[k - first] = x
        weights[k - first] = source_weight(x, games, blend.larger[k], day, end, known, born,
                                           adult, rows.under_3_adult[row], c)[5]
    rows.step1_r0[row], rows.step1_n[row] = blended_average(ratings, weights, stop - first, c)


@numba.njit(cache=True, nogil=True)
def run_groups(a: int, b: int, terms: Any, end_day: NDArray[np.int64],
               section_stop: NDArray[np.int64], rows: Rows, blend: Blend, given: Before,
               games: Any, state: State, scored: Scored, established_after: float,
               regular: NDArray[np.bool_], earns_norms: NDArray[np.bool_], awarded: Awarded,
               c: Constants) -> None:
    """Groups a:b, in order: Step 1 of a section's blended rows before its first group
    (`_initial`), then each group rated (procedure.prepare, procedure.rate), scored
    (chain._Games) and written to the state (explanation.state_after). ``terms`` and
    ``games`` are `Terms` and `Games` of NumPy arrays, which are sliced here (the
    records' Column type of the lists of the reference path is not). In a ``regular``
    group, each rated row's norm (where the section ``earns_norms``) and rating are kept
    in ``awarded``."""
    for g in range(a, b):
        start = terms.start[g]
        for row in range(start, section_stop[g]):
            if rows.blended[row]:
                _initial(row, end_day[g], rows, blend, state, c)
        size = terms.stop[g] - start
        local = Terms(np.zeros(1, np.int64), np.full(1, size, np.int64),
                      terms.half_k[g:g + 1], terms.dual_regular[g:g + 1],
                      terms.regular[g:g + 1], terms.absolute_floor[g:g + 1],
                      terms.bonus_threshold[g:g + 1], terms.bonus_m3_distinct[g:g + 1])
        before = _before(start, size, rows, given, state)
        played = Games(games.first[start:start + size], games.last[start:start + size],
                       games.opponent, games.score)
        prepared, step3, step4, step5, final = outcome_records(size)
        prepare(0, local, before, played, prepared, final, c)
        room = 0
        for i in range(size):
            room = max(room, played.last[i] - played.first[i])
        rate(0, local, before, played, prepared, step3, step4, step5, final,
             np.empty(room), np.empty(2 * room + 2), c)
        for i in range(size):  # the games between rated players, each once
            if not before.rated[i]:
                continue
            for j in range(played.first[i], played.last[i]):
                o = games.opponent[j]
                if o <= i or not before.rated[o]:
                    continue
                k = scored.filled[0]
                scored.pre_a[k], scored.pre_b[k] = before.r0[i], before.r0[o]
                scored.provisional[k] = (before.n[i] <= established_after
                                         or before.n[o] <= established_after)
                scored.y[k] = games.score[j]
                scored.filled[0] = k + 1
        if regular[g]:
            for i in range(size):
                if played.last[i] == played.first[i]:
                    continue
                k = awarded.filled[0]
                awarded.slot[k], awarded.group[k] = rows.slot[start + i], g
                awarded.norm[k] = _norm(i, played, final, c) if earns_norms[g] else -1
                awarded.post[k], awarded.games[k] = final.post[i], final.games[i]
                awarded.olm[k] = final.olm[i]
                awarded.filled[0] = k + 1
        for i in range(size):  # the state after the event
            s = rows.slot[start + i]
            if played.last[i] == played.first[i] or s < 0:
                continue
            scored.filled[2] += 1
            if before.rated[i]:
                scored.changes[scored.filled[1]] = final.post[i] - before.r0[i]
                scored.filled[1] += 1
            after = state.values  # the pre-event floors carry on (state_after)
            _copy(after, s, before, i)
            after.r0[s], after.n[s] = final.post[i], final.games[i]
            after.wins[s], after.draws[s] = final.wins[i], final.draws[i]
            after.losses[s], after.events3[s] = final.losses[i], final.events3[i]
            after.above_2200[s], after.peak[s] = final.above_2200[i], final.peak[i]
            after.olm[s], after.rated[s] = final.olm[i], True
            state.day[s] = end_day[g]


def rerate_laid(laid: HistoryLayout, variant: Variant, follow: System = System.R) -> Rerated:
    """chain.rerate over the history laid out as ``laid``, compiled."""
    c = variant.constants
    rules = [variant.apply(rs) for rs in RULE_SETS]  # by rule set, then by group:
    absolute = np.array([[s in r.absolute_floor_systems for s in SYSTEMS] for r in rules],
                        dtype=np.bool_)
    terms = Terms(laid.start, laid.stop, laid.half_k, laid.dual_regular, laid.regular,
                  absolute[laid.rule_set, laid.system],
                  np.array([r.bonus_threshold for r in rules])[laid.rule_set],
                  np.array([r.bonus_m3_needs_distinct_opponents for r in rules],
                           dtype=np.bool_)[laid.rule_set])
    blend = laid.blend_by(rules)
    rows, waiting = _step1_rows(laid, variant, rules)
    state = _state(len(laid.slots))
    pairs = int((np.asarray(laid.games.last) - np.asarray(laid.games.first)).sum())
    scored = Scored(np.empty(pairs), np.empty(pairs), np.empty(pairs, np.bool_),
                    np.empty(pairs), np.empty(laid.rows), np.zeros(3, np.int64))
    follow_slots = laid.slot_system == SYSTEMS.index(follow)
    regular = laid.system == SYSTEMS.index(System.R)
    awarded = Awarded(np.empty(laid.rows, np.int64), np.empty(laid.rows, np.int64),
                      np.empty(laid.rows, np.int64), np.empty(laid.rows),
                      np.empty(laid.rows, np.int64), np.empty(laid.rows, np.bool_),
                      np.zeros(1, np.int64))
    months: list[tuple[str, list[float]]] = []
    stops = sorted(set(waiting) | set(np.flatnonzero(laid.month_ends_before).tolist()))
    a = 0
    for b in [*stops, len(laid.start)]:
        run_groups(a, b, terms, laid.end_day, laid.section_stop, rows, blend, laid.given,
                   laid.games, state, scored, c.established_after, regular,
                   laid.earns_norms, awarded, c)
        if b < len(laid.start):
            if laid.month_ends_before[b]:
                months.append((laid.month[b - 1], _ratings_in(state, follow_slots)))
            for one in waiting.get(b, ()):
                _step1(one, _states_of(one.member, laid, state), laid.facts,
                       rules[one.rule_set], rows)
        a = b
    if len(laid.start):
        months.append((laid.month[-1], _ratings_in(state, follow_slots)))
    games, changes, rated = scored.filled.tolist()
    keys, order = laid.keys
    return Rerated(variant,
                   predict(scored.pre_a[:games], scored.pre_b[:games],
                           scored.provisional[:games], scored.y[:games], c.we_scale),
                   movement(scored.changes[:changes], months),
                   keys, np.asarray(state.values.r0)[order], rated,
                   _awards(laid, awarded, c))


def _awards(laid: HistoryLayout, awarded: Awarded, c: Constants) -> Awards:
    """The norms and titles of the rows the loop kept, in rating order (awards.py)."""
    filled = int(awarded.filled[0])
    slot, norm = awarded.slot[:filled], awarded.norm[:filled]
    levels = norm[norm >= 0].tolist()
    # awards.could_hold, for every slot at once: only those members go through title_status
    member = slot >= 0
    norms = np.bincount(slot[member & (norm >= 0)], minlength=len(laid.slots))
    rated = (awarded.olm[:filled] | ((awarded.games[:filled] > c.established_after)
                                     & (awarded.post[:filled] >= c.national_master)))
    candidate = norms >= c.title_norms
    candidate[slot[member & rated]] = True
    events: dict[str, list[TitleEvent]] = {}
    for k in np.flatnonzero(member & candidate[np.maximum(slot, 0)]).tolist():
        s, g, n = int(awarded.slot[k]), int(awarded.group[k]), int(awarded.norm[k])
        event_id, number = laid.group_section[g]
        events.setdefault(laid.slots[s][0], []).append(TitleEvent(
            date.fromordinal(int(laid.end_day[g])), event_id, number,
            NORM_CODES[n] if n >= 0 else None, float(awarded.post[k]),
            int(awarded.games[k]) > c.established_after, bool(awarded.olm[k])))
    return awards_of(levels, events, c)


def _step1_rows(laid: HistoryLayout, variant: Variant, rules: list[RuleSet]
                ) -> tuple[Rows, dict[int, list[Step1Row]]]:
    """Where each row's pre-event rating comes from under ``rules``: the rows of the
    blended initialization are left to the loop (`_initial`); Step 1 by the priority
    lists or assigned by hand is done here for the rows that read no rating of the
    chain, and the others are returned by the group they wait for."""
    blended = laid.step1 & ~laid.assigned & np.array(
        [r.initialization == "blended" for r in rules], dtype=np.bool_)[laid.row_rule_set]
    under_3_adult = np.array([r.missing_age_rule == "adult" for r in rules],
                             dtype=np.bool_)[laid.row_rule_set]
    rows = Rows(laid.slot, laid.from_file, laid.step1, blended, under_3_adult,
                np.zeros(laid.rows), np.zeros(laid.rows, np.int64))
    in_python = [one for one in laid.step1_rows if not blended[one.row]]
    waiting: dict[int, list[Step1Row]] = {}
    for one in in_python:
        if not one.static:
            waiting.setdefault(one.first_group, []).append(one)
    if not laid.facts and not any(key in STEP1_FIELDS for key, _ in variant.changes):
        # the layout's Step 1, by the documented rules from the files alone, holds for
        # the rows that read no rating of the chain
        static = laid.static_step1_rows
        rows.step1_r0[static] = np.asarray(laid.given.r0)[static]
        rows.step1_n[static] = np.asarray(laid.given.n)[static]
    else:
        for one in in_python:
            if one.static:
                _step1(one, {}, laid.facts, rules[one.rule_set], rows)
    return rows, waiting


def _state(slots: int) -> State:
    """No member-system rated yet."""
    return State(_unrated(slots), np.zeros(slots, np.int64))


def _ratings_in(state: State, follow: NDArray[np.bool_]) -> list[float]:
    """The ratings of the followed system's member-systems rated so far, in the order
    they were first rated (chain._ratings_in)."""
    rated = np.asarray(state.values.rated) & follow
    return np.asarray(state.values.r0)[rated].tolist()  # type: ignore[no-any-return]


def _states_of(member: str, laid: HistoryLayout, state: State
               ) -> dict[tuple[str, System], Rating]:
    """The member's ratings in the chain now, as the office holds them for Step 1 (only
    the rating, N and date are read there)."""
    out = {}
    for system in SYSTEMS:
        s = laid.slot_index.get((member, system), -1)
        if s >= 0 and state.values.rated[s]:
            out[(member, system)] = Rating(float(state.values.r0[s]), int(state.values.n[s]),
                                           date.fromordinal(int(state.day[s])))
    return out


def _step1(one: Step1Row, states: dict[tuple[str, System], Rating],
           facts: dict[str, MemberFacts | None], rules: RuleSet, rows: Rows) -> None:
    """Step 1 for one row, by the variant's ``rules``, reading ``states`` as the
    office's `lineup_pre_event` does."""
    player: Any = one.player
    if one.member:
        player = prepare_player(one.player, one.member, states, facts, {}, one.start, MODE)
    initial = initial_rating(player, one.system, rules, one.end)
    rows.step1_r0[one.row] = initial.rating
    rows.step1_n[one.row] = initial.games
