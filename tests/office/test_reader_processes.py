"""The processes that read ahead of the rating loop run at a lower priority than it and
end with the command (office/prefetch.py: `start_reader`), in ``uscf db rate`` and in long
re-rates."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
from pathlib import Path

import pytest
from tests.conftest import write_events

from uscf_ratings.office.db import Driver
from uscf_ratings.office.file_checks import POOL_FROM, FileChecks, check_workers, checking_pool
from uscf_ratings.office.office import Office
from uscf_ratings.office.options import ReadOptions
from uscf_ratings.office.prefetch import (
    CHUNK,
    READERS_NICENESS,
    prefetched,
    read_stored,
    read_stored_pickled,
    reader_pool,
)
from uscf_ratings.office.spool import Spool
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation


def niceness() -> int:
    return os.nice(0)


@pytest.mark.skipif(not hasattr(os, "nice"), reason="this platform has no nice()")
def test_a_reader_runs_lower_priority() -> None:
    ours = os.nice(0)
    with reader_pool(1) as pool:
        assert pool.submit(niceness).result() == min(19, ours + READERS_NICENESS)
    assert os.nice(0) == ours  # the loop's own priority is untouched


@pytest.mark.skipif(not hasattr(os, "nice") or (os.cpu_count() or 1) < 2,
                    reason="the files are checked in a pool only with nice() and two cores")
def test_the_checks_of_uscf_db_rate_run_lower_priority() -> None:
    pool = checking_pool(POOL_FROM)
    assert pool is not None
    with pool:
        assert pool.submit(niceness).result() == min(19, os.nice(0) + READERS_NICENESS)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the files are checked in a pool only "
                    "with two cores")
def test_few_files_are_checked_in_this_process() -> None:
    assert checking_pool(POOL_FROM - 1) is None


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the files are checked in a pool only "
                    "with two cores")
def test_the_checks_take_a_process_a_core(tmp_path: Path) -> None:
    """Beside the rating loop too: it rates the files checked a group at a time, and
    takes less than a core (office/file_checks.py). The pool ends with the checks."""
    paths = write_events(tmp_path, 2 * POOL_FROM, seed=4)
    with Spool() as spool, FileChecks(paths, spool, ReadOptions()) as checks:
        assert checks.in_pool
        assert len(multiprocessing.active_children()) == check_workers() == os.cpu_count()
        assert all(not isinstance(r, str) for r in checks.results)
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("files", [POOL_FROM - 1, 2 * POOL_FROM])  # in this process; a pool
def test_ready_says_whether_the_next_check_can_be_taken_without_waiting(
        tmp_path: Path, files: int) -> None:
    """`FileChecks.ready`, which ends a group of files rated together: with every task
    of the pool done, each result but the last is followed by one ready; without a pool
    the checks run as their results are taken, and one is always ready."""
    paths = write_events(tmp_path, files, seed=4)
    with Spool() as spool, FileChecks(paths, spool, ReadOptions()) as checks:
        pooled = checks.in_pool
        for running in checks._running:
            running.result()  # every task done
        assert checks.ready()
        said = [checks.ready() for _ in checks.results]
    assert pooled == (files >= POOL_FROM and (os.cpu_count() or 1) >= 2)
    assert said == ([True] * (files - 1) + [not pooled])


def death_signal() -> int:
    """The signal this process gets when its parent ends (prctl PR_GET_PDEATHSIG)."""
    found = ctypes.c_int(0)
    ctypes.CDLL(None, use_errno=True).prctl(2, ctypes.byref(found))  # 2: PR_GET_PDEATHSIG
    return found.value


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_reader_ends_with_the_command() -> None:
    """The kernel sends a reader SIGTERM when the command ends, even by SIGKILL (the
    kill itself: tests/cli/test_db_interrupted.py)."""
    with reader_pool(1) as pool:
        assert pool.submit(death_signal).result() == signal.SIGTERM
    assert death_signal() == 0  # the command itself asked for nothing


def test_the_pool_gives_the_events_the_loop_would_read(tmp_path: Path) -> None:
    """The loop gets from the readers what reading the events itself gives, in the
    order asked, chunk by chunk."""
    office = Office(f"sqlite:///{tmp_path / 'office.db'}")
    office.init()
    events = synthetic_events(federation(60, 5), CHUNK + 5, 5, sizes=(4, 12))
    office.rate_many(events)
    wanted = [e.id for e in reversed(events)]  # not the order they were stored in
    with office.engine.connect() as c:
        texts = dict(c.exec_driver_sql("SELECT id, source FROM events").fetchall())
        chunks = list(prefetched(Driver(c), wanted))
    assert [len(chunk) for chunk in chunks] == [CHUNK, 5]
    got = [item for chunk in chunks for item in chunk]
    assert got == read_stored([(i, texts[i]) for i in wanted])
    assert [event.id for event, _ in got] == wanted
    assert all(s.lineup is not None for event, _ in got for s in event.sections)


def test_the_readers_send_bytes_the_loop_unpickles(tmp_path: Path) -> None:
    """A reader sends its chunk pickled as bytes, so that the pool's own thread, in the
    loop's process, unpickles nothing but one bytes object (office/prefetch.py says
    why); the bytes are the events `read_stored` reads."""
    office = Office(f"sqlite:///{tmp_path / 'office.db'}")
    office.init()
    events = synthetic_events(federation(30, 6), 3, 6, sizes=(4, 8))
    office.rate_many(events)
    with office.engine.connect() as c:
        texts = c.exec_driver_sql("SELECT id, source FROM events ORDER BY id").fetchall()
    chunk = [(i, text) for i, text in texts]
    with reader_pool(1) as pool:
        sent = pool.submit(read_stored_pickled, chunk).result()
    assert isinstance(sent, bytes)
    assert pickle.loads(sent) == read_stored(chunk)
