"""Reading the rating supplement US Chess publishes for directors (formats/supplement.py).

The text fixtures are in tests/formats/data/supplement/. In ``rtglist_wide.txt`` only the
header names ``rtglistdate`` and ``rtgreg`` are names seen in a real file; ``c1``... are
placeholders (the reader goes by position there, as the module text explains).
The DBF fixtures are written here by :func:`write_dbf`, whose byte layout is explained there.
"""

from __future__ import annotations

import struct
import sys
from datetime import date
from pathlib import Path

import pytest

from uscf_ratings.core.model import System
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.member_list import read_members
from uscf_ratings.formats.member_records import Baseline, MemberRecord
from uscf_ratings.formats.supplement import (
    ESTABLISHED_GAMES,
    ParsedRating,
    parse_date,
    parse_rating,
    read_supplement,
    read_supplement_entries,
)

DATA = Path(__file__).parent / "data" / "supplement"


def by_id(records: list[MemberRecord]) -> dict[str, MemberRecord]:
    return {r.id: r for r in records}


def wheres(error: pytest.ExceptionInfo[ParseError]) -> list[str]:
    return [issue.where for issue in error.value.issues]


# --- writing a tiny dBase III file --------------------------------------------------------

Field = tuple[str, str, int, int]  # name, type (C, N, D), length, decimals


def write_dbf(path: Path, fields: list[Field], records: list[list[str]],
              deleted: frozenset[int] = frozenset()) -> Path:
    """Write a dBase III table as US Chess's supplement files are laid out.

    Header, 32 bytes: byte 0 the version (03h: dBase III, no memo file); bytes 1-3 the date
    of the last update (year - 1900, month, day); bytes 4-7 the number of records
    (little-endian); bytes 8-9 the length of the header (32 + 32 per field + 1); bytes 10-11
    the length of a record (1 + the field lengths); bytes 12-31 zero.
    Then one 32-byte descriptor per field: bytes 0-10 the name, padded with 00h; byte 11 the
    type (C text, N number, D date as YYYYMMDD); bytes 12-15 zero; byte 16 the length; byte
    17 the decimals; bytes 18-31 zero. Then 0Dh, with no 00h after it (US Chess's files have
    none, per the discourse thread cited in the module).
    Each record: a flag byte (20h live, 2Ah deleted), then the fields, text left-justified
    and numbers right-justified, padded with spaces. The file ends with 1Ah.
    """
    header_length = 32 + 32 * len(fields) + 1
    record_length = 1 + sum(f[2] for f in fields)
    out = bytearray(struct.pack("<BBBBIHH20x", 0x03, 126, 3, 1, len(records), header_length,
                                record_length))
    for name, kind, length, decimals in fields:
        out += struct.pack("<11sc4xBB14x", name.encode("ascii"), kind.encode("ascii"), length,
                           decimals)
    out += b"\r"
    for i, values in enumerate(records):
        out += b"*" if i in deleted else b" "
        for (name, kind, length, _), value in zip(fields, values, strict=True):
            raw = value.encode("cp1252")
            assert len(raw) <= length, (name, value)
            out += raw.rjust(length) if kind == "N" else raw.ljust(length)
    out += b"\x1a"
    path.write_bytes(bytes(out))
    return path


GOLDEN_FIELDS: list[Field] = [
    ("MEM_ID", "C", 8, 0), ("MEM_NAME", "C", 17, 0), ("MEM_STATE", "C", 2, 0),
    ("MEM_EXP_DT", "D", 8, 0), ("R_RATING", "C", 7, 0), ("Q_RATING", "C", 7, 0),
    ("B_RATING", "N", 4, 0), ("SUPP_DATE", "C", 6, 0),
]


# --- the rating cell ------------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("1856", ParsedRating(1856.0, None, "")),
    ("1790P12", ParsedRating(1790.0, 12, "P")),
    ("1790 P 12", ParsedRating(1790.0, 12, "P")),
    ("1456/12", ParsedRating(1456.0, 12, "P")),
    ("1456P  ", ParsedRating(1456.0, None, "P")),
    ("1620E  ", ParsedRating(1620.0, None, "E")),
    ("2210*", ParsedRating(2210.0, None, "")),
    ("1500.0", ParsedRating(1500.0, None, "")),
    ("", None), ("   ", None), ("0", None), ("   0U  ", None), ("1500U  ", None), ("U", None),
    ("Unrated", None),
])
def test_rating_cells(text: str, expected: ParsedRating | None) -> None:
    assert parse_rating(text) == expected


