"""Reading the event JSON format: defaults, and errors that name the place and the fix."""

from __future__ import annotations

import json
from datetime import date

import pytest

from uscf_ratings.core.model import KFactor, SectionType, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.validate import SectionError
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.event_json import parse_event, read_event
from tests.conftest import REPO


def minimal(**section: object) -> dict[str, object]:
    base: dict[str, object] = {
        "number": 1, "time_control": "G/60;d5",
        "players": [
            {"pair": 1, "id": "1", "ratings": {"R": {"rating": 1500, "games": 30}},
             "results": ["W2"]},
            {"pair": 2, "id": "2", "ratings": {"R": {"rating": 1500, "games": 30}},
             "results": ["L1"]},
        ],
    }
    base.update(section)
    return {"event": {"id": "E1", "start_date": "2026-08-01"}, "sections": [base]}


def test_defaults_follow_the_schema() -> None:
    event = parse_event(json.dumps(minimal()))
    section = event.sections[0]
    assert event.end_date == date(2026, 8, 1)  # defaults to the start date
    assert section.start_date == section.end_date == date(2026, 8, 1)
    assert section.type is SectionType.SWISS and section.k is KFactor.FULL
    assert section.systems is None and section.online is False
    rating = section.players[0].ratings[System.R]
    assert rating.date == date(2026, 8, 1)  # a rating's date defaults to the section start
    assert rating.wins is None  # unknown history


def test_sample_event_reads() -> None:
    event = read_event(REPO / "examples" / "sample-event.json")
    assert [len(s.players) for s in event.sections] == [8, 6]


def test_every_schema_problem_is_reported_with_its_path() -> None:
    data = minimal()
    players = data["sections"][0]["players"]  # type: ignore[index]
    players[0]["results"] = ["W2", "Q7"]
    players[1]["ratings"]["R"]["rating"] = "-5"  # the schema states types; ranges: below
    with pytest.raises(ParseError) as caught:
        parse_event(json.dumps(data), "club.json")
    text = str(caught.value)
    assert "club.json: sections[0].players[0].results[1]: result 'Q7' is not a US Chess code" in text
    assert "sections[0].players[1].ratings.R.rating" in text
    assert len(caught.value.issues) == 2


def test_a_value_out_of_its_range_is_named_by_its_place_and_domain() -> None:
    """The ranges are the domain's (docs/domain.md): no rating below the absolute floor of
    100 (2025 text, section 5)."""
    data = minimal()
    data["sections"][0]["players"][1]["ratings"]["R"]["rating"] = -5  # type: ignore[index]
    with pytest.raises(ParseError) as caught:
        parse_event(json.dumps(data), "club.json")
    [issue] = caught.value.issues
    assert issue.where.startswith("section 1, player 2")
    assert issue.message.startswith("R rating -5: expected a number from 100 to 3500")


def test_bad_calendar_date_is_named() -> None:
    data = minimal()
    data["event"]["start_date"] = "2026-02-30"  # type: ignore[index]
    with pytest.raises(ParseError, match=r"event.start_date: '2026-02-30' is not a calendar date"):
        parse_event(json.dumps(data))


def test_a_bad_date_given_twice_is_named_at_each_place() -> None:
    """Each date text is read once an event (the reader keeps what it made): a bad one
    is still named wherever it is given, and a good one is the same date everywhere."""
    data = minimal()
    players = data["sections"][0]["players"]  # type: ignore[index]
    players[0]["ratings"]["R"]["date"] = players[1]["ratings"]["R"]["date"] = "2026-02-30"
    with pytest.raises(ParseError) as caught:
        parse_event(json.dumps(data))
    assert [i.where for i in caught.value.issues] == [
        "sections[0].players[0].ratings.R.date", "sections[0].players[1].ratings.R.date"]
    players[0]["ratings"]["R"]["date"] = players[1]["ratings"]["R"]["date"] = "2026-07-30"
    first, second = parse_event(json.dumps(data)).sections[0].players
    assert first.ratings[System.R].date == second.ratings[System.R].date == date(2026, 7, 30)


def test_invalid_json_names_line_and_column() -> None:
    with pytest.raises(ParseError, match=r"e.json: line 2 column 1: not valid JSON"):
        parse_event('{"event": \n}', "e.json")


def test_unmirrored_result_names_section_player_and_round() -> None:
    data = minimal()
    data["sections"][0]["players"][1]["results"] = ["D1"]  # type: ignore[index]
    event = parse_event(json.dumps(data))
    with pytest.raises(SectionError) as caught:
        rate_section(event.sections[0])
    assert str(caught.value).splitlines()[0] == (
        "section 1, player 1, id 1, round 1: result 'W2' is not mirrored: pair 2 has 'D1' "
        "(expected 'L1')")


def test_unknown_pair_and_all_problems_reported() -> None:
    data = minimal()
    data["sections"][0]["players"][0]["results"] = ["W9"]  # type: ignore[index]
    data["sections"][0]["players"][1]["results"] = ["L1", "W1"]  # type: ignore[index]
    event = parse_event(json.dumps(data))
    with pytest.raises(SectionError) as caught:
        rate_section(event.sections[0])
    messages = [str(p) for p in caught.value.problems]
    assert "section 1, player 1, id 1, round 1: result 'W9' names pair 9, which is not in the section" in messages
    assert len(messages) >= 1


def test_round_robin_may_list_games_in_any_round_order() -> None:
    """Real round-robin reports list each game by opponent column, not by round."""
    data = minimal(type="round_robin")
    players = data["sections"][0]["players"]  # type: ignore[index]
    players.append({"pair": 3, "id": "3", "ratings": {"R": {"rating": 1600, "games": 40}},
                    "results": ["D1", "W2"]})
    players[0]["results"] = ["W2", "D3"]
    players[1]["results"] = ["L1", "L3"]
    # pair 3's row lists its games in a different order of "rounds" than its opponents'
    event = parse_event(json.dumps(data))
    result = rate_section(event.sections[0])
    assert result.player(3).ratings[System.R].m == 2


def test_a_round_without_a_result_keeps_the_later_games_in_their_rounds() -> None:
    """Event JSON's n-th cell is round n. A reader may leave a round without a result
    out (WinTD's game -1, a PGN player absent from a round); written as event JSON (the
    office's stored source, ``uscf convert``), that round is U and the later games are
    read back in their own rounds, mirrored. Before, pair 1's round 3 game came back in
    round 2, where its opponent had drawn pair 2: a stored event the office could not
    rate again."""
    from uscf_ratings.core.model import Event, Player, Result, Section
    from uscf_ratings.formats.event_json import event_to_json

    day = date(2026, 3, 7)
    players = (Player(1, "1", results=(Result(1, "W", 2), Result(3, "W", 3))),
               Player(2, "2", results=(Result(1, "L", 1), Result(2, "D", 3))),
               Player(3, "3", results=(Result(2, "D", 2), Result(3, "L", 1))))
    event = Event("gap", day, day, (Section(1, day, day, players, time_control="G/60"),))
    back = parse_event(json.dumps(event_to_json(event)))
    [section] = back.sections
    assert [r for p in section.players for r in p.results if r.code != "U"] == [
        r for p in players for r in p.results]
    assert [r.code for r in section.players[0].results] == ["W", "U", "W"]
    rate_section(section)  # mirrored: no SectionError
