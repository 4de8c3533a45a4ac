"""What the office admits: the checks every write makes before it changes anything.

The core checks that a section can be rated (`core.validate.check_section`); the office
also needs to know *whom* it rates, since it keeps their history. Each check here is a
pure function that returns every problem it finds, as lines that name the section, the
player, the line or the field and say what was expected; the office raises them as one
`AdmissionError` before its transaction writes anything.

The ranges come from the rating system: no rating is below the absolute floor of 100
(section 5 of the 2025 text), and floors set by hand are at 100-point levels from 100 to
2200: section 5's prize floors ("at any 100-point level", up to 2000), section 7's
lowered floors (100 points below the old one) and earned floors (1200 to 2100, the OLM
floor of 2200) carried over from another record, such as a published member page.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date

from ..core.model import Event, Player, Section
from ..core.validate import MAX_RATING, section_label
from ..formats.member_records import MemberRecord
from .errors import AdmissionError

__all__ = ["AdmissionError", "Verdict", "assigned_id", "check_birth_date", "check_event",
           "check_hand_floor", "check_members", "with_assigned_ids"]

#: the absolute floor: "No rating can be lower than the absolute rating floor" (2025, 5)
MIN_RATING = 100.0
#: floors set by hand: the 100-point levels from 100 to 2200 (see the module's docstring)
HAND_FLOORS = tuple(float(level) for level in range(100, 2300, 100))
#: the office's member ids are at most this long (schema.members.id)
MEMBER_ID_LENGTH = 32


@dataclass(frozen=True)
class Verdict:
    """What `check_event` found: problems refuse the event, warnings are said and it goes on."""

    problems: tuple[str, ...]
    warnings: tuple[str, ...]


# --- events ----------------------------------------------------------------------------


def check_event(event: Event) -> Verdict:
    """Every player has a member id, one id is one person, birth dates come before the
    section. Two rows under one id with different names are a warning; refused when they
    played each other (a player cannot meet herself)."""
    problems: list[str] = []
    warnings: list[str] = []
    for section in event.sections:
        label = section_label(section)
        missing = [p for p in section.players if not p.id.strip()]
        if missing:
            problems.append(
                f"{label}: {len(missing)} player(s) have no member id: "
                + ", ".join(_who(p) for p in missing[:10])
                + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
                + "; give each an id in the file, or rate with --assign-ids")
        for player in section.players:
            if player.birth_date is not None and player.birth_date > section.start_date:
                problems.append(f"{label}: {_who(player)}: birth date {player.birth_date} is "
                                f"after the section's start {section.start_date}")
        problems.extend(_met_themselves(section, label))
    warnings.extend(_names_under_one_id(event))
    return Verdict(tuple(problems), tuple(warnings))


def _who(player: Player) -> str:
    name = f" {player.name}" if player.name else ""
    return f"pair {player.pair}{name}"


def _met_themselves(section: Section, label: str) -> list[str]:
    """Two rows of one id that played each other."""
    by_pair = {p.pair: p for p in section.players}
    found = []
    for player in section.players:
        for result in player.results:
            other = by_pair.get(result.opponent) if result.opponent is not None else None
            if other is None or not player.id.strip() or other.id != player.id:
                continue
            if player.pair < other.pair:  # each game once
                found.append(f"{label}: round {result.round}: {_who(player)} and "
                             f"{_who(other)} share member id {player.id} and played each "
                             "other; one id is one person")
    return found


def _names_under_one_id(event: Event) -> list[str]:
    names: dict[str, dict[tuple[str, ...], list[str]]] = defaultdict(lambda: defaultdict(list))
    for section in event.sections:
        for p in section.players:
            if p.id.strip() and p.name.strip():
                names[p.id][same_name_key(p.name)].append(
                    f"{p.name!r} ({section_label(section)}, pair {p.pair})")
    return [f"member id {ident} is used for different names: "
            + ", ".join(places[0] for places in by_name.values())
            for ident, by_name in names.items() if len(by_name) > 1]


def same_name_key(name: str) -> tuple[str, ...]:
    """A name's words, case-folded and sorted without accents: "SMITH, JOHN" and
    "John Smith" are one name."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return tuple(sorted(re.findall(r"\w+", plain.casefold())))


