"""Norms toward the titles (core/norms.py): the table, the margin and eligibility, each
from a hand-worked example (titles.md, "A norm in one section")."""

from __future__ import annotations

from datetime import date

import pytest

from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.model import Player, Rating, Result, Section, SectionType, System
from uscf_ratings.core.norms import (
    NORM_CODES,
    norm_expected_units,
    norm_rules_for,
    norms_by_pair,
    player_norm,
    section_reason,
)
from uscf_ratings.core.pipeline import rate_section

UNIT = 800.0  # norm_expected_units counts in 1/800 points


@pytest.mark.parametrize(("opponent", "expected"), [
    (2100, 0.0),      # D = 1600 - 2100 = -500 <= -400: 0
    (2000, 0.0),      # D = -400: still 0
    (1800, 0.25),     # D = -200: 0.5 - 200/800
    (1601, 0.49875),  # D = -1: 0.5 - 1/800
    (1600, 0.5),      # D = 0: 0.5
    (1500, 0.75),     # D = 100: 0.5 + 100/400
    (1400, 1.0),      # D = 200: 0.5 + 200/400
    (1300, 1.0),      # D = 300 > 200: 1
])
def test_expected_score_table_at_1600(opponent: float, expected: float) -> None:
    assert norm_expected_units(1600.0, opponent, DOCUMENTED) / UNIT == expected


def games(*pairs: tuple[int, float]) -> list[tuple[int, float]]:
    return list(pairs)


LABELS = [f"pair {i + 1}" for i in range(10)]


def test_three_of_four_earns_a_second_category_norm() -> None:
    # Opponents' post-event ratings 1500, 1600, 1700, 1800; the player scores 3.
    # At 1600: E = 0.75 + 0.5 + (0.5 - 100/800) + (0.5 - 200/800) = 1.875; 3 - 1.875 = 1.125 > 1
    # At 1800: E = 1 + 1 + (0.5 + 100/400) + 0.5 = 3.25; 3 - 3.25 < 1: no N:1
    posts = [1500.0, 1600.0, 1700.0, 1800.0, None]
    norm = player_norm(games((0, 1.0), (1, 1.0), (2, 1.0), (3, 0.0)), posts, LABELS)
    assert norm.code == "N:2" and norm.title == "2nd Category"
    at = {check.code: check for check in norm.levels}
    assert at["N:2"].expected == 1.875 and at["N:2"].margin == 1.125 and at["N:2"].earned
    assert at["N:1"].expected == 3.25 and not at["N:1"].earned
    assert norm.closest() is at["N:1"]


def test_a_margin_of_exactly_one_is_not_enough() -> None:
    # Opponents 1601, 1599, 1600, 1600 at level 1600: E = 0.49875 + 0.50125 + 0.5 + 0.5 = 2
    # exactly (terms that binary floats cannot hold); a score of 3 is 1 above: no norm at 1600.
    # At 1400 each E is 0.5 - 200/800 (about): 3 - 1.0 = 2 > 1, so N:3 is the highest.
    posts = [1601.0, 1599.0, 1600.0, 1600.0]
    norm = player_norm(games((0, 1.0), (1, 1.0), (2, 1.0), (3, 0.0)), posts, LABELS)
    at = {check.code: check for check in norm.levels}
    assert not at["N:2"].earned
    assert norm.code == "N:3"


def test_at_least_four_games() -> None:
    norm = player_norm(games((0, 1.0), (1, 1.0), (2, 1.0)), [1000.0] * 3, LABELS)
    assert norm.code is None and not norm.eligible
    assert norm.reason == "3 rated games; a norm needs at least 4"


def test_an_opponent_met_three_times() -> None:
    norm = player_norm(games((0, 1.0), (0, 1.0), (0, 1.0), (1, 1.0)), [1000.0] * 2, LABELS)
    assert norm.code is None and not norm.eligible
    assert norm.reason == "met pair 1 3 times; a norm allows at most 2 games with one opponent"


def test_twice_is_allowed() -> None:
    # four wins against two 1000s, twice each: E at 1400 = 4 x 1 = 4; 4 - 4 = 0: none at 1400,
    # at 1200: D = 200, E = 4 x 1 = 4, again none. All wins against far weaker players earn no norm.
    norm = player_norm(games((0, 1.0), (0, 1.0), (1, 1.0), (1, 1.0)), [1000.0] * 2, LABELS)
    assert norm.eligible and norm.code is None


