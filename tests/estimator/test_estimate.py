"""The estimator's section: built as documented, and rated by the engine, unchanged.

Expected numbers are worked by hand in each test from the 2025 text: N* (section 3),
K and E (section 4.2).
"""

from __future__ import annotations

from datetime import date

import pytest

from uscf_ratings import rate_section
from uscf_ratings.core.model import System
from uscf_ratings.estimator.estimate import (
    AGE_GROUPS,
    ASSUMED_GAMES,
    EstimateInput,
    Game,
    OtherRating,
    assign_results,
    birth_date_for,
    estimate,
    order_matters,
    section_for,
)
from uscf_ratings.estimator.form import FormError, parse

DAY = date(2026, 8, 1)
GAMES = (Game(1600.0, "W"), Game(1500.0, "D", 12), Game(1450.0, "L"))
#: N* for R0 = 1500 (section 3): 1069^2 = 1,142,761; x 0.00000739 = 8.44500; + 0.662 =
#: 9.10700; sqrt = 3.01778; 50 / 3.01778 = 16.5685.
N_STAR_1500 = 16.5685


def test_one_opponent_per_game_each_playing_only_that_round() -> None:
    section = section_for(EstimateInput(System.R, DAY, 1500.0, 40, games_played=GAMES))
    you, *opponents = section.players
    assert [f"{r.code}{r.opponent}" for r in you.results] == ["W2", "D3", "L4"]
    assert [[r.code for r in o.results] for o in opponents] == [
        ["L", "U", "U"], ["U", "D", "U"], ["U", "U", "W"]]
    assert [o.ratings[System.R].games for o in opponents] == [30, 12, 30]
    assert section.systems == (System.R,) and section.start_date == DAY


def test_the_numbers_are_rate_section_s() -> None:
    inp = EstimateInput(System.R, DAY, 1500.0, 40, games_played=GAMES)
    direct = rate_section(section_for(inp)).player(1).ratings[System.R]
    assert estimate(inp).rating == direct
    assert estimate(inp).explanation["post"] == direct.post


def test_an_online_system_gives_an_online_section() -> None:
    inp = EstimateInput(System.OB, DAY, 1500.0, 40, games_played=GAMES)
    assert section_for(inp).online
    assert list(estimate(inp).result.systems) == [System.OB]


@pytest.mark.parametrize(("group", "expected"), [
    ("unknown", 750.0), ("adult", 1300.0), ("10", 525.0), ("25", 1275.0)])
def test_age_groups_give_the_age_based_rating(group: str, expected: float) -> None:
    inp = EstimateInput(System.Q, DAY, age_group=group, games_played=GAMES)
    initial = estimate(inp).rating.initial
    assert initial is not None and initial.method == "age"
    assert initial.rating == pytest.approx(expected, abs=0.1)


def test_every_age_group_has_a_birth_date_or_none() -> None:
    for group in AGE_GROUPS:
        born = birth_date_for(group, DAY)
        assert (born is None) == (not group.isdigit())


def test_other_ratings_feed_the_initial_rating() -> None:
    inp = EstimateInput(System.Q, DAY, others=(OtherRating("R", 1700.0, 50),
                                               OtherRating("CFC", 1800.0)),
                        games_played=GAMES)
    initial = estimate(inp).rating.initial
    assert initial is not None and initial.method == "blended"
    assert {s.source for s in initial.sources} == {"R", "CFC"}


def test_a_rated_player_s_other_ratings_are_not_used() -> None:
    plain = EstimateInput(System.R, DAY, 1500.0, 40, games_played=GAMES)
    with_fide = EstimateInput(System.R, DAY, 1500.0, 40, others=(OtherRating("FIDE", 2000.0),),
                              games_played=GAMES)
    assert estimate(plain).rating.post == estimate(with_fide).rating.post


def test_the_form_is_read_into_an_input() -> None:
    values = {"system": "Q", "date": "2026-08-01", "status": "unrated", "age_group": "9",
              "other_system": "R", "other_rating": "1200", "other_games": "8", "fide": "1400"}
    lists = {"opp_rating": ["1300", "", "1250.5"], "opp_games": ["", "", "10"],
             "result": ["W", "W", "d"]}
    inp = parse(values, lists, max_games=10)
    assert inp.unrated and inp.system is System.Q and inp.day == DAY
    assert inp.games_played == (Game(1300.0, "W"), Game(1250.5, "D", 10))
    assert inp.others == (OtherRating("R", 1200.0, 8), OtherRating("FIDE", 1400.0))


