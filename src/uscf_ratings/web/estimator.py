"""The estimator: one player's games against opponents of given ratings, rated by the engine.

Rating one player against the opponents' published ratings is a single pass, not a
section: in a real section the opponents' own ratings move too, and Step 5 rates everyone
against the others' Step 4 ratings. So the estimator builds a small section, the player
(pair 1) and one opponent per game, each opponent an established player with the given
rating and N (30 by default), and rates it with `rate_section`. The numbers are
the engine's; the page calls them an estimate.

A player unrated in the system can be described by an age group instead of a birth date
(members' birth dates never need to leave the office): an age of ``n`` years stands for
the middle of that year of age, ``n + 0.5``.

A 1500 player (N = 40) beats a 1600 and draws a 1500. In Step 5 the beaten opponent
counts at his Step 4 rating, 1573.24, which his loss alone lowered:

>>> from datetime import date
>>> inp = EstimateInput(System.R, date(2026, 8, 1), rating=1500.0, games=40,
...                     games_played=(Game(1600.0, "W"), Game(1500.0, "D")))
>>> est = estimate(inp)
>>> est.rating.formula, est.rating.pre, est.rating.post_rounded
('standard', 1500.0, 1526)
>>> [round(r, 2) for r in est.rating.steps[-1].opponents]
[1573.24, 1500.0]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from ..core.model import CfcRating, FideRating, Player, Rating, Result, Section, System
from ..core.pipeline import rate_section
from ..core.results import RatingResult, SectionResult
from ..formats.result_json import rating_to_dict
from .problems import RATING_FAILURES, from_rating_error

DEFAULT_OPPONENT_GAMES = 30  #: "established" (more than 25 games) with some margin
MIRROR = {"W": "L", "L": "W", "D": "D"}

#: The age groups an unrated player may give: unknown, adult, or an age in whole years.
#: Ages 3 to 26 are where the age-based rating (50 x age) applies; older is an adult.
AGE_GROUPS: dict[str, str] = {
    "unknown": "not known (counts as not an adult: 750)",
    "adult": "adult (26 or older)",
    **{str(age): f"{age} years old" for age in range(4, 26)},
}


@dataclass(frozen=True)
class Game:
    opponent_rating: float
    result: str  #: "W", "D" or "L", from the player's side
    opponent_games: int = DEFAULT_OPPONENT_GAMES


@dataclass(frozen=True)
class OtherRating:
    """A rating that informs an unrated player's initial rating (Step 1)."""

    source: str  #: a system value ("Q", "OR", ...), "FIDE" or "CFC"
    rating: float
    games: int | None = None  #: N, for a US Chess system


@dataclass(frozen=True)
class EstimateInput:
    system: System
    day: date  #: the event's date: it chooses the rules
    rating: float | None = None  #: None: unrated in ``system``
    games: int | None = None  #: N of ``rating``
    age_group: str = "unknown"
    others: tuple[OtherRating, ...] = ()
    games_played: tuple[Game, ...] = field(default=())

    @property
    def unrated(self) -> bool:
        return self.rating is None


@dataclass(frozen=True)
class Estimate:
    input: EstimateInput
    section: Section
    result: SectionResult

    @property
    def rating(self) -> RatingResult:
        return self.result.player(1).ratings[self.input.system]

    @property
    def explanation(self) -> dict[str, Any]:
        """The rating in the JSON of ``uscf rate --json`` (formula, K, E, bonus, steps)."""
        return rating_to_dict(self.rating)


def birth_date_for(age_group: str, day: date) -> date | None:
    """A birth date standing for an age group: the middle of that year of age on ``day``.

    >>> birth_date_for("12", date(2026, 8, 1))
    datetime.date(2014, 1, 30)
    """
    if not age_group.isdigit():
        return None
    return day - timedelta(days=round((int(age_group) + 0.5) * 365.25))


def player_for(inp: EstimateInput) -> Player:
    ratings: dict[System, Rating] = {}
    fide = cfc = None
    if inp.rating is not None:
        ratings[inp.system] = Rating(inp.rating, inp.games or 0, date=inp.day)
    else:
        for other in inp.others:
            if other.source == "FIDE":
                fide = FideRating(other.rating, inp.day)
            elif other.source == "CFC":
                cfc = CfcRating(other.rating, inp.day)
            elif other.source != inp.system.value:
                ratings[System(other.source)] = Rating(other.rating, other.games or 0, date=inp.day)
    results = tuple(Result(n, g.result, n + 1) for n, g in enumerate(inp.games_played, start=1))
    return Player(1, "", "You", birth_date=birth_date_for(inp.age_group, inp.day),
                  adult=True if inp.age_group == "adult" else None,
                  ratings=ratings, fide=fide, cfc=cfc, results=results)


def opponent_for(inp: EstimateInput, number: int, game: Game) -> Player:
    """Opponent ``number`` (1-based) plays only round ``number``: the player's game."""
    rounds = len(inp.games_played)
    results = tuple(Result(r, MIRROR[game.result], 1) if r == number else Result(r, "U")
                    for r in range(1, rounds + 1))
    return Player(number + 1, "", f"Opponent {number}",
                  ratings={inp.system: Rating(game.opponent_rating, game.opponent_games,
                                              date=inp.day)},
                  results=results)


def section_for(inp: EstimateInput) -> Section:
    players = (player_for(inp),) + tuple(opponent_for(inp, n, g)
                                         for n, g in enumerate(inp.games_played, start=1))
    return Section(1, inp.day, inp.day, players, name="Estimate", systems=(inp.system,),
                   online=inp.system.online)


def estimate(inp: EstimateInput) -> Estimate:
    """Rate the player's games; a section the engine refuses is a 422 Problem."""
    section = section_for(inp)
    try:
        return Estimate(inp, section, rate_section(section))
    except RATING_FAILURES as error:
        raise from_rating_error(error) from None
