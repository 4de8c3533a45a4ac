"""Rating floors applied to final ratings (section 5 of the 2025 text).

The arithmetic is in kernels.py, shared with the compiled path; these take and give None
for a floor that does not apply.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import kernels
from .constants import DOCUMENTED, Constants


def none_for_nan(value: float) -> float | None:
    """A kernel's NaN (no value) as the model's None."""
    return None if math.isnan(value) else value


def nan_for_none(value: float | None) -> float:
    """The model's None (no value) as the kernels' NaN."""
    return math.nan if value is None else value


def absolute_floor(wins: int, draws: int, events3: int, c: Constants = DOCUMENTED) -> float:
    """AF = min(100 + 4 N_W + 2 N_D + N_R, 150).

    >>> absolute_floor(3, 1, 10)
    124.0
    """
    return kernels.absolute_floor(wins, draws, events3, c)


def peak_floor(peak: float | None, c: Constants = DOCUMENTED) -> float | None:
    """The floor from the highest established rating: round it, subtract 200, and take the
    level at or just below among 1200, 1300, ..., 2100.

    >>> peak_floor(1941), peak_floor(1999.51), peak_floor(1388)
    (1700.0, 1800.0, None)
    """
    return None if peak is None else none_for_nan(kernels.peak_floor(peak, c))


def olm_floor(regular: bool, olm: bool, games_above_2200: int | None,
              c: Constants = DOCUMENTED) -> float | None:
    """2200 for the Regular rating of an Original Life Master or of a player with 300
    games while established above 2200; an unknown count gives no credit.

    >>> olm_floor(True, False, 300), olm_floor(False, True, None)
    (2200.0, None)
    """
    above = kernels.UNKNOWN if games_above_2200 is None else games_above_2200
    return none_for_nan(kernels.olm_floor(regular, olm, above, c))


def lowered(floor: float | None, lowered_from: float | None, lowered_to: float | None) -> float | None:
    """A computed floor after an office lowered it (section 7, rule 4): a floor no higher
    than the one lowered is held to the lowered value.

    >>> lowered(1800.0, 1800.0, 1700.0), lowered(1900.0, 1800.0, 1700.0), lowered(1800.0, None, None)
    (1700.0, 1900.0, 1800.0)
    """
    return none_for_nan(kernels.lowered(nan_for_none(floor), nan_for_none(lowered_from),
                                        nan_for_none(lowered_to)))


@dataclass(frozen=True)
class Floors:
    """Every floor that holds a player's final rating, and the one that is highest."""

    absolute: float  #: AF, or 100 where AF does not apply
    peak: float | None
    olm: float | None
    office: float | None  #: a prize floor or one set by hand

    @property
    def floor(self) -> float:
        return max(f for f in (self.absolute, self.peak, self.olm, self.office) if f is not None)

    @property
    def kind(self) -> str:
        """Which floor is the highest: "absolute", "peak", "olm" or "office"."""
        named = {"absolute": self.absolute, "peak": self.peak, "olm": self.olm,
                 "office": self.office}
        present = {kind: value for kind, value in named.items() if value is not None}
        return max(present, key=present.__getitem__)
