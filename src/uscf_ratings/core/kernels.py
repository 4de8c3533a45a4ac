"""The arithmetic of the rating formulas, as plain scalar functions.

These are the one place where PWe, We, N* and the special formula's knot walk are
computed. They are written in the small subset of Python that both the interpreter and
Numba's compiler accept (floats, ints, indexable sequences, loops; no sets, sorting,
closures or math.fsum), so that the reference pipeline calls them directly and the batch
path (uscf_ratings/batch) compiles these same functions; the rules live in one place.

Sequences of opponents' ratings must be sorted ascending by the caller: sums are then
taken in one fixed order, so a section gives the same floats however its games are listed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from .constants import Constants
from .records import Column

EPSILON = 1e-7  #: "a tolerance to detect values different from zero" (section 4.1)
#: Knots lie exactly 400 from a rating and the walk stops on knots, so the p count of
#: step 4 meets its boundary all the time; a rounding error must not decide it.
KNOT_SLACK = 1e-9
MAX_STEPS = 10_000
PRIOR_NONE, PRIOR_ALL_WINS, PRIOR_ALL_LOSSES = 0, 1, 2


def pwe(r: float, ri: float, c: Constants) -> float:
    """Provisional winning expectancy PWe(R, Ri), section 4.1 (0.5 + (R - Ri)/800 within
    400 of Ri)."""
    if r <= ri - c.pwe_width:
        return 0.0
    if r >= ri + c.pwe_width:
        return 1.0
    return 0.5 + (r - ri) / (2.0 * c.pwe_width)


def we(r: float, ri: float, c: Constants) -> float:
    """Standard winning expectancy We(R, Ri) = 1/(1 + 10^(-(R - Ri)/400)), section 4.2."""
    return 1.0 / (1.0 + math.pow(10.0, -(r - ri) / c.we_scale))


def n_star(r0: float, c: Constants) -> float:
    """N* of section 3 (formula 1)."""
    if r0 > c.n_star_top:
        return c.n_star_games
    return c.n_star_games / math.sqrt(c.n_star_a + c.n_star_b * (c.n_star_centre - r0) ** 2)


def effective_games(n: int, r0: float, c: Constants) -> float:
    """N' = min(N, N*), section 3 (Step 2)."""
    return min(n, n_star(r0, c))


def expected(r0: float, opponents: Column[float], m: int, c: Constants) -> float:
    """E = sum of We(R0, Ri) over the m games (opponents sorted ascending)."""
    total = 0.0
    for i in range(m):
        total += we(r0, opponents[i], c)
    return total


def standard(r0: float, opponents: Column[float], m: int, score: float, k: float,
             bonus_threshold: float, c: Constants) -> tuple[float, float, float, float]:
    """The standard formula of section 4.2: Rs = R0 + K(S - E) + bonus, with
    bonus = max(0, K(S - E) - B sqrt(m')) and m' = max(m, 4) for an eligible player
    (``bonus_threshold`` is B, or NaN when the player is not eligible). Returns
    (Rs, E, K(S - E), bonus)."""
    e = expected(r0, opponents, m, c)
    change = k * (score - e)
    bonus = 0.0
    if not math.isnan(bonus_threshold):
        bonus = max(0.0, change - bonus_threshold * math.sqrt(max(float(m), c.bonus_m_floor)))
    return r0 + change + bonus, e, change, bonus


def objective(r: float, n_eff: float, r0_adj: float, opponents: Column[float], m: int,
              s_adj: float, c: Constants) -> float:
    """f(R) = N' PWe(R, R0') + sum PWe(R, Ri) - S' of section 4.1."""
    total = n_eff * pwe(r, r0_adj, c)
    for i in range(m):
        total += pwe(r, opponents[i], c)
    return total - s_adj


def _knots(r0_adj: float, opponents: Column[float], m: int, knots: Column[float],
           c: Constants) -> int:
    """Fill ``knots`` (room for 2m + 2) with the sorted distinct knots; return how many."""
    count = 0
    for k in range(m + 1):
        centre = r0_adj if k == m else opponents[k]
        for value in (centre - c.pwe_width, centre + c.pwe_width):
            # insertion into the sorted prefix, skipping duplicates
            j = count
            while j > 0 and knots[j - 1] > value:
                j -= 1
            if j > 0 and knots[j - 1] == value:
                continue
            for t in range(count, j, -1):
                knots[t] = knots[t - 1]
            knots[j] = value
            count += 1
    return count


def _below(knots: Column[float], q: int, m: float) -> int:
    """Index of the largest of the q knots with m > z, or -1."""
    a = q - 1
    while a >= 0 and not knots[a] < m:
        a -= 1
    return a


def _above(knots: Column[float], q: int, m: float) -> int:
    """Index of the smallest of the q knots with m < z, or q."""
    b = 0
    while b < q and not knots[b] > m:
        b += 1
    return b


