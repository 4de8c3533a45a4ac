"""What a valid input is: the domain of every field of the model, written once.

Every door (each reader through `formats.detect.read_any`, event JSON, the web's API and
uploads, the office's writes, member lists, floors set by hand, `uscf experiment`'s
variants, `uscf verify`) asks this module, so one value is refused with one message
whichever door it came through. `FIELDS` is the table: a field of the model (``Rating.games``)
to its `Domain` (a type, a range or the levels allowed, and why). `event_problems` checks
a whole event, the relations between fields included (end not before start, section
numbers unique, a birth date before the section); `value_problem` checks one value, for the
doors that hold a single field (a member list's column, ``set-floor``'s argument).
`OPTIONS` is the table of the numbers a variant of the rules may change (core/variants.py).
docs/domain.md shows both tables; a test holds the page to them.

The bounds, and why:

- Ratings are 100 to 3500: no rating is below the absolute floor of 100 (2025 text,
  section 5), and none has come near 3500 (3500 is the top of every conversion table).
  FIDE and CFC ratings are above 0 and at most 3500 (their own scales go lower than 100).
- A floor is a 100-point level from 100 to 2200, as `set-floor` allows it: section 5's
  prize floors ("at any 100-point level", up to 2000), its earned floors 1200 to 2100 and
  the OLM floor 2200, and section 7's lowered floors (100 below the old one).
- A count of games (N, the wins, draws and losses, the events of three games) is a whole
  number from 0 to `MAX_GAMES`: a thousand times what the most active players have
  played, and far inside the database's 32-bit INTEGER (N + m is stored after an event).
- Dates of events and sections are within the rules' coverage: from its first day
  (rules.FIRST_COVERED, 2013-05-08) to the last day of the tenth year after the last
  dated change of the rules (`LATEST`, 2035-12-31 for a change of 2025-01-01). The core
  has no clock, so the bound is the rules', not today's: the rules of 2025 say nothing of
  a section of 2040, and a date such as 9999-12-31 breaks the arithmetic of staleness.
  Other dates (birth dates, a rating's date) are from `EARLIEST` (1900-01-01) to `LATEST`.
- Section numbers, pair numbers and round numbers are whole numbers from 1 to their
  bound (`MAX_SECTION`, `MAX_PAIR`, `MAX_ROUNDS`); a player has at most `MAX_ROUNDS`
  results; an event holds one section at least (event JSON's schema asks for one), and
  section numbers are unique within it (the office's key).
- Text has no control characters (Unicode's Cc: tabs, newlines, NUL, escapes; Cs: lone
  surrogates, which no file can encode) and is bounded: a member id at most 32
  characters and an event id at most 64 (the database's columns), names 200. An id may
  hold "/" (the ids ``--assign-ids`` gives); a page or a URL escapes it.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from .model import (
    RESULT_CODES,
    CfcRating,
    Event,
    EventDetails,
    FideRating,
    Player,
    Section,
)
from .rules import FIRST_COVERED, RULE_SETS

#: the absolute floor: "No rating can be lower than the absolute rating floor" (2025, 5)
MIN_RATING = 100.0
#: the top of every conversion table of section 2
MAX_RATING = 3500.0
#: floors set by hand: the 100-point levels from 100 to 2200 (module docstring)
HAND_FLOORS = tuple(float(level) for level in range(100, 2300, 100))
#: the most games a count may hold (module docstring)
MAX_GAMES = 1_000_000
#: the office's member ids (schema.members.id) and event ids (schema.events.id)
MEMBER_ID_LENGTH = 32
EVENT_ID_LENGTH = 64
#: names, places and other free text
TEXT_LENGTH = 200
#: a time control as written (G/90;d30, 40/120, SD/30 ...; real reports write a schedule
#: for each round, up to 748 characters in ../shared)
TIME_CONTROL_LENGTH = 1_000
#: a member's state or region as a member list gives it (schema.members.state)
STATE_LENGTH = 8
MAX_SECTION = 99_999
MAX_PAIR = 99_999
MAX_ROUNDS = 1_000
#: the years after the rules' last dated change that a section may start in
YEARS_AHEAD = 10
EARLIEST = date(1900, 1, 1)
LATEST = date(RULE_SETS[-1].effective.year + YEARS_AHEAD, 12, 31)

#: Unicode's control characters (category Cc: U+0000 to U+001F and U+007F to U+009F) and
#: surrogates (Cs: U+D800 to U+DFFF), as one search (a test holds it to the categories)
_BAD_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


@dataclass(frozen=True)
class Domain:
    """The values one field may take: its kind, its bounds (``low_open``: the low bound
    itself is out), or the levels allowed; ``why`` says where the bounds come from."""

    kind: str  #: "whole number", "number", "level", "date", "text" or "id"
    low: Any = None
    high: Any = None
    low_open: bool = False
    levels: tuple[float, ...] = ()
    why: str = ""

    def expected(self) -> str:
        """The domain in words, as a message ends: "a whole number from 0 to 1000000"."""
        if self.kind == "level":
            return (f"a {self.levels[1] - self.levels[0]:g}-point level from "
                    f"{self.levels[0]:g} to {self.levels[-1]:g}")
        if self.kind in ("text", "id"):
            what = "an id" if self.kind == "id" else "text"
            return f"{what} of at most {self.high} characters, without control characters"
        low, high = _bound(self.low), _bound(self.high)
        if self.low_open:
            return f"a {self.kind} above {low} and at most {high}"
        return f"a {self.kind} from {low} to {high}"

    def problem(self, label: str, value: Any) -> str | None:
        """None if ``value`` is in the domain, else the one message every door gives:
        ``"{label} {value}: expected {the domain} ({why})"`` (without a label where the
        door names the field itself, as a form does beside the field)."""
        if self.holds(value):
            return None
        why = f" ({self.why})" if self.why else ""
        named = f"{label} {shown(value)}" if label else shown(value)
        return f"{named}: expected {self.expected()}{why}"

    def holds(self, value: Any) -> bool:
        """Whether ``value`` is in the domain."""
        kind = self.kind
        if type(value) is int and kind == "whole number":  # the common cases, quickly
            return bool(self.low <= value <= self.high)
        if type(value) is float and kind == "number" and not self.low_open:
            return bool(self.low <= value <= self.high)  # NaN compares False: refused
        if kind in ("text", "id"):
            return (isinstance(value, str) and len(value) <= self.high
                    and _BAD_TEXT.search(value) is None)
        if kind == "date":
            return (isinstance(value, date) and not hasattr(value, "hour")
                    and self.low <= value <= self.high)
        if isinstance(value, bool) or not isinstance(value, int | float):
            return False
        if kind == "whole number":
            if isinstance(value, float) and not value.is_integer():
                return False
        elif isinstance(value, float) and not math.isfinite(value):
            return False
        if kind == "level":
            return value in self.levels
        above = value > self.low if self.low_open else value >= self.low
        return bool(above and value <= self.high)


def _bound(value: Any) -> str:
    """A bound in words: 2013-05-08, 3500, 0.5, 1000000 (not 1e+06)."""
    if isinstance(value, date):
        return value.isoformat()
    if float(value).is_integer():
        return str(int(value))
    return f"{value:g}"


def shown(value: Any) -> str:
    """A value as a message quotes it: short, whatever it is (a number of 4,000 digits,
    a text of a million characters, a control character)."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        if abs(value) < 10**40:
            return str(value)
        return f"of about {int(value.bit_length() * math.log10(2)) + 1} digits"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:40] + "...")
    if isinstance(value, date):
        return value.isoformat()
    return f"of type {type(value).__name__}"


