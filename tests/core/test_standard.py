"""The standard rating formula, its K factor and the bonus (section 4.2, 2025 text).

Expected values are hand calculations shown next to each assertion. Where N' enters, it
is computed in the test from formula (1) of section 3, written out again here.
"""

from __future__ import annotations

import math
from datetime import date

import pytest

from uscf_ratings.core.formulas import bonus_eligible, k_factor, standard_rating, we
from uscf_ratings.core.model import Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.rules import rules_for

R, Q = System.R, System.Q


def n_star(r0: float) -> float:
    """Section 3, formula (1), written out independently of the engine."""
    if r0 > 2355:
        return 50.0
    return 50 / math.sqrt(0.662 + 0.00000739 * (2569 - r0) ** 2)


def we_hand(r: float, ri: float) -> float:
    """Section 4.2: We(R, Ri) = 1/(1 + 10^(-(R - Ri)/400))."""
    return 1 / (1 + 10 ** (-(r - ri) / 400))


# --- We and the formula ------------------------------------------------------------


def test_we_values() -> None:
    """2025 text, section 4.2: We(R, Ri) = 1/(1 + 10^(-(R - Ri)/400)).

    Hand: We(1600, 1400) = 1/(1 + 10^-0.5) = 1/1.316228 = 0.759747;
    We(1600, 1800) = 1/(1 + 10^0.5) = 1/4.162278 = 0.240253; We(1600, 2000) = 1/11.
    """
    assert we(1600, 1600) == 0.5
    assert we(1600, 1400) == pytest.approx(0.759747, abs=1e-6)
    assert we(1600, 1800) == pytest.approx(0.240253, abs=1e-6)
    assert we(1600, 2000) == pytest.approx(1 / 11)


def test_standard_hand_example() -> None:
    """2025 text, section 4.2: Rs = R0 + K(S - E) + max(0, K(S - E) - B sqrt(m')).

    R0 = 1600, N' = 20, m = 4 against 1400, 1600, 1800, 2000, S = 2.5.
    E = 0.759747 + 0.5 + 0.240253 + 1/11 = 1.5 + 1/11 = 1.590909
    (We(d) + We(-d) = 1). K = 800/(20 + 4) = 33.333. K(S - E) = (100/3)(10/11) = 1000/33
    = 30.3030. B = 14: bonus = 30.3030 - 14 x sqrt(4) = 2.3030, Rs = 1632.6061.
    B = 10: bonus = 30.3030 - 20 = 10.3030, Rs = 1640.6061.
    """
    k = k_factor(20, 4)
    assert k == pytest.approx(800 / 24)
    opponents = [1400, 1600, 1800, 2000]
    b14 = standard_rating(1600, opponents, 2.5, k, 14)
    assert b14.expected == pytest.approx(1.5 + 1 / 11)
    assert b14.change == pytest.approx(1000 / 33)
    assert b14.bonus == pytest.approx(1000 / 33 - 28)
    assert b14.rating == pytest.approx(1600 + 2 * 1000 / 33 - 28)  # 1632.6061
    b10 = standard_rating(1600, opponents, 2.5, k, 10)
    assert b10.rating == pytest.approx(1600 + 2 * 1000 / 33 - 20)  # 1640.6061
    no_bonus = standard_rating(1600, opponents, 2.5, k, None)
    assert no_bonus.bonus == 0
    assert no_bonus.rating == pytest.approx(1600 + 1000 / 33)  # 1630.3030


def test_bonus_three_games_counts_as_four() -> None:
    """2025 text, section 4.2: m' = max(m, 4), "3-round events are treated as 4-round
    events". R0 = 1500, three wins against 1500, K = 50: E = 1.5, K(S - E) = 75;
    B = 12: bonus = 75 - 12 x sqrt(4) = 51 (not 75 - 12 sqrt(3) = 54.22); Rs = 1626."""
    out = standard_rating(1500, [1500] * 3, 3, 50, 12)
    assert out.bonus == pytest.approx(51)
    assert out.rating == pytest.approx(1626)


