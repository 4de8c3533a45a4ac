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

Decisions where the documents are silent (the page says each one where it applies):

* **A rating without N** counts as based on `ASSUMED_GAMES` = 26 games, the fewest of an
  established rating ("more than 25 games", section 1 of the 2025 text), as the file
  readers assume (`uscf_ratings.formats.dbf`). N enters the result only through
  N' = min(N, N*) (section 3) and the choice of formula (N > 8: standard, section 4), so
  every N from max(9, N*) up gives the same rating; N* is at most 26 for ratings up to
  about 1928, where N hardly matters. Above that, 26 gives the largest N' and K of an
  established player: the estimate moves a little more than a player with more games would.
* **A total score** (`EstimateInput.total`): the rating system rates games, not totals.
  The player's own Step 4 depends only on S (the standard formula on S and E, the special
  formula on S), but Step 5 counts each opponent at his Step 4 rating, which moves with his
  own result. So the estimate rates one definite set of results, `assign_results`: wins
  against the lowest-rated opponents, at most one draw (for a half point) with the next,
  losses to the rest; it is exactly what those results entered game by game give. The
  other extreme (wins against the highest-rated) is rated too, to show how much the
  order matters.
* **A dual-rated event** (`EstimateInput.dual`) is a section rated in Regular and Quick,
  so the engine applies section 4.2's K for the Regular rating above 2200. An opponent's
  Quick rating not given is taken equal to his Regular rating; a player's Quick rating
  not given makes him unrated in Quick, with a first rating from Step 1.

A 1500 player (N = 40) beats a 1600 and draws a 1500. In Step 5 the beaten opponent
counts at his Step 4 rating, 1573.24, which his loss alone lowered:

>>> inp = EstimateInput(System.R, date(2026, 8, 1), rating=1500.0, games=40,
...                     games_played=(Game(1600.0, "W"), Game(1500.0, "D")))
>>> est = estimate(inp)
>>> est.rating.formula, est.rating.pre, est.rating.post_rounded
('standard', 1500.0, 1526)
>>> [round(r, 2) for r in est.rating.steps[-1].opponents]
[1573.24, 1500.0]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from ..core.constants import DOCUMENTED
from ..core.elo import performance_rating_400
from ..core.formulas import n_star
from ..core.model import CfcRating, FideRating, Player, Rating, Result, Section, System
from ..core.performance import PerformanceRange, special_performance
from ..core.pipeline import rate_section
from ..core.results import RatingResult, SectionResult
from ..formats.result_json import norm_to_dict, rating_to_dict

DEFAULT_OPPONENT_GAMES = 30  #: "established" (more than 25 games) with some margin
ASSUMED_GAMES = 26  #: N of a rating given without N: the fewest of an established rating
DUAL_K_ABOVE = 2200.0  #: section 4.2: the dual-rated K applies to a Regular rating above this
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
    result: str  #: "W", "D" or "L", from the player's side; "" in the total-score mode
    opponent_games: int = DEFAULT_OPPONENT_GAMES
    opponent_quick: float | None = None  #: a dual-rated event: his Quick rating, if given

    def rating_in(self, system: System) -> float:
        """The opponent's rating in ``system``: in a dual-rated event his Quick rating,
        where given, else the one rating given."""
        if system is System.Q and self.opponent_quick is not None:
            return self.opponent_quick
        return self.opponent_rating


@dataclass(frozen=True)
class OtherRating:
    """A rating that informs an unrated player's initial rating (Step 1)."""

    source: str  #: a system value ("Q", "OR", ...), "FIDE" or "CFC"
    rating: float
    games: int | None = None  #: N, for a US Chess system


@dataclass(frozen=True)
class EstimateInput:
    system: System  #: Regular in a dual-rated event
    day: date  #: the event's date: it chooses the rules
    rating: float | None = None  #: None: unrated in ``system``
    games: int | None = None  #: N of ``rating``; None: not given (`ASSUMED_GAMES`)
    age_group: str = "unknown"
    others: tuple[OtherRating, ...] = ()
    games_played: tuple[Game, ...] = field(default=())
    dual: bool = False  #: Regular and Quick at once (a dual-rated event)
    quick_rating: float | None = None  #: a dual-rated event: the player's Quick rating
    quick_games: int | None = None
    total: float | None = None  #: the total-score mode: the score over ``games_played``
    #: the highest established rating the player has had (section 5's peak floor); None:
    #: not given, and the engine counts the rating given as the peak
    peak: float | None = None
    #: the player's floor as US Chess shows it (a prize floor, or one earned): None, not given
    floor: float | None = None

    def __post_init__(self) -> None:
        if self.dual and self.system is not System.R:
            raise ValueError("a dual-rated event is rated in Regular and Quick: system R")

    @property
    def unrated(self) -> bool:
        return self.rating is None

    @property
    def systems(self) -> tuple[System, ...]:
        return (System.R, System.Q) if self.dual else (self.system,)

    @property
    def played(self) -> tuple[Game, ...]:
        """The games as rated: in the total-score mode, with the results assumed."""
        if self.total is None:
            return self.games_played
        return assign_results(self.games_played, self.total)


