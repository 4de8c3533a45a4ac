"""Issue 17: `uscf db import-history` seeds a pool from a member's published history, and
the pool's own ratings start from it (office/history.py). The expected numbers are US
Chess's: the real history of member 12345678 and the standings of two sections he played
(../shared/recent/raw), read from those files."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from tests.office.conftest import dump
from tests.office.test_office import swiss
from tests.published.conftest import MEMBER_HISTORY, RAW, real

from uscf_ratings.core.model import Event, System
from uscf_ratings.formats.member_history import read_history
from uscf_ratings.formats.ratings_api import read_records
from uscf_ratings.office import queries, schema
from uscf_ratings.office.office import Office, OfficeError

MEMBER = "12345678"
HISTORY = MEMBER_HISTORY
#: the two standings in ../shared he played: (file stem, end date), both R and Q
ROCKVILLE = ("202508311982_s02", date(2025, 8, 31))
THANKSGIVING = ("202511020583_s03", date(2025, 11, 2))


@pytest.fixture(autouse=True)
def needs_shared() -> None:
    real(HISTORY)


def standings(which: tuple[str, date]) -> Event:
    stem, day = which
    return read_records(RAW / f"{stem}_standings.json", event_date=day,
                        systems=(System.R, System.Q)).event


def published_row(which: tuple[str, date]) -> dict[str, tuple[float | None, float]]:
    """The member's published (pre, post) per system in that section's standings."""
    data = json.loads((RAW / f"{which[0]}_standings.json").read_text())
    row = next(r for r in data["items"] if r["memberId"] == MEMBER)
    return {r["ratingSystem"]: (r.get("preRatingDecimal"), r["postRatingDecimal"])
            for r in row["ratings"]}


def stored(office: Office, event_id: str) -> dict[str, tuple[float, float]]:
    """The member's (pre, post) per system as the office stored them for an event."""
    with office.engine.connect() as c:
        return {r.system: (r.pre, r.post) for r in c.execute(
            select(schema.ratings).where(schema.ratings.c.member_id == MEMBER,
                                         schema.ratings.c.event_id == event_id))}


def test_the_history_reads_back_as_published(office: Office) -> None:
    """Every published rating of the history reads back from the office unchanged, each
    system's chain holding (each pre the post before it), and the member's ratings are
    the latest published: R 1570.72 established, Q 1091.53 after 17 games, OR 1336.26."""
    done = office.import_history([read_history(HISTORY, member=MEMBER)], str(HISTORY))
    assert (done.members, done.sections, done.rerated) == (1, 27, 0)
    raw = json.loads(HISTORY.read_text())
    expected = sorted((i["event"]["id"], i["sectionNumber"], r["ratingSource"],
                       r.get("preRatingDecimal"), r["postRatingDecimal"])
                      for i in raw["items"] for r in i["ratingRecords"])
    with office.engine.connect() as c:
        player = queries.player(c, MEMBER)
    assert player is not None
    back = player["published"]
    assert sorted((h["event_id"], h["section"], h["system"], h["pre"], h["post"])
                  for h in back) == expected
    for system in ("R", "Q", "OR"):
        chain = [h for h in back if h["system"] == system]
        assert all(b["pre"] == a["post"] for a, b in zip(chain, chain[1:], strict=False))
    ratings = player["ratings"]
    assert (ratings["R"]["rating"], ratings["R"]["display"]) == (1570.72, "1571")
    assert (ratings["Q"]["rating"], ratings["Q"]["display"]) == (1091.53, "1092P17")
    assert ratings["OR"]["rating"] == 1336.26
    assert any(n.startswith("12345678 R: N of an established rating is not published (15 "
                            "of the history's sections, the last 1570.72): taken as 50")
               for n in done.notes)


