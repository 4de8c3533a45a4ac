"""Step 1: initial ratings for players unrated in a system (section 2).

Two methods, chosen by the rule set: the priority lists of the 2017 text (before
2020-06-01) and the blended weighted average of the 2024 and 2025 texts (from then).
An initial rating assigned by hand by the ratings office always wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date

from . import conversions
from .model import Player, Rating, System
from .rules import RuleSet

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


@dataclass(frozen=True)
class Initial:
    """The Step 1 result: R0, N and where they came from."""

    rating: float
    games: int
    method: str  #: "assigned", "priority", "blended" or "age"
    detail: str
    sources: tuple[Source, ...] = ()


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
            found = _from_system(player.ratings.get(item.system), item)
            if found is not None:
                return Initial(found[0], found[1], "priority",
                               f"{item.system} rating {found[0]:g} counted as N = {found[1]}"
                               " (2017 text, section 2 priority list)")
        else:
            converted = _foreign(player, item, rules)
            if converted is not None:
                rating, games, text = converted
                return Initial(rating, games, "priority", text)
    return _age(player, rules, end_date)


def _from_system(rating: Rating | None, item: _FromSystem) -> tuple[float, int] | None:
    if rating is None or rating.games < max(item.min_games, 1):
        return None
    if item.established is not None and rating.established != item.established:
        return None
    games = {"0": 0, "10": 10, "min10": min(10, rating.games)}[item.games]
    return rating.rating, games


def _foreign(player: Player, item: _Foreign, rules: RuleSet) -> tuple[float, int, str] | None:
    if item.kind == "FIDE" and player.fide is not None:
        fide = player.fide.rating
        rating = conversions.FIDE[rules.fide_conversion](fide)
        games = 0 if item.games == "0" else (10 if fide > 2150 else 5)
        return rating, games, f"FIDE {fide:g} converted to {rating:.2f}, N = {games} (2017 text, 2.6)"
    if item.kind == "CFC" and player.cfc is not None:
        if rules.cfc_needs_residency and not player.cfc.canadian_resident:
            return None
        cfc = player.cfc.rating
        rating = conversions.CFC[rules.cfc_conversion](cfc)
        games = 0 if item.games == "0" else (5 if cfc > 1500 else 0)
        return rating, games, f"CFC {cfc:g} converted to {rating:.2f}, N = {games} (2017 text, 2.6)"
    return None


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


def _blended(player: Player, system: System, rules: RuleSet, end_date: date) -> Initial:
    c = rules.constants
    raw: list[tuple[str, float, float, date | None]] = []  # (source, X_k, G_k, rating date)
    for other in SYSTEMS:
        rating = player.ratings.get(other)
        if other is system or rating is None or rating.games <= 0:
            continue
        # "The Game Factor for a rating system can be no higher than the number of games
        # actually credited under the system."
        larger = (system, other) in LARGER_GAME_FACTOR
        factor = min(c.init_game_factor if larger else c.init_other_game_factor, rating.games)
        raw.append((other.value, rating.rating, factor, rating.date))
    if player.fide is not None:
        fide = player.fide.rating
        factor = (c.init_game_factor if fide > rules.fide_game_factor_split
                  else c.init_other_game_factor)
        raw.append(("FIDE", conversions.FIDE[rules.fide_conversion](fide), factor,
                    player.fide.date))
    if player.cfc is not None and (player.cfc.canadian_resident or not rules.cfc_needs_residency):
        raw.append(("CFC", conversions.CFC[rules.cfc_conversion](player.cfc.rating),
                    c.init_other_game_factor, player.cfc.date))  # 2025 text, 2.2
    if not raw:
        return _age(player, rules, end_date)

    sources = []
    for name, x, factor, rated_on in raw:
        # "A rating without a date is current as of the section": staleness 0.
        days = (end_date - rated_on).days if rated_on is not None else 0
        p_k, _ = conversions.age_based_rating(
            player.birth_date, player.adult, rated_on or end_date, rules.missing_age_rule)
        z = min(c.init_z_cap, (x - p_k) / c.init_z_scale)
        s = math.exp(c.init_staleness * (z - c.init_z_cap) * days / 365.25)
        sources.append(Source(name, x, factor, days, p_k, z, s, factor * s))
    total = math.fsum(src.weight or 0.0 for src in sources)
    # The texts round R0 to an integer; the published decimals show it is not rounded.
    r0 = math.fsum((src.weight or 0.0) * src.rating for src in sources) / total
    games = math.ceil(min(c.init_games_cap, total))
    names = ", ".join(f"{s.source} {s.rating:.2f} (W {s.weight:.2f})" for s in sources)
    return Initial(r0, games, "blended",
                   f"weighted average of {names} (2025 text, section 2)", tuple(sources))
