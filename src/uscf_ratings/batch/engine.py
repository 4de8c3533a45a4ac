"""The batch path: many sections as arrays, Steps 1 to 5 and the floors compiled.

``pack`` lays sections out as columns (batch/layout.py: Python reads each player once,
and compiled kernels built from core/kernels.py give N', the formula choice, S, K, bonus
eligibility, the history and the floors); ``rate_packed`` then runs Steps 3, 4 and 5 and
the floors, one section per task on all cores. ``rate_outcomes`` does the same for one
section and builds the states the office stores. Both give the reference path's numbers
(a test holds them to 1e-9); they do not build the explanations, which is what makes the
reference path slower.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

from ..core.kernels import OLM_GAMES, UNKNOWN
from ..core.model import Rating, Section, SectionType, System
from ..core.results import Outcome
from ..core.validate import check_section
from .compiled import expected, peak_after, special_walk
from .layout import Carried, Columns, Layout, prepare, prepare_parallel

STEP_FLOOR = 100.0
#: the section types the compiled path rates (matches and foreign events have their own
#: rules: core/match.py, core/foreign.py)
COMPILED_TYPES = (SectionType.SWISS, SectionType.ROUND_ROBIN)
#: below this many (section, system) groups one thread does the work: waking the other
#: threads costs more than they save, and much more when another process holds the cores
PARALLEL_FROM = 8


@dataclass(frozen=True)
class Packed:
    """Rows are (section, system, player); games point at their opponent's row."""

    section_rows: NDArray[np.int64]  #: row range of each (section, system): start, stop
    r0: NDArray[np.float64]
    n_eff: NDArray[np.float64]
    unrated_n0: NDArray[np.bool_]  #: unrated with Step 1 N = 0: rated in Step 3
    special: NDArray[np.bool_]
    prior: NDArray[np.int64]
    score: NDArray[np.float64]
    k: NDArray[np.float64]
    bonus: NDArray[np.float64]  #: B, or NaN when not eligible
    floor: NDArray[np.float64]
    game_start: NDArray[np.int64]  #: games of row i: game_start[i]:game_start[i + 1]
    game_opponent: NDArray[np.int64]
    keys: tuple[tuple[int, int, System], ...]  #: (section index, pair, system) per row

    @property
    def player_games(self) -> int:
        return int(self.game_opponent.shape[0])


def lay_out(sections: Sequence[Section]) -> Columns:
    """Check sections and read their players into columns (Swiss and round-robin
    sections): the Python part of the batch path."""
    layout = Layout()
    for index, section in enumerate(sections):
        check_section(section)
        layout.add(index, section)
    return layout.columns()


def pack(sections: Sequence[Section]) -> Packed:
    """Lay out sections for `rate_packed`."""
    return _packed(lay_out(sections))[0]


def rate_columns(columns: Columns) -> NDArray[np.float64]:
    """Post-event ratings of every row of laid-out sections: N', the formula choice, S,
    K, bonus eligibility and the floors, then Steps 3-5, all compiled."""
    return rate_packed(_packed(columns)[0])


def _packed(columns: Columns) -> tuple[Packed, NDArray[np.float64]]:
    """The packed rows, and each row's history after the event (layout.AFTER)."""
    run = prepare_parallel if columns.groups.shape[0] >= PARALLEL_FROM else prepare
    rows, after, opponent_row = run(columns.groups, columns.before, columns.rated,
                                    columns.game_start, columns.game_opponent,
                                    columns.game_score)
    r0, n_eff, n0, special, prior, score, k, bonus, floor = rows.T.copy()
    section_rows = columns.groups[:, :2].astype(np.int64)
    return Packed(section_rows, r0, n_eff, n0.astype(np.bool_), special.astype(np.bool_),
                  prior.astype(np.int64), score, k, bonus, floor, columns.game_start,
                  opponent_row, columns.keys), after


def rate_outcomes(section: Section) -> tuple[Outcome, ...]:
    """One Swiss or round-robin section, already checked (`validate.check_section`),
    through Steps 1-5 and the floors: the numbers the office stores, equal to those of
    `pipeline.rate_section` (a test holds them to 1e-9), without its explanations.

    Python reads the players (batch/layout.py); the compiled kernels, built from the
    core's own, do the rest."""
    layout = Layout()
    layout.add(0, section)
    return outcomes_of_columns(layout.columns(), section.end_date)


