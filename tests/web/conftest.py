"""The web app under test: its client, a temporary office, tokens.

The web stack is the ``web`` extra; without it these tests skip, saying why (under CI
they fail instead). The office is a temporary SQLite file holding the sample event and a
member whose birth date is known, so that the privacy tests have something to keep.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from uscf_ratings.formats.event_json import event_from_dict, read_event
from uscf_ratings.formats.member_records import MemberRecord
from uscf_ratings.office.office import Office
from tests.conftest import REPO, skip_or_fail

SAMPLE = REPO / "examples" / "sample-event.json"
SAMPLE_ID = "202608010001"
#: Birth dates the privacy tests look for: the sample's own, and one only the database has.
SECRET_MEMBER = MemberRecord(id="30000099", name="Quinn Secret", birth_date=date(2015, 4, 23),
                             state="OH")
MISSING = [m for m in ("fastapi", "uvicorn", "jinja2", "multipart", "httpx2")
           if importlib.util.find_spec(m) is None]


@pytest.fixture(autouse=True)
def web_stack() -> None:
    if MISSING:
        skip_or_fail(f"the web app needs {', '.join(MISSING)}: pip install -e '.[web,test]'")


def sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


def make_office(folder: Path) -> str:
    """A SQLite office with the sample event rated, and a minor whose birth date is known."""
    url = f"sqlite:///{folder / 'o.db'}"
    office = Office(url)
    office.init()
    office.import_members([SECRET_MEMBER])
    office.rate(read_event(SAMPLE))
    # The secret member plays a later event, so that her age-based rating is in the office.
    office.rate(event_from_dict({
        "event": {"id": "202609010001", "name": "Fall Quads", "start_date": "2026-09-01"},
        "sections": [{"number": 1, "time_control": "G/30;d5", "players": [
            {"pair": 1, "id": SECRET_MEMBER.id, "name": SECRET_MEMBER.name,
             "results": ["W2", "D3"]},
            {"pair": 2, "id": "30000011", "name": "Ivy Chang", "results": ["L1", "U"]},
            {"pair": 3, "id": "30000001", "name": "Ana Torres", "results": ["U", "D1"]}]}]}))
    office.engine.dispose()
    return url


@pytest.fixture
def office_url(tmp_path: Path) -> str:
    return make_office(tmp_path)


@pytest.fixture
def client(office_url: str) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    with TestClient(create_app(Settings(db_url=office_url))) as test_client:
        yield test_client


@pytest.fixture
def bare_client() -> Iterator[Any]:
    """The app without a database: the estimator alone."""
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    with TestClient(create_app(Settings())) as test_client:
        yield test_client


@pytest.fixture
def token(office_url: str) -> str:
    from uscf_ratings.office.tokens import create_token

    office = Office(office_url)
    try:
        return create_token(office.engine, "tests")
    finally:
        office.engine.dispose()
