"""Many event files checked at once, in a pool of processes, their results taken in the
order of the files.

Checking a file (office/checked_file.py) does not need the database, so the files are
checked in a pool of processes, one a core, in tasks of `CHUNK` files whose events go to
one file of the spool (office/spool.py). The processes run at a lower priority than the
rating loop, which is the run's critical path, and end with the command however it ends
(office/prefetch.py: `start_reader`). They take a core each even while the loop rates
the files checked already: the loop rates them a group at a time
(`EventTransaction.rate_group`) and takes less than a core, and on two cores a year's
``uscf db rate`` took about a tenth less time with two checking processes than with one
(docs/performance.md). (Before the groups, when the loop rated an event a call, two
took a tenth longer than one. The loop checking files itself while it waits for the
pool was tried too: no faster on two cores, and 13 MB more, for the readers' modules.)
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Self

from .checked_file import CheckedFile, check_files
from .options import ReadOptions
from .prefetch import reader_pool
from .spool import Spool

if TYPE_CHECKING:
    from .store import SectionKey

#: below this many files the processes cost more to start than they save
POOL_FROM = 16
#: files a process checks as one task (their events go to one file of the spool)
CHUNK = 8

#: one task of the checks: its files, the spool file of their events, how to read them
Task = tuple[list[Path], Path, ReadOptions]


def check_workers() -> int:
    """How many processes check files: one a core."""
    return os.cpu_count() or 1


def checking_pool(files: int) -> ProcessPoolExecutor | None:
    """The pool ``files`` files are checked in, at a lower priority than the rating loop;
    None for fewer than `POOL_FROM` files or on one core."""
    if files < POOL_FROM or (os.cpu_count() or 1) < 2:
        return None
    return reader_pool(check_workers())


class FileChecks:
    """The checks of ``paths``, started at once in a pool (`checking_pool`) or run in
    this process as their results are taken. `results` gives each file's result in the
    order of ``paths``, as it comes: one iterator, which each loop over it takes up
    where the last left off. `all_passed` says, without waiting, whether every file has
    been checked and passed."""

    def __init__(self, paths: Sequence[Path], spool: Spool, options: ReadOptions):
        self._tasks: list[Task] = [(list(paths[at:at + CHUNK]), spool.file(at // CHUNK),
                                    options) for at in range(0, len(paths), CHUNK)]
        self._pool = checking_pool(len(paths))
        self._running: list[Future[list[CheckedFile | str]]] = [] if self._pool is None \
            else [self._pool.submit(check_files, *task) for task in self._tasks]
        self._seen = 0  #: tasks `all_passed` has looked at
        self._last: SectionKey | None = None  #: the last key `all_passed` saw
        self._events: set[str] = set()  #: the event ids `all_passed` saw
        self._contents: set[str] = set()  #: the fingerprints `all_passed` saw
        self._passed = True  #: every file `all_passed` saw passed, in rating order
        self._passed_files: list[CheckedFile] = []  #: and those files, in order
        self._at = -1  #: the task whose results `results` gives now
        self._left = 0  #: and how many of them are left to give
        self.results: Iterator[CheckedFile | str] = self._results()

    @property
    def in_pool(self) -> bool:
        """Whether the files are checked in a pool, beside this process."""
        return self._pool is not None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_pool(cancel=True)

    def stop_pool(self, cancel: bool = False) -> None:
        """End the pool (once every file is checked, the rating loop has the cores);
        ``cancel`` the tasks not begun."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=cancel)
        self._pool = None

    def _results(self) -> Iterator[CheckedFile | str]:
        if not self._running:
            for task in self._tasks:
                yield from check_files(*task)
            return
        for at, running in enumerate(self._running):
            results = running.result()
            self._at = at
            for taken, result in enumerate(results, 1):
                self._left = len(results) - taken
                yield result

    def ready(self) -> bool:
        """Whether the next result can be taken without waiting for the pool: the rest
        of a task's results, or the next task done (without a pool, always: the checks
        run here as their results are taken)."""
        if self._left or not self._running:
            return True
        after = self._at + 1
        return after < len(self._running) and self._running[after].done()

    def all_passed(self) -> bool:
        """Whether every file has been checked and passed, in rating order, one file an
        event (an event id, a content: office/fingerprint.py); it looks only at the
        tasks done, in order, and waits for none. False without a pool, where the checks
        run only as their results are taken."""
        running = self._running
        while self._passed and self._seen < len(running) and running[self._seen].done():
            task = running[self._seen]
            if task.exception() is not None:  # raised again by `results`
                self._passed = False
                break
            for item in task.result():
                if isinstance(item, str) or (self._last is not None and item.key < self._last) \
                        or item.event_id in self._events \
                        or item.fingerprint in self._contents:  # one event in two files
                    self._passed = False
                    break
                self._last = item.key
                self._events.add(item.event_id)
                self._contents.add(item.fingerprint)
                self._passed_files.append(item)
            self._seen += 1
        return self._passed and bool(running) and self._seen == len(running)

    def passed(self) -> list[CheckedFile]:
        """The files `all_passed` has seen pass, in order: every file, once it says so."""
        return self._passed_files
