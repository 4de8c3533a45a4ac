"""One variant over a laid-out history (layout.py), compiled: the chain of chain.py
without a Python step per section.

The loop walks the groups in rating order. Each group's `Before` rows are read from the
chain's state (arrays, one place per member-system), from the file, or from Step 1; then
the procedure's own kernels, compiled (batch/compiled.py: `prepare`, `rate`), rate the
group, and its outcomes become the state a later group reads. Step 1 stays in Python
(core/initial.py): the rows whose Step 1 reads no rating of the chain are done before the
loop, and the loop stops before each section that has one that does, so that Python
reads the chain's ratings of that moment. It also stops at each month's end, for the
ratings over time. The numbers are chain.py's to the last bit (tests/experiments).
"""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

from ..batch.compiled import prepare, rate
from ..batch.engine import outcome_records
from ..core.constants import Constants
from ..core.initial import initial_rating
from ..core.kernels import UNKNOWN
from ..core.model import Rating, System
from ..core.records import Before, Games, Terms
from ..core.rules import RULE_SETS, RuleSet
from ..core.variants import STEP1_FIELDS, Variant
from ..office.run import prepare_player
from .chain import MODE, Rerated
from .layout import SYSTEMS, HistoryLayout, Step1Row
from .scores import movement, predict


class State(NamedTuple):
    """The chain's state after each member-system's last section (one place per slot):
    what office.store keeps as a rating's state."""

    has: NDArray[np.bool_]
    rating: NDArray[np.float64]
    games: NDArray[np.int64]
    wins: NDArray[np.int64]  #: UNKNOWN: not known
    draws: NDArray[np.int64]
    losses: NDArray[np.int64]
    events3: NDArray[np.int64]
    above_2200: NDArray[np.int64]
    peak: NDArray[np.float64]  #: NaN: none
    floor: NDArray[np.float64]  #: a floor set by hand, carried from the file
    lowered_from: NDArray[np.float64]
    lowered_to: NDArray[np.float64]
    olm: NDArray[np.bool_]
    day: NDArray[np.int64]  #: the end date of the last section, an ordinal


class Rows(NamedTuple):
    """Where each row's pre-event rating comes from, and Step 1's numbers."""

    slot: NDArray[np.int64]
    from_file: NDArray[np.bool_]
    step1: NDArray[np.bool_]
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


@numba.njit(cache=True, nogil=True)
def _before(start: int, size: int, rows: Rows, given: Before, state: State) -> Before:
    """The group's `Before` rows: the chain's state, the file's rating or Step 1's."""
    before = Before(
        r0=np.empty(size), n=np.empty(size, np.int64), wins=np.empty(size, np.int64),
        draws=np.empty(size, np.int64), losses=np.empty(size, np.int64),
        events3=np.empty(size, np.int64), above_2200=np.empty(size, np.int64),
        peak=np.empty(size), floor=np.empty(size), lowered_from=np.empty(size),
        lowered_to=np.empty(size), olm=np.empty(size, np.bool_), rated=np.empty(size, np.bool_))
    for i in range(size):
        row = start + i
        if rows.step1[row]:  # unrated: Step 1's R0 and N, no history
            before.r0[i], before.n[i] = rows.step1_r0[row], rows.step1_n[row]
            before.wins[i] = before.draws[i] = before.losses[i] = UNKNOWN
            before.events3[i] = before.above_2200[i] = UNKNOWN
            before.peak[i] = before.floor[i] = np.nan
            before.lowered_from[i] = before.lowered_to[i] = np.nan
            before.olm[i], before.rated[i] = False, False
        elif rows.from_file[row]:
            before.r0[i], before.n[i] = given.r0[row], given.n[row]
            before.wins[i], before.draws[i] = given.wins[row], given.draws[row]
            before.losses[i], before.events3[i] = given.losses[row], given.events3[row]
            before.above_2200[i], before.peak[i] = given.above_2200[row], given.peak[row]
            before.floor[i] = given.floor[row]
            before.lowered_from[i] = given.lowered_from[row]
            before.lowered_to[i] = given.lowered_to[row]
            before.olm[i], before.rated[i] = given.olm[row], True
        else:
            s = rows.slot[row]
            before.r0[i], before.n[i] = state.rating[s], state.games[s]
            before.wins[i], before.draws[i] = state.wins[s], state.draws[s]
            before.losses[i], before.events3[i] = state.losses[s], state.events3[s]
            before.above_2200[i], before.peak[i] = state.above_2200[s], state.peak[s]
            before.floor[i] = state.floor[s]
            before.lowered_from[i] = state.lowered_from[s]
            before.lowered_to[i] = state.lowered_to[s]
            before.olm[i], before.rated[i] = state.olm[s], True
    return before


