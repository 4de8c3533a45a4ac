"""Every worked example printed in the rating-system documents, checked against the engine.

Expected values are the documents' own printed numbers, or hand calculations shown in the
comments next to them. Nothing here was produced by running the engine.

Documents (../shared/spec): the 2017-04-24, 2024-07-29 and 2025-07-26 texts of "The US
Chess Rating system" and the 2004 page "Standard rating formula" (the half-K table).
"""

from __future__ import annotations

import math
from datetime import date

import pytest

from uscf_ratings.core import conversions
from uscf_ratings.core.floors import absolute_floor, peak_floor
from uscf_ratings.core.formulas import (
    effective_games,
    k_factor,
    n_star,
    round_half_up,
    rounded_rating,
)
from uscf_ratings.core.initial import initial_rating
from uscf_ratings.core.model import (
    FideRating,
    KFactor,
    Player,
    Rating,
    Result,
    Section,
    System,
)
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.rules import rules_for

R, Q, B, OB = System.R, System.Q, System.B, System.OB


# --- Section 4.2: the K table ------------------------------------------------------

#: (N', m, printed full K, printed half K). Full K: 2025 text, section 4.2 (and 2017 text);
#: half K: the 2004 page's "Half-K" column.
K_TABLE = [
    (6, 4, 80.00, 50.00),  # 800/10 = 80;      400/(6 + 2) = 50
    (6, 6, 66.67, 44.44),  # 800/12 = 66.667;  400/(6 + 3) = 44.444
    (6, 10, 50.00, 36.36),  # 800/16 = 50;     400/(6 + 5) = 36.364
    (20, 4, 33.33, 18.18),  # 800/24 = 33.333; 400/(20 + 2) = 18.182
    (20, 6, 30.77, 17.39),  # 800/26 = 30.769; 400/(20 + 3) = 17.391
    (20, 10, 26.67, 16.00),  # 800/30 = 26.667; 400/(20 + 5) = 16
    (50, 4, 14.81, 7.69),  # 800/54 = 14.815;  400/(50 + 2) = 7.692
    (50, 6, 14.29, 7.54),  # 800/56 = 14.286;  400/(50 + 3) = 7.547 (printed truncated)
    (50, 10, 13.33, 7.27),  # 800/60 = 13.333; 400/(50 + 5) = 7.273
]


@pytest.mark.parametrize(("n_eff", "m", "full", "half"), K_TABLE)
def test_k_table_full(n_eff: int, m: int, full: float, half: float) -> None:
    """2025 text, section 4.2, table of K = 800/(N' + m): equal to the printed 2 decimals."""
    assert round(k_factor(n_eff, m), 2) == full
    assert round(k_factor(n_eff, m, KFactor.FULL), 2) == full


@pytest.mark.parametrize(("n_eff", "m", "full", "half"), K_TABLE)
def test_k_table_half(n_eff: int, m: int, full: float, half: float) -> None:
    """2004 page, "Standard rating formula", Half-K column: K = 400/(N' + m/2).

    The page truncates (400/53 = 7.547 is printed 7.54), so the comparison allows 0.01.
    """
    assert k_factor(n_eff, m, KFactor.HALF) == pytest.approx(half, abs=0.01)


def test_half_k_is_not_full_k() -> None:
    """2004 page: half K (N' = 6, m = 4) is 400/(6 + 2) = 50, not 800/(6 + 4) = 80."""
    assert k_factor(6, 4, KFactor.HALF) == 50.0
    assert k_factor(6, 4, KFactor.FULL) == 80.0


# --- Section 3: effective games ----------------------------------------------------


def test_effective_games_example() -> None:
    """2025 text, section 3, example: R0 = 1700, N = 30 gives N* = 20.0 and N' = 20.0.

    Hand: (2569 - 1700)^2 = 869^2 = 755161; x 0.00000739 = 5.58064; + 0.662 = 6.24264;
    sqrt = 2.49853; 50 / 2.49853 = 20.012, printed 20.0.
    """
    assert round(n_star(1700), 1) == 20.0
    assert n_star(1700) == pytest.approx(50 / math.sqrt(6.24264), abs=1e-4)
    assert round(effective_games(30, 1700), 1) == 20.0
    assert effective_games(30, 1700) == n_star(1700)  # N' = min(30, 20.0) = N*