@dataclass(frozen=True)
class Part:
    """The estimate in one system, with what the page shows beside it."""

    system: System
    rating: RatingResult
    explanation: dict[str, Any]  #: as ``uscf rate --json`` gives it
    by_400: float  #: the encyclopedia article's "algorithm of 400"
    by_2025: PerformanceRange  #: section 4.1 of the 2025 text with no prior games
    other_order: RatingResult | None  #: total-score mode: wins against the highest-rated
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Estimate:
    input: EstimateInput
    section: Section
    result: SectionResult
    other_order: SectionResult | None = None  #: total-score mode, the other extreme

    @property
    def rating(self) -> RatingResult:
        """The rating in the first system (Regular in a dual-rated event)."""
        return self.of(self.input.system)

    def of(self, system: System) -> RatingResult:
        return self.result.player(1).ratings[system]

    @property
    def norm(self) -> dict[str, Any] | None:
        """The player's norm toward a title (`result_json.norm_to_dict`): computed by the
        core for this section, so earned only where it is Regular over the board; else
        its ``reason`` says why there is none. The opponents' post-event ratings it uses
        are their ratings after their one game, against the player."""
        return norm_to_dict(self.result.player(1).norm)

    @property
    def explanation(self) -> dict[str, Any]:
        """The rating in the JSON of ``uscf rate --json`` (formula, K, E, bonus, steps)."""
        return rating_to_dict(self.rating)

    @property
    def parts(self) -> tuple[Part, ...]:
        return tuple(self._part(s) for s in self.input.systems)

    def _part(self, system: System) -> Part:
        rating = self.of(system)
        opponents = [g.rating_in(system) for g in self.input.played]
        other = self.other_order.player(1).ratings[system] if self.other_order else None
        return Part(system, rating, rating_to_dict(rating),
                    performance_rating_400(opponents, rating.score),
                    special_performance(opponents, rating.score), other,
                    part_notes(self.input, system, rating))

    @property
    def notes(self) -> tuple[str, ...]:
        """What the estimate assumed of the games, in plain words."""
        return input_notes(self.input)

    def to_json(self) -> dict[str, Any]:
        """The estimate as ``uscf estimate --json`` gives it: each system's rating in the
        JSON of ``uscf rate --json`` (``explanation``), the performance ratings, the other
        order of a total score, the notes, the norm and the rules used."""
        rules = self.result.rules
        return {
            "date": self.input.day.isoformat(),
            "games": [{"opponent_rating": g.opponent_rating, "opponent_games": g.opponent_games,
                       "opponent_quick": g.opponent_quick, "result": g.result}
                      for g in self.input.played],
            "parts": [{"system": part.system.value, "explanation": part.explanation,
                       "performance_400": part.by_400,
                       "performance_2025": {"low": part.by_2025.low, "high": part.by_2025.high},
                       "other_order_post": None if part.other_order is None
                       else part.other_order.post,
                       "notes": list(part.notes)} for part in self.parts],
            "notes": list(self.notes),
            "norm": self.norm,
            "rules": {"effective": rules.effective.isoformat(),
                      "bonus_threshold": rules.bonus_threshold,
                      "initialization": rules.initialization},
        }


def birth_date_for(age_group: str, day: date) -> date | None:
    """A birth date standing for an age group: the middle of that year of age on ``day``.

    >>> birth_date_for("12", date(2026, 8, 1))
    datetime.date(2014, 1, 30)
    """
    if not age_group.isdigit():
        return None
    return day - timedelta(days=round((int(age_group) + 0.5) * 365.25))


def assign_results(games: tuple[Game, ...], score: float, upsets: bool = False) -> tuple[Game, ...]:
    """Results scoring ``score``: wins against the lowest-rated opponents, a draw with the
    next for a half point, losses to the rest (``upsets``: wins against the highest-rated
    first). Equal ratings keep the order given; the games keep their order.

    >>> played = (Game(1600.0, ""), Game(1400.0, ""), Game(1500.0, ""))
    >>> [g.result for g in assign_results(played, 1.5)]
    ['L', 'W', 'D']
    >>> [g.result for g in assign_results(played, 1.5, upsets=True)]
    ['W', 'L', 'D']
    """
    wins, half = divmod(score, 1.0)
    order = sorted(range(len(games)), key=lambda i: games[i].opponent_rating, reverse=upsets)
    results = ["L"] * len(games)
    for rank, i in enumerate(order):
        if rank < wins:
            results[i] = "W"
        elif rank == wins and half:
            results[i] = "D"
    return tuple(replace(g, result=r) for g, r in zip(games, results, strict=True))


