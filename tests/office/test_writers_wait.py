"""Writers queue: a change waits while another process holds the office's write lock,
however long it takes (saying so), or up to a limit, and never dies of SQLite's busy
timeout (office/db.py: `WriterWait`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from tests.office.conftest import year

from uscf_ratings.office import db
from uscf_ratings.office.db import WriterWait, writing
from uscf_ratings.office.errors import WriterBusy
from uscf_ratings.office.office import Office

HOLD_S = 2.0  #: how long the first writer holds the lock


@contextmanager
def held(office: Office, seconds: float) -> Iterator[threading.Thread]:
    """Another writer (a thread, with its own connection) holding the write lock for
    ``seconds`` from the moment the block begins."""
    taken = threading.Event()

    def hold() -> None:
        with writing(office.engine):
            taken.set()
            time.sleep(seconds)

    thread = threading.Thread(target=hold)
    thread.start()
    assert taken.wait(10)
    try:
        yield thread
    finally:
        thread.join()


def test_a_writer_waits_longer_than_the_busy_timeout_and_says_so(
        office_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's busy timeout is made a quarter of the time the first writer holds the
    lock: before, the second writer died with "database is locked" once it passed."""
    monkeypatch.setattr(db, "BUSY_TIMEOUT_MS", int(HOLD_S * 1000 / 4))
    first = Office(office_url)
    first.init()
    told: list[float] = []
    second = Office(office_url, WriterWait(waiting=told.append))
    events = year(2)
    with held(first, HOLD_S):
        start = time.monotonic()
        [report] = second.rate_many(events[:1])
        waited = time.monotonic() - start
    assert report.verb == "rated"
    assert waited >= HOLD_S * 0.8  # it waited for the other writer to finish
    assert told and told == sorted(told) and told[-1] >= HOLD_S / 2  # and said so, as it went
    for office in (first, second):
        office.engine.dispose()


def test_a_writer_stops_at_its_limit_and_changes_nothing(office_url: str) -> None:
    first = Office(office_url)
    first.init()
    second = Office(office_url, WriterWait(limit=0.5))
    with held(first, HOLD_S):
        start = time.monotonic()
        with pytest.raises(WriterBusy, match="for the 0.5 s this command was to wait: "
                                              "nothing was changed"):
            second.rate_many(year(2)[:1])
        assert time.monotonic() - start < HOLD_S  # it did not wait for the end
    with first.engine.connect() as c:
        assert c.exec_driver_sql("SELECT count(*) FROM events").scalar() == 0
    for office in (first, second):
        office.engine.dispose()
