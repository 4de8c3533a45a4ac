"""Connections, migrations and the one-writer-at-a-time transaction.

A database is named by a URL: ``sqlite:///path/to/office.db`` (the default, a file with
no server) or ``postgresql://user@host/db`` for a shared office; ``USCF_DB`` gives the
default. Every change is one transaction that holds the office's write lock, so two
processes rating at once give the same result as one after the other.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text

DEFAULT_URL = "sqlite:///uscf-office.db"
WRITE_LOCK = 7_436_411  #: PostgreSQL advisory lock key of the office's writer


class DatabaseError(RuntimeError):
    """The database is missing, not initialized, or not at the current schema."""


def database_url(url: str | None = None) -> str:
    """The URL given, else $USCF_DB, else a SQLite file in the current folder.
    ``postgresql://`` is read with psycopg 3."""
    url = url or os.environ.get("USCF_DB") or DEFAULT_URL
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str | None = None) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 120})
        _sqlite_setup(engine)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_setup(engine: Engine) -> None:
    """SQLite: foreign keys on, WAL journal, and BEGIN IMMEDIATE so that a writer takes
    the lock when its transaction starts, not at its first write."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=120000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


@contextmanager
def writing(engine: Engine) -> Iterator[Connection]:
    """One transaction holding the office's write lock: all of it commits, or none."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK})
        yield connection


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
