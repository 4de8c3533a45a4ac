"""Fewer garbage collections while the office rates many sections.

CPython's cyclic collector runs after every 700 net allocations of container objects
and then walks the young objects, and now and then every object. A rating run
allocates states and results by the hundred thousand and keeps many of them (each
member's latest state), so the collector ran thousands of times over a heap that only
grew: about 30% of a year's re-rate (docs/performance.md). The office's objects are
frozen dataclasses and tuples that reference counting frees; the collector is needed
only for the rare cycle, so a long run asks for it a hundred times less often.

The rating loop of a re-rate (`run.RatingRun.rate_from`) goes further and turns the
collector off while it runs: even a hundred times less often, its young collections
walked the events read ahead and the rows of each part, about 0.6 s of a year's
re-rate, and the loop then made nothing the collector would have freed (the same peak
of memory with it off; docs/performance.md). What it leaves is collected once it ends.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: allocations before a young collection; young collections before a middle one; middle
#: collections before a full one (CPython's defaults: 700, 10, 10)
THRESHOLDS = (100_000, 50, 100)


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect less often inside the block (and in processes forked inside it); the
    thresholds before it are restored after."""
    before = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextmanager
def no_collections() -> Iterator[None]:
    """The collector off inside the block (and in processes forked inside it), and as
    it was after: a cycle made inside is freed by the first collection after it."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
