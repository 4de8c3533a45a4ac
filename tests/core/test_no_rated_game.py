"""A player with no rated game keeps the pre-event rating (issue 13): the published record
shows the rating unchanged, so `post` is the pre-event rating, with m = 0 and the reason.
An unrated player with no rated game has no rating to keep."""

from __future__ import annotations

from datetime import date

from uscf_ratings.core.model import Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import outcomes_of

DAY = date(2026, 8, 1)


def section() -> Section:
    # pairs 1 and 2 play; 3 (rated) and 4 (unrated) win and lose only by forfeit
    return Section(1, DAY, DAY, time_control="G/60;d5", players=(
        Player(1, "1", "One", ratings={System.R: Rating(1600.0, 40)},
               results=(Result(1, "W", 2), Result(2, "X", 4))),
        Player(2, "2", "Two", ratings={System.R: Rating(1500.0, 40)},
               results=(Result(1, "L", 1), Result(2, "F", 3))),
        Player(3, "3", "Three", ratings={System.R: Rating(1433.21, 12)},
               results=(Result(1, "U"), Result(2, "X", 2))),
        Player(4, "4", "Four", results=(Result(1, "U"), Result(2, "F", 1))),
    ))


def test_a_rated_player_without_a_rated_game_keeps_the_rating() -> None:
    three = rate_section(section()).player(3).ratings[System.R]
    assert (three.pre, three.post, three.m) == (1433.21, 1433.21, 0)
    assert three.post_rounded == 1433 and three.games_after == 12
    assert three.formula == "none" and three.reason == "no rated game in this event"


def test_an_unrated_player_without_a_rated_game_gets_no_rating() -> None:
    assert System.R not in rate_section(section()).player(4).ratings


def test_the_office_stores_no_row_for_a_player_without_a_rated_game() -> None:
    """Nothing happened to the rating: the history shows only events with games."""
    stored = {o.pair for o in outcomes_of(rate_section(section()))}
    assert stored == {1, 2}
