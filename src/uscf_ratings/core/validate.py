"""Consistency checks on a section before it is rated.

Every problem is collected, not only the first, and each message names the section, the
player and the round, quoting the cell that is wrong.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .domain import (
    FIELDS,
    MAX_RATING,
    player_label,
    rating_problems,
    section_label,
    section_own_problems,
)
from .model import PLAYED_CODES, RESULT_CODES, Player, Result, Section, SectionType

__all__ = ["MAX_RATING", "Problem", "SectionError", "check_section", "player_label",
           "section_label"]

MIRROR = {"W": "L", "L": "W", "D": "D"}
_PLAYED = frozenset(PLAYED_CODES)  #: for membership tests, once per result
_RATING, _GAMES = FIELDS["Rating.rating"], FIELDS["Rating.games"]
#: their bounds, for the check inline below: it runs for every rating of every section
#: rated, and a method call a rating cost a tenth of the whole check
_RATING_LOW, _RATING_HIGH = _RATING.low, _RATING.high
_GAMES_LOW, _GAMES_HIGH = _GAMES.low, _GAMES.high


@dataclass(frozen=True)
class Problem:
    section: str
    player: str | None
    round: int | None
    message: str

    def __str__(self) -> str:
        where = [self.section]
        if self.player is not None:
            where.append(self.player)
        if self.round is not None:
            where.append(f"round {self.round}")
        return ", ".join(where) + ": " + self.message


class SectionError(ValueError):
    """A section that cannot be rated as given; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in problems))


def check_section(section: Section) -> None:
    """Raise `SectionError` listing every inconsistency in ``section``.

    One pass over the results checks each cell and, for a game against a player of the
    section, that the opponent's row holds its mirror image; the mirror problems are
    reported only when every cell is well formed (a bad cell explains its own mirror).
    """
    label = section_label(section)
    problems: list[Problem] = []

    def add(player: Player | None, rnd: int | None, message: str) -> None:
        problems.append(Problem(label, None if player is None else player_label(player), rnd,
                                message))

    # the section's own values in their domain (its number, its dates within the rules'
    # reach, the end not before the start): core/domain.py, as every reader checks them;
    # a date before the rules' coverage is rules_for's NoRuleSet, which callers count apart
    for message in section_own_problems(section, before_coverage=False):
        add(None, None, message)
    players = section.players
    by_pair = {p.pair: p for p in players}
    if len(by_pair) != len(players):
        for pair, count in sorted(Counter(p.pair for p in players).items()):
            if count > 1:
                add(None, None, f"pair number {pair} is used {count} times")
    round_robin = section.type is SectionType.ROUND_ROBIN
    #: each player's first result in each round, by pair number, for the mirror check
    #: (a round robin's games are matched as a multiset instead: _round_robin_problems)
    rounds_of: dict[int, dict[int, Result]] = {} if round_robin else {
        p.pair: {r.round: r for r in reversed(p.results)} for p in players}
    mirror: list[Problem] = []

    for player in players:
        pair = player.pair
        if pair < 1:
            add(player, None, f"pair number {pair} is not a positive whole number")
        for system, rating in player.ratings.items():
            # the two numbers every formula reads, in their domain (core/domain.py); the
            # readers check every field (domain.event_problems)
            value, games = rating.rating, rating.games
            if not (type(value) is float and _RATING_LOW <= value <= _RATING_HIGH
                    and type(games) is int and _GAMES_LOW <= games <= _GAMES_HIGH):
                for message in rating_problems(system.value, {"rating": rating.rating,
                                                               "games": rating.games}):
                    add(player, None, message)
        results = player.results
        if not round_robin and len(rounds_of[pair]) != len(results):
            for rnd, count in Counter(r.round for r in results).items():
                if count > 1:
                    add(player, rnd, f"{count} results given for one round")
        for result in results:
            code, opponent = result.code, result.opponent
            if code in _PLAYED and opponent in by_pair and opponent != pair:
                # the usual cell: a game against a player of the section
                if not round_robin:
                    theirs = rounds_of[opponent].get(result.round)
                    if theirs is None or theirs.opponent != pair or theirs.code != MIRROR[code]:
                        mirror.append(_not_mirrored(label, player, result, theirs))
                continue
            cell = f"'{code}{opponent or ''}'"
            if code not in RESULT_CODES:
                add(player, result.round, f"result {cell} is not one of "
                    + ", ".join(RESULT_CODES))
                continue
            if code not in PLAYED_CODES:
                if opponent is not None and opponent not in by_pair:
                    add(player, result.round, f"result {cell} names pair {opponent}, "
                        "which is not in the section")
                continue
            if opponent is None:
                add(player, result.round, f"result {cell} needs the opponent's pair number")
            elif opponent == pair:
                add(player, result.round, f"result {cell} names the player's own pair number")
            else:
                add(player, result.round, f"result {cell} names pair {opponent}, "
                    "which is not in the section")
    if not problems:
        problems = _round_robin_problems(section, label) if round_robin else mirror
    if problems:
        raise SectionError(problems)


def _not_mirrored(label: str, player: Player, result: Result, theirs: Result | None
                  ) -> Problem:
    """A game whose opponent's row, in the same round, does not hold its mirror image."""
    cell = f"'{result.code}{result.opponent}'"
    expected = f"'{MIRROR[result.code]}{player.pair}'"
    if theirs is None:
        return Problem(label, player_label(player), result.round,
                       f"result {cell} is not mirrored: pair {result.opponent} has no "
                       f"result in round {result.round} (expected {expected})")
    found = f"'{theirs.code}{theirs.opponent or ''}'"
    return Problem(label, player_label(player), result.round,
                   f"result {cell} is not mirrored: pair {result.opponent} has {found} "
                   f"(expected {expected})")


def _round_robin_problems(section: Section, label: str) -> list[Problem]:
    """Each played game of a round robin must be in both players' rows with opposite
    results. Real reports list a round robin's games in any order of rounds (by opponent
    column), so the games are matched as a multiset rather than round by round."""
    problems = []
    by_pair = {p.pair: p for p in section.players}
    games: Counter[tuple[int, int, str]] = Counter()
    for p in section.players:
        for r in p.results:
            if r.code in PLAYED_CODES and r.opponent is not None:
                games[(p.pair, r.opponent, r.code)] += 1
    for (a, b, code), count in sorted(games.items()):
        mirrored = games.get((b, a, MIRROR[code]), 0)
        if mirrored != count:
            problems.append(Problem(label, player_label(by_pair[a]), None,
                f"{count} game(s) '{code}{b}' but pair {b}'s row has {mirrored} "
                f"'{MIRROR[code]}{a}'"))
    return problems
