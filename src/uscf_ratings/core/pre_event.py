"""The pre-event rating a ratings office rates a member with, chosen between its own
state for the member and the rating the event file gives, with the floors it set by
hand; and the member's facts it adds for Step 1.

The rules are the office's (docs/office.md, "Pre-event ratings"): by default its own
state wins, and the file's rating counts only for a member it has not rated in that
system (`choose`); re-running a published history takes the file's ratings instead
(`PreRatings`). A floor set by hand (a prize floor, a granted match request, section 7)
raises the floor or lowers the one the peak or the OLM title gives
(`with_floor_set_by_hand`). Pure functions over the model: the office (office/run.py)
and the history engine (uscf_ratings/batch) call the same ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from enum import StrEnum

from . import floors as floor_rules
from .layout import Lineup
from .model import CfcRating, FideRating, Player, Rating, Section, System
from .steps import peak_before

SYSTEMS = tuple(System)  #: iterating the enum itself is slow, and this runs per player


class PreRatings(StrEnum):
    """Where a section's pre-event ratings come from (`uscf db rate --pre-ratings`). The
    value is stored with each event, which is re-rated the same way."""

    #: the database's: a member's state after the last section rated, or the member list;
    #: the file's rating only for a member the database has not rated in that system
    DATABASE = "database"
    #: the file's ratings as given, with the history the database carries (re-running a
    #: published history)
    FILE = "file"
    #: the file's ratings as given, with no history carried (the fidelity chain)
    FILE_ONLY = "file-without-history"


@dataclass(frozen=True)
class MemberFacts:
    """What the members table adds to a player of an event, for Step 1."""

    birth_date: date | None
    adult: bool | None
    fide_rating: float | None
    fide_date: date | None
    cfc_rating: float | None
    cfc_date: date | None
    canadian_resident: bool | None


#: floors set by hand, per member and system: (effective from, floor), in date order
FloorsSetByHand = dict[tuple[str, System], list[tuple[date, float]]]


def lineup_pre_event(laid: Lineup, ids: Sequence[str], states: dict[tuple[str, System], Rating],
                     facts: Mapping[str, MemberFacts | None], floors: FloorsSetByHand,
                     start: date, pre_ratings: PreRatings
                     ) -> tuple[list[Rating | None], dict[int, Player]]:
    """Each row's pre-event rating in a lineup whose entrants are the members ``ids``
    ("": no member id, the file's rating): `pre_event_rating`; and for each entrant
    unrated in a system, the player Step 1 reads (`prepare_player`), by entrant."""
    ratings: list[Rating | None] = []
    players: dict[int, Player] = {}
    # without a floor set by hand, `pre_event_rating` is `choose` alone: called directly
    # (this runs for every row), and given the file's rating only where it reads it (a
    # lineup's file ratings are made when read: `layout.FileRatings`)
    no_floors = not floors
    given_by_row = laid.ratings
    for g, system in enumerate(laid.systems):
        base = g * laid.size
        for e, member in enumerate(ids):
            if not member:
                rating = given_by_row[base + e]
            elif no_floors:
                known = states.get((member, system))
                rating = choose(known, given_by_row[base + e]
                                if reads_given(known, pre_ratings) else None, pre_ratings)
            else:
                rating = pre_event_rating(member, system, given_by_row[base + e], states,
                                          floors, start, pre_ratings)
            ratings.append(rating)
            if rating is None and member and e not in players:
                players[e] = prepare_player(laid.unrated[e], member, states, facts, floors,
                                            start, pre_ratings)
    return ratings, players


def prepare(section: Section, ids: dict[int, str], states: dict[tuple[str, System], Rating],
            facts: Mapping[str, MemberFacts | None], floors: FloorsSetByHand,
            pre_ratings: PreRatings) -> Section:
    """The section as the office rates it: pre-event ratings, history and floors from the
    database, and the members' birth dates and FIDE/CFC ratings where the file has none."""
    players = []
    for p in section.players:
        member = ids.get(p.pair)
        players.append(p if member is None else
                       prepare_player(p, member, states, facts, floors, section.start_date,
                                      pre_ratings))
    return replace(section, players=tuple(players))


def prepare_player(p: Player, member: str, states: dict[tuple[str, System], Rating],
                   facts: Mapping[str, MemberFacts | None], floors: FloorsSetByHand, start: date,
                   pre_ratings: PreRatings) -> Player:
    """One player of `prepare`: member ``member`` of a section starting on ``start``."""
    ratings = _pre_event_ratings(member, p.ratings, states, floors, start, pre_ratings)
    fact = facts.get(member)
    if fact is None and ratings == p.ratings and member == p.id:
        return p  # nothing to add: keep the file's player as it is
    return replace(
        p, id=member, ratings=ratings,
        birth_date=p.birth_date or (fact.birth_date if fact else None),
        adult=p.adult if p.adult is not None else (fact.adult if fact else None),
        fide=p.fide or (FideRating(fact.fide_rating, fact.fide_date)
                        if fact and fact.fide_rating else None),
        cfc=p.cfc or (CfcRating(fact.cfc_rating, fact.cfc_date,
                                fact.canadian_resident is not False)
                      if fact and fact.cfc_rating else None),
    )


def _pre_event_ratings(member: str, given: Mapping[System, Rating],
                       states: dict[tuple[str, System], Rating], floors: FloorsSetByHand,
                       start: date, pre_ratings: PreRatings) -> dict[System, Rating]:
    """A member's rating to rate with in each system the database or the file has one
    for (`pre_event_rating`)."""
    ratings: dict[System, Rating] = {}
    for system in SYSTEMS:
        if (member, system) not in states and system not in given:
            continue  # most members have one or two systems
        chosen = pre_event_rating(member, system, given.get(system), states, floors, start,
                                  pre_ratings)
        if chosen is not None:
            ratings[system] = chosen
    return ratings


def pre_event_rating(member: str, system: System, given: Rating | None,
                     states: dict[tuple[str, System], Rating], floors: FloorsSetByHand,
                     start: date, pre_ratings: PreRatings) -> Rating | None:
    """The rating member ``member`` is rated with in ``system`` in a section starting on
    ``start``: the database's state or the file's rating ``given`` (`choose`), with the
    floors set by hand in force on ``start``."""
    chosen = choose(states.get((member, system)), given, pre_ratings)
    if chosen is None:
        return None
    by_hand = floors.get((member, system))
    if by_hand:  # rare: most runs have no floor set by hand
        in_force = [f for d, f in by_hand if d <= start]
        if in_force:
            chosen = with_floor_set_by_hand(chosen, system, in_force[-1])
    return chosen


def with_floor_set_by_hand(rating: Rating, system: System, value: float) -> Rating:
    """A floor set by hand raises the player's floor (a prize floor) or, when it is below
    the floor the peak or the OLM title gives, lowers that floor (a granted match
    request, section 7)."""
    computed = [f for f in (floor_rules.peak_floor(peak_before(rating)),
                            floor_rules.olm_floor(system is System.R, rating.olm, None))
                if f is not None]
    if computed and value < max(computed):
        return replace(rating, floor=None, floor_lowered_from=max(computed),
                       floor_lowered_to=value)
    return replace(rating, floor=value)


def choose(known: Rating | None, given: Rating | None, pre_ratings: PreRatings) -> Rating | None:
    """The pre-event rating to rate with.

    By default the database's state wins and the file's rating is used only for a member
    the database has not rated in that system. With ``pre_ratings="file"`` (re-running
    published history) the file's rating is taken as given, and the history the file
    cannot show (N, wins, draws, losses, events, peak) is carried from the database only
    where the database's rating rounds to the file's.
    """
    if not reads_given(known, pre_ratings):
        return known
    if pre_ratings == PreRatings.FILE_ONLY and given is not None:
        return given
    if pre_ratings != PreRatings.FILE or given is None:
        return known if known is not None else given
    if known is None or round(known.rating) != round(given.rating):
        return given
    return replace(given, games=known.games if not given.games_known else given.games,
                   games_known=given.games_known or known.games_known,
                   wins=known.wins, draws=known.draws, losses=known.losses,
                   events3=known.events3, peak=known.peak, olm=known.olm,
                   games_above_2200=known.games_above_2200, match_changes=known.match_changes)


def reads_given(known: Rating | None, pre_ratings: PreRatings) -> bool:
    """Whether `choose` reads the file's rating: not where the database's state wins,
    by default, for a member the database has rated in the system."""
    return known is None or pre_ratings != PreRatings.DATABASE
