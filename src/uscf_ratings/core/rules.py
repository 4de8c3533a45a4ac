"""Rules that changed over time, as one table of dated changes.

Each `RuleChange` names the `RuleSet` field it sets, the date from which it
applies (to sections whose start date is on or after it: 2025 text, section 8), the
document and sentence it rests on, and whether the date is documented or inferred.
`RULE_SETS` folds the changes in date order; `rules_for` picks the one in
force for a section. Nothing else in the project branches on years.

Coverage starts on 2013-05-08, when the effective-games formula of section 3 took effect
(2025 text, section 8); the formula used before it is not in the documents.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from .constants import DOCUMENTED, Constants
from .model import System

R, Q, B, OR, OQ, OB = System.R, System.Q, System.B, System.OR, System.OQ, System.OB


@dataclass(frozen=True)
class TimeControlRange:
    """The system a time control is rated in, by T = mm + ss (2025 text, footnote 1)."""

    system: System
    low: float
    high: float = float("inf")
    low_inclusive: bool = True
    high_inclusive: bool = True

    def contains(self, total: float) -> bool:
        above = total >= self.low if self.low_inclusive else total > self.low
        below = total <= self.high if self.high_inclusive else total < self.high
        return above and below


@dataclass(frozen=True)
class RuleSet:
    """Everything about the rating system that depends on a section's start date."""

    effective: date
    #: B in the bonus term max(0, K(S - E) - B*sqrt(m')), section 4.2.
    bonus_threshold: float
    #: With m = 3, the bonus needs no opponent met more than once (2024 text, 4.2).
    bonus_m3_needs_distinct_opponents: bool
    #: "priority" (2017 text, section 2) or "blended" (2024 text, section 2).
    initialization: str
    #: Key of the FIDE conversion in `uscf_ratings.core.conversions`.
    fide_conversion: str
    youth_fide_conversion: str
    #: Blended initialization: FIDE Game Factor is 10 above this FIDE rating, else 5.
    fide_game_factor_split: float
    cfc_conversion: str
    #: Only a Canadian resident's CFC rating is a source (2024 text, 2.2).
    cfc_needs_residency: bool
    #: Rating given when the birth date is missing or the age is under 3:
    #: "adult" (1300 when the age is under 3; the 2017 and 2020 texts) or
    #: "membership" (1300 for an adult, else 750; the 2024 and 2025 texts).
    missing_age_rule: str
    systems: frozenset[System]
    time_controls: tuple[TimeControlRange, ...]
    #: Systems in which the personal absolute floor AF applies (section 5).
    absolute_floor_systems: frozenset[System]
    #: The numbers in the formulas (N*, K, the bonus's m', the special formula's 400 and
    #: 2700, the floors, the initialization's weights): the same in every covered text.
    constants: Constants = DOCUMENTED

    @property
    def name(self) -> str:
        return f"rules of {self.effective.isoformat()}"


@dataclass(frozen=True)
class RuleChange:
    """One row of the rules table."""

    effective: date
    field: str
    value: Any
    rule: str  #: what changed, in words
    source: str  #: document and section
    sentence: str  #: the sentence the change rests on
    status: str = "documented"  #: documented | inferred | data
    note: str = ""


ALL_OTB = frozenset({R, Q, B})
OTB_RANGES = (
    TimeControlRange(B, 5, 10),
    TimeControlRange(Q, 10, 65, low_inclusive=False),
    TimeControlRange(R, 30),
)
ONLINE_BLITZ = TimeControlRange(OB, 5, 10)
ONLINE_QUICK_WIDE = TimeControlRange(OQ, 10, 65, low_inclusive=False)
ONLINE_QUICK_NARROW = TimeControlRange(OQ, 10, 30, low_inclusive=False, high_inclusive=False)
ONLINE_REGULAR = TimeControlRange(OR, 30)

C2025 = "2025 text, section 8 (change log)"

