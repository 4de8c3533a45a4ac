"""The norm beside the total in every rated crosstable (text, MSA text, CSV, HTML, JSON and
the streamed JSON of ``uscf rate --json``), on a section whose norms are worked by hand.

The section: a round robin of five players, all 1600 (N = 30) before it. Pair 1 beats
everyone; pairs 2-5 draw among themselves. Norms count against the opponents' POST-event
ratings (core/norms.py), which the rating moves; so the codes are worked for any post
ratings in a range, pair 1's in (1600, 1800) and the others' in (1500, 1600] (they score
less than the 2 expected of four equal games, so they do not gain), and
`test_the_posts_are_in_the_worked_range` checks that the section's posts are.

Pair 1, S = 4 over 4 games against the others (titles.md's table, D = L - Ri):
* at 1600 (N:2): D in [0, 100), so each E < 0.5 + 100/400 = 0.75 and E < 3:
  S - E > 1, earned;
* at 1800 (N:1): D in [200, 300), so each E = 1 and E = 4: S - E = 0, not earned.
  So pair 1's code is N:2, and the closest level not earned is N:1.
Pairs 2-5, S = 1.5 over 4 games, against pair 1 and three of the others:
* at 1200 (N:4): against pair 1 D in (-600, -400): E = 0; against the others D in
  [-400, -300): each E < 0.5 - 300/800 = 0.125, so E < 0.375 and S - E > 1.125, earned;
* at 1400 (N:3): against the others D in [-200, -100): each E >= 0.5 - 200/800 = 0.25,
  so E >= 0.75 and S - E <= 0.75, not earned.
  So their code is N:4.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, SectionType, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import SectionResult
from uscf_ratings.formats import outputs
from uscf_ratings.formats.crosstable_text import render_section
from uscf_ratings.formats.result_json import results_document, write_results

DAY = date(2025, 9, 6)
#: round by round: (white, black) of each game; the fifth player of a round has a bye (U)
SCHEDULE = {1: ((1, 2), (3, 4)), 2: ((1, 3), (2, 5)), 3: ((1, 4), (3, 5)),
            4: ((1, 5), (2, 4)), 5: ((2, 3), (4, 5))}
EXPECTED = {1: "N:2", 2: "N:4", 3: "N:4", 4: "N:4", 5: "N:4"}
TOTALS = {1: 4.0, 2: 1.5, 3: 1.5, 4: 1.5, 5: 1.5}


def _code(me: int, other: int) -> str:
    return "W" if me == 1 else "L" if other == 1 else "D"


def norm_section() -> tuple[Event, list[SectionResult]]:
    players = []
    for pair in range(1, 6):
        results = []
        for rnd, games in SCHEDULE.items():
            other = next((b if a == pair else a for a, b in games if pair in (a, b)), None)
            results.append(Result(rnd, "U") if other is None
                           else Result(rnd, _code(pair, other), other))
        players.append(Player(pair, f"3010000{pair}", f"Player {pair}",
                              ratings={System.R: Rating(1600.0, 30)}, results=tuple(results)))
    section = Section(1, DAY, DAY, tuple(players), name="Quint", time_control="G/90;d30",
                      type=SectionType.ROUND_ROBIN)
    return Event("202509060002", DAY, DAY, (section,), "Norm Quint"), [rate_section(section)]


def test_the_posts_are_in_the_worked_range() -> None:
    _, (result,) = norm_section()
    posts = {p.pair: p.ratings[System.R].post for p in result.players}
    assert 1600 < posts[1] < 1800, posts
    assert all(1500 < posts[pair] <= 1600 for pair in (2, 3, 4, 5)), posts
    assert {p.pair: p.norm.code for p in result.players if p.norm} == EXPECTED


def test_msa_text_puts_the_code_beside_the_total() -> None:
    event, results = norm_section()
    lines = outputs.render_text(event, results).splitlines()
    rows = {int(line[:4]): line for line in lines if line[:4].strip().isdigit()}
    for pair, code in EXPECTED.items():
        # "   1 Player 1  30100001   4.0 N:2 W   2 ...": the total in 5, the code in 3
        assert f" {TOTALS[pair]:>5.1f} {code} " in rows[pair]


def test_text_puts_the_code_beside_the_total() -> None:
    event, results = norm_section()
    lines = render_section(event.sections[0], results[0]).splitlines()[1:]
    assert len(lines) == 5
    for pair, line in zip(range(1, 6), lines, strict=True):
        assert line.startswith(f"{pair:>3} Player {pair} (3010000{pair})")
        assert f" {TOTALS[pair]:>4.1f} {EXPECTED[pair]} " in line


def test_csv_has_a_norm_column_beside_the_total() -> None:
    event, results = norm_section()
    rows = list(csv.DictReader(io.StringIO(outputs.render_csv(event, results))))
    assert [(int(r["pair"]), float(r["total"]), r["norm"]) for r in rows] == [
        (pair, TOTALS[pair], code) for pair, code in EXPECTED.items()]
    header = outputs.render_csv(event, results).splitlines()[0].split(",")
    assert header.index("norm") == header.index("total") + 1


def test_html_puts_the_code_under_the_total_with_its_title() -> None:
    event, results = norm_section()
    page = outputs.render_html(event, results)
    assert page.count('<abbr class="norm"') == 5
    assert '4.0<abbr class="norm" title="a norm toward 2nd Category">N:2</abbr>' in page
    assert page.count('title="a norm toward 4th Category">N:4</abbr>') == 4


def test_json_gives_the_code_and_the_explanation() -> None:
    event, results = norm_section()
    players = json.loads(outputs.render_json(event, results))["sections"][0]["players"]
    assert {p["pair"]: p["norm"] for p in players} == EXPECTED
    first = players[0]["norm_explanation"]
    assert first["code"] == "N:2" and first["title"] == "2nd Category"
    assert (first["eligible"], first["score"], first["games"], first["needed"]) == (
        True, 4.0, 4, 1.0)
    assert first["closest"] == "N:1"
    levels = {level["code"]: level for level in first["levels"]}
    assert list(levels) == ["N:4", "N:3", "N:2", "N:1", "N:C", "N:M", "N:S"]
    assert [levels[c]["level"] for c in levels] == [1200, 1400, 1600, 1800, 2000, 2200, 2400]
    # the bounds worked in the module's docstring, and margin = S - E at every level
    assert levels["N:2"]["expected"] < 3 and levels["N:2"]["earned"]
    assert levels["N:1"]["expected"] >= 3 and not levels["N:1"]["earned"]
    assert all(level["margin"] == 4.0 - level["expected"] for level in levels.values())
    assert all(level["earned"] == (level["margin"] > 1) for level in levels.values())


def test_a_player_who_cannot_earn_one_says_why() -> None:
    """Two players, one game: 1 rated game is fewer than the 4 a norm needs."""
    players = (Player(1, "1", "A", ratings={System.R: Rating(1500, 30)},
                      results=(Result(1, "W", 2),)),
               Player(2, "2", "B", ratings={System.R: Rating(1600, 30)},
                      results=(Result(1, "L", 1),)))
    section = Section(1, DAY, DAY, players, time_control="G/90;d30")
    event = Event("E", DAY, DAY, (section,))
    document = json.loads(outputs.render_json(event, [rate_section(section)]))
    first = document["sections"][0]["players"][0]
    assert first["norm"] is None
    assert first["norm_explanation"]["eligible"] is False
    assert first["norm_explanation"]["reason"] == "1 rated game; a norm needs at least 4"
    assert first["norm_explanation"]["levels"] == []


def test_an_online_section_earns_none_and_says_why() -> None:
    """The same games online: norms are earned over the board only (titles.md)."""
    event, _ = norm_section()
    online = Section(1, DAY, DAY, tuple(
        Player(p.pair, p.id, p.name, ratings={System.OR: Rating(1600.0, 30)},
               results=p.results) for p in event.sections[0].players),
        systems=(System.OR,), online=True, type=SectionType.ROUND_ROBIN)
    rated = rate_section(online)
    text = outputs.render_csv(Event("E", DAY, DAY, (online,)), [rated])
    assert [r["norm"] for r in csv.DictReader(io.StringIO(text))] == [""] * 5
    players = json.loads(outputs.render_json(Event("E", DAY, DAY, (online,)), [rated])
                         )["sections"][0]["players"]
    assert [p["norm"] for p in players] == [None] * 5
    assert {p["norm_explanation"]["reason"] for p in players} == {
        "norms are earned over the board only, not in an online section"}


def test_the_streamed_json_is_the_document_with_the_norms() -> None:
    """``uscf rate --json`` writes a player at a time; the text is json.dumps's."""
    rated = [norm_section()]
    pieces: list[str] = []
    write_results(rated, pieces.append)
    text = "".join(pieces)
    assert text == json.dumps(results_document(rated), indent=2)
    players = json.loads(text)["events"][0]["sections"][0]["players"]
    assert {p["pair"]: p["norm"] for p in players} == EXPECTED
