"""Titles and norm counts a member list carries (`import-members`): read from the CSV
and JSON lists, checked through the one domain (core/domain.py: Title.date, Title.norms),
stored (member_titles, member_norms) and where `title_status` starts from. On SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from tests.office.test_titles import DAYS, X, wins

from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.member_list import read_members
from uscf_ratings.office.errors import AdmissionError
from uscf_ratings.office.office import Office
from uscf_ratings.office.titles import member_title_status


def test_a_list_s_titles_and_norms_are_where_the_titles_start(office: Office,
                                                              tmp_path: Path) -> None:
    """X brings 3rd Category (2019-05-04) and two N:C norms and one N:1 norm from the list.
    With the four N:C norms of events 0-3 (tests/office/test_titles.py), on event 2's day
    X has 2 + 3 = 5 norms at 2000 and 1 more at 1800: 1st Category (six norms at 1800 or
    above) is earned at event 2 once X is established, which X is not (12 games): it
    waits. Candidate Master waits too. The imported title is held from the start."""
    listed = tmp_path / "members.csv"
    listed.write_text("id,name,titles,norms_C,norms_1\n"
                      f"{X},\"Member, X\",ThirdCategory:2019-05-04,2,1\n")
    office.import_members(read_members(listed))
    for n in range(4):
        office.rate(wins(n, 4, 2000))
    with office.engine.connect() as c:
        status = member_title_status(c, X, DAYS[2])
    third = next(t for t in status.titles)
    assert (third.key, third.date, third.event) == ("ThirdCategory", date(2019, 5, 4), None)
    progress = {p.code: p for p in status.progress}
    assert (progress["N:C"].norms, progress["N:1"].norms, progress["N:M"].norms) == (5, 6, 0)
    # the list's two N:C norms are one entry of count 2, then the pool's three
    assert [(n.event, n.count) for n in progress["N:C"].earned] == [
        (None, 2), ("E0", 1), ("E1", 1), ("E2", 1)]
    assert progress["N:1"].waiting == "waiting for an established rating"
    assert progress["N:3"].held and progress["N:3"].waiting is None


def test_the_json_list_carries_them_too_and_a_second_list_replaces_a_count(
        office: Office, tmp_path: Path) -> None:
    listed = tmp_path / "members.json"
    listed.write_text('{"members": [{"id": "%s", "titles": {"NationalMaster": null}, '
                      '"norms": {"N:S": 4}}]}' % X)
    office.import_members(read_members(listed))
    listed.write_text('{"members": [{"id": "%s", "norms": {"N:S": 5}}]}' % X)
    done = office.import_members(read_members(listed))
    assert done.changes == (f"member {X}: N:S norms 4 -> 5",)
    office.rate(wins(0, 4, 2000))  # titles are tested at each stored event
    with office.engine.connect() as c:
        status = member_title_status(c, X)
    assert [(t.key, t.date) for t in status.titles] == [("NationalMaster", None)]
    # five N:S norms (and a sixth at 2000, event 0), but no established rating of 2400
    # (X is unrated before event 0): Senior Life Master waits
    assert status.progress[-1].norms == 5 and status.progress[4].norms == 6
    assert status.progress[-1].waiting == "waiting for an established rating of 2400"


@pytest.mark.parametrize(("cells", "message"), [
    ("GrandMaster,", "line 2.titles: 'GrandMaster' is not a title (expected one of "
                     "FourthCategory, ThirdCategory"),
    ("ThirdCategory:2019-13-01,", "line 2.titles.ThirdCategory: '2019-13-01' is not a date"),
    (",two", "line 2.norms.N:C: 'two' is not a whole number"),
])
def test_a_list_s_bad_title_or_norm_is_refused_naming_its_line(
        tmp_path: Path, cells: str, message: str) -> None:
    listed = tmp_path / "members.csv"
    listed.write_text(f"id,titles,norms_C\n{X},{cells}\n")
    with pytest.raises(ParseError) as refused:
        read_members(listed)
    assert message in str(refused.value)


def test_a_count_or_date_out_of_the_domain_is_refused_and_nothing_stored(
        office: Office, tmp_path: Path) -> None:
    listed = tmp_path / "members.csv"
    listed.write_text(f"id,titles,norms_4\n{X},FourthCategory:1800-01-01,-1\n")
    with pytest.raises(AdmissionError) as refused:
        office.import_members(read_members(listed))
    text = str(refused.value)
    assert f"member {X}: FourthCategory title's date 1800-01-01: expected a date from" in text
    assert f"member {X}: N:4 norms -1: expected a whole number from 0 to 10000" in text
    with office.engine.connect() as c:
        assert member_title_status(c, X).titles == ()