def special_walk(r0: float, n_eff: float, opponents: Column[float], m: int, score: float,
                 prior: int, strict: bool, knots: Column[float],
                 c: Constants) -> tuple[float, int, bool, float, float, bool]:
    """The special rating of section 4.1, as the knot walk of the 2025 text.

    ``prior`` is PRIOR_NONE, PRIOR_ALL_WINS or PRIOR_ALL_LOSSES; ``strict`` counts
    |M - Ri| < 400 as the 2017 text prints it; ``knots`` is scratch room for 2m + 2
    values. Returns (M after the 2700 cap, p, whether the p = 0 rule moved M, R0', S',
    whether the cap applied).
    """
    if prior == PRIOR_ALL_WINS:
        r0_adj, s_adj = r0 - c.pwe_width, score + n_eff
    elif prior == PRIOR_ALL_LOSSES:
        r0_adj, s_adj = r0 + c.pwe_width, score
    else:
        r0_adj, s_adj = r0, score + n_eff / 2.0
    q = _knots(r0_adj, opponents, m, knots, c)

    mm = r0_adj  # step 1: start at M = R0'
    for _ in range(MAX_STEPS):
        fm = objective(mm, n_eff, r0_adj, opponents, m, s_adj, c)
        if fm > EPSILON:  # step 2: walk down to the largest knot below M
            a = _below(knots, q, mm)
            if a < 0:  # f is flat (-S' <= 0) below the lowest knot: cannot happen here
                break
            za = knots[a]
            fza = objective(za, n_eff, r0_adj, opponents, m, s_adj, c)
            if abs(fm - fza) < EPSILON:
                mm = za
                continue
            step = mm - fm * (mm - za) / (fm - fza)
            mm = max(step, za)
        elif fm < -EPSILON:  # step 3: walk up to the smallest knot above M
            b = _above(knots, q, mm)
            if b == q:
                break
            zb = knots[b]
            fzb = objective(zb, n_eff, r0_adj, opponents, m, s_adj, c)
            if abs(fzb - fm) < EPSILON:
                mm = zb
                continue
            step = mm - fm * (zb - mm) / (fzb - fm)
            mm = min(step, zb)
        else:
            break

    # step 4: p counts the opponents within 400 of M, and R0'
    p = 0
    for k in range(m + 1):
        distance = abs(mm - (r0_adj if k == m else opponents[k]))
        if (distance < c.pwe_width - KNOT_SLACK) if strict else \
                (distance <= c.pwe_width + KNOT_SLACK):
            p += 1
    moved = False
    if p == 0:  # f is flat at 0 around M: take the point of [za, zb] nearest R0
        moved = True
        a, b = _below(knots, q, mm), _above(knots, q, mm)
        if a >= 0 and r0 < knots[a]:
            mm = knots[a]
        elif b < q and r0 > knots[b]:
            mm = knots[b]
        else:
            mm = r0
    capped = mm > c.special_cap
    return (c.special_cap if capped else mm), p, moved, r0_adj, s_adj, capped


# --- K, the history counts and the floors (sections 4.2 and 5) ------------------------------
# Optional values take a plain form here: NaN for a missing rating or floor, UNKNOWN for
# a history count the source did not give. The model's None is converted at the edges
# (formulas.py, floors.py, steps.py).

UNKNOWN = -1  #: a history count that is not known


def k_factor(n_eff: float, m: int, half: bool, dual_rating: float, c: Constants) -> float:
    """K of section 4.2: 800/(N' + m), or the 2004 page's half K, 400/(N' + m/2).

    ``dual_rating`` is the pre-event rating for the Regular rating of a dual-rated event
    (above 2200 the numerator is 800(6.5 - 0.0025R), and 200 from 2500), else NaN."""
    numerator = c.k_numerator
    if dual_rating > c.dual_k_from:  # False for NaN
        numerator = (c.k_numerator * (c.dual_k_a - c.dual_k_b * dual_rating)
                     if dual_rating < c.dual_k_top else c.dual_k_top_numerator)
    if half:
        return (numerator / 2.0) / (n_eff + m / 2.0)
    return numerator / (n_eff + m)


def most_meetings(opponents: Sequence[int] | Column[int], start: int, end: int) -> int:
    """The most games against one opponent among ``opponents[start:end]`` (the bonus of
    section 4.2 and a norm toward a title each allow at most two)."""
    most = 0
    for i in range(start, end):
        times = 0  # the games from i on: the whole count at an opponent's first game
        for j in range(i, end):
            if opponents[j] == opponents[i]:
                times += 1
        if times > most:
            most = times
    return most


def bonus_eligible(m: int, most: int, m3_needs_distinct: bool, c: Constants) -> bool:
    """Section 4.2: m >= 3 rated games and no opponent met more than twice (``most`` is the
    most games against one opponent); from the 2024 text, with m = 3 none met twice."""
    if m < c.bonus_min_games:
        return False
    if m == c.bonus_min_games and m3_needs_distinct:
        return most <= 1
    return most <= 2


def all_wins(rated: bool, n: int, wins: int, draws: int, losses: int) -> bool:
    """Every earlier rated game was a win (section 4.1); an unknown count of wins says
    no, an unknown count of draws or losses says none."""
    return rated and wins != UNKNOWN and n > 0 and wins == n and draws <= 0 and losses <= 0