_RATING = Domain("number", MIN_RATING, MAX_RATING,
                 why="section 5: no rating is below the absolute floor of 100")
_FOREIGN = Domain("number", 0.0, MAX_RATING, low_open=True,
                  why="FIDE's and the CFC's scales, within the conversions' tables")
_GAMES = Domain("whole number", 0, MAX_GAMES,
                why="a thousand times the most games anyone has played; the database "
                    "stores N + m in a 32-bit integer")
_FLOOR = Domain("level", levels=HAND_FLOORS,
                why="section 5: prize floors up to 2000, earned floors 1200 to 2100 and the "
                    "OLM floor 2200; section 7: a lowered floor is 100 below the old one")
_DAY = Domain("date", EARLIEST, LATEST,
               why=f"from {EARLIEST.year} to the last day sections may be dated")
_COVERED = Domain("date", FIRST_COVERED, LATEST,
                  why=f"the rules' coverage starts {FIRST_COVERED.isoformat()}; a section "
                      f"starts at most {YEARS_AHEAD} years after their last change")
#: the most norms at one level a member list may carry: a norm takes a section of at
#: least four rated games, and this is a section a week for two hundred years
MAX_NORMS = 10_000
_MEMBER_ID = Domain("id", high=MEMBER_ID_LENGTH, why="the database's member ids")
_TEXT = Domain("text", high=TEXT_LENGTH, why="a name or a place, not a document")

