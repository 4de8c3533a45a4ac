"""The JSON API: the same numbers as the CLI, the office read and written, refusals as 4xx."""

from __future__ import annotations

import copy
import json
from typing import Any

from click.testing import CliRunner
from sqlalchemy import select

from uscf_ratings.cli.main import cli
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.office.tokens import revoke_token
from tests.web.conftest import SAMPLE, SAMPLE_ID, sample_text


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def sample() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(sample_text())
    return document


# --- POST /api/rate -------------------------------------------------------------------


def test_rate_gives_exactly_the_json_of_uscf_rate(bare_client: Any) -> None:
    out = CliRunner().invoke(cli, ["rate", str(SAMPLE), "--json"])
    assert out.exit_code == 0, out.output
    answer = bare_client.post("/api/rate", content=sample_text(),
                              headers={"Content-Type": "application/json"})
    assert answer.status_code == 200
    assert answer.json() == json.loads(out.output)


def test_rate_stores_nothing(client: Any) -> None:
    document = sample()
    document["event"]["id"] = "not-stored"
    assert client.post("/api/rate", json=document).status_code == 200
    assert client.get("/api/events/not-stored").status_code == 404


def test_rate_refuses_what_is_not_json_with_400(bare_client: Any) -> None:
    answer = bare_client.post("/api/rate", content=b'{"event": ')
    assert answer.status_code == 400
    assert "not valid JSON" in answer.json()["detail"]
    assert answer.json()["issues"][0]["where"] == "line 1 column 11"
    assert bare_client.post("/api/rate", content=b"").status_code == 400
    assert bare_client.post("/api/rate", content=b"\xff\xfe").status_code == 400


def test_rate_lists_every_schema_problem_with_422(bare_client: Any) -> None:
    document = sample()
    document["sections"][0]["players"][0]["results"][1] = "Z3"
    del document["event"]["start_date"]
    answer = bare_client.post("/api/rate", json=document)
    assert answer.status_code == 422
    issues = answer.json()["issues"]
    assert {i["where"] for i in issues} == {"event", "sections[0].players[0].results[1]"}
    assert any("not a US Chess code" in i["message"] for i in issues)


def test_rate_gives_the_section_errors_with_422(bare_client: Any) -> None:
    document = sample()
    document["sections"][0]["players"][0]["results"][0] = "W9"  # no pair 9
    answer = bare_client.post("/api/rate", json=document)
    assert answer.status_code == 422
    detail = answer.json()["detail"]
    assert "section 1 (Open), player 1, id 30000001, round 1" in detail
    assert "names pair 9" in detail


def test_rate_refuses_a_date_before_the_rules_and_a_bad_time_control(bare_client: Any) -> None:
    early = sample()
    early["event"]["start_date"] = early["event"]["end_date"] = "2001-01-01"
    answer = bare_client.post("/api/rate", json=early)
    # the domain of a section's date is the rules' coverage (core/domain.py)
    assert answer.status_code == 422 and ("start date 2001-01-01: expected a date from "
                                          "2013-05-08") in answer.json()["detail"]
    odd = sample()
    odd["sections"][0]["time_control"] = "whenever"
    assert bare_client.post("/api/rate", json=odd).status_code == 422


def test_oversized_bodies_get_413_before_they_are_read(office_url: str) -> None:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    small = TestClient(create_app(Settings(db_url=office_url, max_upload=1000)))
    answer = small.post("/api/rate", content=sample_text())
    assert answer.status_code == 413
    assert "1,000 bytes" in answer.json()["detail"]

    def chunks() -> Any:  # no Content-Length: counted as it arrives
        for _ in range(10):
            yield b" " * 500

    assert small.post("/api/rate", content=chunks()).status_code == 413


# --- reading the office ------------------------------------------------------------------


def test_player_has_ratings_floors_and_history(client: Any) -> None:
    ana = client.get("/api/players/30000001").json()
    assert ana["name"] == "Ana Torres"
    assert set(ana["ratings"]) == {"R", "Q"}
    assert ana["ratings"]["R"]["games"] == 124 + 1  # four games, then one
    assert [h["event_id"] for h in ana["history"] if h["system"] == "R"] == [
        SAMPLE_ID, "202609010001"]
    assert client.get("/api/players/nobody").status_code == 404


