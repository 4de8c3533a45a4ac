"""Odd requests get a 4xx that says why (JSON under /api, a page elsewhere), never a 500.

Each case here gave a 500 before the limits of `uscf_ratings.web.limits` (a
RecursionError in the JSON parser, SQLite's "LIKE or GLOB pattern too complex", an
integer overflow in OFFSET, Python's 4,300-digit limit on int()).
"""

from __future__ import annotations

import html
import re

import html
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.conftest import SAMPLE_ID

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def lenient(office_url: str) -> Iterator[Any]:
    """A client that answers a server error with 500 (as a browser would see it) instead
    of raising it in the test."""
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    with TestClient(create_app(Settings(db_url=office_url)),
                    raise_server_exceptions=False) as test_client:
        yield test_client


DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"event":' * 5_000 + b"1" + b"}" * 5_000
JUST_TOO_DEEP = b"[" * 33 + b"]" * 33  # parses, but nests past the 32 levels allowed
LONG_NUMBER = b'{"sections": ' + b"9" * 100_000 + b"}"

API_BODIES = {"deeply nested list": (DEEP, "nested more than 32 levels"),
              "deeply nested object": (DEEP_OBJECT, "nested more than 32 levels"),
              "33 levels": (JUST_TOO_DEEP, "nested more than 32 levels"),
              # column 14: after '{"sections": ' (13 characters)
              "a 100,000-digit number": (LONG_NUMBER, "line 1 column 14: a number of 100,000 "
                                                      "characters; at most 100 are read")}


@pytest.mark.parametrize("name", list(API_BODIES))
def test_odd_json_bodies_are_400_with_a_message(lenient: Any, token: str, name: str) -> None:
    body, message = API_BODIES[name]
    for method, path in (("POST", "/api/rate"), ("POST", "/api/events"),
                         ("PUT", f"/api/events/{SAMPLE_ID}")):
        answer = lenient.request(method, path, content=body,
                                 headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 400, (method, path, answer.text[:200])
        assert message in answer.json()["detail"]


def test_a_deeply_nested_pasted_event_is_a_400_page(lenient: Any) -> None:
    answer = lenient.post("/estimate/section", data={"event_json": DEEP.decode()})
    assert answer.status_code == 400
    assert answer.headers["content-type"].startswith("text/html")
    assert "nested more than 32 levels" in answer.text


QUERIES = [
    ("/api/members?q=" + "a" * 50_000, "query.q"),
    ("/api/members?q=" + "%" * 50_000, "query.q"),
    ("/api/members?offset=" + "9" * 30, "query.offset"),
    ("/api/members?offset=1000000001", "query.offset"),
    ("/members?q=" + "a" * 50_000, "query.q"),
    ("/members?page=" + "9" * 30, "query.page"),
    ("/events?page=" + "9" * 30, "query.page"),
    ("/api/list?as_of=2025-02-30", "query.as_of"),
    ("/list.csv?as_of=2025-01-01&system=X", "query.system"),
]


@pytest.mark.parametrize("path,where", QUERIES, ids=[p[:40] for p, _ in QUERIES])
def test_odd_queries_are_422_with_a_message(lenient: Any, path: str, where: str) -> None:
    answer = lenient.get(path)
    assert answer.status_code == 422, answer.text[:200]
    if path.startswith("/api"):
        assert answer.json()["issues"][0]["where"] == where
    else:  # a page says it in words: the parameter named, no "query." or pydantic's terms
        assert answer.headers["content-type"].startswith("text/html")
        text = " ".join(re.sub(r"<[^>]+>", " ", html.unescape(answer.text)).split())
        assert f"{where.split('.')[1]} should be" in text and where not in text
        assert "Input should be" not in text


def test_a_search_of_100_characters_is_still_answered(client: Any) -> None:
    answer = client.get("/api/members", params={"q": "Quinn".ljust(100, "x")})
    assert answer.status_code == 200
    assert answer.json() == {"total": 0, "members": []}
    assert client.get("/api/members", params={"q": "Quinn Secret"}).json()["total"] == 1


def test_the_estimator_page_shows_an_event_up_to_its_players_cap(
        lenient: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The estimator's page holds every player's row and explanation, so an upload of more
    players than `MAX_PAGE_PLAYERS` is refused (422, saying what to use instead) before it
    is rated: here the cap is lowered to the sample event's own count (its two
    sections have 14 players, counted in examples/sample-event.json) and one below it."""
    from uscf_ratings.web.routes import estimator

    pasted = {"event_json": (REPO / "examples" / "sample-event.json").read_text()}
    monkeypatch.setattr(estimator, "MAX_PAGE_PLAYERS", 14)
    assert lenient.post("/estimate/section", data=pasted).status_code == 200
    monkeypatch.setattr(estimator, "MAX_PAGE_PLAYERS", 13)
    answer = lenient.post("/estimate/section", data=pasted)
    assert answer.status_code == 422
    assert "the event has 14 players; this page shows at most 13: rate it with " \
        "`uscf rate` instead" in html.unescape(answer.text)
