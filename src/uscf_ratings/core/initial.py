"""Step 1: initial ratings for players unrated in a system (section 2).

Two methods, chosen by the rule set: the priority lists of the 2017 text (before
2020-06-01) and the blended weighted average of the 2024 and 2025 texts (from then).
An initial rating assigned by hand by the ratings office always wins.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from . import blending, conversions
from .model import Player, Rating, System
from .rules import RuleSet, change_setting

R, Q, B, OR, OQ, OB = System.R, System.Q, System.B, System.OR, System.OQ, System.OB
#: the systems in their order (a tuple: iterating the enum itself is slow)
SYSTEMS = tuple(System)


@dataclass(frozen=True)
class Source:
    """One rating that informs an initial rating, with its weight (section 2)."""

    source: str  #: a system value ("R", "OQ", ...), "FIDE", "CFC" or "age"
    rating: float  #: X_k, converted where it is FIDE or CFC
    games: float  #: the priority-list N, or the Game Factor G_k (blended)
    staleness_days: int | None = None  #: D_k
    age_rating: float | None = None  #: P_k
    z: float | None = None  #: Z_k
    staleness_factor: float | None = None  #: S_k
    weight: float | None = None  #: W_k = G_k x S_k
    given: float | None = None  #: FIDE and CFC: the rating as given, before ``rating``
    conversion: str | None = None  #: FIDE and CFC: the conversion applied, and its source


@dataclass(frozen=True)
class Initial:
    """The Step 1 result: R0, N and where they came from."""

    rating: float
    games: int
    method: str  #: "assigned", "priority", "blended" or "age"
    detail: str
    sources: tuple[Source, ...] = ()


#: The age-based ratings that say nothing exact about an age (section 2.3): no usable
#: birth date (750, 1300), a miscoded one (under 3), or an age of 26 or more (1300).
NO_AGE = (750.0, 1300.0)
#: How `conversions.age_based_rating` writes an age into an age-based start's detail.
AGE_IN_TEXT = re.compile(r"\bage \d+(?:\.\d+)?")


def from_birth_date(method: str | None, rating: float | None, detail: str,
                    age_ratings: Iterable[float | None] = ()) -> bool:
    """Whether a Step 1 result (its method, R0, detail and the blended sources' P_k)
    was computed from the member's birth date, so that it gives an age away: an
    age-based R0 = 50 x age (section 2.3; not the 750 or 1300 that say nothing exact),
    or a blended start whose weights used P_k = 50 x age at a source's date (2024 and
    2025 texts, section 2). The office's public view withholds what follows from such a
    start (web/privacy.py), and a director's output that holds one says so (cli)."""
    if method == "blended":
        return any(p is not None and p not in NO_AGE for p in age_ratings)
    return method == "age" and rating not in NO_AGE and AGE_IN_TEXT.search(detail) is not None


def uses_birth_date(initial: Initial | None) -> bool:
    """`from_birth_date` of a Step 1 result."""
    return initial is not None and from_birth_date(
        initial.method, initial.rating, initial.detail, (s.age_rating for s in initial.sources))


def initial_rating(player: Player, system: System, rules: RuleSet, end_date: date) -> Initial:
    """Step 1 for a player unrated in ``system`` in a section ending on ``end_date``."""
    assigned = player.initial.get(system)
    if assigned is not None:
        return Initial(assigned.rating, assigned.games, "assigned",
                       "assigned by the ratings office (2017 text, section 2)")
    if rules.initialization == "blended":
        return _blended(player, system, rules, end_date)
    return _priority(player, system, rules, end_date)


# --- Priority lists (2017 text, sections 2.1 to 2.5) -------------------------------


@dataclass(frozen=True)
class _FromSystem:
    """A priority-list item that takes another US Chess rating."""

    system: System
    min_games: int = 0  #: "based on at least 4 games"
    established: bool | None = None  #: True: only established; False: only not established
    games: str = "0"  #: the N it counts as: "0", "10", or "min10" (min(10, its N))


@dataclass(frozen=True)
class _Foreign:
    kind: str  #: "FIDE" or "CFC"
    games: str = "list"  #: "list": the 10/5 and 5/0 rules of 2.1; "0": N = 0


