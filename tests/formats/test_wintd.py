"""Reading WinTD JSON records, from fixtures built by hand from WinTD's published schemas
(no real file was available; tests/formats/data/wintd/README.md cites the schemas)."""

from __future__ import annotations

import json
import tempfile
import zipfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.core.model import Event, Player, SectionType, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats import wintd
from uscf_ratings.formats.errors import ParseError

#: The date given (as --date) to test files that state none.
DAY = date(2026, 1, 2)

DATA = Path(__file__).parent / "data" / "wintd"


def cells(player: Player) -> list[str]:
    return [f"{r.round}{r.code}{r.opponent if r.opponent is not None else ''}"
            for r in sorted(player.results, key=lambda r: r.round)]


def rows(event: Event, section: int = 1) -> dict[int, list[str]]:
    return {p.pair: cells(p) for p in event.sections[section - 1].players}


def test_a_swiss_with_forfeits_and_byes() -> None:
    event = wintd.read(DATA / "swiss.json")
    assert (event.id, event.name) == ("swiss", "Winter Swiss")
    assert (event.start_date, event.end_date) == (date(2026, 1, 10), date(2026, 1, 11))
    # the side event is not US Chess ratable (USCFratable 0): left out
    assert [(s.number, s.name, s.time_control) for s in event.sections] == [(1, "Open", "G/60;d5")]
    assert rows(event) == {
        1: ["1W4", "2W3"],   # +1 as first player; -1 as second player
        2: ["1D3", "2H"],    # a draw; a half-point bye as second player (p1 = -1, result 0)
        3: ["1D2", "2L1"],
        4: ["1L1", "2X5"],   # +2: a forfeit win
        5: ["1B", "2F4"],    # +3: the pairing-allocated bye; inactive players still count
    }
    players = {p.pair: p for p in event.sections[0].players}
    assert [p.name for p in players.values()] == ["Adams, Ann", "Baker, Bo", "Cruz, Cy",
                                                  "Diaz, Di", "Ess, Ed"]  # Gus was deleted
    ann = players[1].ratings
    assert set(ann) == {System.R}  # G/60;d5 is dual rated: the rating is R, Q is derived
    assert (ann[System.R].rating, ann[System.R].games, ann[System.R].games_known) == (1800, 26, False)
    assert players[4].ratings == {} and players[4].id == ""  # rating 0: unrated
    result = rate_section(event.sections[0])
    assert result.dual and result.player(1).ratings[System.R].m == 2


def test_the_zipped_ptoz_file(tmp_path: Path) -> None:
    """jsonfiles.html: a zip with a single internal file, always called 'Json'."""
    path = tmp_path / "winter.ptoz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("Json", (DATA / "swiss.json").read_text())
    event = wintd.read(path)
    assert event.id == "winter"
    assert rows(event) == rows(wintd.read(DATA / "swiss.json"))


def test_a_zip_without_json(tmp_path: Path) -> None:
    path = tmp_path / "odd.ptoz"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a", "{}")
        archive.writestr("b", "{}")
    with pytest.raises(ParseError) as caught:
        wintd.read(path)
    assert [str(i) for i in caught.value.issues] == [
        "zip: expected one internal file called 'Json', found ['a', 'b']"]


def test_double_rounds_are_two_rated_rounds() -> None:
    """gamesPerMatch 2: a match's games (type 4) by sequence; a bye fills both games."""
    event = wintd.read(DATA / "double_rounds.json")
    assert rows(event) == {
        1: ["1W2", "2D2", "3H", "4H"],
        2: ["1L1", "2D1", "3L3", "4L3"],
        3: ["1W4", "2L4", "3W2", "4W2"],   # sequence 0 is listed after sequence 1
        4: ["1L3", "2W3"],                 # no game in round 2 (-1)
    }
    result = rate_section(event.sections[0])
    assert result.systems == (System.B,)  # G/3+2
    assert result.player(3).ratings[System.B].m == 4


def test_special_results() -> None:
    event = wintd.read(DATA / "special_results.json")
    assert event.start_date == date(2026, 3, 1)  # MM/DD/YYYY
    assert rows(event) == {
        1: ["1X2", "2H"],   # split -1: the win counts for the first player only; +98
        2: ["1U", "2U"],    # ... and not for the second; 99 (no result yet)
        3: ["1F4", "2H"],   # -98: a double forfeit; +98: an unplayed draw
        4: ["1F3", "2U"],
        5: ["1B", "2X"],    # p1 = -1, result -1: the second player's full-point bye; +2 vs -1
    }
    players = event.sections[0].players
    # mainRating 2: base.rating is a FIDE Standard rating, not a US Chess one
    assert [(p.ratings, p.fide.rating if p.fide else None) for p in players[:3]] == [
        ({}, 2000), ({}, 1900), ({}, None)]
    rate_section(event.sections[0])


