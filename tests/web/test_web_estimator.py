"""The estimator's section: built as documented, and rated by the engine, unchanged."""

from __future__ import annotations

from datetime import date

import pytest

from uscf_ratings import rate_section
from uscf_ratings.core.model import System
from uscf_ratings.web.estimator import (
    AGE_GROUPS,
    EstimateInput,
    Game,
    OtherRating,
    birth_date_for,
    estimate,
    section_for,
)
from uscf_ratings.web.estimator_form import parse
from uscf_ratings.web.problems import Problem

DAY = date(2026, 8, 1)
GAMES = (Game(1600.0, "W"), Game(1500.0, "D", 12), Game(1450.0, "L"))


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
    with pytest.raises(Problem) as caught:
        parse({"system": "Z", "date": "2026-02-30", "rating": "x"},
              {"opp_rating": ["1500"], "result": ["W"]}, max_games=10)
    wheres = [i.where for i in caught.value.issues]
    assert wheres == ["system", "date", "rating", "rating"]
    assert caught.value.status == 422
