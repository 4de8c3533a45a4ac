"""The arithmetic of Step 1's blended initialization and of the age-based rating
(section 2 of the 2024 and 2025 texts), as plain scalar functions.

Like kernels.py, these are written in the subset of Python that Numba also compiles: the
reference path (initial.py, conversions.py) calls them as they are, and the compiled
chain of an experiment (experiments/compiled.py) compiles these same functions
(batch/compiled.py), so Step 1 has one definition.

The blended average's two sums are taken exactly and rounded once (`exact_sum`), so
neither the order of the sources nor the path that computes them changes a bit of R0.
"""

from __future__ import annotations

import math

from .constants import Constants
from .records import Column

ADULT_RATING = 1300.0  #: "treated as a 26 year old" (2025 text, section 2.3)
CHILD_RATING = 750.0  #: "treated as a 15 year old"
DAYS_A_YEAR = 365.25  #: Age = (Tournament End Date - Birth Date)/365.25 (section 2.3)


def exact_sum(values: Column[float], count: int) -> float:
    """The sum of ``values[:count]``, computed exactly and rounded once to the nearest
    float (ties to even): the number `math.fsum` gives (tests/core/test_blending.py).

    Shewchuk's algorithm ("Adaptive Precision Floating-Point Arithmetic", 1997): the
    running sum is kept as floats whose sum is exact, none overlapping another, smallest
    first. Adding a value adds it to each in turn (two-sum), keeping each non-zero error.
    The result adds them from the largest down until one is lost, then corrects the one
    case of that rounding that is not to nearest: the lost part exactly half an ulp with
    more of the same sign below it."""
    parts = [0.0] * max(count, 1)
    used = 0
    for k in range(count):
        x = values[k]
        kept = 0
        for i in range(used):
            y = parts[i]
            if abs(x) < abs(y):
                x, y = y, x
            high = x + y
            low = y - (high - x)  # exact, as |x| >= |y| (two-sum)
            if low != 0.0:
                parts[kept] = low
                kept += 1
            x = high
        parts[kept] = x
        used = kept + 1
    if count == 0:
        return 0.0
    i = used - 1
    total = parts[i]
    low = 0.0
    while i > 0:
        i -= 1
        before = total
        total = before + parts[i]
        low = parts[i] - (total - before)
        if low != 0.0:
            break
    if i > 0 and ((low < 0.0 and parts[i - 1] < 0.0) or (low > 0.0 and parts[i - 1] > 0.0)):
        # ``low`` was rounded away as a tie, but the parts below it break the tie
        doubled = low * 2.0
        nudged = total + doubled
        if doubled == nudged - total:
            total = nudged
    return total


def age_rating(birth_known: bool, days_old: float, adult: bool, under_3_adult: bool
               ) -> float:
    """The age-based rating of section 2.3: 50 x age from age 3 to 26, 1300 above, where
    age = ``days_old``/365.25 at the date asked for. Without a birth date: 1300 for a
    known ``adult``, else 750. An age under 3 is a miscoded birth date: 1300 where
    ``under_3_adult`` (the 2017 and 2020 texts' rule), else as without a birth date."""
    if birth_known:
        age = days_old / DAYS_A_YEAR
        if age >= 3:
            return 50 * age if age <= 26 else ADULT_RATING
        if under_3_adult:
            return ADULT_RATING
    return ADULT_RATING if adult else CHILD_RATING


def source_weight(x: float, games: float, larger: bool, rated_day: int, end_day: int,
                  birth_known: bool, birth_day: int, adult: bool, under_3_adult: bool,
                  c: Constants) -> tuple[float, int, float, float, float, float]:
    """One source of the blended average (section 2), in the columns of the text's
    example: its Game Factor G_k, staleness D_k in days, age-based rating P_k, Z_k,
    staleness factor S_k and weight W_k = G_k x S_k.

    ``x`` is X_k (converted where it is FIDE or CFC), ``games`` the games credited under
    its system (infinite for FIDE and CFC). G_k is at most 10 where ``larger``, else 5:
    "The Game Factor for a rating system can be no higher than the number of games
    actually credited under the system." Days are ordinals; ``rated_day`` 0 means the
    rating has no date: "current as of the section", D_k = 0. P_k is the age-based rating
    at the rating's date; Z_k = min(6, (X_k - P_k)/350); S_k = exp(.06 (Z_k - 6)
    D_k/365.25)."""
    factor = min(c.init_game_factor if larger else c.init_other_game_factor, games)
    on = rated_day if rated_day > 0 else end_day
    days = end_day - on
    p = age_rating(birth_known, on - birth_day, adult, under_3_adult)
    z = min(c.init_z_cap, (x - p) / c.init_z_scale)
    s = math.exp(c.init_staleness * (z - c.init_z_cap) * days / DAYS_A_YEAR)
    return factor, days, p, z, s, factor * s


def blended_average(ratings: Column[float], weights: Column[float], count: int,
                    c: Constants) -> tuple[float, int]:
    """R0 = sum W_k X_k / sum W_k and N = min(10, sum W_k) rounded up, over ``count``
    sources (section 2). The texts round R0 to an integer; the published decimals show
    it is not rounded."""
    products = [0.0] * max(count, 1)
    for k in range(count):
        products[k] = weights[k] * ratings[k]
    total = exact_sum(weights, count)
    return exact_sum(products, count) / total, math.ceil(min(c.init_games_cap, total))
