"""Reading many event files for ``uscf db rate``: check them all, then read them in order.

The command checks every file before it stores anything: its format, the schema, the
systems it is rated in and the consistency of its sections. That is much of the work of
rating a file and it does not depend on the database, so it runs in a pool of processes
(one per core), which also lay the sections out as columns (batch/laid.py): the office
rates them from those. The processes write each event so laid out to a temporary
folder, one file for each task of `CHUNK` files (creating a file costs more than writing
one, and much more while the office writes its database), and the first pass keeps only
what the rating order and the warnings need: a year of laid-out events would take
hundreds of megabytes. The second pass takes each event from its file just before it is
rated, with the text of the event file that was checked, for the office to store.

Files given in rating order (a year's files named by date, say) need not wait for the
first pass to end: `InOrder` hands their events to the office as they are checked, and
the office rates them in one transaction that it does not commit until every file has
passed. A file that fails rolls all of it back, so nothing is stored, as before; a file
that comes before one already rated rolls it back too, and the command then rates in
the order the whole first pass gives.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Self

from ..core.model import Event, System
from ..core.pipeline import section_systems
from ..core.rules import NoRuleSet, rules_for
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError, check_section
from ..formats.errors import ParseError
from ..office.errors import AdmissionError
from .warnings import Lacking, lacking_games

# The office's storage (SQLAlchemy, Numba) and the process pool are imported when files
# are read: `uscf --help` needs neither.
if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

    from ..office.store import SectionKey
    from ..office.submission import Submission

#: below this many files the processes cost more to start than they save
POOL_FROM = 16
#: files a worker checks as one task
CHUNK = 8


@dataclass(frozen=True)
class FileOptions:
    """How the files of one command are read (its options ``--from``, ``--date``,
    ``--systems`` and ``--assign-ids``)."""

    fmt: str | None = None  #: the format, if the content and extension do not tell it
    event_date: date | None = None  #: the date of files that give none
    systems: tuple[System, ...] | None = None  #: the systems of sections that name none
    assign_ids: bool = False  #: give players without a member id one (admission.py)


@dataclass(frozen=True)
class Kept:
    """Where a laid-out event waits: ``size`` bytes from ``start`` in the file ``path``."""

    path: Path
    start: int
    size: int


@dataclass(frozen=True)
class Checked:
    """A file that passed every check; its event, laid out, waits in ``kept``."""

    path: Path
    key: SectionKey  #: its first section in rating order
    games: int  #: rated games, for progress
    lacking: Lacking  #: players whose N the file does not give
    notes: tuple[str, ...]  #: warnings and the ids given, to show the user
    #: the pickled event laid out, without its model, with the event JSON text the
    #: office stores: the file's own text if it is event JSON, the text that was checked
    kept: Kept


def read_checked(path: Path, options: FileOptions = FileOptions()
                 ) -> tuple[Event, str | None, tuple[str, ...]]:
    """One file read and checked as the office will rate it; for event JSON read as it
    is, the text it was read from; and what to tell the user (warnings, ids given)."""
    from ..formats.detect import read_any, sniff
    from ..formats.event_json import parse_event, read_event
    from ..office.admission import check_event, with_assigned_ids

    text = None
    data = None if path.is_dir() else path.read_bytes()  # read once: sniffed and parsed
    plain = options.event_date is None and options.systems is None
    if plain and (options.fmt or sniff(path, data).name) == "json":
        assert data is not None
        try:
            text = data.decode("utf-8")
            event = parse_event(text, str(path))
        except UnicodeDecodeError:
            text, event = None, read_event(path)  # which says where it is not UTF-8
    else:
        event = read_any(path, options.fmt, event_date=options.event_date,
                         systems=options.systems, data=data)
    notes: list[str] = []
    if options.assign_ids:
        event, given = with_assigned_ids(event)
        if given:
            text = None  # the event stored is the file's with the ids given
            notes.extend(given)
    for section in event.sections:
        section_systems(section, rules_for(section.start_date))
        check_section(section)
    verdict = check_event(event)
    if verdict.problems:
        raise AdmissionError(str(path), verdict.problems)
    notes.extend(verdict.warnings)
    return event, text, tuple(notes)


def named(path: Path, error: Exception) -> str:
    """The error's message with every line naming the file."""
    lines = str(error).splitlines() or [type(error).__name__]
    return "\n".join(line if line.startswith(str(path)) else f"{path}: {line}"
                     for line in lines)


