"""The procedure of section 1 for one section in one system, as kernels over the record
layout of records.py: the one place where the steps are put together.

    prepare   Step 2 (N'), Step 4's choice of formula and its prior, S, K, bonus
              eligibility (section 4), the history counts after the event and the
              floors of section 5, for every row of a group
    rate      Step 3 (special formula, N' = 1, for unrated players with N = 0),
              Step 4 (opponents at their pre-event or Step 3 ratings), Step 5
              (opponents at their Step 4 ratings), each raised to 100; then the floors
              and the peak and OLM title after the event

Step 1 (initial.py) is read in by the layout (layout.py): R0 and N arrive in `Before`.
The formulas' numbers come in ``c`` (constants.py), one record for all the groups.
Like kernels.py, these are written in the subset of Python that Numba compiles: the
reference path (pipeline.py) runs them over lists and builds its explanation from their
`Trace`; the compiled path (uscf_ratings/batch) compiles them unchanged.
"""

from __future__ import annotations

import math

from .constants import Constants
from .kernels import (
    PRIOR_ALL_LOSSES,
    PRIOR_ALL_WINS,
    PRIOR_NONE,
    all_losses,
    all_wins,
    bonus_eligible,
    counts_after,
    effective_games,
    k_factor,
    most_meetings,
    olm_after,
    peak_after,
    peak_before,
    personal_floors,
    special_walk,
    standard,
    uses_special,
)
from .records import Before, Column, Final, Games, Prepared, Terms, Trace


def most_games(g: int, terms: Terms, games: Games) -> int:
    """The most rated games of one player in group ``g``: the room `rate` needs."""
    most = 0
    for i in range(terms.start[g], terms.stop[g]):
        most = max(most, games.last[i] - games.first[i])
    return most


def prepare(g: int, terms: Terms, before: Before, games: Games, out: Prepared,
            after: Final, c: Constants) -> None:
    """Everything about each row of group ``g`` that does not depend on the other
    players' ratings (see the module's docstring): Steps 3-5's inputs into ``out``, the
    history after the event and the floor into ``after``."""
    for i in range(terms.start[g], terms.stop[g]):
        lo, hi = games.first[i], games.last[i]
        m = hi - lo
        wins = draws = 0
        score = 0.0
        for j in range(lo, hi):
            s = games.score[j]
            score += s  # halves and ones: the sum is exact in any order
            if s == 1.0:
                wins += 1
            elif s == 0.5:
                draws += 1
        most = most_meetings(games.opponent, lo, hi)

        rated, r0, n = before.rated[i], before.r0[i], before.n[i]
        wins0, draws0, losses0 = before.wins[i], before.draws[i], before.losses[i]
        won = all_wins(rated, n, wins0, draws0, losses0)
        lost = all_losses(rated, n, wins0, draws0, losses0)
        n_eff = effective_games(n, r0, c)  # Step 2
        out.n_eff[i] = n_eff
        out.step3[i] = not rated and n == 0
        out.special[i] = uses_special(n, won, lost, c)
        out.prior[i] = PRIOR_ALL_WINS if won else PRIOR_ALL_LOSSES if lost else PRIOR_NONE
        out.score[i] = score
        out.k[i] = 0.0 if m == 0 else k_factor(
            n_eff, m, terms.half_k[g], r0 if terms.dual_regular[g] else math.nan, c)
        out.most[i] = most
        out.bonus_threshold[i] = (terms.bonus_threshold[g] if bonus_eligible(
            m, most, terms.bonus_m3_distinct[g], c) else math.nan)

        games_after, wins_after, draws_after, losses_after, events3_after, above_after = \
            counts_after(rated, n, r0, m, wins, draws, wins0, draws0, losses0,
                         before.events3[i], before.above_2200[i], c)
        after.games[i] = games_after
        after.wins[i] = wins_after
        after.draws[i] = draws_after
        after.losses[i] = losses_after
        after.events3[i] = events3_after
        after.above_2200[i] = above_after
        peak = peak_before(before.peak[i], r0, n, c) if rated else math.nan
        out.peak[i] = peak

        # AF credits this event and the earlier counts that are known
        absolute, peak_floor, olm_floor = personal_floors(
            terms.absolute_floor[g], terms.regular[g], wins + max(wins0, 0),
            draws + max(draws0, 0),
            (1 if m >= c.absolute_floor_event_games else 0) + max(before.events3[i], 0), peak,
            before.olm[i], above_after, before.lowered_from[i], before.lowered_to[i], c)
        out.floor_absolute[i] = absolute
        out.floor_peak[i] = peak_floor
        out.floor_olm[i] = olm_floor
        floor = absolute
        for value in (peak_floor, olm_floor, before.floor[i]):
            if value > floor:  # noqa: PLR1730 - False for NaN (no such floor); max() is not
                floor = value
        after.floor[i] = floor