_FIDE, _CFC = _Foreign("FIDE"), _Foreign("CFC")
_FIDE0, _CFC0 = _Foreign("FIDE", "0"), _Foreign("CFC", "0")

#: The 2017 text's lists, item by item; each ends with the age-based rating and then 750.
PRIORITY_LISTS: dict[System, tuple[_FromSystem | _Foreign, ...]] = {
    R: (_FIDE, _CFC, _FromSystem(Q, min_games=4)),  # 2.1
    Q: (_FromSystem(R, min_games=4, games="min10"), _FIDE, _CFC),  # 2.2
    B: (  # 2.3
        _FromSystem(R, established=True, games="10"),
        _FIDE,
        _CFC,
        _FromSystem(R, min_games=4, established=False, games="min10"),
        _FromSystem(Q, min_games=4),
    ),
    OQ: (_FromSystem(OB), _FromSystem(Q), _FromSystem(B), _FromSystem(R), _FIDE0, _CFC0),  # 2.4
    OB: (_FromSystem(OQ), _FromSystem(B), _FromSystem(Q), _FromSystem(R), _FIDE0, _CFC0),  # 2.5
    # Online Regular began with blended initialization; this list (the 2020 text's 2.4)
    # is only reached by a section that names OR before 2020-06-01.
    OR: (_FromSystem(R, min_games=10, games="10"), _FIDE, _CFC),
}


def _priority(player: Player, system: System, rules: RuleSet, end_date: date) -> Initial:
    for item in PRIORITY_LISTS[system]:
        if isinstance(item, _FromSystem):
            found = _from_system(player.ratings.get(item.system), item,
                                 rules.constants.established_after)
            if found is not None:
                return Initial(found[0], found[1], "priority",
                               f"{item.system} rating {found[0]:g} counted as N = {found[1]}"
                               " (2017 text, section 2 priority list)")
        else:
            converted = _foreign(player, item, rules)
            if converted is not None:
                return converted
    return _age(player, rules, end_date)


def _from_system(rating: Rating | None, item: _FromSystem, established_after: float
                 ) -> tuple[float, int] | None:
    if rating is None or rating.games < max(item.min_games, 1):
        return None
    if (item.established is not None
            and rating.established_after(established_after) != item.established):
        return None
    games = {"0": 0, "10": 10, "min10": min(10, rating.games)}[item.games]
    return rating.rating, games


def _foreign(player: Player, item: _Foreign, rules: RuleSet) -> Initial | None:
    """The priority list's FIDE or CFC item: the rating converted, with its N and the
    rating as given (its `Source`), or None where the player has none to use."""
    if item.kind == "FIDE" and player.fide is not None:
        given = player.fide.rating
        rating = conversions.FIDE[rules.fide_conversion](given)
        games = 0 if item.games == "0" else (10 if given > 2150 else 5)
    elif item.kind == "CFC" and player.cfc is not None:
        if rules.cfc_needs_residency and not player.cfc.canadian_resident:
            return None
        given = player.cfc.rating
        rating = conversions.CFC[rules.cfc_conversion](given)
        games = 0 if item.games == "0" else (5 if given > 1500 else 0)
    else:
        return None
    return Initial(rating, games, "priority",
                   f"{item.kind} {given:g} converted to {rating:.2f}, N = {games} (2017 text, 2.6)",
                   (Source(item.kind, rating, games, given=given,
                           conversion=conversion_words(item.kind, rules)),))


def conversion_words(kind: str, rules: RuleSet) -> str | None:
    """The conversion ``rules`` apply to a ``kind`` ("FIDE" or "CFC") rating, in the
    words of the rules table with its source: what an explanation says of a converted
    rating.

    >>> from datetime import date
    >>> from .rules import rules_for
    >>> print(conversion_words("FIDE", rules_for(date(2026, 8, 1))))
    FIDE conversion -1073 + 1.5667 FIDE (FIDE <= 2000), 20 + 1.02 FIDE (above)
    (2024 text, section 2.1; 2025 text, section 8 (change log))
    """
    field = "fide_conversion" if kind == "FIDE" else "cfc_conversion"
    change = change_setting(field, getattr(rules, field))
    return None if change is None else f"{change.rule} ({change.source})"