def test_effective_games_caps() -> None:
    """2025 text, section 3, formula (1): N* = 50 above 2355, and N' = min(N, N*).

    Hand: R0 = 2355: (2569 - 2355)^2 = 214^2 = 45796; x 0.00000739 = 0.33843244;
    + 0.662 = 1.00043244; N* = 50 / sqrt(1.00043244) = 49.989. R0 = 2356: 50.0. N = 5 at R0 = 1700: N' = 5.
    """
    assert n_star(2356) == 50.0
    assert n_star(3000) == 50.0
    assert n_star(2355) == pytest.approx(50 / math.sqrt(1.00043244), abs=1e-9)
    assert effective_games(5, 1700) == 5
    assert effective_games(100, 2400) == 50.0


# --- Section 2: the blended initial rating -----------------------------------------

BORN = date(2000, 7, 1)
END = date(2020, 9, 1)

#: The 2024/2025 texts' table, section 2 example:
#: source, X_k, rating date, G_k, D_k, P_k, Z_k, S_k, W_k
BLENDED_TABLE = [
    ("R", 1759, date(2018, 3, 25), 10, 891, 886.52, 2.49, 0.60, 5.98),
    ("Q", 1643, date(2018, 1, 13), 5, 962, 876.80, 2.19, 0.55, 2.74),
    ("B", 1658, date(2016, 7, 16), 10, 1508, 802.05, 2.45, 0.41, 4.15),
]


def _blended_player() -> Player:
    return Player(
        pair=1,
        id="12345678",
        birth_date=BORN,
        ratings={
            R: Rating(1759, 100, date(2018, 3, 25)),
            Q: Rating(1643, 100, date(2018, 1, 13)),
            B: Rating(1658, 100, date(2016, 7, 16)),
        },
    )


def _two_decimals(value: float | None, printed: float) -> bool:
    """``value`` rounds to the printed 2-decimal figure."""
    assert value is not None
    return abs(value - printed) <= 0.005 + 1e-12


def test_blended_example_sources() -> None:
    """2025 text (and 2024 text), section 2, example: OLB section ending 2020-09-01,
    player born 2000-07-01 with established OTBR 1759, OTBQ 1643, OTBB 1658.

    Each row of the printed table, to its 2 decimals. Hand check of the first row:
    D = days from 2018-03-25 to 2020-09-01 = 891; age then = 6476 days / 365.25 = 17.7303,
    P = 50 x 17.7303 = 886.52; Z = (1759 - 886.52)/350 = 2.49;
    S = exp(0.06 x (2.4928 - 6) x 891/365.25) = exp(-0.51332) = 0.5985 -> 0.60;
    W = 10 x 0.5985 = 5.98.
    """
    init = initial_rating(_blended_player(), OB, rules_for(END), END)
    assert init.method == "blended"
    sources = {s.source: s for s in init.sources}
    assert set(sources) == {"R", "Q", "B"}
    for name, x, _rated, g, d, p, z, s, w in BLENDED_TABLE:
        src = sources[name]
        assert src.rating == x
        assert src.games == g  # Game Factors 10, 5, 10: OTBB counts 10 for an OLB rating
        assert src.staleness_days == d
        assert _two_decimals(src.age_rating, p)
        assert _two_decimals(src.z, z)
        assert _two_decimals(src.staleness_factor, s)
        assert _two_decimals(src.weight, w)


def test_blended_example_r0_and_n() -> None:
    """2025 text, section 2, example: R0 = (5.98 x 1759 + 2.74 x 1643 + 4.15 x 1658)/
    (5.98 + 2.74 + 4.15) = 21901.34 / 12.87 = 1701.7, printed "about 1702"; N = min(10,
    12.87) = 10. The engine keeps R0 unrounded (traps.md: the real data needs it).
    """
    init = initial_rating(_blended_player(), OB, rules_for(END), END)
    assert abs(init.rating - 1702) < 0.5
    assert init.games == 10
    # The document's own arithmetic with its printed weights, as a check on the 1702:
    assert round((5.98 * 1759 + 2.74 * 1643 + 4.15 * 1658) / 12.87) == 1702