def rate(g: int, terms: Terms, before: Before, games: Games, prepared: Prepared,
         step3: Trace, step4: Trace, step5: Trace, final: Final,
         opponents: Column[float], knots: Column[float], c: Constants) -> None:
    """Steps 3, 4 and 5, the floors and the state after the event for group ``g``, once
    `prepare` has run. ``opponents`` and ``knots`` are scratch room for m and 2m + 2
    values (m: `most_games`)."""
    start, stop = terms.start[g], terms.stop[g]
    _every_player(3, start, stop, before.r0, before, games, prepared, step3, opponents, knots,
                  c)
    _every_player(4, start, stop, step3.rating, before, games, prepared, step4, opponents,
                  knots, c)
    _every_player(5, start, stop, step4.rating, before, games, prepared, step5, opponents,
                  knots, c)
    for i in range(start, stop):
        final.olm[i] = olm_after(before.olm[i], final.above_2200[i], c)
        if games.last[i] == games.first[i]:
            final.post[i] = math.nan
            final.peak[i] = prepared.peak[i]
            continue
        post = max(step5.rating[i], final.floor[i])  # section 5
        final.post[i] = post
        final.peak[i] = peak_after(prepared.peak[i], final.games[i], post, c)


def _every_player(number: int, start: int, stop: int, inputs: Column[float], before: Before,
                  games: Games, prepared: Prepared, trace: Trace, opponents: Column[float],
                  knots: Column[float], c: Constants) -> None:
    """Step ``number`` (3, 4 or 5) for every row of a group, opponents at ``inputs``.

    Step 3 rates only the unrated players with N = 0, by the special formula with
    N' = 1, and passes the others' R0 on to Step 4; Steps 4 and 5 rate every player with
    a rated game by the formula Step 4 chose (NaN for a player without one)."""
    for i in range(start, stop):
        played = games.last[i] > games.first[i]
        if number == 3 and not (played and prepared.step3[i]):
            trace.rating[i] = before.r0[i]
            continue
        if not played:
            trace.rating[i] = math.nan
            continue
        m = _sorted_opponents(games.first[i], games.last[i], start, inputs, games.opponent,
                              opponents)
        if number == 3:
            n_eff, prior, special = 1.0, PRIOR_NONE, True
        else:
            n_eff, prior, special = prepared.n_eff[i], prepared.prior[i], prepared.special[i]
        if special:
            value, p, moved, r0_adjusted, score_adjusted, capped = special_walk(
                before.r0[i], n_eff, opponents, m, prepared.score[i], prior, False, knots, c)
            trace.r0_adjusted[i] = r0_adjusted
            trace.score_adjusted[i] = score_adjusted
            trace.p[i] = p
            trace.tie_rule[i] = moved
            trace.capped[i] = capped
        else:
            value, expected, change, bonus = standard(
                before.r0[i], opponents, m, prepared.score[i], prepared.k[i],
                prepared.bonus_threshold[i], c)
            trace.expected[i] = expected
            trace.change[i] = change
            trace.bonus[i] = bonus
        trace.unfloored[i] = value
        trace.rating[i] = max(value, c.step_floor)  # "change the rating to 100" (Steps 3-5)


def _sorted_opponents(first: int, last: int, start: int, inputs: Column[float],
                      opponent: Column[int], out: Column[float]) -> int:
    """The ratings at ``inputs`` of the opponents of games first:last, sorted ascending
    into ``out`` (one order of summation, however the games are listed); returns m."""
    m = last - first
    for a in range(m):  # insertion sort: a player has few games in a section
        value = inputs[start + opponent[first + a]]
        b = a
        while b > 0 and out[b - 1] > value:
            out[b] = out[b - 1]
            b -= 1
        out[b] = value
    return m
