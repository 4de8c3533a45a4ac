"""Connections, migrations and the one-writer-at-a-time transaction.

A database is named by a URL: ``sqlite:///path/to/office.db`` (the default, a file with
no server) or ``postgresql://user@host/db`` for a shared office; ``USCF_DB`` gives the
default. Every change is one transaction that holds the office's write lock, so two
processes rating at once give the same result as one after the other: the second waits
for the first (`WriterWait`), however long it takes or up to a limit.
"""

from __future__ import annotations

import math
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Date,
    DateTime,
    Dialect,
    Engine,
    Float,
    Integer,
    String,
    create_engine,
    event,
    inspect,
    text,
)
from sqlalchemy.exc import DBAPIError
from sqlalchemy.types import TypeEngine

from .errors import DatabaseError as DatabaseError  # there: the CLI catches it without SQLAlchemy
from .errors import WriterBusy

if TYPE_CHECKING:
    from alembic.config import Config

DEFAULT_URL = "sqlite:///uscf-office.db"
WRITE_LOCK = 7_436_411  #: PostgreSQL advisory lock key of the office's writer


def database_url(url: str | None = None) -> str:
    """The URL given, else $USCF_DB, else a SQLite file in the current folder.
    ``postgresql://`` is read with psycopg 3."""
    url = url or os.environ.get("USCF_DB") or DEFAULT_URL
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


#: the schemes a database URL may have
SCHEMES = ("sqlite", "postgresql", "postgres", "postgresql+psycopg")
#: what follows ``sqlite://`` for a database in memory
_IN_MEMORY = ("", "/", "/:memory:")


def shown_url(url: str) -> str:
    """The URL without its password, to show in a message."""
    scheme, sep, rest = url.partition("://")
    if "@" in rest and ":" in rest.split("@", 1)[0]:
        user = rest.split("@", 1)[0].split(":", 1)[0]
        rest = f"{user}:***@{rest.split('@', 1)[1]}"
    return f"{scheme}{sep}{rest}"


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL; None for a database in memory or another kind."""
    scheme, _, rest = database_url(url).partition("://")
    if scheme != "sqlite" or rest in _IN_MEMORY or not rest.startswith("/"):
        return None
    return Path(rest[1:].split("?", 1)[0])


def check_url(url: str | None, must_exist: bool = False) -> None:
    """Refuse, with `DatabaseError`, a URL that names no database this program can open:
    a bare path, an unknown scheme, a SQLite file in a folder that does not exist, or,
    with ``must_exist`` (every command but ``uscf db init``), a SQLite file that does not
    exist (it would be created empty)."""
    given = url or os.environ.get("USCF_DB") or DEFAULT_URL
    scheme, sep, rest = given.partition("://")
    if not sep:
        raise DatabaseError(f"{given!r} is not a database URL: expected sqlite:///PATH (such "
                            f"as sqlite:///{given}) or postgresql://USER@HOST/NAME")
    if scheme not in SCHEMES:
        raise DatabaseError(f"{shown_url(given)}: unknown kind of database {scheme!r}: "
                            "expected sqlite:///PATH or postgresql://USER@HOST/NAME")
    path = sqlite_path(given)
    if path is None:
        if scheme == "sqlite" and rest not in _IN_MEMORY:
            raise DatabaseError(f"{given}: expected sqlite:///PATH (three slashes)")
        return
    if not path.parent.is_dir():
        raise DatabaseError(f"{given}: the folder {path.parent} does not exist")
    if must_exist and not path.exists():
        raise DatabaseError(f"{given}: there is no database at {path}: create one with "
                            "`uscf db init`")


@dataclass(frozen=True)
class WriterWait:
    """How a writer waits while another process holds the office's write lock: as long
    as it takes, or up to ``limit`` seconds (then `WriterBusy`, nothing written).
    ``waiting`` is told how long it has waited each time it tries the lock again, about
    every `POLL_S` seconds (the CLI says on stderr that it waits)."""

    limit: float | None = None
    waiting: Callable[[float], None] | None = None


#: how often a waiting writer tries the lock again, in seconds
POLL_S = 0.5


def one_try_s(limit: float | None) -> float:
    """How long one try waits for the lock, with ``limit`` seconds left to wait."""
    return POLL_S if limit is None else max(0.01, min(POLL_S, limit))
#: how long a statement of a writer that holds SQLite's lock waits for the file (a
#: reader's checkpoint, say), in milliseconds; the lock itself is waited for by `POLL_S`
BUSY_TIMEOUT_MS = 120_000


def make_engine(url: str | None = None, wait: WriterWait | None = None) -> Engine:
    """The engine of ``url``; its writers (`writing`) wait for one another as ``wait``
    says (default: as long as it takes, silently)."""
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
        _sqlite_setup(engine)
    else:
        try:  # READ COMMITTED whatever the server's default: migration 0011 says why
            engine = create_engine(url, pool_pre_ping=True, isolation_level="READ COMMITTED")
        except ImportError as error:  # the driver is an extra
            raise DatabaseError(f"PostgreSQL needs its driver ({error.name} is missing): "
                                "pip install 'uscf-ratings[postgres]'") from None
    # execution options of an engine reach every connection it makes, and `_begin`
    return engine.execution_options(**{_WAIT: wait or WriterWait()})


#: The execution option that marks a connection of `writing`, and the one of its wait.
_WRITER, _WAIT = "uscf_writer", "uscf_writer_wait"


class _Waiting:
    """One writer's wait for the lock: tells `WriterWait.waiting` and keeps the limit."""

    def __init__(self, wait: WriterWait, since: float):
        self.wait, self.since = wait, since  #: since: the first try, time.monotonic()

    def next_try(self) -> float:
        """How long to wait for the lock before trying again (after the first try
        failed), once `WriterWait.waiting` is told; raises `WriterBusy` once the limit
        has passed."""
        waited = time.monotonic() - self.since
        limit = self.wait.limit
        if limit is not None and waited >= limit:  # said before anything of waiting
            waits = (f"for the {limit:g} s this command was to wait" if limit else
                     "and this command was not to wait")
            raise WriterBusy(f"another process was writing to the database {waits}: nothing "
                             f"was changed; run it again later, or wait longer (--wait)")
        if self.wait.waiting is not None:
            self.wait.waiting(waited)
        return one_try_s(None if limit is None else limit - waited)