#: The rules table. The first row of each field sets its value at the start of coverage.
CHANGES: tuple[RuleChange, ...] = (
    RuleChange(date(2013, 5, 8), "bonus_threshold", 8.0, "Bonus threshold B = 8", C2025,
               "2012-08-03 Bonus point threshold increased to 8.",
               note="In force since 2012-08-03; coverage starts 2013-05-08."),
    RuleChange(date(2013, 5, 8), "bonus_m3_needs_distinct_opponents", False,
               "Bonus with m >= 3 needs no opponent met more than twice",
               "2017 text, section 4.2",
               "If both m >= 3 and the player competes against no player more than twice, "
               "then the \"standard\" rating formula ... max(0, K(S - E) - B sqrt(m'))"),
    RuleChange(date(2013, 5, 8), "initialization", "priority",
               "Initial ratings by priority lists per system", "2017 text, sections 2.1-2.5",
               "Initial ratings for unrated US Chess players in Regular events are "
               "determined in the following order of priority.",
               note="The 2020-06-11 text's lists (which add online Regular and give the "
                    "online Quick/Blitz cross-sources up to 10 games) were published after "
                    "blended initialization began on 2020-06-01, so they never apply here."),
    RuleChange(date(2013, 5, 8), "fide_conversion", "2017", "FIDE conversion "
               "180 + 0.94 FIDE (FIDE <= 2000), 20 + 1.02 FIDE (above)",
               "2017 text, section 2.6", "USrating = 180 + 0.94 x FIDE if FIDE <= 2000; "
               "20 + 1.02 x FIDE if FIDE > 2000"),
    RuleChange(date(2013, 5, 8), "youth_fide_conversion", "2017", "Youth-event FIDE "
               "conversion 560 + 0.76 FIDE (FIDE <= 2000), 80 + FIDE (above)",
               "2017 text, section 6", "USrating = 560 + 0.76 x FIDE if FIDE <= 2000; "
               "80 + 1.0 x FIDE if FIDE > 2000"),
    RuleChange(date(2013, 5, 8), "fide_game_factor_split", 2150.0,
               "FIDE source weight: 10 games above FIDE 2150, else 5",
               "2017 text, section 2.1",
               "The converted rating is based on having played 10 games (N=10) if the "
               "FIDE rating is over 2150, and based on having played 5 games (N=5) if "
               "the FIDE rating is 2150 or lower.",
               note="In the blended era before 2024-03-01 this split is used as the FIDE "
                    "Game Factor: see the 2024-03-01 row."),
    RuleChange(date(2013, 5, 8), "cfc_conversion", "2017",
               "CFC conversion CFC - 90 (CFC <= 1500), 1.1 CFC - 240 (above)",
               "2017 text, section 2.6",
               "USrating = CFC - 90 if CFC <= 1500; 1.1 x CFC - 240 if CFC > 1500"),
    RuleChange(date(2013, 5, 8), "cfc_needs_residency", False,
               "Any CFC rating is a source", "2017 text, section 2.1",
               "If the player has a CFC rating, use the rating converted from the CFC "
               "system"),
    RuleChange(date(2013, 5, 8), "missing_age_rule", "adult",
               "No birth date: 1300 if adult, else 750; age under 3: 1300",
               "2017 text, sections 2.1 and 2.6",
               "if \"Age\" is calculated to be less than 3 years old, then it is assumed "
               "that a miscoding of the player's birthday occurred, and such a player is "
               "also treated as a 26-year old"),
    RuleChange(date(2013, 5, 8), "systems", frozenset({R, Q, B}),
               "Systems: Regular, Quick, Blitz", C2025,
               "2013-03-01 Add OTB Blitz ratings. Change time control range on OTB Quick."),
    RuleChange(date(2013, 5, 8), "time_controls", OTB_RANGES + (ONLINE_BLITZ,
               ONLINE_QUICK_WIDE), "Blitz 5 <= T <= 10, Quick 10 < T <= 65, Regular "
               "T >= 30 (dual 30..65); online Quick 10 < T <= 65",
               "2017 text, opening paragraph",
               "The two Blitz systems apply to events with time controls of G/5 (or "
               "G/3+2) to G/10+0. The two QC systems apply to events with time controls "
               "of G/10+0 through G/60+5.",
               status="inferred",
               note="G/10+0 is named in both ranges; it is read as Blitz, as the 2024 and "
                    "2025 texts say (5 <= mm+ss <= 10)."),
    RuleChange(date(2013, 5, 8), "absolute_floor_systems", frozenset(System),
               "Absolute floor AF in every system", "2017 text, section 5",
               "The absolute rating floor for all ratings is 100. ... An individual's "
               "personal absolute rating floor is calculated as AF = min(100 + 4N_W + "
               "2N_D + N_R, 150)"),
    RuleChange(date(2014, 3, 20), "bonus_threshold", 10.0, "Bonus threshold B = 10",
               C2025, "2014-03-20 Bonus point threshold increased to 10."),
    RuleChange(date(2014, 10, 1), "systems", frozenset({R, Q, B, OB}),
               "Online Blitz added", C2025, "2014-10-01 Add OL Blitz ratings."),
    RuleChange(date(2015, 3, 1), "systems", frozenset({R, Q, B, OB, OQ}),
               "Online Quick added", C2025, "2015-03-01 Add OL Quick ratings."),
    RuleChange(date(2015, 6, 1), "bonus_threshold", 12.0, "Bonus threshold B = 12",
               C2025, "2015-06-01 Bonus point threshold increased to 12."),
    RuleChange(date(2017, 6, 1), "bonus_threshold", 14.0, "Bonus threshold B = 14",
               C2025, "2017-06-01 Bonus point threshold increased to 14.",
               note="The 2017 text says 'B = 14 effective May 1, 2017'; the change log's "
                    "date is used: the real sections that started in May 2017 match "
                    "B = 12 (155 of 238 published ratings exact) better than B = 14 (129)."),
    RuleChange(date(2020, 6, 1), "systems", frozenset(System),
               "Online Regular added", C2025, "2020-06-01 Add OL Regular ratings."),
    RuleChange(date(2020, 6, 1), "time_controls", OTB_RANGES + (ONLINE_BLITZ,
               ONLINE_QUICK_NARROW, ONLINE_REGULAR),
               "Online Quick 10 < T < 30, online Regular T >= 30", "2020 text, opening "
               "paragraph", "the online QC system applies to events with time controls "
               "slower than G/10+0 but quicker than G/30+0. The two Regular event systems "
               "have time controls of G/25+5 or slower."),
    RuleChange(date(2020, 6, 1), "initialization", "blended",
               "Blended initialization (weighted average with Game Factors and staleness)",
               C2025, "2020-06-01 Initialization of ratings blended through other systems.",
               note="The texts round the blended R0 to an integer; the real data does not "
                    "(a 2025 Quick section matches all its published decimals only with "
                    "the unrounded start), so R0 is kept unrounded."),
    RuleChange(date(2020, 6, 1), "cfc_needs_residency", True,
               "Only a Canadian resident's CFC rating is a source", "2024 text, section 2.2",
               "If an unrated player is a Canadian resident and has a CFC rating, use a "
               "converted rating", status="inferred",
               note="Undated; first stated in the blended-initialization text, so taken "
                    "to start with it."),
    RuleChange(date(2020, 6, 1), "missing_age_rule", "membership",
               "No birth date or age under 3: 1300 if adult, else 750",
               "2024 text, section 2.3",
               "If an unrated player does not provide a birth date or if the \"Age\" is "
               "calculated to be less than 3 years old ... If the player is inferred to be "
               "an adult ... R0 = 1300. Otherwise, they are treated as a 15 year old "
               "(R0 = 750).", status="inferred",
               note="Undated; part of the rewritten section 2 that came with blended "
                    "initialization, so taken to start with it."),
    RuleChange(date(2023, 2, 1), "bonus_threshold", 12.0, "Bonus threshold B = 12",
               C2025, "2023-02-01 Bonus point threshold reduced to 12."),
    RuleChange(date(2024, 3, 1), "fide_conversion", "2024", "FIDE conversion "
               "-1073 + 1.5667 FIDE (FIDE <= 2000), 20 + 1.02 FIDE (above)",
               "2024 text, section 2.1; " + C2025,
               "As of March 1, 2024, if an unrated player has a FIDE rating, use a "
               "converted rating according to the following formula"),
    RuleChange(date(2024, 3, 1), "youth_fide_conversion", "2024", "Youth-event FIDE "
               "conversion -453 + 1.2667 FIDE (FIDE <= 2000), 80 + FIDE (above)",
               "2024 text, section 6",
               "then the following conversion is used for all opponents (effective as of "
               "March 1, 2024)"),
    RuleChange(date(2024, 3, 1), "fide_game_factor_split", 2000.0,
               "FIDE Game Factor 10 above FIDE 2000, else 5", "2024 text, section 2.1",
               "This will be treated as having a Game Factor of 10 if the FIDE rating is "
               "greater than 2000, and a Game Factor of 5 if the FIDE rating is less than "
               "or equal to 2000.", status="inferred",
               note="Undated; it is stated with the conversion of 2024-03-01 and shares its "
                    "2000 split, so it is taken to start with it. Before, the 2150 split "
                    "of the earlier texts serves as the Game Factor."),
    RuleChange(date(2024, 7, 29), "bonus_m3_needs_distinct_opponents", True,
               "Bonus with m = 3 needs no opponent met more than once",
               "2024 text, section 4.2",
               "If m > 3 and the player competes against no player more than twice, or if "
               "m = 3 and the player competes against no player more than once",
               status="inferred",
               note="Undated; the 2020-06-11 text still has the older rule, so the date of "
                    "the first text that states it is used."),
    RuleChange(date(2024, 7, 29), "absolute_floor_systems", ALL_OTB,
               "Absolute floor AF only in over-the-board systems", "2024 text, section 5",
               "For OTB ratings, an individual's personal absolute rating floor is "
               "calculated as AF = min(100 + 4NW + 2ND + NR, 150)", status="inferred",
               note="Undated; the date of the first text that states it is used. Every "
                    "rating keeps the floor of 100."),
    RuleChange(date(2025, 1, 1), "cfc_conversion", "2025", "CFC conversion in four "
               "pieces (-115 + 0.815 CFC below 1150, ..., -240 + 1.1 CFC from 2000)",
               "2025 text, section 2.2",
               "Effective Jan 1, 2025, if an unrated player is a Canadian resident and has "
               "a CFC rating, use a converted rating according to the following formula"),
    RuleChange(date(2025, 1, 1), "bonus_threshold", 10.0, "Bonus threshold B = 10",
               C2025, "2025-01-01 Bonus point threshold reduced to 10."),
)

