"""Connections, migrations and the one-writer-at-a-time transaction.

A database is named by a URL: ``sqlite:///path/to/office.db`` (the default, a file with
no server) or ``postgresql://user@host/db`` for a shared office; ``USCF_DB`` gives the
default. Every change is one transaction that holds the office's write lock, so two
processes rating at once give the same result as one after the other.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Column, Connection, Dialect, Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError

from .errors import DatabaseError as DatabaseError  # there: the CLI catches it without SQLAlchemy

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


def make_engine(url: str | None = None) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 120})
        _sqlite_setup(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


#: The execution option that marks a connection of `writing`.
_WRITER = "uscf_writer"


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
        cursor.execute("PRAGMA busy_timeout=120000")
        # 64 MB of page cache (the default is 2 MB): a year's results index by member
        # outgrows 2 MB, and each insert then reads its pages back; about a tenth of a
        # year's re-rate (docs/performance.md)
        cursor.execute("PRAGMA cache_size=-65536")
        # The statement journal of a savepoint (one per event in `Office.rate_many`) in
        # memory: it holds the pages an event changes, a few MB, and as a temporary file
        # it cost a fifth of the rating loop's time (docs/performance.md)
        cursor.execute("PRAGMA temp_store=MEMORY")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        writer = connection.get_execution_options().get(_WRITER, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """One transaction holding the office's write lock: all of it commits, or none."""
    with engine.connect().execution_options(**{_WRITER: True}) as connection, \
            connection.begin():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK})
        yield connection


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
        self.dialect = connection.dialect
        self.sqlite = self.dialect.name == "sqlite"
        self._percent = self.dialect.paramstyle != "qmark"  # psycopg: %s
        self.cursor = raw.cursor()

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

    def executemany(self, statement: str, rows: Sequence[Sequence[Any]]) -> None:
        self.cursor.executemany(self.sql(statement), rows)

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

    @contextmanager
    def savepoint(self, name: str) -> Iterator[None]:
        """What the block writes is undone if it raises an exception (the transaction
        goes on); a KeyboardInterrupt is left to roll the whole transaction back."""
        self.execute(f"SAVEPOINT {name}")
        try:
            yield
        except Exception:
            self.execute(f"ROLLBACK TO SAVEPOINT {name}")
            raise
        self.execute(f"RELEASE SAVEPOINT {name}")


@lru_cache(maxsize=64)  # a few engines, a few queries each
def _readers(dialect: Dialect, columns: tuple[Column[Any], ...]
             ) -> tuple[Callable[[Any], Any] | None, ...] | None:
    """SQLAlchemy's own conversion of each column read from SQLite (which keeps dates as
    text and booleans as 0 and 1); None when no column needs one."""
    readers = tuple(c.type.dialect_impl(dialect).result_processor(dialect, None)
                    for c in columns)
    return readers if any(readers) else None


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    location = resources.files("uscf_ratings.office").joinpath("migrations")
    config.set_main_option("script_location", str(Path(str(location))))
    config.attributes["connection"] = connection
    return config


def upgrade(engine: Engine) -> str:
    """Apply every migration not yet applied (``uscf db init`` / ``uscf db upgrade``).
    Returns the schema revision now in force."""
    with writing(engine) as connection:
        command.upgrade(_alembic_config(connection), "head")
        return current_revision(connection) or ""


def current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


@cache
def head_revision() -> str:
    config = Config()
    location = resources.files("uscf_ratings.office").joinpath("migrations")
    config.set_main_option("script_location", str(Path(str(location))))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


def check_schema(connection: Connection) -> None:
    revision = current_revision(connection)
    if revision is None:
        raise DatabaseError("the database has no schema yet: run `uscf db init` first")
    if revision != head_revision():
        raise DatabaseError(f"the database schema is at {revision}, this program needs "
                            f"{head_revision()}: run `uscf db upgrade`")


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
    if revision != head_revision():
        check_schema(connection)
