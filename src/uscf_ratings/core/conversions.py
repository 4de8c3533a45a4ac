"""Conversions of FIDE and CFC ratings, and the age-based rating.

Which conversion applies at a date is chosen by `uscf_ratings.core.rules.RuleSet`
(its ``fide_conversion``, ``youth_fide_conversion`` and ``cfc_conversion`` keys).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from .blending import DAYS_A_YEAR, age_rating


def fide_2017(fide: float) -> float:
    """2017 text, section 2.6 (used until 2024-02-29)."""
    return 180 + 0.94 * fide if fide <= 2000 else 20 + 1.02 * fide


def fide_2024(fide: float) -> float:
    """2024 and 2025 texts, section 2.1: "As of March 1, 2024"."""
    return -1073 + 1.5667 * fide if fide <= 2000 else 20 + 1.02 * fide


def youth_fide_2017(fide: float) -> float:
    """2017 text, section 6: opponents' ratings in a youth event."""
    return 560 + 0.76 * fide if fide <= 2000 else 80 + 1.0 * fide


def youth_fide_2024(fide: float) -> float:
    """2024 and 2025 texts, section 6, "effective as of March 1, 2024"."""
    return -453 + 1.2667 * fide if fide <= 2000 else 80 + 1.0 * fide


def cfc_2017(cfc: float) -> float:
    """2017 text, section 2.6 (and 2024 text, section 2.2)."""
    return cfc - 90 if cfc <= 1500 else 1.1 * cfc - 240


def cfc_2025(cfc: float) -> float:
    """2025 text, section 2.2: "Effective Jan 1, 2025"."""
    if cfc < 1150:
        return -115 + 0.815 * cfc
    if cfc < 1610:
        return -650 + 1.28 * cfc
    if cfc < 2000:
        return -856 + 1.41 * cfc
    return -240 + 1.1 * cfc


FIDE: dict[str, Callable[[float], float]] = {"2017": fide_2017, "2024": fide_2024}
YOUTH_FIDE: dict[str, Callable[[float], float]] = {"2017": youth_fide_2017, "2024": youth_fide_2024}
CFC: dict[str, Callable[[float], float]] = {"2017": cfc_2017, "2025": cfc_2025}


def age_based_rating(
    birth_date: date | None, adult: bool | None, on: date, missing_age_rule: str
) -> tuple[float, str]:
    """The age-based initial rating of section 2.3, and how it was found.

    ``missing_age_rule`` is the rule set's: "adult" (2017 and 2020 texts: without a birth
    date an adult gets 1300 and anyone else the default 750; an age under 3 is a
    miscoded birth date and gives 1300) or "membership" (2024 and 2025 texts: without a
    usable birth date, 1300 for an adult and 750 otherwise).

    Ten years are 3652 days here (two leap days): 50 x 3652/365.25 = 499.93.

    >>> round(age_based_rating(date(2010, 1, 1), None, date(2020, 1, 1), "membership")[0], 2)
    499.93
    >>> age_based_rating(None, None, date(2020, 1, 1), "membership")
    (750.0, 'no birth date, not known to be an adult: 750')
    """
    if birth_date is not None:
        days = (on - birth_date).days
        rating = age_rating(True, days, bool(adult), missing_age_rule == "adult")
        age = days / DAYS_A_YEAR
        if age >= 3:
            return rating, f"age {age:.2f}: 50 x age, within 100..1300"
        if missing_age_rule == "adult":
            return rating, f"age {age:.2f} under 3 (miscoded birth date): 1300"
        if adult:
            return rating, f"age {age:.2f} under 3 (miscoded birth date), adult: 1300"
        return rating, f"age {age:.2f} under 3 (miscoded birth date): 750"
    rating = age_rating(False, 0.0, bool(adult), missing_age_rule == "adult")
    if adult:
        return rating, "no birth date, adult: 1300"
    return rating, "no birth date, not known to be an adult: 750"
