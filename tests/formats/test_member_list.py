"""Reading an office's own member list (formats/member_list.py): CSV and JSON, every field,
and every problem refused with its line (or JSON path) and field. Expected records are
written out by hand from the file text in each test."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from uscf_ratings.core.model import System
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.member_list import read_members
from uscf_ratings.formats.member_records import Baseline, MemberRecord

FULL_HEADER = ("id,name,birth_date,adult,state,fide_rating,fide_date,cfc_rating,cfc_date,"
               "canadian_resident,R_rating,R_games,R_date,R_wins,R_draws,R_losses,R_events3,"
               "R_peak,R_floor,R_olm,R_games_above_2200,Q_rating,Q_games\n")
ANN = MemberRecord(
    id="50000001", name="Ann Lee", birth_date=date(2012, 5, 1), adult=False, state="WA",
    fide_rating=1650.0, fide_date=date(2026, 1, 1), cfc_rating=1700.0, cfc_date=date(2025, 12, 1),
    canadian_resident=False,
    ratings={System.R: Baseline(1734.5, 40, as_of=date(2026, 2, 1), wins=20, draws=8, losses=12,
                                events3=9, peak=1800.0, floor=1500.0, olm=True,
                                games_above_2200=0),
             System.Q: Baseline(1600.0, 7)})


def issues(path: Path) -> list[str]:
    with pytest.raises(ParseError) as error:
        read_members(path)
    assert error.value.source == str(path)
    return [str(issue) for issue in error.value.issues]


def test_csv_reads_every_column(tmp_path: Path) -> None:
    path = tmp_path / "members.csv"
    path.write_text(FULL_HEADER +
                    "50000001,Ann Lee,2012-05-01,no,WA,1650,2026-01-01,1700,2025-12-01,0,"
                    "1734.5,40,2026-02-01,20,8,12,9,1800,1500,yes,0,1600,7\n"
                    "50000002,Bo Diaz,,,,,,,,,,,,,,,,,,,,,\n")
    assert read_members(path) == [ANN, MemberRecord(id="50000002", name="Bo Diaz")]


def test_json_reads_every_field(tmp_path: Path) -> None:
    path = tmp_path / "members.json"
    path.write_text('{"members": [{"id": "50000001", "name": "Ann Lee", "birth_date": "2012-05-01",'
                    ' "adult": false, "state": "WA", "fide_rating": 1650, "fide_date": "2026-01-01",'
                    ' "cfc_rating": 1700, "cfc_date": "2025-12-01", "canadian_resident": false,'
                    ' "ratings": {"R": {"rating": 1734.5, "games": 40, "date": "2026-02-01",'
                    ' "wins": 20, "draws": 8, "losses": 12, "events3": 9, "peak": 1800,'
                    ' "floor": 1500, "olm": true, "games_above_2200": 0},'
                    ' "Q": {"rating": 1600, "games": 7.0}}}]}')
    assert read_members(path) == [ANN]


def test_csv_problems_name_the_line_of_the_file(tmp_path: Path) -> None:
    """A blank line is skipped but counted, so line 4 is the file's fourth line; a row with
    a cell more than the header would lose it, so it is refused."""
    path = tmp_path / "members.csv"
    path.write_text("id,name,R_rating,R_games\n"
                    "50000001,Ann Lee,1500,40\n"
                    "\n"
                    "50000002,Bo Diaz,１５００,4.5\n"
                    "50000003,Cy Park,1500,40,extra\n"
                    "50000004,Di Kim,1500\n")
    assert issues(path) == [
        "line 4.ratings.R.rating: '１５００' is not a number (up to 9 ASCII digits, such as 1850 or 1850.37)",
        "line 4.ratings.R.games: '4.5' is not a whole number (up to 9 ASCII digits, such as 12)",
        "line 5: 5 columns where the header has 4",
        "line 6: 3 columns where the header has 4",
    ]


def test_csv_columns_it_has_no_place_for_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "members.csv"
    path.write_text("id,name,R_rating,R_gmes,name\n50000001,Ann Lee,1500,40,Ann Lee\n")
    found = issues(path)
    assert [line.split(" (expected")[0] for line in found] == [
        "line 1: column 'R_gmes' is not a member-list column"]
    assert "S_games" in found[0]
    path.write_text("id,name,R_rating,R_games,name\n50000001,Ann Lee,1500,40,Ann Lee\n")
    assert issues(path) == ["line 1: column 'name' is given twice"]


def test_json_problems_name_the_path_and_what_was_expected(tmp_path: Path) -> None:
    path = tmp_path / "members.json"
    path.write_text('[{"id": "1", "ratings": [1500]},'
                    ' {"id": "2", "ratings": {"R": 1500}},'
                    ' {"id": "3", "ratings": {"R": {"rating": 1500, "games": 12.7}}},'
                    ' {"id": "4", "ratings": {"R": {"rating": NaN, "games": true}}},'
                    ' {"id": "5", "rating": 1500}]')
    assert issues(path) == [
        'members[0].ratings: expected an object of systems, such as {"R": {"rating": 1500, '
        '"games": 30}}, not a list',
        'members[1].ratings.R: expected an object such as {"rating": 1500, "games": 30}, '
        'not a number',
        "members[2].ratings.R.games: 12.7 is not a whole number (up to 9 ASCII digits, such as 12)",
        "members[3].ratings.R.rating: nan is not a number (up to 9 ASCII digits, such as 1850 or 1850.37)",
        "members[3].ratings.R.games: True is not a whole number (up to 9 ASCII digits, such as 12)",
        "members[4]: 'rating' is not a member field (expected id, name, birth_date, adult, state, "
        "fide_rating, fide_date, cfc_rating, cfc_date, canadian_resident, ratings, titles, "
        "norms)",
    ]


def test_a_list_of_our_own_is_utf8(tmp_path: Path) -> None:
    path = tmp_path / "members.csv"
    path.write_bytes("id,name\n50000001,Müller\n".encode("cp1252"))  # ü is byte FCh
    assert issues(path) == ["line 2: byte 0xFC is not UTF-8: expected UTF-8 text"]
    path = tmp_path / "members.json"
    path.write_bytes('[{"id": "1", "name": "Müller"}]'.encode("cp1252"))
    assert issues(path) == ["line 1: byte 0xFC is not UTF-8: expected UTF-8 text"]


def test_a_windows_1252_supplement_named_csv_goes_to_the_supplement_reader(tmp_path: Path) -> None:
    path = tmp_path / "supplement.csv"
    path.write_bytes("USCF ID,Name,Rating\n12345678,\"MÜLLER, ANNA\",1500\n".encode("cp1252"))
    [record] = read_members(path)
    assert record.name == "MÜLLER, ANNA"
    assert record.ratings == {System.R: Baseline(1500.0, 26)}  # N not given: 26 stands in


def test_a_file_that_cannot_be_read(tmp_path: Path) -> None:
    for name in ("gone.csv", "gone.json"):
        assert issues(tmp_path / name)[0].startswith("cannot be read")


def test_numbers_of_thousands_of_digits(tmp_path: Path) -> None:
    path = tmp_path / "members.json"
    text = '[{"id": "1", "ratings": {"R": {"rating": 1500, "games": %s}}}]' % ("1" * 5000)
    path.write_text(text)
    [problem] = issues(path)  # the one rule of every reader's JSON (formats.bounds)
    column = text.index("1" * 5000) + 1
    assert problem == f"line 1 column {column}: a number of 5,000 characters; at most 100 are read"
    path = tmp_path / "members.csv"
    path.write_text(f"id,R_rating,R_games\n1,1500,{'1' * 5000}\n")
    [problem] = issues(path)
    assert problem.startswith("line 2.ratings.R.games: '111")
    assert problem.endswith("' is not a whole number (up to 9 ASCII digits, such as 12)")
