"""Offices on SQLite (a temporary file) and on a real PostgreSQL server.

PostgreSQL is named by $USCF_TEST_POSTGRES (``.ci/run`` installs and starts one); without
it those tests skip, saying why, except under CI where a skip is a failure. The suite runs
in several processes (pytest-xdist): each has a database of its own on that server,
named after the one given and the process (``uscf_ci_gw0``), made when first needed, since
each test empties the database it uses.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, make_url, select, text
from tests.conftest import skip_or_fail

from uscf_ratings.core.model import Event
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import STATE_COLUMNS
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation

BACKENDS = ["sqlite", "postgresql"]


def postgres_url() -> str:
    url = os.environ.get("USCF_TEST_POSTGRES", "")
    if not url:
        skip_or_fail("no PostgreSQL server: set USCF_TEST_POSTGRES=postgresql://user:pw@host/db")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return own_database(url, worker) if worker else url


@functools.cache
def own_database(url: str, worker: str) -> str:
    """The URL of this test process's own database on the server of ``url``, created if
    it is not there yet."""
    given = make_url(url)
    name = f"{given.database}_{worker}"
    engine = create_engine(given.set(drivername="postgresql+psycopg"),
                           isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as c:
            if c.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                         {"name": name}).first() is None:
                c.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return given.set(database=name).render_as_string(hide_password=False)


def fresh_postgres(url: str) -> None:
    """Empty the test database: drop and recreate its public schema."""
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE"))
        c.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def office_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'office.db'}"
    else:
        url = postgres_url()
        fresh_postgres(url)
        yield url


@pytest.fixture
def office(office_url: str) -> Iterator[Office]:
    o = Office(office_url)
    o.init()
    yield o
    o.engine.dispose()


def dump(office: Office) -> list[tuple[object, ...]]:
    with office.engine.connect() as c:
        return sorted((r.event_id, r.section, r.member_id, r.system, round(r.post, 9),
                       r.games_after,
                          tuple(r._mapping[n] for n in STATE_COLUMNS))
                         for r in c.execute(select(schema.ratings)))


def year(count: int = 14, seed: int = 5) -> list[Event]:
    """Synthetic events among few members, so that players meet again and again (the
    states carried from one event to the next matter)."""
    return synthetic_events(federation(120, seed), count, seed, sizes=(4, 30))


def in_date_order(folder: Path, events: list[Event]) -> list[tuple[object, ...]]:
    """The ratings of ``events`` rated in one batch (in date order) into a new office."""
    office = Office(f"sqlite:///{folder / 'order.db'}")
    office.init()
    office.rate_many(events)
    return dump(office)
