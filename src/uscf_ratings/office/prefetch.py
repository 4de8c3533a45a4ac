"""Stored events read back for a long re-rate, in worker processes, ahead of the loop.

A re-rate of a year reads every stored event again: its JSON parsed into the model and
its sections laid out as columns (office/submission.py), a few milliseconds an event,
which does not depend on the database's states. The rating loop reads the stored texts
(one query for many events) and hands them to a pool, which gives the events back in
order while the loop rates the ones before: on two cores the reading is off the loop's.
Short re-rates read in the loop (`PREFETCH_FROM`): starting the pool costs more.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor

from ..formats.event_json import event_from_dict
from .db import Driver
from .submission import Submission, submission

#: a re-rate of at least this many sections reads its stored events in a pool
PREFETCH_FROM = 400
#: events handed to the pool and not yet taken back (a bound on the memory they hold)
AHEAD = 256
_CHUNK = 64  #: events read from the database by one query


def read_stored(event_id: str, text: str) -> tuple[Submission, str]:
    """One stored event (the text of its ``events.source``) as a submission without its
    model or source (the loop reads the event again if a section needs the model), and
    the pre_ratings mode it was rated with."""
    from .run import PRE_FROM_DATABASE

    source = json.loads(text)
    event = event_from_dict(source["input"], f"event {event_id}", checked=True)
    return (submission(event).without_model(),
            source.get("pre_ratings", PRE_FROM_DATABASE))


def prefetched(driver: Driver, event_ids: Sequence[str]) -> Iterator[tuple[Submission, str]]:
    """The stored events ``event_ids``, in that order, read in a pool of processes."""
    workers = max(1, (os.cpu_count() or 1))
    # spawn, not fork: the loop's process may hold threads (Numba's) a fork would copy
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(workers, mp_context=context) as pool:
        waiting: deque[Future[tuple[Submission, str]]] = deque()
        texts = _texts(driver, event_ids)
        for event_id, text in texts:
            waiting.append(pool.submit(read_stored, event_id, text))
            if len(waiting) >= AHEAD:
                yield waiting.popleft().result()
        while waiting:
            yield waiting.popleft().result()


def _texts(driver: Driver, event_ids: Sequence[str]) -> Iterator[tuple[str, str]]:
    for at in range(0, len(event_ids), _CHUNK):
        chunk = event_ids[at:at + _CHUNK]
        marks = ", ".join("?" * len(chunk))
        found = dict(driver.execute(f"SELECT id, source FROM events WHERE id IN ({marks})",
                                    chunk).fetchall())
        for event_id in chunk:
            yield event_id, found[event_id]
