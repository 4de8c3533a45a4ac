"""Step 1 (section 2): priority lists before 2020-06-01, blended initialization after."""

from __future__ import annotations

import math
from datetime import date

from uscf_ratings.core.initial import initial_rating
from uscf_ratings.core.model import CfcRating, FideRating, InitialRating, Player, Rating, System
from uscf_ratings.core.rules import rules_for

R, Q, B, OR, OQ, OB = System.R, System.Q, System.B, System.OR, System.OQ, System.OB
PRIORITY_DAY = date(2019, 5, 4)  # 2017 text's lists
BLENDED_DAY = date(2021, 5, 4)


def init(player: Player, system: System, day: date):  # type: ignore[no-untyped-def]
    return initial_rating(player, system, rules_for(day), day)


def test_regular_priority_fide_first() -> None:
    """2017 text 2.1 item 1: FIDE converted (180 + 0.94 x 1900 = 1966), N = 5 at 2150 or lower."""
    p = Player(1, "a", fide=FideRating(1900), ratings={Q: Rating(1500, 30)})
    got = init(p, R, PRIORITY_DAY)
    assert math.isclose(got.rating, 180 + 0.94 * 1900) and got.games == 5
    strong = init(Player(1, "a", fide=FideRating(2200)), R, PRIORITY_DAY)
    assert math.isclose(strong.rating, 20 + 1.02 * 2200) and strong.games == 10


def test_regular_priority_cfc_then_quick() -> None:
    """2.1 items 2 and 3: CFC (1400 - 90 = 1310, N = 0 at 1500 or lower), then a Quick
    rating with at least 4 games at N = 0."""
    got = init(Player(1, "a", cfc=CfcRating(1400), ratings={Q: Rating(1500, 30)}), R, PRIORITY_DAY)
    assert got.rating == 1310 and got.games == 0
    got = init(Player(1, "a", cfc=CfcRating(1600)), R, PRIORITY_DAY)
    assert math.isclose(got.rating, 1.1 * 1600 - 240) and got.games == 5
    got = init(Player(1, "a", ratings={Q: Rating(1500, 4)}), R, PRIORITY_DAY)
    assert got.rating == 1500 and got.games == 0
    too_few = init(Player(1, "a", ratings={Q: Rating(1500, 3)}, adult=True), R, PRIORITY_DAY)
    assert too_few.method == "age" and too_few.rating == 1300


def test_quick_priority_takes_regular_with_min10() -> None:
    """2.2 item 1: the Regular rating with at least 4 games, N = min(10, its games)."""
    got = init(Player(1, "a", ratings={R: Rating(1600, 7)}), Q, PRIORITY_DAY)
    assert got.rating == 1600 and got.games == 7
    got = init(Player(1, "a", ratings={R: Rating(1600, 70)}), Q, PRIORITY_DAY)
    assert got.games == 10


def test_blitz_priority_established_regular_before_fide() -> None:
    """2.3: an established Regular rating (N = 10) comes before FIDE; a provisional one
    comes after FIDE and CFC."""
    both = Player(1, "a", ratings={R: Rating(1700, 26)}, fide=FideRating(1800))
    assert init(both, B, PRIORITY_DAY).rating == 1700
    provisional = Player(1, "a", ratings={R: Rating(1700, 20)}, fide=FideRating(1800))
    assert math.isclose(init(provisional, B, PRIORITY_DAY).rating, 180 + 0.94 * 1800)
    only = init(Player(1, "a", ratings={R: Rating(1700, 20)}), B, PRIORITY_DAY)
    assert only.rating == 1700 and only.games == 10


def test_online_priority_lists() -> None:
    """2.4 and 2.5: online Quick takes online Blitz first, online Blitz takes online Quick
    first, each at N = 0."""
    p = Player(1, "a", ratings={OB: Rating(1100, 50), Q: Rating(1300, 50), R: Rating(1400, 50)})
    got = init(p, OQ, PRIORITY_DAY)
    assert got.rating == 1100 and got.games == 0
    p = Player(1, "a", ratings={Q: Rating(1300, 50), R: Rating(1400, 50)})
    assert init(p, OB, PRIORITY_DAY).rating == 1300


