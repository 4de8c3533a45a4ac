"""Rated crosstables as text, CSV, JSON and HTML, checked on a section rated by hand."""

from __future__ import annotations

import json
import math
from datetime import date
from html.parser import HTMLParser

import pytest

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import SectionResult
from uscf_ratings.formats import outputs
from uscf_ratings.formats.result_json import event_to_dict

DAY = date(2025, 9, 6)
EVIL = "<script>alert('x')</script> & Co"


def tiny() -> tuple[Event, list[SectionResult]]:
    """Two established players, one game: Ann (1500, N = 30) beats Bo (1600, N = 30)."""
    players = (
        Player(1, "10000001", "Ann Able", ratings={System.R: Rating(1500, 30)},
               results=(Result(1, "W", 2),)),
        Player(2, "10000002", EVIL, ratings={System.R: Rating(1600, 30)},
               results=(Result(1, "L", 1),)),
    )
    section = Section(1, DAY, DAY, players, name="Open", time_control="G/90;d30")
    event = Event("202509060001", DAY, DAY, (section,), "Tiny Open")
    return event, [rate_section(section)]


def by_hand() -> tuple[float, float]:
    """The 2025 text's standard formula (sections 1, 3 and 4.2), worked here independently.

    N* = 50 / sqrt(0.662 + 0.00000739 (2569 - R0)^2); N' = min(N, N*) = N* for both (30 is
    more); m = 1, so K = 800 / (N' + 1) and no bonus (m < 3). Step 4 uses the opponent's
    pre-event rating, Step 5 its Step 4 rating: Rs = R0 + K (S - We(R0, Ri)).
    """
    def n_star(r: float) -> float:
        return 50 / math.sqrt(0.662 + 0.00000739 * (2569 - r) ** 2)

    def we(r: float, ri: float) -> float:
        return 1 / (1 + 10 ** (-(r - ri) / 400))

    k_ann, k_bo = 800 / (n_star(1500) + 1), 800 / (n_star(1600) + 1)
    ann4 = 1500 + k_ann * (1 - we(1500, 1600))
    bo4 = 1600 + k_bo * (0 - we(1600, 1500))
    return 1500 + k_ann * (1 - we(1500, bo4)), 1600 + k_bo * (0 - we(1600, ann4))


def test_the_hand_computation_agrees_with_the_engine() -> None:
    ann, bo = by_hand()
    _, (result,) = tiny()
    assert result.player(1).ratings[System.R].post == pytest.approx(ann, abs=1e-9)
    assert result.player(2).ratings[System.R].post == pytest.approx(bo, abs=1e-9)
    assert (round(ann), round(bo)) == (1527, 1575)  # 1527.498, 1574.892: no half-way tie


def test_text_in_the_msa_layout() -> None:
    event, results = tiny()
    ann, bo = by_hand()
    rules = results[0].rules.name
    assert outputs.render_text(event, results).splitlines() == [
        "Tiny Open (202509060001)",
        "2025-09-06 .. 2025-09-06",
        "",
        f"Section 1: Open  (rated R; time control G/90;d30; {rules})",
        f"Pair {'Player':<{len(EVIL)}} ID       Total     Rd 1",
        "-" * len(f"Pair {'Player':<{len(EVIL)}} ID       Total     Rd 1"),
        # one game each: no norm (it needs 4 rated games), the code's place left blank
        f"   1 {'Ann Able':<{len(EVIL)}} 10000001   1.0     W   2",
        f"     R: 1500 -> {round(ann)}",
        f"   2 {EVIL} 10000002   0.0     L   1",
        f"     R: 1600 -> {round(bo)}",
    ]


def test_csv_one_row_per_player_and_system() -> None:
    event, results = tiny()
    ann, bo = by_hand()
    lines = outputs.render_csv(event, results).splitlines()
    assert lines[0] == ("section,pair,id,name,system,pre,post,post_2dp,games_after,formula,"
                        "total,norm,round1")
    post = results[0].player(1).ratings[System.R].post
    assert lines[1] == f"1,1,10000001,Ann Able,R,1500.0,{post!r},{ann:.2f},31,standard,1.0,,W2"
    assert lines[2].startswith("1,2,10000002,<script>alert('x')</script> & Co,R,1600.0,")
    assert lines[2].endswith(f",{bo:.2f},31,standard,0.0,,L1")
    assert len(lines) == 3


def test_csv_lists_a_player_without_any_rating_once() -> None:
    """An unrated player whose only round is a bye has no rating result at all."""
    event, _ = tiny()
    section = event.sections[0]
    bye = Player(3, "", "Newcomer", results=(Result(1, "B"),))
    section = Section(1, DAY, DAY, (*section.players, bye), name="Open",
                      time_control="G/90;d30")
    event = Event(event.id, DAY, DAY, (section,), event.name)
    lines = outputs.render_csv(event, [rate_section(section)]).splitlines()
    assert lines[3] == "1,3,,Newcomer,,,,,,,1.0,,B"


def test_json_is_the_result_json() -> None:
    event, results = tiny()
    assert json.loads(outputs.render_json(event, results)) == json.loads(
        json.dumps(event_to_dict(event, results)))


class _Checker(HTMLParser):
    """Every element closed in order; records the tags, attributes and text."""

    VOID = frozenset({"meta", "br", "link", "img", "hr", "input"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs += attrs
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(f"unexpected </{tag}>")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_html_is_well_formed_self_contained_and_escaped() -> None:
    event, results = tiny()
    ann, bo = by_hand()
    page = outputs.render_html(event, results)
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.errors == [] and checker.stack == []
    assert page.startswith("<!DOCTYPE html>")
    assert "script" not in checker.tags  # the name is text, not a tag
    assert not {"link", "img", "iframe"} & set(checker.tags)
    assert all(name not in ("src", "href") for name, _ in checker.attrs)
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; Co" in page
    text = "".join(checker.text)
    assert EVIL in text and "Tiny Open" in text
    assert f"R: 1500 -> {round(ann)}" in text and f"R: 1600 -> {round(bo)}" in text
    assert checker.tags.count("table") == 1 and checker.tags.count("tr") == 3


def test_a_member_entered_twice_is_one_player() -> None:
    players = (
        Player(1, "10000001", "Ann Able", ratings={System.R: Rating(1500, 30)},
               results=(Result(1, "W", 2),)),
        Player(2, "10000002", "Bo Best", ratings={System.R: Rating(1600, 30)},
               results=(Result(1, "L", 1), Result(2, "D", 3))),
        Player(3, "10000001", "Ann Able", ratings={System.R: Rating(1500, 30)},
               results=(Result(2, "D", 2),)),
    )
    section = Section(1, DAY, DAY, players, time_control="G/90;d30")
    event = Event("E", DAY, DAY, (section,))
    text = outputs.render_text(event, [rate_section(section)])
    assert "     (one player with pair 3)" in text and "     (one player with pair 1)" in text


def test_results_must_match_the_sections() -> None:
    event, results = tiny()
    with pytest.raises(ValueError, match="1 section results for 2 sections"):
        outputs.render_text(Event("E", DAY, DAY, event.sections * 2), results)
