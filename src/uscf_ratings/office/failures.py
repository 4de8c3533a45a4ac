"""What a database's error means for a user: a full disk, a lost connection, a locked
or read-only file, said in one line with how to go on (`failure_of`); and the one
failure of the machine a run of many events meets besides: a process of its pool (the
files' checks, the stored events' readers) killed under it.

The office reaches the database through SQLAlchemy and, in the rating loop, through the
driver itself (`db.Driver`), so an error comes wrapped by SQLAlchemy (its ``orig`` is the
driver's) or as the driver raised it: sqlite3's, with its result code
(https://www.sqlite.org/rescode.html), or psycopg's, with PostgreSQL's SQLSTATE
(https://www.postgresql.org/docs/current/errcodes-appendix.html). A full disk while
writing the run's temporary files is an OSError (ENOSPC). Nothing here imports psycopg:
the CLI asks on every error, with or without PostgreSQL.
"""

from __future__ import annotations

import errno
import sqlite3
from concurrent.futures.process import BrokenProcessPool

from .errors import RUN_AGAIN, DatabaseFailure, first_line


def failure_of(error: BaseException) -> DatabaseFailure | None:
    """``error`` as a `DatabaseFailure` saying what happened and how to go on; None for
    an error that is not the database's (or the disk's). An error raised while handling
    another (a rollback after a full disk, say) is explained by the first one along the
    chain that says what happened."""
    seen: BaseException | None = error
    while seen is not None:
        found = _failure(seen)
        if found is not None:
            return found
        seen = seen.__cause__ or (None if seen.__suppress_context__ else seen.__context__)
    return None


def _failure(error: BaseException) -> DatabaseFailure | None:
    cause = getattr(error, "orig", None) or error  # SQLAlchemy's wrapper, or the driver's
    detail = first_line(cause)
    if isinstance(cause, BrokenProcessPool):  # the machine's, not the files' nor a bug's
        # (Python's own message says only that a process of the pool ended)
        return DatabaseFailure("a process that checked or read the events ended without "
                               "an answer, stopped by the system (out of memory, or "
                               "killed)", f"check the machine's free memory, then {RUN_AGAIN}")
    if isinstance(cause, OSError) and cause.errno == errno.ENOSPC:
        where = f" ({cause.filename})" if cause.filename else ""
        return DatabaseFailure(f"the disk is full{where}: {detail}",
                               f"free some space, then {RUN_AGAIN}")
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int):
        return _sqlite_failure(code & 0xFF, detail)  # the primary code
    if type(cause).__module__.split(".")[0] == "psycopg":
        return _postgresql_failure(cause, detail, getattr(error, "connection_invalidated",
                                                          False))
    return None


def _sqlite_failure(code: int, detail: str) -> DatabaseFailure | None:
    if code == sqlite3.SQLITE_FULL:
        return DatabaseFailure(f"the disk is full: {detail}",
                               f"free some space, then {RUN_AGAIN}")
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return DatabaseFailure(f"the database file is locked by another program: {detail}",
                               f"end that program's write, then {RUN_AGAIN}")
    if code == sqlite3.SQLITE_READONLY:
        return DatabaseFailure(f"the database file cannot be written: {detail}",
                               f"give this user write access to it and its folder, then "
                               f"{RUN_AGAIN}")
    if code == sqlite3.SQLITE_CANTOPEN:  # no access to the file or its folder, a folder
        return DatabaseFailure(f"the database file cannot be opened: {detail}",
                               f"check that it is a database file and that this user may "
                               f"read and write it and its folder, then {RUN_AGAIN}")
    if code == sqlite3.SQLITE_IOERR:
        return DatabaseFailure(f"the disk failed to read or write: {detail}",
                               f"check the disk, then {RUN_AGAIN}")
    return None


#: how psycopg's message begins where no connection was ever made (the server refused it,
#: or its host name could not be resolved), as against one lost while in use
NEVER_CONNECTED = ("connection failed", "connection to server at", "failed to resolve host")


def _postgresql_failure(cause: BaseException, detail: str, invalidated: bool
                        ) -> DatabaseFailure | None:
    state = getattr(cause, "sqlstate", None) or ""
    if state == "53100":  # disk_full
        return DatabaseFailure(f"the server's disk is full: {detail}",
                               f"free some space on the server, then {RUN_AGAIN}")
    if detail.startswith(NEVER_CONNECTED):
        return DatabaseFailure(f"cannot connect to the server: {detail}",
                               f"check the URL and that the server runs, then {RUN_AGAIN}")
    # class 08: connection exceptions; 57P01-57P03: the server shut down or restarted;
    # no SQLSTATE at all: the connection broke before the server could say why
    lost = invalidated or state.startswith("08") or state in ("57P01", "57P02", "57P03") \
        or (not state and type(cause).__name__ in ("OperationalError", "InterfaceError"))
    if lost:
        return DatabaseFailure(f"the connection to the server was lost: {detail}",
                               f"check that the server runs, then {RUN_AGAIN}")
    return None

