"""The input model: an event, its sections, their players and results.

Frozen dataclasses only; every other layer (file formats, the database, the CLI) builds
these values and hands them to `uscf_ratings.core.pipeline.rate_section`.
The names follow the US Chess rating system document of 2025-07-26 (N for games,
R0 for the prior rating, m for games in the event).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import date
from operator import attrgetter
from typing import Any

from .constants import DOCUMENTED


class System(str, enum.Enum):
    """The six rating systems (2025 text, opening paragraph and footnote 1)."""

    R = "R"  #: over-the-board Regular (OTBR)
    Q = "Q"  #: over-the-board Quick (OTBQ)
    B = "B"  #: over-the-board Blitz (OTBB)
    OR = "OR"  #: online Regular (OLR)
    OQ = "OQ"  #: online Quick (OLQ)
    OB = "OB"  #: online Blitz (OLB)

    @property
    def online(self) -> bool:
        return self.value.startswith("O")

    @property
    def speed(self) -> str:
        """'R', 'Q' or 'B': the speed without the online/over-the-board distinction."""
        return self.value[-1]

    @property
    def document_name(self) -> str:
        """The abbreviation the 2024 and 2025 texts use (OTBR, OLB, ...)."""
        return ("OL" if self.online else "OTB") + self.speed

    def __str__(self) -> str:
        return self.value


#: the systems in words, as pages and the terminal name them (the 2025 text's opening
#: paragraph)
SYSTEM_NAMES = {System.R: "Regular", System.Q: "Quick", System.B: "Blitz",
                System.OR: "Online Regular", System.OQ: "Online Quick",
                System.OB: "Online Blitz"}


class SectionType(str, enum.Enum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    MATCH = "match"  #: an individual match, section 7 of the 2025 text
    FIDE_FOREIGN = "fide_foreign"  #: a foreign FIDE event, section 6 of the 2025 text


class KFactor(str, enum.Enum):
    FULL = "full"  #: K = 800/(N' + m)
    HALF = "half"  #: K = 400/(N' + m/2), the 2004 page's "half-K" events


#: Result codes of the US Chess rating report. Only W, L and D are rated games.
RESULT_CODES = ("W", "L", "D", "X", "F", "H", "B", "U")
PLAYED_CODES = ("W", "L", "D")
SCORE = {"W": 1.0, "D": 0.5, "L": 0.0}


@dataclass(frozen=True)
class MatchChange:
    """A rating change from an earlier match, for the 180-day and 3-year caps (section 7)."""

    date: date
    change: float


@dataclass(frozen=True)
class Rating:
    """A player's standing in one system before the event.

    ``games`` is N. The history counts are optional: ``None`` means unknown, which the
    engine reads as "not all wins or all losses" and "no absolute-floor credit beyond this
    event".
    """

    rating: float
    games: int
    date: date | None = None  #: when the rating was computed (staleness, section 2)
    wins: int | None = None
    draws: int | None = None
    losses: int | None = None
    events3: int | None = None  #: events with at least three rated games (N_R, section 5)
    peak: float | None = None  #: highest established rating attained (section 5)
    floor: float | None = None  #: a floor set by the office (a prize floor)
    #: A floor the office lowered (a granted match request, section 7): floors computed
    #: from the peak or the OLM title that are at most ``floor_lowered_from`` are held to
    #: ``floor_lowered_to`` instead; a later, higher peak gives its floor again.
    floor_lowered_from: float | None = None
    floor_lowered_to: float | None = None
    olm: bool = False  #: holds the Original Life Master title (OTBR floor 2200)
    games_above_2200: int | None = None  #: rated games played while established above 2200
    match_changes: tuple[MatchChange, ...] = ()
    #: False when the source (a rating report, a TRF file) gave the rating but not N; the
    #: reader then puts an assumed N in ``games`` and the result says so.
    games_known: bool = True

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as `rating_of_fields` and the fields' values, in order: unpickled
        in about two thirds of the time the default takes (a class and a dict of the
        fields). A long re-rate takes its events' lineups from reader processes
        (office/prefetch.py) with about 46 ratings an event, and unpickles them in the
        rating loop. A subclass (there is none) is pickled with its class and all its
        fields (`_restored`)."""
        if type(self) is not Rating:
            return _restored, (type(self), dict(vars(self)))
        return rating_of_fields, rating_fields(self)

    @property
    def established(self) -> bool:
        """Established means based on more than 25 games (2025 text, section 1): the
        documented number; `established_after` takes a rule set's own."""
        return self.established_after(DOCUMENTED.established_after)

    def established_after(self, games: float) -> bool:
        """Based on more than ``games`` games (`Constants.established_after`)."""
        return self.games > games

    @property
    def all_wins(self) -> bool:
        """Every earlier rated game was a win (section 4.1); unknown counts say no."""
        return (
            self.wins is not None
            and self.games > 0
            and self.wins == self.games
            and not self.draws
            and not self.losses
        )

    @property
    def all_losses(self) -> bool:
        return (
            self.losses is not None
            and self.games > 0
            and self.losses == self.games
            and not self.draws
            and not self.wins
        )


_new = object.__new__
_set = object.__setattr__
#: a Rating's fields, in the class's order (what `Rating.__reduce__` pickles, and what
#: `rating_of_fields` takes)
rating_fields = attrgetter(*(f.name for f in fields(Rating)))


def _restored(kind: type[Rating], values: dict[str, Any]) -> Rating:
    """A subclass of Rating unpickled: its fields set at once, as the class is frozen."""
    made: Rating = _new(kind)
    _set(made, "__dict__", values)
    return made


