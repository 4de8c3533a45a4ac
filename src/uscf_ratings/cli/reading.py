"""Reading many event files for ``uscf db rate``: check them all, then read them in order.

The command checks every file before it stores anything: its format, the schema, the
systems it is rated in and the consistency of its sections. That is much of the work of
rating a file and it does not depend on the database, so it runs in a pool of processes
(one per core), which also lay the sections out as columns (batch/laid.py): the office
rates them from those. The processes write each event so laid out to a file of a
temporary folder, and the first pass keeps only what the rating order and the warnings
need: a year of laid-out events would take hundreds of megabytes. The second pass takes
each event from its file just before it is rated, with the text of the event file, for
the office to store: the text that was checked.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from ..core.model import Event
from ..core.pipeline import section_systems
from ..core.rules import NoRuleSet, rules_for
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError, check_section
from ..formats.errors import ParseError
from ..office.store import SectionKey
from ..office.submission import Submission, submission
from .warnings import Lacking, lacking_games

#: below this many files the processes cost more to start than they save
POOL_FROM = 16


@dataclass(frozen=True)
class Checked:
    """A file that passed every check; its event, laid out, waits in ``kept``."""

    path: Path
    key: SectionKey  #: its first section in rating order
    games: int  #: rated games, for progress
    lacking: Lacking  #: players whose N the file does not give
    stamp: tuple[int, int]  #: size and modification time, to notice a file changed since
    #: the pickled event laid out, without its model; with its source unless the file is
    #: event JSON, whose text the second pass attaches
    kept: Path
    digest: bytes | None  #: of an event JSON file's bytes, to know them again


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def read_checked(path: Path) -> tuple[Event, bytes | None]:
    """One file read and checked as the office will rate it, and for event JSON the
    digest of the bytes it was read from."""
    from ..formats.detect import read_any, sniff
    from ..formats.event_json import parse_event, read_event

    digest = None
    if sniff(path).name == "json":
        data = path.read_bytes()
        digest = _digest(data)
        try:
            event = parse_event(data.decode("utf-8"), str(path))
        except UnicodeDecodeError:
            event = read_event(path)  # which says where the text is not UTF-8
    else:
        event = read_any(path)
    for section in event.sections:
        section_systems(section, rules_for(section.start_date))
        check_section(section)
    return event, digest


def check_file(path: Path, kept: Path) -> Checked | str:
    """The first pass over one file: what it holds, its event laid out and written to
    ``kept``, or the error naming the file (a message: exceptions with their own
    constructors do not always cross processes)."""
    from ..formats.event_json import event_to_json

    try:
        stamp = _stamp(path)
        event, digest = read_checked(path)
    except (ParseError, SectionError, NoRuleSet, TimeControlError) as error:
        return str(error)
    taken = submission(event, None if digest else json.dumps(event_to_json(event)))
    kept.write_bytes(pickle.dumps(taken.without_model(), pickle.HIGHEST_PROTOCOL))
    return Checked(path, taken.first_key, taken.rated_games, lacking_games(event), stamp,
                   kept, digest)


def _check_file(job: tuple[Path, Path]) -> Checked | str:
    return check_file(*job)


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def read_again(checked: Checked) -> Submission:
    """The second pass: the event with the text of its file, refused if the file changed
    since the first (the office stores the text it rates)."""
    try:
        if _stamp(checked.path) != checked.stamp:
            raise FileChanged(checked.path)
        event: Submission = pickle.loads(checked.kept.read_bytes())
        checked.kept.unlink()
        if checked.digest is None:  # not event JSON: its source came with it
            return event
        data = checked.path.read_bytes()
    except OSError as error:
        raise FileChanged(checked.path) from error
    if _digest(data) != checked.digest:
        raise FileChanged(checked.path)
    return replace(event, source=data.decode("utf-8"))


class FileChanged(Exception):
    """A file checked in the first pass was changed or removed before the second."""

    def __init__(self, path: Path):
        super().__init__(f"{path}: the file changed after it was checked; run the command "
                         "again")


class Reader:
    """The pool the first pass runs in (none for a few files), the folder the laid-out
    events wait in (removed at the end), and the second pass."""

    def __init__(self, files: int, workers: int | None = None):
        workers = workers or os.cpu_count() or 1
        self.pool = ProcessPoolExecutor(workers) if files >= POOL_FROM and workers > 1 \
            else None
        self.folder = Path(tempfile.mkdtemp(prefix="uscf-rate-"))

    def __enter__(self) -> Reader:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def check(self, paths: Sequence[Path], on_file: Callable[[], None] | None = None
              ) -> Iterator[Checked | str]:
        """The first pass, in the order of ``paths``."""
        jobs = [(path, self.folder / f"{i}.pickle") for i, path in enumerate(paths)]
        results = map(_check_file, jobs) if self.pool is None else \
            self.pool.map(_check_file, jobs, chunksize=8)
        for result in results:
            yield result
            if on_file:
                on_file()

    def events(self, checked: Sequence[Checked]) -> Iterator[Submission]:
        """The second pass: each file's event, in the order given, with its text (the
        pool is shut down first: the rating loop has the cores)."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        for item in checked:
            yield read_again(item)