def test_event_matches_what_the_office_rated(client: Any) -> None:
    event = client.get(f"/api/events/{SAMPLE_ID}").json()
    assert event["name"] == "Riverside Chess Club August Action"
    open_section = event["sections"][0]
    ana = next(p for p in open_section["players"] if p["id"] == "30000001")
    assert ana["results"] == ["W5", "D3", "W6", "D2"]
    assert ana["ratings"]["R"]["post_rounded"] == 1846
    assert client.get("/api/events/nope").status_code == 404


def test_list_as_of_a_date_highest_first(client: Any) -> None:
    before = client.get("/api/list", params={"as_of": "2026-08-15", "system": "R"}).json()
    ratings = [e["rating"] for e in before]
    assert ratings == sorted(ratings, reverse=True)
    assert before[0]["id"] == "30000001" and before[0]["display"] == "1846"
    assert client.get("/api/list", params={"as_of": "2026-07-01"}).json() == []
    assert client.get("/api/list", params={"as_of": "soon"}).status_code == 422
    assert client.get("/api/list", params={"as_of": "2026-08-15", "system": "X"}).status_code == 422


def test_members_search_by_name_or_id(client: Any) -> None:
    found = client.get("/api/members", params={"q": "torr"}).json()
    assert [m["id"] for m in found["members"]] == ["30000001"]
    assert found["members"][0]["ratings"]["R"] == "1846"
    by_id = client.get("/api/members", params={"q": "3000001"}).json()
    assert by_id["total"] == 6  # 30000011 .. 30000016
    assert client.get("/api/members", params={"q": "%"}).json()["total"] == 0


def test_without_a_database_the_office_answers_503(bare_client: Any) -> None:
    answer = bare_client.get("/api/players/30000001")
    assert answer.status_code == 503
    assert "uscf serve --db URL" in answer.json()["detail"]
    assert bare_client.post("/api/events", json=sample()).status_code == 503


def test_an_uninitialized_database_answers_503(tmp_path: Any) -> None:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    empty = TestClient(create_app(Settings(db_url=f"sqlite:///{tmp_path / 'empty.db'}")))
    answer = empty.get("/api/players/1")
    assert answer.status_code == 503 and "uscf db init" in answer.json()["detail"]
    assert empty.post("/api/events", json=sample(), headers=auth("x")).status_code == 503


# --- writing the office -------------------------------------------------------------------


