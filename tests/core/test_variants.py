"""Variants of the rules: every constant of the formulas is data a variant changes
(core/constants.py, core/variants.py), and a changed number reaches the rating.

Expected values are hand calculations shown beside each assertion.
"""

from __future__ import annotations

import math
from datetime import date

import pytest

from uscf_ratings.core.constants import DOCUMENTED, Constants
from uscf_ratings.core.formulas import k_factor, n_star, pwe, standard_rating
from uscf_ratings.core.kernels import absolute_floor, peak_floor, special_walk
from uscf_ratings.core.model import Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.rules import RULE_SETS, rules_for
from uscf_ratings.core.variants import FIELDS, Variant, VariantError


def test_documented_values_are_the_texts() -> None:
    """2025 text: N* (section 3), K = 800/(N' + m) and the dual-rated K (4.2), m' =
    max(m, 4) (4.2), the special formula's 400 and 2700 (4.1), the floors (5), the blended
    initialization's 10, 5, 6, 350 and .06 (2)."""
    c = DOCUMENTED
    assert (c.n_star_games, c.n_star_a, c.n_star_b, c.n_star_centre, c.n_star_top) == \
        (50.0, 0.662, 0.00000739, 2569.0, 2355.0)
    assert (c.k_numerator, c.dual_k_from, c.dual_k_a, c.dual_k_b, c.dual_k_top,
            c.dual_k_top_numerator) == (800.0, 2200.0, 6.5, 0.0025, 2500.0, 200.0)
    assert (c.bonus_min_games, c.bonus_m_floor, c.pwe_width, c.special_cap,
            c.special_max_games, c.step_floor) == (3.0, 4.0, 400.0, 2700.0, 8.0, 100.0)
    assert (c.absolute_floor, c.absolute_floor_cap, c.absolute_floor_win,
            c.absolute_floor_draw, c.absolute_floor_event) == (100.0, 150.0, 4.0, 2.0, 1.0)
    assert (c.peak_floor_drop, c.peak_floor_lowest, c.peak_floor_highest, c.olm_floor,
            c.olm_games, c.established_after) == (200.0, 1200.0, 2100.0, 2200.0, 300.0, 25.0)
    assert (c.init_game_factor, c.init_other_game_factor, c.init_z_cap, c.init_z_scale,
            c.init_staleness, c.init_games_cap) == (10.0, 5.0, 6.0, 350.0, 0.06, 10.0)
    assert all(rs.constants == DOCUMENTED for rs in RULE_SETS)  # the same at every date


def test_changed_constants_reach_each_formula() -> None:
    """Each changed number, by hand:
    - N*(1700) with 40 games in place of 50: 40/sqrt(0.662 + 0.00000739 x 869^2)
      = 40/sqrt(6.2427) = 16.01;
    - K with numerator 700, N' = 6, m = 4: 700/10 = 70;
    - PWe(1600, 1500) with a width of 500: 0.5 + 100/1000 = 0.6;
    - AF with 5 a win and a cap of 200, 20 wins: min(100 + 100, 200) = 200;
    - the peak floor with a drop of 300: 1941 - 300 = 1641, level 1600;
    - the special cap at 2600: five wins over 2400s from R0 = 2400 with N' = 0 would
      reach 2800 (every PWe 1 at R >= 2800), capped to 2600."""
    c = DOCUMENTED._replace(n_star_games=40.0)
    assert n_star(1700, c) == pytest.approx(40 / math.sqrt(0.662 + 0.00000739 * 869 ** 2))
    assert n_star(1700, c) == pytest.approx(16.01, abs=0.005)
    assert k_factor(6, 4, c=DOCUMENTED._replace(k_numerator=700.0)) == pytest.approx(70.0)
    assert pwe(1600, 1500, DOCUMENTED._replace(pwe_width=500.0)) == pytest.approx(0.6)
    wide = DOCUMENTED._replace(absolute_floor_win=5.0, absolute_floor_cap=200.0)
    assert absolute_floor(20, 0, 0, wide) == 200.0
    assert peak_floor(1941.0, DOCUMENTED._replace(peak_floor_drop=300.0)) == 1600.0
    capped = DOCUMENTED._replace(special_cap=2600.0)
    rating, *_ = special_walk(2400.0, 0.0, [2400.0] * 5, 5, 5.0, 0, False, [0.0] * 12, capped)
    assert rating == 2600.0
    rating, *_ = special_walk(2400.0, 0.0, [2400.0] * 5, 5, 5.0, 0, False, [0.0] * 12,
                              DOCUMENTED)
    assert rating == 2700.0  # 2800 capped by the documented 2700


def test_bonus_m_floor() -> None:
    """Section 4.2's m' = max(m, 4), changed to max(m, 9): three wins against 1500 from
    R0 = 1500 with K = 50 and B = 10: K(S - E) = 50 x 1.5 = 75; bonus = 75 - 10 x sqrt(9)
    = 45 (the documented m' = 4 gives 75 - 20 = 55)."""
    out = standard_rating(1500, [1500] * 3, 3, 50, 10, DOCUMENTED._replace(bonus_m_floor=9.0))
    assert out.bonus == pytest.approx(45)
    assert standard_rating(1500, [1500] * 3, 3, 50, 10).bonus == pytest.approx(55)