def _age(player: Player, rules: RuleSet, end_date: date) -> Initial:
    rating, how = conversions.age_based_rating(
        player.birth_date, player.adult, end_date, rules.missing_age_rule)
    return Initial(rating, 0, "age", f"age-based rating (section 2.3): {how}",
                   (Source("age", rating, 0),))


# --- Blended initialization (2024 and 2025 texts, section 2) -----------------------

#: The (system being initialized, source system) pairs whose Game Factor G_k is the larger
#: one (at most 10, `Constants.init_game_factor`); any other pair's is the smaller (5).
LARGER_GAME_FACTOR: frozenset[tuple[System, System]] = frozenset({
    *((target, R) for target in System),  # "For the OTBR rating, this is (at most) 10."
    (OB, B),  # "For initializing an OLB rating, this is (at most) 10 from an OTBB rating."
    (OQ, Q),  # "For initializing OLQ rating, this is (at most) 10 from an OTBQ rating."
})


class Listed(NamedTuple):
    """A rating that informs a blended initial rating, before its weight is found."""

    source: str  #: a system value ("R", "OQ", ...), "FIDE" or "CFC"
    rating: float  #: X_k, converted where it is FIDE or CFC
    games: float  #: the games credited under its system; infinite for FIDE and CFC
    larger: bool  #: its Game Factor is the larger one (`LARGER_GAME_FACTOR`)
    rated_on: date | None  #: the rating's date; None: "current as of the section"
    given: float | None = None  #: FIDE and CFC: the rating as given, before conversion


def blended_sources(player: Player, system: System, rules: RuleSet) -> tuple[Listed, ...]:
    """The ratings that inform ``player``'s initial rating in ``system`` (2024 and 2025
    texts, section 2): the other US Chess ratings with a game, FIDE, and CFC (for a
    Canadian resident where the rules ask it, 2025 text, 2.2). Of the rules, only the
    FIDE and CFC fields (`BLENDED_SOURCE_FIELDS`) are read."""
    listed = [Listed(other.value, rating.rating, rating.games,
                     (system, other) in LARGER_GAME_FACTOR, rating.date)
              for other in SYSTEMS
              if other is not system and (rating := player.ratings.get(other)) is not None
              and rating.games > 0]
    if player.fide is not None:
        fide = player.fide.rating
        listed.append(Listed("FIDE", conversions.FIDE[rules.fide_conversion](fide), math.inf,
                             fide > rules.fide_game_factor_split, player.fide.date, fide))
    if player.cfc is not None and (player.cfc.canadian_resident or not rules.cfc_needs_residency):
        cfc = player.cfc.rating
        listed.append(Listed("CFC", conversions.CFC[rules.cfc_conversion](cfc),
                             math.inf, False, player.cfc.date, cfc))
    return tuple(listed)


#: the rule set's fields that `blended_sources` reads
BLENDED_SOURCE_FIELDS = frozenset({"fide_conversion", "fide_game_factor_split",
                                   "cfc_conversion", "cfc_needs_residency"})


def _blended(player: Player, system: System, rules: RuleSet, end_date: date) -> Initial:
    listed = blended_sources(player, system, rules)
    if not listed:
        return _age(player, rules, end_date)
    c = rules.constants
    end = end_date.toordinal()
    birth = player.birth_date
    sources = []
    for item in listed:
        rated_day = item.rated_on.toordinal() if item.rated_on is not None else 0
        factor, days, p_k, z, s, weight = blending.source_weight(
            item.rating, item.games, item.larger, rated_day, end, birth is not None,
            birth.toordinal() if birth is not None else 0, bool(player.adult),
            rules.missing_age_rule == "adult", c)
        sources.append(Source(item.source, item.rating, factor, days, p_k, z, s, weight,
                              item.given, None if item.given is None
                              else conversion_words(item.source, rules)))
    r0, games = blending.blended_average([s.rating for s in sources],
                                         [s.weight or 0.0 for s in sources], len(sources), c)
    names = ", ".join(f"{s.source} {s.rating:.2f} (W {s.weight:.2f})" for s in sources)
    return Initial(r0, games, "blended",
                   f"weighted average of {names} (2025 text, section 2)", tuple(sources))
