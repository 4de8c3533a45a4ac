"""The two performance ratings the estimator shows, by hand calculation.

The algorithm of 400 (`core.elo.performance_rating_400`) is the encyclopedia article's;
its own examples are its doctests. The 2025 text's (`core.performance`) is the rating R
at which the provisional winning expectancies sum to the score (section 4.1, N' = 0):
PWe(R, Ri) = 0.5 + (R - Ri)/800 within 400 of Ri, 0 below and 1 above.
"""

from __future__ import annotations

import itertools

import pytest

from uscf_ratings.core.elo import performance_rating_400
from uscf_ratings.core.performance import PerformanceRange, special_performance


def test_the_article_s_examples_of_the_algorithm_of_400() -> None:
    """Beat a 1000: 1400; beat two 1000s: 1400; draw a 1000: 1000 (the article)."""
    assert performance_rating_400([1000.0], 1.0) == 1400.0
    assert performance_rating_400([1000.0, 1000.0], 2.0) == 1400.0
    assert performance_rating_400([1000.0], 0.5) == 1000.0


def test_three_opponents_within_400_agree_with_the_algorithm_of_400() -> None:
    """1400, 1500, 1700 and 2 points: if R is within 400 of each,
    1.5 + (3R - 4600)/800 = 2, so 3R = 5000, R = 1666.67 (within 400 of all three);
    the algorithm of 400: (4600 + 400 x (2 - 1)) / 3 = 1666.67 (two wins, one loss)."""
    found = special_performance([1400.0, 1500.0, 1700.0], 2.0)
    assert found.single == pytest.approx(5000 / 3)
    assert performance_rating_400([1400.0, 1500.0, 1700.0], 2.0) == pytest.approx(5000 / 3)


def test_an_opponent_far_below_counts_as_a_sure_point() -> None:
    """A win against 1000, a loss to 2000 and a draw with 1900 (1.5 of 3). Between
    R = 1600 and 2300 the 1000 counts 1 (R >= 1400) and the others count
    0.5 + (R - Ri)/800, so 1 + 1 + (2R - 3900)/800 = 1.5, 2R = 3500, R = 1750, which
    is in that stretch. The algorithm of 400: (4900 + 400 x (1 - 1)) / 3 = 1633.33."""
    assert special_performance([1000.0, 2000.0, 1900.0], 1.5).single == pytest.approx(1750.0)
    assert performance_rating_400([1000.0, 2000.0, 1900.0], 1.5) == pytest.approx(4900 / 3)


def test_a_flat_stretch_is_given_whole() -> None:
    """One point against 1000 and 2000: from R = 1400 the 1000 counts 1, and up to
    R = 1600 the 2000 counts 0, so every R from 1400 to 1600 solves it."""
    found = special_performance([1000.0, 2000.0], 1.0)
    assert found == PerformanceRange(1400.0, 1600.0) and found.single is None


def test_a_perfect_score_and_no_score_have_one_end() -> None:
    """Two wins against 1500 and 1600: the sum is 2 from R = 2000 up; no point: 0 up to
    R = 1100."""
    assert special_performance([1500.0, 1600.0], 2.0) == PerformanceRange(2000.0, None)
    assert special_performance([1500.0, 1600.0], 0.0) == PerformanceRange(None, 1100.0)


def test_the_order_of_the_games_does_not_matter() -> None:
    ratings = [1523.5, 1377.25, 1810.0, 1644.75]
    found = {special_performance(list(order), 2.5) for order in itertools.permutations(ratings)}
    assert len({(round(f.low or 0, 9), round(f.high or 0, 9)) for f in found}) == 1


@pytest.mark.parametrize(("opponents", "score"), [([], 0.0), ([1500.0], 1.5), ([1500.0], -0.5)])
def test_a_score_outside_the_games_is_refused(opponents: list[float], score: float) -> None:
    with pytest.raises(ValueError, match="a score of"):
        special_performance(opponents, score)