#: Rules that hold at every covered date but that a reader may expect to have changed.
STANDING_RULES: tuple[RuleChange, ...] = (
    RuleChange(date(2013, 5, 8), "-", None,
               "Special formula knot walk starts at M = R0'", "2025 text, section 4.1",
               "Let M = R'0, the initial guess of the rating R for which f(R) = 0 is "
               "desired.",
               note="The 2017-2024 texts print the 'efficient' start but say the "
                    "implemented program starts at R'0; that start can reach a wrong root "
                    "when N' = 0."),
    RuleChange(date(2013, 5, 8), "-", None,
               "Step 4 count p uses |M - Ri| <= 400 (inclusive)", "2020 text, section 4.1",
               "let p be the number of i, i = 1,...,m for which |M - Ri| <= 400.",
               note="The 2017 text prints '< 400'; later texts correct it. The strict "
                    "reading is kept as an option and tested."),
    RuleChange(date(2013, 5, 8), "-", None,
               "Original Life Master floor 2200 in the Regular system only",
               "2024 text, section 5",
               "For OTBR ratings only, a player who earns the original Life Master (OLM) "
               "title ... will obtain a rating floor of 2200.",
               note="The earlier texts do not name a system; the title is earned in "
                    "Regular play, so the 2024 wording is read as a clarification."),
    RuleChange(date(2020, 6, 1), "-", None,
               "Blended initial rating R0 is not rounded", "2024 and 2025 texts, section 2",
               "The initial rating for the player in the system being rated is the weighted "
               "average of the available ratings using the Adjusted Weights ... rounded to "
               "the nearest integer.", status="data",
               note="The real data contradicts the texts: a 2025 Quick section (Rockville, "
                    "pair 7 unrated in Quick, starting from a Regular rating of 1392.16) "
                    "matches the published two-decimal ratings of all 18 players with rated "
                    "games only with the unrounded start; rounded to 1392, 16 of 18 match."),
    RuleChange(date(2013, 5, 8), "-", None,
               "Half-K events: K = 400/(N' + m/2)", "2004 page, standard formula",
               "K = 800/(N' + m) if the event is full-K; 400/(N' + m/2) if the event is "
               "half-K", status="data",
               note="Online sections before June 2020 match the published ratings only "
                    "with half K; nothing on a crosstable says which, so a section carries "
                    "its K kind as input."),
)