def test_form_problems_name_their_fields() -> None:
    with pytest.raises(FormError) as caught:
        parse({"system": "Z", "date": "2026-02-30", "rating": "x"},
              {"opp_rating": ["1500"], "result": ["W"]}, max_games=10)
    wheres = [i.where for i in caught.value.issues]
    assert wheres == ["system", "date", "rating"]


# --- 1. N is optional for a rated player -------------------------------------------------


def test_a_rating_without_n_is_read_as_n_not_given() -> None:
    inp = parse({"rating": "1500", "games": ""}, {"opp_rating": ["1600"], "result": ["W"]}, 10)
    assert inp.rating == 1500.0 and inp.games is None


def test_a_rating_without_n_counts_as_26_games_and_says_so() -> None:
    rating = estimate(EstimateInput(System.R, DAY, 1500.0, None, games_played=GAMES)).rating
    assert ASSUMED_GAMES == 26  # the fewest games of an established rating (section 1)
    assert rating.n == 26 and rating.pre_games == 26
    assert rating.games_after == 26 + 3
    assert any("assumed N = 26" in note for note in rating.notes)


def test_without_n_a_1500_gets_what_every_established_1500_gets() -> None:
    """N' = min(N, N*) and N* = 16.5685 for 1500, so N = 26 and N = 40 give the same N'."""
    unknown = estimate(EstimateInput(System.R, DAY, 1500.0, None, games_played=GAMES))
    forty = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=GAMES))
    assert unknown.rating.n_eff == pytest.approx(N_STAR_1500, abs=1e-4)
    assert unknown.rating.post == forty.rating.post
    note = unknown.parts[0].notes[0]
    assert "N* = 16.57" in note and "every established player" in note


def test_without_n_a_2300_gets_the_k_of_26_games() -> None:
    """N* for 2300: 269^2 = 72,361; x 0.00000739 = 0.53475; + 0.662 = 1.19675; sqrt =
    1.09396; 50 / 1.09396 = 45.71. So N' = min(26, 45.71) = 26 and with four games
    K = 800 / (26 + 4) = 26.667 (section 4.2)."""
    games = tuple(Game(r, "D") for r in (2250.0, 2300.0, 2350.0, 2400.0))
    est = estimate(EstimateInput(System.R, DAY, 2300.0, None, games_played=games))
    step4 = est.rating.step(4)
    assert est.rating.n_eff == 26
    assert step4 is not None and step4.k == pytest.approx(800 / 30, abs=1e-9)
    assert "min(26, 45.71) = 26" in est.parts[0].notes[0]


def test_n_without_a_rating_is_a_form_problem() -> None:
    with pytest.raises(FormError) as caught:
        parse({"rating": "", "games": "30"}, {"opp_rating": ["1600"], "result": ["W"]}, 10)
    assert [i.where for i in caught.value.issues] == ["rating"]
    assert "give your rating" in caught.value.issues[0].message


def test_an_unrated_player_has_no_n_to_assume() -> None:
    est = estimate(EstimateInput(System.Q, DAY, age_group="adult", games_played=GAMES))
    assert est.parts[0].notes == ()  # nothing assumed: Step 1 gives the rating and its N


# --- 2. the total-score mode ----------------------------------------------------------------


def test_a_total_score_is_won_against_the_lowest_rated() -> None:
    """3.5 of 5: wins against the three lowest-rated, the draw with the next, a loss to
    the highest; the games keep the order they were given in."""
    opponents = tuple(Game(r, "") for r in (1700.0, 1400.0, 1800.0, 1500.0, 1450.0))
    assert [g.result for g in assign_results(opponents, 3.5)] == ["D", "W", "L", "W", "W"]
    assert [g.result for g in assign_results(opponents, 0.0)] == ["L"] * 5
    assert [g.result for g in assign_results(opponents, 5.0)] == ["W"] * 5


