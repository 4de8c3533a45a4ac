"""Reading many event files for ``uscf db rate``: check them all, then read them in order.

The command checks every file before it stores anything: its format, the schema, the
systems it is rated in and the consistency of its sections. That is much of the work of
rating a file and it does not depend on the database, so it runs in a pool of processes
(one per core). The first pass keeps only what the rating order and the warnings need,
not the events: a year of events would take a gigabyte. The second pass reads each file
again just before it is rated, without the checks it has passed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..core.model import Event
from ..core.pipeline import section_systems
from ..core.rules import NoRuleSet, rules_for
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError, check_section
from ..formats.errors import ParseError
from ..office.run import first_key
from ..office.store import SectionKey
from .warnings import Lacking, lacking_games

#: below this many files the processes cost more to start than they save
POOL_FROM = 16


@dataclass(frozen=True)
class Checked:
    """A file that passed every check, without its event."""

    path: Path
    event_id: str
    key: SectionKey  #: its first section in rating order
    games: int  #: rated games, for progress
    lacking: Lacking  #: players whose N the file does not give
    stamp: tuple[int, int]  #: size and modification time, to notice a file changed since


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def read_checked(path: Path) -> Event:
    """One file read and checked as the office will rate it."""
    from ..formats.detect import read_any

    event = read_any(path)
    for section in event.sections:
        section_systems(section, rules_for(section.start_date))
        check_section(section)
    return event


def check_file(path: Path) -> Checked | str:
    """The first pass over one file: what it holds, or the error naming the file
    (a message: exceptions with their own constructors do not always cross processes)."""
    try:
        stamp = _stamp(path)
        event = read_checked(path)
    except (ParseError, SectionError, NoRuleSet, TimeControlError) as error:
        return str(error)
    return Checked(path, event.id, first_key(event),
                   event.rated_games, lacking_games(event), stamp)


def read_again(checked: Checked) -> Event:
    """The second pass: the same file, refused if it changed since the first. It passed
    every check then, so an event JSON file is not checked against the schema again."""
    from ..formats.detect import read_any, sniff
    from ..formats.event_json import event_from_dict

    try:
        if _stamp(checked.path) != checked.stamp:
            raise FileChanged(checked.path)
        fmt = sniff(checked.path)
        if fmt.name == "json":
            data = json.loads(checked.path.read_text(encoding="utf-8"))
            event = event_from_dict(data, str(checked.path), checked=True)
        else:
            event = read_any(checked.path, fmt.name)
    except (OSError, ValueError, KeyError, TypeError, ParseError) as error:
        raise FileChanged(checked.path) from error
    if event.id != checked.event_id:
        raise FileChanged(checked.path)
    return event


class FileChanged(Exception):
    """A file checked in the first pass was changed or removed before the second."""

    def __init__(self, path: Path):
        super().__init__(f"{path}: the file changed after it was checked; run the command "
                         "again")


class Reader:
    """The pool the first pass runs in (none for a few files), and the second pass."""

    def __init__(self, files: int, workers: int | None = None):
        workers = workers or os.cpu_count() or 1
        self.pool = ProcessPoolExecutor(workers) if files >= POOL_FROM and workers > 1 \
            else None

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)

    def check(self, paths: Sequence[Path], on_file: Callable[[], None] | None = None
              ) -> Iterator[Checked | str]:
        """The first pass, in the order of ``paths``."""
        results = map(check_file, paths) if self.pool is None else \
            self.pool.map(check_file, paths, chunksize=8)
        for result in results:
            yield result
            if on_file:
                on_file()

    def events(self, checked: Sequence[Checked]) -> Iterator[Event]:
        """The second pass: each file's event, in the order given, read in this process
        (the pool is shut down first). Reading ahead in the pool was slower: the main
        process then unpickles each event, which costs as much as reading it, and the
        readers take CPU from the rating loop."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        for item in checked:
            yield read_again(item)
