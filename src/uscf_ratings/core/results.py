"""What rating a section produces: every number, with the explanation behind it.

A `RatingResult` is one player in one system. It says which rule set and formula
applied, R0, N, N', K, E, S, the bonus, each step's rating, which floor held, the final
rating and the state a later event starts from.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from .floors import Floors
from .formulas import rounded_rating
from .initial import Initial
from .model import KFactor, Rating, SectionType, System
from .rules import RuleSet


@dataclass(frozen=True)
class StepResult:
    """One of Steps 3, 4 and 5 for one player."""

    step: int
    formula: str  #: "special" or "standard"
    opponents: tuple[float, ...]  #: the Ri used, in the order of the player's games
    n_eff: float  #: N' used (1 in Step 3)
    unfloored: float  #: the formula's result
    rating: float  #: after the floor of 100 that follows each step
    # standard formula
    k: float | None = None
    expected: float | None = None  #: E
    change: float | None = None  #: K(S - E)
    bonus: float | None = None
    bonus_eligible: bool | None = None
    # special formula
    r0_adjusted: float | None = None  #: R0'
    score_adjusted: float | None = None  #: S'
    prior: str | None = None  #: "none", "all wins", "all losses"
    p: int | None = None
    tie_rule: bool | None = None
    capped: bool | None = None  #: the 2700 cap of the special formula applied


@dataclass(frozen=True)
class RatingResult:
    """One player's rating in one system, and why."""

    system: System
    pre: float | None  #: the published pre-event rating; None if unrated
    pre_games: int | None
    r0: float  #: the pre-event rating or the Step 1 rating
    n: int  #: N: games the rating is based on (Step 1's N for an unrated player)
    n_eff: float  #: N' (Step 2)
    m: int  #: rated games in this event
    score: float  #: S
    formula: str  #: "special", "standard", "match", "fide_foreign" or "none"
    reason: str  #: why that formula
    initial: Initial | None = None
    steps: tuple[StepResult, ...] = ()
    floors: Floors | None = None
    floor_applied: str | None = None  #: which floor raised the rating, if one did
    match_cap: str | None = None  #: which match cap limited the change, if one did
    #: the post-event rating: the pre-event rating where m = 0; None for an unrated
    #: player with no rated game (no rating to keep)
    post: float | None = None
    games_after: int | None = None
    state_after: Rating | None = None
    notes: tuple[str, ...] = ()

    @property
    def post_rounded(self) -> int | None:
        return None if self.post is None else rounded_rating(self.post)

    def step(self, number: int) -> StepResult | None:
        return next((s for s in self.steps if s.step == number), None)


@dataclass(frozen=True)
class LevelCheck:
    """The test at one level: the expected score E, the margin S - E and whether it
    exceeds the needed margin."""

    code: str
    title: str
    level: float
    expected: float
    margin: float
    earned: bool


@dataclass(frozen=True)
class NormLevel:
    """One of the seven norm levels (core/norms.py): the crosstable's code, the title five
    norms earn, its name in US Chess's ratings API (NormLevel, AwardType), and whether the
    title also needs an established rating at the level (titles.md, "Titles")."""

    code: str
    title: str
    api: str
    needs_rating: bool = False


#: the levels from the lowest (1200 by default) up, each `norm_level_step` above the last
NORM_LEVELS: tuple[NormLevel, ...] = (
    NormLevel("N:4", "4th Category", "FourthCategory"),
    NormLevel("N:3", "3rd Category", "ThirdCategory"),
    NormLevel("N:2", "2nd Category", "SecondCategory"),
    NormLevel("N:1", "1st Category", "FirstCategory"),
    NormLevel("N:C", "Candidate Master", "CandidateMaster", needs_rating=True),
    NormLevel("N:M", "Life Master", "LifeMaster", needs_rating=True),
    NormLevel("N:S", "Senior Life Master", "SeniorLifeMaster", needs_rating=True),
)


@dataclass(frozen=True)
class NormResult:
    """A player's norm in a section: the highest level earned (the crosstable's code, or
    None), the score and games it rests on, why a player was not eligible, and the test at
    every level (`levels`), made when first asked for from what the norm was decided on:
    every player of every section carries a norm, few are read level by level."""

    code: str | None
    eligible: bool
    reason: str  #: why no norm could be earned, or the games the test counted
    score: float = 0.0  #: S over the games counted
    games: int = 0  #: the games counted (rated, against an opponent with a post rating)
    needed: float = 1.0  #: the margin S - E must exceed
    #: makes the test at every level (core/norms.py, `level_checks` over the opponents'
    #: ratings and the score); None for a player not eligible
    explain: Callable[[], tuple[LevelCheck, ...]] | None = field(
        default=None, compare=False, repr=False)

    @cached_property
    def levels(self) -> tuple[LevelCheck, ...]:
        """The test at every level, from the lowest (none for a player not eligible)."""
        return () if self.explain is None else self.explain()

    @property
    def title(self) -> str | None:
        """The title the norm counts toward (the highest level earned)."""
        return next((level.title for level in NORM_LEVELS if level.code == self.code), None)

    def closest(self) -> LevelCheck | None:
        """The lowest level not earned: how far the player was from the next norm."""
        return next((check for check in self.levels if not check.earned), None)


@dataclass(frozen=True)
class PlayerResult:
    pair: int
    id: str
    name: str
    ratings: Mapping[System, RatingResult]
    pairs: tuple[int, ...] = ()  #: every pair number of a member entered more than once
    #: the highest norm earned toward a title, with the test at each level (norms.py)
    norm: NormResult | None = None


@dataclass(frozen=True)
class SectionResult:
    number: int
    name: str
    rules: RuleSet
    systems: tuple[System, ...]
    type: SectionType
    k: KFactor
    dual: bool  #: rated in both Regular and Quick (section 4.2's dual-rated K)
    players: tuple[PlayerResult, ...] = field(default=())

    def player(self, pair: int) -> PlayerResult:
        for p in self.players:
            if pair in p.pairs or p.pair == pair:
                return p
        raise KeyError(pair)


class Outcome(NamedTuple):
    """What the ratings office stores of one rated player in one system: the numbers of a
    `RatingResult` without the explanation, which the office rebuilds on demand by
    rating the section again from the same states (office/explain.py). A named tuple:
    the office builds one for every player it rates."""

    pair: int
    system: System
    pre: float | None
    pre_games: int | None
    post: float
    games_after: int
    floor: float | None  #: the highest floor in force after the event, if computed
    state_after: Rating
    #: the event's rated games won, drawn and lost (None: not counted by this path)
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None


def outcomes_of(result: SectionResult) -> tuple[Outcome, ...]:
    """The outcomes of a section rated by `pipeline.rate_section`: every player
    with a post-event rating, in every system."""
    return tuple(
        Outcome(player.pair, system, r.pre, r.pre_games, r.post, r.games_after or 0,
                r.floors.floor if r.floors else None, r.state_after)
        for player in result.players for system, r in player.ratings.items()
        if r.m and r.post is not None and r.state_after is not None)