def test_a_variant_changes_dated_fields_and_constants_at_every_date() -> None:
    variant = Variant("B = 16, K 700", {"bonus_threshold": 16, "k_numerator": 700})
    for day in (date(2014, 1, 1), date(2019, 6, 1), date(2025, 3, 1)):
        rules = variant.rules_for(day)
        assert rules.bonus_threshold == 16.0
        assert rules.constants.k_numerator == 700.0
        documented = rules_for(day)
        assert rules.initialization == documented.initialization  # the rest by date
        assert rules.constants.n_star_top == 2355.0
    assert Variant("documented").rules_for(date(2019, 6, 1)) is rules_for(date(2019, 6, 1))


@pytest.mark.parametrize(("changes", "message"), [
    ({"bonus": 8}, "no rule field 'bonus'"),
    ({"bonus_threshold": "ten"}, "bonus_threshold must be a number, not 'ten'"),
    ({"k_numerator": True}, "k_numerator must be a number, not True"),
    ({"initialization": "random"}, "initialization must be one of blended, priority"),
    ({"cfc_needs_residency": 1}, "cfc_needs_residency must be true or false, not 1"),
    ({"absolute_floor_systems": ["R", "X"]}, "absolute_floor_systems must be a list of "
                                             "systems"),
])
def test_a_variant_refuses_what_is_not_a_rule(changes: dict[str, object], message: str
                                              ) -> None:
    with pytest.raises(VariantError, match=message):
        Variant("v", changes)


def test_every_constant_is_a_field_a_variant_may_change() -> None:
    assert set(Constants._fields) <= set(FIELDS)
    assert "bonus_threshold" in FIELDS and "effective" not in FIELDS


def _round_robin(day: date) -> Section:
    """Four established players (N = 30), all 1500: A beats B, C and D; B, C and D draw
    among themselves."""
    games = {1: [(2, "W"), (3, "W"), (4, "W")], 2: [(1, "L"), (4, "D"), (3, "D")],
             3: [(4, "D"), (1, "L"), (2, "D")], 4: [(3, "D"), (2, "D"), (1, "L")]}
    players = tuple(Player(pair, f"1000000{pair}", f"P{pair}",
                           ratings={System.R: Rating(1500.0, 30)},
                           results=tuple(Result(n, code, opponent)
                                         for n, (opponent, code) in enumerate(games[pair], 1)))
                    for pair in games)
    return Section(1, day, day, players, "RR", systems=(System.R,))


def test_a_variant_rates_a_section_by_its_numbers() -> None:
    """A scores 3 of 3 against 1500s from R0 = 1500, N = 30: N' = N*(1500) =
    50/sqrt(0.662 + 0.00000739 x 1069^2) = 50/sqrt(9.1070) = 16.568; K = 800/(16.568 + 3)
    = 40.883; K(S - E) = 40.883 x 1.5 = 61.32. The bonus (m' = 4): B = 10 gives 61.32 -
    20 = 41.32 in Step 4, B = 8 gives 61.32 - 16 = 45.32: 4 points more. The others score 1 of 3
    (E = 1.5) and earn no bonus: their Step 4 ratings are the same under both, and so is
    A's K(S - E) in Step 5; A's Step 5 rating differs by the bonus alone."""
    section = _round_robin(date(2025, 3, 1))
    documented = rate_section(section)
    b8 = rate_section(section, Variant("B = 8", {"bonus_threshold": 8}).rules_for(
        section.start_date))
    a10 = documented.players[0].ratings[System.R]
    a8 = b8.players[0].ratings[System.R]
    n_eff = 50 / math.sqrt(0.662 + 0.00000739 * 1069 ** 2)
    k = 800 / (n_eff + 3)
    step4 = next(s for s in a10.steps if s.step == 4)
    assert step4.bonus == pytest.approx(1.5 * k - 20)  # 41.32
    assert a8.post - a10.post == pytest.approx(4.0)


def test_established_after_reaches_the_priority_lists() -> None:
    """2017 text, 2.3: an OTB Blitz rating is first taken from an *established* Regular
    rating, and from FIDE before a Regular rating that is not established. A Regular
    rating on 30 games is established at the documented 25 and not at 40: the FIDE rating
    (1800, converted by the 2017 table to 180 + 0.94 x 1800 = 1872) comes first then."""
    from uscf_ratings.core.initial import initial_rating
    from uscf_ratings.core.model import FideRating

    player = Player(1, "12345678", ratings={System.R: Rating(1500.0, 30)},
                    fide=FideRating(1800.0))
    day = date(2019, 6, 1)
    documented = initial_rating(player, System.B, rules_for(day), day)
    assert (documented.rating, documented.games) == (1500.0, 10)
    later = initial_rating(player, System.B,
                           Variant("40", {"established_after": 40}).rules_for(day), day)
    assert later.rating == pytest.approx(1872.0) and later.games == 5