def test_bonus_nine_games() -> None:
    """2025 text, section 4.2: m' = m for m > 4. Nine wins against 1500, K = 40:
    K(S - E) = 40 x 4.5 = 180; B = 10: bonus = 180 - 10 x 3 = 150; Rs = 1830."""
    out = standard_rating(1500, [1500] * 9, 9, 40, 10)
    assert out.bonus == pytest.approx(150)
    assert out.rating == pytest.approx(1830)


def test_bonus_is_max_not_min() -> None:
    """2025 text, section 4.2: the bonus is max(0, K(S - E) - B sqrt(m')) (traps.md).

    Four losses against 1500, K = 40: K(S - E) = 40 x (0 - 2) = -80; bonus = max(0, -80
    - 20) = 0; Rs = 1420 (a "min" would give 1320)."""
    out = standard_rating(1500, [1500] * 4, 0, 40, 10)
    assert out.bonus == 0
    assert out.rating == pytest.approx(1420)


def test_bonus_below_threshold_is_zero() -> None:
    """2025 text, section 4.2: K(S - E) = 40 x 0.5 = 20 equals B sqrt(4) = 20: bonus 0."""
    out = standard_rating(1500, [1500] * 4, 2.5, 40, 10)
    assert out.bonus == 0
    assert out.rating == pytest.approx(1520)


# --- B by date ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "b"),
    [
        (date(2013, 6, 1), 8),  # "2012-08-03 Bonus point threshold increased to 8."
        (date(2014, 3, 19), 8),
        (date(2014, 3, 20), 10),  # "2014-03-20 ... increased to 10."
        (date(2015, 5, 31), 10),
        (date(2015, 6, 1), 12),  # "2015-06-01 ... increased to 12."
        (date(2017, 5, 31), 12),
        (date(2017, 6, 1), 14),  # "2017-06-01 ... increased to 14."
        (date(2022, 1, 1), 14),
        (date(2023, 1, 31), 14),
        (date(2023, 2, 1), 12),  # "2023-02-01 ... reduced to 12."
        (date(2024, 12, 31), 12),
        (date(2025, 1, 1), 10),  # "2025-01-01 ... reduced to 10."
    ],
)
def test_bonus_threshold_by_date(day: date, b: float) -> None:
    """2025 text, section 8 (change log): B from each dated change, applying "to all
    sections with start date at or after the date specified and not to sections with
    start date earlier than that"."""
    assert rules_for(day).bonus_threshold == b


# --- Bonus eligibility -------------------------------------------------------------


def test_bonus_eligibility_rules() -> None:
    """2025 text, section 4.2: no bonus if m < 3, if any opponent is met more than twice,
    or (2024 and 2025 texts) if m = 3 and any opponent is met more than once. The 2017
    text: "If both m >= 3 and the player competes against no player more than twice"."""
    assert not bonus_eligible([1, 1], False)  # m = 2
    assert not bonus_eligible([1, 1], True)
    assert bonus_eligible([1, 1, 1], False)  # m = 3, all distinct
    assert bonus_eligible([1, 1, 1], True)
    assert bonus_eligible([2, 1], False)  # m = 3, one opponent twice: 2017 rule yes
    assert not bonus_eligible([2, 1], True)  # 2024 rule no
    assert bonus_eligible([2, 2], False)  # m = 4, twice each: yes
    assert bonus_eligible([2, 2], True)
    assert not bonus_eligible([3, 1], False)  # an opponent met three times: no
    assert not bonus_eligible([3, 1], True)
    assert not bonus_eligible([3], False)


def test_bonus_m3_rule_dates() -> None:
    """The m = 3 rule is in the 2024 and 2025 texts (section 4.2), not in the 2017 text."""
    assert rules_for(date(2025, 1, 1)).bonus_m3_needs_distinct_opponents is True
    assert rules_for(date(2019, 1, 1)).bonus_m3_needs_distinct_opponents is False


