"""Matches (section 7) and foreign FIDE events (section 6), hand-calculated."""

from __future__ import annotations

import math
from datetime import date

import pytest

from uscf_ratings.core.match import capped_change
from uscf_ratings.core.model import (
    FideRating,
    MatchChange,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.validate import SectionError

DAY = date(2026, 3, 1)
R = System.R


def we(r: float, ri: float) -> float:
    return 1 / (1 + 10 ** (-(r - ri) / 400))


def n_star(r: float) -> float:
    return 50 / math.sqrt(0.662 + 0.00000739 * (2569 - r) ** 2)


def match(a: Rating, b: Rating, a_results: list[str]) -> Section:
    other = {"W": "L", "L": "W", "D": "D"}
    players = (
        Player(1, "a", ratings={R: a}, results=tuple(Result(i + 1, c, 2) for i, c in enumerate(a_results))),
        Player(2, "b", ratings={R: b}, results=tuple(Result(i + 1, other[c], 1) for i, c in enumerate(a_results))),
    )
    return Section(1, DAY, DAY, players, type=SectionType.MATCH, systems=(R,))


def test_match_between_equals_no_bonus() -> None:
    """Two established 1800s, a 2-0 match. Step 4: E = 2 x 0.5 = 1, N' = N*(1800),
    K = 800/(N' + 2), R = 1800 + K (2 - 1). No bonus (m < 3 anyway, and never in matches).
    Step 5: E uses the opponent's Step 4 rating 1800 - K."""
    section = match(Rating(1800, 100), Rating(1800, 100), ["W", "W"])
    result = rate_section(section)
    k = 800 / (n_star(1800) + 2)
    step4_b = 1800 - k
    expected = 1800 + k * (2 - 2 * we(1800, step4_b))
    a = result.player(1).ratings[R]
    assert a.formula == "match"
    assert a.post == pytest.approx(expected)
    assert all(s.bonus == 0 for s in a.steps)


def test_match_change_capped_at_50() -> None:
    """Section 7 rule 2: at most 50 points in one match. A provisional-K-sized gain (a
    1700 with N = 30 beating a 2000 four times) is cut to +50."""
    section = match(Rating(1700, 30), Rating(2000, 300), ["W", "W", "W", "W"])
    a = rate_section(section).player(1).ratings[R]
    assert a.post == 1750 and a.match_cap == "50 points in one match"


def test_match_eligibility() -> None:
    """Section 7 rule 1: both established, at most 400 apart."""
    with pytest.raises(SectionError, match="more than 400 apart"):
        rate_section(match(Rating(1500, 100), Rating(1901, 100), ["W"]))
    with pytest.raises(SectionError, match="needs an established R rating"):
        rate_section(match(Rating(1500, 25), Rating(1600, 100), ["W"]))


def test_180_day_and_3_year_caps() -> None:
    """Net match change at most 100 in 180 days and 200 in 3 years."""
    on = date(2026, 3, 1)
    assert capped_change(40, [MatchChange(date(2026, 1, 1), 80)], on) == (
        20, "net 100 points in 180 days")
    # 200 days ago does not count for 180 days, but counts for 3 years
    earlier = [MatchChange(date(2025, 8, 1), 100), MatchChange(date(2024, 1, 1), 90)]
    assert capped_change(30, earlier, on) == (10, "net 200 points in 3 years")
    assert capped_change(-60, [], on) == (-50, "50 points in one match")
    assert capped_change(30, [MatchChange(date(2022, 1, 1), 200)], on) == (30, None)


def test_match_floor_lowered_on_request() -> None:
    """Section 7 rule 4: a result below the floor is a request to lower it by 100; the
    engine grants it and says so. Peak 2000 gives floor 1800; a 1805 losing 4 games to a
    1900 (E about 4 x 0.37, K about 30: some 40 points) ends below 1800, above 1700."""
    section = match(Rating(1805, 100, peak=2000), Rating(1900, 100), ["L", "L", "L", "L"])
    a = rate_section(section).player(1).ratings[R]
    assert a.post is not None and 1700 < a.post < 1800 and a.floor_applied is None
    assert a.notes and "request to lower it to 1700" in a.notes[0]
    # the lowered floor is kept, so the next event holds the player at 1700, not 1800
    assert a.state_after is not None
    assert (a.state_after.floor_lowered_from, a.state_after.floor_lowered_to) == (1800, 1700)


def foreign(us: Rating, opponents: list[tuple[float, str]], youth: bool = False,
            day: date = DAY) -> Section:
    other = {"W": "L", "L": "W", "D": "D"}
    players = [Player(1, "us", ratings={R: us},
                      results=tuple(Result(i + 1, c, i + 2) for i, (_, c) in enumerate(opponents)))]
    for i, (fide, c) in enumerate(opponents):
        players.append(Player(i + 2, f"f{i}", fide=FideRating(fide),
                              results=(Result(i + 1, other[c], 1),)))
    return Section(1, day, day, tuple(players), type=SectionType.FIDE_FOREIGN, youth=youth)


def test_foreign_fide_event_applies_standard_formula_once() -> None:
    """Section 6: opponents' FIDE ratings converted (2024: 20 + 1.02 F above 2000), the
    standard formula with bonus applied once. 2100-rated established (N = 100) US player
    meets FIDE 2100, 2200, 2300, 2400 and scores 3 (W, W, D, L): R = 2100 + K (S - E) +
    max(0, K (S - E) - 10 sqrt 4) with K = 800/(N* + 4), B = 10 in 2026."""
    fides = [2100, 2200, 2300, 2400]
    section = foreign(Rating(2100, 100), list(zip(fides, ["W", "W", "D", "L"])))
    r = rate_section(section).player(1).ratings[R]
    converted = [20 + 1.02 * f for f in fides]
    k = 800 / (n_star(2100) + 4)
    change = k * (2.5 - sum(we(2100, c) for c in converted))
    expected = 2100 + change + max(0.0, change - 10 * 2)
    assert r.formula == "fide_foreign" and len(r.steps) == 1
    assert r.post == pytest.approx(expected)
    assert r.steps[0].opponents == pytest.approx(converted)


def test_foreign_youth_conversion() -> None:
    """Section 6 (2024): youth events convert -453 + 1.2667 F for F <= 2000."""
    section = foreign(Rating(1500, 100), [(1500, "D")], youth=True)
    r = rate_section(section).player(1).ratings[R]
    assert r.steps[0].opponents == pytest.approx((-453 + 1.2667 * 1500,))


def test_foreign_needs_established_regular() -> None:
    with pytest.raises(SectionError, match="only established R ratings"):
        rate_section(foreign(Rating(1500, 20), [(1500, "D")]))
