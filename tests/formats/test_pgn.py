"""Reading PGN tag pairs into rated sections."""

from __future__ import annotations

import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.core.model import Event, Player, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats import pgn
from uscf_ratings.formats.detect import read_any, sniff
from uscf_ratings.formats.errors import ParseError

#: The date given (as --date) to test texts that state none.
DAY = date(2026, 1, 2)

DATA = Path(__file__).parent / "data" / "pgn"


def cells(player: Player) -> list[str]:
    return [f"{r.round}{r.code}{r.opponent if r.opponent is not None else ''}"
            for r in sorted(player.results, key=lambda r: r.round)]


def rows(event: Event, section: int = 1) -> dict[int, list[str]]:
    return {p.pair: cells(p) for p in event.sections[section - 1].players}


def game(round_: str, white: str, black: str, result: str, **tags: str) -> str:
    extra = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
    return (f'[Event "E"]\n[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
            f'[Result "{result}"]\n{extra}\n{result}\n\n')


def test_a_club_blitz_with_double_rounds_forfeits_and_a_bye() -> None:
    event, notes = pgn.load(DATA / "club.pgn")
    assert (event.id, event.name) == ("club", "Friday Blitz")
    assert (event.start_date, event.end_date) == (date(2026, 3, 13), date(2026, 3, 14))
    (section,) = event.sections
    assert (section.name, section.time_control, section.online) == ("Friday Blitz", "G/3+2", False)
    assert [(p.pair, p.name, p.id) for p in section.players] == [
        (1, "Adams, Ann", "12000001"), (2, "Baker, Bo", "12000002"), (3, "Cruz, Cy", ""),
        (4, "Diaz, Di", ""), (5, "Ess, Ed", "")]
    assert rows(event) == {
        1: ["1W2", "2D2", "3X3"],  # 1.1 and 1.2 are rounds 1 and 2; round 2 becomes 3
        2: ["1L1", "2D1"],         # the unfinished game with Diaz (*) is skipped
        3: ["1L4", "2F4", "3F1"],  # "time forfeit" is a played loss; "forfeit" is not played
        4: ["1W3", "2X3"],
        5: ["3H"],                 # a draw against BYE: a half-point bye
    }
    players = section.players
    assert {s: (r.rating, r.games, r.games_known) for s, r in players[0].ratings.items()} == {
        System.B: (1800, 26, False)}
    assert players[0].fide is not None and players[0].fide.rating == 1750  # WhiteElo is FIDE
    assert players[2].ratings[System.B].games == 12  # 1456P12
    assert [str(n) for n in notes] == ["line 73 (Result): unfinished game (*) skipped"]
    result = rate_section(section)
    assert result.systems == (System.B,)
    assert result.player(1).ratings[System.B].m == 2


def test_sections_by_event_and_section_tags() -> None:
    event = pgn.read(DATA / "two_sections.pgn")
    assert event.name == ""  # two Event tags
    assert [(s.number, s.name, s.time_control, s.online) for s in event.sections] == [
        (1, "Spring Open / Open", "G/90+30", False),
        (2, "Spring Open / U1400", "G/90+30", False),
        (3, "Side Blitz", "G/5", True)]  # Mode "ICS": an Internet Chess Server
    open_ = event.sections[0]
    # "smith, ann" is "Smith, Ann"; "12345678" in BlackUSCF is an id, not a rating
    assert [(p.name, p.id, {s.value: r.rating for s, r in p.ratings.items()})
            for p in open_.players] == [("Smith, Ann", "", {"R": 2010}),
                                        ("Jones, Bob", "12345678", {})]
    assert rows(event) == {1: ["1W2", "2D2"], 2: ["1L1", "2D1"]}
    assert (open_.start_date, open_.end_date) == (date(2026, 4, 4), date(2026, 4, 5))
    for section in event.sections:
        rate_section(section)


def test_a_player_paired_twice_in_a_round() -> None:
    """Three players each meet twice in round 1 (3 slots are needed, though each plays
    only twice: the games are placed in the first slot both players have free)."""
    text = (game("1.1", "A", "B", "1-0") + game("1.2", "B", "C", "1-0")
            + game("1.3", "C", "A", "1/2-1/2") + game("2", "A", "B", "0-1"))
    event, _ = pgn.parse(text, event_date=date(2026, 1, 2))
    assert event.start_date == date(2026, 1, 2)  # no Date tags
    assert rows(event) == {1: ["1W2", "3D3", "4L2"], 2: ["1L1", "2W3", "4W1"],
                           3: ["2L2", "3D1"]}


def test_a_player_known_by_id_in_one_game_and_by_name_in_another() -> None:
    text = (game("1", "Ann", "Bob", "1-0", WhiteUSCFId="11111111")
            + game("2", "Bob", "Ann", "0-1"))
    event, _ = pgn.parse(text, event_date=DAY)
    assert [(p.name, p.id) for p in event.sections[0].players] == [("Ann", "11111111"),
                                                                   ("Bob", "")]
    assert rows(event) == {1: ["1W2", "2W2"], 2: ["1L1", "2L1"]}


def test_differing_ratings_are_noted_and_the_first_kept() -> None:
    text = (game("1", "Ann", "Bob", "1-0", WhiteUSCF="1500")
            + game("2", "Bob", "Ann", "0-1", BlackUSCF="1520"))
    event, notes = pgn.parse(text, event_date=DAY)
    assert event.sections[0].players[0].ratings[System.R].rating == 1500
    assert [str(n) for n in notes] == [
        "line 10: 'Ann' has rating 1520 here but 1500 earlier: the first is used"]