def _sqlite_setup(engine: Engine) -> None:
    """SQLite: foreign keys on, WAL journal, and BEGIN IMMEDIATE for a writer (a
    connection of `writing`), so that it takes the lock when its transaction starts, not
    at its first write. Readers begin deferred: in WAL mode they read the last commit
    while a writer works, and never wait for it (a long re-rate leaves the web app's
    pages and `uscf db player` free to read)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # 16 MB of page cache (the default is 2 MB): a year's results index by member
        # outgrows 2 MB, and each insert then reads its pages back; about a tenth of a
        # year's re-rate (docs/performance.md). 64 MB were no faster, and took 54 MB
        # more at the peak of a year's `uscf db rate`
        cursor.execute("PRAGMA cache_size=-16384")
        # The statement journal of a savepoint (one per event in `Office.rate_many`) in
        # memory: it holds the pages an event changes, a few MB, and as a temporary file
        # it cost a fifth of the rating loop's time (docs/performance.md)
        cursor.execute("PRAGMA temp_store=MEMORY")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        if not options.get(_WRITER, False):
            connection.exec_driver_sql("BEGIN")
            return
        # The lock is tried with a short busy timeout, again and again, rather than
        # waited for by SQLite's: a long one ends in "database is locked" however long
        # the other writer has left, and says nothing meanwhile.
        raw = connection.connection.dbapi_connection
        assert raw is not None
        wait: WriterWait = options.get(_WAIT) or WriterWait()
        waiting: _Waiting | None = None
        since = time.monotonic()
        # the first try does not wait, as PostgreSQL's (`_lock_postgresql`): a writer
        # that is to wait says so before it does
        raw.execute("PRAGMA busy_timeout=0")
        try:
            while True:
                try:
                    raw.execute("BEGIN IMMEDIATE")
                    break
                except sqlite3.OperationalError as error:
                    if error.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                        raise
                waiting = waiting or _Waiting(wait, since)
                raw.execute(f"PRAGMA busy_timeout={int(waiting.next_try() * 1000)}")
        finally:
            raw.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """One transaction holding the office's write lock: all of it commits, or none.
    Another writer holding it is waited for as the engine's `WriterWait` says."""
    with engine.connect().execution_options(**{_WRITER: True}) as connection, \
            connection.begin():
        if connection.dialect.name == "postgresql":
            _lock_postgresql(connection)
        yield connection


def _lock_postgresql(connection: Connection) -> None:
    """Take the office's advisory lock for this transaction, trying again every `POLL_S`
    while another writer holds it (a blocking wait could not say that it waits, nor stop
    at a limit)."""
    take = text("SELECT pg_try_advisory_xact_lock(:key)")
    waiting: _Waiting | None = None
    since = time.monotonic()
    while not connection.execute(take, {"key": WRITE_LOCK}).scalar():
        waiting = waiting or _Waiting(connection.get_execution_options().get(_WAIT)
                                      or WriterWait(), since)
        time.sleep(waiting.next_try())


