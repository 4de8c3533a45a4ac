"""The US Chess rating report (format 2C, three dBase files): reading the real SwissSys
export, the hand-made fixtures for each oddity of the notes, malformed files with their
exact errors, and the writer and the dBase reader checked against an independent reader
(dbfread: only the tests use it, from the ``test`` extra; the package reads every dBase file
with its own `dbf.read_table`)."""

from __future__ import annotations

import re
import shutil
import struct
import zipfile
from dataclasses import replace
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest
from tests.conftest import REPO, skip_or_fail

from uscf_ratings.core.formulas import n_star
from uscf_ratings.core.model import (
    Event,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats import dbf
from uscf_ratings.formats.errors import Issue, ParseError
from uscf_ratings.formats.event_json import read_event

DATA = Path(__file__).resolve().parent / "data"
FIXTURES = DATA / "dbf"
NAMES = ("THEXPORT.DBF", "TSEXPORT.DBF", "TDEXPORT.DBF")


@pytest.fixture
def dbfread() -> ModuleType:
    """dbfread, the independent dBase reader these tests check ours against (test extra)."""
    try:
        import dbfread
    except ImportError:
        skip_or_fail("dbfread is not installed: it is in the test extra "
                     "(pip install -e '.[test]')")
    return dbfread


def cells(player: Player) -> str:
    return " ".join(f"{r.code}{r.opponent or ''}" for r in player.results)


def rating(player: Player, system: System = System.R) -> tuple[float, int, bool] | None:
    r = player.ratings.get(system)
    return None if r is None else (r.rating, r.games, r.games_known)


# ---------------------------------------------------------------------------------------
# The real SwissSys 11 export (shared/formats/uscf_dbf)
# ---------------------------------------------------------------------------------------

REAL = ("better-swisssys_swisssys11_dbf_test", "better-swisssys_seniorproj_test1")


@pytest.mark.parametrize("folder", REAL)
def test_real_report_every_player_and_result(shared: Path, folder: str,
                                             dbfread: ModuleType) -> None:
    """What MANIFEST.md says of the file: toy event "dbf_test", 2026-03-30, one section
    "open", R, Swiss, one round; IDs 12345 and 54321 rated 2000 and 1999; W2W and L1B."""
    path = shared / "formats" / "uscf_dbf" / folder
    event = dbf.read(path)
    assert (event.name, event.start_date, event.end_date) == ("dbf_test", date(2026, 3, 30),
                                                              date(2026, 3, 30))
    assert event.id == folder  # H_EVENT_ID is blank: the folder name stands in
    (section,) = event.sections
    assert (section.number, section.name, section.systems, section.type) == (
        1, "open", (System.R,), SectionType.SWISS)
    assert section.time_control is None  # S_TIMECTL is blank
    got = [(p.pair, p.id, p.name, rating(p), cells(p)) for p in section.players]
    assert got == [(1, "12345", "Peyton", (2000.0, 26, False), "W2"),
                   (2, "54321", "David", (1999.0, 26, False), "L1")]
    # and the same, record by record, from an independent reader
    independent = []
    for rec in dbfread.DBF(str(path / "TDEXPORT.DBF")):
        m = re.fullmatch(r"([WLDXFHBU])(\d*)([WB]?)", rec["D_RND01"].strip())
        assert m is not None
        independent.append((int(rec["D_PAIR_NUM"]), rec["D_MEM_ID"].strip(), rec["D_NAME"].strip(),
                            (float(rec["D_RATING"]), 26, False), m[1] + m[2]))
    assert got == independent
    assert rate_section(section).player(1).ratings[System.R].post is not None


def test_real_report_by_one_file_and_as_a_zip(shared: Path, tmp_path: Path) -> None:
    folder = shared / "formats" / "uscf_dbf" / REAL[0]
    by_folder = dbf.read(folder)
    by_file = dbf.read(folder / "TSEXPORT.DBF")  # its siblings are beside it
    assert by_file.sections == by_folder.sections
    archive = tmp_path / "upload.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for name in NAMES:
            z.write(folder / name, f"deep/inside/{name.lower()}")
    zipped = dbf.read(archive)
    assert zipped.sections == by_folder.sections and zipped.id == "upload"


# ---------------------------------------------------------------------------------------
# Hand-made fixtures (tests/formats/data/make_dbf_fixtures.py)
# ---------------------------------------------------------------------------------------

def test_fixtures_are_what_the_script_builds() -> None:
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_dbf_fixtures", DATA / "make_dbf_fixtures.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    for path, data in script.build(FIXTURES).items():
        assert path.read_bytes() == data, f"{path} differs: run make_dbf_fixtures.py"


def test_legacy_layout_with_continuation_records() -> None:
    """9-character event id, 5-character cells, rounds 11-12 in D_REC_SEQ 2 records, no
    names or ratings, one deleted record; a round robin played four times over."""
    event = dbf.read(FIXTURES / "legacy_5char")
    assert (event.id, event.name, event.start_date, event.end_date) == (
        "199803070", "Old Timers Quad", date(1998, 3, 7), date(1998, 3, 8))
    (section,) = event.sections
    assert section.time_control == "G/15" and section.systems == (System.R,)
    assert [p.pair for p in section.players] == [1, 2, 3, 4]  # pair 9 was deleted
    assert [p.id for p in section.players] == ["10000001", "10000002", "10000003", "10000004"]
    assert all(p.name == "" and not p.ratings for p in section.players)
    assert [cells(p) for p in section.players] == [
        "W2 W3 W4 " * 3 + "W2 W3 W4",
        "L1 W4 D3 " * 3 + "L1 W4 D3",
        "L4 L1 D2 " * 3 + "L4 L1 D2",
        "W3 L2 L1 " * 3 + "W3 L2 L1",
    ]
    assert [r.round for r in section.players[0].results] == list(range(1, 13))


def test_dates_as_d_numbers_as_n_and_provisional_ratings() -> None:
    event = dbf.read(FIXTURES / "typed_dates_numbers")
    assert (event.id, event.name, event.start_date, event.end_date) == (
        "202405040007", "Spring Swiss", date(2024, 5, 4), date(2024, 5, 5))
    one, two = event.sections
    assert (one.number, one.name, one.systems, one.time_control) == (
        1, "Championship", (System.R, System.Q), "G/45;d5")
    assert (one.start_date, one.end_date) == (date(2024, 5, 4), date(2024, 5, 5))
    # a dual section's one rating column is the Regular rating
    assert [rating(p) for p in one.players] == [
        (1456.0, 12, True), (1501.0, 15, True), (1800.0, 26, False), None]
    assert [cells(p) for p in one.players] == ["W2 D3 X", "L1 W4 H", "W4 D1 F", "L3 L2 B"]
    assert (two.number, two.name, two.systems) == (2, "Booster", (System.Q,))
    assert two.start_date == two.end_date == date(2024, 5, 5)  # only S_BEG_DATE given
    assert [rating(p, System.Q) for p in two.players] == [None, (980.0, 26, False)]
    assert [cells(p) for p in two.players] == ["D2 W2", "D1 L1"]  # U0 padding dropped


def test_round_robin_by_opponent_columns() -> None:
    event = dbf.read(FIXTURES / "round_robin")
    (section,) = event.sections
    assert section.type is SectionType.ROUND_ROBIN
    assert [cells(p) for p in section.players] == [
        "U W2 W3 D4", "L1 U D3 W4", "L1 D2 U W4", "D1 L2 L3 U"]
    result = rate_section(section)  # the games mirror as a multiset
    assert result.player(1).ratings[System.R].score == 2.5


def test_zip_with_lower_case_names_in_a_folder() -> None:
    event = dbf.read(FIXTURES / "report.zip")
    assert event.sections == dbf.read(FIXTURES / "swisssys_style").sections
    assert [cells(p) for p in event.sections[0].players] == ["W2 H", "L1 W3", "B L2"]


def test_missing_sibling(tmp_path: Path) -> None:
    for name in NAMES[:2]:
        shutil.copy(FIXTURES / "swisssys_style" / name, tmp_path / name.lower())
    with pytest.raises(ParseError) as caught:
        dbf.read(tmp_path / "thexport.dbf")
    assert [str(i) for i in caught.value.issues] == [
        ("TDEXPORT.DBF: missing: a rating report has THEXPORT.DBF, TSEXPORT.DBF and "
        "TDEXPORT.DBF together")]


def test_a_folder_without_a_report_file_says_what_it_holds(tmp_path: Path) -> None:
    """A folder is one rating report: one of event files is refused in one line that
    says so and names what it holds, rather than three lines of missing files."""
    for name in ("b.json", "a.json", "c.trf", "d.csv"):
        (tmp_path / name).write_text("{}")
    with pytest.raises(ParseError) as caught:
        dbf.read(tmp_path)
    assert [str(i) for i in caught.value.issues] == [
        "a folder is read as one rating report (THEXPORT.DBF, TSEXPORT.DBF and TDEXPORT.DBF "
        "together), and this one holds none of them but 4 other file(s) (a.json, b.json, "
        "c.trf, ...): name the files themselves to read each as an event"]
    for name in ("a.json", "b.json", "c.trf", "d.csv"):
        (tmp_path / name).unlink()
    with pytest.raises(ParseError, match=r"holds none of them, nor any other file$"):
        dbf.read(tmp_path)


def test_not_a_report_file(tmp_path: Path) -> None:
    other = tmp_path / "players.dbf"
    other.write_bytes(b"\x03")
    with pytest.raises(ParseError, match="players.dbf: not one of THEXPORT.DBF"):
        dbf.read(other)
    bad_zip = tmp_path / "report.zip"
    bad_zip.write_bytes(b"PK\x03\x04 not really")
    with pytest.raises(ParseError, match="not a readable zip file"):
        dbf.read(bad_zip)


def test_a_zip_of_a_version_zipfile_cannot_read_is_refused(tmp_path: Path) -> None:
    """Issue 37 (the fuzzer): a zip whose directory says it needs version 8.4 to extract
    (the central header's bytes 6-7, APPNOTE 4.3.12; Python reads up to 6.3) is refused
    as an unreadable zip, not with NotImplementedError."""
    report = tmp_path / "report.zip"
    shutil.copy(FIXTURES / "report.zip", report)
    data = bytearray(report.read_bytes())
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<H", data, central + 6, 84)
    report.write_bytes(bytes(data))
    with pytest.raises(ParseError, match=r"not a readable zip file \(zip file version 8.4\)"):
        dbf.read(report)


# ---------------------------------------------------------------------------------------
# Malformed files: the exact errors
# ---------------------------------------------------------------------------------------

CELL_HELP = ("expected a result letter (W L D X F H B U), the opponent's pair number and a "
             "colour, such as 'W12B' or 'W   12B'")
MALFORMED = {
    "bad_truncated_header": [
        "THEXPORT.DBF: truncated header: the file has 20 bytes; a dBase header needs 32"],
    "bad_truncated_records": [
        "TDEXPORT.DBF: truncated: the header says 4 records of 75 bytes, but only 3 follow"],
    "bad_wrong_types": [
        "TSEXPORT.DBF field S_BEG_DATE: has type 'L'; expected C or D (a date as D or text)",
        "TDEXPORT.DBF field D_PAIR_NUM: has type 'L'; expected C, N or F (a number as text or N)",
        "TDEXPORT.DBF field D_RND02: has type 'N'; expected C (text)"],
    "bad_unknown_code": [
        (f"TDEXPORT.DBF record 1 field D_RND01: cell 'Q2W' cannot be read (result letter 'Q'): "
        f"{CELL_HELP}")],
    "bad_missing_pair": [
        "TDEXPORT.DBF record 1 field D_RND01: cell 'W9B' names pair 9, which is not in section 1"],
    "bad_double_game": [
        ("TDEXPORT.DBF record 1 field D_RND01: cell '$2W' uses the SwissSys double-game code "
        "'$', whose meaning the format notes do not give; report one column per game with the "
        "letters W L D X F H B U")],
    "bad_several": [
        ("THEXPORT.DBF record 1 field H_END_DATE: '20241301' is not a date: expected YYYYMMDD "
        "(or MM/DD/YYYY)"),
        ("TSEXPORT.DBF record 1 field S_R_SYSTEM: 'Z' is not a rating system: expected R, Q, B "
        "or D (dual R and Q)"),
        "TDEXPORT.DBF record 3 field D_SEC_NUM: section 7 is not in TSEXPORT.DBF (sections: 1)",
        ("TDEXPORT.DBF record 1 field D_RATING: '15OO' is not a rating: expected digits such as "
        "1500, or a provisional rating with its games such as 1456P12"),
        (f"TDEXPORT.DBF record 1 field D_RND01: cell 'Q2W' cannot be read (result letter 'Q'): "
        f"{CELL_HELP}"),
        "TDEXPORT.DBF record 1 field D_RND02: cell 'W9B' names pair 9, which is not in section 1",
        ("TDEXPORT.DBF record 2 field D_RND01: cell 'W' is a played game but names no opponent: "
        "expected the opponent's pair number, such as 'W12'")],
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_report_gives_every_exact_error(name: str) -> None:
    path = FIXTURES / name
    with pytest.raises(ParseError) as caught:
        dbf.read(path)
    assert caught.value.source == str(path)
    assert [str(i) for i in caught.value.issues] == MALFORMED[name]
    assert str(caught.value).splitlines()[0] == f"{path}: {MALFORMED[name][0]}"


def test_dbase_damage_is_named(tmp_path: Path) -> None:
    good = (FIXTURES / "swisssys_style" / "TDEXPORT.DBF").read_bytes()
    cases = {
        b"\x42" + good[1:]: "not a dBase table: first byte 0x42 is not a dBase version",
        good[:40]: "truncated header: field descriptor 1 at byte 32 is cut off",
        good[:8] + struct.pack("<H", 9999) + good[10:]: "header length 9999 in the header",
        good[:10] + struct.pack("<H", 12) + good[12:]: "record length 12 in the header, but the "
                                                       "fields add up to 75",
        good[:32 + 32 * 8]: "truncated header: no 0x0D byte ends the field",
    }
    for damaged, message in cases.items():
        for name in NAMES:
            shutil.copy(FIXTURES / "swisssys_style" / name, tmp_path / name)
        (tmp_path / "TDEXPORT.DBF").write_bytes(damaged)
        with pytest.raises(ParseError) as caught:
            dbf.read(tmp_path)
        assert message in str(caught.value)


def same_as_dbfread(path: Path, dbfread: ModuleType) -> int:
    """``read_table`` gives the fields and, record by record, the text dbfread gives (dbfread
    decodes with the code page it picks itself); the number of live records compared."""
    issues: list[Issue] = []
    table = dbf.read_table(path.read_bytes(), path.name, issues)
    assert issues == [] and table is not None
    theirs = dbfread.DBF(str(path), raw=True)
    assert [(f.name, f.type, f.length) for f in table.fields.values()] == [
        (f.name, f.type, f.length) for f in theirs.fields]
    assert [values for _, values in table.records] == [
        {name: raw.decode(theirs.encoding) for name, raw in record.items()} for record in theirs]
    return len(table.records)


#: Every fixture a dBase reader can read: not those damaged as dBase tables (cut short, or a
#: logical field 8 bytes wide, which dbfread refuses and we read as text to name the field).
DAMAGED = {"bad_truncated_header", "bad_truncated_records", "bad_wrong_types"}
READABLE = sorted(p for p in FIXTURES.glob("*/*.DBF") if p.parent.name not in DAMAGED)


@pytest.mark.parametrize("path", READABLE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_read_table_reads_what_dbfread_reads(path: Path, dbfread: ModuleType) -> None:
    assert same_as_dbfread(path, dbfread) >= 1


@pytest.mark.parametrize("folder", REAL)
def test_read_table_reads_the_real_export_as_dbfread_does(shared: Path, folder: str,
                                                          dbfread: ModuleType) -> None:
    counts = [same_as_dbfread(shared / "formats" / "uscf_dbf" / folder / name, dbfread)
              for name in NAMES]
    assert counts == [1, 1, 2]  # MANIFEST.md: one event, one section, two players

# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------

def test_written_report_reads_back_identically_in_dbfread(tmp_path: Path,
                                                          dbfread: ModuleType) -> None:
    """Every field and value our writer means to write is what dbfread reads."""
    event = read_event(REPO / "examples" / "sample-event.json")
    dbf.write(event, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(NAMES)
    files = dbf.report_files(event)
    layouts = {"THEXPORT.DBF": dbf.HEAD_FIELDS, "TSEXPORT.DBF": dbf.SECTION_FIELDS,
               "TDEXPORT.DBF": dbf.PLAYER_FIELDS + tuple((f"D_RND{n:02d}", "C", 7)
                                                         for n in range(1, 5))}
    for name, layout in layouts.items():
        table = dbfread.DBF(str(tmp_path / name))
        assert [(f.name, f.type, f.length) for f in table.fields] == list(layout)
        assert (tmp_path / name).read_bytes() == files[name]
    head = list(dbfread.DBF(str(tmp_path / "THEXPORT.DBF")))
    assert head == [dict.fromkeys(n for n, _, _ in dbf.HEAD_FIELDS) | {
        "H_FORMAT": "2C", "H_PROGRAM": "USCFRATING", "H_EVENT_ID": "202608010001",
        "H_NAME": "Riverside Chess Club August Action", "H_TOT_SECT": "2",
        "H_BEG_DATE": date(2026, 8, 1), "H_END_DATE": date(2026, 8, 1), "H_AFF_ID": "",
        "H_CITY": "", "H_STATE": "", "H_ZIPCODE": "", "H_COUNTRY": "", "H_SENDCROS": "",
        "H_CTD_ID": "", "H_ATD_ID": "", "H_OTHER_TD": ""}]
    sections = [(r["S_SEC_NUM"], r["S_SEC_NAME"], r["S_R_SYSTEM"], r["S_TIMECTL"], r["S_TRN_TYPE"],
                 r["S_TOT_RNDS"], r["S_LST_PAIR"], r["S_BEG_DATE"])
                for r in dbfread.DBF(str(tmp_path / "TSEXPORT.DBF"))]
    assert sections == [("1", "Open", "D", "G/30;d5", "S", "4", "8", date(2026, 8, 1)),
                        ("2", "Scholastic Under 1000", "Q", "G/20;d5", "S", "3", "6",
                         date(2026, 8, 1))]
    rows = [(r["D_SEC_NUM"], r["D_PAIR_NUM"], r["D_MEM_ID"], r["D_NAME"], r["D_RATING"],
             r["D_RND01"], r["D_RND02"], r["D_RND03"], r["D_RND04"])
            for r in dbfread.DBF(str(tmp_path / "TDEXPORT.DBF"))]
    expected = []
    for s in event.sections:
        main = System.R if s.number == 1 else System.Q  # dual section: R; quick section: Q
        for p in s.players:
            r = p.ratings.get(main)
            shown = str(int(r.rating + 0.5)) if r else ""
            cells_ = [f"{x.code}{x.opponent if x.opponent is not None else ''}" for x in p.results]
            expected.append((str(s.number), str(p.pair), p.id, p.name, shown,
                             *(cells_ + ["U"] * (4 - len(cells_)))))
    assert rows == expected


def test_written_bytes_follow_dbase_iii() -> None:
    event = read_event(REPO / "examples" / "sample-event.json")
    data = dbf.report_files(event)["TSEXPORT.DBF"]
    version, yy, mm, dd, count, header_len, record_len = struct.unpack_from("<BBBBIHH", data)
    fields = len(dbf.SECTION_FIELDS)
    assert (version, yy + 1900, mm, dd, count) == (0x03, 2026, 8, 1, 2)
    assert header_len == 32 + 32 * fields + 1 and data[header_len - 1] == 0x0D
    assert record_len == 1 + sum(w for _, _, w in dbf.SECTION_FIELDS)
    assert len(data) == header_len + count * record_len + 1 and data[-1] == 0x1A
    assert data[header_len:header_len + 1] == b" "  # live record
    assert data[29] == 0x03  # language driver: Windows ANSI


def test_round_trip_keeps_every_result(tmp_path: Path) -> None:
    event = read_event(REPO / "examples" / "sample-event.json")
    dbf.write(event, tmp_path / "report")
    back = dbf.read(tmp_path / "report")
    for original, read in zip(event.sections, back.sections, strict=True):
        assert [cells(p) for p in read.players] == [cells(p) for p in original.players]
        assert [(p.pair, p.id, p.name) for p in read.players] == [
            (p.pair, p.id, p.name) for p in original.players]
    dbf.write(event, tmp_path / "report.zip")
    assert dbf.read(tmp_path / "report.zip").sections == back.sections


def test_writer_refuses_what_2c_cannot_hold(tmp_path: Path) -> None:
    player = Player(1, "123456789", "A" * 31, results=(Result(1, "U"),))
    online = Section(2, date(2024, 1, 1), date(2024, 1, 1), (Player(1, "1"),), online=True,
                     systems=(System.OQ,))
    event = Event("E1", date(2024, 1, 1), date(2024, 1, 1),
                  (Section(1, date(2024, 1, 1), date(2024, 1, 1), (player,),
                           systems=(System.R,)), online))
    with pytest.raises(ValueError) as caught:
        dbf.write(event, tmp_path)
    assert str(caught.value).splitlines() == [
        "cannot write a 2C rating report:",
        "section 1 pair 1 member id '123456789' has 9 characters; the field holds 8",
        f"section 1 pair 1 name '{'A' * 31}' has 31 characters; the field holds 30",
        "section 2: online (OQ); the format notes give no 2C letter for the online systems"]
    assert not any(tmp_path.iterdir())  # nothing written
    with pytest.raises(ValueError, match="give a folder or a .zip"):
        dbf.write(read_event(REPO / "examples" / "sample-event.json"), tmp_path / "x.dbf")


@pytest.mark.parametrize("year", [1899, 2156, 9999])
def test_writer_refuses_a_year_the_dbase_header_cannot_hold(tmp_path: Path, year: int) -> None:
    """Issue 37 (the fuzzer): the header's date of last update keeps the year as one byte,
    year - 1900 (dBase III; `dbf.dbase3_bytes`): an event ending outside 1900..2155 is
    refused with the writer's message, not a struct.error."""
    sample = read_event(REPO / "examples" / "sample-event.json")
    late = replace(sample, end_date=date(year, 12, 31))
    with pytest.raises(ValueError) as caught:
        dbf.write(late, tmp_path / "report")
    assert str(caught.value).splitlines() == [
        "cannot write a 2C rating report:",
        f"end date {year}-12-31: a dBase header holds the years 1900 to 2155"]


def test_writer_holds_the_last_year_of_the_dbase_header() -> None:
    sample = read_event(REPO / "examples" / "sample-event.json")
    files = dbf.report_files(replace(sample, end_date=date(2155, 12, 31)))
    assert files["THEXPORT.DBF"][1:4] == bytes([255, 12, 31])


def test_long_event_ids_are_written_as_unassigned(tmp_path: Path, dbfread: ModuleType) -> None:
    p1 = Player(1, "1", results=(Result(1, "W", 2),))
    p2 = Player(2, "2", results=(Result(1, "L", 1),))
    section = Section(1, date(2024, 1, 1), date(2024, 1, 1), (p1, p2), systems=(System.R,))
    event = Event("a-file-name-that-is-long", date(2024, 1, 1), date(2024, 1, 1), (section,))
    dbf.write(event, tmp_path / "club")
    assert next(iter(dbfread.DBF(str(tmp_path / "club" / "THEXPORT.DBF"))))["H_EVENT_ID"] == ""
    assert dbf.read(tmp_path / "club").id == "club"


def test_ratings_are_rounded_half_up_and_n_is_assumed(tmp_path: Path) -> None:
    def player(pair: int, value: float, other: int) -> Player:
        return Player(pair, str(pair), ratings={System.R: Rating(value, 8)},
                      results=(Result(1, "W" if pair == 1 else "L", other),))
    section = Section(1, date(2024, 1, 1), date(2024, 1, 1),
                      (player(1, 1500.5, 2), player(2, 1499.49, 1)), systems=(System.R,))
    dbf.write(Event("E", date(2024, 1, 1), date(2024, 1, 1), (section,)), tmp_path)
    back = dbf.read(tmp_path).sections[0]
    assert [rating(p) for p in back.players] == [(1501.0, 26, False), (1499.0, 26, False)]


def test_the_assumed_n_changes_nothing_below_about_1928() -> None:
    """N' = min(N, N*): with N = 26 assumed, N' = N* whenever N* <= 26, which holds for
    every rating up to 1928; so an established player's N is not needed there."""
    assert n_star(1928) <= 26 < n_star(1929)
    assert dbf.ASSUMED_GAMES == 26
