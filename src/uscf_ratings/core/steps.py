"""The parts every kind of section is rated with: a player's prior (Steps 1 and 2), one
step of the special or standard formula, and the history and floors after the event.

`pipeline` runs them for Swiss and round-robin sections, `match` for
matches (section 7) and `foreign` for foreign FIDE events (section 6).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from . import floors as floor_rules
from . import kernels
from .constants import DOCUMENTED, Constants
from .formulas import bonus_eligible, effective_games, standard_rating
from .initial import Initial, initial_rating
from .model import Player, Rating, Section, System
from .results import StepResult
from .rules import RuleSet
from .special import special_rating


class Entrant(NamedTuple):
    """A member in a section: one or more rows (a member entered twice is one player).
    A named tuple, as Game is: one is made for every player of every section."""

    position: int  #: the entrant's place in the section's order of entrants
    rows: tuple[Player, ...]

    @property
    def first(self) -> Player:
        return self.rows[0]


class Game(NamedTuple):
    """One rated game of an entrant (a named tuple: sections hold hundreds of them)."""

    opponent: int  #: the opponent's entrant index
    score: float  #: 1, 0.5 or 0


def merge_entrants(players: Sequence[Player]) -> tuple[Entrant, ...]:
    """Group rows by member id: a member entered twice is rated as one player."""
    groups: dict[str, list[Player]] = {}
    order: list[list[Player]] = []
    for p in players:
        if p.id and p.id in groups:
            groups[p.id].append(p)
            continue
        rows = [p]
        order.append(rows)
        if p.id:
            groups[p.id] = rows
    return tuple(Entrant(i, tuple(rows)) for i, rows in enumerate(order))


@dataclass(frozen=True)
class Prior:
    """A player's position in one system before Step 3: the outcome of Steps 1 and 2."""

    rating: Rating | None  #: None when unrated in this system
    initial: Initial | None
    r0: float
    n: int
    n_eff: float

    @property
    def unrated(self) -> bool:
        return self.rating is None


def rating_of(entrant: Entrant, system: System) -> Rating | None:
    """The player's pre-event rating in ``system``: from the first of its rows that has
    one (a member entered twice is one player)."""
    rows = entrant.rows
    if len(rows) == 1:  # the usual case, without the generator
        return rows[0].ratings.get(system)
    return next((p.ratings[system] for p in rows if system in p.ratings), None)


def prior_for(entrant: Entrant, system: System, rules: RuleSet, section: Section) -> Prior:
    """Steps 1 and 2 for one player."""
    rating = rating_of(entrant, system)
    c = rules.constants
    if rating is not None:
        return Prior(rating, None, rating.rating, rating.games,
                     effective_games(rating.games, rating.rating, c))
    initial = initial_rating(entrant.first, system, rules, section.end_date)
    return Prior(None, initial, initial.rating, initial.games,
                 effective_games(initial.games, initial.rating, c))


def uses_special(prior: Prior, c: Constants) -> tuple[bool, str]:
    """Step 4's choice: special for N <= 8 or an all-wins/all-losses history; the choice
    rests on N, never on N' (a 500-rated player with 20 games uses the standard formula)."""
    if prior.rating is not None and prior.rating.all_wins:
        return True, "all earlier games were wins (section 4.1)"
    if prior.rating is not None and prior.rating.all_losses:
        return True, "all earlier games were losses (section 4.1)"
    if kernels.uses_special(prior.n, False, False, c):
        return True, f"N = {prior.n} <= {c.special_max_games:g} (Step 4)"
    return False, f"N = {prior.n} > {c.special_max_games:g} (Step 4)"


def special_step(step: int, prior: Prior, n_eff: float, opponents: tuple[float, ...],
                 score: float, c: Constants) -> StepResult:
    rating = prior.rating
    out = special_rating(
        prior.r0, n_eff, opponents, score,
        all_wins=rating is not None and rating.all_wins,
        all_losses=rating is not None and rating.all_losses, c=c,
    )
    return StepResult(step, "special", opponents, n_eff, out.rating,
                      max(out.rating, c.step_floor), r0_adjusted=out.r0_adjusted,
                      score_adjusted=out.score_adjusted, prior=out.prior, p=out.p,
                      tie_rule=out.tie_rule, capped=out.capped)


def standard_step(step: int, prior: Prior, opponents: tuple[float, ...], score: float,
                  k: float, bonus_threshold: float | None, c: Constants) -> StepResult:
    out = standard_rating(prior.r0, opponents, score, k, bonus_threshold, c)
    return StepResult(step, "standard", opponents, prior.n_eff, out.rating,
                      max(out.rating, c.step_floor), k=out.k, expected=out.expected,
                      change=out.change, bonus=out.bonus, bonus_eligible=out.bonus_eligible)


