"""The special rating formula: the knot walk of section 4.1 (2025 text), solved by hand.

Notation as in the text: PWe(R, Ri) = 0 below Ri - 400, 1 above Ri + 400 and
0.5 + (R - Ri)/800 between; f(R) = N' PWe(R, R0') + sum_i PWe(R, Ri) - S'; knots at
R0' +- 400 and Ri +- 400; the walk starts at M = R0'.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from uscf_ratings.core.special import special_rating


def pwe(r: float, ri: float) -> float:
    """PWe(R, Ri) written out again from section 4.1, independent of the engine."""
    if r <= ri - 400:
        return 0.0
    if r >= ri + 400:
        return 1.0
    return 0.5 + (r - ri) / 800


def adjusted(r0: float, n_eff: float, score: float, history: str) -> tuple[float, float]:
    """R0' and S' of section 4.1: all wins (R0 - 400, S + N'), all losses (R0 + 400, S),
    otherwise (R0, S + N'/2)."""
    if history == "wins":
        return r0 - 400, score + n_eff
    if history == "losses":
        return r0 + 400, score
    return r0, score + n_eff / 2


def objective(r: float, r0_adj: float, n_eff: float, opponents: list[float],
              s_adj: float) -> float:
    """f(R) of section 4.1."""
    return n_eff * pwe(r, r0_adj) + math.fsum(pwe(r, ri) for ri in opponents) - s_adj


# --- Hand-worked cases -------------------------------------------------------------


def test_four_wins_unrated() -> None:
    """2025 text, section 4.1: N' = 0, R0 = 1500, four wins against 1500.

    f(R) = 4 PWe(R, 1500) - 4. M = 1500: f = 2 - 4 = -2 < 0, walk up. Knots 1100, 1900.
    zb = 1900, f(1900) = 0; M* = 1500 + 2 x (400/2) = 1900. f = 0; p counts four
    opponents at |1900 - 1500| = 400 and R0' at 400 (inclusive): p = 5 > 0, exit. 1900.
    """
    out = special_rating(1500, 0, [1500, 1500, 1500, 1500], 4)
    assert out.rating == 1900
    assert out.p == 5
    assert not out.tie_rule and not out.capped
    assert out.r0_adjusted == 1500 and out.score_adjusted == 4


def test_four_losses_unrated() -> None:
    """2025 text, section 4.1: N' = 0, R0 = 1500, four losses against 1500.

    f(R) = 4 PWe(R, 1500) - 0. M = 1500: f = 2 > 0, walk down: za = 1100, f(1100) = 0,
    M* = 1500 - 2 x (400/2) = 1100. p = 5 (all at distance 400, inclusive), exit: 1100.
    """
    out = special_rating(1500, 0, [1500, 1500, 1500, 1500], 0)
    assert out.rating == 1100
    assert out.p == 5
    assert not out.tie_rule


def test_draw_heavy_linear_piece() -> None:
    """2025 text, section 4.1: R0 = 1450, N' = 5, four draws and a win against
    1300, 1400, 1500, 1600, 1650: S = 3, S' = S + N'/2 = 5.5.

    On the piece where every term is sloped (all ratings within 400 of R):
    f(R) = 5 (0.5 + (R - 1450)/800) + (5 x 0.5 + (5R - 7450)/800) - 5.5
         = (10R - 7250 - 7450)/800 + 5 - 5.5 = (10R - 14700)/800 - 0.5.
    f = 0 => 10R = 14700 + 400 => R = 1510; |1510 - 1300| = 210 and |1510 - 1650| = 140
    are below 400, so 1510 lies on that piece. The walk: f(1450) = -0.75, zb = 1700 with
    f(1700) = 2.375, M* = 1450 + 0.75 x 250/3.125 = 1510.
    """
    out = special_rating(1450, 5, [1300, 1400, 1500, 1600, 1650], 3)
    assert out.rating == pytest.approx(1510, abs=1e-9)
    assert out.score_adjusted == 5.5
    assert out.p == 6  # five opponents and R0' within 400
    assert out.prior == "none"


def test_all_wins_prior() -> None:
    """2025 text, section 4.1, all-wins prior: R0' = R0 - 400, S' = S + N'.

    R0 = 1500, N' = 2, opponents 1400, 1500, 1600, S = 2: R0' = 1100, S' = 4.
    For R >= 1500, PWe(R, 1100) = 1 and the opponents' terms are sloped:
    f(R) = 2 + 1.5 + (3R - 4500)/800 - 4 = 0 => 3R = 4500 + 400 => R = 4900/3 = 1633.33
    (>= 1500, and within 400 of every opponent). The walk goes 1100 -> 1200 -> 1500 ->
    M* = 1500 + 0.5 x 300/1.125 = 1633.33.
    """
    out = special_rating(1500, 2, [1400, 1500, 1600], 2, all_wins=True)
    assert out.r0_adjusted == 1100
    assert out.score_adjusted == 4
    assert out.prior == "all wins"
    assert out.rating == pytest.approx(4900 / 3, abs=1e-9)
    # Without the prior (R0' = 1500, S' = 3) the answer differs:
    # 2(0.5 + (R - 1500)/800) + 1.5 + (3R - 4500)/800 - 3 = (5R - 7500)/800 - 0.5 = 0
    # => 5R = 7900 => R = 1580.
    assert special_rating(1500, 2, [1400, 1500, 1600], 2).rating == pytest.approx(1580)


def test_all_losses_prior() -> None:
    """2025 text, section 4.1, all-losses prior: R0' = R0 + 400, S' = S.

    R0 = 1500, N' = 2, opponents 1400, 1500, 1600, S = 1: R0' = 1900, S' = 1.
    For R <= 1500, PWe(R, 1900) = 0: f(R) = 1.5 + (3R - 4500)/800 - 1 = 0
    => 3R = 4500 - 400 => R = 4100/3 = 1366.67. The walk goes down 1900 -> 1800 -> 1500 ->
    M* = 1500 - 0.5 x 300/1.125 = 1366.67.
    """
    out = special_rating(1500, 2, [1400, 1500, 1600], 1, all_losses=True)
    assert out.r0_adjusted == 1900
    assert out.score_adjusted == 1
    assert out.prior == "all losses"
    assert out.rating == pytest.approx(4100 / 3, abs=1e-9)


def test_cap_2700() -> None:
    """2025 text, section 4.1: "If the final value of M is greater than 2700, the value is
    changed to 2700."

    N' = 0, R0 = 2300, four wins against 2600: f(R) = 4 PWe(R, 2600) - 4 = 0 at
    R = 3000 (walk: 2300 -> knot 2700 -> 3000). 3000 > 2700, so 2700.
    """
    out = special_rating(2300, 0, [2600] * 4, 4)
    assert out.rating == 2700
    assert out.capped


def test_start_at_r0_prime_with_zero_effective_games() -> None:
    """2025 text, section 4.1 step 1 and its footnote: start at M = R0'; with N' = 0 and
    f(R0') = 0 the walk stops at once.

    R0 = 1550, N' = 0, a win against 1000 and a loss against 2000: f(R) = PWe(R, 1000) +
    PWe(R, 2000) - 1 is 0 on [1400, 1600]. f(1550) = 1 + 0 - 1 = 0 and p >= 1 (R0' itself)
    -> 1550. The older texts' "efficient" start (1000 + 2000 + 400(2 - 2))/2 = 1500 would
    give 1500 (traps.md).
    """
    out = special_rating(1550, 0, [1000, 2000], 1)
    assert out.rating == 1550
    assert not out.tie_rule


# --- The p = 0 tie rule (step 4(b)) ------------------------------------------------


def test_tie_rule_r0_between_knots() -> None:
    """2017 text, section 4.1 step 4, strict "|M - Ri| < 400", and the tie rule 4(b).

    R0 = 1000, N' = 0, a win against 1000 and a loss against 2000, S = 1:
    f(R) = PWe(R, 1000) + PWe(R, 2000) - 1; knots 600, 1400 (R0' and the 1000), 1600, 2400.
    Walk: f(1000) = 0.5 - 1 = -0.5; zb = 1400, f(1400) = 1 + 0 - 1 = 0;
    M* = 1000 + 0.5 x 400/0.5 = 1400. f(1400) = 0.
    Strict p: |1400 - 1000| = 400 (not < 400), |1400 - 2000| = 600, R0' at 400 -> p = 0.
    Tie rule: za = 600, zb = 1600 (the knots around 1400); za <= R0 = 1000 <= zb -> M = R0
    = 1000.
    Inclusive p (2020-2025 texts): the 1000 and R0' are at 400 -> p = 2, exit at 1400.
    """
    strict = special_rating(1000, 0, [1000, 2000], 1, strict_p=True)
    assert strict.p == 0
    assert strict.tie_rule
    assert strict.rating == 1000
    inclusive = special_rating(1000, 0, [1000, 2000], 1)
    assert inclusive.p == 2
    assert not inclusive.tie_rule
    assert inclusive.rating == 1400


def test_tie_rule_r0_below_za() -> None:
    """2017 text, section 4.1 step 4(b), "R0 < za, then set M <- za".

    R0 = 1000, N' = 0, wins against 1000 and 900, a loss against 2000, S = 2:
    knots 600, 1400 (R0' and the 1000), 500, 1300 (the 900), 1600, 2400.
    Walk up: f(1000) = 0.5 + 0.625 + 0 - 2 = -0.875; zb = 1300, f(1300) = 0.875 + 1 - 2
    = -0.125, M* = 1000 + 0.875 x 300/0.75 = 1350 > 1300 -> M = 1300; zb = 1400,
    f(1400) = 1 + 1 - 2 = 0, M* = 1300 + 0.125 x 100/0.125 = 1400.
    Strict p at 1400: distances 400, 500, 600 and R0' 400 -> p = 0. za = 1300,
    zb = 1600; R0 = 1000 < za -> M = 1300.
    Inclusive: p = 2 (the 1000 and R0'), M = 1400.
    """
    strict = special_rating(1000, 0, [1000, 900, 2000], 2, strict_p=True)
    assert strict.tie_rule
    assert strict.rating == 1300
    inclusive = special_rating(1000, 0, [1000, 900, 2000], 2)
    assert not inclusive.tie_rule
    assert inclusive.rating == 1400


def test_tie_rule_r0_above_zb() -> None:
    """2017 text, section 4.1 step 4(b), "R0 > zb, then set M <- zb" (the mirror case).

    R0 = 2000, N' = 0, losses to 2000 and 2100, a win against 1000, S = 1: knots 1600,
    2400 (R0' and the 2000), 1700, 2500 (the 2100), 600, 1400.
    Walk down: f(2000) = 0.5 + 0.375 + 1 - 1 = 0.875; za = 1700, f(1700) = 0.125 + 0 + 1
    - 1 = 0.125, M* = 2000 - 0.875 x 300/0.75 = 1650 < 1700 -> M = 1700; za = 1600,
    f(1600) = 0, M* = 1700 - 0.125 x 100/0.125 = 1600.
    Strict p at 1600: distances 400, 500, 600, R0' 400 -> p = 0. za = 1400, zb = 1700;
    R0 = 2000 > zb -> M = 1700. Inclusive: p = 2, M = 1600.
    """
    strict = special_rating(2000, 0, [2000, 2100, 1000], 1, strict_p=True)
    assert strict.tie_rule
    assert strict.rating == 1700
    inclusive = special_rating(2000, 0, [2000, 2100, 1000], 1)
    assert not inclusive.tie_rule
    assert inclusive.rating == 1600


def test_tie_rule_uses_unadjusted_r0() -> None:
    """2017 text, section 4.1 step 4(b) compares with R0, not R0' (traps.md).

    All-wins prior: R0 = 2200, N' = 1 -> R0' = 1800, S' = S + 1. Losses to 1800 and 1000,
    S = 0, S' = 1. f(R) = PWe(R, 1800) + PWe(R, 1800) + PWe(R, 1000) - 1; knots 1400, 2200
    (R0' and the 1800), 600, 1400 (the 1000).
    Walk down: f(1800) = 0.5 + 0.5 + 1 - 1 = 1; za = 1400, f(1400) = 0 + 0 + 1 - 1 = 0;
    M* = 1800 - 1 x 400/1 = 1400. Strict p at 1400: 400, 400 and R0' 400 -> p = 0.
    za = 600, zb = 2200: za <= R0 = 2200 <= zb -> M = R0 = 2200 (with R0' = 1800 it
    would be 1800). Inclusive: p = 3, M = 1400.
    """
    strict = special_rating(2200, 1, [1800, 1000], 0, all_wins=True, strict_p=True)
    assert strict.r0_adjusted == 1800
    assert strict.tie_rule
    assert strict.rating == 2200
    inclusive = special_rating(2200, 1, [1800, 1000], 0, all_wins=True)
    assert not inclusive.tie_rule
    assert inclusive.rating == pytest.approx(1400)


# --- Properties --------------------------------------------------------------------

ratings = st.integers(100, 2700).map(float) | st.floats(100, 2700)


@st.composite
def special_cases(draw: st.DrawFn) -> tuple[float, float, list[float], float, str]:
    r0 = draw(ratings)
    n_eff = draw(st.integers(0, 50).map(float) | st.floats(0, 50))
    opponents = draw(st.lists(ratings, min_size=1, max_size=12))
    half_points = draw(st.integers(0, 2 * len(opponents)))
    history = draw(st.sampled_from(["none", "wins", "losses"]))
    return r0, n_eff, opponents, half_points / 2, history


@settings(max_examples=500, deadline=None)
@given(special_cases())
def test_special_result_is_a_root(case: tuple[float, float, list[float], float, str]) -> None:
    """2025 text, section 4.1: the result M satisfies f(M) = 0 (within tolerance), with
    f computed here from the section's definitions.

    With the inclusive p count (2020-2025 texts) the walk ends on a knot (400 from some
    rating) or on a sloped piece (within 400 of one), so the p = 0 rule never fires
    (traps.md); when the 2700 cap applies, the root lies above 2700, so f(2700) <= 0.
    """
    r0, n_eff, opponents, score, history = case
    out = special_rating(r0, n_eff, opponents, score, all_wins=history == "wins",
                         all_losses=history == "losses")
    r0_adj, s_adj = adjusted(r0, n_eff, score, history)
    assert out.r0_adjusted == r0_adj
    assert out.score_adjusted == pytest.approx(s_adj)
    assert not out.tie_rule
    if out.capped:
        assert out.rating == 2700
        assert objective(2700, r0_adj, n_eff, opponents, s_adj) <= 1e-6
    else:
        assert abs(objective(out.rating, r0_adj, n_eff, opponents, s_adj)) <= 1e-6


@settings(max_examples=300, deadline=None)
@given(special_cases(), st.randoms(use_true_random=False))
def test_special_order_independent(case: tuple[float, float, list[float], float, str],
                                   rnd: object) -> None:
    """2025 text, section 4.1: f is a sum over the games, so the order of the opponents
    cannot matter; the engine sorts and uses fsum, so the result is bit-identical."""
    r0, n_eff, opponents, score, history = case
    shuffled = list(opponents)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    kwargs = {"all_wins": history == "wins", "all_losses": history == "losses"}
    a = special_rating(r0, n_eff, opponents, score, **kwargs)
    b = special_rating(r0, n_eff, shuffled, score, **kwargs)
    assert a == b


@settings(max_examples=300, deadline=None)
@given(special_cases())
def test_special_monotone_in_score(case: tuple[float, float, list[float], float, str]) -> None:
    """2025 text, section 4.1: the algorithm ensures "that a rating does not decrease from
    wins or increase from losses": with the opponents fixed, half a point more never gives
    a lower special rating (f shifts down by 0.5, so every new root lies at or above every
    old one)."""
    r0, n_eff, opponents, score, history = case
    assume(score + 0.5 <= len(opponents))
    kwargs = {"all_wins": history == "wins", "all_losses": history == "losses"}
    before = special_rating(r0, n_eff, opponents, score, **kwargs)
    after = special_rating(r0, n_eff, opponents, score + 0.5, **kwargs)
    assert after.rating >= before.rating - 1e-9