def test_blended_n_rounds_up() -> None:
    """2025 text, section 2: N = min(10, sum W_k) "rounded up to the nearest integer".

    With the OTBR row of the example as the only source, W = 5.98 (table above), so
    N = ceil(5.98) = 6 and R0 = 1759 (a weighted average of one rating).
    """
    player = Player(1, "1", birth_date=BORN, ratings={R: Rating(1759, 100, date(2018, 3, 25))})
    init = initial_rating(player, OB, rules_for(END), END)
    assert init.games == 6
    assert init.rating == pytest.approx(1759)


def test_game_factor_reduced_to_games_credited() -> None:
    """2025 text, section 2, item 1: "if someone is credited with 7 games under OTBR, the
    Game Factor on OTBR is reduced to 7."

    An undated rating is current (staleness D = 0, so S = exp(0) = 1 and W = G = 7): N = 7.
    """
    player = Player(1, "1", adult=True, ratings={R: Rating(1500, 7)})
    init = initial_rating(player, Q, rules_for(END), END)
    assert [s.games for s in init.sources] == [7]
    assert init.sources[0].staleness_factor == 1.0
    assert init.games == 7
    assert init.rating == pytest.approx(1500)


@pytest.mark.parametrize(
    ("fide", "converted", "game_factor"),
    [
        # 2025 text, 2.1: Game Factor 5 if FIDE <= 2000, 10 if FIDE > 2000.
        (2000, -1073 + 1.5667 * 2000, 5),  # = 2060.4
        (2000.5, 20 + 1.02 * 2000.5, 10),  # = 2060.51
    ],
)
def test_fide_game_factor_boundary(fide: float, converted: float, game_factor: int) -> None:
    """2025 text, section 2.1: a FIDE rating counts as 10 games above 2000, 5 at or below.

    Undated, so S = 1 and W = G: N = 5 or 10 and R0 = the converted rating.
    """
    player = Player(1, "1", adult=True, fide=FideRating(fide))
    day = date(2025, 8, 1)
    init = initial_rating(player, R, rules_for(day), day)
    assert init.games == game_factor
    assert init.rating == pytest.approx(converted)


# --- Section 5: floors -------------------------------------------------------------


def test_absolute_floor_example() -> None:
    """2025 text, section 5: 3 wins, 1 draw, 10 events: AF = 100 + 4(3) + 2(1) + 10 = 124."""
    assert absolute_floor(3, 1, 10) == 124


def test_absolute_floor_cap() -> None:
    """2025 text, section 5: AF = min(100 + 4NW + 2ND + NR, 150): 100 + 40 + 0 + 20 = 160
    is capped at 150."""
    assert absolute_floor(10, 0, 20) == 150


def test_peak_floor_examples() -> None:
    """2025 text, section 5: peak 1941 -> 1741 -> floor 1700; peak 1999.51 rounds to 2000
    -> 1800; peak 1388 -> 1188 is below 1200, so no peak floor (the absolute floor holds)."""
    assert peak_floor(1941) == 1700
    assert peak_floor(1999.51) == 1800
    assert peak_floor(1388) is None


def test_peak_floor_levels() -> None:
    """2025 text, section 5: floors exist at 1200, 1300, ..., 2100 only.

    Hand: 1400 - 200 = 1200 -> 1200; 1399 - 200 = 1199 -> none; 2700 - 200 = 2500 -> 2100
    (the highest level); 1999.49 rounds to 1999 -> 1799 -> 1700.
    """
    assert peak_floor(1400) == 1200
    assert peak_floor(1399) is None
    assert peak_floor(2700) == 2100
    assert peak_floor(1999.49) == 1700


def _results(pair: int, opponents: list[int], code: str) -> tuple[Result, ...]:
    return tuple(Result(rnd, code, opp) for rnd, opp in enumerate(opponents, start=1))


