"""The ratings API's records read as a format (formats/ratings_api.py): the real
standings of ../shared/recent/raw, the records written from the schema, and what is
refused, naming the file and the record."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from tests.published.conftest import RAW, RECORDED, real
from uscf_ratings.core.model import SectionType, System
from uscf_ratings.formats.detect import read_any, sniff
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.ratings_api import BUNDLE_MARK, UNPUBLISHED_N, read_records

ROCKVILLE = RAW / "202508311982_s02_standings.json"


@pytest.fixture
def raw() -> Path:
    real(ROCKVILLE)
    return RAW


def bundle(tmp_path: Path, standings: list[dict[str, object]], **section: object) -> Path:
    """An event as `uscf fetch` saves it: the made-up match's records, with ``section``
    fields changed and ``standings`` as its pages."""
    record = json.loads((RECORDED / "section-900000000001-1.json").read_text()) | section
    path = tmp_path / "900000000001.json"
    path.write_text(json.dumps({
        "format": BUNDLE_MARK, "source": "recorded",
        "event": json.loads((RECORDED / "event-900000000001.json").read_text()),
        "sections": [{"section": record, "standings": standings}]}))
    return path


def match_pages() -> list[dict[str, object]]:
    return [json.loads(p.read_text())
            for p in sorted(RECORDED.glob("standings-900000000001-1-page*.json"))]


def test_a_real_standings_page_reads_with_its_date_and_systems(raw: Path) -> None:
    read = read_records(raw / "202508311982_s02_standings.json",
                        event_date=date(2025, 8, 31), systems=(System.R, System.Q))
    section = read.sections[0].section
    assert (read.event.id, section.number, len(section.players)) == ("202508311982", 2, 20)
    first = section.players[0]  # ordinal 1 of the page: Jonah Davis, 20000078
    assert (first.pair, first.id, first.name) == (1, "20000078", "Davis, Jonah")
    assert [(r.code, r.opponent) for r in first.results] == [
        ("W", 10), ("W", 16), ("D", 2), ("W", 4)]
    # the page gives R 1383.58 -> 1403.43 and Q 979.19 -> 1122.67, no provisional count
    assert first.ratings[System.R].rating == 1383.58
    assert first.ratings[System.R].games == UNPUBLISHED_N
    assert not first.ratings[System.R].games_known
    published = read.sections[0].published[(1, System.Q)]
    assert (published.pre, published.post, published.post_games) == (979.19, 1122.67, None)
    # pair 4, Sofia Clark: R 1120.xx with postProvisionalGameCount 13 after 3 games (the
    # round 1 forfeit win is not a game): N = 10 before
    assert section.players[3].ratings[System.R].games == 10
    assert any("taken from the file's name" in line for line in read.assumed)
    assert any("N is not published for" in line for line in read.sections[0].assumed)


def test_a_standings_page_alone_is_refused_without_date_and_systems(raw: Path) -> None:
    with pytest.raises(ParseError) as refused:
        read_records(raw / "202508311982_s02_standings.json")
    text = str(refused.value)
    assert "give the date with --date" in text
    assert "give them with --systems (its ratings are in Q, R)" in text


def test_the_content_tells_the_format(raw: Path, tmp_path: Path) -> None:
    assert sniff(raw / "202508311982_s02_standings.json").name == "api"
    assert sniff(bundle(tmp_path, match_pages())).name == "api"
    event = read_any(raw / "202603290543_s07_standings.json", event_date=date(2026, 3, 29),
                     systems=(System.R,))
    assert [s.number for s in event.sections] == [7]


def test_an_event_saved_by_fetch_holds_its_dates_systems_and_pages(tmp_path: Path) -> None:
    read = read_records(bundle(tmp_path, match_pages()))
    section = read.sections[0].section
    assert (read.event.id, read.event.name, read.event.start_date) == (
        "900000000001", "A MADE-UP MATCH", date(2026, 2, 7))
    assert (section.systems, section.time_control, section.type) == (
        (System.R,), "G/90;d30", SectionType.SWISS)
    assert [p.name for p in section.players] == ["FIRST, ANN", "SECOND, BEN"]  # both pages
    assert read.event.details.state == "VA"


def test_a_dual_section_is_rated_in_both_systems(tmp_path: Path) -> None:
    section = read_records(bundle(tmp_path, match_pages(), ratingSystem="D")).sections[0]
    assert section.section.systems == (System.R, System.Q)


@pytest.mark.parametrize(("change", "expected"), [
    ({"outcome": "WinAsym"}, "items[0].roundOutcomes[0].outcome: 'WinAsym': not read"),
    ({"outcome": "Win", "opponentOrdinal": 0}, "a played game needs its opponent's place"),
    ({"roundNumber": "one"}, "roundOutcomes[0].roundNumber: expected a round number"),
])
def test_a_round_that_cannot_be_read_is_refused_naming_it(
        tmp_path: Path, change: dict[str, object], expected: str) -> None:
    pages = match_pages()
    pages[0]["items"][0]["roundOutcomes"][0] |= change  # type: ignore[index]
    with pytest.raises(ParseError) as refused:
        read_records(bundle(tmp_path, pages))
    assert expected in str(refused.value) and "900000000001.json" in str(refused.value)


def test_a_score_its_rounds_do_not_give_is_refused(tmp_path: Path) -> None:
    pages = match_pages()
    pages[0]["items"][0]["score"] = 0.5  # type: ignore[index]
    with pytest.raises(ParseError, match=r"items\[0\]\.score: the row's score is 0.5, its "
                                         r"rounds give 1"):
        read_records(bundle(tmp_path, pages))


def test_a_page_that_says_more_follow_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="next page that is not in the file"):
        read_records(bundle(tmp_path, match_pages()[:1]))


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("ratingSystem", "G", "'G': expected a rating system we rate"),
    ("format", "FideAdjustment", "'FideAdjustment': sections of this format are not read"),
    ("startDate", "31/12/2025", "section.startDate: expected a date"),
])
def test_a_section_record_we_cannot_rate_is_refused(tmp_path: Path, field: str, value: str,
                                                    expected: str) -> None:
    with pytest.raises(ParseError, match=expected):
        read_records(bundle(tmp_path, match_pages(), **{field: value}))


def test_a_members_history_is_not_an_event(raw: Path) -> None:
    with pytest.raises(ParseError, match="import-history"):
        read_records(raw / "member_12345678_sections.json")


def test_a_problem_on_a_later_page_names_that_page_and_row(tmp_path: Path) -> None:
    pages = match_pages()
    pages[1]["items"][0]["roundOutcomes"][0]["outcome"] = "DrawAsym"  # type: ignore[index]
    with pytest.raises(ParseError, match=r"sections\[0\]\.standings\[1\]\.items\[0\]\."
                                         r"roundOutcomes\[0\]\.outcome: 'DrawAsym'"):
        read_records(bundle(tmp_path, pages))
