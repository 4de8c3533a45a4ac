"""Rating a section: the five steps of section 1 of the 2025 text, for each system.

    Step 1  initial ratings for unrated players        (initial.py)
    Step 2  effective games N' = min(N, N*)            (formulas.py)
    Step 3  first estimates for unrated N = 0 players, special formula with N' = 1
    Step 4  intermediate ratings for every player, opponents at pre-event ratings
            (Step 3 for unrated N = 0 opponents, Step 1 for other unrated opponents)
    Step 5  final ratings, opponents at their Step 4 ratings

Each step's rating is raised to 100 if it falls below; personal floors (section 5) then
hold the final rating. Matches (section 7) and foreign FIDE events (section 6) take their
own paths in match.py and foreign.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from .foreign import rate_foreign
from .formulas import k_factor
from .match import rate_match
from .model import SCORE, Player, Section, SectionType, System
from .results import PlayerResult, RatingResult, SectionResult, StepResult
from .rules import RuleSet, rules_for
from .steps import (
    Entrant,
    Game,
    Prior,
    bonus_threshold_for,
    finish_state,
    floors_for,
    held_by_floors,
    history_after,
    is_special,
    prior_for,
    special_step,
    standard_step,
    uses_special,
)
from .timecontrol import parse_time_control, systems_for
from .validate import Problem, SectionError, check_section, section_label


def rate_section(section: Section, rules: RuleSet | None = None) -> SectionResult:
    """Rate one section in every system it is rated in."""
    check_section(section)
    rules = rules if rules is not None else rules_for(section.start_date)
    systems = section_systems(section, rules)
    entrants = merge_entrants(section.players)
    games = collect_games(entrants)
    dual = System.R in systems and System.Q in systems
    per_system: dict[System, list[RatingResult | None]] = {}
    for system in systems:
        if section.type is SectionType.MATCH:
            per_system[system] = rate_match(section, rules, system, entrants, games)
        elif section.type is SectionType.FIDE_FOREIGN:
            per_system[system] = rate_foreign(section, rules, system, entrants, games)
        else:
            per_system[system] = rate_system(section, rules, system, entrants, games, dual)
    players = tuple(
        PlayerResult(
            pair=e.first.pair,
            id=e.first.id,
            name=e.first.name,
            ratings={s: r for s in systems if (r := per_system[s][e.position]) is not None},
            pairs=tuple(p.pair for p in e.rows),
        )
        for e in entrants
    )
    return SectionResult(section.number, section.name, rules, systems, section.type,
                         section.k, dual, players)


def section_systems(section: Section, rules: RuleSet) -> tuple[System, ...]:
    """The systems given in the input, else those of the time control (footnote 1)."""
    if section.systems:
        return section.systems
    if section.type is SectionType.FIDE_FOREIGN:
        return (System.R,)
    if section.time_control is None:
        raise SectionError([Problem(section_label(section), None, None,
                                    "neither the rating systems nor a time control is given: "
                                    "name the systems (R, Q, B, OR, OQ, OB) or the time control")])
    return systems_for(parse_time_control(section.time_control), section.online, rules)


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


def rated_games(entrants: Sequence[Entrant]) -> list[tuple[list[int], list[float]]]:
    """Each entrant's rated games (W, L, D), from its own rows: the opponents' entrant
    indexes and the scores."""
    index = {p.pair: e.position for e in entrants for p in e.rows}
    out = []
    for e in entrants:
        opponents: list[int] = []
        scores: list[float] = []
        for p in e.rows:
            for r in p.results:
                score = SCORE.get(r.code)  # None unless played: Result.played, inlined
                if score is not None and r.opponent is not None:
                    opponents.append(index[r.opponent])
                    scores.append(score)
        out.append((opponents, scores))
    return out


def collect_games(entrants: Sequence[Entrant]) -> tuple[tuple[Game, ...], ...]:
    """Each entrant's rated games (W, L, D), from its own rows."""
    return tuple(tuple(map(Game, opponents, scores))
                 for opponents, scores in rated_games(entrants))


def rate_system(section: Section, rules: RuleSet, system: System,
                entrants: Sequence[Entrant], games: Sequence[tuple[Game, ...]],
                dual: bool) -> list[RatingResult | None]:
    """Steps 1 to 5 and the floors, for every player of the section in one system."""
    priors = [prior_for(e, system, rules, section) for e in entrants]

    def ratings_of(player: int, lookup: Callable[[int], float]) -> tuple[float, ...]:
        return tuple(lookup(g.opponent) for g in games[player])

    def score_of(player: int) -> float:
        return math.fsum(g.score for g in games[player])

    # Step 3: unrated players whose Step 1 N is 0, special formula with N' = 1.
    step3: dict[int, StepResult] = {}
    for i, prior in enumerate(priors):
        if prior.unrated and prior.n == 0 and games[i]:
            step3[i] = special_step(3, prior, 1.0,
                                    ratings_of(i, lambda j: priors[j].r0), score_of(i))

    def step4_input(j: int) -> float:
        return step3[j].rating if j in step3 else priors[j].r0

    def run_step(step: int, lookup: Callable[[int], float]) -> dict[int, StepResult]:
        out = {}
        for i, prior in enumerate(priors):
            if not games[i]:
                continue
            opponents = ratings_of(i, lookup)
            if is_special(prior):
                out[i] = special_step(step, prior, prior.n_eff, opponents, score_of(i))
            else:
                k = k_factor(prior.n_eff, len(games[i]), section.k,
                             dual_rating=prior.r0 if dual and system is System.R else None)
                out[i] = standard_step(step, prior, opponents, score_of(i), k,
                                       bonus_threshold_for(games[i], rules))
        return out

    step4 = run_step(4, step4_input)
    step5 = run_step(5, lambda j: step4[j].rating)
    return [
        _finish(section, rules, system, priors[i], games[i],
                tuple(s for s in (step3.get(i), step4.get(i), step5.get(i)) if s))
        for i in range(len(entrants))
    ]


def _finish(section: Section, rules: RuleSet, system: System, prior: Prior,
            games: Sequence[Game], steps: tuple[StepResult, ...]) -> RatingResult | None:
    """Apply the floors of section 5 to Step 5's rating and build the state after."""
    m = len(games)
    if m == 0 and prior.unrated:
        return None
    special, reason = uses_special(prior)
    base = RatingResult(
        system=system,
        pre=None if prior.rating is None else prior.rating.rating,
        pre_games=None if prior.rating is None else prior.rating.games,
        r0=prior.r0, n=prior.n, n_eff=prior.n_eff, m=m,
        score=math.fsum(g.score for g in games),
        formula=("special" if special else "standard") if m else "none",
        reason=reason if m else "no rated game in this event",
        initial=prior.initial, steps=steps,
        notes=() if prior.rating is None or prior.rating.games_known else (
            f"N was not in the input; assumed N = {prior.rating.games}",),
    )
    if m == 0:  # the rating stands as it was: the published record shows it unchanged
        return replace(base, post=base.pre, state_after=prior.rating, games_after=prior.n)
    state = history_after(prior, games, section)
    floors = floors_for(prior, games, state, system, rules)
    final, applied = held_by_floors(steps[-1].rating, floors)
    return replace(base, floors=floors, floor_applied=applied, post=final,
                   games_after=state.games, state_after=finish_state(state, final))