def test_age_rules_by_era() -> None:
    """2017 text 2.6: no birth date and adult -> 1300, else the default 750; age under 3 ->
    1300. 2024 text 2.3: age under 3 -> 1300 for an adult, else 750."""
    assert init(Player(1, "a", adult=True), R, PRIORITY_DAY).rating == 1300
    assert init(Player(1, "a"), R, PRIORITY_DAY).rating == 750
    baby = Player(1, "a", birth_date=date(2018, 1, 1))  # 1.34 years on 2019-05-04
    assert init(baby, R, PRIORITY_DAY).rating == 1300
    toddler = Player(1, "a", birth_date=date(2019, 1, 1))  # 2.34 years on 2021-05-04
    assert init(toddler, R, BLENDED_DAY).rating == 750
    # born 2009-05-04, 12 years on 2021-05-04: 4383 days / 365.25 x 50 = 600.0
    kid = init(Player(1, "a", birth_date=date(2009, 5, 4)), R, BLENDED_DAY)
    assert math.isclose(kid.rating, 4383 / 365.25 * 50) and kid.games == 0


def test_assigned_initial_rating_wins() -> None:
    """2017 text 2: the office may assign a converted initial rating (N = 0)."""
    p = Player(1, "a", fide=FideRating(2000), initial={R: InitialRating(1850, 0)})
    got = init(p, R, BLENDED_DAY)
    assert (got.rating, got.games, got.method) == (1850, 0, "assigned")


def test_blended_fide_game_factor_by_date() -> None:
    """2024 text 2.1: from 2024-03-01 FIDE converts as -1073 + 1.5667 F (F <= 2000) with
    Game Factor 5, 10 above 2000. A FIDE-only player dated at the section gets W = G,
    so N = G: 1900 -> 1903.73 with N = 5; 2100 -> 20 + 1.02 x 2100 = 2162 with N = 10."""
    day = date(2025, 3, 1)
    got = init(Player(1, "a", fide=FideRating(1900)), R, day)
    assert math.isclose(got.rating, -1073 + 1.5667 * 1900) and got.games == 5
    got = init(Player(1, "a", fide=FideRating(2100)), R, day)
    assert math.isclose(got.rating, 20 + 1.02 * 2100) and got.games == 10
    # before 2024-03-01 the old conversion, and the 2150 split as Game Factor (inferred)
    got = init(Player(1, "a", fide=FideRating(2100)), R, date(2023, 3, 1))
    assert math.isclose(got.rating, 20 + 1.02 * 2100) and got.games == 5


def test_blended_cfc_needs_residency_and_uses_2025_conversion() -> None:
    """2025 text 2.2: a Canadian resident's CFC 1500 -> -650 + 1.28 x 1500 = 1270, G = 5."""
    day = date(2025, 3, 1)
    got = init(Player(1, "a", cfc=CfcRating(1500)), R, day)
    assert math.isclose(got.rating, 1270) and got.games == 5
    visitor = init(Player(1, "a", adult=True, cfc=CfcRating(1500, canadian_resident=False)), R, day)
    assert visitor.method == "age" and visitor.rating == 1300


def test_blended_game_factor_capped_by_games() -> None:
    """2024 text 2 step 1: 'credited with 7 games under OTBR, the Game Factor on OTBR is
    reduced to 7'. Dated at the section (staleness 0), W = 7 and N = 7."""
    got = init(Player(1, "a", ratings={R: Rating(1500, 7)}), Q, BLENDED_DAY)
    assert got.rating == 1500 and got.games == 7
    assert got.sources[0].weight == 7


def test_blended_staleness_lowers_the_weight() -> None:
    """Staleness (2024 text 2 steps 2-4): a Regular rating 1000 computed 365.25 x 2 days
    before the end for a player without a birth date, not adult (P = 750):
    Z = min(6, 250/350), S = exp(.06 (Z - 6) x D/365.25); N = ceil(10 S)."""
    day = date(2021, 5, 4)
    rated = date(2019, 5, 4)  # 731 days
    got = init(Player(1, "a", ratings={R: Rating(1000, 40, date=rated)}), Q, day)
    z = 250 / 350
    s = math.exp(0.06 * (z - 6) * 731 / 365.25)
    assert math.isclose(got.sources[0].staleness_factor or 0, s)
    assert got.games == math.ceil(10 * s) and got.rating == 1000