@pytest.mark.parametrize("import_first", [True, False], ids=["imported-first", "rated-first"])
def test_a_published_section_in_the_pool_starts_from_its_published_pre(
        office: Office, tmp_path: Path, import_first: bool) -> None:
    """The Thanksgiving Day Open rated in the pool starts the member where US Chess had
    him just before (its standings' published pre: R 1155.40, Q 1013.59, the posts of
    the sections before it in his history), whether the history comes before or after
    the section; and the office's post-event ratings agree with the published to 0.01."""
    history = read_history(HISTORY, member=MEMBER)
    if import_first:
        office.import_history([history])
        office.rate(standings(THANKSGIVING))
    else:
        office.rate(standings(THANKSGIVING))
        assert office.import_history([history]).rerated == 1  # the section, again
    ours, published = stored(office, "202511020583"), published_row(THANKSGIVING)
    for system in ("R", "Q"):
        pre, post = published[system]
        assert ours[system][0] == pre
        assert abs(ours[system][1] - post) <= 0.01, (system, ours[system], post)
    other = Office(f"sqlite:///{tmp_path / 'other.db'}")  # the other order gives the same
    other.init()
    if import_first:
        other.rate(standings(THANKSGIVING))
        other.import_history([history])
    else:
        other.import_history([history])
        other.rate(standings(THANKSGIVING))
    assert dump(other) == dump(office)


def test_after_the_first_section_the_pool_goes_on_from_its_own(office: Office) -> None:
    """Rockville (August), where the member played no rated game (a forfeit, then
    unpaired: US Chess's pre and post are equal), gives him no rating row; Thanksgiving
    (November) starts from the rating published before it; a made-up event of January
    2026 starts from the pool's own rating after Thanksgiving, not from US Chess's
    (1418.75 then: the sections between are not in this pool)."""
    office.import_history([read_history(HISTORY, member=MEMBER)])
    office.rate(standings(ROCKVILLE))
    assert stored(office, "202508311982") == {}
    office.rate(standings(THANKSGIVING))
    thanksgiving = stored(office, "202511020583")
    assert thanksgiving["R"][0] == published_row(THANKSGIVING)["R"][0]
    office.rate(swiss("E2026", date(2026, 1, 5), [(MEMBER, "90000001", "W")],
                      ratings={"90000001": 1500}))
    assert stored(office, "E2026")["R"][0] == thanksgiving["R"][1]
    # online regular, which the pool has not rated him in: US Chess's rating before it
    # (after his only OR section, 2026-01-28, 1336.26 after 11 games), though the pool
    # has rated him in R and Q since
    online = swiss("E2026OR", date(2026, 2, 15), [(MEMBER, "90000001", "D")])
    section = replace(online.sections[0], systems=(System.OR,), online=True)
    office.rate(replace(online, sections=(section,), online=True))
    with office.engine.connect() as c:
        [row] = c.execute(select(schema.ratings).where(
            schema.ratings.c.member_id == MEMBER, schema.ratings.c.event_id == "E2026OR"))
    assert (row.system, row.pre) == ("OR", 1336.26)


def test_a_member_given_twice_is_refused_and_nothing_stored(office: Office) -> None:
    history = read_history(HISTORY, member=MEMBER)
    with pytest.raises(OfficeError, match="member 12345678 is given twice"):
        office.import_history([history, history])
    with office.engine.connect() as c:
        assert c.execute(select(schema.published_history)).all() == []
        assert queries.player(c, MEMBER) is None


def test_a_new_import_replaces_the_member_s_history(office: Office, tmp_path: Path) -> None:
    """US Chess re-rates: the history imported later is the member's, not a mix."""
    office.import_history([read_history(HISTORY, member=MEMBER)])
    raw: dict[str, Any] = json.loads(HISTORY.read_text())
    raw["items"] = raw["items"][:1]  # only the latest section, ACC MAY 2026
    shorter = tmp_path / "shorter.json"
    shorter.write_text(json.dumps(raw))
    office.import_history([read_history(shorter, member=MEMBER)])
    with office.engine.connect() as c:
        player = queries.player(c, MEMBER)
    assert player is not None
    assert [(h["event_id"], h["post"]) for h in player["published"]] == \
        [("202605290393", 1570.72)]