def _m3_section(day: date) -> Section:
    """A player rated 1500 (N = 100) beats pair 2 twice and pair 3 once (all rated 1500)."""
    hero = Player(1, "H", ratings={R: Rating(1500, 100)},
                  results=(Result(1, "W", 2), Result(2, "W", 3), Result(3, "W", 2)))
    two = Player(2, "A", ratings={R: Rating(1500, 100)},
                 results=(Result(1, "L", 1), Result(3, "L", 1)))
    three = Player(3, "B", ratings={R: Rating(1500, 100)}, results=(Result(2, "L", 1),))
    return Section(1, day, day, (hero, two, three), systems=(R,))


def test_bonus_m3_through_section() -> None:
    """2017 text vs 2024/2025 texts, section 4.2: three games with one opponent met twice.

    Step 4 (opponents at their pre-event 1500): E = 1.5, S = 3, N' = N*(1500),
    K = 800/(N' + 3). 2019 (B = 14, eligible): Rs = 1500 + 1.5K + max(0, 1.5K - 28);
    with N' = 16.57, K = 40.88, that is 1500 + 61.3 + 33.3 = 1594.7.
    2025 (not eligible): Rs = 1500 + 1.5K = 1561.3.
    """
    k = 800 / (n_star(1500) + 3)
    old = rate_section(_m3_section(date(2019, 1, 1))).player(1).ratings[R].step(4)
    assert old is not None and old.bonus_eligible
    assert old.unfloored == pytest.approx(1500 + 1.5 * k + max(0, 1.5 * k - 14 * 2))
    new = rate_section(_m3_section(date(2025, 1, 1))).player(1).ratings[R].step(4)
    assert new is not None and not new.bonus_eligible
    assert new.unfloored == pytest.approx(1500 + 1.5 * k)


# --- Dual-rated K ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rating", "numerator"),
    [
        (2200, 800.0),  # not above 2200: the ordinary 800
        (2200.5, 799.0),  # 800 (6.5 - 0.0025 x 2200.5) = 800 x 0.99875
        (2300, 600.0),  # 800 (6.5 - 5.75) = 800 x 0.75
        (2400, 400.0),  # 800 (6.5 - 6.0)
        (2499, 202.0),  # 800 (6.5 - 6.2475) = 800 x 0.2525
        (2500, 200.0),  # R >= 2500: 200
        (2700, 200.0),
    ],
)
def test_dual_k(rating: float, numerator: float) -> None:
    """2025 text, section 4.2: in a dual-rated event's OTBR update, K = 800(6.5 -
    0.0025R)/(N' + m) for 2200 < R < 2500 and 200/(N' + m) for R >= 2500. N' = 20,
    m = 4: divide by 24."""
    assert k_factor(20, 4, dual_rating=rating) == pytest.approx(numerator / 24)
    assert k_factor(20, 4) == pytest.approx(800 / 24)


def _dual_section(time_control: str, rating: float) -> Section:
    """A player rated ``rating`` (R and Q, N = 100) scores 3/4 against four 2300s."""
    both = {R: Rating(rating, 100), Q: Rating(rating, 100)}
    opp = {R: Rating(2300, 100), Q: Rating(2300, 100)}
    codes = ["W", "W", "W", "L"]
    hero = Player(1, "H", ratings=both,
                  results=tuple(Result(i + 1, codes[i], i + 2) for i in range(4)))
    mirror = {"W": "L", "L": "W"}
    others = tuple(Player(i + 2, f"O{i}", ratings=opp,
                          results=(Result(i + 1, mirror[codes[i]], 1),)) for i in range(4))
    day = date(2025, 3, 1)
    return Section(1, day, day, (hero, *others), time_control=time_control)


