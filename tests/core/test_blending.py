"""core/blending.py: the exact sum, the age-based rating and one source's weight, as the
reference path calls them and as Numba compiles them (batch/compiled.py), with the
same numbers."""

from __future__ import annotations

import math
import random
from datetime import date

import numpy as np
import pytest

from uscf_ratings.batch.compiled import KERNELS
from uscf_ratings.core import blending
from uscf_ratings.core.constants import DOCUMENTED


def _hard_sums(seed: int, count: int) -> list[list[float]]:
    """Lists whose floating-point sum loses bits: mixed magnitudes, cancellations, and
    values one ulp either side of a power of two (the half-way ties of rounding)."""
    rng = random.Random(seed)
    lists = []
    for _ in range(count):
        n = rng.randint(0, 9)
        kind = rng.randrange(3)
        if kind == 0:
            lists.append([rng.uniform(-1, 1) * 10.0 ** rng.randint(-20, 20) for _ in range(n)])
        elif kind == 1:
            lists.append([rng.choice((1.0, -1.0)) * 2.0 ** rng.randint(-60, 60)
                          * rng.choice((1.0, 1 + 2 ** -52, 1 - 2 ** -53, 3.0, 0.5))
                          for _ in range(n)])
        else:
            lists.append([rng.uniform(0, 10) for _ in range(n)])
    return lists


def test_exact_sum_is_math_fsum_in_python_and_compiled() -> None:
    compiled = KERNELS["exact_sum"]
    for values in _hard_sums(7, 20_000):
        want = math.fsum(values)
        ours = blending.exact_sum(values, len(values))
        assert ours == want and math.copysign(1, ours) == math.copysign(1, want), values
        assert compiled(np.array(values, dtype=np.float64), len(values)) == want, values


def test_exact_sum_rounds_a_tie_by_what_lies_below_it() -> None:
    """1 + 2^-53 is a tie between 1 and 1 + 2^-52 (ties to even: 1); a further 2^-106
    breaks it upwards. Plain addition gives 1 both times; the exact sum does not."""
    tie = [1.0, 2.0 ** -53]
    assert blending.exact_sum(tie, 2) == 1.0
    broken = [1.0, 2.0 ** -53, 2.0 ** -106]
    assert sum(broken) == 1.0
    assert blending.exact_sum(broken, 3) == 1.0 + 2.0 ** -52 == math.fsum(broken)
    assert blending.exact_sum([5.0, 7.0], 0) == 0.0  # only the first ``count`` are added


@pytest.mark.parametrize("args, rating", [
    # 2025 text, 2.3: 50 x age from 3 to 26. Ten years of 3652 days: 50 x 3652/365.25
    ((True, 3652, False, False), 50 * 3652 / 365.25),
    ((True, 27 * 366, False, False), 1300.0),  # above 26: 1300
    ((True, 400, False, False), 750.0),  # under 3, 2024 text: as without a birth date
    ((True, 400, True, False), 1300.0),  # ... an adult: 1300
    ((True, 400, False, True), 1300.0),  # under 3, 2017 text: a miscoded date, 1300
    ((False, 0, True, False), 1300.0),  # no birth date: an adult 1300
    ((False, 0, False, False), 750.0),  # else 750
])
def test_age_rating(args: tuple, rating: float) -> None:
    assert blending.age_rating(*args) == rating
    assert KERNELS["age_rating"](*args) == rating


def test_source_weight_is_the_worked_example_s_first_row() -> None:
    """2025 text, section 2, example, OTBR row: X = 1759 rated 2018-03-25, G = 10, D = 891,
    P = 886.52, Z = 2.49, S = 0.60, W = 5.98 (printed to two decimals). By hand: age at
    the rating's date 6476 days/365.25 = 17.7303, P = 886.52; Z = (1759 - 886.52)/350 =
    2.4928; S = exp(0.06 (2.4928 - 6) 891/365.25) = exp(-0.51332) = 0.5985."""
    born, rated, end = date(2000, 7, 1), date(2018, 3, 25), date(2020, 9, 1)
    args = (1759.0, 100.0, True, rated.toordinal(), end.toordinal(), True, born.toordinal(),
            False, False, DOCUMENTED)
    factor, days, p, z, s, w = blending.source_weight(*args)
    assert factor == 10 and days == 891
    assert round(p, 2) == 886.52 and round(z, 2) == 2.49 and round(s, 2) == 0.60
    assert round(w, 2) == 5.98
    assert KERNELS["source_weight"](*args) == (factor, days, p, z, s, w)


def test_a_rating_without_a_date_is_current() -> None:
    """D_k = 0 (staleness factor 1) and P_k at the section's end; the Game Factor is at
    most the games credited (7 here)."""
    end = date(2020, 9, 1).toordinal()
    factor, days, p, _, s, w = blending.source_weight(1500.0, 7.0, True, 0, end, False, 0,
                                                      True, False, DOCUMENTED)
    assert (factor, days, p, s, w) == (7.0, 0, 1300.0, 1.0, 7.0)


def test_blended_average_is_the_worked_example_s() -> None:
    """R0 = (5.98 x 1759 + 2.74 x 1643 + 4.15 x 1658)/(5.98 + 2.74 + 4.15) = 1702 (the
    text's figure, with the printed weights); N = min(10, 12.87) = 10."""
    args = ([1759.0, 1643.0, 1658.0], [5.98, 2.74, 4.15], 3, DOCUMENTED)
    r0, n = blending.blended_average(*args)
    assert round(r0) == 1702 and n == 10
    assert KERNELS["blended_average"](np.array(args[0]), np.array(args[1]), 3,
                                      DOCUMENTED) == (r0, n)
    assert blending.blended_average([1500.0], [0.3], 1, DOCUMENTED) == (1500.0, 1)
