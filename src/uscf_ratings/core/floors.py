"""Rating floors applied to final ratings (section 5 of the 2025 text)."""

from __future__ import annotations

from dataclasses import dataclass

from .formulas import round_half_up

ABSOLUTE_FLOOR = 100.0  #: "No rating can be lower than the absolute rating floor."
ABSOLUTE_FLOOR_CAP = 150.0
PEAK_FLOOR_LEVELS = tuple(float(level) for level in range(1200, 2200, 100))  # 1200..2100
OLM_FLOOR = 2200.0
OLM_GAMES = 300  #: rated games with an established rating above 2200


def absolute_floor(wins: int, draws: int, events3: int) -> float:
    """AF = min(100 + 4 N_W + 2 N_D + N_R, 150).

    >>> absolute_floor(3, 1, 10)
    124.0
    """
    return min(ABSOLUTE_FLOOR + 4 * wins + 2 * draws + events3, ABSOLUTE_FLOOR_CAP)


def peak_floor(peak: float | None) -> float | None:
    """The floor from the highest established rating: round it, subtract 200, and take the
    level at or just below among 1200, 1300, ..., 2100.

    >>> peak_floor(1941), peak_floor(1999.51), peak_floor(1388)
    (1700.0, 1800.0, None)
    """
    if peak is None:
        return None
    basis = round_half_up(peak) - 200
    levels = [level for level in PEAK_FLOOR_LEVELS if level <= basis]
    return levels[-1] if levels else None


def lowered(floor: float | None, lowered_from: float | None, lowered_to: float | None) -> float | None:
    """A computed floor after an office lowered it (section 7, rule 4): a floor no higher
    than the one lowered is held to the lowered value.

    >>> lowered(1800, 1800, 1700), lowered(1900, 1800, 1700), lowered(1800, None, None)
    (1700, 1900, 1800)
    """
    if floor is None or lowered_from is None or lowered_to is None or floor > lowered_from:
        return floor
    return lowered_to


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
