"""Offices on SQLite (a temporary file) and on a real PostgreSQL server.

PostgreSQL is named by $USCF_TEST_POSTGRES (``.ci/run`` installs and starts one); without
it those tests skip, saying why, except under CI where a skip is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select, text
from tests.conftest import skip_or_fail

from uscf_ratings.core.model import Event
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation

BACKENDS = ["sqlite", "postgresql"]


def postgres_url() -> str:
    url = os.environ.get("USCF_TEST_POSTGRES", "")
    if not url:
        skip_or_fail("no PostgreSQL server: set USCF_TEST_POSTGRES=postgresql://user:pw@host/db")
    return url


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
                       r.games_after, r.state_after) for r in c.execute(select(schema.ratings)))


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
