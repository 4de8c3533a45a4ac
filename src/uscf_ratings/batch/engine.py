"""The batch path: many sections as arrays, Steps 3 to 5 compiled and run on all cores.

``pack`` turns sections into flat arrays with the reference pipeline's own functions for
what depends on the rules (Steps 1 and 2, the formula choice, K, bonus eligibility and the
floors, which do not depend on the result); ``rate_packed`` then runs Steps 3, 4 and 5 and
the floors with the compiled kernels of core/kernels.py, one section per task. It gives
the reference path's post-event ratings (a test holds it to 1e-9); it does not build the
explanations, which is what makes the reference path slower.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numba
import numpy as np
from numpy.typing import NDArray

from ..core.formulas import k_factor
from ..core.kernels import PRIOR_ALL_LOSSES, PRIOR_ALL_WINS, PRIOR_NONE
from ..core.model import Rating, Section, System
from ..core.pipeline import collect_games, merge_entrants, section_systems
from ..core.results import Outcome
from ..core.rules import rules_for
from ..core.steps import (
    Prior,
    bonus_threshold_for,
    finish_state,
    floors_for,
    history_after,
    is_special,
    prior_for,
)
from ..core.validate import check_section
from .compiled import expected, special_walk

STEP_FLOOR = 100.0


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


def pack(sections: Sequence[Section]) -> Packed:
    """Lay out sections for :func:`rate_packed` (Swiss and round-robin sections)."""
    layout = _Layout(keep=False)
    for index, section in enumerate(sections):
        check_section(section)
        layout.add(index, section)
    return layout.packed()


class _Layout:
    """Rows being laid out, and (``keep``) what :func:`rate_outcomes` needs to build each
    player's state after the event: the prior, the history and the floor."""

    #: the per-row numbers, in the order of ``_Layout.rows``'s tuples
    COLUMNS = ("r0", "n_eff", "n0", "special", "prior", "score", "k", "bonus", "floor")

    def __init__(self, keep: bool):
        self.rows: list[tuple[float, ...]] = []
        self.section_rows: list[tuple[int, int]] = []
        self.game_start: list[int] = [0]
        self.game_opponent: list[int] = []
        self.keys: list[tuple[int, int, System]] = []
        self.kept: list[tuple[Prior, Rating | None, float]] | None = [] if keep else None

    def add(self, index: int, section: Section) -> None:
        """One section (checked by the caller), in every system it is rated in."""
        rules = rules_for(section.start_date)
        systems = section_systems(section, rules)
        entrants = merge_entrants(section.players)
        games = collect_games(entrants)
        dual = System.R in systems and System.Q in systems
        # what does not depend on the system, once per player: S and bonus eligibility
        played = [(g, math.fsum(x.score for x in g), bonus_threshold_for(g, rules))
                  for g in games]
        rows, kept, opponents = self.rows, self.kept, self.game_opponent
        for system in systems:
            first = len(self.keys)
            dual_rating = dual and system is System.R
            for e, (g, score, threshold) in zip(entrants, played):
                prior = prior_for(e, system, rules, section)
                rating = prior.rating
                state = None
                floor = k = 0.0
                if g:
                    state = history_after(prior, g, section)
                    floor = floors_for(prior, g, state, system, rules).floor
                    k = k_factor(prior.n_eff, len(g), section.k,
                                 dual_rating=prior.r0 if dual_rating else None)
                    opponents.extend([first + x.opponent for x in g])
                rows.append((
                    prior.r0, prior.n_eff, rating is None and prior.n == 0, is_special(prior),
                    PRIOR_NONE if rating is None else PRIOR_ALL_WINS if rating.all_wins
                    else PRIOR_ALL_LOSSES if rating.all_losses else PRIOR_NONE,
                    score, k, math.nan if threshold is None else threshold, floor))
                self.game_start.append(len(opponents))
                self.keys.append((index, e.first.pair, system))
                if kept is not None:
                    kept.append((prior, state, floor))
            self.section_rows.append((first, len(self.keys)))

    def packed(self) -> Packed:
        columns = np.array(self.rows, dtype=np.float64).reshape(-1, len(self.COLUMNS)).T.copy()
        r0, n_eff, n0, special, prior, score, k, bonus, floor = columns
        return Packed(
            np.asarray(self.section_rows, dtype=np.int64).reshape(-1, 2), r0, n_eff,
            n0.astype(np.bool_), special.astype(np.bool_), prior.astype(np.int64), score, k,
            bonus, floor, np.asarray(self.game_start, dtype=np.int64),
            np.asarray(self.game_opponent, dtype=np.int64), tuple(self.keys))


def rate_outcomes(section: Section) -> tuple[Outcome, ...]:
    """One Swiss or round-robin section, already checked (:func:`.validate.check_section`),
    through Steps 1-5 and the floors: the numbers the office stores, equal to those of
    :func:`.pipeline.rate_section` (a test holds them to 1e-9), without its explanations.

    The compiled kernel rates; Steps 1 and 2, the history and the floors come from the
    core's own functions, as in :func:`pack`."""
    layout = _Layout(keep=True)
    layout.add(0, section)
    assert layout.kept is not None
    p = layout.packed()
    post = _rate_serial(p.section_rows, p.r0, p.n_eff, p.unrated_n0, p.special, p.prior,
                        p.score, p.k, p.bonus, p.floor, p.game_start, p.game_opponent)
    out = []
    for (_, pair, system), (prior, state, floor), final in zip(layout.keys, layout.kept,
                                                               post.tolist()):
        if state is None or math.isnan(final):
            continue
        rating = prior.rating
        out.append(Outcome(pair, system, None if rating is None else rating.rating,
                           None if rating is None else rating.games, final, state.games,
                           floor, finish_state(state, final)))
    return tuple(out)


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
    return _rate(packed.section_rows, packed.r0, packed.n_eff, packed.unrated_n0,
                 packed.special, packed.prior, packed.score, packed.k, packed.bonus,
                 packed.floor, packed.game_start, packed.game_opponent)
