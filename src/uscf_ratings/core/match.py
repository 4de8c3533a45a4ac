"""Individual matches (section 7 of the 2025 text).

1. Both players must have an established published rating, at most 400 points apart.
2. The change in one match is at most 50 points; the net change from matches is at most
   100 points in 180 days and 200 points in 3 years.
3. The bonus formula does not apply.
4. Floors are not automatically in effect: a result below the player's floor is treated
   as a request to lower the floor by 100 points. This engine treats the request as
   granted (the rating may fall to 100 below the old floor, and the state after records
   the lowered floor) and says so in the result's notes; an office that refuses it sets
   the floor back by hand and re-rates.

Otherwise a match is rated like any section, in Steps 4 and 5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta

from .formulas import k_factor
from .model import MatchChange, Section, System
from .results import RatingResult, StepResult
from .rules import RuleSet
from .steps import Entrant, Game, finish_state, floors_for, history_after, prior_for, standard_step
from .validate import Problem, SectionError, player_label, section_label

MATCH_MAX_DIFFERENCE = 400.0
MATCH_CAP = 50.0
CAPS = ((timedelta(days=180), 100.0, "180 days"), (None, 200.0, "3 years"))


def rate_match(section: Section, rules: RuleSet, system: System, entrants: Sequence[Entrant],
               games: Sequence[Sequence[Game]]) -> list[RatingResult | None]:
    """Rate the two players of a match in ``system``; refuse an ineligible match."""
    priors = [prior_for(e, system, rules, section) for e in entrants]
    c = rules.constants
    players = [i for i in range(len(entrants)) if games[i]]
    problems = []
    label = section_label(section)
    for i in players:
        rating = priors[i].rating
        if rating is None or not rating.established_after(c.established_after):
            problems.append(Problem(label, player_label(entrants[i].first), None,
                f"a match needs an established {system} rating (section 7); "
                + ("unrated" if rating is None else f"N = {rating.games}")))
    if len(players) != 2:
        problems.append(Problem(label, None, None,
            f"a match is between two players; {len(players)} have rated games"))
    elif not problems:
        a, b = (priors[i].r0 for i in players)
        if abs(a - b) > MATCH_MAX_DIFFERENCE:
            problems.append(Problem(label, None, None,
                f"the {system} ratings {a:g} and {b:g} are more than 400 apart (section 7)"))
    if problems:
        raise SectionError(problems)

    def run(step: int, opponent_rating: dict[int, float]) -> dict[int, StepResult]:
        out = {}
        for i in players:
            opponents = tuple(opponent_rating[g.opponent] for g in games[i])
            score = math.fsum(g.score for g in games[i])
            k = k_factor(priors[i].n_eff, len(games[i]), section.k, c=c)
            out[i] = standard_step(step, priors[i], opponents, score, k, None, c)
        return out

    step4 = run(4, {i: priors[i].r0 for i in players})
    step5 = run(5, {i: step4[i].rating for i in players})
    results: list[RatingResult | None] = [None] * len(entrants)
    for i in players:
        prior = priors[i]
        assert prior.rating is not None
        change, cap = capped_change(step5[i].rating - prior.r0, prior.rating.match_changes,
                                    section.end_date)
        final = max(prior.r0 + change, c.absolute_floor)
        state = history_after(prior, games[i], section, c)
        floors = floors_for(prior, games[i], state, system, rules)
        notes: tuple[str, ...] = ()
        if final < floors.floor:
            lowered = floors.floor - 100
            notes = ((f"below the floor of {floors.floor:g}: treated as a request to lower "
                      f"it to {lowered:g} (section 7), granted here"),)
            final = max(final, lowered)
            state = replace(state, floor_lowered_from=floors.floor, floor_lowered_to=lowered,
                            floor=None if state.floor is None else min(state.floor, lowered))
        state = replace(state, match_changes=state.match_changes
                        + (MatchChange(section.end_date, final - prior.r0),))
        results[i] = RatingResult(
            system=system, pre=prior.r0, pre_games=prior.n, r0=prior.r0, n=prior.n,
            n_eff=prior.n_eff, m=len(games[i]), score=math.fsum(g.score for g in games[i]),
            formula="match", reason="individual match (section 7): standard formula, no bonus",
            steps=(step4[i], step5[i]), floors=floors, match_cap=cap, post=final,
            games_after=state.games, state_after=finish_state(state, final, c), notes=notes)
    return results


def capped_change(change: float, earlier: Sequence[MatchChange], on: date) -> tuple[float, str | None]:
    """Limit a match's change to 50, and the net of match changes to 100 in 180 days and
    200 in 3 years (section 7). Returns the change and which cap applied."""
    cap = None
    if abs(change) > MATCH_CAP:
        change, cap = math.copysign(MATCH_CAP, change), "50 points in one match"
    for window, limit, name in CAPS:
        start = on - window if window else _years_before(on, 3)
        net = math.fsum(c.change for c in earlier if start < c.date <= on)
        if abs(net + change) > limit:
            change = math.copysign(limit, net + change) - net
            cap = f"net {limit:g} points in {name}"
    return change, cap


def _years_before(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year - years)
    except ValueError:  # 29 February
        return day.replace(year=day.year - years, day=28)
