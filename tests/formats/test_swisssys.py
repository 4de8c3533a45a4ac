"""Reading SwissSys .sjson files: the three real files, each oddity, and malformed files."""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.core.model import Event, Player, SectionType, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats import swisssys
from uscf_ratings.formats.detect import read_any, sniff
from uscf_ratings.formats.errors import ParseError

#: The date given (as --date) to test files that state none.
DAY = date(2026, 1, 2)

DATA = Path(__file__).parent / "data" / "sjson"
REAL = ("better-swisssys_dbf_test.sjson", "better-swisssys_dbf_test_backup_rd1C.BK.sjson",
        "better-swisssys_chessregister_harris_championship.REDACTED.sjson")
#: an independent decoding of the single-game result letters (SwissSys "Entering Results")
LETTERS = {"+": "W", "-": "L", "=": "D", "X": "X", "F": "F", "H": "H", "B": "B", "U": "U",
           "Z": "H", "~": "U", "": "U"}


def cells(player: Player) -> list[str]:
    """'3W12': round, code and opponent, in round order."""
    return [f"{r.round}{r.code}{r.opponent if r.opponent is not None else ''}"
            for r in sorted(player.results, key=lambda r: r.round)]


def row(event: Event, section: int = 1) -> dict[int, list[str]]:
    return {p.pair: cells(p) for p in event.sections[section - 1].players}


def pairing_json(shared: Path) -> Path:
    return shared / "formats" / "pairing_json"


# --- the real files ----------------------------------------------------------------------


@pytest.mark.parametrize("name", REAL)
def test_every_player_and_result_of_a_real_file(shared: Path, name: str) -> None:
    """Each player read against the raw JSON, decoded independently of the reader."""
    path = pairing_json(shared) / name
    raw = json.loads(path.read_text(encoding="utf-8"))
    event = swisssys.read(path, event_date=date(2026, 3, 30))
    assert event.name == raw["Overview"]["Tournament title"]
    assert [s.name for s in event.sections] == [s["Section name"] for s in raw["Sections"]]
    for section, source in zip(event.sections, raw["Sections"]):
        assert len(section.players) == source["Number of players"] == len(source["Players"])
        for player, p in zip(section.players, source["Players"]):
            # names and ids lose surrounding spaces ('Austin,Asher '); one player has no ID
            assert (player.pair, player.name, player.id) == (
                p["Pair number"], p["Name"].strip(), p.get("ID", "").strip())
            assert {s: (r.rating, r.games, r.games_known) for s, r in player.ratings.items()} \
                == ({System.R: (p["Rating"], 26, False)} if p["Rating"] else {})
            assert (player.fide.rating if player.fide else 0) == p.get("Rating2", 0)
            expected = []
            for k, text in enumerate(p.get("Results", []), start=1):
                letter, opponent = text.split(";")[:2]
                code = LETTERS[letter]
                keep = code in "WLDXF" and int(opponent) > 0
                expected.append(f"{k}{code}{opponent if keep else ''}")
            assert cells(player) == expected


def test_the_dbf_test_event_exactly(shared: Path) -> None:
    event = swisssys.read(pairing_json(shared) / REAL[0], event_date=date(2026, 3, 30))
    assert event.id == "better-swisssys_dbf_test" and event.name == "dbf_test"
    assert event.start_date == event.end_date == date(2026, 3, 30)  # the file has no dates
    (section,) = event.sections
    assert (section.number, section.name, section.type) == (1, "open", SectionType.SWISS)
    assert section.time_control is None and section.systems is None
    assert [(p.pair, p.name, p.id) for p in section.players] == [
        (1, "Peyton", "12345"), (2, "David", "54321")]
    assert row(event) == {1: ["1W2"], 2: ["1L1"]}
    # the US Chess report of the same event (uscf_dbf/MANIFEST.md) is rated R: W2W / L1B
    result = rate_section(replace(section, systems=(System.R,)))
    winner, loser = (result.player(n).ratings[System.R] for n in (1, 2))
    assert winner.post is not None and winner.post > winner.pre == 2000
    assert loser.post is not None and loser.post < loser.pre == 1999


def test_the_backup_reads_as_the_main_file(shared: Path) -> None:
    main = swisssys.read(pairing_json(shared) / REAL[0], event_date=date(2026, 3, 30))
    backup = swisssys.read(pairing_json(shared) / REAL[1], event_date=date(2026, 3, 30))
    assert backup.id == "better-swisssys_dbf_test_backup_rd1C.BK"
    assert replace(backup, id=main.id) == main