def test_a_total_score_rates_exactly_as_the_results_it_assumes() -> None:
    opponents = (Game(1600.0, ""), Game(1400.0, ""), Game(1500.0, ""))
    total = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=opponents,
                                   total=1.5))
    by_game = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=(
        Game(1600.0, "L"), Game(1400.0, "W"), Game(1500.0, "D"))))
    assert total.rating == by_game.rating
    assert [g.result for g in total.input.played] == ["L", "W", "D"]


def test_step_4_of_a_total_score_is_the_standard_formula_on_s_alone() -> None:
    """1.5 of 2 against 1600 and 1500, from 1500 (N = 40): N' = 16.5685, K = 800/18.5685
    = 43.0837; E = 1/(1 + 10^(100/400)) + 0.5 = 0.359935 + 0.5 = 0.859935; no bonus with
    two games; Step 4 = 1500 + 43.0837 x 0.640065 = 1527.576, whichever game was won."""
    opponents = (Game(1600.0, ""), Game(1500.0, ""))
    est = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=opponents, total=1.5))
    step4 = est.rating.step(4)
    assert step4 is not None and step4.rating == pytest.approx(1527.576, abs=0.01)
    assert est.other_order is not None  # the other order: the win against the 1600
    other = est.other_order.player(1).ratings[System.R].step(4)
    assert other is not None and other.rating == pytest.approx(step4.rating, abs=1e-9)


def test_beating_the_stronger_opponent_rates_higher_in_step_5() -> None:
    """Step 5 counts the beaten 1600 at his Step 4 rating, which his loss lowers more than
    a loss to the 1500 lowers the 1500 (he expected more): E falls, the rating rises."""
    opponents = (Game(1600.0, ""), Game(1500.0, ""))
    est = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=opponents, total=1.5))
    part = est.parts[0]
    assert part.other_order is not None and part.rating.post is not None
    assert part.other_order.post is not None and part.other_order.post > part.rating.post


def test_the_order_matters_only_between_unlike_opponents() -> None:
    alike = tuple(Game(1500.0, "") for _ in range(3))
    assert not order_matters(EstimateInput(System.R, DAY, 1500.0, 40, games_played=alike,
                                           total=1.0))
    assert estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=alike,
                                  total=1.0)).other_order is None
    unlike = alike[:2] + (Game(1600.0, ""),)
    assert not order_matters(EstimateInput(System.R, DAY, 1500.0, 40, games_played=unlike,
                                           total=3.0))  # every order: three wins
    assert order_matters(EstimateInput(System.R, DAY, 1500.0, 40, games_played=unlike,
                                       total=1.0))


def test_the_total_score_form_takes_no_results() -> None:
    inp = parse({"rating": "1500", "mode": "total", "score": "1.5"},
                {"opp_rating": ["1600", "1500"], "result": ["", "nonsense"]}, 10)
    assert inp.total == 1.5 and [g.result for g in inp.games_played] == ["", ""]


@pytest.mark.parametrize(("score", "message"), [
    ("", "give your total score"), ("2.7", "2.7 is not a whole or half point"),
    ("3", "3 points in 2 games: at most 2"), ("-1", "-1 is outside"), ("x", "'x' is not a number")])
def test_a_total_score_is_from_0_to_the_games_in_halves(score: str, message: str) -> None:
    with pytest.raises(FormError) as caught:
        parse({"rating": "1500", "mode": "total", "score": score},
              {"opp_rating": ["1600", "1500"]}, 10)
    assert [i.where for i in caught.value.issues] == ["total score"]
    assert message in caught.value.issues[0].message


def test_the_total_score_note_says_what_was_assumed() -> None:
    opponents = (Game(1600.0, ""), Game(1400.0, ""), Game(1500.0, ""), Game(1700.0, ""))
    est = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=opponents, total=1.5))
    assert "assumes 1 win, 1 draw and 2 losses" in est.notes[0]


# --- 3. Regular and Quick at once -----------------------------------------------------------


def test_a_dual_rated_estimate_is_a_section_rated_in_regular_and_quick() -> None:
    inp = EstimateInput(System.R, DAY, 1500.0, 40, games_played=(
        Game(1600.0, "W", opponent_quick=1550.0), Game(1500.0, "D")), dual=True,
        quick_rating=1450.0, quick_games=30)
    section = section_for(inp)
    you, first, second = section.players
    assert section.systems == (System.R, System.Q)
    assert you.ratings[System.Q].rating == 1450.0 and you.ratings[System.Q].games == 30
    assert first.ratings[System.Q].rating == 1550.0
    assert second.ratings[System.Q].rating == 1500.0  # not given: as his Regular rating
    assert estimate(inp).result.dual