#: Every field of the model that holds a value from outside, to its domain. The Boolean
#: fields (``online``, ``adult``, ``olm`` ...) and the enumerations (systems, section
#: types, K) take their values from their types, which the readers build.
FIELDS: dict[str, Domain] = {
    "Event.id": Domain("id", high=EVENT_ID_LENGTH, why="the database's event ids"),
    "Event.name": _TEXT,
    "Event.start_date": _COVERED,
    "Event.end_date": _COVERED,
    "EventDetails.*": _TEXT,
    "Director.id": _MEMBER_ID,
    "Director.name": _TEXT,
    "Section.number": Domain("whole number", 1, MAX_SECTION, why="far more than any event has"),
    "Section.name": _TEXT,
    "Section.time_control": Domain("text", high=TIME_CONTROL_LENGTH,
                                   why="G/90;d30, 40/120,SD/30;d10, or a schedule for "
                                       "each round"),
    "Section.start_date": _COVERED,
    "Section.end_date": _COVERED,
    "Player.pair": Domain("whole number", 1, MAX_PAIR, why="far more than any section has"),
    "Player.id": _MEMBER_ID,
    "Player.name": _TEXT,
    "Player.birth_date": _DAY,
    "Player.results": Domain("whole number", 0, MAX_ROUNDS,
                             why="the number of a player's results: at most one a round"),
    "Rating.rating": _RATING,
    "Rating.games": _GAMES,
    "Rating.date": _DAY,
    "Rating.wins": _GAMES,
    "Rating.draws": _GAMES,
    "Rating.losses": _GAMES,
    "Rating.events3": _GAMES,
    "Rating.games_above_2200": _GAMES,
    "Rating.peak": _RATING,
    "Rating.floor": _FLOOR,
    "Rating.floor_lowered_from": _FLOOR,
    "Rating.floor_lowered_to": _FLOOR,
    "MatchChange.date": _DAY,
    "MatchChange.change": Domain("number", -MAX_RATING, MAX_RATING,
                                 why="a change of a rating within the ratings' range"),
    "InitialRating.rating": _RATING,
    "InitialRating.games": _GAMES,
    "FideRating.rating": _FOREIGN,
    "FideRating.date": _DAY,
    "CfcRating.rating": _FOREIGN,
    "CfcRating.date": _DAY,
    "Result.round": Domain("whole number", 1, MAX_ROUNDS, why="far more than any section has"),
    "Result.opponent": Domain("whole number", 1, MAX_PAIR, why="a pair number"),
    "Member.state": Domain("text", high=STATE_LENGTH, why="the database's members.state"),
    "Title.date": _DAY,
    "Title.norms": Domain("whole number", 0, MAX_NORMS,
                          why="norms earned at one level: five earn its title, and a norm "
                              "takes at least four rated games"),
}

#: the relations between fields, in words (docs/domain.md)
RELATIONS: tuple[str, ...] = (
    "an event's and a section's end date is not before its start date",
    "an event holds one section at least, and section numbers are unique within it",
    "a birth date is not after the start of the player's section",
    "a result's code is one of " + ", ".join(RESULT_CODES),
)

#: a rating's optional fields that hold a value from outside, in the order checked
_RATING_OPTIONAL = ("date", "wins", "draws", "losses", "events3", "games_above_2200", "peak",
                    "floor", "floor_lowered_from", "floor_lowered_to")


@dataclass(frozen=True)
class DomainProblem:
    """A value outside its domain: where (the event, section, player or member), and the
    message, which names the field, the value and what was expected."""

    place: str
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


def value_problem(key: str, label: str, value: Any) -> str | None:
    """``value`` of the field ``key`` of `FIELDS` checked: None, or the message."""
    return FIELDS[key].problem(label, value)


