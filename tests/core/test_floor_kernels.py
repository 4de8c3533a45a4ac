"""The peak floor's rounding in kernels.py (floor(x + 0.5), which compiles) equals the
rule as written: round the peak half up as the decimal it is written as, subtract 200,
take the level at or below among 1200, 1300, ..., 2100 (2025 text, section 5)."""

from __future__ import annotations

import math
import random
from decimal import ROUND_HALF_UP, Decimal

from uscf_ratings.core import kernels
from uscf_ratings.core.constants import DOCUMENTED


def as_written(peak: float) -> float | None:
    basis = int(Decimal(repr(peak)).quantize(Decimal(1), rounding=ROUND_HALF_UP)) - 200
    levels = [level for level in range(1200, 2200, 100) if level <= basis]
    return float(levels[-1]) if levels else None


def test_peak_floor_rounds_as_written() -> None:
    rng = random.Random(7)
    peaks = [1399.5, 1399.49, 1400.0, 2299.5, 2500.0, 100.0, 1941.0, 1999.51]
    peaks += [rng.uniform(100, 3000) for _ in range(20000)]
    peaks += [rng.randint(100, 3000) + 0.5 for _ in range(5000)]  # exact halves
    peaks += [math.nextafter(rng.randint(100, 3000) + 0.5, 0) for _ in range(5000)]
    peaks += [round(rng.uniform(100, 3000), 2) for _ in range(5000)]
    for peak in peaks:
        found = kernels.peak_floor(peak, DOCUMENTED)
        expected = as_written(peak)
        assert (None if math.isnan(found) else found) == expected, peak
