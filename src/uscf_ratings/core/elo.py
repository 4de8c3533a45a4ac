"""The classical Elo formulas, from the encyclopedia article on the Elo rating system.

These are reference formulas (expected score, the K-factor update, performance ratings and
the US Chess class names), not the US Chess rating algorithm itself, which lives in
`uscf_ratings.core.formulas` and `uscf_ratings.core.special`.

Section names below are the article's headings ("Theory / Mathematical details",
"FIDE ratings / Performance rating", "United States Chess Federation ratings").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .formulas import round_half_up


class EloError(ValueError):
    """An input the Elo formulas cannot take (no games, a score out of range, ...)."""


def _finite(name: str, value: float) -> float:
    if not math.isfinite(value):
        raise EloError(f"{name} must be a finite number, got {value!r}")
    return value


def expected_score(ra: float, rb: float) -> float:
    """Player A's expected score against player B ("Mathematical details").

    E_A = 1 / (1 + 10^((R_B - R_A)/400)). Computed so that no rating difference
    overflows: for R_A > R_B the equal form 1 - 1/(1 + 10^((R_A - R_B)/400)) is used.

    >>> round(expected_score(1613, 1609), 3)
    0.506
    """
    exponent = (_finite("rb", rb) - _finite("ra", ra)) / 400
    if exponent > 0:
        q = math.pow(10.0, -exponent)  # underflows to 0 instead of overflowing
        return q / (1 + q)
    return 1 / (1 + math.pow(10.0, exponent))


def updated_rating(
    rating: float, opponents: Sequence[float], score: float, k: float
) -> float:
    """R'_A = R_A + K (S_A - E_A), unrounded ("Mathematical details").

    E_A is the sum of the expected scores against ``opponents``; the article's example
    (1613 against 1609, 1477, 1388, 1586 and 1720, scoring 2.5 with K = 32) gives
    1601.27..., published as 1601.
    """
    _games(opponents, score)
    expected = math.fsum(expected_score(rating, rb) for rb in opponents)
    return _finite("rating", rating) + _finite("k", k) * (score - expected)


def _games(opponents: Sequence[float], score: float) -> int:
    games = len(opponents)
    if games == 0:
        raise EloError(f"no games: opponents is empty ({list(opponents)!r})")
    for rating in opponents:
        _finite("an opponent's rating", rating)
    if not (math.isfinite(score) and 0 <= score <= games):
        raise EloError(f"score {score!r} is not between 0 and the {games} games played")
    return games


def performance_rating_400(opponents: Sequence[float], score: float) -> float:
    """The "algorithm of 400" ("FIDE ratings / Performance rating").

    Performance rating = (total of opponents' ratings + 400 x (wins - losses)) / games,
    with wins - losses = 2 x score - games (a draw adds half to the score and nothing
    to wins - losses).

    >>> performance_rating_400([1000], 1), performance_rating_400([1000, 1000], 2)
    (1400.0, 1400.0)
    """
    games = _games(opponents, score)
    return (math.fsum(opponents) + 400 * (2 * score - games)) / games


#: d_p for p = 0.50, 0.51, ..., 1.00 (index = hundredths above 0.50): FIDE Handbook B.02,
#: table 8.1a. The article prints only p = 1.00, 0.99, 0.9, 0.8, 0.7, 0.6, 0.5 (and their
#: negatives); the other values come from the FIDE handbook the article refers to.
FIDE_DP: tuple[int, ...] = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,  # 0.50 - 0.59
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,  # 0.60 - 0.69
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,  # 0.70 - 0.79
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,  # 0.80 - 0.89
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,  # 0.90 - 0.99
    800,  # 1.00
)


def fide_rating_difference(p: float) -> int:
    """d_p for a fractional score p ("FIDE ratings / Performance rating"; FIDE table 8.1a).

    p is rounded to two decimals half up; for p < 0.50, d_p = -d_(1-p).

    >>> fide_rating_difference(0.99), fide_rating_difference(0.3)
    (677, -149)
    """
    if not (math.isfinite(p) and 0 <= p <= 1):
        raise EloError(f"fractional score p must be between 0 and 1, got {p!r}")
    hundredths = round(round_half_up(p, 2) * 100)
    if hundredths >= 50:
        return FIDE_DP[hundredths - 50]
    return -FIDE_DP[50 - hundredths]


def performance_rating_fide(opponents: Sequence[float], score: float) -> float:
    """FIDE's performance rating: opponents' average + d_p ("FIDE ratings / Performance rating").

    p = score / games, rounded to two decimals half up, looked up in the FIDE table
    (`FIDE_DP`; a perfect score or no score gives +800 or -800).

    >>> performance_rating_fide([1000], 1), performance_rating_fide([1000], 0.5)
    (1800.0, 1000.0)
    """
    games = _games(opponents, score)
    return math.fsum(opponents) / games + fide_rating_difference(score / games)


#: The article's US Chess classes: (lowest rounded rating, name), highest first.
US_CHESS_CLASSES: tuple[tuple[int, str], ...] = (
    (2400, "Senior Master"),
    (2200, "National Master"),
    (2000, "Expert"),
    (1800, "Class A"),
    (1600, "Class B"),
    (1400, "Class C"),
    (1200, "Class D"),
    (1000, "Class E"),
    (800, "Class F"),
    (600, "Class G"),
    (400, "Class H"),
    (200, "Class I"),
    (0, "Class J"),
)


def us_chess_class(rating: float) -> str:
    """The class name of a rating ("United States Chess Federation ratings").

    The rating is rounded half up first, as published ratings are (so 1999.5 is
    Expert). "Original Life Master" is not returned: it needs 300 games above
    2200, not only a rating. A rating that rounds below 0 raises `EloError`.

    >>> us_chess_class(2199.4), us_chess_class(2199.5), us_chess_class(0)
    ('Expert', 'National Master', 'Class J')
    """
    rounded = round_half_up(_finite("rating", rating))
    for low, name in US_CHESS_CLASSES:
        if rounded >= low:
            return name
    raise EloError(f"rating {rating!r} is below 0, the lowest class (Class J: 0-199)")