def rating_problems(system: str, values: Mapping[str, Any]) -> list[str]:
    """A rating's fields (`Rating`'s names: ``rating``, ``games``, ``date`` ...; a field
    missing or None is not given) checked: the messages, each naming the system and the
    field ("R floor 99999: expected ...", "R games (N) -4: expected ..."). Member lists
    give the same fields."""
    return _rating_problems(system, values.get)


def _rating_problems(system: str, get: Any) -> list[str]:
    found = []
    for name, label, d, optional in _RATING_CHECKS:
        value = get(name)
        if not ((value is None and optional) or d.holds(value)):
            found.append(d.problem(f"{system} {label}", value) or "")
    return found


#: a rating's fields, the words a message names them by, their domains, and whether the
#: field may be left out
_RATING_CHECKS = tuple(
    (name, "games (N)" if name == "games" else name, FIELDS[f"Rating.{name}"],
     name not in ("rating", "games"))
    for name in ("rating", "games", *_RATING_OPTIONAL))


def section_label(section: Section) -> str:
    return f"section {shown(section.number)}" + (
        f" ({section.name})" if isinstance(section.name, str) and section.name else "")


def player_label(player: Player) -> str:
    ident = f", id {player.id}" if isinstance(player.id, str) and player.id else ""
    return f"player {shown(player.pair)}{ident}"


def event_problems(event: Event) -> list[DomainProblem]:
    """Every value of ``event`` outside its domain, and every relation broken."""
    found: list[DomainProblem] = []
    place = f"event {shown(event.id)}" if isinstance(event.id, str) else "event"

    def check(where: str, key: str, label: str, value: Any) -> None:
        message = FIELDS[key].problem(label, value)
        if message is not None:
            found.append(DomainProblem(where, message))

    check(place, "Event.id", "id", event.id)
    check(place, "Event.name", "name", event.name)
    check(place, "Event.start_date", "start date", event.start_date)
    check(place, "Event.end_date", "end date", event.end_date)
    found.extend(_in_order(place, event.start_date, event.end_date))
    _details(found, place, event.details)
    if not event.sections:  # the schema's minItems 1; the office keys an event by them
        found.append(DomainProblem(place, "no section: expected one at least"))
    numbers = Counter(s.number for s in event.sections
                      if FIELDS["Section.number"].holds(s.number))
    for number, count in numbers.items():  # in the order of the sections
        if count > 1:
            found.append(DomainProblem(place, f"section number {shown(number)} is used by "
                                              f"{count} sections: expected each once"))
    for section in event.sections:
        found.extend(section_problems(section))
    return found


def _in_order(place: str, start: Any, end: Any) -> list[DomainProblem]:
    """An end date before the start date, if it is."""
    if isinstance(start, date) and isinstance(end, date) and end < start:
        return [DomainProblem(place, f"end date {end.isoformat()} is before the start date "
                                     f"{start.isoformat()}")]
    return []


def _details(found: list[DomainProblem], place: str, details: EventDetails) -> None:
    for name in ("city", "state", "zip_code", "country", "site", "affiliate_id",
                 "affiliate_name"):
        message = FIELDS["EventDetails.*"].problem(name.replace("_", " "),
                                                   getattr(details, name))
        if message is not None:
            found.append(DomainProblem(place, message))
    directors = [("chief director", details.chief_director),
                 ("assistant director", details.assistant_director)]
    directors += [(f"director {i}", d) for i, d in enumerate(details.other_directors, 1)]
    for label, director in directors:
        if director is None:
            continue
        for key, name in (("Director.id", "id"), ("Director.name", "name")):
            message = FIELDS[key].problem(f"{label} {name}", getattr(director, name))
            if message is not None:
                found.append(DomainProblem(place, message))


def section_problems(section: Section) -> list[DomainProblem]:
    """Every value of ``section`` and its players outside its domain."""
    place = section_label(section)
    found = [DomainProblem(place, message) for message in section_own_problems(section)]
    for player in section.players:
        found.extend(DomainProblem(f"{place}, {player_label(player)}", message)
                     for message in player_problems(player, section.start_date))
    return found


