"""What a member list gives the office: one `MemberRecord` per member, with a `Baseline`
(rating, N and history) per system.

Both readers produce these: `formats.member_list.read_members` (a CSV or JSON list of the
office's own) and `formats.supplement.read_supplement` (the rating supplement US Chess
publishes for directors). They live in a module of their own so that either reader, and the
office, can use them without importing the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from ..core.model import System


@dataclass(frozen=True)
class Baseline:
    """A member's rating in one system as the list gives it: the rating, N (``games``),
    the date it is as of, and the history Step 1 and the floors need, where known."""

    rating: float
    games: int
    as_of: date | None = None
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    events3: int | None = None
    peak: float | None = None
    floor: float | None = None
    olm: bool = False
    games_above_2200: int | None = None


@dataclass(frozen=True)
class MemberRecord:
    """One member: identity, what Step 1 needs (birth date, adult, FIDE and CFC ratings)
    and a `Baseline` per rated system."""

    id: str
    name: str = ""
    birth_date: date | None = None
    adult: bool | None = None
    state: str | None = None
    fide_rating: float | None = None
    fide_date: date | None = None
    cfc_rating: float | None = None
    cfc_date: date | None = None
    canadian_resident: bool | None = None
    ratings: dict[System, Baseline] = field(default_factory=dict)
    #: titles already earned, by their names in US Chess's records (AwardType:
    #: "CandidateMaster"), with the date earned where given (core/titles.py starts there)
    titles: dict[str, date | None] = field(default_factory=dict)
    #: norms already earned by level code ('N:4' ... 'N:S'), each level's own count
    norms: dict[str, int] = field(default_factory=dict)