def check_file(path: Path, out: BinaryIO, out_path: Path,
               options: FileOptions = FileOptions()) -> Checked | str:
    """The first pass over one file: what it holds, its event laid out and written with
    its text to ``out`` (the file ``out_path``, open), or the error naming the file (a
    message: exceptions with their own constructors do not always cross processes)."""
    from ..formats.event_json import event_to_json
    from ..office.submission import submission

    try:
        event, text, notes = read_checked(path, options)
    except (ParseError, SectionError, NoRuleSet, TimeControlError, AdmissionError) as error:
        return named(path, error)
    taken = submission(event, text if text is not None else json.dumps(event_to_json(event)))
    laid = pickle.dumps(taken.without_model(), pickle.HIGHEST_PROTOCOL)
    kept = Kept(out_path, out.tell(), len(laid))
    out.write(laid)
    return Checked(path, taken.first_key, taken.rated_games, lacking_games(event), notes, kept)


def check_files(paths: Sequence[Path], out_path: Path,
                options: FileOptions = FileOptions()) -> list[Checked | str]:
    """`check_file` of each of ``paths``, their events written to the one file
    ``out_path``."""
    with out_path.open("wb") as out:
        return [check_file(path, out, out_path, options) for path in paths]


def read_again(checked: Checked) -> Submission:
    """The second pass: the event as the first pass left it, with the text that was
    checked (a file changed since does not change what is stored)."""
    kept = checked.kept
    with kept.path.open("rb") as file:
        file.seek(kept.start)
        event: Submission = pickle.loads(file.read(kept.size))
    return event


class BadFile(Exception):
    """Files that failed the first pass; the message names each and says why."""


class OutOfOrder(Exception):
    """A file's event comes before one `InOrder` handed out already."""


class FirstPass:
    """The first pass over ``paths`` in the pool, in chunks of `CHUNK` files, its results
    taken in the order of the paths. `settled` says, without taking any result, whether
    every file has been checked and passed, in rating order."""

    def __init__(self, pool: ProcessPoolExecutor,
                 jobs: Sequence[tuple[list[Path], Path, FileOptions]]):
        self._chunks = [pool.submit(check_files, *job) for job in jobs]
        self._seen = 0  #: chunks `settled` has looked at
        self._last: SectionKey | None = None  #: the last key `settled` saw
        self._sound = True  #: every file `settled` saw passed, in rating order
        self._events: set[str] = set()  #: the event ids `settled` saw

    def results(self) -> Iterator[Checked | str]:
        for chunk in self._chunks:
            yield from chunk.result()

    def settled(self) -> bool:
        chunks = self._chunks
        while self._sound and self._seen < len(chunks) and chunks[self._seen].done():
            for item in chunks[self._seen].result():
                if isinstance(item, str) or (self._last is not None and item.key < self._last) \
                        or item.key[2] in self._events:  # a second file of one event
                    self._sound = False
                    break
                self._last = item.key
                self._events.add(item.key[2])
            self._seen += 1
        return self._sound and self._seen == len(chunks)