class NoRuleSet(ValueError):
    """The date is before the rules this project covers."""


def _fold(changes: tuple[RuleChange, ...]) -> tuple[RuleSet, ...]:
    dates = sorted({c.effective for c in changes})
    first = dates[0]
    initial = {c.field: c.value for c in changes if c.effective == first}
    current = RuleSet(effective=first, **initial)
    sets = [current]
    for day in dates[1:]:
        updates = {c.field: c.value for c in changes if c.effective == day}
        current = replace(current, effective=day, **updates)
        sets.append(current)
    return tuple(sets)


RULE_SETS: tuple[RuleSet, ...] = _fold(CHANGES)
FIRST_COVERED = RULE_SETS[0].effective
_STARTS = [rs.effective for rs in RULE_SETS]


def rules_for(day: date) -> RuleSet:
    """The rule set in force for a section starting on ``day``.

    >>> rules_for(date(2019, 3, 2)).bonus_threshold
    14.0
    >>> rules_for(date(2025, 8, 31)).initialization
    'blended'
    """
    index = bisect.bisect_right(_STARTS, day) - 1
    if index < 0:
        raise NoRuleSet(
            f"no rule set for {day.isoformat()}: coverage starts {FIRST_COVERED.isoformat()}"
            " (the effective-games formula used before it is not in the documents)"
        )
    return RULE_SETS[index]


@functools.lru_cache(maxsize=64)
def change_setting(field: str, value: Any) -> RuleChange | None:
    """The row of the rules table that set ``field`` to ``value`` (the first, by date):
    what an explanation quotes for the rule it applied, in words and with its source.
    Kept: the table does not change, and every converted first rating asks.

    >>> change_setting("fide_conversion", "2024").source
    '2024 text, section 2.1; 2025 text, section 8 (change log)'
    """
    return next((c for c in CHANGES if c.field == field and c.value == value), None)