def test_dual_k_through_section() -> None:
    """2025 text, section 4.2 and footnote 1: "G/45;d5" (mm + ss = 50) is rated in both
    OTBR and OTBQ; the OTBR update of a player above 2200 uses the dual K, the OTBQ update
    does not.

    Player 2300, N = 100: N' = N*(2300) = 50/sqrt(0.662 + 0.00000739 x 269^2) = 45.7055;
    m = 4. K_R = 800 (6.5 - 0.0025 x 2300)/(N' + 4) = 600/49.7055 = 12.071;
    K_Q = 800/49.7055 = 16.095. Step 4 against four pre-event 2300s: E = 2, S = 3;
    bonus: K(S - E) - 10 x 2 < 0 in both, so R: 2300 + 12.071, Q: 2300 + 16.095.
    K depends on the pre-event rating, so Step 5 uses the same K.
    """
    result = rate_section(_dual_section("G/45;d5", 2300))
    assert result.dual
    assert set(result.systems) == {R, Q}
    n_eff = n_star(2300)
    hero = result.player(1)
    r4, r5 = hero.ratings[R].step(4), hero.ratings[R].step(5)
    q4, q5 = hero.ratings[Q].step(4), hero.ratings[Q].step(5)
    assert r4 is not None and r5 is not None and q4 is not None and q5 is not None
    assert r4.k == pytest.approx(600 / (n_eff + 4))
    assert q4.k == pytest.approx(800 / (n_eff + 4))
    assert r4.k / q4.k == pytest.approx(0.75)  # 6.5 - 0.0025 x 2300 = 0.75
    assert r5.k == r4.k and q5.k == q4.k
    assert r4.unfloored == pytest.approx(2300 + 600 / (n_eff + 4))
    assert q4.unfloored == pytest.approx(2300 + 800 / (n_eff + 4))


def test_no_dual_k_outside_dual_range() -> None:
    """2025 text, section 4.2: the dual K needs 30 <= mm + ss <= 65. "G/60;d10" has
    mm + ss = 70: Regular only (footnote 1), so K = 800/(N' + m) for the 2300 player."""
    result = rate_section(_dual_section("G/60;d10", 2300))
    assert not result.dual
    assert result.systems == (R,)
    step4 = result.player(1).ratings[R].step(4)
    assert step4 is not None
    assert step4.k == pytest.approx(800 / (n_star(2300) + 4))


def test_no_dual_k_at_2200() -> None:
    """2025 text, section 4.2: the dual K needs R > 2200. At 2200 exactly the R update
    of a dual-rated section uses 800/(N' + m). N' = N*(2200) =
    50/sqrt(0.662 + 0.00000739 x 369^2)."""
    result = rate_section(_dual_section("G/45;d5", 2200))
    assert result.dual
    step4 = result.player(1).ratings[R].step(4)
    assert step4 is not None
    assert step4.k == pytest.approx(800 / (n_star(2200) + 4))


def test_standard_through_section() -> None:
    """2025 text, Step 4 and section 4.2, through rate_section (2019 rules, B = 14).

    Player 1600, N = 100, against 1400 (W), 1600 (D), 1800 (W), 2000 (L): S = 2.5,
    E = 1.5 + 1/11 (see test_standard_hand_example). N' = N*(1600) =
    50/sqrt(0.662 + 0.00000739 x 969^2) = 18.136; K = 800/(N' + 4) = 36.14;
    K(S - E) = 36.14 x 10/11 = 32.85; bonus = 32.85 - 28 = 4.85; Step 4 = 1637.7.
    """
    opponents = [1400, 1600, 1800, 2000]
    codes = ["W", "D", "W", "L"]
    mirror = {"W": "L", "L": "W", "D": "D"}
    hero = Player(1, "H", ratings={R: Rating(1600, 100)},
                  results=tuple(Result(i + 1, codes[i], i + 2) for i in range(4)))
    others = tuple(Player(i + 2, f"O{i}", ratings={R: Rating(opponents[i], 100)},
                          results=(Result(i + 1, mirror[codes[i]], 1),)) for i in range(4))
    day = date(2019, 1, 1)
    section = Section(1, day, day, (hero, *others), systems=(R,))
    out = rate_section(section).player(1).ratings[R]
    assert out.formula == "standard"
    k = 800 / (n_star(1600) + 4)
    change = k * (2.5 - sum(we_hand(1600, r) for r in opponents))
    step4 = out.step(4)
    assert step4 is not None
    assert step4.expected == pytest.approx(1.5 + 1 / 11)
    assert step4.unfloored == pytest.approx(1600 + change + max(0, change - 14 * 2))
    assert step4.unfloored == pytest.approx(1637.7, abs=0.05)