def assigned_id(event_id: str, section: int, pair: int) -> str:
    """The id `with_assigned_ids` gives a player without one: ``EVENT/SECTION/PAIR``, or,
    where that is longer than a member id may be, the first 12 hex digits of the event
    id's SHA-256 in place of the event id."""
    ident = f"{event_id}/{section}/{pair}"
    if len(ident) <= MEMBER_ID_LENGTH:
        return ident
    return f"{hashlib.sha256(event_id.encode()).hexdigest()[:12]}/{section}/{pair}"


def with_assigned_ids(event: Event) -> tuple[Event, list[str]]:
    """``uscf db rate --assign-ids``: the event with an id for each player who has none
    (`assigned_id`), and a line for each id given. One id a person: merge ids later
    (`uscf db merge`) for a player who comes back with a member id."""
    given: list[str] = []
    sections = []
    for section in event.sections:
        players, named = [], []
        for p in section.players:
            if not p.id.strip():
                p = replace(p, id=assigned_id(event.id, section.number, p.pair))
                named.append(f"{p.id} ({p.name or 'no name'})")
            players.append(p)
        if named:
            given.append(f"{section_label(section)}: {len(named)} player(s) without a member "
                         f"id given one: " + ", ".join(named[:5])
                         + (f" and {len(named) - 5} more" if len(named) > 5 else ""))
        sections.append(replace(section, players=tuple(players)))
    return replace(event, sections=tuple(sections)), given


# --- members and floors --------------------------------------------------------------


def check_members(records: Iterable[MemberRecord], source: str) -> list[str]:
    """Ratings, N and the other numbers of imported members in range; one id a person
    (the same id twice with different names is refused: which one is right?)."""
    problems: list[str] = []
    seen: dict[str, MemberRecord] = {}
    for record in records:
        where = f"member {record.id}"
        first = seen.get(record.id)
        if first is not None and same_name_key(first.name) != same_name_key(record.name):
            problems.append(f"{where}: listed twice, as {first.name!r} and {record.name!r}")
        seen.setdefault(record.id, record)
        if len(record.id) > MEMBER_ID_LENGTH:
            problems.append(f"{where}: id is longer than {MEMBER_ID_LENGTH} characters")
        for system, b in record.ratings.items():
            here = f"{where}: {system.value}"
            if not MIN_RATING <= b.rating <= MAX_RATING:
                problems.append(f"{here} rating {b.rating:g} is outside "
                                f"{MIN_RATING:g}..{MAX_RATING:g} (section 5: no rating is "
                                "below the absolute floor of 100)")
            if b.games < 0:
                problems.append(f"{here} games (N) {b.games} is negative")
            for name in ("wins", "draws", "losses", "events3", "games_above_2200"):
                value = getattr(b, name)
                if value is not None and value < 0:
                    problems.append(f"{here} {name} {value} is negative")
            if b.peak is not None and not MIN_RATING <= b.peak <= MAX_RATING:
                problems.append(f"{here} peak {b.peak:g} is outside "
                                f"{MIN_RATING:g}..{MAX_RATING:g}")
            if b.floor is not None and not MIN_RATING <= b.floor <= 2200:
                problems.append(f"{here} floor {b.floor:g} is outside 100..2200 (section 5)")
            if record.birth_date is not None and b.as_of is not None \
                    and record.birth_date > b.as_of:
                problems.append(f"{here}: birth date {record.birth_date} is after the "
                                f"rating's date {b.as_of}")
        for name in ("fide_rating", "cfc_rating"):
            value = getattr(record, name)
            if value is not None and not 0 < value <= MAX_RATING:
                problems.append(f"{where}: {name} {value:g} is outside 0..{MAX_RATING:g}")
    return problems


def check_birth_date(member: str, birth_date: date, first_played: date | None) -> list[str]:
    """A birth date may not come after the first section the member played in."""
    if first_played is not None and birth_date > first_played:
        return [f"member {member}: birth date {birth_date} is after the member's first "
                f"rated section, which started {first_played}"]
    return []


def check_hand_floor(floor: float) -> list[str]:
    """Floors set by hand: section 5's prize floors and section 7's lowered floors."""
    if floor in HAND_FLOORS:
        return []
    return [f"floor {floor:g}: expected a 100-point level from 100 to 2200 (section 5: "
            "prize floors up to 2000, earned floors 1200 to 2100 and the OLM floor 2200; "
            "section 7: a lowered floor is 100 below the old one)"]
