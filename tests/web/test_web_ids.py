"""Every id the office accepts opens on every page and in the API, and every link to it
resolves: ids with "/" (as ``--assign-ids`` gives them: EVENT/SECTION/PAIR), "?", "#",
"%", spaces and letters beyond ASCII.

One office for the module; each example submits a new event through the API (dated a
day after the one before, so that nothing is re-rated), then opens it and its members
on every page and endpoint that takes an id, follows every link to an id on those
pages, and corrects the event through ``PUT``.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from collections.abc import Iterator, MutableMapping
from datetime import date, timedelta
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from tests.web.conftest import make_office

#: what an id may hold here: the characters a URL reserves or encodes, and letters
#: beyond ASCII (the office refuses nothing of these; see `office.admission`)
ALPHABET = "ab19/?#%&+ .~:;=@!$'()*,[]\\\"<>Łó中é"
IDS = st.one_of(
    st.text(ALPHABET, min_size=1, max_size=20).filter(lambda i: i.strip() == i),
    st.text(".", min_size=1, max_size=3))  # dots alone: encoded, or a client drops them
LINK = re.compile(r'href="(/(?:players|events)/[^"#]*)')
DAYS = itertools.count()
LETTERS = str.maketrans("0123456789abcdef", "ghijklmnopqrstuv")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    from fastapi.testclient import TestClient

    from uscf_ratings.office.office import Office
    from uscf_ratings.office.tokens import create_token
    from uscf_ratings.web import Settings, create_app

    url = make_office(Path(tmp_path_factory.mktemp("ids")))
    office = Office(url)
    token = create_token(office.engine, "ids")
    office.engine.dispose()
    with TestClient(OnceDecoded(create_app(Settings(db_url=url, page_size=500)))) as client:
        yield client, token


class OnceDecoded:
    """The app, given the path as a server gives it: the raw path percent-decoded once
    (uvicorn does so). Starlette's test client decodes it twice: "%2511" (the id "%11")
    would reach the app as "\x11"."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope = dict(scope, path=unquote(scope["raw_path"].decode("ascii")))
        await self.app(scope, receive, send)


def segment(text: str) -> str:
    from uscf_ratings.web.links import segment as encoded

    return encoded(text)


def document(event_id: str, members: list[str], day: date) -> dict[str, Any]:
    def name(member: str) -> str:  # one name per id, with no letter an id may hold
        return "Pl " + hashlib.sha256(member.encode()).hexdigest()[:8].translate(LETTERS)
    return {"event": {"id": event_id, "name": "Odd Ids Open", "start_date": day.isoformat()},
            "sections": [{"number": 1, "time_control": "G/30;d5", "players": [
                {"pair": 1, "id": members[0], "name": name(members[0]), "results": ["W2", "D3", "U"]},
                {"pair": 2, "id": members[1], "name": name(members[1]), "results": ["L1", "U", "W3"]},
                {"pair": 3, "id": members[2], "name": name(members[2]), "results": ["U", "D1", "L2"]}]}]}


def test_an_id_as_assign_ids_gives_it_opens(web: tuple[Any, str]) -> None:
    """The example the issue names: an id as ``--assign-ids`` gives it opens, and the
    encoded slash is not taken for two segments."""
    from uscf_ratings.office.admission import assigned_id

    client, token = web
    member = assigned_id("202701150001", 2, 14)
    assert member == "202701150001/2/14"  # EVENT/SECTION/PAIR
    body = document("202701150001", [member, "x/1", "x/2"], date(2026, 10, 1))
    assert client.post("/api/events", json=body,
                       headers={"Authorization": f"Bearer {token}"}).status_code == 201
    assert client.get("/players/202701150001%2F2%2F14").status_code == 200
    assert client.get("/api/players/202701150001%2F2%2F14").json()["id"] == member
    assert client.get("/api/players/202701150001%2F2").status_code == 404


POSTED: set[str] = set()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(event_id=IDS, members=st.lists(IDS.filter(lambda i: i not in ("30000011",)),
                                      min_size=3, max_size=3, unique=True))
def test_every_id_opens_on_every_page_and_in_the_api(web: tuple[Any, str], event_id: str,
                                                     members: list[str]) -> None:
    client, token = web
    n = next(DAYS)
    if event_id in POSTED:  # hypothesis tries an id again: the office holds it already
        event_id = f"{event_id[:16]}-{n}"
    POSTED.add(event_id)
    day = date(2027, 1, 1) + timedelta(days=n)
    body = document(event_id, members, day)
    auth = {"Authorization": f"Bearer {token}"}

    posted = client.post("/api/events", json=body, headers=auth)
    assert posted.status_code == 201, posted.text
    assert client.get(posted.headers["Location"]).json()["id"] == event_id

    event_path = f"/events/{segment(event_id)}"
    api_event = client.get(f"/api{event_path}")
    assert api_event.status_code == 200, api_event.text
    assert api_event.json()["id"] == event_id
    assert [p["id"] for p in api_event.json()["sections"][0]["players"]] == members

    # each page, the id it shows and the links to ids it must hold
    player_paths = [f"/players/{segment(m)}" for m in members]
    pages: dict[str, tuple[str, list[str]]] = {event_path: (event_id, player_paths)}
    for member, path in zip(members, player_paths, strict=True):
        found = client.get(f"/api{path}")
        assert found.status_code == 200, found.text
        assert found.json()["id"] == member
        assert [h["event_id"] for h in found.json()["history"]][-1:] == [event_id]
        pages[path] = (member, [event_path])
        pages[f"/members?q={segment(member)}"] = (member, [path])
        pages[f"/list?as_of={day.isoformat()}&q={segment(member)}"] = (member, [path])
    pages[f"/events?q={segment(event_id)}"] = (event_id, [event_path])
    for path, (shown, expected) in pages.items():
        page = client.get(path)
        assert page.status_code == 200, (path, page.text)
        assert str(escape(shown)) in page.text, path
        links = {unescape(link) for link in LINK.findall(page.text)}
        assert set(expected) <= links, (path, expected, links)
        for link in links:
            assert client.get(link).status_code == 200, (path, link)

    # corrections: without a token 401, with one the event is replaced under its id
    put = f"/api{event_path}"
    assert client.put(put, json=body).status_code == 401
    corrected = client.put(put, json=body, headers=auth)
    assert corrected.status_code == 200, corrected.text
    assert corrected.json()["events"][0]["id"] == event_id
    assert client.get(f"/api{event_path}").json()["corrections"] == 1