def test_the_dual_rated_k_applies_to_the_regular_rating_only() -> None:
    """From 2300 (N = 40; N* = 45.71, so N' = 40) with four games, section 4.2:
    Regular, dual-rated: K = 800 (6.5 - 0.0025 x 2300) / (40 + 4) = 800 x 0.75 / 44 = 13.636;
    Quick from 2250 (N = 30; N* = 50/sqrt(0.662 + 0.00000739 x 319^2) = 42.05, so
    N' = 30): K = 800 / 34 = 23.529; Regular alone: K = 800 / 44 = 18.182."""
    games = tuple(Game(r, "D") for r in (2250.0, 2300.0, 2350.0, 2400.0))
    dual = estimate(EstimateInput(System.R, DAY, 2300.0, 40, games_played=games, dual=True,
                                  quick_rating=2250.0, quick_games=30))
    alone = estimate(EstimateInput(System.R, DAY, 2300.0, 40, games_played=games))
    ks = {s: dual.of(s).step(4) for s in (System.R, System.Q)}
    assert ks[System.R] is not None and ks[System.R].k == pytest.approx(13.636, abs=1e-3)
    assert ks[System.Q] is not None and ks[System.Q].k == pytest.approx(23.529, abs=1e-3)
    step = alone.rating.step(4)
    assert step is not None and step.k == pytest.approx(18.182, abs=1e-3)
    assert any("dual-rated event" in note for note in dual.parts[0].notes)


def test_a_dual_estimate_without_a_quick_rating_starts_quick_from_step_1() -> None:
    est = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=GAMES, dual=True))
    quick = est.of(System.Q)
    assert quick.pre is None and quick.initial is not None
    assert {s.source for s in quick.initial.sources} == {"R"}
    assert "You gave no Quick rating" in est.parts[1].notes[0]


def test_the_dual_form_reads_both_ratings_and_the_opponents_quick_ratings() -> None:
    inp = parse({"system": "R+Q", "rating": "1500", "games": "40", "quick_rating": "1450"},
                {"opp_rating": ["1600", "1500"], "opp_quick": ["1550", ""],
                 "result": ["W", "D"]}, 10)
    assert inp.dual and inp.system is System.R and inp.systems == (System.R, System.Q)
    assert (inp.quick_rating, inp.quick_games) == (1450.0, None)
    assert [g.opponent_quick for g in inp.games_played] == [1550.0, None]


def test_a_dual_event_takes_the_quick_rating_in_its_own_field() -> None:
    with pytest.raises(FormError) as caught:
        parse({"system": "R+Q", "status": "unrated", "other_system": "Q", "other_rating": "1400"},
              {"opp_rating": ["1600"], "result": ["W"]}, 10)
    assert [i.where for i in caught.value.issues] == ["other system"]


# --- 4. the performance ratings of the games ------------------------------------------------


def test_both_performance_ratings_of_the_games() -> None:
    """A win against 1800 and a draw with 1000 (S = 1.5, wins - losses = 1):
    the algorithm of 400: (1800 + 1000 + 400 x 1) / 2 = 1600; the 2025 text: the 1000
    counts fully from R = 1400, so 1 + 0.5 + (R - 1800)/800 = 1.5 at R = 1800."""
    est = estimate(EstimateInput(System.R, DAY, 1500.0, 40, games_played=(
        Game(1800.0, "W"), Game(1000.0, "D"))))
    part = est.parts[0]
    assert part.by_400 == pytest.approx(1600.0)
    assert part.by_2025.single == pytest.approx(1800.0)


def test_a_dual_estimate_has_a_performance_in_each_system() -> None:
    """Quick opponents 1700 (given) and 1500 (as Regular), a win and a loss:
    (1700 + 1500 + 400 x 0) / 2 = 1600; Regular: (1600 + 1500) / 2 = 1550."""
    est = estimate(EstimateInput(System.R, DAY, 1500.0, 40, dual=True, games_played=(
        Game(1600.0, "W", opponent_quick=1700.0), Game(1500.0, "L"))))
    assert [p.by_400 for p in est.parts] == [pytest.approx(1550.0), pytest.approx(1600.0)]
