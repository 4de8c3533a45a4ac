"""Many event files stored and rated at once (``uscf db rate FILES...``), from Python.

`ingest` checks every file before it stores anything: nothing is stored if one fails,
and every file that fails is named. It checks them in a pool of processes
(office/file_checks.py), which lay each event out and write it to the spool
(office/spool.py); then it rates the events in rating order, whole events to a
transaction, committing once the events since the last commit hold
``commit_every`` games.

Files given in rating order (a year's files named by date, say) need not wait for
every check to end: their events are rated as they are checked, in one transaction that
commits nothing until every file has been checked and passed. A file that fails rolls
it all back, so nothing is stored; a file whose event comes before one already rated
rolls it back too, and the events are then rated in rating order once every file is
checked, as ``check_first`` always does.
While the pool checks, this process loads the rating loop's compiled kernels
(`run.load_kernels`), which the loop would otherwise load at its first section.

`ingest` yields what a user is to be told, as it happens (`Report`): the checking
begins (`CheckingFiles`), a file passed (`FileChecked`, with its warnings), the rating in
rating order begins (`RatingInOrder`), a transaction committed (`Committed`, with its
events), and the count at the end (`Ingested`). Files refused raise `FilesRefused`, an
event that fails while rated `EventFailed`, both naming the files; an interruption
(Ctrl-C) rolls back the events since the last commit. Iterate to the end, or close
the iterator (`contextlib.closing`): it holds the open transaction, the processes and
the spool until then.

docs/office.md shows it at work.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.rules import NoRuleSet
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError
from ..formats.errors import ParseError
from . import interrupts
from .checked_file import CheckedFile, Lacking, named
from .collector import fewer_collections
from .db import check_schema
from .errors import DIFFERENT_EVENT_OPTION, DuplicateEvent, OfficeError
from .file_checks import FileChecks
from .office import EventRated, EventTransaction, GroupFailed, Office, stored_elsewhere
from .options import IngestOptions, RateOptions
from .run import load_kernels
from .spool import Spool, read_event
from .submission import Submission

__all__ = ["CheckingFiles", "Committed", "EventFailed", "FileChecked", "FilesRefused",
           "IngestError", "IngestOptions", "Ingested", "RatingInOrder", "Report", "ingest"]

#: the errors of an event that fails while rated, which `EventFailed` names by file; the
#: database's own (`DatabaseError`: no schema, another writer too long, a full disk) are
#: no file's, and are raised as they are
RATING_FAILURES = (ParseError, SectionError, NoRuleSet, TimeControlError, OfficeError)
#: events rated by one call of the engine, at most (`EventTransaction.rate_group`: a
#: group's layout and results are held until written)
GROUP_EVENTS = 64


# --- What ingest reports --------------------------------------------------------------


@dataclass(frozen=True)
class CheckingFiles:
    """The files are being checked. With ``rating``, the events of files that come in
    rating order are rated meanwhile, and nothing commits until every file has passed.
    ``checked`` files were checked before (a run that rated while checking, and found a
    file out of order, goes on checking the rest)."""

    files: int
    checked: int
    rating: bool


@dataclass(frozen=True)
class FileChecked:
    """A file passed its checks."""

    path: Path
    notes: tuple[str, ...]  #: its warnings and the ids given (``assign_ids``)
    lacking: Lacking  #: players whose N the file does not give (assumed established)
    games: int  #: its rated games


@dataclass(frozen=True)
class RatingInOrder:
    """Every file passed: its ``events`` (``games`` games) are rated in rating order."""

    events: int
    games: int


@dataclass(frozen=True)
class Committed:
    """A transaction committed: its ``events``, rated in that order, are stored."""

    events: tuple[EventRated, ...]


@dataclass(frozen=True)
class Ingested:
    """The end: ``events`` events of ``games`` games stored and rated, with ``ratings``
    player-systems rated (later sections of other events rated again included),
    ``unchanged`` events found stored already as given and left as they were (a run
    given again after an interruption), and ``rerated`` sections of events stored
    before rated again (those after events of the run dated among them)."""

    events: int
    games: int
    ratings: int
    unchanged: int = 0
    rerated: int = 0


Report = CheckingFiles | FileChecked | RatingInOrder | Committed | Ingested


class IngestError(OfficeError):
    """What stopped `ingest`, naming the files."""


class FilesRefused(IngestError):
    """Files that failed their checks, or hold an event another file holds too, or one
    stored under another id (office/fingerprint.py): the message names each and says
    why. Nothing was stored."""

    def __init__(self, problems: Sequence[str]):
        self.problems = tuple(dict.fromkeys(problems))  # a file given twice, named once
        super().__init__("\n".join(self.problems)
                         + f"\n{len(self.problems)} file(s) refused: nothing was stored")


class EventFailed(IngestError):
    """The event of ``path`` failed while it was rated (already rated, say); the events
    reported as committed before it are stored. Its cause is the office's error."""

    def __init__(self, path: Path, error: Exception):
        self.path = path
        super().__init__(named(path, error))


