"""The special rating formula: the knot walk of section 4.1 of the 2025 text.

The special rating is the R at which the attained score equals the sum of provisional
winning expectancies,

    f(R) = N' x PWe(R, R0') + sum_i PWe(R, Ri) - S' = 0,

found by walking along the piecewise-linear f from M = R0' (the 2025 text's step 1; the
"efficient" start printed in the older texts can reach the wrong root when N' = 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import kernels
from .constants import DOCUMENTED, Constants


@dataclass(frozen=True)
class SpecialOutcome:
    rating: float  #: M after the 2700 cap
    r0_adjusted: float  #: R0'
    score_adjusted: float  #: S'
    prior: str  #: "none", "all wins" or "all losses"
    p: int  #: the step 4 count at the root
    tie_rule: bool  #: the p = 0 rule moved M
    capped: bool  #: the 2700 cap applied


PRIORS = {kernels.PRIOR_NONE: "none", kernels.PRIOR_ALL_WINS: "all wins",
          kernels.PRIOR_ALL_LOSSES: "all losses"}


def special_rating(
    r0: float,
    n_eff: float,
    opponents: Sequence[float],
    score: float,
    *,
    all_wins: bool = False,
    all_losses: bool = False,
    strict_p: bool = False,
    c: Constants = DOCUMENTED,
) -> SpecialOutcome:
    """The special rating of section 4.1 (the walk itself is `kernels.special_walk`).

    ``r0`` is the prior (pre-event or Step 1 rating), ``n_eff`` is N', ``opponents`` the
    opponents' ratings Ri and ``score`` is S. ``all_wins``/``all_losses`` are for a player
    who has competed before and won (lost) every game. ``strict_p`` counts |M - Ri| < 400
    as the 2017 text prints it instead of the later texts' <= 400.

    >>> special_rating(1500, 0, [1500, 1500, 1500, 1500], 4).rating
    1900.0
    """
    prior = (kernels.PRIOR_ALL_WINS if all_wins else
             kernels.PRIOR_ALL_LOSSES if all_losses else kernels.PRIOR_NONE)
    ratings = sorted(opponents)  # one order of summation, whatever order the games came in
    m = len(ratings)
    rating, p, moved, r0_adj, s_adj, capped = kernels.special_walk(
        float(r0), float(n_eff), ratings, m, float(score), prior, strict_p, [0.0] * (2 * m + 2),
        c)
    return SpecialOutcome(rating, r0_adj, s_adj, PRIORS[prior], p, moved, capped)