def test_section_peak_floor_holds() -> None:
    """2025 text, section 5 (peak floor), through Steps 1-5: an established player
    (N = 100, rated 1720, peak 1941) loses four games to 1200-rated players.

    Hand estimate of Step 4: N* (1720) = 50/sqrt(0.662 + 0.00000739 x 849^2) = 20.43,
    K = 800/24.43 = 32.75, E = 4 x 1/(1 + 10^(-520/400)) = 4 x 0.9523 = 3.81,
    Rs = 1720 - 32.75 x 3.81 = 1595. Step 5 (opponents about 1254 after their win) gives
    about 1597. Both are far below the floor 1941 -> 1741 -> 1700, so the final rating is
    exactly 1700 and the floor that held is the peak floor.
    """
    hero = Player(1, "H", ratings={R: Rating(1720, 100, peak=1941)},
                  results=_results(1, [2, 3, 4, 5], "L"))
    others = tuple(
        Player(pair, f"O{pair}", ratings={R: Rating(1200, 100)},
               results=(Result(pair - 1, "W", 1),))
        for pair in (2, 3, 4, 5)
    )
    section = Section(1, date(2019, 1, 1), date(2019, 1, 1), (hero, *others), systems=(R,))
    out = rate_section(section).player(1).ratings[R]
    assert out.formula == "standard"
    step5 = out.step(5)
    assert step5 is not None and step5.unfloored < 1650  # well below the floor
    assert out.post == 1700
    assert out.floor_applied == "peak"
    assert out.floors is not None and out.floors.peak == 1700


def test_section_unrated_loses_three_ends_at_101() -> None:
    """2025 text, section 5 (absolute floor) and traps.md: an unrated player (no birth
    date, not an adult: 750, N = 0; 2017 text section 2.1 item 5) loses three games in a
    first event and ends at 101: AF = 100 + 4(0) + 2(0) + 1 event of three games.

    Hand: Step 4 uses N' = 0 and the opponents' pre-event 400: f(R) = 3 PWe(R, 400) - 0,
    walking down from 750 gives 0 (= 400 - 400); the 100 of Step 4 applies. Step 5 uses
    the opponents' Step 4 ratings (about 415 after their win), giving about 15 -> 100.
    The personal floor then lifts 100 to 101.
    """
    hero = Player(1, "U", adult=False, results=_results(1, [2, 3, 4], "L"))
    others = tuple(
        Player(pair, f"O{pair}", ratings={R: Rating(400, 100)},
               results=(Result(pair - 1, "W", 1),))
        for pair in (2, 3, 4)
    )
    section = Section(1, date(2019, 1, 1), date(2019, 1, 1), (hero, *others), systems=(R,))
    out = rate_section(section).player(1).ratings[R]
    assert out.r0 == 750 and out.n == 0
    assert out.formula == "special"
    step4, step5 = out.step(4), out.step(5)
    assert step4 is not None and step4.unfloored == pytest.approx(0.0, abs=1e-9)
    assert step4.rating == 100
    assert step5 is not None and step5.rating == 100
    assert out.post == 101
    assert out.floor_applied == "absolute"


# --- Section 1 and 7: rounding -----------------------------------------------------


def test_round_half_up() -> None:
    """2025 text, section 7: official ratings are rounded by "conventional rounding
    rules", i.e. half up: 1643.5 -> 1644 and 1642.5 -> 1643 (Python's round() gives 1642
    for the second, rounding half to even)."""
    assert round_half_up(1643.5) == 1644
    assert round_half_up(1642.5) == 1643
    # (Python: round(1642.5) == 1642, the trap this guards against.)


def test_rounded_rating_examples() -> None:
    """2025 text, section 1: stored 1643.759 and 1431.034 are published 1644 and 1431."""
    assert rounded_rating(1643.759) == 1644
    assert rounded_rating(1431.034) == 1431
    assert isinstance(rounded_rating(1643.759), int)


# --- Sections 2.1, 2.2 and 6: conversions ------------------------------------------