def rating_of_fields(rating: float, games: int, date: date | None, wins: int | None,
                     draws: int | None, losses: int | None, events3: int | None,
                     peak: float | None, floor: float | None, floor_lowered_from: float | None,
                     floor_lowered_to: float | None, olm: bool, games_above_2200: int | None,
                     match_changes: tuple[MatchChange, ...], games_known: bool) -> Rating:
    """``Rating(...)`` with every field given, in the class's order: the same value, made
    in about a third of the time. A frozen dataclass's ``__init__`` sets each field
    through ``object.__setattr__``; this sets them at once. The rating loop makes one
    for every player it rates (the state after the event) and every state it reads; a
    test holds the two to each other field by field."""
    made: Rating = _new(Rating)
    _set(made, "__dict__", {
        "rating": rating, "games": games, "date": date, "wins": wins, "draws": draws,
        "losses": losses, "events3": events3, "peak": peak, "floor": floor,
        "floor_lowered_from": floor_lowered_from, "floor_lowered_to": floor_lowered_to,
        "olm": olm, "games_above_2200": games_above_2200, "match_changes": match_changes,
        "games_known": games_known})
    return made


@dataclass(frozen=True)
class InitialRating:
    """An initial rating assigned by the ratings office (2017 text, section 2)."""

    rating: float
    games: int = 0


@dataclass(frozen=True)
class FideRating:
    rating: float
    date: date | None = None


@dataclass(frozen=True)
class CfcRating:
    rating: float
    date: date | None = None
    canadian_resident: bool = True


@dataclass(frozen=True)
class Result:
    """One cell of a player's row: a US Chess report code and the opponent's pair number."""

    round: int
    code: str
    opponent: int | None = None

    @property
    def played(self) -> bool:
        """Only W, L and D are rated games; forfeits, byes and unplayed rounds are not."""
        return self.code in PLAYED_CODES


@dataclass(frozen=True)
class Player:
    pair: int
    id: str
    name: str = ""
    birth_date: date | None = None
    adult: bool | None = None
    ratings: Mapping[System, Rating] = field(default_factory=dict)
    initial: Mapping[System, InitialRating] = field(default_factory=dict)
    fide: FideRating | None = None
    cfc: CfcRating | None = None
    results: tuple[Result, ...] = ()


def player_of_fields(pair: int, id: str, name: str, birth_date: date | None,
                     adult: bool | None, ratings: Mapping[System, Rating],
                     initial: Mapping[System, InitialRating], fide: FideRating | None,
                     cfc: CfcRating | None, results: tuple[Result, ...]) -> Player:
    """``Player(...)`` with every field given, in the class's order, as
    `rating_of_fields` makes a `Rating`: the same value, made without setting each field
    through ``object.__setattr__``. Reading an event makes one for every player: the
    checks of a year's files read 300,000, and so do the readers of a year's re-rate
    (office/prefetch.py)."""
    made: Player = _new(Player)
    _set(made, "__dict__", {
        "pair": pair, "id": id, "name": name, "birth_date": birth_date, "adult": adult,
        "ratings": ratings, "initial": initial, "fide": fide, "cfc": cfc,
        "results": results})
    return made


@dataclass(frozen=True)
class Section:
    number: int
    start_date: date
    end_date: date
    players: tuple[Player, ...]
    name: str = ""
    time_control: str | None = None
    online: bool = False
    type: SectionType = SectionType.SWISS
    systems: tuple[System, ...] | None = None  #: given systems win over the time control
    k: KFactor = KFactor.FULL
    youth: bool = False  #: a youth event, for the FIDE foreign-event conversion (section 6)


@dataclass(frozen=True)
class Director:
    """A tournament director (an arbiter in FIDE's files) as the file names them: a US
    Chess member id, a name, or both. The rating report gives ids only, TRF names only."""

    id: str = ""
    name: str = ""


@dataclass(frozen=True)
class EventDetails:
    """What a file tells of an event beyond what it is rated from: where it was played,
    the affiliate that ran it and its directors. Nothing here changes a rating. Every
    field is optional and kept as the file gives it (surrounding spaces removed); empty
    when the file gives nothing. Which field each format fills: docs/formats.md."""

    city: str = ""
    #: a US state or other region, as given (the rating report's two letters: FL)
    state: str = ""
    zip_code: str = ""
    #: as given: a name (United States) or a code (USA, or a TRF federation: ESP)
    country: str = ""
    #: the place when the file does not split it into city and state: a club or a hall
    #: (PGN ``Site``), a street address, or a web address (an online event's TRF)
    site: str = ""
    affiliate_id: str = ""  #: the US Chess affiliate that ran it (A6012345)
    affiliate_name: str = ""
    chief_director: Director | None = None
    #: the assistant chief TD of the rating report (``H_ATD_ID``)
    assistant_director: Director | None = None
    #: the other directors (the report's ``H_OTHER_TD``, TRF's deputy arbiters), in order
    other_directors: tuple[Director, ...] = ()

    @property
    def empty(self) -> bool:
        """Whether the file gave none of it."""
        return self == _NO_DETAILS


_NO_DETAILS = EventDetails()


@dataclass(frozen=True)
class Event:
    id: str
    start_date: date
    end_date: date
    sections: tuple[Section, ...]
    name: str = ""
    online: bool = False
    details: EventDetails = _NO_DETAILS

    @property
    def rated_games(self) -> int:
        """Rated games (W, L, D) in all sections, each counted once, not once per player."""
        # r.code rather than r.played: a property costs as much again, per result
        return sum(1 for s in self.sections for p in s.players for r in p.results
                   if r.code in PLAYED_CODES) // 2