def test_round_robin() -> None:
    event = wintd.read(DATA / "round_robin.json", event_date=date(2026, 6, 1))
    section = event.sections[0]
    assert section.type is SectionType.ROUND_ROBIN and event.start_date == date(2026, 6, 1)
    assert rows(event) == {1: ["1D2", "3W3"], 2: ["1D1", "2W3"], 3: ["2L2", "3L1"]}


def test_every_problem_of_a_malformed_file_is_reported() -> None:
    with pytest.raises(ParseError) as caught:
        wintd.read(DATA / "malformed.json", event_date=DAY)
    assert [str(i) for i in caught.value.issues] == [
        "players[0]: expected 'base' and 'tnmt' objects (base.json, tnmt.json)",
        "players[1].tnmt.sectionID: section 5 does not exist (there are 1 sections)",
        "sections[0].gamesPerMatch: expected 1, 2, ... 10, found 0",
        "players[3].tnmt.pairno: pairing number 3 is already used by players[2] in this section",
        "players[2].base.rating: expected a rating (a number >= 0), found 'high'",
        "players[2].tnmt.games[0]: game 7 is not a position in 'games' (0..1, or -1 for none)",
        "players[3].tnmt.games[0]: games[0] is between players 4 and 2, not players[3]",
        "games[1].result: missing: expected a whole number",
    ]


@pytest.mark.parametrize(("data", "message"), [
    ([], "(top level): expected an object with 'sections', 'players' and 'games', found a list"),
    ({"players": []}, "sections: missing: expected a list"),
    ({"sections": [{}], "players": [{"base": {"name": "T"}, "tnmt": {"sectionID": -2}}]},
     "players[0].tnmt.sectionID: team-v-team sections are not read: rate them from the US "
     "Chess report instead"),
    ({"sections": [{}], "players": [
        {"base": {"name": "A"}, "tnmt": {"sectionID": 0, "pairno": 1, "games": [0]}},
        {"base": {"name": "B"}, "tnmt": {"sectionID": 0, "pairno": 2, "games": [1]}}],
      "games": [{"p1": 0, "p2": 1, "r1": 1, "r2": 1, "result": 7, "type": 0},
                {"p1": 0, "p2": 1, "r1": 2, "r2": 2, "result": 1, "type": 0}]},
     "players[0].tnmt.games[0]: result 7 is not a WinTD result: expected +1, -1, 0, +2, -2, "
     "+3, -98, +98 or 99 (game.html)"),
])
def test_single_problems(data: Any, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        wintd.parse(json.dumps(data), "t.json", event_date=DAY)
    assert str(caught.value.issues[0]) == message


def test_a_round_listed_in_the_wrong_place() -> None:
    data = json.loads((DATA / "round_robin.json").read_text())
    data["players"][0]["tnmt"]["games"] = [-1, 0, 2]  # game 0 is round 1, not round 2
    with pytest.raises(ParseError) as caught:
        wintd.parse(json.dumps(data), "t.json", event_date=DAY)
    assert [str(i) for i in caught.value.issues] == [
        "players[0].tnmt.games[1]: games[0] is round 1 for this player, but is listed as round 2"]


def test_claims_for_sniffing() -> None:
    assert wintd.claims((DATA / "swiss.json").read_text()[:4096])
    assert not wintd.claims('{"event": {"id": "x"}, "sections": []}')


# --- nothing crashes the reader -----------------------------------------------------------

KEYS = ["sections", "players", "games", "base", "tnmt", "sectionID", "pairno", "status",
        "p1", "p2", "r1", "r2", "result", "type", "split", "sequence", "gamesPerMatch", "TC",
        "rating", "name", "mainRating", "USCFratable", "RRCount", "beginDate"]
JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 6) | st.sampled_from([99, 98, -98, 3, 2])
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner,
                                                              max_size=6),
    max_leaves=40)


def _read_or_refuse(data: bytes, suffix: str = ".json") -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"x{suffix}"
        path.write_bytes(data)
        try:
            assert isinstance(wintd.read(path, event_date=date(2026, 1, 1)), Event)
        except ParseError:
            pass


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    _read_or_refuse(data)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_arbitrary_bytes_after_a_zip_signature_never_crash(data: bytes) -> None:
    _read_or_refuse(b"PK\x03\x04" + data, ".ptoz")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(JSONISH)
def test_arbitrary_json_shapes_never_crash(data: Any) -> None:
    _read_or_refuse(json.dumps(data).encode())