def outcomes_of_columns(columns: Columns, end: date) -> tuple[Outcome, ...]:
    """`rate_outcomes` of one laid-out section ending on ``end`` (the office lays out
    some sections itself: office/run.py)."""
    p, after = _packed(columns)
    post = _rate_serial(p.section_rows, p.r0, p.n_eff, p.unrated_n0, p.special, p.prior,
                        p.score, p.k, p.bonus, p.floor, p.game_start, p.game_opponent)
    games_after = after[:, 0].astype(np.int64)
    counts = after[:, 1:6].astype(np.int64).tolist()  # AFTER's other counts, as ints
    peaks = _none_for_nan(_peaks_after(after[:, 6], games_after, post))
    floors_before = _none_for_nan(columns.before[:, 7:10])  # floor, lowered from and to
    carried = columns.carried
    out = []
    for i, ((_, pair, system), rated, live, before, final, floor, games, (wins, draws, losses,
                                                                         events3, above),
            peak, (floor_before, lowered_from, lowered_to)) in enumerate(zip(
                columns.keys, columns.rated.tolist(), (~np.isnan(post)).tolist(),
                columns.before.tolist(), post.tolist(), p.floor.tolist(), games_after.tolist(),
                counts, peaks, floors_before)):
        if not live:  # no rated game
            continue
        if not rated:
            state = Rating(final, games, end, wins, draws, losses, events3, peak,
                           olm=above >= OLM_GAMES, games_above_2200=above)
            out.append(Outcome(pair, system, None, None, final, games, floor, state))
            continue
        changes, games_known = carried.get(i, _CARRIED_NOTHING)
        state = Rating(final, games, end, _known(wins), _known(draws), _known(losses),
                       _known(events3), peak, floor_before, lowered_from, lowered_to,
                       before[10] == 1.0 or above >= OLM_GAMES, _known(above), changes,
                       games_known)
        out.append(Outcome(pair, system, before[0], int(before[1]), final, games, floor, state))
    return tuple(out)


def _none_for_nan(values: NDArray[np.float64]) -> list[Any]:
    """The values as Python floats, NaN (the kernels' "none") as None (the model's)."""
    boxed = values.astype(object)  # Python floats
    boxed[np.isnan(values)] = None
    result: list[Any] = boxed.tolist()
    return result


_CARRIED_NOTHING: Carried = ((), True)


def _known(count: int) -> int | None:
    return None if count == UNKNOWN else count


