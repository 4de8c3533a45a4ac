"""Sections laid out as columns for the compiled path (batch/engine.py).

Python reads each player once and keeps plain numbers: what the player brings into the
event in each system (the rating and its history, or Step 1's initial rating from the
core's initial.py for an unrated player) and the rated games. The compiled
`prepare` then applies the core's kernels (core/kernels.py) to them: N', the
formula choice, S, K, bonus eligibility, the history counts after the event and the
floors of section 5, as core/steps.py does for the reference path. A test holds the two
paths to the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from operator import attrgetter

import numba
import numpy as np
from numpy.typing import NDArray

from ..core.initial import initial_rating
from ..core.kernels import (
    ABSOLUTE_FLOOR,
    PRIOR_ALL_LOSSES,
    PRIOR_ALL_WINS,
    PRIOR_NONE,
    UNKNOWN,
)
from ..core.model import KFactor, MatchChange, Player, Rating, Section, System
from ..core.pipeline import merge_entrants, rated_games, section_systems
from ..core.rules import RuleSet, rules_for
from ..core.steps import SPECIAL_MAX_GAMES, Entrant, rating_of
from .compiled import (
    absolute_floor,
    bonus_eligible,
    k_factor,
    lowered,
    n_star,
    olm_floor,
    peak_before,
    peak_floor,
    plus_known,
)

#: What a row (a player in one system) brings into the event, in the column order of
#: ``Columns.before``: Rating's fields, read in one call (None reads as NaN; a count
#: that is NaN is UNKNOWN to the kernels).
BEFORE = ("rating", "games", "wins", "draws", "losses", "events3", "peak", "floor",
          "floor_lowered_from", "floor_lowered_to", "olm", "games_above_2200")
#: a rating's BEFORE values, in one call
read_rating: Callable[[Rating], tuple[float | bool | None, ...]] = attrgetter(*BEFORE)
_NAN = math.nan
#: the rest of an unrated row after Step 1's R0 and N: no history, no floors
_UNRATED = (None, None, None, None, None, None, None, None, False, None)
#: The rules a (section, system) is rated under, in the column order of ``Layout.groups``.
GROUP = ("start", "stop", "half_k", "dual_regular", "regular", "absolute_floor",
         "bonus_threshold", "bonus_m3_distinct")
#: The history after the event, in the column order of `prepare`'s ``after``; the
#: peak is the one before the new rating (core.steps.finish_state adds that).
AFTER = ("games", "wins", "draws", "losses", "events3", "above_2200", "peak")
#: What a row's rating carries into the state after the event besides its BEFORE columns:
#: its match changes and whether its N is known. Only rows that have match changes or
#: an unknown N are listed (``Columns.carried``): the others have none, and know N.
Carried = tuple[tuple[MatchChange, ...], bool]


@dataclass(frozen=True)
class Columns:
    """Laid-out sections: rows are (section, system, player); each game names its
    opponent by place in the (section, system), and prepare turns that into a row."""

    groups: NDArray[np.float64]  #: one row per (section, system), columns GROUP
    before: NDArray[np.float64]  #: one row per player and system, columns BEFORE
    rated: NDArray[np.bool_]  #: False: unrated, and ``before`` holds Step 1's R0 and N
    game_start: NDArray[np.int64]  #: games of row i: game_start[i]:game_start[i + 1]
    game_opponent: NDArray[np.int64]  #: the opponent's index in its (section, system)
    game_score: NDArray[np.float64]  #: 1, 0.5 or 0
    keys: tuple[tuple[int, int, System], ...]  #: (section index, pair, system) per row
    carried: dict[int, Carried]  #: by row, the few that carry something (see Carried)


class Layout:
    """Rows being laid out, section by section."""

    def __init__(self) -> None:
        self.groups: list[tuple[float, ...]] = []
        self.before: list[tuple[float | bool | None, ...]] = []  #: None reads as NaN
        self.game_start: list[int] = [0]
        self.game_opponent: list[int] = []
        self.game_score: list[float] = []
        self.keys: list[tuple[int, int, System]] = []
        self.rated: list[bool] = []
        self.carried: dict[int, Carried] = {}

    def add(self, index: int, section: Section) -> tuple[Player, ...]:
        """One section (checked by the caller), in every system it is rated in; returns
        its entrants' first rows, in the order of each system's rows."""
        rules = rules_for(section.start_date)
        systems = section_systems(section, rules)
        entrants = merge_entrants(section.players)
        # the games, once for all systems: opponents (the group's own index: prepare
        # adds the group's first row), scores, and where each entrant's games end
        games = rated_games(entrants)
        against: list[int] = []
        score: list[float] = []
        for o, sc in games:
            against += o
            score += sc
        ends = list(accumulate(len(o) for o, _ in games))
        dual = System.R in systems and System.Q in systems
        half = section.k is KFactor.HALF
        for system in systems:
            first = len(self.keys)
            self.groups.append((first, first + len(entrants), half, dual and system is System.R,
                                system is System.R, system in rules.absolute_floor_systems,
                                rules.bonus_threshold, rules.bonus_m3_needs_distinct_opponents))
            ratings = [e.rows[0].ratings.get(system) if len(e.rows) == 1 else
                       rating_of(e, system) for e in entrants]  # the usual case inlined
            self.before += [read_rating(r) if r is not None else
                            self._unrated(e, system, rules, section)
                            for e, r in zip(entrants, ratings)]
            base = len(self.game_opponent)
            self.game_opponent += against
            self.game_score += score
            self.game_start += [base + end for end in ends]
            self.keys += [(index, e.rows[0].pair, system) for e in entrants]
            self.rated += [r is not None for r in ratings]
            self.carried.update((first + i, (r.match_changes, r.games_known))
                                for i, r in enumerate(ratings)
                                if r is not None and (r.match_changes or not r.games_known))
        return tuple(e.rows[0] for e in entrants)

    @staticmethod
    def _unrated(e: Entrant, system: System, rules: RuleSet,
                 section: Section) -> tuple[float | bool | None, ...]:
        """An unrated player's row: Step 1's R0 and N (core.initial), no history."""
        initial = initial_rating(e.first, system, rules, section.end_date)
        return unrated_row(initial.rating, initial.games)

    def columns(self) -> Columns:
        return Columns(
            np.array(self.groups, dtype=np.float64).reshape(-1, len(GROUP)),
            before_array(self.before),
            np.array(self.rated, dtype=np.bool_),
            np.array(self.game_start, dtype=np.int64),
            np.array(self.game_opponent, dtype=np.int64),
            np.array(self.game_score, dtype=np.float64),
            tuple(self.keys), self.carried)


def unrated_row(r0: float, n: int) -> tuple[float | bool | None, ...]:
    """An unrated player's BEFORE values: Step 1's R0 and N (core.initial), no history."""
    return (r0, n, *_UNRATED)


def before_array(rows: Sequence[Sequence[float | bool | None]]) -> NDArray[np.float64]:
    """BEFORE rows as one array, None as NaN."""
    # fromiter with None made NaN here is twice as fast as np.array on the tuples
    values = chain.from_iterable(rows)
    return np.fromiter((_NAN if v is None else v for v in values), np.float64,
                       len(rows) * len(BEFORE)).reshape(-1, len(BEFORE))


@numba.njit(cache=True, nogil=True)
def _count(value: float) -> int:
    """A history count read from ``before``: NaN (not given) is UNKNOWN."""
    return UNKNOWN if np.isnan(value) else int(value)


@numba.njit(cache=True, nogil=True)
def _prepare_row(i: int, group: NDArray[np.float64], before: NDArray[np.float64],
                 rated_rows: NDArray[np.bool_],
                 game_start: NDArray[np.int64], game_opponent: NDArray[np.int64],
                 game_score: NDArray[np.float64], rows: NDArray[np.float64],
                 after: NDArray[np.float64]) -> None:
    """Steps 1 and 2's numbers, S, K, bonus eligibility, the history after the event and
    the floors, for row i (core/steps.py: prior_for, is_special, bonus_threshold_for,
    history_after, floors_for)."""
    lo, hi = game_start[i], game_start[i + 1]
    m = hi - lo
    wins = draws = most = 0
    score = 0.0
    for j in range(lo, hi):
        s = game_score[j]
        score += s  # halves and ones: the sum is exact in any order
        if s == 1.0:
            wins += 1
        elif s == 0.5:
            draws += 1
        count = 0
        for t in range(lo, hi):
            if game_opponent[t] == game_opponent[j]:
                count += 1
        most = max(most, count)
    losses = m - wins - draws
    events3 = 1 if m >= 3 else 0

    rated = rated_rows[i]
    r0, n = before[i, 0], int(before[i, 1])
    wins0, draws0, losses0 = _count(before[i, 2]), _count(before[i, 3]), _count(before[i, 4])
    events3_0, above0 = _count(before[i, 5]), _count(before[i, 11])
    n_eff = min(float(n), n_star(r0))
    # Rating.all_wins / all_losses: an unknown count of draws or the other side says none
    all_wins = rated and wins0 != UNKNOWN and n > 0 and wins0 == n and draws0 <= 0 \
        and losses0 <= 0
    all_losses = rated and losses0 != UNKNOWN and n > 0 and losses0 == n and draws0 <= 0 \
        and wins0 <= 0
    prior = PRIOR_ALL_WINS if all_wins else PRIOR_ALL_LOSSES if all_losses else PRIOR_NONE

    k = 0.0
    if m > 0:
        k = k_factor(n_eff, m, group[2] == 1.0, r0 if group[3] == 1.0 else np.nan)
    bonus = group[6] if bonus_eligible(m, most, group[7] == 1.0) else np.nan

    if rated:
        peak = peak_before(before[i, 6], r0, n)
        above_here = m if (n > 25 and r0 > 2200.0) else 0
        after[i, 1] = plus_known(wins0, wins)
        after[i, 2] = plus_known(draws0, draws)
        after[i, 3] = plus_known(losses0, losses)
        after[i, 4] = plus_known(events3_0, events3)
        after[i, 5] = plus_known(above0, above_here)
    else:  # an unrated player's history starts here
        peak = np.nan
        after[i, 1], after[i, 2], after[i, 3], after[i, 4] = wins, draws, losses, events3
        after[i, 5] = 0
    after[i, 0] = n + m
    after[i, 6] = peak

    floor = ABSOLUTE_FLOOR
    if group[5] == 1.0:  # AF: earlier counts that are unknown give no credit
        floor = absolute_floor(wins + max(wins0, 0), draws + max(draws0, 0),
                               events3 + max(events3_0, 0))
    low_from, low_to = before[i, 8], before[i, 9]
    olm = olm_floor(group[4] == 1.0, before[i, 10] == 1.0, int(after[i, 5]))
    for value in (lowered(peak_floor(peak), low_from, low_to), lowered(olm, low_from, low_to),
                  before[i, 7]):
        if value > floor:  # noqa: PLR1730 - False for NaN (no such floor); max() is not
            floor = value

    rows[i, 0] = r0
    rows[i, 1] = n_eff
    rows[i, 2] = 1.0 if (not rated and n == 0) else 0.0
    rows[i, 3] = 1.0 if (n <= SPECIAL_MAX_GAMES or all_wins or all_losses) else 0.0
    rows[i, 4] = prior
    rows[i, 5] = score
    rows[i, 6] = k
    rows[i, 7] = bonus
    rows[i, 8] = floor


@numba.njit(cache=True, nogil=True)
def _prepare_group(g: int, groups: NDArray[np.float64], before: NDArray[np.float64],
                   rated: NDArray[np.bool_],
                   game_start: NDArray[np.int64], game_opponent: NDArray[np.int64],
                   game_score: NDArray[np.float64], rows: NDArray[np.float64],
                   after: NDArray[np.float64], opponent_row: NDArray[np.int64]) -> None:
    first = int(groups[g, 0])
    for i in range(first, int(groups[g, 1])):
        for j in range(game_start[i], game_start[i + 1]):
            opponent_row[j] = first + game_opponent[j]
        _prepare_row(i, groups[g], before, rated, game_start, opponent_row, game_score, rows,
                     after)


@numba.njit(cache=True, nogil=True)
def prepare(groups: NDArray[np.float64], before: NDArray[np.float64],
            rated: NDArray[np.bool_], game_start: NDArray[np.int64], game_opponent: NDArray[np.int64],
            game_score: NDArray[np.float64]
            ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
    """Every row's inputs to Steps 3-5 (columns r0, N', unrated with N = 0, special,
    prior, S, K, B or NaN, floor), its history after the event (columns AFTER), and each
    game's opponent as a row."""
    rows = np.empty((before.shape[0], 9))
    after = np.empty((before.shape[0], 7))
    opponent_row = np.empty_like(game_opponent)
    for g in range(groups.shape[0]):
        _prepare_group(g, groups, before, rated, game_start, game_opponent, game_score, rows,
                       after, opponent_row)
    return rows, after, opponent_row


@numba.njit(parallel=True, cache=True, nogil=True)
def prepare_parallel(groups: NDArray[np.float64], before: NDArray[np.float64],
                     rated: NDArray[np.bool_], game_start: NDArray[np.int64], game_opponent: NDArray[np.int64],
                     game_score: NDArray[np.float64]
                     ) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64]]:
    """`prepare` with one (section, system) per task, on all cores."""
    rows = np.empty((before.shape[0], 9))
    after = np.empty((before.shape[0], 7))
    opponent_row = np.empty_like(game_opponent)
    for g in numba.prange(groups.shape[0]):
        _prepare_group(g, groups, before, rated, game_start, game_opponent, game_score, rows,
                       after, opponent_row)
    return rows, after, opponent_row
