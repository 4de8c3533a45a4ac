"""A member's norms and awards read from US Chess's records (formats/member_titles.py):
what is read, and every refusal naming the record, the field and what was expected."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.published.conftest import RAW, real
from tests.published.hand_built import award, norm, titles
from uscf_ratings.formats.bounds import MAX_INPUT_BYTES, MAX_JSON_DEPTH
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.member_titles import (
    AWARD_TYPES,
    NORM_CODES_BY_API,
    read_member_titles,
    sniff,
)
from uscf_ratings.formats.ratings_api import read_records

MEMBER = "30000001"


def read(data: Any, member: str | None = None) -> Any:
    return read_member_titles("titles.json", member, data=json.dumps(data).encode())


def refusal(data: Any, member: str | None = None) -> list[str]:
    with pytest.raises(ParseError) as refused:
        read(data, member)
    assert refused.value.source == "titles.json"
    return [str(issue) for issue in refused.value.issues]


def test_a_fetched_file_reads_every_norm_and_award() -> None:
    read_back = read(titles(MEMBER, [
        norm("CandidateMaster", "Active", "202501050011", 2, "2025-01-05", played=5,
             score=4.5, expected=3.12, postRating=1987, postType="Provisional"),
        norm("FourthCategory", "Preview", "202506010022", 1, "2025-06-01")],
        [award("FourthCategory", "2024-03-01", "202403010033", 3),
         award("NationalMaster", "2025-02-01", category="RatingsTitle"),
         award("WinCount", "2025-03-01", category="WinMilestone")], page=2))
    first, second = read_back.norms
    assert (first.code, first.status, first.score, first.expected, first.post_rating,
            first.post_type, first.games, first.played_games, first.event, first.section,
            first.end, first.counted) == (
        "N:C", "Active", 4.5, 3.12, 1987, "Provisional", 5, 5, "202501050011", 2,
        date(2025, 1, 5), True)
    assert (second.code, second.status, second.counted) == ("N:4", "Preview", False)
    assert [(a.category, a.type, a.date, a.event, a.section) for a in read_back.awards] == [
        ("NormsTitle", "FourthCategory", date(2024, 3, 1), "202403010033", 3),
        ("RatingsTitle", "NationalMaster", date(2025, 2, 1), None, None),
        ("WinMilestone", "WinCount", date(2025, 3, 1), None, None)]
    assert read_back.member == MEMBER
    assert read_back.notes == ("awards not computed here (read, not compared): WinCount",)


def test_every_level_reads_as_its_crosstable_code() -> None:
    """titles.md's table: 4th Category N:4 ... Senior Life Master N:S."""
    levels = ["FourthCategory", "ThirdCategory", "SecondCategory", "FirstCategory",
              "CandidateMaster", "LifeMaster", "SeniorLifeMaster"]
    read_back = read({"items": [norm(level, "Active", "202501050011", 1, "2025-01-05")
                                for level in levels]}, MEMBER)
    assert [n.code for n in read_back.norms] == ["N:4", "N:3", "N:2", "N:1", "N:C", "N:M",
                                                 "N:S"]
    assert list(NORM_CODES_BY_API) == levels


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("level", "FifthCategory", "items[0].level: 'FifthCategory': expected one of "
                               "FourthCategory, ThirdCategory"),
    ("level", None, "items[0].level: None: expected one of FourthCategory"),
    ("status", "Pending", "items[0].status: 'Pending': expected one of Active, Deleted, "
                          "Preview"),
    ("postType", "Rapid", "items[0].postType: 'Rapid': expected one of Provisional"),
    ("sectionNumber", 0, "items[0].sectionNumber: 0: expected a whole number "
                         "from 1 to 99999"),
    ("sectionNumber", 2.5, "items[0].sectionNumber: expected a whole number, found 2.5"),
    ("postRating", 99999, "items[0].postRating: 99999: expected a number from "
                          "100 to 3500"),
    ("games", -1, "items[0].games: -1: expected a whole number from 0 to 1000000"),
    ("playedGames", True, "items[0].playedGames: expected a whole number, found True"),
    ("score", "4", "items[0].score: expected a number, found '4'"),
    ("expected", -0.5, "items[0].expected: -0.5: expected a number from 0"),
    ("event", None, "items[0].event: expected the event (an object with its id), found null"),
    ("event", {"id": "2025\x00"}, "items[0].event.id: '2025\\x00': expected an id of at "
                                  "most 64 characters, without control characters"),
    ("event", {"id": "1", "endDate": "2025-13-01"}, "items[0].event.endDate: expected a "
                                                    "date (YYYY-MM-DD), found '2025-13-01'"),
    ("event", {"id": "1", "endDate": "9999-01-01"}, "items[0].event.endDate: "
                                                    "9999-01-01: expected a date from 1900"),
])
def test_a_wrong_norm_field_is_refused_naming_it(field: str, value: Any,
                                                  expected: str) -> None:
    record = norm("FirstCategory", "Active", "202501050011", 1, "2025-01-05")
    record[field] = value
    issues = refusal({"items": [record]}, MEMBER)
    assert len(issues) == 1 and issues[0].startswith(expected), issues


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("type", "GrandMaster", "member_awards[0].items[0].type: 'GrandMaster': expected one of "
                            + ", ".join(AWARD_TYPES)),
    ("category", "Medal", "member_awards[0].items[0].category: 'Medal': expected one of "
                          "NormsTitle, RatingsTitle, WinMilestone"),
    ("ratingSource", "X", "member_awards[0].items[0].ratingSource: 'X': expected one of U, R"),
    ("date", "01/02/2025", "member_awards[0].items[0].date: expected a date (YYYY-MM-DD)"),
    ("winCount", 10**50, "member_awards[0].items[0].winCount: of about 51 digits"),
])
def test_a_wrong_award_field_is_refused_naming_it(field: str, value: Any,
                                                   expected: str) -> None:
    record = award("LifeMaster", "2025-01-05")
    record[field] = value
    issues = refusal(titles(MEMBER, [], [record]))
    assert len(issues) == 1 and issues[0].startswith(expected), issues