# --- The run --------------------------------------------------------------------------


def ingest(office: Office, paths: Sequence[Path], options: IngestOptions = IngestOptions()
           ) -> Generator[Report, None, None]:
    """Check the event files ``paths`` and store and rate their events in rating order,
    as the module's docstring says; yield what happens, as it happens."""
    paths = list(paths)
    with office.engine.connect() as c:  # before any file is checked, or asked about
        check_schema(c)
    # the checking processes are forked inside: they collect less often too
    with fewer_collections(), Spool() as spool, \
            FileChecks(paths, spool, options.reading) as checks:
        files = _Files(office, options.rating.different_event)
        if checks.in_pool and not options.check_first:
            yield CheckingFiles(len(paths), 0, rating=True)
            load_kernels()  # while other processes check the files
            rated_all = yield from _rate_while_checking(office, checks, files, options.rating)
            if rated_all:
                yield files.ingested()
                return
        yield CheckingFiles(len(paths), len(files.checked), rating=False)
        if checks.in_pool:
            load_kernels()  # while other processes check them (at most once a process)
        for result in checks.results:  # the rest, if files were rated while checking
            checked = files.take(result)
            if isinstance(checked, str):
                raise files.refused([checked], checks.results)
            yield _report_of(checked)
        copies = files.stored_copies(files.checked)
        if copies:
            raise files.refused(copies, iter(()))
        checks.stop_pool()  # the rating loop has the cores
        in_order = sorted(files.checked, key=lambda item: item.key)
        yield RatingInOrder(len(in_order), sum(item.games for item in in_order))
        yield from _rate_in_order(office, in_order, files, options.rating)
        yield files.ingested()


def _report_of(checked: CheckedFile) -> FileChecked:
    return FileChecked(checked.path, checked.notes, checked.lacking, checked.games)


def _rate_while_checking(office: Office, checks: FileChecks, files: _Files,
                         options: RateOptions) -> Generator[Report, None, bool]:
    """Rate each file's event as soon as it is checked, while they come in rating order;
    True once all are rated and committed. Nothing commits until every file has been
    checked and passed (`FileChecks.all_passed`), and none holds a report stored under
    another id (`_Files.none_stored`). A file that fails rolls everything back, and is
    refused with the rest; a file whose event comes before one already rated rolls
    everything back too, and returns False: rate in rating order instead."""
    with EventTransaction(office, options) as transaction:
        group: list[CheckedFile] = []
        for result in checks.results:
            checked = files.take(result)
            if isinstance(checked, str):
                transaction.rollback()
                raise files.refused([checked], checks.results)
            yield _report_of(checked)
            if files.out_of_order():
                transaction.rollback()
                return False
            group.append(checked)
            due = transaction.games + sum(item.games for item in group) >= options.commit_every
            if checks.ready() and len(group) < GROUP_EVENTS and not (
                    due and checks.all_passed()):  # a commit ends a group; none while held
                continue  # the next file is checked already: rated with this group
            yield from _rate_checked_group(transaction, checks, files, group)
            group = []
            if transaction.due(options.commit_every) and _may_commit(checks, files):
                yield from files.commit(transaction)
        yield from _rate_checked_group(transaction, checks, files, group)
        yield from files.commit(transaction)
    return True