@pytest.mark.parametrize(("result", "termination", "codes"), [
    ("+/-", None, ("1X2", "1F1")), ("-/+", None, ("1F2", "1X1")), ("+:-", None, ("1X2", "1F1")),
    ("--", None, ("1F2", "1F1")), ("0-0", None, ("1F2", "1F1")),
    ("1-0", "unplayed", ("1X2", "1F1")), ("0-1", "No show", ("1F2", "1X1")),
    ("1/2-1/2", "forfeit", ("1H", "1H")), ("1-0", "time forfeit", ("1W2", "1L1")),
])
def test_forfeit_conventions(result: str, termination: str | None, codes: tuple[str, str]) -> None:
    tags = {"Termination": termination} if termination else {}
    event, _ = pgn.parse(game("1", "A", "B", result, **tags), event_date=DAY)
    assert (rows(event)[1][0], rows(event)[2][0]) == codes


@pytest.mark.parametrize(("text", "converted"), [
    ("5400+30", "G/90+30"), ("40/7200:3600", "40/120,SD/60"), ("300", "G/5"),
    ("180+2", "G/3+2"), ("40/5400+30:1800+30", "40/90+30,SD/30+30"), ("150", "G/2.5"),
    ("?", None), ("-", None), ("*180", None), ("G/60", None),
])
def test_pgn_time_controls(text: str, converted: str | None) -> None:
    assert pgn.pgn_time_control(text) == converted


def test_every_problem_of_a_malformed_file_is_reported() -> None:
    with pytest.raises(ParseError) as caught:
        pgn.read(DATA / "malformed.pgn", event_date=DAY)
    assert [str(i) for i in caught.value.issues] == [
        "line 11: malformed tag pair '[Event \"Broken\"': expected [Name \"value\"]",
        "line 41: tag Black is given twice in one game (first on line 39)",
        "line 6 (Result): Result '2-0' is not a game result: expected 1-0, 0-1, 1/2-1/2, * or "
        "a forfeit (+/-, -/+, -/-)",
        "line 12 (Round): Round '?' is not a round number: expected '3' or '3.1'",
        "line 19: game without Round tag(s): each game needs White, Black, Result and Round",
        "line 31 (WhiteElo): 'abc' is not a FIDE rating: expected 1850 or -",
        "line 29 (Black): 'g, h' plays against themself",
        "line 2 (Date): '2026.02.30' is not a calendar date",
        "line 42 (TimeControl), line 51 (TimeControl): the games of one section have "
        "different time controls: 5400+30, 600",
    ]


@pytest.mark.parametrize(("text", "message"), [
    ("", "no games found: expected tag pairs such as [White \"Smith, Ann\"]"),
    ("1. e4 e5 *\n", "line 1: move text before any tag pair: expected [Event \"...\"] first"),
    (game("1", "A", "B", "*"), "no games found: expected tag pairs such as [White \"Smith, Ann\"]"),
    (game("1", "BYE", "bye", "1-0"), "line 3 (White): both players are BYE"),
    (game("1", "A", "B", "1-0", WhiteUSCF="12ab"),
     "line 6 (WhiteUSCF): '12ab' is not a US Chess rating: expected 1456 or 1456P12"),
    (game("0", "A", "B", "1-0"), "line 2 (Round): Round '0' is not a round number: expected "
                                 "'3' or '3.1'"),
    (game("1", "A", "B", "1-0", TimeControl="G/60"),
     "line 6 (TimeControl): TimeControl 'G/60' is not a PGN time control: expected seconds "
     "such as 5400+30 or 40/7200:3600"),
])
def test_single_problems(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        pgn.parse(text, "t.pgn", event_date=DAY)
    assert str(caught.value.issues[0]) == message


def test_the_registry_reads_pgn() -> None:
    assert sniff(DATA / "club.pgn").name == "pgn"
    assert read_any(DATA / "club.pgn").name == "Friday Blitz"


def test_latin1_files_read(tmp_path: Path) -> None:
    path = tmp_path / "old.pgn"
    path.write_bytes(game("1", "Müller, Jörg", "B", "1-0").encode("latin-1"))
    assert pgn.read(path, event_date=DAY).sections[0].players[0].name == "Müller, Jörg"


# --- nothing crashes the reader -----------------------------------------------------------

LINES = st.lists(st.one_of(
    st.sampled_from(['[Event "E"]', '[Section "S"]', '[Round "1"]', '[Round "2.1"]',
                     '[White "A"]', '[Black "B"]', '[Black "BYE"]', '[Result "1-0"]',
                     '[Result "*"]', '[Result "+/-"]', '[WhiteUSCF "1500"]',
                     '[TimeControl "300+2"]', '[Date "2026.01.0"]', "{ [", "}", "1. e4 1-0", "",
                     '[Termination "forfeit"]', "%", ";", '[White "A"][Black "C"]']),
    st.text(alphabet='[]"{}; .AB120-/+*\\', max_size=20)), max_size=25)


def _read_or_refuse(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.pgn"
        path.write_bytes(data)
        try:
            event, notes = pgn.load(path, event_date=date(2026, 1, 1))
        except ParseError:
            return
        assert isinstance(event, Event) and isinstance(notes, list)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_crash(data: bytes) -> None:
    _read_or_refuse(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LINES)
def test_arbitrary_tag_sections_never_crash(lines: list[str]) -> None:
    _read_or_refuse("\n".join(lines).encode())