def own_rating(value: float, games: int | None, day: date, peak: float | None = None,
               floor: float | None = None) -> Rating:
    """The player's rating, with the peak and floor given (section 5); without N,
    `ASSUMED_GAMES` and ``games_known`` False (the result's notes then say "N was not in
    the input")."""
    if games is None:
        return Rating(value, ASSUMED_GAMES, date=day, peak=peak, floor=floor,
                      games_known=False)
    return Rating(value, games, date=day, peak=peak, floor=floor)


def player_for(inp: EstimateInput) -> Player:
    ratings: dict[System, Rating] = {}
    fide = cfc = None
    if inp.rating is not None:
        ratings[inp.system] = own_rating(inp.rating, inp.games, inp.day, inp.peak, inp.floor)
    else:
        for other in inp.others:
            if other.source == "FIDE":
                fide = FideRating(other.rating, inp.day)
            elif other.source == "CFC":
                cfc = CfcRating(other.rating, inp.day)
            elif other.source != inp.system.value:
                ratings[System(other.source)] = Rating(other.rating, other.games or 0, date=inp.day)
    if inp.dual and inp.quick_rating is not None:
        ratings[System.Q] = own_rating(inp.quick_rating, inp.quick_games, inp.day)
    results = tuple(Result(n, g.result, n + 1) for n, g in enumerate(inp.played, start=1))
    return Player(1, "", "You", birth_date=birth_date_for(inp.age_group, inp.day),
                  adult=True if inp.age_group == "adult" else None,
                  ratings=ratings, fide=fide, cfc=cfc, results=results)


def opponent_for(inp: EstimateInput, number: int, game: Game) -> Player:
    """Opponent ``number`` (1-based) plays only round ``number``: the player's game."""
    rounds = len(inp.games_played)
    results = tuple(Result(r, MIRROR[game.result], 1) if r == number else Result(r, "U")
                    for r in range(1, rounds + 1))
    ratings = {s: Rating(game.rating_in(s), game.opponent_games, date=inp.day)
               for s in inp.systems}
    return Player(number + 1, "", f"Opponent {number}", ratings=ratings, results=results)


def section_for(inp: EstimateInput) -> Section:
    """The player and one opponent a game, rated in the input's systems: Regular and
    Quick for a dual-rated event, which the engine rates with section 4.2's dual K."""
    players = (player_for(inp),) + tuple(opponent_for(inp, n, g)
                                         for n, g in enumerate(inp.played, start=1))
    return Section(1, inp.day, inp.day, players, name="Estimate", systems=inp.systems,
                   online=inp.system.online)


def estimate(inp: EstimateInput) -> Estimate:
    """Rate the player's games. A section the engine refuses raises the engine's own
    error (`core.pipeline.RATE_REFUSALS`), which the web app turns into a 422 page and the CLI into
    a message. In the total-score mode, the other order of results is rated too, where
    it can differ."""
    section = section_for(inp)
    result = rate_section(section)
    other = None
    if order_matters(inp):
        upsets = assign_results(inp.games_played, inp.total or 0.0, upsets=True)
        other = rate_section(section_for(replace(inp, games_played=upsets, total=None)))
    return Estimate(inp, section, result, other)


def order_matters(inp: EstimateInput) -> bool:
    """In the total-score mode, whether another order of the same results could rate
    differently: some points and some losses, against opponents who are not all alike."""
    if inp.total is None or not 0 < inp.total < len(inp.games_played):
        return False
    kinds = {(g.opponent_rating, g.opponent_quick, g.opponent_games) for g in inp.games_played}
    return len(kinds) > 1


def input_notes(inp: EstimateInput) -> tuple[str, ...]:
    """What the estimate assumed of the games."""
    notes = []
    if inp.total is not None:
        notes.append(
            f"You gave a total score, {inp.total:g} of {len(inp.games_played)}. The rating "
            f"system rates each game, so this estimate assumes {_tally(inp.played)}: the "
            "wins against your lowest-rated opponents, the losses to your highest-rated "
            "(the results in the table). Your own Step 4 depends only on the total, but "
            "Step 5 counts each opponent at his Step 4 rating, which moves with his own "
            "result against you: another order of the same results can give a slightly "
            "different rating.")
    if inp.dual and any(g.opponent_quick is None for g in inp.games_played):
        notes.append("An opponent's Quick rating that you did not give is taken to be the "
                     "same as his Regular rating.")
    return tuple(notes)