def _may_commit(checks: FileChecks, files: _Files) -> bool:
    """Whether the events rated so far may be committed: every file has been checked and
    passed, and none holds a report stored under another id. The files not yet taken
    are asked about with the rest, at once, the first time every file has passed: a
    commit before such a file's turn would store events of a batch then refused."""
    return checks.all_passed() and files.none_stored(checks.passed())


def _rate_checked_group(transaction: EventTransaction, checks: FileChecks, files: _Files,
                        group: list[CheckedFile]) -> Iterator[Report]:
    """Rate a group of files checked while others are (`_rate_while_checking`): an event
    that fails rolls back the whole transaction while commits are held, and needs no
    savepoint of its own then (`EventTransaction.rate_checked`); once they may be
    (`_may_commit`), it is undone alone and the events before it commit."""
    if group:
        copies = files.stored_copies(group)
        if copies:
            transaction.rollback()
            raise files.refused(copies, checks.results)
        yield from _rate_group(transaction, files, group,
                               [read_event(item.spooled) for item in group],
                               held=not _may_commit(checks, files))


def _rate_group(transaction: EventTransaction, files: _Files, group: list[CheckedFile],
                events: list[Submission], held: bool = False) -> Iterator[Report]:
    """`EventTransaction.rate_group` of the files ``group`` (their ``events``). Where an
    event fails: ``held``, everything is rolled back; else the events before it commit.
    Then its error is raised, named by its file (`EventFailed`) where it is the file's."""
    try:
        transaction.rate_group(events, undo_alone=not held)
    except GroupFailed as failed:
        if held:
            transaction.rollback()
        else:  # it was undone alone: the events before it stay rated
            yield from files.commit(transaction)
        if isinstance(failed.error, RATING_FAILURES):
            raise EventFailed(group[failed.at].path, failed.error) from failed.error
        raise failed.error from None  # a bug, or the database's, as it is


def _rate_in_order(office: Office, in_order: list[CheckedFile], files: _Files,
                   options: RateOptions) -> Iterator[Report]:
    """Rate the events of ``in_order`` (every file checked, in rating order), read from
    the spool as they are rated, in groups that end where a commit is due
    (`EventTransaction.rate_group`: one call of the engine a group). An event that fails
    is undone alone: the events before it are committed, then its error is raised."""
    events = Spool.drain([item.spooled for item in in_order])
    with EventTransaction(office, options) as transaction:
        at = 0
        while at < len(in_order):
            group = _group(in_order, at, options.commit_every - transaction.games)
            yield from _rate_group(transaction, files, group, [next(events) for _ in group])
            at += len(group)
            if transaction.due(options.commit_every):
                yield from files.commit(transaction)
        yield from files.commit(transaction)


def _group(in_order: list[CheckedFile], at: int, games_to_commit: int) -> list[CheckedFile]:
    """The events from ``at`` on rated together: up to the one whose games make the
    commit due (``games_to_commit`` more), at most `GROUP_EVENTS`."""
    group: list[CheckedFile] = []
    for item in in_order[at:at + GROUP_EVENTS]:
        group.append(item)
        games_to_commit -= item.games
        if games_to_commit <= 0:
            break
    return group


