"""One event file read and checked as the office will rate it, before anything is stored.

Checking a file is much of the work of rating it: its format, the schema, the systems it
is rated in, the consistency of its sections and what the office admits
(office/admission.py). None of it needs the database, so `office.ingest` checks many
files in a pool of processes (office/file_checks.py); each check also makes the lineups of
the event's sections (office/submission.py) and writes the event to the spool
(office/spool.py), where it waits to be rated. What the check returns is small: what the
rating order, the progress and the warnings need.

This module imports the readers and the office's storage inside its functions: `uscf
rate` imports it for `lacking_games` alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from ..core.model import Event
from ..core.pipeline import section_systems
from ..core.rules import NoRuleSet, rules_for
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError, check_section
from ..formats.errors import ParseError
from .errors import AdmissionError
from .options import ReadOptions

if TYPE_CHECKING:
    from .spool import SpoolEntry
    from .store import SectionKey

#: what a file can be refused for while it is checked
CHECK_FAILURES = (ParseError, SectionError, NoRuleSet, TimeControlError, AdmissionError)

#: per section: its number and the (pair, member id) of players whose N is not given
#: per section (its number), the players whose N the file did not give: (pair, member
#: id, the N the reader assumed)
Lacking = tuple[tuple[int, tuple[tuple[int, str, int], ...]], ...]


def lacking_games(event: Event) -> Lacking:
    """The players whose N the file did not give (rating reports and TRF carry none)."""
    out = []
    for section in event.sections:
        players = tuple(sorted({(p.pair, p.id, r.games) for p in section.players
                                for r in p.ratings.values() if not r.games_known}))
        if players:
            out.append((section.number, players))
    return tuple(out)


@dataclass(frozen=True)
class CheckedFile:
    """A file that passed every check; its event waits in the spool."""

    path: Path
    key: SectionKey  #: its first section in rating order (its event id is ``key[2]``)
    games: int  #: rated games
    lacking: Lacking  #: players whose N the file does not give
    notes: tuple[str, ...]  #: warnings and the ids given, to show the user
    #: where the event waits: laid out, without its model, with the event JSON text the
    #: office stores (the file's own text if it is event JSON, else the text checked)
    spooled: SpoolEntry
    #: its content's fingerprint (office/fingerprint.py): one report in two files
    fingerprint: str = ""

    @property
    def event_id(self) -> str:
        return self.key[2]


@dataclass(frozen=True)
class ReadFile:
    """A file read and checked (`read_checked`)."""

    event: Event
    #: for event JSON read as it is, the text it was read from, and that text parsed
    text: str | None
    parsed: Any
    notes: tuple[str, ...]  #: what to tell the user (warnings, ids given)


def read_checked(path: Path, options: ReadOptions = ReadOptions()) -> ReadFile:
    """One file read and checked as the office will rate it. Raises one of
    `CHECK_FAILURES`, naming the file."""
    from ..formats.bounds import parse_json, read_input
    from ..formats.common import require_systems
    from ..formats.detect import read_any, sniff
    from ..formats.event_json import event_from_dict, read_event
    from .admission import check_event, with_assigned_ids

    text = parsed = None
    data = None if path.is_dir() else read_input(path)  # read once: sniffed and parsed
    plain = options.event_date is None and options.systems is None
    named_format = options.format.name if options.format is not None else None
    if plain and (named_format or sniff(path, data).name) == "json":
        assert data is not None
        try:
            text = data.decode("utf-8")
            parsed = parse_json(text, str(path))
            event = event_from_dict(parsed, str(path))
        except UnicodeDecodeError:
            text, event = None, read_event(path)  # which says where it is not UTF-8
    else:
        event = read_any(path, named_format, event_date=options.event_date,
                         systems=options.systems, data=data)
    require_systems(event, str(path))
    read = event  # as the reader returned it: its values are in their domain
    notes: list[str] = []
    if options.assign_ids:
        event, given = with_assigned_ids(event)
        if given:
            text = parsed = None  # the event stored is the file's with the ids given
            notes.extend(given)
    for section in event.sections:
        section_systems(section, rules_for(section.start_date))
        check_section(section)
    verdict = check_event(event, read_in_domain=event is read)
    if verdict.problems:
        raise AdmissionError(str(path), verdict.problems)
    notes.extend(verdict.warnings)
    return ReadFile(event, text, parsed, tuple(notes))


def settled_text(parsed: Any, read: Event, filled: Event) -> str | None:
    """The event JSON text of ``filled`` (`core.settled` of ``read``, read from the event
    JSON ``parsed``): ``parsed`` with the defaults docs/office.md lists written in, each
    section's systems and each rating's date (the section's start, which the reader
    gave it), where systems are all that was filled, as they are for event JSON; None
    where more was. Writing the whole event out again (`event_to_json`) cost more than
    a tenth of checking a file. A test holds the text read back equal to ``filled``."""
    sections = []
    for given, before, after in zip(parsed["sections"], read.sections, filled.sections,
                                    strict=True):
        if after is not before and (before.systems or not after.systems or any(
                p is not q for p, q in zip(before.players, after.players, strict=True))):
            return None
        start = after.start_date.isoformat()
        section = {**given, "players": [_dated(player, start) for player in given["players"]]}
        if after.systems:
            section["systems"] = [system.value for system in after.systems]
        sections.append(section)
    return json.dumps({**parsed, "sections": sections})


def _dated(player: dict[str, Any], start: str) -> dict[str, Any]:
    """An event JSON player with each rating dated ``start`` where it has no date."""
    ratings = player.get("ratings")
    if not ratings or all(r.get("date") is not None for r in ratings.values()):
        return player
    return {**player, "ratings": {system: r if r.get("date") is not None else {**r, "date": start}
                                  for system, r in ratings.items()}}


def named(path: Path, error: BaseException) -> str:
    """The error's message with every line naming the file."""
    lines = str(error).splitlines() or [type(error).__name__]
    return "\n".join(line if line.startswith(str(path)) else f"{path}: {line}"
                     for line in lines)


def check_file(path: Path, spool: BinaryIO, spool_path: Path,
               options: ReadOptions = ReadOptions()) -> CheckedFile | str:
    """One file checked, its event laid out and written with its text to ``spool`` (the
    file ``spool_path``, open); or why it was refused, naming the file (a message:
    exceptions with their own constructors do not always cross processes)."""
    from ..formats.event_json import event_to_json
    from .spool import write_event
    from .submission import submission

    try:
        read = read_checked(path, options)
    except CHECK_FAILURES as error:
        return named(path, error)
    event, notes = read.event, read.notes
    taken = submission(event, read.text)  # its defaults filled: the text kept if none was
    if taken.source is None:
        text = None if read.parsed is None else settled_text(read.parsed, event, taken.model)
        taken = replace(taken, source=text or json.dumps(event_to_json(taken.model)))
    taken = replace(taken, fingerprint=taken.content_fingerprint())  # made here, in parallel
    spooled = write_event(spool, spool_path, taken)
    return CheckedFile(path, taken.first_key, taken.rated_games, lacking_games(event), notes,
                       spooled, taken.content_fingerprint())


def check_files(paths: list[Path], spool_path: Path,
                options: ReadOptions = ReadOptions()) -> list[CheckedFile | str]:
    """`check_file` of each of ``paths``, their events written to the one file
    ``spool_path``: a task of the checks (office/file_checks.py)."""
    with spool_path.open("wb") as spool:
        return [check_file(path, spool, spool_path, options) for path in paths]
