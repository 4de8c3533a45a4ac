"""A member's rated sections as US Chess publishes them (formats/member_history.py): the
real history in ../shared, and made-up pages written from the OpenAPI schema
(``MemberRatedSectionDtoPage``) for what it lacks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.published.conftest import MEMBER_HISTORY, real
from uscf_ratings.core.model import System
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.member_history import read_history
from uscf_ratings.formats.ratings_api import BUNDLE_MARK, UNPUBLISHED_N


@pytest.fixture
def history_file() -> Path:
    return real(MEMBER_HISTORY)


def item(event: str, number: int, day: str, *records: dict[str, Any]) -> dict[str, Any]:
    """A ``MemberRatedSectionDto`` of the schema: a section on ``day`` and its records."""
    return {"id": f"s-{event}-{number}", "sectionNumber": number, "sectionName": "Open",
            "startDate": day, "endDate": day, "format": "Swiss", "ratingSystem": "R",
            "ratingRecords": list(records),
            "event": {"id": event, "name": f"Event {event}", "startDate": day,
                      "endDate": day, "stateCode": "VA"}}


def record(source: str, pre: float | None, post: float, games: int | None = None
           ) -> dict[str, Any]:
    out: dict[str, Any] = {"eventId": "x", "sectionNumber": 1, "ratingSource": source,
                           "preRatingDecimal": pre, "postRatingDecimal": post,
                           "preRating": None if pre is None else round(pre),
                           "postRating": round(post)}
    if games is not None:
        out["postProvisionalGameCount"] = games
    return out


def page(*items: dict[str, Any], more: bool = False) -> dict[str, Any]:
    return {"items": list(items), "offset": 0, "pageSize": 100, "hasPreviousPage": False,
            "hasNextPage": more}


def write(folder: Path, data: Any) -> Path:
    path = folder / "history.json"
    path.write_text(json.dumps(data))
    return path


def test_the_real_history_reads_every_published_rating(history_file: Path) -> None:
    """Every record of the 24 sections (three of them dual, R and Q) is an entry with the
    published decimals and provisional count; each system's chain holds (recent/README.md:
    each section's pre equals the previous post), so nothing is noted."""
    raw = json.loads(history_file.read_text())
    history = read_history(history_file, member="12345678")
    published = {(i["event"]["id"], i["sectionNumber"], r["ratingSource"]):
                 (r.get("preRatingDecimal"), r["postRatingDecimal"],
                  r.get("postProvisionalGameCount"))
                 for i in raw["items"] for r in i["ratingRecords"]}
    assert len(raw["items"]) == 24 and len(published) == 27
    assert {(e.event_id, e.section, e.system.value): (e.pre, e.post, e.post_games)
            for e in history.entries} == published
    assert [e.key for e in history.entries] == sorted(e.key for e in history.entries)
    assert history.member == "12345678" and history.notes == ()
    # the last R section: ACC MAY 2026, 1544.47 -> 1570.72, established (N not published)
    latest = history.rating_before(System.R, None)
    assert latest is not None and latest.rating == 1570.72
    assert latest.games == UNPUBLISHED_N and not latest.games_known
    # Q: after the Thanksgiving Day Open, 1091.53, provisional after 17 games
    q = history.rating_before(System.Q, None)
    assert q is not None and (q.rating, q.games, q.games_known) == (1091.53, 17, True)


def test_a_page_alone_needs_the_member_and_a_fetched_file_names_it(history_file: Path,
                                                                   tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="does not name the member: give the id with "
                                         "--member ID"):
        read_history(history_file)
    fetched = write(tmp_path, {"format": BUNDLE_MARK, "source": "https://example/",
                               "member": "12345678",
                               "member_sections": [json.loads(history_file.read_text())]})
    assert len(read_history(fetched).entries) == 27
    with pytest.raises(ParseError, match="member 12345678's history, not 999's"):
        read_history(fetched, member="999")


def test_a_broken_chain_and_sources_left_out_are_said(tmp_path: Path) -> None:
    """1500 -> 1520 then a section starting from 1530: a section is missing between them
    (or one was re-rated), said, and nothing changed; a FIDE record (source F) is left
    out, said."""
    path = write(tmp_path, page(
        item("202601010001", 1, "2026-01-10", record("R", 1500.0, 1520.0)),
        item("202602010001", 1, "2026-02-10", record("R", 1530.0, 1541.5),
             record("F", None, 1600.0))))
    history = read_history(path, member="1")
    assert [(e.pre, e.post) for e in history.entries] == [(1500.0, 1520.0), (1530.0, 1541.5)]
    assert history.notes == (
        "1 record(s) of source F left out: not a US Chess rating system",
        "R: event 202602010001 section 1 starts from 1530.00, not from 1520.00, the rating "
        "after event 202601010001 section 1: a section is missing from the history, or one "
        "was re-rated since")


@pytest.mark.parametrize(("data", "message"), [
    (page(item("202601010001", 1, "2026-01-10", record("R", 1500.0, 1520.0)), more=True),
     "hasNextPage: the last page says more follow: the history is incomplete"),
    (page(item("202601010001", 1, "2026-01-10", {"ratingSource": "R", "preRating": 1500})),
     "items[0].ratingRecords[0].postRatingDecimal: expected the post-event rating"),
    (page(item("202601010001", 1, "2026-01-10", record("X", 1500.0, 1520.0))),
     "items[0].ratingRecords[0].ratingSource: expected a rating system, found 'X'"),
    (page(item("202601010001", 1, "2026-13-10", record("R", 1500.0, 1520.0))),
     "items[0].endDate: expected a date (YYYY-MM-DD), found '2026-13-10'"),
    (page(item("202601010001", 1, "2026-01-10", record("R", 1500.0, 1520.0, games=0))),
     "items[0].ratingRecords[0].postProvisionalGameCount: expected a game count (or "
     "none), found 0"),
    ({"rows": []}, "expected a member's rated sections"),
])
def test_what_cannot_be_read_is_refused_naming_the_record(tmp_path: Path, data: Any,
                                                         message: str) -> None:
    with pytest.raises(ParseError) as refused:
        read_history(write(tmp_path, data), member="1")
    assert f"history.json: {message}" in str(refused.value)