def test_games_against_an_opponent_without_a_rating_do_not_count() -> None:
    posts = [1500.0, 1600.0, 1700.0, 1800.0, None]
    norm = player_norm(games((0, 1.0), (1, 1.0), (2, 1.0), (3, 0.0), (4, 1.0)), posts, LABELS)
    assert norm.score == 3.0 and norm.games == 4 and norm.code == "N:2"
    assert "1 against an opponent without one not counted" in norm.reason


@pytest.mark.parametrize(("kind", "online", "systems", "start", "reason"), [
    (SectionType.SWISS, False, (System.R,), date(2019, 1, 5), None),
    (SectionType.SWISS, False, (System.R, System.Q), date(2019, 1, 5), None),
    (SectionType.SWISS, False, (System.Q,), date(2019, 1, 5),
     "norms are earned only in sections rated in the Regular system (R)"),
    (SectionType.SWISS, True, (System.OR,), date(2021, 1, 5),
     "norms are earned over the board only, not in an online section"),
    (SectionType.FIDE_FOREIGN, False, (System.R,), date(2019, 1, 5),
     "norms are earned only in US Chess events, not in a foreign FIDE event"),
    (SectionType.SWISS, False, (System.R,), date(1990, 6, 1),
     "norms are computed for events from 1991 on"),
])
def test_which_sections_earn_norms(kind: SectionType, online: bool,
                                   systems: tuple[System, ...], start: date,
                                   reason: str | None) -> None:
    assert section_reason(kind, online, systems, start) == reason
    assert (norm_rules_for(start) is None) == (start.year < 1991)


def round_robin(ids: list[str], ratings: list[float]) -> tuple[Player, ...]:
    """Five players, every one meeting every other once (wins for the lower pair number)."""
    size = len(ids)
    players = []
    for i in range(size):
        results = tuple(Result(r + 1, "W" if i < j else "L", j + 1)
                        for r, j in enumerate(j for j in range(size) if j != i))
        players.append(Player(i + 1, ids[i], f"Player {i + 1}",
                              ratings={System.R: Rating(ratings[i], 30)}, results=results))
    return tuple(players)


def test_a_member_entered_twice_earns_one_norm_from_all_games() -> None:
    # Rows 1 and 2 are the same member: 2 games each, 4 together (none alone would do).
    players = (
        Player(1, "111", "A", results=(Result(1, "W", 3), Result(2, "W", 4))),
        Player(2, "111", "A", results=(Result(1, "W", 5), Result(2, "W", 6))),
        *(Player(n, str(n), "", results=(Result(1, "L", 1 if n in (3, 4) else 2),))
          for n in (3, 4, 5, 6)),
    )
    posts = {1: 1700.0, 2: 1700.0, 3: 1600.0, 4: 1600.0, 5: 1600.0, 6: 1600.0}
    found = norms_by_pair(players, posts, None)
    # 4 wins against 1600s: at 1800, D = 200 each, E = 4; 4 - 4 = 0. At 1600, E = 2: 4 - 2 = 2
    assert set(found) == {1, 3, 4, 5, 6}
    assert found[1].games == 4 and found[1].code == "N:2"


def test_rate_section_gives_each_player_a_norm() -> None:
    # A round robin of five established players, the lower pair number winning each game.
    # Pair 1 scores 4 against post-event ratings near 1500..1800: a norm; pair 5 none.
    section = Section(1, date(2019, 3, 2), date(2019, 3, 2),
                      round_robin(["1", "2", "3", "4", "5"], [1500, 1600, 1700, 1800, 1900]),
                      type=SectionType.ROUND_ROBIN, systems=(System.R,))
    result = rate_section(section)
    first = result.player(1)
    assert first.norm is not None and first.norm.code in NORM_CODES
    # the norm is computed from the post-event ratings the result carries
    posts = {p.pair: p.ratings[System.R].post for p in result.players}
    again = norms_by_pair(section.players, posts, None)
    assert all(again[p.pair] == p.norm for p in result.players)
    assert result.player(5).norm.code is None and result.player(5).norm.eligible