def test_every_problem_is_reported_at_once() -> None:
    bad = norm("X", "Y", "202501050011", 1, "2025-01-05")
    issues = refusal(titles(MEMBER, [bad, bad], [award("Z", "2025-01-01")]))
    assert [i.split(":")[0] for i in issues] == [
        "member_norms.items[0].level", "member_norms.items[0].status",
        "member_norms.items[1].level", "member_norms.items[1].status",
        "member_awards[0].items[0].type"]


def test_what_is_not_a_members_records_is_refused() -> None:
    assert refusal({"items": [norm("FirstCategory", "Active", "1", 1, "2025-01-05")]}) == [
        "a response of the API does not name its member: give the member's id (--member)"]
    assert refusal(titles(MEMBER, [], []), member="30000002") == [
        "member: the file holds member 30000001's records, not 30000002's"]
    assert refusal(titles("", [], []))[0].startswith("member: expected the member's id")
    assert refusal(titles("3" * 40, [], []))[0].startswith("member: '3333")
    assert refusal([1, 2])[0].startswith("expected a member's norms or awards")
    last = titles(MEMBER, [], [award("LifeMaster", "2025-01-05")])
    last["member_awards"][0]["hasNextPage"] = True
    assert "awards go on in a next page that is not in the file" in refusal(last)[0]


def test_the_bounds_every_reader_has() -> None:
    deep: Any = {"items": []}
    for _ in range(MAX_JSON_DEPTH + 5):
        deep = {"items": [deep]}
    with pytest.raises(ParseError, match="nest"):
        read(deep, MEMBER)
    with pytest.raises(ParseError, match="line 1 column 36: a number of 200 characters"):
        read_member_titles("t.json", MEMBER, data=b'{"items": [{"level": "X", "games": '
                           + b"1" * 200 + b"}]}")
    with pytest.raises(ParseError, match="not UTF-8"):
        read_member_titles("t.json", MEMBER, data=b"\xff\xfe{}")


def test_a_file_past_the_ceiling_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with big.open("wb") as out:
        out.truncate(MAX_INPUT_BYTES + 1)
    with pytest.raises(ParseError, match="bytes"):
        read_member_titles(big, MEMBER)


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
FIELDS = ["level", "status", "score", "expected", "postRating", "postType", "games",
          "playedGames", "sectionNumber", "event"]
tried: list[str] = []


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), _json, max_size=4))
def test_any_value_in_a_norm_is_read_or_refused_never_a_crash(wrong: dict[str, Any]) -> None:
    """300 norms with up to four fields replaced by any JSON value: each is read with every
    value in its domain, or refused with a ParseError whose issues name a field."""
    record = norm("FirstCategory", "Active", "202501050011", 1, "2025-01-05") | wrong
    try:
        found = read({"items": [record]}, MEMBER).norms[0]
    except ParseError as error:
        tried.append("refused")
        assert all(str(i).startswith("items[0].") for i in error.issues), error.issues
        return
    tried.append("read")
    assert found.code in NORM_CODES_BY_API.values()
    assert found.section is None or 1 <= found.section <= 99_999
    assert found.post_rating is None or 100 <= found.post_rating <= 3500


def test_sniffing_tells_a_members_records_from_an_event() -> None:
    assert sniff(json.dumps(titles(MEMBER, [], [])).encode())
    assert sniff(json.dumps({"items": [norm("FirstCategory", "Active", "1", 1,
                                            "2025-01-05")]}).encode())
    assert not sniff(real(RAW / "202508311982_s02_standings.json").read_bytes())
    assert not sniff(b"not json")


def test_the_event_reader_points_a_members_records_to_verify() -> None:
    with pytest.raises(ParseError, match="holds a member's norms and awards"):
        read_records("titles.json", data=json.dumps(titles(MEMBER, [], [])).encode())
