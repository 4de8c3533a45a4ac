"""Consistency checks on a section before it is rated.

Every problem is collected, not only the first, and each message names the section, the
player and the round, quoting the cell that is wrong.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .model import PLAYED_CODES, RESULT_CODES, Player, Result, Section, SectionType

MIRROR = {"W": "L", "L": "W", "D": "D"}
_PLAYED = frozenset(PLAYED_CODES)  #: for membership tests, once per result
MAX_RATING = 3500.0


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


def section_label(section: Section) -> str:
    return f"section {section.number}" + (f" ({section.name})" if section.name else "")


def player_label(player: Player) -> str:
    ident = f", id {player.id}" if player.id else ""
    return f"player {player.pair}{ident}"


def check_section(section: Section) -> None:
    """Raise `SectionError` listing every inconsistency in ``section``."""
    label = section_label(section)
    problems: list[Problem] = []

    def add(player: Player | None, rnd: int | None, message: str) -> None:
        problems.append(Problem(label, None if player is None else player_label(player), rnd,
                                message))

    if section.end_date < section.start_date:
        add(None, None, f"end date {section.end_date} is before start date {section.start_date}")
    pairs = Counter(p.pair for p in section.players)
    for pair, count in sorted(pairs.items()):
        if count > 1:
            add(None, None, f"pair number {pair} is used {count} times")
    by_pair = {p.pair: p for p in section.players}
    #: each player's first result in each round, by pair number, for the mirror check
    rounds_of: dict[int, dict[int, Result]] = {}

    for player in section.players:
        if player.pair < 1:
            add(player, None, f"pair number {player.pair} is not a positive whole number")
        for system, rating in player.ratings.items():
            if not 0 < rating.rating <= MAX_RATING:
                add(player, None, f"{system} rating {rating.rating:g} is outside 0..{MAX_RATING:g}")
            if rating.games < 0:
                add(player, None, f"{system} games (N) {rating.games} is negative")
        results = player.results
        in_round = rounds_of[player.pair] = {r.round: r for r in reversed(results)}
        if section.type is not SectionType.ROUND_ROBIN and len(in_round) != len(results):
            for rnd, count in Counter(r.round for r in results).items():
                if count > 1:
                    add(player, rnd, f"{count} results given for one round")
        for result in results:
            code, opponent = result.code, result.opponent
            if code in _PLAYED and opponent is not None and opponent != player.pair \
                    and opponent in by_pair:
                continue  # the usual cell: a game against a player of the section
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
            elif opponent == player.pair:
                add(player, result.round, f"result {cell} names the player's own pair number")
            else:
                add(player, result.round, f"result {cell} names pair {opponent}, "
                    "which is not in the section")
    if not problems:
        problems.extend(_mirror_problems(section, label, rounds_of))
    if problems:
        raise SectionError(problems)


def _mirror_problems(section: Section, label: str,
                     rounds_of: dict[int, dict[int, Result]]) -> list[Problem]:
    """Each played game must be in both players' rows with opposite results.

    A round robin may list its games in any order of rounds (real reports list them by
    opponent column), so there the games are matched as a multiset; elsewhere each game
    is matched with the opponent's first result in its round (``rounds_of``).
    """
    problems = []
    by_pair = {p.pair: p for p in section.players}
    if section.type is SectionType.ROUND_ROBIN:
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
    for p in section.players:
        for r in p.results:
            if r.code not in _PLAYED or r.opponent is None:
                continue
            theirs = rounds_of[r.opponent].get(r.round)
            if theirs is not None and theirs.code == MIRROR[r.code] and theirs.opponent == p.pair:
                continue
            expected = f"'{MIRROR[r.code]}{p.pair}'"
            if theirs is None:
                problems.append(Problem(label, player_label(p), r.round,
                    f"result '{r.code}{r.opponent}' is not mirrored: pair {r.opponent} has no "
                    f"result in round {r.round} (expected {expected})"))
            else:
                found = f"'{theirs.code}{theirs.opponent or ''}'"
                problems.append(Problem(label, player_label(p), r.round,
                    f"result '{r.code}{r.opponent}' is not mirrored: pair {r.opponent} has "
                    f"{found} (expected {expected})"))
    return problems
