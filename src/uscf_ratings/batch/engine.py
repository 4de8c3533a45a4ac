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
from ..core.model import Section, System
from ..core.pipeline import collect_games, merge_entrants, section_systems
from ..core.rules import rules_for
from ..core.steps import bonus_threshold_for, floors_for, history_after, prior_for, uses_special
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
    cols: dict[str, list[float]] = {n: [] for n in (
        "r0", "n_eff", "n0", "special", "prior", "score", "k", "bonus", "floor")}
    section_rows: list[tuple[int, int]] = []
    game_start: list[int] = [0]
    game_opponent: list[int] = []
    keys: list[tuple[int, int, System]] = []
    for index, section in enumerate(sections):
        check_section(section)
        rules = rules_for(section.start_date)
        systems = section_systems(section, rules)
        entrants = merge_entrants(section.players)
        games = collect_games(entrants)
        dual = System.R in systems and System.Q in systems
        for system in systems:
            first = len(keys)
            for e in entrants:
                prior = prior_for(e, system, rules, section)
                g = games[e.index]
                special, _ = uses_special(prior)
                rating = prior.rating
                cols["r0"].append(prior.r0)
                cols["n_eff"].append(prior.n_eff)
                cols["n0"].append(prior.unrated and prior.n == 0)
                cols["special"].append(special)
                cols["prior"].append(PRIOR_ALL_WINS if rating is not None and rating.all_wins
                                     else PRIOR_ALL_LOSSES if rating is not None
                                     and rating.all_losses else PRIOR_NONE)
                cols["score"].append(math.fsum(x.score for x in g))
                cols["k"].append(k_factor(prior.n_eff, len(g), section.k, dual_rating=prior.r0
                                          if dual and system is System.R else None) if g else 0.0)
                threshold = bonus_threshold_for(g, rules)
                cols["bonus"].append(math.nan if threshold is None else threshold)
                cols["floor"].append(floors_for(prior, g, history_after(prior, g, section),
                                                system, rules).floor if g else 0.0)
                game_opponent.extend(first + x.opponent for x in g)
                game_start.append(len(game_opponent))
                keys.append((index, e.first.pair, system))
            section_rows.append((first, len(keys)))

    def arr(name: str, kind: type) -> NDArray[np.generic]:
        return np.asarray(cols[name], dtype=kind)

    return Packed(
        np.asarray(section_rows, dtype=np.int64).reshape(-1, 2), arr("r0", np.float64),
        arr("n_eff", np.float64), arr("n0", np.bool_), arr("special", np.bool_),
        arr("prior", np.int64), arr("score", np.float64), arr("k", np.float64),
        arr("bonus", np.float64), arr("floor", np.float64),
        np.asarray(game_start, dtype=np.int64), np.asarray(game_opponent, dtype=np.int64),
        tuple(keys))  # type: ignore[arg-type]


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


@numba.njit(parallel=True, cache=True, nogil=True)
def _rate(section_rows: NDArray[np.int64], r0: NDArray[np.float64], n_eff: NDArray[np.float64],
          n0: NDArray[np.bool_], special: NDArray[np.bool_], prior: NDArray[np.int64],
          score: NDArray[np.float64], k: NDArray[np.float64], bonus: NDArray[np.float64],
          floor: NDArray[np.float64], game_start: NDArray[np.int64],
          game_opponent: NDArray[np.int64]) -> NDArray[np.float64]:
    rows = r0.shape[0]
    post = np.full(rows, np.nan)
    step3 = r0.copy()
    step4 = np.empty(rows)
    for s in numba.prange(section_rows.shape[0]):
        lo, hi = section_rows[s, 0], section_rows[s, 1]
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
                m = _sorted_opponents(inputs, game_start[i], game_start[i + 1], game_opponent,
                                      opp)
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
    return post


def rate_packed(packed: Packed) -> NDArray[np.float64]:
    """Post-event ratings of every row (NaN for a player with no rated game)."""
    return _rate(packed.section_rows, packed.r0, packed.n_eff, packed.unrated_n0,
                 packed.special, packed.prior, packed.score, packed.k, packed.bonus,
                 packed.floor, packed.game_start, packed.game_opponent)
