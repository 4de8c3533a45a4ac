"""The encyclopedia article's Elo formulas and examples."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uscf_ratings.core.elo import (
    FIDE_DP,
    EloError,
    expected_score,
    fide_rating_difference,
    performance_rating_400,
    performance_rating_fide,
    updated_rating,
    us_chess_class,
)
from uscf_ratings.core.formulas import round_half_up

# "Mathematical details": a player rated 1613 in a five-round tournament.
PLAYER = 1613
OPPONENTS = [1609, 1477, 1388, 1586, 1720]
ARTICLE_EXPECTED = [0.506, 0.686, 0.785, 0.539, 0.351]


def test_article_expected_scores() -> None:
    scores = [expected_score(PLAYER, rb) for rb in OPPONENTS]
    assert [round(e, 3) for e in scores] == ARTICLE_EXPECTED
    assert round(sum(scores), 3) == 2.867


def test_article_new_ratings() -> None:
    # loss, draw, win, win, loss = 2.5: 1613 + 32 x (2.5 - 2.867) = 1601
    assert round_half_up(updated_rating(PLAYER, OPPONENTS, 2.5, 32)) == 1601
    assert round_half_up(PLAYER + 32 * (2.5 - 2.867)) == 1601
    # two wins, one loss, two draws = 3: 1613 + 32 x (3 - 2.867) = 1617
    assert round_half_up(updated_rating(PLAYER, OPPONENTS, 3, 32)) == 1617
    assert round_half_up(PLAYER + 32 * (3 - 2.867)) == 1617


def test_expected_scores_of_both_players_add_to_one() -> None:
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1800, 1400) == pytest.approx(10 / 11)
    assert expected_score(1400, 1800) == pytest.approx(1 / 11)


@given(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6))
def test_expected_score_is_a_probability(ra: float, rb: float) -> None:
    ea, eb = expected_score(ra, rb), expected_score(rb, ra)
    assert 0 <= ea <= 1
    assert ea + eb == pytest.approx(1)


def test_performance_400_article_examples() -> None:
    assert performance_rating_400([1000], 1) == 1400  # (1000 + 400 x 1) / 1
    assert performance_rating_400([1000, 1000], 2) == 1400  # (2000 + 400 x 2) / 2
    assert performance_rating_400([1000], 0.5) == 1000  # (1000 + 400 x 0) / 1


def test_performance_400_two_wins_two_losses() -> None:
    # (w + 400 + x + 400 + y - 400 + z - 400) / 4 with w, x beaten and y, z lost to
    assert performance_rating_400([1500, 1600, 1700, 1800], 2) == (1500 + 1600 + 1700 + 1800) / 4
    assert performance_rating_400([1500, 1600, 1700], 2.5) == (4800 + 400 * 2) / 3


# The article's simplified table ("Performance rating").
SIMPLIFIED = [
    (1.00, 800), (0.99, 677), (0.9, 366), (0.8, 240), (0.7, 149), (0.6, 72), (0.5, 0),
    (0.4, -72), (0.3, -149), (0.2, -240), (0.1, -366), (0.01, -677), (0.00, -800),
]


@pytest.mark.parametrize(("p", "dp"), SIMPLIFIED)
def test_simplified_table(p: float, dp: int) -> None:
    assert fide_rating_difference(p) == dp


@pytest.mark.parametrize(("p", "dp"), SIMPLIFIED)
def test_fide_performance_against_simplified_table(p: float, dp: int) -> None:
    games = 100
    score = p * games
    assert performance_rating_fide([1500.0] * games, score) == pytest.approx(1500 + dp)


def test_fide_performance_examples() -> None:
    assert performance_rating_fide([1000], 1) == 1800
    assert performance_rating_fide([1000, 1000], 2) == 1800
    assert performance_rating_fide([1000], 0.5) == 1000
    assert performance_rating_fide([1000], 0) == 200
    # 2.5 of 4 = 0.625, rounded half up to 0.63: +95 over the average 1550
    assert performance_rating_fide([1400, 1500, 1600, 1700], 2.5) == 1550 + 95
    # 2 of 3 = 0.666... -> 0.67: +125; 1 of 3 -> 0.33: -125
    assert performance_rating_fide([1500] * 3, 2) == 1625
    assert performance_rating_fide([1500] * 3, 1) == 1375
    # 4.5 of 20 = 0.225 -> 0.23 (half up): -d(0.77) = -211
    assert performance_rating_fide([2000] * 20, 4.5) == 2000 - 211


def test_fide_table_shape() -> None:
    assert len(FIDE_DP) == 51
    assert list(FIDE_DP) == sorted(set(FIDE_DP))  # strictly increasing
    assert fide_rating_difference(0.5) == 0
    for hundredths in range(101):
        p = hundredths / 100
        assert fide_rating_difference(p) == -fide_rating_difference(round(1 - p, 2))


@pytest.mark.parametrize(("opponents", "score", "quoted"), [
    ([], 0, "[]"), ([1500], -0.5, "-0.5"), ([1500], 1.5, "1.5"), ([1500], float("nan"), "nan"),
    ([float("inf")], 0.5, "inf"),
])
def test_performance_refuses_bad_input(opponents: list[float], score: float, quoted: str) -> None:
    with pytest.raises(EloError, match=re.escape(quoted)):
        performance_rating_400(opponents, score)
    with pytest.raises(EloError, match=re.escape(quoted)):
        performance_rating_fide(opponents, score)


@pytest.mark.parametrize("p", [-0.01, 1.01, float("nan")])
def test_fide_difference_refuses_bad_p(p: float) -> None:
    with pytest.raises(EloError, match="got"):
        fide_rating_difference(p)


@pytest.mark.parametrize(("rating", "name"), [
    (2800, "Senior Master"), (2400, "Senior Master"), (2399.5, "Senior Master"),
    (2399.4, "National Master"), (2200, "National Master"),
    (2199, "Expert"), (2000, "Expert"), (1999.5, "Expert"),
    (1999, "Class A"), (1800, "Class A"),
    (1799, "Class B"), (1600, "Class B"),
    (1599, "Class C"), (1400, "Class C"),
    (1399, "Class D"), (1200, "Class D"),
    (1199, "Class E"), (1000, "Class E"),
    (999, "Class F"), (800, "Class F"),
    (799, "Class G"), (600, "Class G"),
    (599, "Class H"), (400, "Class H"),
    (399, "Class I"), (200, "Class I"),
    (199, "Class J"), (100, "Class J"), (0, "Class J"), (-0.4, "Class J"),
])
def test_us_chess_classes(rating: float, name: str) -> None:
    assert us_chess_class(rating) == name


def test_class_refuses_negative_and_non_finite() -> None:
    with pytest.raises(EloError, match="-1"):
        us_chess_class(-1)
    with pytest.raises(EloError, match="nan"):
        us_chess_class(float("nan"))