@numba.njit(cache=True, nogil=True)
def run_groups(a: int, b: int, terms: Any, end_day: NDArray[np.int64], rows: Rows,
               given: Before, games: Any, state: State, scored: Scored,
               established_after: float, c: Constants) -> None:
    """Groups a:b, in order: each rated (procedure.prepare, procedure.rate), scored
    (chain._Games) and written to the state (explanation.state_after). ``terms`` and
    ``games`` are `Terms` and `Games` of NumPy arrays, which are sliced here (the
    records' Column type of the lists of the reference path is not)."""
    for g in range(a, b):
        start = terms.start[g]
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
        for i in range(size):  # the state after the event
            s = rows.slot[start + i]
            if played.last[i] == played.first[i] or s < 0:
                continue
            scored.filled[2] += 1
            if before.rated[i]:
                scored.changes[scored.filled[1]] = final.post[i] - before.r0[i]
                scored.filled[1] += 1
            state.has[s] = True
            state.rating[s], state.games[s] = final.post[i], final.games[i]
            state.wins[s], state.draws[s] = final.wins[i], final.draws[i]
            state.losses[s], state.events3[s] = final.losses[i], final.events3[i]
            state.above_2200[s], state.peak[s] = final.above_2200[i], final.peak[i]
            state.olm[s], state.day[s] = final.olm[i], end_day[g]
            state.floor[s] = before.floor[i]
            state.lowered_from[s] = before.lowered_from[i]
            state.lowered_to[s] = before.lowered_to[i]


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
    rows = Rows(laid.slot, laid.from_file, laid.step1, np.zeros(laid.rows),
                np.zeros(laid.rows, np.int64))
    waiting: dict[int, list[Step1Row]] = {}
    for one in laid.step1_rows:
        if not one.static:
            waiting.setdefault(one.first_group, []).append(one)
    static = laid.static_step1_rows
    if not any(key in STEP1_FIELDS for key, _ in variant.changes):
        # the layout's Step 1, by the documented rules, holds for the rows that read no
        # rating of the chain
        rows.step1_r0[static] = np.asarray(laid.given.r0)[static]
        rows.step1_n[static] = np.asarray(laid.given.n)[static]
    else:
        for one in laid.step1_rows:
            if one.static:
                _step1(one, {}, rules[one.rule_set], rows)
    state = _state(len(laid.slots))
    pairs = int((np.asarray(laid.games.last) - np.asarray(laid.games.first)).sum())
    scored = Scored(np.empty(pairs), np.empty(pairs), np.empty(pairs, np.bool_),
                    np.empty(pairs), np.empty(laid.rows), np.zeros(3, np.int64))
    follow_slots = laid.slot_system == SYSTEMS.index(follow)
    months: list[tuple[str, list[float]]] = []
    stops = sorted(set(waiting) | set(np.flatnonzero(laid.month_ends_before).tolist()))
    a = 0
    for b in [*stops, len(laid.start)]:
        run_groups(a, b, terms, laid.end_day, rows, laid.given, laid.games, state, scored,
                   c.established_after, c)
        if b < len(laid.start):
            if laid.month_ends_before[b]:
                months.append((laid.month[b - 1], _ratings_in(state, follow_slots)))
            for one in waiting.get(b, ()):
                _step1(one, _states_of(one.member, laid, state), rules[one.rule_set], rows)
        a = b
    if len(laid.start):
        months.append((laid.month[-1], _ratings_in(state, follow_slots)))
    games, changes, rated = scored.filled.tolist()
    keys, order = laid.keys
    return Rerated(variant,
                   predict(scored.pre_a[:games], scored.pre_b[:games],
                           scored.provisional[:games], scored.y[:games], c.we_scale),
                   movement(scored.changes[:changes], months),
                   keys, state.rating[order], rated)


def _state(slots: int) -> State:
    """No member-system rated yet."""
    def counts() -> NDArray[np.int64]:
        return np.full(slots, UNKNOWN, np.int64)

    def nan() -> NDArray[np.float64]:
        return np.full(slots, np.nan)

    return State(has=np.zeros(slots, np.bool_), rating=nan(), games=np.zeros(slots, np.int64),
                 wins=counts(), draws=counts(), losses=counts(), events3=counts(),
                 above_2200=counts(), peak=nan(), floor=nan(), lowered_from=nan(),
                 lowered_to=nan(), olm=np.zeros(slots, np.bool_),
                 day=np.zeros(slots, np.int64))


def _ratings_in(state: State, follow: NDArray[np.bool_]) -> list[float]:
    """The ratings of the followed system's member-systems rated so far, in the order
    they were first rated (chain._ratings_in)."""
    return state.rating[state.has & follow].tolist()  # type: ignore[no-any-return]


def _states_of(member: str, laid: HistoryLayout, state: State
               ) -> dict[tuple[str, System], Rating]:
    """The member's ratings in the chain now, as the office holds them for Step 1 (only
    the rating, N and date are read there)."""
    out = {}
    for system in SYSTEMS:
        s = laid.slot_index.get((member, system), -1)
        if s >= 0 and state.has[s]:
            out[(member, system)] = Rating(float(state.rating[s]), int(state.games[s]),
                                           date.fromordinal(int(state.day[s])))
    return out


def _step1(one: Step1Row, states: dict[tuple[str, System], Rating], rules: RuleSet,
           rows: Rows) -> None:
    """Step 1 for one row, by the variant's ``rules``, reading ``states`` as the
    office's `lineup_pre_event` does."""
    player: Any = one.player
    if one.member:
        player = prepare_player(one.player, one.member, states, {}, {}, one.start, MODE)
    initial = initial_rating(player, one.system, rules, one.end)
    rows.step1_r0[one.row] = initial.rating
    rows.step1_n[one.row] = initial.games
