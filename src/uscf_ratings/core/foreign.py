"""Updating US Chess ratings from foreign FIDE events (section 6 of the 2025 text).

Only players with an established US Chess Regular rating are updated. Their opponents'
FIDE ratings are converted with the conversion of section 2.1 in force at the event's
date, or, for a youth event, with the youth conversion; opponents without a FIDE rating
are ignored. "The standard rating formula (with bonus) is then applied ... only once, as
opposed to twice in the usual algorithm." Floors apply as after any event.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from . import conversions
from .formulas import k_factor
from .model import Section, System
from .results import RatingResult
from .rules import RuleSet
from .steps import (
    Entrant,
    Game,
    bonus_threshold_for,
    finish_state,
    floors_for,
    held_by_floors,
    history_after,
    prior_for,
    standard_step,
)
from .validate import Problem, SectionError, player_label, section_label


def rate_foreign(section: Section, rules: RuleSet, system: System, entrants: Sequence[Entrant],
                 games: Sequence[Sequence[Game]]) -> list[RatingResult | None]:
    """Rate each US player of a foreign FIDE event once, against converted FIDE ratings."""
    if section.youth:
        convert = conversions.YOUTH_FIDE[rules.youth_fide_conversion]
        how = f"youth conversion of {rules.youth_fide_conversion}"
    else:
        convert = conversions.FIDE[rules.fide_conversion]
        how = f"FIDE conversion of {rules.fide_conversion}"
    results: list[RatingResult | None] = [None] * len(entrants)
    problems = []
    c = rules.constants
    for i, entrant in enumerate(entrants):
        rating = next((p.ratings[system] for p in entrant.rows if system in p.ratings), None)
        if rating is None:
            continue  # a foreign opponent: only its FIDE rating is used
        if not rating.established_after(c.established_after):
            problems.append(Problem(section_label(section), player_label(entrant.first), None,
                f"only established {system} ratings are updated from foreign FIDE events "
                f"(section 6); N = {rating.games}"))
            continue
        rated = [g for g in games[i] if entrants[g.opponent].first.fide is not None]
        if not rated:
            continue
        prior = prior_for(entrant, system, rules, section)
        opponents = tuple(convert(_fide(entrants[g.opponent])) for g in rated)
        score = math.fsum(g.score for g in rated)
        k = k_factor(prior.n_eff, len(rated), section.k, c=c)
        step = standard_step(5, prior, opponents, score, k, bonus_threshold_for(rated, rules), c)
        state = history_after(prior, rated, section, c)
        floors = floors_for(prior, rated, state, system, rules)
        final, applied = held_by_floors(step.rating, floors)
        ignored = len(games[i]) - len(rated)
        notes = (f"{ignored} game(s) against opponents without a FIDE rating ignored",) if ignored else ()
        results[i] = RatingResult(
            system=system, pre=rating.rating, pre_games=rating.games, r0=prior.r0, n=prior.n,
            n_eff=prior.n_eff, m=len(rated), score=score, formula="fide_foreign",
            reason=f"foreign FIDE event (section 6): standard formula once, {how}",
            steps=(step,), floors=floors, floor_applied=applied, post=final,
            games_after=state.games, state_after=finish_state(state, final, c), notes=notes)
    if problems:
        raise SectionError(problems)
    return results


def _fide(entrant: Entrant) -> float:
    fide = entrant.first.fide
    assert fide is not None
    return fide.rating
