"""Peer libraries, each fed the same games as our batch path.

The games come from the laid-out corpus: every (section, system, player) row with at least
one rated game is one player's side of that section, with its pre-event (or Step 1)
rating R0, its N, its opponents' R0 and its score in each game. Each peer is called the
way its API is meant to be called, the most favourable way for it:

* elochess: ``UscfCalculator.update_rating(R0, opponents, score, games_played=N)``,
  one call per player per section (a rating period, as US Chess rates a section);
* glicko2: ``Player(rating, rd).update_player(ratings, rds, outcomes)``, one call per
  player per section (Glicko-2's rating period);
* openskill: ``PlackettLuce().rate([[a], [b]], ranks=...)``, one call per game (its API
  rates one match at a time), which updates both sides of the game.

Every peer thus updates each game side once: its player-games are ours
(``Packed.player_games``). The peers compute different, simpler formulas: no Steps 1-3,
no special formula, no bonus, no floors, no dual-rated K, no explanations.

Building the inputs (and glicko2's and openskill's rating objects) is not timed; only the
library's update calls are.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from uscf_ratings.core.model import Section, System
from uscf_ratings.core.pipeline import collect_games, merge_entrants

PACKAGES = ("elochess", "openskill", "glicko2")


@dataclass(frozen=True)
class Side:
    """One player's side of a section in one system."""

    row: int
    rating: float  #: R0: the pre-event rating, or Step 1's for an unrated player
    games_before: int  #: N (0 for an unrated player)
    opponents: tuple[int, ...]  #: the opponents' rows, one per game
    scores: tuple[float, ...]  #: 1, 0.5 or 0 per game


@dataclass(frozen=True)
class PeerGames:
    ratings: tuple[float, ...]  #: R0 of every row
    games_before: tuple[int, ...]  #: N of every row
    sides: tuple[Side, ...]  #: rows with at least one rated game

    @property
    def player_games(self) -> int:
        return sum(len(s.opponents) for s in self.sides)

    def games(self) -> list[tuple[int, int, float]]:
        """Each game once, as (row a, row b, a's score)."""
        out = []
        for side in self.sides:
            for opponent, score in zip(side.opponents, side.scores, strict=True):
                if opponent > side.row:
                    out.append((side.row, opponent, score))
        return out


def peer_games(sections: Sequence[Section], laid: Any) -> PeerGames:
    """The laid-out corpus (batch.engine.lay_out) as plain Python values, in its rows'
    order."""
    ratings = [float(x) for x in laid.before.r0]
    group_start = [0] * len(ratings)  # each row's group's first row: opponents are by place
    for begin, end in zip(laid.terms.start.tolist(), laid.terms.stop.tolist(), strict=True):
        group_start[begin:end] = [begin] * (end - begin)
    first, last = laid.games.first, laid.games.last
    opponent = laid.games.opponent
    games_before = [0] * len(ratings)
    sides = []
    per_section: dict[int, tuple[dict[int, Any], tuple[Any, ...]]] = {}
    for row, (index, pair, system) in enumerate(laid.keys):
        if index not in per_section:
            entrants = merge_entrants(sections[index].players)
            per_section[index] = ({e.first.pair: e for e in entrants}, collect_games(entrants))
        by_pair, games = per_section[index]
        entrant = by_pair[pair]
        rating = entrant.first.ratings.get(System(system))
        games_before[row] = rating.games if rating is not None else 0
        mine = games[entrant.position]
        rows = tuple(group_start[row] + int(x) for x in opponent[first[row]:last[row]])
        assert len(rows) == len(mine), "lay_out's games and collect_games disagree"
        if rows:
            sides.append(Side(row, ratings[row], games_before[row], rows,
                              tuple(g.score for g in mine)))
    return PeerGames(tuple(ratings), tuple(games_before), tuple(sides))


def missing(package: str) -> str | None:
    """Why a peer cannot run here, or None when it can."""
    try:
        importlib.import_module(package)
    except ImportError as error:
        return f"{package} is not installed ({error}); pip install -e '.[bench]'"
    return None


