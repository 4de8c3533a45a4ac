"""A full disk or a lost database connection during `uscf db rate` ends in one line that
says what happened, that the database holds whole events only, and how to go on; the
same command given again then finishes the job."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import create_engine, event, text
from tests.cli.test_db_interrupted import stored
from tests.conftest import write_events
from tests.office.conftest import fresh_postgres, postgres_url

from uscf_ratings.cli.main import cli
from uscf_ratings.office import office as office_module

EVENTS = 40
#: every file checked first, so that commits come every few events from the start (rating
#: while checking holds them until every file has passed: when, depends on the processes)
FIRST = 10  #: events rated before the run that fails


def uscf(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def paths(tmp_path: Path) -> list[str]:
    folder = tmp_path / "events"
    folder.mkdir()
    return [str(p) for p in write_events(folder, EVENTS, seed=13)]


def pages(path: Path) -> int:
    with sqlite3.connect(path) as c:
        return int(c.execute("PRAGMA page_count").fetchone()[0])


def one_line_error(result: Result) -> str:
    """The command's error: one line, no traceback."""
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    [line] = [x for x in result.output.splitlines() if x.startswith("Error: ")]
    assert "Traceback" not in result.output
    return line


def whole_run(tmp_path: Path, paths: list[str]) -> tuple[Any, int, int]:
    """The run without a failure: what it stores, and the database's pages after the
    first events and at the end."""
    url = f"sqlite:///{tmp_path / 'whole.db'}"
    uscf("db", "--db", url, "init")
    assert uscf("db", "--db", url, "rate", *paths[:FIRST]).exit_code == 0
    first = pages(tmp_path / "whole.db")
    assert uscf("db", "--db", url, "rate", "--check-first", "--commit-every", "150", *paths).exit_code == 0
    return stored(url), first, pages(tmp_path / "whole.db")


def test_a_full_disk_ends_in_one_line_and_the_run_given_again_finishes(
        tmp_path: Path, paths: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """SQLite's own limit on the pages of a file (``max_page_count``) fills the disk
    halfway through the run, as a full file system would: SQLITE_FULL."""
    whole, first, last = whole_run(tmp_path, paths)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    uscf("db", "--db", url, "init")
    assert uscf("db", "--db", url, "rate", *paths[:FIRST]).exit_code == 0
    assert pages(tmp_path / "office.db") == first
    made = office_module.make_engine

    def small_disk(url: str | None = None, wait: Any = None) -> Any:
        engine = made(url, wait)

        @event.listens_for(engine.pool, "connect")
        def limit(dbapi_connection: Any, _record: Any) -> None:
            dbapi_connection.execute(f"PRAGMA max_page_count={(first + last) // 2}")
        return engine

    monkeypatch.setattr(office_module, "make_engine", small_disk)
    error = one_line_error(uscf("db", "--db", url, "rate", "--check-first", "--commit-every", "150", *paths))
    assert error.startswith(f"Error: {url}: the disk is full: database or disk is full: ")
    assert "events rated and committed; the rest were rolled back or not begun; the " \
           "database holds whole events only; free some space, then run the same command " \
           "again (events stored already as given are skipped)" in error

    with sqlite3.connect(tmp_path / "office.db") as c:
        assert c.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    ratings, events = stored(url)
    kept = {e[0] for e in events}
    assert FIRST < len(kept) < EVENTS  # some of the run committed, whole, and not the rest
    assert ratings == [r for r in whole[0] if r[0] in kept]
    assert events == [e for e in whole[1] if e[0] in kept]

    monkeypatch.setattr(office_module, "make_engine", made)
    again = uscf("db", "--db", url, "rate", "--check-first", "--commit-every", "150", *paths)
    assert again.exit_code == 0, again.output
    assert again.output.count("unchanged ") == len(kept)
    assert stored(url) == whole


@pytest.fixture
def postgres() -> Iterator[str]:
    url = postgres_url()
    fresh_postgres(url)
    yield url


def test_a_lost_connection_ends_in_one_line_and_the_run_given_again_finishes(
        tmp_path: Path, paths: list[str], postgres: str, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """The server ends the writer's connection (``pg_terminate_backend``, as a restart
    of the server would) once the 20th event of the run is stored, before its
    transaction commits (its events are stored and rated a group at a time:
    `EventTransaction.rate_group`)."""
    whole, _, _ = whole_run(tmp_path, paths)
    uscf("db", "--db", postgres, "init")
    assert uscf("db", "--db", postgres, "rate", *paths[:FIRST]).exit_code == 0
    store_events = office_module._store_events
    events_stored = 0

    def cut_off(c: Any, events: Any, *args: Any, **kwargs: Any) -> None:
        nonlocal events_stored
        store_events(c, events, *args, **kwargs)
        before, events_stored = events_stored, events_stored + len(events)
        if before < 20 <= events_stored:  # in the transaction that holds it: pooled connections are pinged
            admin = create_engine(postgres.replace("postgresql://", "postgresql+psycopg://"))
            with admin.begin() as c:
                c.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = current_database() AND pid <> pg_backend_pid()"))
            admin.dispose()

    monkeypatch.setattr(office_module, "_store_events", cut_off)
    error = one_line_error(uscf("db", "--db", postgres, "rate", "--check-first", "--commit-every", "150",
                                *paths))
    assert events_stored >= 20  # the statement after the 20th event's store found it gone
    assert "the connection to the server was lost: " in error
    assert "the database holds whole events only; check that the server runs, then run " \
           "the same command again" in error

    ratings, events = stored(postgres)
    kept = {e[0] for e in events}
    assert FIRST <= len(kept) < EVENTS
    assert ratings == [r for r in whole[0] if r[0] in kept]

    monkeypatch.setattr(office_module, "_store_events", store_events)
    again = uscf("db", "--db", postgres, "rate", "--check-first", "--commit-every", "150", *paths)
    assert again.exit_code == 0, again.output
    assert stored(postgres) == whole