def section_own_problems(section: Section, before_coverage: bool = True) -> list[str]:
    """The section's own values (its number, name, time control and dates) outside their
    domain, and an end date before the start date; not its players'. Cheap enough for
    every rating (`core.validate.check_section` asks it): a date past the rules' reach
    must not reach the arithmetic (9999-12-31 divided by zero in blending).
    ``before_coverage=False`` leaves a date before the rules' coverage unsaid, for
    `rules.rules_for` to refuse as `NoRuleSet` (`uscf fidelity` counts such sections
    apart from those refused)."""
    found: list[str] = []

    def check(key: str, label: str, value: Any) -> None:
        if (not before_coverage and isinstance(value, date)
                and EARLIEST <= value < FIRST_COVERED):
            return
        message = FIELDS[key].problem(label, value)
        if message is not None:
            found.append(message)

    check("Section.number", "number", section.number)
    check("Section.name", "name", section.name)
    if section.time_control is not None:
        check("Section.time_control", "time control", section.time_control)
    check("Section.start_date", "start date", section.start_date)
    check("Section.end_date", "end date", section.end_date)
    found.extend(p.message for p in _in_order("", section.start_date, section.end_date))
    return found


def player_problems(player: Player, section_start: date | None = None) -> list[str]:
    """Every value of ``player`` outside its domain, as messages naming the field. Each
    value is tested first and its message made only when it fails: a file's players are
    checked at every door, and most values are good."""
    found: list[str] = []

    def check(key: str, label: str, value: Any) -> None:
        message = FIELDS[key].problem(label, value)
        if message is not None:
            found.append(message)

    if not _PAIR.holds(player.pair):
        check("Player.pair", "pair number", player.pair)
    if not (_MEMBER_ID.holds(player.id) and _TEXT.holds(player.name)):
        check("Player.id", "id", player.id)
        check("Player.name", "name", player.name)
    birth = player.birth_date
    if birth is not None:
        check("Player.birth_date", "birth date", birth)
        if isinstance(birth, date) and isinstance(section_start, date) and birth > section_start:
            found.append(f"birth date {birth.isoformat()} is after the section's start "
                         f"{section_start.isoformat()}")
    for system, rating in player.ratings.items():
        found.extend(_rating_problems(str(system), rating.__dict__.get))
        for i, change in enumerate(rating.match_changes, 1):
            check("MatchChange.date", f"{system} match change {i} date", change.date)
            check("MatchChange.change", f"{system} match change {i}", change.change)
    for system, initial in player.initial.items():
        check("InitialRating.rating", f"{system} initial rating", initial.rating)
        check("InitialRating.games", f"{system} initial games", initial.games)
    _foreign(found, "FIDE", "FideRating", player.fide)
    _foreign(found, "CFC", "CfcRating", player.cfc)
    results = player.results
    check("Player.results", "number of results", len(results))
    for result in results[:MAX_ROUNDS]:
        rnd, opponent = result.round, result.opponent
        # `Domain.holds` written out for the usual whole numbers: a player has a result a
        # round, and this loop is most of the check's time
        if type(rnd) is not int or not 1 <= rnd <= MAX_ROUNDS:
            check("Result.round", "round", rnd)
        if opponent is not None and (type(opponent) is not int
                                     or not 1 <= opponent <= MAX_PAIR):
            check("Result.opponent", f"round {shown(rnd)} opponent", opponent)
    return found


_PAIR = FIELDS["Player.pair"]


def _foreign(found: list[str], name: str, kind: str,
             rating: FideRating | CfcRating | None) -> None:
    if rating is None:
        return
    value, day = rating.rating, rating.date
    rated, dated = FIELDS[f"{kind}.rating"], FIELDS[f"{kind}.date"]
    if not rated.holds(value):
        found.append(rated.problem(f"{name} rating", value) or "")
    if day is not None and not dated.holds(day):
        found.append(dated.problem(f"{name} rating's date", day) or "")


def member_problems(member: str, values: Iterable[tuple[str, str, Any]]) -> list[str]:
    """A member record's fields, as (key of `FIELDS`, label, value) for each field given,
    checked: the messages, each naming the member ("member 123: name ...")."""
    found = []
    for key, label, value in values:
        message = FIELDS[key].problem(label, value)
        if message is not None:
            found.append(f"member {member}: {message}")
    return found


# --- options: the numbers a variant of the rules may change ------------------------------

