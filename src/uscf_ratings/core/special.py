"""The special rating formula: the knot walk of section 4.1 of the 2025 text.

The special rating is the R at which the attained score equals the sum of provisional
winning expectancies,

    f(R) = N' x PWe(R, R0') + sum_i PWe(R, Ri) - S' = 0,

found by walking along the piecewise-linear f from M = R0' (the 2025 text's step 1; the
"efficient" start printed in the older texts can reach the wrong root when N' = 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .formulas import pwe

EPSILON = 1e-7  #: "a tolerance to detect values different from zero" (section 4.1)
SPECIAL_CAP = 2700.0  #: the special formula never gives more than 2700
#: Knots lie exactly 400 from a rating, and the walk stops on knots, so the p count of
#: step 4 meets its boundary all the time. A float rounding error there must not decide
#: whether the p = 0 rule fires (see docs/rules.md), so the boundary has this slack.
KNOT_SLACK = 1e-9
MAX_STEPS = 10_000


@dataclass(frozen=True)
class SpecialOutcome:
    rating: float  #: M after the 2700 cap
    r0_adjusted: float  #: R0'
    score_adjusted: float  #: S'
    prior: str  #: "none", "all wins" or "all losses"
    p: int  #: the step 4 count at the root
    tie_rule: bool  #: the p = 0 rule moved M
    capped: bool  #: the 2700 cap applied


def adjusted_prior(
    r0: float, n_eff: float, score: float, all_wins: bool, all_losses: bool
) -> tuple[float, float, str]:
    """R0' and S' (section 4.1): the all-wins and all-losses priors, else S + N'/2."""
    if all_wins:
        return r0 - 400, score + n_eff, "all wins"
    if all_losses:
        return r0 + 400, score, "all losses"
    return r0, score + n_eff / 2, "none"


def special_rating(
    r0: float,
    n_eff: float,
    opponents: Sequence[float],
    score: float,
    *,
    all_wins: bool = False,
    all_losses: bool = False,
    strict_p: bool = False,
) -> SpecialOutcome:
    """The special rating of section 4.1.

    ``r0`` is the prior (pre-event or Step 1 rating), ``n_eff`` is N', ``opponents`` the
    opponents' ratings Ri and ``score`` is S. ``all_wins``/``all_losses`` are for a player
    who has competed before and won (lost) every game. ``strict_p`` counts |M - Ri| < 400
    as the 2017 text prints it instead of the later texts' <= 400.

    >>> special_rating(1500, 0, [1500, 1500, 1500, 1500], 4).rating
    1900.0
    """
    r0_adj, s_adj, prior = adjusted_prior(r0, n_eff, score, all_wins, all_losses)
    # Sorted, so that f(M) is the same float whatever order the games came in.
    ratings = sorted(opponents)

    def f(r: float) -> float:
        return math.fsum([n_eff * pwe(r, r0_adj), *(pwe(r, ri) for ri in ratings), -s_adj])

    knots = sorted({r0_adj - 400, r0_adj + 400, *(ri - 400 for ri in ratings),
                    *(ri + 400 for ri in ratings)})

    def below(m: float) -> float | None:
        """The largest knot z with m > z."""
        candidates = [z for z in knots if z < m]
        return candidates[-1] if candidates else None

    def above(m: float) -> float | None:
        """The smallest knot z with m < z."""
        return next((z for z in knots if z > m), None)

    m = r0_adj
    for _ in range(MAX_STEPS):
        fm = f(m)
        if fm > EPSILON:  # step 2: walk down
            za = below(m)
            if za is None:  # f is flat below the lowest knot: f = -S' <= 0 there
                break
            fza = f(za)
            if abs(fm - fza) < EPSILON:
                m = za
                continue
            m_star = m - fm * (m - za) / (fm - fza)
            m = za if m_star < za else m_star
        elif fm < -EPSILON:  # step 3: walk up
            zb = above(m)
            if zb is None:
                break
            fzb = f(zb)
            if abs(fzb - fm) < EPSILON:
                m = zb
                continue
            m_star = m - fm * (zb - m) / (fzb - fm)
            m = zb if m_star > zb else m_star
        else:
            break
    else:  # pragma: no cover - f is monotone and piecewise linear, so the walk ends
        raise ArithmeticError("special rating did not converge")

    p = _count_near(m, ratings, r0_adj, strict_p)
    tie_rule = False
    if p == 0:  # step 4(b): f is flat at 0 around M; choose the point nearest R0
        tie_rule = True
        za, zb = below(m), above(m)
        if za is not None and r0 < za:
            m = za
        elif zb is not None and r0 > zb:
            m = zb
        else:
            m = r0
    capped = m > SPECIAL_CAP
    return SpecialOutcome(
        rating=min(m, SPECIAL_CAP),
        r0_adjusted=r0_adj,
        score_adjusted=s_adj,
        prior=prior,
        p=p,
        tie_rule=tie_rule,
        capped=capped,
    )


def _count_near(m: float, ratings: Sequence[float], r0_adj: float, strict: bool) -> int:
    """p of step 4: the opponents within 400 of M, plus one if R0' is."""

    def near(r: float) -> bool:
        distance = abs(m - r)
        return distance < 400 - KNOT_SLACK if strict else distance <= 400 + KNOT_SLACK

    return sum(1 for r in ratings if near(r)) + (1 if near(r0_adj) else 0)
