"""Properties of rating whole sections (Steps 1-5 of the 2025 text, section 1).

Random small Swiss sections (2..10 players, 1..5 rounds, mirrored results) dated
2019-01-01 and rated in the Regular system, with rated players (100..2700, N = 0..200,
history unknown, all wins, all losses or mixed) and unrated players (age-based or 750/1300).
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from uscf_ratings.core.model import Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import RatingResult, SectionResult

R = System.R
DAY = date(2019, 1, 1)
MIRROR = {"W": "L", "L": "W", "D": "D", "X": "F", "F": "X"}
BETTER = {"L": "D", "D": "W"}  # one step better for the player
WORSE = {"W": "D", "D": "L"}  # the opponent's side of the same change


@st.composite
def ratings(draw: st.DrawFn, standard_only: bool = False) -> Rating:
    rating = draw(st.integers(100, 2700).map(float) | st.floats(100, 2700))
    if standard_only:
        # N > 8 and no all-wins/all-losses history: the standard formula (Step 4).
        return Rating(rating, draw(st.integers(9, 200)))
    games = draw(st.integers(0, 200))
    history = draw(st.sampled_from(["unknown", "wins", "losses", "mixed"]))
    if history == "wins":
        return Rating(rating, games, wins=games, draws=0, losses=0)
    if history == "losses":
        return Rating(rating, games, wins=0, draws=0, losses=games)
    if history == "mixed" and games >= 2:
        wins = draw(st.integers(1, games - 1))
        return Rating(rating, games, wins=wins, draws=0, losses=games - wins)
    return Rating(rating, games)


@st.composite
def players_data(draw: st.DrawFn, n: int, standard_only: bool) -> list[Player]:
    out = []
    for pair in range(1, n + 1):
        if standard_only or draw(st.booleans()):
            player = Player(pair, f"id{pair}", ratings={R: draw(ratings(standard_only))})
        else:
            birth = draw(st.none() | st.dates(date(1940, 1, 1), date(2018, 6, 1)))
            player = Player(pair, f"id{pair}", birth_date=birth,
                            adult=draw(st.none() | st.booleans()))
        out.append(player)
    return out


@st.composite
def sections(draw: st.DrawFn, standard_only: bool = False) -> Section:
    """A Swiss section with every played game entered in both players' rows."""
    n = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 5))
    rows: dict[int, list[Result]] = {p: [] for p in range(1, n + 1)}
    for rnd in range(1, rounds + 1):
        order = draw(st.permutations(list(range(1, n + 1))))
        for a, b in zip(order[0::2], order[1::2]):
            code = draw(st.sampled_from("WLDWLDX"))  # mostly played games, a few forfeits
            rows[a].append(Result(rnd, code, b))
            rows[b].append(Result(rnd, MIRROR[code], a))
        if n % 2:
            rows[order[-1]].append(Result(rnd, "B"))  # a bye: not a rated game
    base = draw(players_data(n, standard_only))
    players = tuple(replace(p, results=tuple(rows[p.pair])) for p in base)
    return Section(1, DAY, DAY, players, systems=(R,))


def rated(result: SectionResult, pair: int) -> RatingResult:
    return result.player(pair).ratings[R]


def with_better_result(section: Section, pair: int, rnd: int) -> Section:
    """``pair``'s game in round ``rnd`` one step better (L -> D or D -> W), mirrored."""
    players = []
    for p in section.players:
        results = []
        for r in p.results:
            if r.round == rnd and p.pair == pair:
                r = replace(r, code=BETTER[r.code])
            elif r.round == rnd and r.opponent == pair and r.code in WORSE:
                r = replace(r, code=WORSE[r.code])
            results.append(r)
        players.append(replace(p, results=tuple(results)))
    return replace(section, players=tuple(players))


def improvable_games(section: Section, rated_opponent_only: bool) -> list[tuple[int, int]]:
    by_pair = {p.pair: p for p in section.players}
    return [
        (p.pair, r.round)
        for p in section.players
        for r in p.results
        if r.code in BETTER
        and (not rated_opponent_only or R in by_pair[r.opponent].ratings)  # type: ignore[index]
    ]


# --- A better score never gives a lower rating -------------------------------------


