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
from collections.abc import MutableSequence, Sequence

EPSILON = 1e-7  #: "a tolerance to detect values different from zero" (section 4.1)
SPECIAL_CAP = 2700.0  #: the special formula never gives more than 2700
#: Knots lie exactly 400 from a rating and the walk stops on knots, so the p count of
#: step 4 meets its boundary all the time; a rounding error must not decide it.
KNOT_SLACK = 1e-9
MAX_STEPS = 10_000
PRIOR_NONE, PRIOR_ALL_WINS, PRIOR_ALL_LOSSES = 0, 1, 2


def pwe(r: float, ri: float) -> float:
    """Provisional winning expectancy PWe(R, Ri), section 4.1."""
    if r <= ri - 400:
        return 0.0
    if r >= ri + 400:
        return 1.0
    return 0.5 + (r - ri) / 800


def we(r: float, ri: float) -> float:
    """Standard winning expectancy We(R, Ri) = 1/(1 + 10^(-(R - Ri)/400)), section 4.2."""
    return 1.0 / (1.0 + math.pow(10.0, -(r - ri) / 400.0))


def n_star(r0: float) -> float:
    """N* of section 3 (formula 1)."""
    if r0 > 2355:
        return 50.0
    return 50.0 / math.sqrt(0.662 + 0.00000739 * (2569.0 - r0) ** 2)


def expected(r0: float, opponents: Sequence[float], m: int) -> float:
    """E = sum of We(R0, Ri) over the m games (opponents sorted ascending)."""
    total = 0.0
    for i in range(m):
        total += we(r0, opponents[i])
    return total


def objective(r: float, n_eff: float, r0_adj: float, opponents: Sequence[float], m: int,
              s_adj: float) -> float:
    """f(R) = N' PWe(R, R0') + sum PWe(R, Ri) - S' of section 4.1."""
    total = n_eff * pwe(r, r0_adj)
    for i in range(m):
        total += pwe(r, opponents[i])
    return total - s_adj


def _knots(r0_adj: float, opponents: Sequence[float], m: int,
           knots: MutableSequence[float]) -> int:
    """Fill ``knots`` (room for 2m + 2) with the sorted distinct knots; return how many."""
    count = 0
    for k in range(m + 1):
        centre = r0_adj if k == m else opponents[k]
        for value in (centre - 400.0, centre + 400.0):
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


def _below(knots: Sequence[float], q: int, m: float) -> int:
    """Index of the largest of the q knots with m > z, or -1."""
    a = q - 1
    while a >= 0 and not knots[a] < m:
        a -= 1
    return a


def _above(knots: Sequence[float], q: int, m: float) -> int:
    """Index of the smallest of the q knots with m < z, or q."""
    b = 0
    while b < q and not knots[b] > m:
        b += 1
    return b


def special_walk(r0: float, n_eff: float, opponents: Sequence[float], m: int, score: float,
                 prior: int, strict: bool,
                 knots: MutableSequence[float]) -> tuple[float, int, bool, float, float, bool]:
    """The special rating of section 4.1, as the knot walk of the 2025 text.

    ``prior`` is PRIOR_NONE, PRIOR_ALL_WINS or PRIOR_ALL_LOSSES; ``strict`` counts
    |M - Ri| < 400 as the 2017 text prints it; ``knots`` is scratch room for 2m + 2
    values. Returns (M after the 2700 cap, p, whether the p = 0 rule moved M, R0', S',
    whether the cap applied).
    """
    if prior == PRIOR_ALL_WINS:
        r0_adj, s_adj = r0 - 400.0, score + n_eff
    elif prior == PRIOR_ALL_LOSSES:
        r0_adj, s_adj = r0 + 400.0, score
    else:
        r0_adj, s_adj = r0, score + n_eff / 2.0
    q = _knots(r0_adj, opponents, m, knots)

    mm = r0_adj  # step 1: start at M = R0'
    for _ in range(MAX_STEPS):
        fm = objective(mm, n_eff, r0_adj, opponents, m, s_adj)
        if fm > EPSILON:  # step 2: walk down to the largest knot below M
            a = _below(knots, q, mm)
            if a < 0:  # f is flat (-S' <= 0) below the lowest knot: cannot happen here
                break
            za = knots[a]
            fza = objective(za, n_eff, r0_adj, opponents, m, s_adj)
            if abs(fm - fza) < EPSILON:
                mm = za
                continue
            step = mm - fm * (mm - za) / (fm - fza)
            mm = za if step < za else step
        elif fm < -EPSILON:  # step 3: walk up to the smallest knot above M
            b = _above(knots, q, mm)
            if b == q:
                break
            zb = knots[b]
            fzb = objective(zb, n_eff, r0_adj, opponents, m, s_adj)
            if abs(fzb - fm) < EPSILON:
                mm = zb
                continue
            step = mm - fm * (zb - mm) / (fzb - fm)
            mm = zb if step > zb else step
        else:
            break

    # step 4: p counts the opponents within 400 of M, and R0'
    p = 0
    for k in range(m + 1):
        distance = abs(mm - (r0_adj if k == m else opponents[k]))
        if (distance < 400.0 - KNOT_SLACK) if strict else (distance <= 400.0 + KNOT_SLACK):
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
    capped = mm > SPECIAL_CAP
    return (SPECIAL_CAP if capped else mm), p, moved, r0_adj, s_adj, capped