def part_notes(inp: EstimateInput, system: System, rating: RatingResult) -> tuple[str, ...]:
    """What the estimate assumed of the player's rating in ``system``."""
    own = (inp.rating, inp.games) if system is inp.system else (inp.quick_rating, inp.quick_games)
    notes = [] if own[0] is None else [n_note(own[0], own[1])]
    if inp.dual and system is System.Q and own[0] is None:
        notes.append("You gave no Quick rating, so you are rated as unrated in Quick: your "
                     "first Quick rating comes from Step 1 (section 2), which uses your "
                     "other ratings.")
    if own[0] is None:
        notes.extend(first_rating_notes(inp, rating))
    if inp.dual and system is System.R and rating.r0 > DUAL_K_ABOVE:
        notes.append("A dual-rated event: above 2200 the Regular rating's K is "
                     "800(6.5 − 0.0025 R)/(N′ + m), and 200/(N′ + m) from 2500 (section 4.2).")
    return tuple(n for n in notes if n)


def first_rating_notes(inp: EstimateInput, rating: RatingResult) -> list[str]:
    """What an unrated player's first rating (Step 1, section 2) took from each rating
    given and from the age group: each FIDE or CFC rating's conversion, and whether the
    age counted (an age-based start says so itself, in Step 1's detail).

    A 12-year-old with FIDE 1500 in 2026: FIDE converts by the 2024 formula,
    -1073 + 1.5667 x 1500 = 1277.05; the age is not averaged in.

    >>> inp = EstimateInput(System.R, date(2026, 8, 1), age_group="12",
    ...                     others=(OtherRating("FIDE", 1500.0),),
    ...                     games_played=(Game(1600.0, "W"),))
    >>> for note in first_rating_notes(inp, estimate(inp).rating): print(note[:76])
    Your FIDE rating 1500 counts as 1277.05: FIDE conversion -1073 + 1.5667 FIDE
    For your age group (12 years old), your age-based rating is 625.05 (section
    """
    initial = rating.initial
    if initial is None or initial.method == "assigned":
        return []
    notes = [f"Your {s.source} rating {s.given:g} counts as {s.rating:.2f}: {s.conversion}."
             for s in initial.sources if s.given is not None]
    if initial.method == "blended":
        ages = {round(s.age_rating, 2) for s in initial.sources if s.age_rating is not None}
        age = f"{min(ages):.2f}" if len(ages) == 1 else "different at each rating's date"
        who = "Without an age group, your" if inp.age_group == "unknown" else \
            f"For your age group ({AGE_GROUPS.get(inp.age_group, inp.age_group)}), your"
        notes.append(
            f"{who} age-based rating is {age} (section 2.3). It is not averaged in: it is "
            "the first rating only where no other rating is known. It enters each "
            "rating's weight, through Z = min(6, (X - P)/350), only for a rating older "
            "than the event; the ratings here are taken as current, so the age changes "
            "nothing.")
    elif initial.method == "priority":
        notes.append("Your age counts only where the priority list of the 2017 text "
                     "(section 2) finds none of its ratings: here it found one.")
    return notes


def n_note(value: float, games: int | None) -> str:
    """What the page says of an N not given: N enters through N' = min(N, N*) (section 3)
    and the formula (standard for N > 8, section 4), so every N from max(9, N*) up gives
    the same K; from 26 up (established) the same floors too, so the same rating.

    >>> n_note(1500.0, None)[:71]
    'N not given: assumed N = 26, the fewest games of an established rating.'
    >>> n_note(2200.0, 40)
    ''
    """
    if games is not None:
        return ""
    star = n_star(value)
    same_from = max(int(DOCUMENTED.special_max_games) + 1, math.ceil(star))
    start = (f"N not given: assumed N = {ASSUMED_GAMES}, the fewest games of an established "
             "rating. ")
    if same_from <= ASSUMED_GAMES:
        return start + (f"N hardly matters for an established rating: N′ = min(N, N*), and "
                        f"N* = {star:.2f} for this rating, so every established player (N of "
                        f"{ASSUMED_GAMES} or more) gets this same result (sections 3 and 4).")
    return start + (f"Here N′ = min(N, N*) = min({ASSUMED_GAMES}, {star:.2f}) = {ASSUMED_GAMES}; "
                    f"with {same_from} games or more N′ would be {star:.2f}, K a little "
                    "smaller and the change a little smaller (sections 3 and 4.2).")


def _tally(games: tuple[Game, ...]) -> str:
    """"2 wins, 1 draw and 1 loss": the results counted, in words."""
    words = {"W": ("win", "wins"), "D": ("draw", "draws"), "L": ("loss", "losses")}
    counts = [(sum(g.result == code for g in games), names) for code, names in words.items()]
    said = [f"{n} {names[n != 1]}" for n, names in counts if n]
    return " and ".join(said) if len(said) < 3 else f"{said[0]}, {said[1]} and {said[2]}"