@settings(max_examples=300, deadline=None)
@given(sections(), st.data())
def test_better_result_never_lowers_step4(section: Section, data: st.DataObject) -> None:
    """2025 text, Step 4 with sections 4.1 and 4.2: half a point more never lowers the
    player's Step 4 rating, when the opponent of the changed game is rated.

    Step 4 rates the player against the opponents' pre-event ratings (Step 3 estimates
    only for unrated N = 0 opponents, whose estimates depend on their own score). With a
    rated opponent in the changed game, every Ri of the player's Step 4 stays the same,
    and both formulas are monotone in S: the standard formula directly (K(S - E) and the
    bonus max(0, K(S - E) - B sqrt(m')) grow with S), the special formula because "the
    algorithm ... ensur[es] that a rating does not decrease from wins" (section 4.1: f
    shifts down by 0.5, so every new root lies at or above the old ones).
    """
    games = improvable_games(section, rated_opponent_only=True)
    assume(games)
    pair, rnd = data.draw(st.sampled_from(games))
    before = rated(rate_section(section), pair).step(4)
    after = rated(rate_section(with_better_result(section, pair, rnd)), pair).step(4)
    assert before is not None and after is not None
    assert after.unfloored >= before.unfloored - 1e-9


@settings(max_examples=300, deadline=None)
@given(sections(standard_only=True), st.data())
def test_better_result_never_lowers_step5_all_standard(section: Section,
                                                       data: st.DataObject) -> None:
    """2025 text, Steps 4-5 and section 4.2: when every player is rated with N > 8 and no
    all-wins/all-losses history (everyone uses the standard formula), half a point more
    never lowers the player's Step 5 rating before floors.

    Step 5 uses the opponents' Step 4 ratings, and the opponent O of the changed game
    loses half a point, so O's Step 4 rating drops by delta: K_O/2, up to K_O with the
    bonus. N >= 9 gives N' >= N*(100) = 50/sqrt(0.662 + 0.00000739 x 2469^2) = 7.395, and
    the bonus needs m_O >= 3, so K_O <= 800/(7.395 + 3) = 76.96. We changes by at most
    ln(10)/1600 = 0.00144 per point, and with a bonus O is met at most twice:
    E rises by at most 2 x 76.96 x 0.00144 = 0.22 < 0.5 = the rise of S. Without a bonus,
    c games against O (c <= m_O <= 5): c x 400/(7.395 + m_O) x 0.00144 <= 0.23 < 0.5.
    No other opponent's Step 4 changes (all are rated, so Step 4 uses pre-event ratings).

    This does not hold in general: against an unrated or special-formula opponent, the
    opponent's Step 4 rating can move by hundreds of points (see
    test_better_result_can_lower_step5_against_unrated).
    """
    games = improvable_games(section, rated_opponent_only=False)
    assume(games)
    pair, rnd = data.draw(st.sampled_from(games))
    before = rated(rate_section(section), pair).step(5)
    after = rated(rate_section(with_better_result(section, pair, rnd)), pair).step(5)
    assert before is not None and after is not None
    assert after.formula == "standard"
    assert after.unfloored >= before.unfloored - 1e-9


def test_better_result_can_lower_step5_against_unrated() -> None:
    """2025 text, Steps 4-5 and section 4.1: a documented consequence, not a bug. A better
    result can lower Step 5 when the opponent is unrated, because the opponent's Step 4
    rating (used in Step 5) falls with the opponent's score.

    Player 1339 (N = 100) meets an unrated child (750, N = 0, so N' = 0) twice.
    Before: a draw and a loss. The unrated Step 4: 2 PWe(R, 1339) = 1.5 -> PWe = 0.75 ->
    R = 1339 + 200 = 1539 (walk 750 -> 939 -> 1150 -> 1539). The player's Step 5:
    E = 2 We(1339, 1539) = 2/(1 + 10^0.5) = 0.4805, S = 0.5, m = 2 (no bonus):
    K = 800/(N*(1339) + 2) = 800/(14.53 + 2) = 48.40; Rs = 1339 + 48.40 x 0.0195 = 1339.94.
    After (two draws): the unrated Step 4 is 2 PWe(R, 1339) = 1 -> R = 1339; E = 1 = S;
    Rs = 1339 exactly. Half a point more, 0.94 lower.
    """
    def section(second: str) -> Section:
        player = Player(1, "P", ratings={R: Rating(1339, 100)},
                        results=(Result(1, "D", 2), Result(2, second, 2)))
        unrated = Player(2, "U", adult=False,
                         results=(Result(1, "D", 1), Result(2, MIRROR[second], 1)))
        return Section(1, DAY, DAY, (player, unrated), systems=(R,))

    before = rate_section(section("L"))
    after = rate_section(section("D"))
    assert rated(before, 2).step(4).rating == pytest.approx(1539)  # type: ignore[union-attr]
    assert rated(after, 2).step(4).rating == pytest.approx(1339)  # type: ignore[union-attr]
    n_eff = 50 / math.sqrt(0.662 + 0.00000739 * (2569 - 1339) ** 2)
    k = 800 / (n_eff + 2)
    expected_before = 1339 + k * (0.5 - 2 / (1 + 10 ** 0.5))
    assert rated(before, 1).step(5).unfloored == pytest.approx(expected_before)  # type: ignore[union-attr]
    assert rated(after, 1).step(5).unfloored == pytest.approx(1339)  # type: ignore[union-attr]
    assert expected_before > 1339.9