_POSITIVE = Domain("number", 0.0, 1e6, low_open=True, why="a divisor or a scale")
_NON_NEGATIVE = Domain("number", 0.0, 1e6, why="a negative value turns the formula over")
_ON_SCALE = Domain("number", 0.0, MAX_RATING, why="a rating")
_COUNT = Domain("number", 0.0, float(MAX_GAMES), why="a number of games")

#: Each number a variant may change (`core.constants.Constants` and the dated rules'
#: numbers), to its domain: the formulas are meaningless outside it (a K of 0 or below,
#: an N* of 0 divides by zero, a negative threshold pays a bonus for a loss).
OPTIONS: dict[str, Domain] = {
    "bonus_threshold": _NON_NEGATIVE,
    "fide_game_factor_split": _ON_SCALE,
    "n_star_games": _POSITIVE,
    "n_star_a": _POSITIVE,
    "n_star_b": _NON_NEGATIVE,
    "n_star_centre": _ON_SCALE,
    "n_star_top": _ON_SCALE,
    "special_max_games": _COUNT,
    "pwe_width": _POSITIVE,
    "special_cap": _ON_SCALE,
    "we_scale": _POSITIVE,
    "k_numerator": _POSITIVE,
    "dual_k_from": _ON_SCALE,
    "dual_k_a": _NON_NEGATIVE,
    "dual_k_b": _NON_NEGATIVE,
    "dual_k_top": _ON_SCALE,
    "dual_k_top_numerator": _POSITIVE,
    "bonus_min_games": _COUNT,
    "bonus_m_floor": _COUNT,
    "step_floor": _ON_SCALE,
    "absolute_floor": _ON_SCALE,
    "absolute_floor_cap": _ON_SCALE,
    "absolute_floor_win": _NON_NEGATIVE,
    "absolute_floor_draw": _NON_NEGATIVE,
    "absolute_floor_event": _NON_NEGATIVE,
    "absolute_floor_event_games": _COUNT,
    "peak_floor_drop": _ON_SCALE,
    "peak_floor_lowest": _ON_SCALE,
    "peak_floor_highest": _ON_SCALE,
    "peak_floor_step": Domain("number", 0.0, MAX_RATING, low_open=True,
                              why="the floors' levels are its multiples"),
    "olm_floor": _ON_SCALE,
    "olm_games": _COUNT,
    "established_after": _COUNT,
    "init_game_factor": _NON_NEGATIVE,
    "init_other_game_factor": _NON_NEGATIVE,
    "init_z_cap": _NON_NEGATIVE,
    "init_z_scale": _POSITIVE,
    "init_staleness": _NON_NEGATIVE,
    "init_games_cap": _COUNT,
    "norm_lowest_level": _ON_SCALE,
    "norm_level_step": Domain("number", 0.0, 1000.0, low_open=True,
                              why="the seven norm levels are its multiples above the lowest"),
    "norm_table_below": _POSITIVE,
    "norm_table_above": _POSITIVE,
    "norm_margin": Domain("number", 0.0, 1000.0, why="points above the expected score"),
    "norm_min_games": _COUNT,
    "norm_max_meetings": Domain("number", 1.0, float(MAX_GAMES),
                                why="a number of games with one opponent"),
    "title_norms": Domain("number", 1.0, 1000.0, why="a number of norms"),
    "national_master": _ON_SCALE,
}


def option_problem(key: str, value: Any) -> str | None:
    """A variant's number ``value`` for ``key`` checked against `OPTIONS`."""
    domain = OPTIONS.get(key)
    return None if domain is None else domain.problem(key, value)


# --- the tables as docs/domain.md shows them ----------------------------------------------

def markdown() -> str:
    """`FIELDS`, `RELATIONS` and `OPTIONS` as the Markdown tables of docs/domain.md (a
    test holds the page to this text)."""
    lines = ["| Field | Domain | Why |", "|---|---|---|"]
    lines += [f"| `{key}` | {domain.expected()} | {domain.why} |"
              for key, domain in FIELDS.items()]
    lines += ["", "Relations:", ""] + [f"- {relation}" for relation in RELATIONS]
    lines += ["", "| Option of a variant | Domain | Why |", "|---|---|---|"]
    lines += [f"| `{key}` | {domain.expected()} | {domain.why} |"
              for key, domain in OPTIONS.items()]
    return "\n".join(lines) + "\n"