def test_the_registration_export(shared: Path) -> None:
    event = swisssys.read(pairing_json(shared) / REAL[2], event_date=date(2026, 5, 2))
    assert event.name == "5th Annual John G. Harris Championship"
    assert [(s.name, len(s.players)) for s in event.sections] == [
        ("Open-1D", 45), ("U1000-1D", 22), ("U1600-1D", 35)]
    assert all(not p.results for s in event.sections for p in s.players)
    first = event.sections[0].players[0]
    assert (first.pair, first.name, first.id) == (1, "Venkat,Raghav", "14668233")
    assert first.ratings[System.R].rating == 2351 and first.fide is not None
    assert first.fide.rating == 2199
    shapiro = event.sections[0].players[11]
    assert shapiro.name == "Shapiro,Daniel" and shapiro.fide is None  # Rating2 0: no FIDE
    # "Birth date" is a bare year: 1996 is surely an adult in 2026, 2008 is not known to be
    harrison, patel = event.sections[0].players[6:8]
    assert (harrison.name, harrison.adult, harrison.birth_date) == ("Harrison,Joshua", True, None)
    assert (patel.name, patel.adult) == ("Patel,Arav", None)
    no_id = [p for s in event.sections for p in s.players if p.name == "Balieu,S?bastien"]
    assert [(p.id, p.ratings, p.fide.rating if p.fide else None) for p in no_id] == [
        ("", {}, 1750)]


def test_the_registry_sniffs_and_reads_sjson(shared: Path) -> None:
    path = pairing_json(shared) / REAL[0]
    assert sniff(path).name == "sjson"
    assert read_any(path, event_date=DAY).sections[0].players[0].name == "Peyton"


# --- hand-made files, one per oddity ----------------------------------------------------


def test_byes_forfeits_and_unplayed_rounds() -> None:
    event = swisssys.read(DATA / "byes_forfeits.sjson")
    assert (event.start_date, event.end_date) == (date(2026, 3, 7), date(2026, 3, 8))
    section = event.sections[0]
    assert section.time_control == "G/90;d30"  # from the Overview
    assert row(event) == {
        1: ["1W2", "2D3", "3X4"],
        2: ["1L1", "2H", "3W5"],
        3: ["1X4", "2D1", "3B"],
        4: ["1F3", "2U", "3F1"],
        5: ["1B", "2H", "3L2"],  # Z: a forfeit draw, half a point, unrated
        6: ["1U", "2U", "3U"],   # U, ~ (no result yet) and an empty entry
    }
    ratings = {p.pair: {s.value: (r.rating, r.games, r.games_known) for s, r in p.ratings.items()}
               for p in section.players}
    assert ratings == {1: {"R": (1800, 26, False)}, 2: {"R": (1650, 26, False)},
                       3: {"R": (1456, 12, True)}, 4: {}, 5: {}, 6: {"R": (1500, 26, False)}}
    assert section.players[0].fide is not None and section.players[0].fide.rating == 1750
    rate_section(section)  # the rows mirror each other


def test_double_rounds_entered_game_by_game() -> None:
    """Individual entry writes one entry per game: each is its own round."""
    event = swisssys.read(DATA / "double_individual.sjson")
    assert event.start_date == date(2025, 12, 19)
    assert row(event) == {
        1: ["1W3", "2W3", "3L2", "4D2"],
        2: ["1L4", "2W4", "3W1", "4D1"],
        3: ["1L1", "2L1", "3W4", "4L4"],
        4: ["1W2", "2L2", "3L3", "4W3"],
    }
    result = rate_section(event.sections[0])
    assert result.systems == (System.B,)  # G5 is blitz
    assert result.player(1).ratings[System.B].m == 4


def test_double_rounds_entered_combined() -> None:
    """$ # % and, in such a section, + = -: two games per entry, ordered so rows mirror."""
    event = swisssys.read(DATA / "double_combined.sjson")
    assert row(event) == {
        1: ["1W2", "2W2", "3D3", "4D3"],  # $ then %
        2: ["1L1", "2L1", "3W4", "4L4"],  # - (both lost), + (one each)
        3: ["1W4", "2D4", "3D1", "4D1"],  # # (a win and a draw), %
        4: ["1L3", "2D3", "3L2", "4W2"],  # = (a draw and a loss), +: mirrored for pair 4
        5: ["1B", "2B", "3U", "4U"],      # byes count for both games
    }
    result = rate_section(event.sections[0])
    scores = {p.pair: p.ratings[System.B].score for p in result.players if p.ratings}
    assert scores == {1: 3.0, 2: 1.0, 3: 2.5, 4: 1.5, 5: 0.0}  # byes are not rated games


def test_round_robin_type() -> None:
    event = swisssys.read(DATA / "round_robin.sjson")
    section = event.sections[0]
    assert section.type is SectionType.ROUND_ROBIN
    assert section.time_control == "G/60;d5"  # the section's own wins over the Overview's
    assert set(section.players[0].ratings) == {System.R}  # dual rated: Q is derived
    assert rate_section(section).dual


def test_registration_only_file() -> None:
    event = swisssys.read(DATA / "registration_only.sjson", event_date=date(2026, 5, 1))
    assert event.start_date == event.end_date == date(2026, 5, 1)
    assert [len(s.players) for s in event.sections] == [2, 0]
    long, short = event.sections[0].players
    assert long.ratings[System.R].rating == 2210 and long.fide is not None
    assert short.ratings == {} and long.results == short.results == ()