@numba.njit(cache=True, nogil=True)
def _peaks_after(peak: NDArray[np.float64], games: NDArray[np.int64],
                 post: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row's peak once the event is rated (core.kernels.peak_after)."""
    out = np.empty_like(peak)
    for i in range(peak.shape[0]):
        out[i] = peak_after(peak[i], games[i], post[i])
    return out


@numba.njit(cache=True, nogil=True)
def _sorted_opponents(values: NDArray[np.float64], start: int, stop: int,
                      opponent: NDArray[np.int64], out: NDArray[np.float64]) -> int:
    m = stop - start
    for i in range(m):  # insertion sort: sections have few games per player
        v = values[opponent[start + i]]
        j = i
        while j > 0 and out[j - 1] > v:
            out[j] = out[j - 1]
            j -= 1
        out[j] = v
    return m


@numba.njit(cache=True, nogil=True)
def _rate_rows(lo: int, hi: int, r0: NDArray[np.float64], n_eff: NDArray[np.float64],
               n0: NDArray[np.bool_], special: NDArray[np.bool_], prior: NDArray[np.int64],
               score: NDArray[np.float64], k: NDArray[np.float64], bonus: NDArray[np.float64],
               floor: NDArray[np.float64], game_start: NDArray[np.int64],
               game_opponent: NDArray[np.int64], post: NDArray[np.float64],
               step3: NDArray[np.float64], step4: NDArray[np.float64]) -> None:
    """Steps 3, 4 and 5 and the floors for the rows lo:hi of one (section, system)."""
    most = 1
    for i in range(lo, hi):
        most = max(most, game_start[i + 1] - game_start[i])
    opp = np.empty(most)
    knots = np.empty(2 * most + 2)
    # Step 3: unrated players with N = 0, N' = 1, opponents at pre-event/Step 1 ratings
    for i in range(lo, hi):
        if n0[i] and game_start[i + 1] > game_start[i]:
            m = _sorted_opponents(r0, game_start[i], game_start[i + 1], game_opponent, opp)
            value = special_walk(r0[i], 1.0, opp, m, score[i], 0, False, knots)[0]
            step3[i] = max(value, STEP_FLOOR)
    # Steps 4 and 5
    for step in range(2):
        inputs = step3 if step == 0 else step4
        out = step4 if step == 0 else post
        results = np.empty(hi - lo)
        for i in range(lo, hi):
            if game_start[i + 1] == game_start[i]:
                results[i - lo] = np.nan
                continue
            m = _sorted_opponents(inputs, game_start[i], game_start[i + 1], game_opponent, opp)
            if special[i]:
                value = special_walk(r0[i], n_eff[i], opp, m, score[i], prior[i], False,
                                     knots)[0]
            else:
                change = k[i] * (score[i] - expected(r0[i], opp, m))
                extra = 0.0
                if not np.isnan(bonus[i]):
                    extra = max(0.0, change - bonus[i] * math.sqrt(max(m, 4)))
                value = r0[i] + change + extra
            results[i - lo] = max(value, STEP_FLOOR)
        for i in range(lo, hi):
            out[i] = results[i - lo]
    for i in range(lo, hi):
        if not np.isnan(post[i]):
            post[i] = max(post[i], floor[i])


@numba.njit(parallel=True, cache=True, nogil=True)
def _rate(section_rows: NDArray[np.int64], r0: NDArray[np.float64], n_eff: NDArray[np.float64],
          n0: NDArray[np.bool_], special: NDArray[np.bool_], prior: NDArray[np.int64],
          score: NDArray[np.float64], k: NDArray[np.float64], bonus: NDArray[np.float64],
          floor: NDArray[np.float64], game_start: NDArray[np.int64],
          game_opponent: NDArray[np.int64]) -> NDArray[np.float64]:
    """Every (section, system) of a packed batch, one per task on all cores."""
    post = np.full(r0.shape[0], np.nan)
    step3 = r0.copy()
    step4 = np.empty(r0.shape[0])
    for s in numba.prange(section_rows.shape[0]):
        _rate_rows(section_rows[s, 0], section_rows[s, 1], r0, n_eff, n0, special, prior,
                   score, k, bonus, floor, game_start, game_opponent, post, step3, step4)
    return post


@numba.njit(cache=True, nogil=True)
def _rate_serial(section_rows: NDArray[np.int64], r0: NDArray[np.float64],
                 n_eff: NDArray[np.float64], n0: NDArray[np.bool_], special: NDArray[np.bool_],
                 prior: NDArray[np.int64], score: NDArray[np.float64], k: NDArray[np.float64],
                 bonus: NDArray[np.float64], floor: NDArray[np.float64],
                 game_start: NDArray[np.int64],
                 game_opponent: NDArray[np.int64]) -> NDArray[np.float64]:
    """The same on one thread: for one section at a time, where starting threads costs
    more than it saves."""
    post = np.full(r0.shape[0], np.nan)
    step3 = r0.copy()
    step4 = np.empty(r0.shape[0])
    for s in range(section_rows.shape[0]):
        _rate_rows(section_rows[s, 0], section_rows[s, 1], r0, n_eff, n0, special, prior,
                   score, k, bonus, floor, game_start, game_opponent, post, step3, step4)
    return post


def rate_packed(packed: Packed) -> NDArray[np.float64]:
    """Post-event ratings of every row (NaN for a player with no rated game)."""
    rate = _rate if packed.section_rows.shape[0] >= PARALLEL_FROM else _rate_serial
    return rate(packed.section_rows, packed.r0, packed.n_eff, packed.unrated_n0,
                 packed.special, packed.prior, packed.score, packed.k, packed.bonus,
                 packed.floor, packed.game_start, packed.game_opponent)
