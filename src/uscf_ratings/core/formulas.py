"""The closed-form pieces of the rating system: N*, N', We, PWe, K, the standard formula.

Sums run over the opponents' ratings in sorted order (see kernels.py), so the same section
gives bit-identical ratings however its players and rounds are listed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from . import kernels
from .constants import DOCUMENTED, Constants
from .model import KFactor


def round_half_up(value: float, digits: int = 0) -> float:
    """Official rounding: "conventional rounding rules" (2025 text, section 7), half up.

    Python's round() rounds half to even (round(1642.5) == 1642).

    >>> round_half_up(1643.5), round_half_up(1642.5), round_half_up(1999.51)
    (1644.0, 1643.0, 2000.0)
    >>> round_half_up(1502.345, 2)
    1502.35
    """
    # repr() is the shortest decimal that reads back as the same float, so 1502.345 is
    # rounded as the decimal it was written as, not as 1502.34499999...
    exponent = Decimal(1).scaleb(-digits)
    return float(Decimal(repr(value)).quantize(exponent, rounding=ROUND_HALF_UP))


def rounded_rating(value: float) -> int:
    """A rating as published: rounded half up to an integer."""
    return int(round_half_up(value))


def two_decimals(value: float) -> str:
    """A rating to two decimals as the terminal and CSV files show it: the stored float
    rounded half up once, for display only.

    >>> two_decimals(1502.345), two_decimals(1500)
    ('1502.35', '1500.00')
    """
    return f"{round_half_up(value, 2):.2f}"


def plain(value: object) -> str:
    """A number as explanations show it, without trailing zeros (K 28.96, bonus 0); "-"
    for none.

    >>> plain(28.9600001), plain(0), plain(None)
    ('28.96', '0', '-')
    """
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-"
    return f"{value:.4f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def published_form(rating: float | None, games: int | None) -> str:
    """A rating as crosstables and lists show it: 1456, or 1456P12 while provisional
    (based on 25 games or fewer); "unr." for no rating.

    >>> published_form(1455.5, 12), published_form(1643.759, 40), published_form(None, None)
    ('1456P12', '1644', 'unr.')
    """
    if rating is None:
        return "unr."
    provisional = games is not None and games <= 25
    return f"{rounded_rating(rating)}" + (f"P{games}" if provisional else "")


def n_star(r0: float, c: Constants = DOCUMENTED) -> float:
    """N* of section 3 (formula 1): the most games' worth of information a rating carries.

    >>> round(n_star(1700), 1)
    20.0
    """
    return kernels.n_star(r0, c)


def effective_games(n: int, r0: float, c: Constants = DOCUMENTED) -> float:
    """N' = min(N, N*), section 3."""
    return kernels.effective_games(n, r0, c)


def pwe(r: float, ri: float, c: Constants = DOCUMENTED) -> float:
    """PWe(R, Ri), section 4.1."""
    return kernels.pwe(r, ri, c)


def we(r: float, ri: float, c: Constants = DOCUMENTED) -> float:
    """We(R, Ri), section 4.2."""
    return kernels.we(r, ri, c)


def expected_score(r: float, opponents: Sequence[float], c: Constants = DOCUMENTED) -> float:
    """E = sum of We(R0, Ri) over the games, section 4.2, summed in sorted order so that
    the order of the games does not matter."""
    ratings = sorted(opponents)
    return kernels.expected(r, ratings, len(ratings), c)


def k_factor(
    n_eff: float, m: int, kind: KFactor = KFactor.FULL, dual_rating: float | None = None,
    c: Constants = DOCUMENTED,
) -> float:
    """K of section 4.2.

    Full K is 800/(N' + m); the 2004 page's half-K events use 400/(N' + m/2). For the
    Regular rating of a dual-rated event, pass the player's pre-event rating as
    ``dual_rating``: above 2200 the numerator is 800(6.5 - 0.0025R), and 200 from 2500.
    A half-K dual event, which the documents do not describe, halves that numerator the
    same way.

    >>> round(k_factor(6, 6), 2), k_factor(6, 4, KFactor.HALF)
    (66.67, 50.0)
    """
    return kernels.k_factor(n_eff, m, kind is KFactor.HALF,
                            math.nan if dual_rating is None else dual_rating, c)


@dataclass(frozen=True)
class StandardOutcome:
    rating: float
    k: float
    expected: float
    change: float  #: K(S - E)
    bonus: float
    bonus_eligible: bool


def standard_rating(
    r0: float,
    opponents: Sequence[float],
    score: float,
    k: float,
    bonus_threshold: float | None,
    c: Constants = DOCUMENTED,
) -> StandardOutcome:
    """The standard formula of section 4.2: Rs = R0 + K(S - E) + bonus.

    ``bonus_threshold`` is B when the player is eligible for the bonus and ``None``
    otherwise; the bonus is max(0, K(S - E) - B*sqrt(m')) with m' = max(m, 4).
    """
    ratings = sorted(opponents)  # one order of summation, whatever order the games came in
    rating, expected, change, bonus = kernels.standard(
        r0, ratings, len(ratings), score, k,
        math.nan if bonus_threshold is None else bonus_threshold, c)
    return StandardOutcome(rating, k, expected, change, bonus, bonus_threshold is not None)


def bonus_eligible(games_per_opponent: Sequence[int], m3_needs_distinct: bool,
                   c: Constants = DOCUMENTED) -> bool:
    """Section 4.2: m >= 3 and no opponent met more than twice; from the 2024 text, with
    m = 3 no opponent met more than once."""
    return kernels.bonus_eligible(sum(games_per_opponent), max(games_per_opponent, default=0),
                                  m3_needs_distinct, c)
