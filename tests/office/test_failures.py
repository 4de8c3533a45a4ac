"""A database's errors said in a user's words (office/failures.py), from real errors of
the drivers; the full disk and the lost connection: tests/cli/test_db_failures.py."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from uscf_ratings.office.failures import failure_of


def sqlite_error(path: Path, statement: str, **connect: object) -> sqlite3.Error:
    with pytest.raises(sqlite3.Error) as raised:
        sqlite3.connect(path, **connect).execute(statement)  # type: ignore[arg-type]
    return raised.value


def test_a_file_locked_by_another_program(tmp_path: Path) -> None:
    holder = sqlite3.connect(tmp_path / "x.db", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    error = sqlite_error(tmp_path / "x.db", "SELECT 1 FROM sqlite_master", timeout=0)
    failure = failure_of(error)
    assert failure is not None
    assert failure.what == "the database file is locked by another program: database is locked"
    holder.rollback()


def test_a_file_that_cannot_be_written(tmp_path: Path) -> None:
    sqlite3.connect(tmp_path / "x.db").execute("CREATE TABLE t (a)")
    read_only = sqlite3.connect(f"file:{tmp_path / 'x.db'}?mode=ro", uri=True)
    with pytest.raises(sqlite3.Error) as raised:
        read_only.execute("INSERT INTO t VALUES (1)")
    failure = failure_of(raised.value)
    assert failure is not None and failure.what.startswith("the database file cannot be written")


def test_a_file_that_cannot_be_opened(tmp_path: Path) -> None:
    """A folder where the database should be (as a file without access for this user:
    SQLITE_CANTOPEN); the message says what to check, and that nothing was changed,
    without the skipped events a run of many events adds to it."""
    (tmp_path / "folder.db").mkdir()
    failure = failure_of(sqlite_error(tmp_path / "folder.db", "SELECT 1"))
    assert failure is not None
    assert failure.what == "the database file cannot be opened: unable to open database file"
    assert str(failure) == ("the database file cannot be opened: unable to open database "
                            "file: nothing was changed; check that it is a database file and "
                            "that this user may read and write it and its folder, then run "
                            "the same command again")


def test_a_server_never_reached_is_not_a_connection_lost() -> None:
    """psycopg's errors where no connection was made: a host name that does not resolve,
    a server that refuses (the messages as psycopg 3 gives them)."""
    psycopg = pytest.importorskip("psycopg")
    for detail in ("failed to resolve host 'no-such-host.invalid': [Errno -2] Name or "
                   "service not known",
                   'connection failed: connection to server at "127.0.0.1", port 1 failed: '
                   "Connection refused"):
        failure = failure_of(psycopg.OperationalError(detail))
        assert failure is not None
        assert failure.what == f"cannot connect to the server: {detail}"
        assert failure.advice == ("check the URL and that the server runs, then run the "
                                  "same command again")


def test_a_full_disk_for_the_run_s_own_files() -> None:
    failure = failure_of(OSError(errno.ENOSPC, "No space left on device", "/tmp/spool-1"))
    assert failure is not None
    assert failure.what == ("the disk is full (/tmp/spool-1): [Errno 28] No space left on device: "
                            "'/tmp/spool-1'")
    assert failure.advice.startswith("free some space, then run the same command again")


def test_the_cause_along_the_chain_and_not_through_a_message_given_instead() -> None:
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError:
            raise RuntimeError("the rollback failed too")  # noqa: B904
    except RuntimeError as error:
        assert failure_of(error) is not None  # the full disk, found behind it
    try:
        try:
            raise OSError(errno.ENOSPC, "No space left on device")
        except OSError:
            raise ValueError("said otherwise") from None
    except ValueError as error:
        assert failure_of(error) is None  # the context was put aside on purpose


def test_other_errors_are_not_the_database_s() -> None:
    assert failure_of(ValueError("a bug")) is None
    assert failure_of(OSError(errno.ENOENT, "No such file")) is None
