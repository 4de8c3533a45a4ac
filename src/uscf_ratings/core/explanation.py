"""What the procedure's kernels computed, read back out of the record layout: the
`RatingResult` with its explanation (the reference path) and the state after the event
(both paths).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from .constants import Constants
from .floors import Floors, none_for_nan
from .initial import Initial
from .kernels import PRIOR_ALL_LOSSES, PRIOR_ALL_WINS, UNKNOWN
from .layout import Lineup
from .model import Rating, rating_of_fields
from .records import Before, Final, Games, Prepared, Trace
from .results import Outcome, RatingResult, StepResult
from .special import PRIORS


def state_after(rating: Rating | None, end: date, post: float, games: int, wins: int,
                draws: int, losses: int, events3: int, above_2200: int, peak: float,
                olm: bool) -> Rating:
    """The state a later event starts from: the post-event rating, the history counts
    after the event (UNKNOWN stays unknown) and what the pre-event rating carries on
    (floors set by hand or lowered, match changes, whether N was known)."""
    peak_known = None if peak != peak else peak  # NaN: none_for_nan, inlined (per player)
    if rating is None:
        return rating_of_fields(post, games, end, wins, draws, losses, events3, peak_known,
                                None, None, None, olm, above_2200, (), True)
    # _known of each count, inlined: this runs for every player the office rates
    return rating_of_fields(post, games, end, None if wins == UNKNOWN else wins,
                            None if draws == UNKNOWN else draws,
                            None if losses == UNKNOWN else losses,
                            None if events3 == UNKNOWN else events3, peak_known, rating.floor,
                            rating.floor_lowered_from, rating.floor_lowered_to, olm,
                            None if above_2200 == UNKNOWN else above_2200,
                            rating.match_changes, rating.games_known)


#: ``tuple.__new__(Outcome, values)`` is ``Outcome(*values)`` without the named tuple's
#: Python-level ``__new__``: the same tuple in about half the time (one for every player
#: the office rates)
_outcome = tuple.__new__


def stored_outcomes(laid: Lineup, ratings: Sequence[Rating | None], games: Games,
                    final: Final, end: date, at: int = 0) -> tuple[Outcome, ...]:
    """What the office stores of a rated lineup (records of lists): every player with a
    rated game, in every system, from the pre-event ``ratings`` (per row). The lineup's
    rows begin at row ``at`` of the records (`layout.Columns.add`)."""
    out = []
    size = laid.size
    # each column read once: this runs for every player the office rates
    first, last, posts, floors = games.first, games.last, final.post, final.floor
    counts, wins, draws, losses = final.games, final.wins, final.draws, final.losses
    events3, above_2200, peaks, olms = final.events3, final.above_2200, final.peak, final.olm
    pairs, systems, won_by, drawn_by = laid.pairs, laid.systems, laid.won, laid.drawn
    for row, rating in enumerate(ratings, at):
        if last[row] == first[row]:  # no rated game
            continue
        post = posts[row]
        state = state_after(rating, end, post, counts[row], wins[row], draws[row], losses[row],
                            events3[row], above_2200[row], peaks[row], olms[row])
        g, e = divmod(row - at, size)
        won, drawn = won_by[e], drawn_by[e]
        out.append(_outcome(Outcome, (
            pairs[e], systems[g], None if rating is None else rating.rating,
            None if rating is None else rating.games, post, state.games, floors[row], state,
            won, drawn, laid.last[e] - laid.first[e] - won - drawn)))
    return tuple(out)


def reason(n: int, prior: int, special: bool, c: Constants) -> str:
    """Why Step 4 chose its formula (section 4.1 and Step 4)."""
    if prior == PRIOR_ALL_WINS:
        return "all earlier games were wins (section 4.1)"
    if prior == PRIOR_ALL_LOSSES:
        return "all earlier games were losses (section 4.1)"
    sign = "<=" if special else ">"
    return f"N = {n} {sign} {c.special_max_games:g} (Step 4)"


def explain_group(g: int, laid: Lineup, initials: dict[int, Initial], before: Before,
                  games: Games, prepared: Prepared, steps: tuple[Trace, Trace, Trace],
                  final: Final, end: date) -> list[RatingResult | None]:
    """Each entrant's `RatingResult` in group ``g`` (None: unrated, no rated game)."""
    start = g * laid.size
    system = laid.systems[g]
    out: list[RatingResult | None] = []
    for e in range(laid.size):
        row = start + e
        rating = laid.ratings[row]
        lo, hi = games.first[row], games.last[row]
        m = hi - lo
        if m == 0 and rating is None:
            out.append(None)
            continue
        special = bool(prepared.special[row])
        n, n_eff = before.n[row], prepared.n_eff[row]
        result = RatingResult(
            system=system,
            pre=None if rating is None else rating.rating,
            pre_games=None if rating is None else rating.games,
            r0=before.r0[row], n=n, n_eff=n_eff, m=m, score=prepared.score[row],
            formula=("special" if special else "standard") if m else "none",
            reason=reason(n, prepared.prior[row], special, laid.constants) if m else
            "no rated game in this event",
            initial=initials.get(row),
            notes=() if rating is None or rating.games_known else (
                f"N was not in the input; assumed N = {rating.games}",),
        )
        if m == 0:  # the rating stands as it was: the published record shows it unchanged
            out.append(replace(result, post=result.pre, state_after=rating, games_after=n))
            continue
        inputs = (before.r0, steps[0].rating, steps[1].rating)
        taken = [(3, steps[0], 1.0, True)] if prepared.step3[row] else []
        taken += [(4, steps[1], n_eff, special), (5, steps[2], n_eff, special)]
        explained = tuple(
            _step(number, trace, row, tuple(inputs[number - 3][start + games.opponent[j]]
                                            for j in range(lo, hi)),
                  used_n_eff, uses_special, prepared)
            for number, trace, used_n_eff, uses_special in taken)
        floors = Floors(prepared.floor_absolute[row], none_for_nan(prepared.floor_peak[row]),
                        none_for_nan(prepared.floor_olm[row]),
                        None if rating is None else rating.floor)
        post = final.post[row]
        state = state_after(rating, end, post, final.games[row], final.wins[row],
                            final.draws[row], final.losses[row], final.events3[row],
                            final.above_2200[row], final.peak[row], final.olm[row])
        out.append(replace(result, steps=explained, floors=floors,
                            floor_applied=floors.kind if steps[2].rating[row] < floors.floor
                            else None, post=post, games_after=state.games, state_after=state))
    return out


def _step(number: int, trace: Trace, row: int, opponents: tuple[float, ...], n_eff: float,
          special: bool, prepared: Prepared) -> StepResult:
    if special:
        return StepResult(number, "special", opponents, n_eff, trace.unfloored[row],
                          trace.rating[row], r0_adjusted=trace.r0_adjusted[row],
                          score_adjusted=trace.score_adjusted[row],
                          prior=PRIORS[0 if number == 3 else prepared.prior[row]],
                          p=trace.p[row], tie_rule=bool(trace.tie_rule[row]),
                          capped=bool(trace.capped[row]))
    threshold = prepared.bonus_threshold[row]
    return StepResult(number, "standard", opponents, n_eff, trace.unfloored[row],
                      trace.rating[row], k=prepared.k[row], expected=trace.expected[row],
                      change=trace.change[row], bonus=trace.bonus[row],
                      bonus_eligible=not math.isnan(threshold))