def version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def _rd(games: int) -> float:
    """A Glicko rating deviation for a player with ``games`` games: 350 for a new player,
    shrinking towards 50 (the peers have no N; this gives them a plausible one)."""
    return max(50.0, 350.0 / math.sqrt(1.0 + games / 10.0))


class Peer:
    """A peer library: ``setup`` (not timed) makes the state one run starts from; ``rate``
    (timed) updates every game side once and returns the player-games it rated."""

    name = ""
    formula = ""
    calls = ""

    def prepare(self, games: PeerGames) -> Any:
        return games

    def setup(self, prepared: Any) -> Any:
        return prepared

    def rate(self, state: Any) -> int:
        raise NotImplementedError


class Elochess(Peer):
    name = "elochess"
    formula = ("elochess's UscfCalculator: the standard formula (K, bonus) for N > 8, a "
               "performance-rating average for N <= 8; integer ratings, no Step 1-3, "
               "no special formula, no floors")
    calls = "UscfCalculator.update_rating, one call per player per section"

    def prepare(self, games: PeerGames) -> list[tuple[int, list[int], float, int]]:
        r = games.ratings
        return [(round(s.rating), [round(r[o]) for o in s.opponents], math.fsum(s.scores),
                 s.games_before) for s in games.sides]

    def rate(self, state: list[tuple[int, list[int], float, int]]) -> int:
        from elochess.uscf import UscfCalculator

        update = UscfCalculator.update_rating
        count = 0
        for rating, opponents, score, n in state:
            update(rating, opponents, score, games_played=n)
            count += len(opponents)
        return count


class Glicko2(Peer):
    name = "glicko2"
    formula = "Glicko-2 (rating, RD, volatility), one rating period per section"
    calls = "Player.update_player, one call per player per section"

    def prepare(self, games: PeerGames) -> list[tuple[float, float, list[float], list[float],
                                                      list[float]]]:
        r, n = games.ratings, games.games_before
        return [(s.rating, _rd(s.games_before), [r[o] for o in s.opponents],
                 [_rd(n[o]) for o in s.opponents], list(s.scores)) for s in games.sides]

    def setup(self, prepared: list[Any]) -> list[tuple[Any, list[float], list[float],
                                                        list[float]]]:
        import glicko2

        return [(glicko2.Player(rating, rd, 0.06), ratings, rds, outcomes)
                for rating, rd, ratings, rds, outcomes in prepared]

    def rate(self, state: list[Any]) -> int:
        count = 0
        for player, ratings, rds, outcomes in state:
            player.update_player(ratings, rds, outcomes)
            count += len(ratings)
        return count


class OpenSkill(Peer):
    name = "openskill"
    formula = "OpenSkill Plackett-Luce (mu, sigma), updated after every game"
    calls = "PlackettLuce.rate, one call per game (both sides)"
    SCALE = 60.0  #: rating points per openskill mu unit: 1500 is mu = 25

    def prepare(self, games: PeerGames) -> tuple[PeerGames, list[tuple[int, int, list[int]]]]:
        ranks = {1.0: [0, 1], 0.0: [1, 0], 0.5: [0, 0]}
        return games, [(a, b, ranks[score]) for a, b, score in games.games()]

    def setup(self, prepared: tuple[PeerGames, list[Any]]) -> tuple[Any, list[Any], list[Any]]:
        from openskill.models import PlackettLuce

        games, pairs = prepared
        model = PlackettLuce()
        ratings = [model.rating(mu=r / self.SCALE, sigma=_rd(n) / self.SCALE)
                   for r, n in zip(games.ratings, games.games_before, strict=True)]
        return model, ratings, pairs

    def rate(self, state: tuple[Any, list[Any], list[Any]]) -> int:
        model, ratings, pairs = state
        rate = model.rate
        for a, b, ranks in pairs:
            [ratings[a]], [ratings[b]] = rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        return 2 * len(pairs)


PEERS: tuple[Peer, ...] = (Elochess(), OpenSkill(), Glicko2())