def all_losses(rated: bool, n: int, wins: int, draws: int, losses: int) -> bool:
    """Every earlier rated game was a loss: `all_wins` with the sides swapped."""
    return all_wins(rated, n, losses, draws, wins)


def uses_special(n: int, all_won: bool, all_lost: bool, c: Constants) -> bool:
    """Step 4's choice of formula: special for N <= 8 or an all-wins/all-losses
    history (section 4.1); it rests on N, never on N'."""
    return n <= c.special_max_games or all_won or all_lost


def counts_after(rated: bool, n: int, r0: float, m: int, wins: int, draws: int,
                 wins0: int, draws0: int, losses0: int, events3_0: int, above0: int,
                 c: Constants) -> tuple[int, int, int, int, int, int]:
    """The history counts after the event: games, wins, draws, losses, events of three
    or more games and games played while established above 2200 (sections 1 and 5).
    An unrated player's history starts here; an unknown count stays unknown."""
    losses = m - wins - draws
    events3 = 1 if m >= c.absolute_floor_event_games else 0
    if not rated:
        return n + m, wins, draws, losses, events3, 0
    above = m if (n > c.established_after and r0 > c.olm_floor) else 0
    return (n + m, plus_known(wins0, wins), plus_known(draws0, draws),
            plus_known(losses0, losses), plus_known(events3_0, events3),
            plus_known(above0, above))


def personal_floors(absolute_applies: bool, regular: bool, wins: int, draws: int, events3: int,
                    peak: float, olm: bool, games_above_2200: int, lowered_from: float,
                    lowered_to: float, c: Constants) -> tuple[float, float, float]:
    """The computed floors of section 5 after an event: AF (100 where the rule set does
    not give it), the peak floor and the OLM floor (NaN: none), the last two as an office
    lowered them (section 7). ``wins``, ``draws`` and ``events3`` are the counts AF
    credits, this event's included; earlier counts that are unknown give no credit."""
    absolute = absolute_floor(wins, draws, events3, c) if absolute_applies else \
        c.absolute_floor
    return (absolute, lowered(peak_floor(peak, c), lowered_from, lowered_to),
            lowered(olm_floor(regular, olm, games_above_2200, c), lowered_from, lowered_to))


def olm_after(olm: bool, games_above_2200: int, c: Constants) -> bool:
    """The Original Life Master title after the event: 300 games while established above
    2200 earn it (section 5)."""
    return olm or games_above_2200 >= c.olm_games


def plus_known(before: int, here: int) -> int:
    """A history count after the event; an unknown count stays unknown."""
    return UNKNOWN if before == UNKNOWN else before + here


def peak_before(peak: float, rating: float, games: int, c: Constants) -> float:
    """The highest established rating attained before this event (NaN: none): the
    recorded peak, or the pre-event rating if established and higher."""
    if games > c.established_after and not math.isnan(rating):
        return rating if math.isnan(peak) else max(peak, rating)
    return peak


def peak_after(peak: float, games_after: int, final: float, c: Constants) -> float:
    """The peak once the event is rated: the new rating counts if now established."""
    if games_after > c.established_after:
        return final if math.isnan(peak) else max(peak, final)
    return peak


def absolute_floor(wins: int, draws: int, events3: int, c: Constants) -> float:
    """AF = min(100 + 4 N_W + 2 N_D + N_R, 150), section 5."""
    return min(c.absolute_floor + c.absolute_floor_win * wins + c.absolute_floor_draw * draws
               + c.absolute_floor_event * events3, c.absolute_floor_cap)


def peak_floor(peak: float, c: Constants) -> float:
    """The floor from the peak (NaN: none), section 5: round the peak, subtract 200, and
    take the level at or just below among 1200, 1300, ..., 2100.

    Rounding is half up: floor(x + 0.5) is exact for ratings (x + 0.5 needs no rounding
    below 2^52) and equals rounding x's shortest decimal, as formulas.round_half_up does."""
    if math.isnan(peak):
        return math.nan
    basis = math.floor(peak + 0.5) - c.peak_floor_drop
    if basis < c.peak_floor_lowest:
        return math.nan
    return min(c.peak_floor_highest, c.peak_floor_step * math.floor(basis / c.peak_floor_step))


def olm_floor(regular: bool, olm: bool, games_above_2200: int, c: Constants) -> float:
    """2200 for the Regular rating of an Original Life Master, or of a player with 300
    rated games while established above 2200, section 5 (NaN: none)."""
    if regular and (olm or games_above_2200 >= c.olm_games):
        return c.olm_floor
    return math.nan


def lowered(floor: float, lowered_from: float, lowered_to: float) -> float:
    """A computed floor after an office lowered it (section 7, rule 4): a floor no higher
    than the one lowered is held to the lowered value (NaN: none)."""
    if math.isnan(floor) or math.isnan(lowered_from) or math.isnan(lowered_to) \
            or floor > lowered_from:
        return floor
    return lowered_to
