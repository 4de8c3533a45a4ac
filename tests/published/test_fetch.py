"""`uscf fetch` and the API client (formats/api_client.py), against a server on
127.0.0.1 that answers from recorded responses: the tests never touch the network."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.published.conftest import (
    MEMBER_HISTORY,
    RECORDED,
    RecordedApi,
    made_up_match,
    real,
)
from uscf_ratings.cli.main import cli
from uscf_ratings.formats.api_client import (
    MAX_PAUSE_S,
    RETRY_PAUSES_S,
    FetchError,
    RatingsApi,
    user_agent,
)
from uscf_ratings.formats.ratings_api import BUNDLE_MARK, read_records


def client(api: RecordedApi, pauses: list[float]) -> RatingsApi:
    return RatingsApi(api.url, sleep=pauses.append)


def test_an_event_is_saved_with_every_record_as_it_came(recorded_api: RecordedApi,
                                                         tmp_path: Path) -> None:
    made_up_match(recorded_api)
    out = CliRunner().invoke(cli, ["fetch", "--api", recorded_api.url, "--into",
                                   str(tmp_path), "900000000001"])
    assert out.exit_code == 0, out.output
    assert out.output.startswith(f"wrote {tmp_path / '900000000001.json'}: 1 section(s)")
    saved = json.loads((tmp_path / "900000000001.json").read_text())
    assert saved["format"] == BUNDLE_MARK
    assert saved["event"] == json.loads((RECORDED / "event-900000000001.json").read_text())
    pages = sorted(RECORDED.glob("standings-900000000001-1-page*.json"))
    assert saved["sections"][0]["standings"] == [json.loads(p.read_text()) for p in pages]
    # one request at a time, in order, each page asked by its offset, all with our name
    assert [(path, query.get("Offset")) for path, query, _ in recorded_api.seen] == [
        ("/rated-events/900000000001", None),
        ("/rated-events/900000000001/sections/1", None),
        ("/rated-events/900000000001/sections/1/standings", ["0"]),
        ("/rated-events/900000000001/sections/1/standings", ["1"])]
    assert {agent for _, _, agent in recorded_api.seen} == {user_agent()}
    assert user_agent().startswith("uscf-ratings/")
    # and the file reads as the event: `uscf rate` takes it
    assert len(read_records(tmp_path / "900000000001.json").event.sections[0].players) == 2
    rated = CliRunner().invoke(cli, ["rate", str(tmp_path / "900000000001.json")])
    assert rated.exit_code == 0 and "FIRST, ANN" in rated.output


def test_a_members_sections_are_saved(recorded_api: RecordedApi, tmp_path: Path) -> None:
    history = real(MEMBER_HISTORY)
    recorded_api.answer_file("/members/12345678/sections", history)
    out = CliRunner().invoke(cli, ["fetch", "--api", recorded_api.url, "--into",
                                   str(tmp_path), "--member", "12345678"])
    assert out.exit_code == 0, out.output
    saved = json.loads((tmp_path / "member-12345678.json").read_text())
    assert saved["member"] == "12345678"
    assert saved["member_sections"] == [json.loads(history.read_text())]
    assert "24 section(s)" in out.output


def test_a_server_error_is_tried_again_after_a_pause(recorded_api: RecordedApi) -> None:
    recorded_api.answer("/rated-events/900000000002", b"", status=503)
    recorded_api.answer("/rated-events/900000000002", b"", status=429,
                        headers={"Retry-After": "7"})
    recorded_api.answer("/rated-events/900000000002", {"id": "900000000002", "sections": []})
    pauses: list[float] = []
    got = client(recorded_api, pauses).event("900000000002")
    assert got["event"]["id"] == "900000000002"
    assert pauses == [RETRY_PAUSES_S[0], 7.0]  # the first pause, then the one asked for


def test_a_server_that_keeps_failing_ends_in_one_line(recorded_api: RecordedApi) -> None:
    recorded_api.answer("/rated-events/900000000003", b"", status=502,
                        headers={"Retry-After": "100000"})
    pauses: list[float] = []
    with pytest.raises(FetchError) as failed:
        client(recorded_api, pauses).event("900000000003")
    assert pauses == [MAX_PAUSE_S] * len(RETRY_PAUSES_S)  # never longer than the limit
    assert str(failed.value).endswith(f"the server answered 502 Bad Gateway "
                                      f"({len(RETRY_PAUSES_S) + 1} tries)")
    assert "\n" not in str(failed.value)


def test_no_connection_is_tried_again_then_one_line() -> None:
    pauses: list[float] = []
    api = RatingsApi("http://127.0.0.1:9/api/v1", sleep=pauses.append)  # nothing listens
    with pytest.raises(FetchError, match="could not connect"):
        api.event("202508311982")
    assert pauses == list(RETRY_PAUSES_S)


def test_an_unknown_event_and_a_bad_id_are_one_line(recorded_api: RecordedApi,
                                                     tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["fetch", "--api", recorded_api.url, "--into",
                                   str(tmp_path), "999999999999"])
    assert out.exit_code == 1
    assert out.output == (f"Error: {recorded_api.url}/rated-events/999999999999: not found "
                          "(404): US Chess publishes no such record\n")
    out = CliRunner().invoke(cli, ["fetch", "--api", recorded_api.url, "12; rm"])
    assert out.exit_code == 1 and "expected a US Chess event id (digits only)" in out.output
    assert not list(tmp_path.iterdir())  # nothing written
    assert CliRunner().invoke(cli, ["fetch"]).exit_code == 2  # neither an id nor --member


def test_a_members_norms_and_awards_are_saved_every_page(recorded_api: RecordedApi,
                                                         tmp_path: Path) -> None:
    """The norms in one response; the awards in two pages of one award each (the first
    says a next page follows): each asked by its offset, and the file reads back."""
    from tests.published.hand_built import award, norm
    from uscf_ratings.formats.member_titles import read_member_titles

    norms: dict[str, object] = {
        "items": [norm("FirstCategory", "Active", "202501050011", 2, "2025-01-05")]}
    first = award("FirstCategory", "2025-02-01")
    second = award("NationalMaster", "2025-03-01", category="RatingsTitle")
    recorded_api.answer("/members/30000001/norms", norms)
    recorded_api.answer("/members/30000001/awards?Offset=0",
                        {"items": [first], "offset": 0, "pageSize": 1, "hasNextPage": True})
    recorded_api.answer("/members/30000001/awards?Offset=1",
                        {"items": [second], "offset": 1, "pageSize": 1, "hasNextPage": False})
    out = CliRunner().invoke(cli, ["fetch", "--api", recorded_api.url, "--into",
                                   str(tmp_path), "--member", "30000001", "--titles"])
    assert out.exit_code == 0, out.output
    target = tmp_path / "member-30000001-titles.json"
    assert out.output.startswith(f"wrote {target}: 1 norm(s), 2 award(s)")
    assert [(path, query.get("Offset")) for path, query, _ in recorded_api.seen] == [
        ("/members/30000001/norms", None), ("/members/30000001/awards", ["0"]),
        ("/members/30000001/awards", ["1"])]
    saved = json.loads(target.read_text())
    assert saved["member_norms"] == norms and saved["format"] == BUNDLE_MARK
    assert [p["items"] for p in saved["member_awards"]] == [[first], [second]]
    read_back = read_member_titles(target)
    assert [n.code for n in read_back.norms] == ["N:1"]
    assert [a.type for a in read_back.awards] == ["FirstCategory", "NationalMaster"]


def test_titles_need_a_member_and_an_unknown_member_is_one_line(
        recorded_api: RecordedApi, tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["fetch", "--titles", "202501050011"])
    assert out.exit_code == 2 and "--titles downloads a member's norms" in out.output
    out = CliRunner().invoke(cli, ["fetch", "--api", recorded_api.url, "--into",
                                   str(tmp_path), "--member", "99999999", "--titles"])
    assert out.exit_code == 1
    assert out.output == (f"Error: {recorded_api.url}/members/99999999/norms: not found "
                          "(404): US Chess publishes no such record\n")
    assert not list(tmp_path.iterdir())
