"""What the office admits: the checks every write makes before it changes anything.

The core checks that a section can be rated (`core.validate.check_section`); the office
also needs to know *whom* it rates, since it keeps their history. Each check here is a
pure function that returns every problem it finds, as lines that name the section, the
player, the line or the field and say what was expected; the office raises them as one
`AdmissionError` before its transaction writes anything.

The domain of every value (a rating, N, a floor, a date, an id) is written once, in
core/domain.py, with where each bound comes from; the checks here ask it, so a member
list, a published history, ``set-floor`` and an event file refuse one value in the same
words.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from ..core.domain import (
    MEMBER_ID_LENGTH,
    event_problems,
    member_problems,
    rating_problems,
    value_problem,
)
from ..core.model import Event, Player, Section
from ..core.validate import section_label
from ..formats.member_history import MemberHistory
from ..formats.member_records import MemberRecord
from .errors import AdmissionError

__all__ = ["AdmissionError", "Verdict", "assigned_id", "check_birth_date", "check_event",
           "check_hand_floor", "check_histories", "check_members", "with_assigned_ids"]


@dataclass(frozen=True)
class Verdict:
    """What `check_event` found: problems refuse the event, warnings are said and it goes on."""

    problems: tuple[str, ...]
    warnings: tuple[str, ...]


# --- events ----------------------------------------------------------------------------


def check_event(event: Event, *, read_in_domain: bool = False) -> Verdict:
    """Every value in its domain (core/domain.py: the readers check it too; this is the
    office's own door, for an event given as a model), every player has a member id, one
    id is one person. Two rows under one id with different names are a warning; refused
    when they played each other (a player cannot meet herself).

    ``read_in_domain``: ``event`` is, unchanged, what a reader returned, whose values
    `formats.common.in_domain` checked already (the same `event_problems`: a frozen
    event holds them still, and checking again cost a tenth of checking a file)."""
    problems: list[str] = [] if read_in_domain else [str(p) for p in event_problems(event)]
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
    """A warning for each member id the event gives to players of different names
    (`same_name_key`), naming the first place of each name. Only an id given more than
    once can have two names: the others are not looked at (their names' keys and places
    were a tenth of checking a file)."""
    entries: dict[str, list[tuple[Section, Player]]] = defaultdict(list)
    for section in event.sections:
        for p in section.players:
            if p.id.strip() and p.name.strip():
                entries[p.id].append((section, p))
    warnings = []
    for ident, given in entries.items():
        if len(given) < 2:
            continue
        by_name: dict[tuple[str, ...], str] = {}
        for section, p in given:
            by_name.setdefault(same_name_key(p.name),
                               f"{p.name!r} ({section_label(section)}, pair {p.pair})")
        if len(by_name) > 1:
            warnings.append(f"member id {ident} is used for different names: "
                            + ", ".join(by_name.values()))
    return warnings


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
    """Every value of imported members in its domain (core/domain.py: the same fields
    and words as an event file's); one id a person (the same id twice with different
    names is refused: which one is right?)."""
    problems: list[str] = []
    seen: dict[str, MemberRecord] = {}
    for record in records:
        first = seen.get(record.id)
        if first is not None and same_name_key(first.name) != same_name_key(record.name):
            problems.append(f"member {record.id}: listed twice, as {first.name!r} and "
                            f"{record.name!r}")
        seen.setdefault(record.id, record)
        given: list[tuple[str, str, Any]] = [("Player.id", "id", record.id),
                                             ("Player.name", "name", record.name)]
        given += [(key, label, value) for key, label, value in (
            ("Player.birth_date", "birth date", record.birth_date),
            ("Member.state", "state", record.state),
            ("FideRating.rating", "FIDE rating", record.fide_rating),
            ("FideRating.date", "FIDE rating's date", record.fide_date),
            ("CfcRating.rating", "CFC rating", record.cfc_rating),
            ("CfcRating.date", "CFC rating's date", record.cfc_date)) if value is not None]
        given += [("Title.date", f"{name} title's date", day)
                  for name, day in record.titles.items() if day is not None]
        given += [("Title.norms", f"{code} norms", count) for code, count in record.norms.items()]
        problems.extend(member_problems(record.id, given))
        for system, b in record.ratings.items():
            values = {"rating": b.rating, "games": b.games, "date": b.as_of, "wins": b.wins,
                      "draws": b.draws, "losses": b.losses, "events3": b.events3,
                      "peak": b.peak, "floor": b.floor, "games_above_2200": b.games_above_2200}
            problems.extend(f"member {record.id}: {message}"
                            for message in rating_problems(system.value, values))
            if record.birth_date is not None and b.as_of is not None \
                    and record.birth_date > b.as_of:
                problems.append(f"member {record.id}: {system.value}: birth date "
                                f"{record.birth_date} is after the rating's date {b.as_of}")
    return problems


def check_histories(histories: Iterable[MemberHistory]) -> list[str]:
    """Every value of published histories in its domain (core/domain.py): the member's
    id, and each entry's event id, section number, names, dates, ratings and N. A
    history's dates go back before the rules' coverage (it is not rated again), so they
    are checked as any date of the past, not as a section's."""
    problems: list[str] = []
    for history in histories:
        problems.extend(member_problems(history.member, [("Player.id", "id", history.member)]))
        for i, entry in enumerate(history.entries, 1):
            given: list[tuple[str, str, Any]] = [
                ("Event.id", f"entry {i} event id", entry.event_id),
                ("Event.name", f"entry {i} event name", entry.event_name),
                ("Section.number", f"entry {i} section", entry.section),
                ("Section.name", f"entry {i} section name", entry.section_name),
                ("Rating.date", f"entry {i} start date", entry.start),
                ("Rating.date", f"entry {i} end date", entry.end),
                ("Rating.rating", f"entry {i} {entry.system.value} rating after",
                 entry.post)]
            if entry.pre is not None:
                given.append(("Rating.rating", f"entry {i} {entry.system.value} rating "
                              "before", entry.pre))
            if entry.post_games is not None:
                given.append(("Rating.games", f"entry {i} {entry.system.value} games after",
                              entry.post_games))
            problems.extend(member_problems(history.member, given))
    return problems


def check_birth_date(member: str, birth_date: date, first_played: date | None) -> list[str]:
    """A birth date may not come after the first section the member played in."""
    if first_played is not None and birth_date > first_played:
        return [f"member {member}: birth date {birth_date} is after the member's first "
                f"rated section, which started {first_played}"]
    return []


def check_hand_floor(floor: float, system: str) -> list[str]:
    """Floors set by hand: section 5's prize floors and section 7's lowered floors, in
    the words of an event file's or a member list's floor (core/domain.py)."""
    message = value_problem("Rating.floor", f"{system} floor", floor)
    return [] if message is None else [message]