def later_event() -> dict[str, Any]:
    return {"event": {"id": "202610010001", "name": "October Open", "start_date": "2026-10-01"},
            "sections": [{"number": 1, "time_control": "G/90;d30", "players": [
                {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
                {"pair": 2, "id": "30000002", "name": "Ben Okafor", "results": ["L1"]}]}]}


def test_writing_without_a_token_is_401(client: Any) -> None:
    for answer in (client.post("/api/events", json=later_event()),
                   client.put(f"/api/events/{SAMPLE_ID}", json=sample())):
        assert answer.status_code == 401
        assert answer.headers["WWW-Authenticate"] == "Bearer"
        assert "uscf db token create" in answer.json()["detail"]


def test_writing_with_a_wrong_or_revoked_token_is_401(client: Any, token: str,
                                                      office_url: str) -> None:
    assert client.post("/api/events", json=later_event(),
                       headers=auth(token + "x")).status_code == 401
    assert client.post("/api/events", json=later_event(),
                       headers={"Authorization": f"Basic {token}"}).status_code == 401
    office = Office(office_url)
    revoke_token(office.engine, "tests")
    office.engine.dispose()
    answer = client.post("/api/events", json=later_event(), headers=auth(token))
    assert answer.status_code == 401 and "not valid" in answer.json()["detail"]


def test_submit_rates_with_the_office_s_ratings(client: Any, token: str) -> None:
    answer = client.post("/api/events", json=later_event(), headers=auth(token))
    assert answer.status_code == 201, answer.text
    assert answer.headers["Location"] == "/api/events/202610010001"
    ana = answer.json()["events"][0]["sections"][0]["players"][0]["ratings"]["R"]
    stored = client.get("/api/players/30000001").json()
    assert ana["pre"] == stored["history"][-2]["post"]  # the office's rating, not the file's
    assert stored["history"][-1]["event_id"] == "202610010001"
    again = client.post("/api/events", json=later_event(), headers=auth(token))
    assert again.status_code == 409 and "already rated" in again.json()["detail"]


def test_submit_refuses_an_invalid_event_and_stores_nothing(client: Any, token: str) -> None:
    bad = later_event()
    bad["sections"][0]["players"][1]["results"] = ["W1"]  # both won
    answer = client.post("/api/events", json=bad, headers=auth(token))
    assert answer.status_code == 422
    assert "round 1" in answer.json()["detail"]
    assert client.get("/api/events/202610010001").status_code == 404


def whole_database(office_url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as stored."""
    office = Office(office_url)
    try:
        with office.engine.connect() as c:
            return {table.name: sorted(map(tuple, c.execute(select(table))), key=repr)
                    for table in schema.metadata.sorted_tables}
    finally:
        office.engine.dispose()


def test_submit_refuses_the_games_of_a_stored_event_under_another_id(
        client: Any, token: str, office_url: str) -> None:
    """The sample, stored as SAMPLE_ID (tests/web/conftest.py, make_office), sent again
    under another id (the same report from another program, issue 37 "One event,
    once"): 409 naming the stored event and the way to store it all the same, every
    table unchanged. With different_event=true it is stored: a second event."""
    resent = sample()
    resent["event"]["id"] = "202608010099"
    before = whole_database(office_url)
    answer = client.post("/api/events", json=resent, headers=auth(token))
    assert answer.status_code == 409, answer.text
    detail = answer.json()["detail"]
    assert f"event 202608010099 holds the same games as event {SAMPLE_ID}" in detail
    assert "different_event=true" in detail
    assert whole_database(office_url) == before
    assert client.get("/api/events/202608010099").status_code == 404
    forced = client.post("/api/events", params={"different_event": "true"}, json=resent,
                         headers=auth(token))
    assert forced.status_code == 201, forced.text
    assert client.get("/api/events/202608010099").status_code == 200
    after = whole_database(office_url)
    assert len(after["events"]) == len(before["events"]) + 1
    assert len(after["ratings"]) > len(before["ratings"])  # its games rated again


def test_correct_re_rates_and_404s_an_unknown_event(client: Any, token: str) -> None:
    before = client.get("/api/players/30000001").json()["ratings"]["R"]["rating"]
    corrected = sample()
    corrected["sections"][0]["players"][0]["results"] = ["W5", "W3", "W6", "D2"]
    corrected["sections"][0]["players"][2]["results"] = ["W7", "L1", "L2", "L6"]
    answer = client.put(f"/api/events/{SAMPLE_ID}", json=corrected, headers=auth(token))
    assert answer.status_code == 200, answer.text
    assert client.get(f"/api/events/{SAMPLE_ID}").json()["corrections"] == 1
    after = client.get("/api/players/30000001").json()["ratings"]["R"]["rating"]
    assert after > before  # a draw became a win, and the later event was re-rated
    missing = client.put("/api/events/nope", json=corrected, headers=auth(token))
    assert missing.status_code == 404


# --- the description --------------------------------------------------------------------


def test_openapi_describes_every_endpoint_and_the_event_body(bare_client: Any) -> None:
    document = bare_client.get("/openapi.json").json()
    paths = document["paths"]
    assert {"/api/rate", "/api/players/{member_id}", "/api/events/{event_id}", "/api/list",
            "/api/events", "/api/members"} <= set(paths)
    assert not any(p.startswith("/players") or p == "/" for p in paths)  # pages are not API
    body = paths["/api/rate"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/Event"}
    schemas = document["components"]["schemas"]
    assert "Event_player" in schemas and "$defs" not in json.dumps(schemas)
    assert paths["/api/events"]["post"]["security"] == [{"HTTPBearer": []}]
    assert "security" not in paths["/api/rate"]["post"]


def test_the_sample_is_left_alone() -> None:
    """The tests above edit copies of the sample, never the file."""
    assert copy.deepcopy(sample()) == json.loads(SAMPLE.read_text(encoding="utf-8"))