class Driver:
    """The DBAPI connection under a SQLAlchemy connection, for the statements the rating
    loop runs for every event and section.

    SQLAlchemy spends some 50 µs on each statement it runs, even one given as text with
    ``exec_driver_sql``; the driver, 5. Statements are written with ``?`` marks for their
    parameters. Values go to the driver and come back as it has them: the callers turn
    dates into text for SQLite, and `rows` converts what it reads back."""

    def __init__(self, connection: Connection):
        if not connection.in_transaction():  # as SQLAlchemy's own first statement would
            connection.begin()
        raw = connection.connection.dbapi_connection
        assert raw is not None
        self.raw = raw
        self.dialect = connection.dialect
        self.sqlite = self.dialect.name == "sqlite"
        self._percent = self.dialect.paramstyle != "qmark"  # psycopg: %s
        self.cursor = raw.cursor()
        #: what the rating loop's bulk writes bind for NULL and for the booleans: on
        #: SQLite a NaN, which it stores as NULL, and 1 and 0, which it stores for True
        #: and False. sqlite3 binds an int or a float about seven times faster than None
        #: or a bool, whose adapters it looks for at each value, and a result row holds
        #: about nine NULLs and two booleans: about 1 s of a year's re-rate
        #: (docs/performance.md). PostgreSQL stores a NaN as itself: there, None.
        self.null: float | None = math.nan if self.sqlite and _nan_stored_as_null() else None
        self.true: bool | int = 1 if self.sqlite else True
        self.false: bool | int = 0 if self.sqlite else False

    def date(self, value: date | None) -> date | str | None:
        """A date or a time as SQLAlchemy's types store it: text in SQLite (a time always
        with its microseconds), itself for PostgreSQL."""
        if value is None or not self.sqlite:
            return value
        if isinstance(value, datetime):
            return value.isoformat(" ", "microseconds")
        return value.isoformat()

    def sql(self, statement: str) -> str:
        """``statement`` in the driver's paramstyle."""
        return statement.replace("?", "%s") if self._percent else statement

    def execute(self, statement: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement; returns the cursor, to fetch from."""
        self.cursor.execute(self.sql(statement), params)
        return self.cursor

    def executemany(self, statement: str, rows: Sequence[Sequence[Any]]) -> int:
        """Run one statement for each row; returns the rows they changed, summed (both
        drivers sum them)."""
        self.cursor.executemany(self.sql(statement), rows)
        return int(self.cursor.rowcount)

    def insert_many(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]
                    ) -> None:
        """INSERT ``rows`` (values of ``columns``, in that order) into ``table``: on
        PostgreSQL in one COPY, whose rows travel as one stream rather than a statement
        each, in the binary format where `copy_types` knows each column's type; on
        SQLite by executemany, which runs in the process."""
        if not rows:
            return
        if self.sqlite:
            self.cursor.executemany(
                f"INSERT INTO {table} ({', '.join(columns)}) "
                f"VALUES ({', '.join('?' * len(columns))})", rows)
            return
        types = copy_types(table, tuple(columns))
        binary = " (FORMAT BINARY)" if types is not None else ""
        with self.cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN{binary}"
                              ) as copy:
            if types is not None:
                copy.set_types(list(types))
            for row in rows:
                copy.write_row(row)

    def rows(self, statement: str, params: Sequence[Any],
             columns: Sequence[Column[Any]]) -> list[tuple[Any, ...]]:
        """The rows of a query of ``columns``, each value as SQLAlchemy would read it."""
        found = self.execute(statement, params).fetchall()
        convert = _readers(self.dialect, tuple(columns)) if self.sqlite else None
        if not convert:  # psycopg gives dates, booleans and floats as they are
            return [tuple(row) for row in found]
        return [tuple(value if f is None or value is None else f(value)
                      for f, value in zip(convert, row, strict=True)) for row in found]

    def reader(self, column: Column[Any]) -> Callable[[Any], Any] | None:
        """How SQLAlchemy converts what the driver gives for ``column`` (a date from
        SQLite's text); None where it takes it as it is."""
        readers = _readers(self.dialect, (column,)) if self.sqlite else None
        return readers[0] if readers else None

    def transaction_lost(self) -> bool:
        """Whether the database ended the transaction itself: SQLite rolls it all back on
        some errors (a full disk), after which a commit would commit nothing, silently."""
        return self.sqlite and not self.raw.in_transaction

    @contextmanager
    def savepoint(self, name: str) -> Iterator[None]:
        """What the block writes is undone if it raises an exception (the transaction
        goes on); a KeyboardInterrupt is left to roll the whole transaction back. Where
        the database has ended the transaction itself, the block's error is raised as
        it is (it says why), not that of the savepoint gone with it."""
        self.execute(f"SAVEPOINT {name}")
        try:
            yield
        except Exception:
            if not self.transaction_lost():
                self.execute(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        self.execute(f"RELEASE SAVEPOINT {name}")


#: the PostgreSQL type a binary COPY sends for each SQLAlchemy type of office/schema.py
#: (its psycopg name): Float is created as double precision, Integer as integer
_COPY_TYPES: tuple[tuple[type[TypeEngine[Any]], str], ...] = (
    (Boolean, "bool"), (Integer, "int4"), (Float, "float8"), (DateTime, "timestamp"),
    (Date, "date"), (String, "text"))


@lru_cache(maxsize=64)
def copy_types(table: str, columns: tuple[str, ...]) -> tuple[str, ...] | None:
    """The type of each of ``columns`` of the office's ``table`` as a binary COPY sends
    it (`Driver.insert_many`); None where one is not in `_COPY_TYPES` (the COPY is then
    in text, which the server parses). In binary, the server reads each value as it is
    (8 bytes for a float) and psycopg writes it in C: a COPY of the year's 518,052
    ratings rows alone took the command 0.3 s of CPU rather than 1.2 s, and a tenth less
    time in all (docs/performance.md, "The ninth session"). The schema check every
    command makes holds the database's types to these; a test compares them with
    PostgreSQL's catalogue."""
    from .schema import metadata

    found = []
    for name in columns:
        kind = metadata.tables[table].c[name].type
        if isinstance(kind, DateTime) and kind.timezone:
            return None
        sent = next((pg for sa, pg in _COPY_TYPES if isinstance(kind, sa)), None)
        if sent is None:
            return None
        found.append(sent)
    return tuple(found)


@lru_cache(maxsize=1)
def _nan_stored_as_null() -> bool:
    """Whether this process's SQLite stores a NaN bound to a statement as NULL (as it
    has for decades: SQLite has no NaN), checked once rather than assumed."""
    probe = sqlite3.connect(":memory:")
    try:
        return bool(probe.execute("SELECT ? IS NULL", (math.nan,)).fetchone()[0])
    finally:
        probe.close()


@lru_cache(maxsize=64)  # a few engines, a few queries each
def _readers(dialect: Dialect, columns: tuple[Column[Any], ...]
             ) -> tuple[Callable[[Any], Any] | None, ...] | None:
    """SQLAlchemy's own conversion of each column read from SQLite (which keeps dates as
    text and booleans as 0 and 1); None when no column needs one."""
    readers = tuple(c.type.dialect_impl(dialect).result_processor(dialect, None)
                    for c in columns)
    return readers if any(readers) else None


#: the schema revision this program reads and writes: the head of migrations/versions/
#: (a test holds it to Alembic's). Written here so that checking a database's schema,
#: which every ``uscf db`` command does, needs no import of Alembic: about 0.2 s of a
#: command that only reads the office (docs/performance.md).
SCHEMA_HEAD = "0011"


def _alembic_config(connection: Connection) -> Config:
    from alembic.config import Config

    config = Config()
    location = resources.files("uscf_ratings.office").joinpath("migrations")
    config.set_main_option("script_location", str(Path(str(location))))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine) -> str:
    """Apply every migration not yet applied (``uscf db init`` / ``uscf db upgrade``).
    Returns the schema revision now in force."""
    from alembic import command

    with writing(engine) as connection:
        command.upgrade(_alembic_config(connection), "head")
        return current_revision(connection) or ""


def current_revision(connection: Connection) -> str | None:
    """The revision in Alembic's version table, None where there is no table or no row
    (no schema yet); read as Alembic reads it, without importing Alembic (`SCHEMA_HEAD`).
    A database stamped with two heads at once (which the project's one line of
    migrations never makes) gives both, joined by a comma."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    found = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalars()
    return ",".join(sorted(found)) or None


def check_schema(connection: Connection) -> None:
    revision = current_revision(connection)
    if revision is None:
        raise DatabaseError("the database has no schema yet: run `uscf db init` first")
    if revision != SCHEMA_HEAD:
        raise DatabaseError(f"the database schema is at {revision}, this program needs "
                            f"{SCHEMA_HEAD}: run `uscf db upgrade`")


def check_schema_to_read(connection: Connection) -> None:
    """`check_schema` for a connection opened to read, before it has read anything (the
    web app, on every request). Alembic's own check first looks the version table up
    in the catalogue, about 1 ms, a tenth of a player page; here one SELECT of the
    version reads it, and only where that does not give the head revision (no table,
    another revision) does the full check run, for its message. A failed SELECT is
    rolled back first: PostgreSQL refuses anything else in a failed transaction."""
    try:
        revision = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    except DBAPIError:
        connection.rollback()
        revision = None
    if revision != SCHEMA_HEAD:
        check_schema(connection)
