"""FIDE TRF: every real file of shared/formats/trf read completely (checked against
counts made independently from the raw lines and cells read by hand), the hand-made
fixtures for each oddity, malformed files with their exact errors, and the TRF16 writer."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from tests.conftest import REPO

from uscf_ratings.core.model import Event, FideRating, Player, Rating, Result, Section, SectionType, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats import trf
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.event_json import read_event

#: The date given (as --date) to files that state none.
DAY = date(2026, 1, 2)

FIXTURES = Path(__file__).resolve().parent / "data" / "trf"


def cells(player: Player) -> str:
    return " ".join(f"{r.code}{r.opponent or ''}" for r in player.results)


def by_pair(event: Event) -> dict[int, Player]:
    return {p.pair: p for p in event.sections[0].players}


# ---------------------------------------------------------------------------------------
# Real files
# ---------------------------------------------------------------------------------------

#: players and rounds (cells on the longest line) per file, from MANIFEST.md and the files
REAL = {
    "bbp_dutch_2025_C5.trf": (6, 3),  # 2 rounds played + a pre-set 0000 - Z in round 3
    "bbp_dutch_2025_C9.trf": (5, 1),
    "bbp_issue_15.trf": (180, 11),
    "bbp_issue_7.trf": (60, 14),  # XXR 15, 14 rounds played
    "caissify_generated_misc_edge_case_1_80p51r.trf": (80, 51),
    "caissify_generated_stress_50p31r_manybyes.trf": (50, 31),
    "competichess_lichess_bullet_2020_112p.trf": (112, 20),  # XXR 21, 20 cells
    "echecsjs_grandmommyscup.trf": (249, 14),
    "echecsjs_javafo_sample2_gros2010.trf": (52, 5),  # 4 rounds + pre-set round 5 entries
    "echecsjs_trf26_team.trf": (2, 1),
    "py4swiss_javafo_example_gros2010.trf": (52, 4),
    "sharly_example_trf26_grandmommy_tec_draft.trf": (249, 14),
    "sharly_trf26_import_test_fra_national.trf": (16, 5),
    "sharly_trf26_team_import_test.trf": (26, 2),  # round 2 paired, no round 3 cells
    "sklangen_example1_karl_mala_2005.trf": (284, 7),
    "sklangen_lichess_2020_06.trf": (13, 10),
    "sklangen_lichess_2021_03.trf": (9, 9),
    "vega_sample_tournament_final.trfx": (6, 5),
    "vega_studycase5_after_round4.trfx": (6, 4),
}


def raw_player_lines(path: Path) -> list[str]:
    text = path.read_bytes().decode("latin-1")
    return [line for line in re.split(r"\r\n|\r|\n", text) if line.startswith("001")]


def test_every_real_file_is_listed(shared: Path) -> None:
    found = {p.name for p in (shared / "formats" / "trf").iterdir() if p.name != "MANIFEST.md"}
    assert found == set(REAL)


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_file_every_player_and_result(shared: Path, name: str) -> None:
    """Counts made from the raw text, not by the reader's code: players are the lines
    starting 001; a rated game is an opponent number, a colour w/b and 1, 0 or = ; a
    forfeit win is a '+'; a half point an H; a full-point bye an F or U token (byes)."""
    path = shared / "formats" / "trf" / name
    event = trf.read(path, event_date=DAY)  # the bbp files state no date
    (section,) = event.sections
    lines = raw_player_lines(path)
    players, rounds = REAL[name]
    assert len(section.players) == len(lines) == players
    assert {len(p.results) for p in section.players} == {rounds}
    results = [r for p in section.players for r in p.results]
    regions = [line[89:] for line in lines]
    played = sum(len(re.findall(r"(?<!\d)\d{1,4} [wbWB] [10=](?=\s|$)", x)) for x in regions)
    assert sum(r.played for r in results) == played
    assert all(r.opponent is not None for r in results if r.played)
    tokens = [t for x in regions for t in x.split()]
    assert sum(r.code == "X" for r in results) == tokens.count("+")
    assert sum(r.code == "H" for r in results) == tokens.count("H") + tokens.count("h")
    assert sum(r.code == "B" for r in results) == tokens.count("F") + tokens.count("U")
    # every rated game is in both players' lines
    games = {(p.pair, r.round, r.opponent, r.code) for p in section.players for r in p.results
             if r.played}
    mirror = {"W": "L", "L": "W", "D": "D"}
    assert all((o, rnd, pair, mirror[c]) in games for pair, rnd, o, c in games)


SPOT = {  # cells read by hand from the raw lines
    ("sklangen_example1_karl_mala_2005.trf", 1): "W141 W78 W42 W21 W16 D25 D31",
    ("sklangen_example1_karl_mala_2005.trf", 153): "X13 L70 D58 L90 D212 D222 W228",  # 13 - +
    ("sklangen_example1_karl_mala_2005.trf", 284): "U U U U F U U",  # spielfrei: 0000 - -
    ("competichess_lichess_bullet_2020_112p.trf", 112):
        "L49 L19 F L103 B L110 W61 W109" + " F" * 12,  # '        -' and '        U' cells
    ("sklangen_lichess_2020_06.trf", 12): "B L2 L9 W11 L4 L7 L3 L10 L6 L8",
    ("echecsjs_grandmommyscup.trf", 3): "F W242 F D13 D8 D48 X D53 W51 W14 D40 L12 W2 L101",
    ("echecsjs_javafo_sample2_gros2010.trf", 52): "B L12 D24 W25 U",
    ("echecsjs_javafo_sample2_gros2010.trf", 43): "L17 D32 L27 L42 H",
    ("sharly_trf26_team_import_test.trf", 1): "B U",  # round 2 paired, no result yet
    ("sharly_trf26_team_import_test.trf", 2): "U U",
    ("vega_sample_tournament_final.trfx", 3): "D6 F4 W2 L4 L2",
    ("caissify_generated_stress_50p31r_manybyes.trf", 49):
        "H F22 D13 L25 L37 L15 L45 D39 B L24 F44 L35 W41 L29 D27 L40 L50 D44 W46 F28 W43 W26 "
        "L19 X33 L28 F47 X33 L14 U L33 U",
    ("bbp_dutch_2025_C5.trf", 5): "L2 W6 U",
    ("sharly_trf26_import_test_fra_national.trf", 1): "W9 D13 D2 W15 D4",
}


@pytest.mark.parametrize(("name", "pair"), sorted(SPOT))
def test_real_file_cells_by_hand(shared: Path, name: str, pair: int) -> None:
    event = trf.read(shared / "formats" / "trf" / name, event_date=DAY)
    assert cells(by_pair(event)[pair]) == SPOT[(name, pair)]


def test_real_headers(shared: Path) -> None:
    root = shared / "formats" / "trf"
    karl = trf.read(root / "sklangen_example1_karl_mala_2005.trf")  # 28. 07. 2005
    assert (karl.name, karl.start_date, karl.end_date) == (
        "9. Karl-Mala-Gedenkturnier", date(2005, 7, 28), date(2005, 7, 31))
    first = by_pair(karl)[1]
    assert (first.name, first.fide, first.birth_date) == (
        "Vasquez,Rodrigo", FideRating(2558.0), date(1969, 12, 6))
    assert karl.sections[0].systems is None  # 122 "40/120, 60" is not readable: none assumed
    assert karl.sections[0].time_control == "40/120, 60"
    gros = trf.read(root / "echecsjs_javafo_sample2_gros2010.trf")  # 24/09/2010
    assert (gros.start_date, gros.end_date) == (date(2010, 9, 24), date(2010, 10, 2))
    assert by_pair(gros)[51].fide is None  # rating 0 = unrated
    lichess = trf.read(root / "competichess_lichess_bullet_2020_112p.trf")  # May 10, 2020
    assert lichess.start_date == date(2020, 5, 10) and lichess.id == "competichess_lichess_bullet_2020_112p"
    cup = trf.read(root / "echecsjs_grandmommyscup.trf")  # 122 unreadable, 222 encoded
    assert cup.sections[0].time_control == "40/100,20/50,SD/25+30" and cup.sections[0].systems is None
    generated = trf.read(root / "caissify_generated_misc_edge_case_1_80p51r.trf")  # 25/08/11
    assert generated.start_date == date(2025, 8, 11)
    fra = trf.read(root / "sharly_trf26_import_test_fra_national.trf")
    assert all(p.id == "" and not p.ratings for p in fra.sections[0].players)  # FRA, not USA
    with pytest.raises(ParseError, match="no date"):  # no date records
        trf.read(root / "bbp_issue_7.trf")
    assert trf.read(root / "bbp_issue_7.trf", event_date=DAY).start_date == DAY


# ---------------------------------------------------------------------------------------
# Hand-made fixtures
# ---------------------------------------------------------------------------------------

def test_us_club_with_usa_national_lines() -> None:
    event = trf.read(FIXTURES / "trf16_us_club.trf")
    assert (event.id, event.name, event.start_date, event.end_date) == (
        "trf16_us_club", "Riverside Summer Swiss", date(2024, 6, 1), date(2024, 6, 2))
    (section,) = event.sections
    assert section.time_control == "G/60;d5" and section.systems is None
    got = [(p.pair, p.id, p.name, p.ratings.get(System.R), p.fide, p.birth_date, cells(p))
           for p in section.players]
    assumed = {"games": 26, "games_known": False}
    assert got == [
        (1, "12345678", "Adams, Ann", Rating(1875.0, **assumed), FideRating(1820.0),
         date(1990, 4, 12), "W2 D3 W4"),
        (2, "23456789", "Baker, Bob", Rating(1500.0, **assumed), None, None, "L1 W4 H"),
        (3, "34567890", "Cole, Cy", None, None, None, "W4 D1 B"),
        (4, "45678901", "Diaz, Dee", None, None, date(2010, 1, 31), "L3 L2 L1"),  # rating 0
    ]
    assert rate_section(section).systems == (System.R, System.Q)  # G/60;d5 in 2024: dual


def test_every_result_code() -> None:
    got = [cells(p) for p in trf.read(FIXTURES / "all_codes.trf").sections[0].players]
    assert got == [
        "W2 H",  # 1 = win; D (draw in under a move) = unrated half point
        "L1 H",  # 0 = loss; H = half-point bye
        "D4 H",  # = draw
        "D3 B",  # F = full-point bye
        "X6 B",  # + forfeit win; U = pairing-allocated bye, a full point
        "F5 U",  # - forfeit loss; Z = zero-point bye
        "U X8",  # blank cell; w (case-insensitive W) = win in under a move, not rated
        "F F7",  # 0000 - - = forfeit loss without opponent; L = loss in under a move
    ]


def test_trf26_encoded_time_control_round_dates_and_round_robin() -> None:
    event = trf.read(FIXTURES / "trf26_encoded_tc_round_robin.trf")
    assert (event.start_date, event.end_date) == (date(2025, 10, 4), date(2025, 10, 5))
    (section,) = event.sections
    assert section.time_control == "G/90+30" and section.type is SectionType.ROUND_ROBIN
    ids = [(p.id, p.ratings[System.R].rating) for p in section.players]
    assert ids == [("12000001", 2301.0), ("12000002", 2250.0), ("12000003", 2199.0),
                   ("12000004", 1999.0)]  # the FRA line for 4 is not US Chess
    assert rate_section(section).systems == (System.R,)


def test_whitespace_collapsed_lines_and_dat_ids() -> None:
    players = by_pair(trf.read(FIXTURES / "collapsed_tornelo.trf"))
    assert [(p.name, p.fide, cells(p)) for p in players.values()] == [
        ("Mirzoev,Azer", FideRating(2527.0), "W2 H U"),
        ("Smith,John", FideRating(1800.0), "L1 W3 W4"),
        ("Lee,Sue", None, "B L2 U"),
        ("Doe,Jan", None, "H L2 U"),
    ]
    assert players[1].id == "12743305" and players[1].birth_date == date(1978, 1, 1)


def test_shifted_and_ragged_lines() -> None:
    got = [cells(p) for p in trf.read(FIXTURES / "shifted_columns.trf").sections[0].players]
    assert got == ["W2 W3", "L1 L4", "W4 L1", "L3 W2"]


def test_cr_only_line_ends_tabs_and_old_dates() -> None:
    data = (FIXTURES / "cr_only_tabs.trf").read_bytes()
    assert b"\n" not in data and b"\t" in data
    event = trf.read(FIXTURES / "cr_only_tabs.trf")
    assert (event.start_date, event.end_date) == (date(2005, 7, 28), date(2005, 7, 31))
    assert [(p.pair, p.name, cells(p)) for p in event.sections[0].players] == [
        (1, "Vasquez,Rodrigo", "W2"), (2, "Milov,Leonid", "L1")]


def test_crlf_comments_and_unknown_records_ignored() -> None:
    assert b"\r\n" in (FIXTURES / "crlf_comments_unknown_records.trf").read_bytes()
    event = trf.read(FIXTURES / "crlf_comments_unknown_records.trf")
    assert (event.start_date, event.end_date) == (date(2020, 5, 10), date(2020, 5, 11))
    assert [cells(p) for p in event.sections[0].players] == ["W2 H", "L1 X3", "U F2"]


def test_a_file_without_dates_is_refused_unless_one_is_given() -> None:
    """Issue 13: such a file failed later with "no rule set for 1900-01-01"."""
    with pytest.raises(ParseError) as caught:
        trf.read(FIXTURES / "no_dates.trf")
    assert [str(i) for i in caught.value.issues] == [
        "missing: the file gives no date for the event (expected a 042 start date, a 052 end "
        "date or 132 round dates); give the date with --date YYYY-MM-DD"]
    event = trf.read(FIXTURES / "no_dates.trf", event_date=DAY)
    assert event.start_date == event.end_date == DAY


# ---------------------------------------------------------------------------------------
# Malformed files: the exact errors
# ---------------------------------------------------------------------------------------

CODES_HELP = "(expected one of 1 0 = + - W D L H F U Z or blank)"
DATES_HELP = "expected YYYY/MM/DD (or DD.MM.YYYY, DD/MM/YYYY, YY/MM/DD, 'May 10, 2020')"
MALFORMED = {
    "bad_result_code.trf": [
        f"line 4, columns 92-99 (round 1): cell '   1 b Q' cannot be read: result 'Q' {CODES_HELP}"],
    "bad_missing_opponent.trf": ["line 3, columns 92-99 (round 1): opponent 77 has no 001 line"],
    "bad_played_without_opponent.trf": [
        ("line 3, columns 92-99 (round 1): result '1' is a played game but the opponent is 0000 "
        "or blank: expected the opponent's starting rank")],
    "bad_unreadable_cell.trf": [
        ("line 4, columns 92-99 (round 1): cell '12x4 q 0' cannot be read: opponent '12x4' "
        "(expected a starting rank, 0000 or blanks); colour 'q' (expected w, b, - or blank)")],
    "bad_no_players.trf": ["no player records: expected lines starting with 001"],
    "bad_several.trf": [
        f"line 2 (042): '2024/13/45' is not a date: {DATES_HELP}",
        f"line 3 (052): 'tomorrow' is not a date: {DATES_HELP}",
        f"line 5, columns 92-99 (round 1): cell '   1 b Q' cannot be read: result 'Q' {CODES_HELP}",
        "line 5, columns 102-109 (round 2): opponent 9 has no 001 line",
        "line 6, columns 5-8: starting rank 2 is also on line 5",
        ("line 6, columns 92-99 (round 1): result '=' is a played game but the opponent is 0000 "
        "or blank: expected the opponent's starting rank"),
        "line 7, columns 49-52: FIDE rating 'ABCD': expected digits or blanks",
        "line 8, columns 5-8: national record for starting rank 5, which has no 001 line",
        "line 9, columns 49-52: national rating '15X0': expected digits"],
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_file_gives_every_exact_error(name: str) -> None:
    path = FIXTURES / name
    with pytest.raises(ParseError) as caught:
        trf.read(path, event_date=DAY)
    assert caught.value.source == str(path)
    assert [str(i) for i in caught.value.issues] == MALFORMED[name]


@pytest.mark.parametrize(("text", "expected"), [
    ("2005/07/28", date(2005, 7, 28)), ("2005.07.28", date(2005, 7, 28)),
    ("28. 07. 2005", date(2005, 7, 28)), ("24/09/2010", date(2010, 9, 24)),
    ("01.01.1987", date(1987, 1, 1)), ("25/08/11", date(2025, 8, 11)),
    ("May 10, 2020", date(2020, 5, 10)), ("Jun 26, 2020", date(2020, 6, 26)),
    ("10 May 2020", date(2020, 5, 10)), ("", None)])
def test_date_styles(text: str, expected: date | None) -> None:
    assert trf.parse_date(text) == (expected, True)


@pytest.mark.parametrize("text", ["1978", "1987/00/00", "0000.00.00", "2024/13/45", "soon"])
def test_incomplete_or_bad_dates(text: str) -> None:
    assert trf.parse_date(text) == (None, False)


@pytest.mark.parametrize(("code", "expected"), [
    ("5400+30", "G/90+30"), ("40/6000+30:900+30", "40/100,SD/15+30"), ("300+2", "G/5+2"),
    ("3600", "G/60"), ("W300-B240", None), ("", None)])
def test_encoded_time_controls(code: str, expected: str | None) -> None:
    assert trf.decode_time_control(code) == expected


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------

def test_written_columns_are_trf16(tmp_path: Path) -> None:
    event = read_event(REPO / "examples" / "sample-event.json")
    trf.write(event, tmp_path / "club.trf")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club-s1.trf", "club-s2.trf"]
    data = (tmp_path / "club-s1.trf").read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n")  # CR LF line ends
    lines = data.decode().splitlines()
    assert lines[:7] == ["012 Riverside Chess Club August Action", "042 2026/08/01",
                         "052 2026/08/01", "062 8", "092 Individual: Swiss-System",
                         "122 G/30;d5", "XXR 4"]
    assert lines[7] == ("XUS event=202608010001 section=1 type=swiss k=full online=no youth=no "
                        "section_name=Open")
    first = lines[8]
    assert (first[0:3], first[4:8], first[14:47].rstrip(), first[80:84], first[85:89]) == (
        "001", "   1", "Ana Torres", " 3.0", "   1")
    # round n: opponent at 92 + 10(n - 1), colour 2 columns on, result 2 more
    assert [(first[91 + 10 * k:95 + 10 * k], first[96 + 10 * k], first[98 + 10 * k])
            for k in range(4)] == [("   5", "w", "1"), ("   3", "b", "="), ("   6", "w", "1"),
                                   ("   2", "b", "=")]
    fatima = lines[8 + 5]
    assert fatima[48:52] == "1650"  # the FIDE rating column
    usa = [line for line in lines if line.startswith("USA")]
    assert (usa[0][4:8], usa[0][48:52], usa[0][57:68]) == ("   1", "1850", "   30000001")
    gus = lines[8 + 6]  # X8 in round 3: a forfeit keeps the opponent, colour '-'
    assert gus[111:119] == "   8 - +"
    section_two = (tmp_path / "club-s2.trf").read_text()
    assert "001    1" in section_two and " 2014/02/17 " in section_two  # birth date at 70


def test_written_files_read_back(tmp_path: Path) -> None:
    event = read_event(REPO / "examples" / "sample-event.json")
    trf.write(event, tmp_path / "club.trf")
    for section in event.sections:
        back = trf.read(tmp_path / f"club-s{section.number}.trf")
        assert back.id == event.id and back.name == event.name
        (read,) = back.sections
        assert (read.number, read.name, read.time_control, read.systems, read.type, read.k) == (
            section.number, section.name, section.time_control, section.systems, section.type,
            section.k)
        assert [cells(p) for p in read.players] == [cells(p) for p in section.players]
        assert [(p.pair, p.id, p.name, p.birth_date) for p in read.players] == [
            (p.pair, p.id, p.name, p.birth_date) for p in section.players]


def test_one_section_is_one_file(tmp_path: Path) -> None:
    p1 = Player(1, "12345678", "A", results=(Result(1, "W", 2),))
    p2 = Player(2, "", "B", results=(Result(1, "L", 1),))
    section = Section(3, date(2024, 1, 1), date(2024, 1, 1), (p1, p2), systems=(System.OB,),
                      online=True)
    trf.write(Event("My Event", date(2024, 1, 1), date(2024, 1, 1), (section,), online=True),
              tmp_path / "one.trf")
    assert [p.name for p in tmp_path.iterdir()] == ["one.trf"]
    back = trf.read(tmp_path / "one.trf")
    assert back.id == "My Event" and back.online  # percent-encoded in XUS, then decoded
    assert back.sections[0].systems == (System.OB,) and back.sections[0].number == 3


def test_writer_refuses_what_trf_cannot_hold(tmp_path: Path) -> None:
    player = Player(1, "123456789012", "N" * 34, results=())
    section = Section(1, date(2024, 1, 1), date(2024, 1, 1), (player,))
    with pytest.raises(ValueError) as caught:
        trf.write(Event("E", date(2024, 1, 1), date(2024, 1, 1), (section,)), tmp_path / "x.trf")
    assert str(caught.value).splitlines() == [
        "cannot write section 1 as TRF:",
        f"pair 1: name '{'N' * 34}' has 34 characters; TRF holds 33",
        "pair 1: member id '123456789012' does not fit columns 58-68"]
    assert not any(tmp_path.iterdir())