@pytest.mark.parametrize("text", ["15OO", "1400Q", "1500E12", "99", "3001", "1500P0", "P12"])
def test_malformed_rating_cells(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rating(text)


def test_dates() -> None:
    assert parse_date("2026-03-01") == date(2026, 3, 1)
    assert parse_date("20260301") == date(2026, 3, 1)
    assert parse_date("03/01/2026") == date(2026, 3, 1)
    assert parse_date("2026-03") == parse_date("202603") == date(2026, 3, 1)
    assert parse_date("") is None and parse_date("00000000") is None
    for bad in ("2026-02-30", "2026-13-01", "March 2026", "1/2/26"):
        with pytest.raises(ValueError):
            parse_date(bad)


# --- rtglist.txt ------------------------------------------------------------------------------


def test_rtglist_wide_maps_every_field() -> None:
    entries = {e.member.id: e for e in read_supplement_entries(DATA / "rtglist_wide.txt")}
    assert set(entries) == {"12345678", "23456789", "34567890"}
    smith = entries["12345678"]
    assert smith.member.name == "SMITH, JOHN" and smith.member.state == "CA"
    assert smith.country == "USA" and smith.status == "A"
    assert smith.fide_id == "2012345" and smith.fide_federation == "USA"
    listed = date(2026, 3, 1)
    assert smith.member.ratings == {
        System.R: Baseline(1856.0, ESTABLISHED_GAMES, as_of=listed),  # column 10
        System.Q: Baseline(1790.0, 12, as_of=listed),  # column 12: provisional on 12 games
        System.OR: Baseline(1500.0, 4, as_of=listed),  # column 16: "1500/4"
        System.OB: Baseline(1620.0, ESTABLISHED_GAMES, as_of=listed),  # column 20: "1620E"
    }  # blitz (column 14) blank and online quick (column 18) "0": unrated, skipped
    assert smith.assumed_games == {System.R, System.OB}  # N not given: 26 stands in
    doe = entries["23456789"].member
    assert doe.ratings == {System.R: Baseline(2210.0, 26, as_of=date(2025, 11, 1)),
                           System.B: Baseline(2150.0, 26, as_of=date(2025, 11, 1))}
    assert entries["23456789"].fide_id is None
    newcomer = entries["34567890"].member  # a member who was never rated is still a member
    assert newcomer.name == "NEWCOMER, PAT" and newcomer.ratings == {}


def test_rtglist_narrow_without_header() -> None:
    [lee] = read_supplement(DATA / "rtglist_narrow.txt")
    feb = date(2026, 2, 1)
    assert lee.id == "45678901" and lee.state == "WA"
    assert lee.ratings == {System.R: Baseline(1400.0, 20, as_of=feb),
                           System.Q: Baseline(1350.0, 26, as_of=feb),
                           System.OR: Baseline(1200.0, 26, as_of=feb),
                           System.OB: Baseline(1100.0, 3, as_of=feb)}


def test_established_games_can_be_chosen() -> None:
    [lee] = read_supplement(DATA / "rtglist_narrow.txt", established_games=50)
    assert lee.ratings[System.Q].games == 50
    assert lee.ratings[System.R].games == 20  # a provisional count is never replaced


def test_rtglist_reports_every_problem_with_line_and_column() -> None:
    with pytest.raises(ParseError) as error:
        read_supplement(DATA / "rtglist_bad.txt")
    issues = {issue.where: issue.message for issue in error.value.issues}
    assert list(issues) == [
        "line 2, column 1 (id)",
        "line 3, column 10 (R_rating)",
        "line 3, column 12 (Q_rating)",
        "line 4, column 9 (as_of)",
        "line 5",
        "line 6, column 10 (R_rating)",
        "line 7, column 1 (id)",
    ]
    assert "not a member ID" in issues["line 2, column 1 (id)"]
    assert "'15OO' is not a rating" in issues["line 3, column 10 (R_rating)"]
    assert "'2026-02-30'" in issues["line 4, column 9 (as_of)"]
    assert "3 columns" in issues["line 5"]
    assert "provisional but gives no game count" in issues["line 6, column 10 (R_rating)"]
    assert "also at line 1" in issues["line 7, column 1 (id)"]
    assert str(DATA / "rtglist_bad.txt") in str(error.value)


def test_provisional_games_can_be_assumed() -> None:
    with pytest.raises(ParseError) as error:
        read_supplement(DATA / "rtglist_bad.txt", provisional_games=5)
    assert "line 6, column 10 (R_rating)" not in wheres(error)


# --- CSV or TSV with a header -----------------------------------------------------------------


def test_keyed_csv_maps_every_field() -> None:
    entries = {e.member.id: e for e in read_supplement_entries(DATA / "keyed.csv")}
    smith = entries["12345678"]
    assert smith.member == MemberRecord(
        id="12345678", name="SMITH, JOHN", state="CA", birth_date=date(2001, 5, 17),
        fide_rating=1905.0,
        ratings={
            System.R: Baseline(1856.0, 26, as_of=date(2026, 3, 1)),
            System.Q: Baseline(1790.0, 26, as_of=date(2026, 2, 1)),  # its own date column
            System.B: Baseline(1700.0, 9, as_of=date(2026, 3, 1)),  # marker and column agree
            System.OQ: Baseline(1550.0, 26, as_of=date(2026, 3, 1)),
        })  # OR blank and OB "U": unrated
    assert smith.expires == date(2027, 1, 31) and smith.fide_id == "2012345"
    assert smith.assumed_games == {System.R, System.Q, System.OQ}
    assert entries["23456789"].assumed_games == frozenset()
    doe = entries["23456789"].member
    assert doe.ratings == {System.R: Baseline(2210.0, 41, as_of=date(2026, 3, 1))}  # games column
    assert entries["23456789"].expires is None


def test_keyed_csv_reports_every_problem(tmp_path: Path) -> None:
    with pytest.raises(ParseError) as error:
        read_supplement(DATA / "keyed_bad.csv")
    assert wheres(error) == [
        "line 2, column 'expires'",
        "line 2, column 'R_games'",
        "line 3, column 'R_rating'",
        "line 4",
    ]
    messages = [issue.message for issue in error.value.issues]
    assert "'forty' is not a whole number" in messages[1]
    assert "says 12 games, the games column 11" in messages[2]
    assert "7 columns where the header has 6" in messages[3]


def test_a_header_without_an_id_column(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("player,rating\n12345678,1500\n")
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert "no member ID column" in str(error.value)
    [record] = read_supplement(path, columns={"player": "id"})
    assert record.id == "12345678" and record.ratings[System.R].rating == 1500


def test_tab_separated_with_a_header(tmp_path: Path) -> None:
    path = tmp_path / "list.tsv"
    path.write_text("USCF ID\tName\tQuick Rating\tQuick Games\n12345678\tLEE, KIM\t1300\t7\n")
    [record] = read_supplement(path)
    assert record.ratings == {System.Q: Baseline(1300.0, 7)}


def test_an_empty_file_has_no_members(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("\n\n")
    assert read_supplement(path) == []


def test_read_members_hands_supplements_over() -> None:
    assert [r.id for r in read_members(DATA / "rtglist_narrow.txt")] == ["45678901"]
    assert len(read_members(DATA / "keyed.csv")) == 2  # a .csv whose header is not "id,..."


# --- the dBase III (Golden Database) file ----------------------------------------------------


def test_dbf_maps_every_field(tmp_path: Path) -> None:
    path = write_dbf(tmp_path / "TARATSUP.DBF", GOLDEN_FIELDS, [
        ["12345678", "SMITH, JOHN", "CA", "20270131", "1856E  ", "1456/12", "1700", "202603"],
        ["99999999", "GONE, DELETED", "CA", "20200101", "1500E  ", "", "", "202603"],
        ["23456789", "DOE, JANE", "NY", "        ", "   0U  ", "1350P  ", "", "202602"],
    ], deleted=frozenset({1}))
    entries = read_supplement_entries(path, provisional_games=8)
    assert [e.member.id for e in entries] == ["12345678", "23456789"]  # the deleted one skipped
    smith, doe = entries
    march = date(2026, 3, 1)
    assert smith.member == MemberRecord(
        id="12345678", name="SMITH, JOHN", state="CA",
        ratings={System.R: Baseline(1856.0, 26, as_of=march),
                 System.Q: Baseline(1456.0, 12, as_of=march),
                 System.B: Baseline(1700.0, 26, as_of=march)})
    assert smith.expires == date(2027, 1, 31)
    assert doe.expires is None  # a blank D field
    assert doe.member.ratings == {System.Q: Baseline(1350.0, 8, as_of=date(2026, 2, 1))}
    assert smith.assumed_games == {System.R, System.B} and doe.assumed_games == {System.Q}


def test_dbf_reports_every_problem_with_record_and_field(tmp_path: Path) -> None:
    path = write_dbf(tmp_path / "TARATSUP.DBF", GOLDEN_FIELDS, [
        ["12345678", "SMITH, JOHN", "CA", "20271340", "1856E  ", "", "", "202603"],
        ["ABC", "BAD, ID", "CA", "20270101", "18x6   ", "1456P  ", "", "2026"],
        ["23456789", "DOE, JANE", "NY", "20270101", "1500", "", "", "202603"],
    ])
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert wheres(error) == [
        "record 1, field MEM_EXP_DT",
        "record 2, field MEM_ID",
        "record 2, field R_RATING",
        "record 2, field Q_RATING",
        "record 2, field SUPP_DATE",
    ]
    messages = [issue.message for issue in error.value.issues]
    assert "'20271340' is not a date" in messages[0]
    assert "'2026' is not a date" in messages[4]


def test_dbf_field_names_can_be_mapped(tmp_path: Path) -> None:
    fields: list[Field] = [("PLAYERNO", "C", 8, 0), ("RTG1", "C", 7, 0), ("RTG2", "C", 7, 0)]
    path = write_dbf(tmp_path / "blitz.dbf", fields, [["12345678", "1856E  ", "1720P20"]])
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert "no member ID field among PLAYERNO, RTG1, RTG2" in str(error.value)
    # The blitz edition of the DBF files puts blitz where the other has quick: say so.
    [record] = read_supplement(path, columns={"PLAYERNO": "id", "RTG1": "R_rating",
                                              "RTG2": "B_rating"})
    assert record.ratings == {System.R: Baseline(1856.0, 26), System.B: Baseline(1720.0, 20)}


def test_read_members_reads_a_dbf(tmp_path: Path) -> None:
    path = write_dbf(tmp_path / "TARATSUP.DBF", GOLDEN_FIELDS,
                     [["12345678", "SMITH, JOHN", "CA", "20270131", "1856E  ", "", "", "202603"]])
    assert [r.id for r in read_members(path)] == ["12345678"]


def test_a_missing_file() -> None:
    with pytest.raises(ParseError) as error:
        read_supplement(DATA / "no-such-file.txt")
    assert "cannot be read" in str(error.value)


def test_columns_must_name_known_keys() -> None:
    with pytest.raises(ValueError, match="not a key"):
        read_supplement(DATA / "keyed.csv", columns={"uscf_id": "member"})


def test_a_dbf_that_is_not_one(tmp_path: Path) -> None:
    path = tmp_path / "TARATSUP.DBF"
    path.write_bytes(b"\x03\x7e\x03")  # a header cut short
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert wheres(error) == ["header"] and "not a dBase III file" in str(error.value)


def test_dbf_is_read_without_dbfread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The supplement's DBF files go through the project's one dBase reader
    (formats.dbf.read_table): dbfread is no dependency of the package."""
    monkeypatch.setitem(sys.modules, "dbfread", None)  # any `import dbfread` now fails
    path = write_dbf(tmp_path / "TARATSUP.DBF", GOLDEN_FIELDS,
                     [["12345678", "MÜLLER, ANNA", "CA", "20270131", "1856E  ", "", "", "202603"]])
    [record] = read_supplement(path)
    # "Ü" is byte DCh in Windows-1252, the code page of a file whose header names none.
    assert record.name == "MÜLLER, ANNA"
    assert record.ratings == {System.R: Baseline(1856.0, 26, as_of=date(2026, 3, 1))}


def test_dbf_problems_name_records_as_numbered_in_the_file(tmp_path: Path) -> None:
    """A deleted record keeps its place: the bad record is the file's third, as a dBase
    program shows it, although only two records are live."""
    path = write_dbf(tmp_path / "TARATSUP.DBF", GOLDEN_FIELDS, [
        ["99999999", "GONE, DELETED", "CA", "20200101", "1500E  ", "", "", "202603"],
        ["12345678", "SMITH, JOHN", "CA", "20270131", "1856E  ", "", "", "202603"],
        ["23456789", "DOE, JANE", "NY", "20270101", "18x6   ", "", "", "202603"],
    ], deleted=frozenset({0}))
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert wheres(error) == ["record 3, field R_RATING"]


def test_a_dbf_with_fewer_records_than_its_header_says(tmp_path: Path) -> None:
    row = ["12345678", "SMITH, JOHN", "CA", "20270131", "1856E  ", "", "", "202603"]
    path = write_dbf(tmp_path / "TARATSUP.DBF", GOLDEN_FIELDS,
                     [row, ["23456789"] + row[1:], ["34567890"] + row[1:]])
    # A record is 1 flag byte + 8 + 17 + 2 + 8 + 7 + 7 + 4 + 6 = 60 bytes; cutting the last
    # record and the final 1Ah leaves two of the three the header counts.
    path.write_bytes(path.read_bytes()[:-61])
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert wheres(error) == ["header"]
    assert "the header says 3 records of 60 bytes, but only 2 follow" in str(error.value)


def test_two_columns_or_fields_for_one_key_are_refused(tmp_path: Path) -> None:
    """The header's "ID" and "USCF ID" both name the member ID (ALIASES): none is chosen."""
    path = tmp_path / "list.csv"
    path.write_text('ID,USCF ID,Name\n12345678,23456789,"LEE, KIM"\n')
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert [str(issue) for issue in error.value.issues] == [
        "line 1: two columns read as id: ID, USCF ID"]
    fields: list[Field] = [("MEM_ID", "C", 8, 0), ("USCF_ID", "C", 8, 0)]
    path = write_dbf(tmp_path / "TARATSUP.DBF", fields, [["12345678", "23456789"]])
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert [str(issue) for issue in error.value.issues] == [
        "header: two fields read as id: MEM_ID, USCF_ID"]


def test_numbers_are_ascii_digits(tmp_path: Path) -> None:
    """Another script's digits read as numbers by Python's int() and float() (and by \\d) are
    refused, as in every reader (formats/common.py); so is a count of 5,000 digits."""
    path = tmp_path / "list.csv"
    path.write_text("USCF ID,Rating,Quick Rating,Quick Games,FIDE ID\n"
                    "1234567¹,١٥٠٠,1500,１２,20１\n"
                    f"23456789,1500,1500,{'9' * 5000},\n", encoding="utf-8")
    with pytest.raises(ParseError) as error:
        read_supplement(path)
    assert [(issue.where, issue.message[:40]) for issue in error.value.issues] == [
        ("line 2, column 'USCF ID'", "'1234567¹' is not a member ID (digits on"),
        ("line 2, column 'Rating'", "'١٥٠٠' is not a rating (like 1456, 1456P"),
        ("line 2, column 'Quick Games'", "'１２' is not a whole number (up to 9 ASCI"),
        ("line 2, column 'FIDE ID'", "'20１' is not a FIDE ID (digits only)"),
        ("line 3, column 'Quick Games'", "'" + '9' * 39),
    ]
    assert error.value.issues[-1].message.endswith("is not a whole number (up to 9 ASCII digits)")
