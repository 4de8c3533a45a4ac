"""The processes that read ahead of the rating loop run at a lower priority than it
(office/prefetch.py: `below_the_loop`), in ``uscf db rate`` and in long re-rates."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import pytest

from uscf_ratings.cli.reading import POOL_FROM, Reader
from uscf_ratings.office.prefetch import READERS_NICENESS, below_the_loop


def niceness() -> int:
    return os.nice(0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="this platform has no nice()")
def test_a_reader_runs_below_the_loop() -> None:
    ours = os.nice(0)
    with ProcessPoolExecutor(1, initializer=below_the_loop) as pool:
        assert pool.submit(niceness).result() == min(19, ours + READERS_NICENESS)
    assert os.nice(0) == ours  # the loop's own priority is untouched


@pytest.mark.skipif(not hasattr(os, "nice") or (os.cpu_count() or 1) < 2,
                    reason="the first pass runs in a pool only with nice() and two cores")
def test_the_first_pass_of_uscf_db_rate_runs_below_the_loop() -> None:
    with Reader(POOL_FROM) as reader:
        assert reader.pool is not None
        assert reader.pool.submit(niceness).result() == min(19, os.nice(0) + READERS_NICENESS)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the first pass runs in a pool only "
                    "with two cores")
@pytest.mark.parametrize("beside_the_loop", [True, False])
def test_the_first_pass_leaves_the_loop_a_core_when_it_runs_beside_it(
        beside_the_loop: bool) -> None:
    """Rating while checking, the first pass takes a process a core but the loop's;
    checking first, a process a core."""
    cores = os.cpu_count() or 1
    with Reader(POOL_FROM, beside_the_loop=beside_the_loop) as reader:
        assert reader.pool is not None
        assert reader.workers == (max(1, cores - 1) if beside_the_loop else cores)
        assert reader.pool.submit(os.getpid).result() != os.getpid()
