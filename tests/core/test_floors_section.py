"""Floors applied to final ratings (section 5), through a whole section."""

from __future__ import annotations

from datetime import date

from uscf_ratings.core.model import Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section

R, OB = System.R, System.OB


def losing_section(rating: Rating, system: System = R, day: date = date(2026, 3, 1)) -> Section:
    """Player 1 loses three games to three established players rated 50 points higher."""
    players = [Player(1, "p", ratings={system: rating},
                      results=tuple(Result(i, "L", i + 1) for i in (1, 2, 3)))]
    for i in (1, 2, 3):
        players.append(Player(i + 1, f"o{i}", ratings={system: Rating(rating.rating + 50, 500)},
                              results=(Result(i, "W", 1),)))
    return Section(1, day, day, tuple(players), systems=(system,))


def test_prize_floor_holds() -> None:
    """A $4,000 prize in an under-1800 section sets the floor to 1800 (section 5)."""
    r = rate_section(losing_section(Rating(1805, 100, floor=1800))).player(1).ratings[R]
    assert r.post == 1800 and r.floor_applied == "office"


def test_olm_floor_earned_in_this_event() -> None:
    """OTBR only: 300 games with an established rating above 2200 earn the OLM title and a
    2200 floor. With 298 such games, a 2210 player's 3 games here make 301."""
    r = rate_section(losing_section(Rating(2210, 800, games_above_2200=298))).player(1).ratings[R]
    assert r.post == 2200 and r.floor_applied == "olm"
    assert r.state_after is not None and r.state_after.olm


def test_absolute_floor_counts_this_event() -> None:
    """AF = min(100 + 4 N_W + 2 N_D + N_R, 150): 10 wins, 3 draws, 5 events before, and
    this event of three games: 100 + 40 + 6 + 6 = 152 -> 150."""
    rating = Rating(160, 60, wins=10, draws=3, losses=47, events3=5)
    r = rate_section(losing_section(rating)).player(1).ratings[R]
    assert r.post == 150 and r.floor_applied == "absolute"


def test_absolute_floor_is_over_the_board_only_from_2024() -> None:
    """From the 2024 text AF applies to OTB systems; an online Blitz rating keeps 100."""
    rating = Rating(160, 60, wins=10, draws=3, losses=47, events3=5)
    online = rate_section(losing_section(rating, OB)).player(1).ratings[OB]
    assert online.floors is not None and online.floors.absolute == 100
    old = rate_section(losing_section(rating, OB, date(2019, 3, 1))).player(1).ratings[OB]
    assert old.floors is not None and old.floors.absolute == 150


def test_unknown_history_gets_no_credit_before_the_event() -> None:
    """Unknown counts: AF from this event only: 0 wins, 0 draws, 1 event -> 101."""
    r = rate_section(losing_section(Rating(120, 60))).player(1).ratings[R]
    assert r.floors is not None and r.floors.absolute == 101