@pytest.mark.parametrize(
    ("fide", "expected"),
    [
        (1500, 1590.0),  # 180 + 0.94 x 1500 = 180 + 1410
        (2000, 2060.0),  # 180 + 0.94 x 2000 = 180 + 1880 (FIDE <= 2000)
        (2000.5, 2060.51),  # 20 + 1.02 x 2000.5 = 20 + 2040.51 (FIDE > 2000)
        (2400, 2468.0),  # 20 + 1.02 x 2400 = 20 + 2448
    ],
)
def test_fide_2017(fide: float, expected: float) -> None:
    """2017 text, section 2.6: 180 + 0.94 FIDE if FIDE <= 2000, else 20 + 1.02 FIDE."""
    assert conversions.fide_2017(fide) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("fide", "expected"),
    [
        (1000, 493.7),  # -1073 + 1.5667 x 1000 = -1073 + 1566.7
        (1500, 1277.05),  # -1073 + 2350.05
        (2000, 2060.4),  # -1073 + 3133.4 (FIDE <= 2000)
        (2000.5, 2060.51),  # 20 + 1.02 x 2000.5
        (2500, 2570.0),  # 20 + 2550
    ],
)
def test_fide_2024(fide: float, expected: float) -> None:
    """2025 text, section 2.1 (as of March 1, 2024): -1073 + 1.5667 FIDE if FIDE <= 2000,
    else 20 + 1.02 FIDE."""
    assert conversions.fide_2024(fide) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("fide", "old", "new"),
    [
        (1500, 1700.0, 1447.05),  # 560 + 0.76 x 1500 = 1700; -453 + 1.2667 x 1500 = 1447.05
        (2000, 2080.0, 2080.4),  # 560 + 1520 = 2080; -453 + 2533.4 = 2080.4
        (2000.5, 2080.5, 2080.5),  # 80 + 1.0 x 2000.5 in both
        (2300, 2380.0, 2380.0),  # 80 + 2300
    ],
)
def test_youth_fide(fide: float, old: float, new: float) -> None:
    """Section 6, youth events: 2017 text 560 + 0.76 FIDE (<= 2000), 80 + FIDE (above);
    2025 text (effective March 1, 2024) -453 + 1.2667 FIDE (<= 2000), 80 + FIDE (above)."""
    assert conversions.youth_fide_2017(fide) == pytest.approx(old, abs=1e-9)
    assert conversions.youth_fide_2024(fide) == pytest.approx(new, abs=1e-9)


@pytest.mark.parametrize(
    ("cfc", "expected"),
    [
        (1200, 1110.0),  # 1200 - 90
        (1500, 1410.0),  # 1500 - 90 (CFC <= 1500)
        (1501, 1411.1),  # 1.1 x 1501 - 240 = 1651.1 - 240
        (2000, 1960.0),  # 2200 - 240
    ],
)
def test_cfc_2017(cfc: float, expected: float) -> None:
    """2017 text, section 2.6 (and 2024 text, 2.2): CFC - 90 if CFC <= 1500, else
    1.1 CFC - 240."""
    assert conversions.cfc_2017(cfc) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("cfc", "expected"),
    [
        (1000, 700.0),  # -115 + 0.815 x 1000 = -115 + 815
        (1149, 821.435),  # -115 + 0.815 x 1149 = -115 + 936.435 (CFC < 1150)
        (1150, 822.0),  # -650 + 1.28 x 1150 = -650 + 1472 (1150 <= CFC < 1610)
        (1609, 1409.52),  # -650 + 1.28 x 1609 = -650 + 2059.52
        (1610, 1414.1),  # -856 + 1.41 x 1610 = -856 + 2270.1 (1610 <= CFC < 2000)
        (1999, 1962.59),  # -856 + 1.41 x 1999 = -856 + 2818.59
        (2000, 1960.0),  # -240 + 1.1 x 2000 (2000 <= CFC)
        (2500, 2510.0),  # -240 + 2750
    ],
)
def test_cfc_2025(cfc: float, expected: float) -> None:
    """2025 text, section 2.2 (effective Jan 1, 2025): four pieces split at 1150, 1610 and
    2000, each lower bound inclusive."""
    assert conversions.cfc_2025(cfc) == pytest.approx(expected, abs=1e-9)


def test_conversion_dates() -> None:
    """2025 text, section 8: "2024-03-01 Update FIDE-to-USChess conversion formulas" and
    "2025-01-01 Update CFC-to-USChess conversion formulas" (start date on or after)."""
    assert rules_for(date(2024, 2, 29)).fide_conversion == "2017"
    assert rules_for(date(2024, 3, 1)).fide_conversion == "2024"
    assert rules_for(date(2024, 12, 31)).cfc_conversion == "2017"
    assert rules_for(date(2025, 1, 1)).cfc_conversion == "2025"
    assert conversions.FIDE["2024"](1500) == pytest.approx(1277.05)
    assert conversions.CFC["2025"](1000) == pytest.approx(700.0)


