"""Stored events read back for a long re-rate, in worker processes, ahead of the loop.

A re-rate of a year reads every stored event again: its JSON parsed into the model and
its sections' lineups made (office/submission.py), a few milliseconds an event,
which does not depend on the database's states. The rating loop reads the stored texts
(one query for many events) and hands them to a pool, which gives the events back in
order while the loop rates the ones before: on two cores the reading is off the loop's.
Short re-rates read in the loop (`PREFETCH_FROM`): starting the pool costs more.

The readers send their events pickled once more, as bytes, and the loop unpickles them
when it takes them (`read_stored_pickled`). A pool's results are otherwise unpickled by
a thread of the pool in the loop's process, as they arrive; that thread held the GIL
for a whole chunk's unpickling each time the loop let it go (at every step of SQLite),
and the loop, waiting to take it back, slept about 4 s of a year's late batch
(measured from the loop thread's scheduler statistics: its time on a CPU was about the
same either way). Unpickling in the loop costs it about 0.1 ms an event
(`Rating.__reduce__` keeps that low); docs/performance.md has the figures.
"""

from __future__ import annotations

import json
import os
import pickle
import signal
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from .db import Driver
from .defaults import PreRatings
from .processes import end_with_parent
from .submission import Submission, event_of_source, submission

#: a re-rate of at least this many sections reads its stored events in a pool
PREFETCH_FROM = 400
#: events read by one query, and handed to a worker as one task (a task per event
#: cost the loop more in waking the pool than the reading it saved)
CHUNK = 32
#: tasks handed to the pool and not yet taken back (a bound on the memory they hold):
#: more events than a part of the loop holds (run.PART sections, about 600 events of a
#: year), so that the readers read on while the loop rates and writes a part (with 8,
#: they stopped then, and the loop waited for them at the next part)
AHEAD = 32
#: how much less CPU priority the readers take than the rating loop (``nice``)
READERS_NICENESS = 10


def start_reader(parent: int) -> None:
    """A reader process (of this module's pool or of office/file_checks.py's) ends with
    the command, ``parent``, however it ends (office/processes.py), and runs at a lower
    priority than the rating loop it reads for. The loop is the run's critical path and
    the readers are ahead of it: on two cores, two readers and the loop took turns on
    them, and the loop finished later (about a tenth of ``uscf db rate`` of a year,
    docs/performance.md). Where ``nice`` is missing, the priority stays.

    SIGTERM, which the command takes as Ctrl-C to stop in order
    (`interrupts.terminated_as_interrupted`, inherited by a fork), ends a reader at once,
    as it would by default: the reader has nothing to put in order, and the signal is
    how the kernel ends it when the command ends."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    end_with_parent(parent)
    if hasattr(os, "nice"):
        os.nice(READERS_NICENESS)


def reader_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` reader processes (`start_reader`)."""
    return ProcessPoolExecutor(workers, initializer=start_reader, initargs=(os.getpid(),))


def read_stored(texts: list[tuple[str, str]]) -> list[tuple[Submission, PreRatings]]:
    """Stored events (each id with the text of its ``events.source``) as submissions
    without their model or source (the loop reads an event again if a section needs its
    model), each with the pre_ratings mode it was rated with."""
    out = []
    for event_id, text in texts:
        event, pre_ratings = event_of_source(event_id, json.loads(text))
        out.append((submission(event).without_model(), pre_ratings))
    return out


def read_stored_pickled(texts: list[tuple[str, str]]) -> bytes:
    """`read_stored`, pickled by the reader: the loop unpickles the bytes itself when it
    takes the events (the module's docstring says why)."""
    return pickle.dumps(read_stored(texts), pickle.HIGHEST_PROTOCOL)


def prefetched(driver: Driver, event_ids: Sequence[str]
               ) -> Iterator[list[tuple[Submission, PreRatings]]]:
    """The stored events ``event_ids``, in that order, read in a pool of processes, in
    lists of `CHUNK`."""
    # The platform's way to start processes, as the checks of `office.ingest`
    # (office/file_checks.py): on Linux a fork, which does not run the caller's main
    # module again. The workers only parse and make lineups (Python): they never start
    # Numba's threads, nor touch the database connection the fork copies.
    with reader_pool(os.cpu_count() or 1) as pool:
        waiting: deque[Future[bytes]] = deque()
        for chunk in _texts(driver, event_ids):
            waiting.append(pool.submit(read_stored_pickled, chunk))
            if len(waiting) >= AHEAD:
                yield _taken(waiting.popleft())
        while waiting:
            yield _taken(waiting.popleft())


def _taken(read: Future[bytes]) -> list[tuple[Submission, PreRatings]]:
    """A reader's events, unpickled here, in the loop's thread."""
    events: list[tuple[Submission, PreRatings]] = pickle.loads(read.result())
    return events


def _texts(driver: Driver, event_ids: Sequence[str]) -> Iterator[list[tuple[str, str]]]:
    for at in range(0, len(event_ids), CHUNK):
        chunk = event_ids[at:at + CHUNK]
        marks = ", ".join("?" * len(chunk))
        found = dict(driver.execute(f"SELECT id, source FROM events WHERE id IN ({marks})",
                                    chunk).fetchall())
        yield [(event_id, found[event_id]) for event_id in chunk]