class InOrder:
    """The first pass's results, taken in the order of the files: their events handed out
    to rate as long as they come in rating order (see the module's docstring), or all of
    them checked (`rest`). ``checked`` gathers every file that passed, and
    ``on_checked`` is called for each."""

    def __init__(self, results: Iterator[Checked | str],
                 on_checked: Callable[[Checked], None]):
        self._results = results
        self._on_checked = on_checked
        self.checked: list[Checked] = []
        self.files_of: dict[str, Path] = {}  #: the file of each event id taken

    def events(self) -> Iterator[Submission]:
        """Each file's event as soon as it is checked. Raises `BadFile` for a file that
        failed and `OutOfOrder` for an event earlier than one handed out before it."""
        for result in self._results:
            item = self._take(result)
            if len(self.checked) > 1 and item.key < self.checked[-2].key:
                raise OutOfOrder(item.path)
            yield read_again(item)

    def rest(self) -> list[Checked]:
        """Every file, once the first pass has checked the ones not yet taken. Raises
        `BadFile` for a file that failed."""
        for result in self._results:
            self._take(result)
        return self.checked

    def _take(self, item: Checked | str) -> Checked:
        """The file checked, or `BadFile` with every failure of the first pass: the
        rest is checked first, so that the user sees all of them at once. A second file
        of an event already taken is a failure too."""
        failures = [item] if isinstance(item, str) else self._repeated(item)
        if failures:
            for rest in self._results:
                failures.extend([rest] if isinstance(rest, str) else self._repeated(rest))
            raise BadFile("\n".join(failures)
                          + f"\n{len(failures)} file(s) refused: nothing was stored")
        assert isinstance(item, Checked)
        self.checked.append(item)
        self._on_checked(item)
        return item

    def _repeated(self, item: Checked) -> list[str]:
        """A file of an event that another file of the batch holds already."""
        event_id = item.key[2]
        other = self.files_of.get(event_id)
        if other is None:
            self.files_of[event_id] = item.path
            return []
        return [f"{item.path}: event {event_id} is also in {other}: a batch holds each event "
                f"once (rate the other file on its own, with --replace to correct it)"]


class Reader:
    """The pool the first pass runs in (none for a few files), the folder the laid-out
    events wait in (removed at the end), and the second pass."""

    def __init__(self, files: int, workers: int | None = None,
                 beside_the_loop: bool = False, options: FileOptions = FileOptions()):
        """``workers``: the pool's processes; by default one a core, or, ``beside_the_loop``
        (the events are rated while they are checked), one a core but the loop's."""
        from concurrent.futures import ProcessPoolExecutor

        from ..office.prefetch import below_the_loop, readers_beside_the_loop

        cores = os.cpu_count() or 1
        self.workers = workers or (readers_beside_the_loop() if beside_the_loop else cores)
        self.pool = ProcessPoolExecutor(self.workers, initializer=below_the_loop) \
            if files >= POOL_FROM and cores > 1 else None
        self.folder = Path(tempfile.mkdtemp(prefix="uscf-rate-"))
        self.options = options

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def check(self, paths: Sequence[Path]) -> Iterator[Checked | str]:
        """The first pass, in the order of ``paths``."""
        jobs = self._jobs(paths)
        if self.pool is None:
            return (item for job in jobs for item in check_files(*job))
        return FirstPass(self.pool, jobs).results()

    def first_pass(self, paths: Sequence[Path]) -> FirstPass | None:
        """The first pass started in the pool, to take its results as they come; None
        without a pool (a few files, or one core), where nothing would run beside the
        rating."""
        return None if self.pool is None else FirstPass(self.pool, self._jobs(paths))

    def _jobs(self, paths: Sequence[Path]) -> list[tuple[list[Path], Path, FileOptions]]:
        """The tasks of the first pass: `CHUNK` files, the file for their events, and how
        to read them."""
        return [(list(paths[at:at + CHUNK]), self.folder / f"{at // CHUNK}.pickle",
                 self.options) for at in range(0, len(paths), CHUNK)]

    def events(self, checked: Sequence[Checked]) -> Iterator[Submission]:
        """The second pass: each file's event, in the order given, with its text (the
        pool is shut down first: the rating loop has the cores)."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None
        unread = Counter(item.kept.path for item in checked)
        for item in checked:
            yield read_again(item)
            unread[item.kept.path] -= 1
            if not unread[item.kept.path]:  # the disk it takes is freed as the run goes
                item.kept.path.unlink()
