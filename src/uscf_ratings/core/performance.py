"""A performance rating by the 2025 text: the special formula with no prior games.

The 2025 text never uses the words "performance rating". What it has is section 4.1: the
special formula "finds the rating at which the attained score for the player equals the
sum of expected scores, with expected scores following the 'provisional winning
expectancy' formula", from the objective function

    f(R) = N' x PWe(R, R0') + sum_i PWe(R, Ri) - S'.

With no prior games (N' = 0, as for a player whose first rating is age-based: the note to
step 1 of the knot walk) the prior's term drops out, S' = S, and what is left depends on
the event's games alone: the rating R at which

    sum_i PWe(R, Ri) = S.

That is the rating this module calls the performance rating by the 2025 text. The sum of
PWe is continuous, piecewise linear and never decreasing in R, so the ratings that solve
it form one interval: often a single rating, a stretch where the sum is flat (two
opponents 1000 and 2000, one point: every R from 1400 to 1600), and a half-line for a
perfect score (every R at least 400 above the highest-rated opponent) or for no score.
The walk of section 4.1 picks one point of such a stretch by the player's prior (its
p = 0 rule); with no prior, the interval itself is the answer, and the page says so. The
2700 cap of section 4.1 limits the rating the special formula produces, not this
performance, and is not applied.

Compare the encyclopedia article's "algorithm of 400",
`uscf_ratings.core.elo.performance_rating_400`: the two agree when every opponent is
within 400 points of the result, and differ otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .constants import DOCUMENTED
from .formulas import pwe

#: Sums of PWe at two ratings are equal when they differ by less than this (floats).
SLACK = 1e-9


@dataclass(frozen=True)
class PerformanceRange:
    """The ratings R with sum_i PWe(R, Ri) = S: from ``low`` to ``high``; None where
    the interval has no end (no score: no lower end; a perfect score: no upper end)."""

    low: float | None
    high: float | None

    @property
    def single(self) -> float | None:
        """The one rating that solves it, when only one does."""
        if self.low is None or self.high is None or self.high - self.low > SLACK:
            return None
        return self.low


def special_performance(opponents: Sequence[float], score: float) -> PerformanceRange:
    """The ratings whose provisional winning expectancies sum to ``score`` (section 4.1
    of the 2025 text with N' = 0).

    Hand calculations: PWe(R, Ri) = 0.5 + (R - Ri)/800 within 400 of Ri, else 0 or 1.

    A draw with a 1500: 0.5 + (R - 1500)/800 = 0.5 gives R = 1500.
    A win and a draw against 1600 and 1500, 1.5 points: within 400 of both,
    1 + (2R - 3100)/800 = 1.5, 2R = 3500, R = 1750 (the algorithm of 400 gives
    (1600 + 1500 + 400 x 1)/2 = 1750 too).

    >>> special_performance([1500.0], 0.5).single, special_performance([1600.0, 1500.0], 1.5).single
    (1500.0, 1750.0)

    1.5 points against 1000 and 1800: the 1000 must count 1 (R >= 1400), the 1800 one
    half, 0.5 + (R - 1800)/800 = 0.5, R = 1800 (the algorithm of 400:
    (2800 + 400 x 1)/2 = 1600).

    >>> special_performance([1000.0, 1800.0], 1.5).single
    1800.0

    One point against 1000 and 2000: from R = 1400 (the 1000 counts 1) to R = 1600 (the
    2000 starts to count) the sum stays 1. A win against 1000: every R >= 1400.

    >>> special_performance([1000.0, 2000.0], 1.0)
    PerformanceRange(low=1400.0, high=1600.0)
    >>> special_performance([1000.0], 1.0), special_performance([1000.0, 1200.0], 0.0)
    (PerformanceRange(low=1400.0, high=None), PerformanceRange(low=None, high=600.0))
    """
    games = len(opponents)
    if games == 0 or not 0 <= score <= games:
        raise ValueError(f"a score of {score!r} in {games} games")
    width = DOCUMENTED.pwe_width
    knots = sorted({r + d for r in opponents for d in (-width, width)})
    sums = [math.fsum(pwe(k, r) for r in opponents) for k in knots]
    return PerformanceRange(_lowest(knots, sums, score), _highest(knots, sums, score))


def _lowest(knots: Sequence[float], sums: Sequence[float], score: float) -> float | None:
    """The smallest R whose sum reaches ``score``; None if even the lowest knot does
    (no score: the sum is 0 all the way down)."""
    if sums[0] >= score - SLACK:
        return None
    for i in range(1, len(knots)):
        if sums[i] >= score - SLACK:
            return _between(knots[i - 1], knots[i], sums[i - 1], sums[i], score)
    raise AssertionError("the sum at the highest knot is the number of games")


def _highest(knots: Sequence[float], sums: Sequence[float], score: float) -> float | None:
    """The largest R whose sum is still ``score``; None if even the highest knot's is
    (a perfect score: the sum is m all the way up)."""
    if sums[-1] <= score + SLACK:
        return None
    for i in range(len(knots) - 2, -1, -1):
        if sums[i] <= score + SLACK:
            return _between(knots[i], knots[i + 1], sums[i], sums[i + 1], score)
    raise AssertionError("the sum at the lowest knot is 0")


def _between(a: float, b: float, at_a: float, at_b: float, score: float) -> float:
    """Where the straight line from (a, at_a) to (b, at_b) reaches ``score``, within [a, b]."""
    if abs(score - at_a) <= SLACK:
        return a
    if abs(at_b - score) <= SLACK:
        return b
    return a + (score - at_a) * (b - a) / (at_b - at_a)