# --- Order independence ------------------------------------------------------------


def _summary(result: SectionResult, pair: int) -> object:
    """What must not depend on the order of the input: every number of every step."""
    out = result.player(pair).ratings.get(R)
    if out is None:
        return None
    steps = tuple((s.step, s.formula, s.n_eff, s.unfloored, s.rating, s.k, s.expected,
                   s.bonus, s.p, s.tie_rule) for s in out.steps)
    return (out.r0, out.n, out.n_eff, out.m, out.score, out.formula, steps, out.post,
            out.floor_applied, out.state_after)


@settings(max_examples=200, deadline=None)
@given(sections(), st.data())
def test_order_of_players_and_rounds_does_not_matter(section: Section,
                                                     data: st.DataObject) -> None:
    """2025 text, section 1: the five steps are sums over each player's games; nothing in
    them depends on the order in which players or rounds are listed. Every number must
    be identical (==), not merely close (traps.md: float noise at the knots can move a
    special rating by hundreds of points)."""
    players = data.draw(st.permutations(list(section.players)))
    rounds = sorted({r.round for p in section.players for r in p.results})
    new_numbers = data.draw(st.permutations(rounds))
    renumber = dict(zip(rounds, new_numbers))
    permuted = replace(section, players=tuple(
        replace(p, results=tuple(replace(r, round=renumber[r.round]) for r in p.results))
        for p in players))
    a, b = rate_section(section), rate_section(permuted)
    for p in section.players:
        assert _summary(a, p.pair) == _summary(b, p.pair)


# --- A member entered twice --------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(sections(), st.data())
def test_member_entered_twice(section: Section, data: st.DataObject) -> None:
    """traps.md, "Real reports": a member entered twice in one section (two pair numbers,
    one id) is rated as one player with all of the games (2025 text, section 7: "All
    games played in US Chess-rated events are rated").

    One player's rounds are split between their pair number and a second pair number
    with the same id; their opponents' rows name whichever pair played them. Everyone's
    ratings must equal those from the section with all the games under one pair.
    """
    member = data.draw(st.sampled_from(list(section.players)))
    rounds = sorted({r.round for r in member.results})
    moved = set(data.draw(st.lists(st.sampled_from(rounds), unique=True))) if rounds else set()
    second = max(p.pair for p in section.players) + 1
    players = []
    for p in section.players:
        if p.pair == member.pair:
            players.append(replace(p, results=tuple(r for r in p.results
                                                    if r.round not in moved)))
            continue
        players.append(replace(p, results=tuple(
            replace(r, opponent=second)
            if r.opponent == member.pair and r.round in moved else r
            for r in p.results)))
    twin = replace(member, pair=second,
                   results=tuple(r for r in member.results if r.round in moved))
    where = data.draw(st.integers(0, len(players)))
    players.insert(where, twin)
    split = replace(section, players=tuple(players))

    one, two = rate_section(section), rate_section(split)
    merged = two.player(second)
    assert two.player(member.pair) is merged
    assert set(merged.pairs) == {member.pair, second}
    assert len(two.players) == len(one.players)
    for p in section.players:
        assert _summary(one, p.pair) == _summary(two, p.pair)