def bonus_threshold_for(games: Sequence[Game], rules: RuleSet) -> float | None:
    """B when the player's games allow a bonus (section 4.2), else None."""
    opponents = [g.opponent for g in games]
    if len(set(opponents)) == len(opponents):  # the usual case: no opponent met twice
        counts = [1] * len(opponents)
    else:
        counts = list(Counter(opponents).values())
    if bonus_eligible(counts, rules.bonus_m3_needs_distinct_opponents, rules.constants):
        return rules.bonus_threshold
    return None


def held_by_floors(rating: float, floors: floor_rules.Floors) -> tuple[float, str | None]:
    """The final rating, and which floor raised it if one did (section 5)."""
    if rating < floors.floor:
        return floors.floor, floors.kind
    return rating, None


def history_after(prior: Prior, games: Sequence[Game], section: Section,
                  c: Constants) -> Rating:
    """The player's history counts after the event (the rating itself is set by
    `finish_state`): kernels.counts_after, with the model's None for UNKNOWN."""
    r = prior.rating
    wins, draws = _tally(games)
    known = floor_rules.nan_for_none
    wins0, draws0, losses0, events3_0, above0 = (_count(getattr(r, name, None))
                                                 for name in _COUNTS)
    games_after, wins_after, draws_after, losses_after, events3_after, above_after = \
        kernels.counts_after(r is not None, prior.n, prior.r0, len(games), wins, draws,
                             wins0, draws0, losses0, events3_0, above0, c)
    if r is None:  # an unrated player's history starts here
        return Rating(prior.r0, games_after, section.end_date, wins_after, draws_after,
                      losses_after, events3_after, games_above_2200=above_after)
    return Rating(
        rating=prior.r0, games=games_after, date=section.end_date,
        wins=_known(wins_after), draws=_known(draws_after), losses=_known(losses_after),
        events3=_known(events3_after),
        peak=floor_rules.none_for_nan(kernels.peak_before(known(r.peak), r.rating, r.games, c)),
        floor=r.floor, floor_lowered_from=r.floor_lowered_from,
        floor_lowered_to=r.floor_lowered_to, olm=r.olm,
        games_above_2200=_known(above_after), match_changes=r.match_changes,
        games_known=r.games_known,
    )


#: the counts kernels.counts_after takes from the pre-event rating, in its order
_COUNTS = ("wins", "draws", "losses", "events3", "games_above_2200")


def peak_before(r: Rating, c: Constants = DOCUMENTED) -> float | None:
    """The highest established rating attained before this event (section 5): the
    recorded peak, or the rating itself if established and higher."""
    return floor_rules.none_for_nan(
        kernels.peak_before(floor_rules.nan_for_none(r.peak), r.rating, r.games, c))


def _tally(games: Sequence[Game]) -> tuple[int, int]:
    """Wins and draws."""
    wins = draws = 0
    for g in games:
        if g.score == 1:
            wins += 1
        elif g.score == 0.5:
            draws += 1
    return wins, draws


def _count(value: int | None) -> int:
    return kernels.UNKNOWN if value is None else value


def _known(count: int) -> int | None:
    return None if count == kernels.UNKNOWN else count


def floors_for(prior: Prior, games: Sequence[Game], state: Rating, system: System,
               rules: RuleSet) -> floor_rules.Floors:
    """Every floor of section 5 that holds this player's final rating
    (kernels.personal_floors); ``state`` is `history_after`'s."""
    r = prior.rating
    c = rules.constants
    wins, draws = _tally(games)
    nan = floor_rules.nan_for_none
    absolute, peak, olm = kernels.personal_floors(
        system in rules.absolute_floor_systems, system is System.R,
        wins + ((r.wins or 0) if r else 0), draws + ((r.draws or 0) if r else 0),
        (1 if len(games) >= c.absolute_floor_event_games else 0)
        + ((r.events3 or 0) if r else 0), nan(state.peak),
        state.olm, _count(state.games_above_2200), nan(state.floor_lowered_from),
        nan(state.floor_lowered_to), c)
    none = floor_rules.none_for_nan
    return floor_rules.Floors(absolute, none(peak), none(olm), state.floor)


def finish_state(state: Rating, final: float, c: Constants) -> Rating:
    """Set the final rating, the peak and the OLM title in the state after the event."""
    peak = floor_rules.none_for_nan(
        kernels.peak_after(floor_rules.nan_for_none(state.peak), state.games, final, c))
    olm = kernels.olm_after(state.olm, _count(state.games_above_2200), c)
    # Built field by field rather than with dataclasses.replace, which costs three times
    # as much
    return Rating(final, state.games, state.date, state.wins, state.draws, state.losses,
                  state.events3, peak, state.floor, state.floor_lowered_from,
                  state.floor_lowered_to, olm, state.games_above_2200, state.match_changes,
                  state.games_known)