# --- Section 2.3: age-based ratings ------------------------------------------------


def test_age_based_rating() -> None:
    """2025 text, section 2.3: Age = (end - birth)/365.25; rating 50 x Age for 2..26.

    Hand: 2010-01-01 to 2020-01-01 is 10 x 365 + 2 leap days (2012, 2016) = 3652 days;
    rating = 50 x 3652/365.25 = 499.658.
    """
    for rule in ("adult", "membership"):
        rating, _ = conversions.age_based_rating(date(2010, 1, 1), None, date(2020, 1, 1), rule)
        assert rating == pytest.approx(50 * 3652 / 365.25)


def test_age_based_rating_above_26() -> None:
    """2025 text, section 2.3: 1300 if Age > 26. Hand: 1990-01-01 to 2020-01-01 is
    10958 days = 30.0 years > 26. At Age = 26 exactly 50 x 26 = 1300 as well."""
    rating, _ = conversions.age_based_rating(date(1990, 1, 1), False, date(2020, 1, 1),
                                             "membership")
    assert rating == 1300


def test_age_based_through_initial_rating() -> None:
    """2017 text, section 2.1 item 4 (no other rating): the age-based rating with N = 0.
    Same hand value as above, 50 x 3652/365.25."""
    player = Player(1, "1", birth_date=date(2010, 1, 1))
    day = date(2020, 1, 1)
    init = initial_rating(player, R, rules_for(day), day)
    assert init.games == 0
    assert init.rating == pytest.approx(50 * 3652 / 365.25)


@pytest.mark.parametrize("rule_day", [date(2017, 6, 1), date(2025, 1, 1)])
def test_missing_birth_date(rule_day: date) -> None:
    """Every text: no birth date gives 1300 for an inferred adult (2017 text, 2.6; 2025
    text, 2.3) and otherwise 750 (2017 text, last item of each list; 2025 text, 2.3)."""
    rules = rules_for(rule_day)
    adult = Player(1, "1", adult=True)
    child = Player(2, "2", adult=False)
    unknown = Player(3, "3")
    assert initial_rating(adult, R, rules, rule_day).rating == 1300
    assert initial_rating(child, R, rules, rule_day).rating == 750
    assert initial_rating(unknown, R, rules, rule_day).rating == 750
    assert initial_rating(adult, R, rules, rule_day).games == 0


def test_age_under_three_adult_rule() -> None:
    """2017 text, section 2.6: an Age under 3 is a miscoded birth date and "such a player
    is also treated as a 26-year old": 1300 whatever the adult flag.

    Hand: 2016-01-01 to 2017-06-01 is 517 days = 1.42 years < 3.
    """
    day = date(2017, 6, 1)
    rules = rules_for(day)
    assert rules.missing_age_rule == "adult"
    for adult in (True, False, None):
        player = Player(1, "1", birth_date=date(2016, 1, 1), adult=adult)
        assert initial_rating(player, R, rules, day).rating == 1300


@pytest.mark.parametrize("day", [date(2024, 8, 1), date(2025, 1, 1)])
def test_age_under_three_membership_rule(day: date) -> None:
    """2024 and 2025 texts, section 2.3: with an Age under 3, an inferred adult is treated
    as 26 (1300), anyone else as 15 (750). Hand: born 2023-06-01, the age on 2024-08-01 is
    427 days = 1.17 years and on 2025-01-01 580 days = 1.59 years, both < 3."""
    rules = rules_for(day)
    assert rules.missing_age_rule == "membership"
    born = date(2023, 6, 1)
    assert initial_rating(Player(1, "1", birth_date=born, adult=True), R, rules, day).rating == 1300
    assert initial_rating(Player(1, "1", birth_date=born, adult=False), R, rules, day).rating == 750
    assert initial_rating(Player(1, "1", birth_date=born), R, rules, day).rating == 750