def test_without_a_date_the_file_is_refused_unless_one_is_given() -> None:
    """Issue 13: a SwissSys file without a date was rated as of today without a word."""
    with pytest.raises(ParseError) as caught:
        swisssys.read(DATA / "registration_only.sjson")
    assert str(caught.value) == (
        f"{DATA / 'registration_only.sjson'}: Overview.Starting date: missing: the file gives "
        "no date for the event (expected Overview 'Starting date'); give the date with "
        "--date YYYY-MM-DD")
    event = swisssys.read(DATA / "registration_only.sjson", event_date=DAY)
    assert event.start_date == event.end_date == DAY


def test_rating_text_forms() -> None:
    text = json.dumps({"Sections": [{"Players": [
        {"Pair number": 1, "Rating": "1456P12"}, {"Pair number": 2, "Rating": "1501/15"},
        {"Pair number": 3, "Rating": "unr."}, {"Pair number": 4, "Rating": "1800"}]}]})
    players = swisssys.parse(text, event_date=date(2026, 1, 1)).sections[0].players
    got = [{s.value: (r.rating, r.games, r.games_known) for s, r in p.ratings.items()}
           for p in players]
    assert got == [{"R": (1456, 12, True)}, {"R": (1501, 15, True)}, {},
                   {"R": (1800, 26, False)}]


# --- malformed files ------------------------------------------------------------------------


def test_every_problem_of_a_malformed_file_is_reported() -> None:
    with pytest.raises(ParseError) as caught:
        swisssys.read(DATA / "malformed_many.sjson", event_date=DAY)
    where = "Sections[0].Players"
    assert [str(i) for i in caught.value.issues] == [
        "Overview.Starting date: '2026-02-30' is not a date: expected YYYY-MM-DD or MM/DD/YY(YY)",
        "Sections[0].Type: expected a whole number, found 'swiss'",
        f"{where}[0].Pair number: missing: expected a pair number (1, 2, ...)",
        f"{where}[1].Results[0]: result 'Q' in 'Q;2;W;1;0;0;0' is not a SwissSys result: "
        "expected + - = (played), X F (forfeit), H B (bye), U Z ~ (unplayed) or the "
        "double-game codes $ # %",
        f"{where}[3].Results[1]: expected a result string such as '+;2;W;1;2;2;0', found a number",
        f"{where}[3].Pair number: pair number 2 is already used by {where}[2]",
        f"{where}[1].Rating: rating 'abc' is not a rating: expected 1456, 1456P12 "
        "(provisional, 12 games) or unr.",
        f"{where}[2].Results[0]: a played game (+) needs the opponent's pair number in the "
        "second field",
        f"{where}[3].Rating: rating -5 is negative",
        f"{where}[3].Results[0]: opponent 9 is not a pair number of this section",
        "Sections[1]: expected a section object, found text",
    ]
    assert str(caught.value).startswith(f"{DATA / 'malformed_many.sjson'}: Overview.Starting date")


def test_invalid_json_names_line_and_column() -> None:
    with pytest.raises(ParseError) as caught:
        swisssys.read(DATA / "truncated.sjson")
    assert [str(i) for i in caught.value.issues] == [
        "line 6 column 1: not valid JSON: Expecting value"]


@pytest.mark.parametrize(("text", "message"), [
    ("[]", "(top level): expected an object with 'Overview' and 'Sections', found a list"),
    ('{"Overview": {}}', "Sections: missing: expected a list of sections"),
    ('{"Sections": [{"Players": [{"Pair number": 1, "Results": ["+;1;W"]}]}]}',
     "Sections[0].Players[0].Results[0]: opponent 1 is the player's own pair number"),
    ('{"Sections": [{"Players": [{"Pair number": 1, "Results": ["+;x;W"]}]}]}',
     "Sections[0].Players[0].Results[0]: opponent 'x' in '+;x;W' is not a pair number"),
])
def test_single_problems(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        swisssys.parse(text, "t.sjson", event_date=DAY)
    assert [str(i) for i in caught.value.issues] == [message]


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "bad.sjson"
    path.write_bytes(b'{"Overview": "\xff"}')
    with pytest.raises(ParseError, match=r"bad.sjson: not UTF-8 text \(invalid start byte at "
                                         r"byte 14\)"):
        swisssys.read(path)


# --- nothing crashes the reader -----------------------------------------------------------

KEYS = ["Overview", "Sections", "Players", "Pair number", "Name", "ID", "Rating", "Rating2",
        "Results", "Type", "Section time control", "Starting date", "Tournament title"]
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
    | st.sampled_from(["+;2;W;1;0;0;0", "$;1", "-;-1", "12/19/25", "G/5", "1456P12", "~", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner,
                                                              max_size=5),
    max_leaves=30)


def _read_or_refuse(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.sjson"
        path.write_bytes(data)
        try:
            event = swisssys.read(path, event_date=date(2026, 1, 1))
        except ParseError:
            return
        assert isinstance(event, Event)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    _read_or_refuse(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSONISH)
def test_arbitrary_json_shapes_never_crash(data: Any) -> None:
    _read_or_refuse(json.dumps(data).encode())