class _Files:
    """The files checked so far, in the order they were given, and what was committed."""

    def __init__(self, office: Office | None = None, different_event: bool = False) -> None:
        self.office = office
        self.different_event = different_event  #: same content, other events: let be
        self.checked: list[CheckedFile] = []
        self.file_of: dict[str, Path] = {}  #: the file of each event id
        self.content_of: dict[str, Path] = {}  #: the file of each content (fingerprint)
        #: by event id, each file asked about (`stored_copies`): why it is refused as a
        #: report stored under another id, or None
        self.asked: dict[str, str | None] = {}
        self.all_asked: bool | None = None  #: `none_stored`'s answer, once asked
        self.committed = 0  #: events committed
        self.unchanged = 0  #: events stored already as given, left as they were
        self.games = 0  #: the rated games of the events committed
        self.ratings = 0  #: player-systems rated by them
        self.rerated = 0  #: sections of other events rated again for them

    def take(self, result: CheckedFile | str) -> CheckedFile | str:
        """A file's result: the file checked, or why it is refused (its check's
        message, or another file of the batch holds its event or its content). Whether
        a report is stored under another id is asked for many files at once
        (`stored_copies`)."""
        if isinstance(result, str):
            return result
        other = self.file_of.get(result.event_id)
        if other is not None:
            return (f"{result.path}: event {result.event_id} is also in {other}: a batch "
                    f"holds each event once (rate the other file on its own, with --replace "
                    f"to correct it)")
        other = None if self.different_event or not result.fingerprint \
            else self.content_of.get(result.fingerprint)
        if other is not None:
            return (f"{result.path}: event {result.event_id} holds the same games as "
                    f"{other} (the same dates, players and results, round by round): a "
                    f"report is rated once; if they are other events, give "
                    f"{DIFFERENT_EVENT_OPTION}")
        self.file_of[result.event_id] = result.path
        self.content_of[result.fingerprint] = result.path
        self.checked.append(result)
        return result

    def stored_copies(self, files: Sequence[CheckedFile]) -> list[str]:
        """Why each of ``files`` that holds a report stored under another id
        (office/fingerprint.py) is refused, in their order; none if the user said the
        files are other events. Asked at once for the files not asked about before (a
        query for each ten thousand), so that such a file is refused with the others,
        before anything is stored; the office asks again as it stores the event, in its
        transaction."""
        new = [item for item in files if item.event_id not in self.asked]
        if new:
            stored: dict[str, str] = {}
            if self.office is not None and not self.different_event:
                with self.office.engine.connect() as c:
                    stored = stored_elsewhere(c, [(item.event_id, item.fingerprint)
                                                  for item in new if item.fingerprint])
            for item in new:
                other = stored.get(item.event_id)
                self.asked[item.event_id] = None if other is None else \
                    named(item.path, DuplicateEvent(item.event_id, other))
        return [why for item in files if (why := self.asked[item.event_id]) is not None]

    def none_stored(self, files: Sequence[CheckedFile]) -> bool:
        """Whether none of ``files`` (every file of the batch) holds a report stored
        under another id; asked once (`stored_copies`), the answer kept."""
        if self.all_asked is None:
            self.all_asked = not self.stored_copies(files)
        return self.all_asked

    def out_of_order(self) -> bool:
        """Whether the last file checked comes before the one before it in rating
        order."""
        return len(self.checked) > 1 and self.checked[-1].key < self.checked[-2].key

    def refused(self, first: list[str], rest: Iterator[CheckedFile | str]) -> FilesRefused:
        """The files ``first`` names refused, with every other file refused among
        ``rest`` and among those taken before: each is checked first, so that the user
        sees all of them at once (those refused by their checks or as another file's
        event, then those that hold a report stored under another id)."""
        problems = list(first)
        for result in rest:
            taken = self.take(result)
            if isinstance(taken, str):
                problems.append(taken)
        problems += self.stored_copies(self.checked)  # named once (`FilesRefused`)
        return FilesRefused(problems)

    def commit(self, transaction: EventTransaction) -> Iterator[Committed]:
        """Commit ``transaction``; its report, if it held events. Ctrl-C is held from
        the commit until whoever iterates has taken the report (`interrupts.held`), so
        that what it says was committed is what the database holds; the events that
        wait are rated before, where Ctrl-C still stops them."""
        transaction.rate_waiting()
        with interrupts.held():
            events = tuple(transaction.commit())
            if events:
                unchanged = sum(1 for event in events if event.unchanged)
                self.unchanged += unchanged
                self.committed += len(events) - unchanged
                self.games += sum(event.games for event in events)
                self.ratings += sum(event.ratings for event in events)
                self.rerated += sum(event.rerated for event in events)
                yield Committed(events)

    def ingested(self) -> Ingested:
        return Ingested(self.committed, self.games, self.ratings, self.unchanged,
                        self.rerated)
