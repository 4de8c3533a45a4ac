"""The norm on the web: beside the total of a crosstable rated on the fly, in its "Why
these ratings" panel, in the estimator's answer, and in the office's public view.

The sections and their codes are worked by hand in tests/formats/test_outputs_norms.py
(the round robin) and below (the estimator's four games).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date
from typing import Any

from tests.formats.test_outputs_norms import EXPECTED, norm_section
from tests.web.test_web_pages import estimate_form, text_of

from uscf_ratings.core.model import System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats.event_json import event_to_json
from uscf_ratings.formats.result_json import section_to_dict
from uscf_ratings.web import crosstable
from uscf_ratings.web.app import create_app
from uscf_ratings.estimator.estimate import EstimateInput, Game, estimate
from uscf_ratings.web.privacy import public_section

FOUR_WINS = {"rating": "1500", "games": "40", "opp_rating": ["1600"] * 4,
             "opp_games": [""] * 4, "result": ["W"] * 4}


def norm_box(html: str) -> str:
    """The text of the estimator's norm, or "" when the page has none."""
    box = re.search(r'<div id="estimate-norm">.*?</div>\s*</div>', html, re.S)
    return "" if box is None else text_of(box.group(0)).strip()


def test_four_wins_against_1600s_earn_a_second_category_norm() -> None:
    """A 1500 (N = 40) beats four 1600s (N = 30), each of whom plays only that game. Each
    opponent loses, so ends between 1500 and 1600 (checked). Against four post ratings
    in (1500, 1600], S = 4: at 1600, D in [0, 100), each E < 0.75, E < 3, S - E > 1:
    earned; at 1800, D in [200, 300), each E = 1, E = 4, S - E = 0: not. So N:2."""
    day = date(2026, 8, 1)
    found = estimate(EstimateInput(System.R, day, 1500.0, 40,
                                   games_played=tuple(Game(1600.0, "W") for _ in range(4))))
    posts = [p.ratings[System.R].post for p in found.result.players[1:]]
    assert all(p is not None and 1500 < p <= 1600 for p in posts), posts
    norm = found.norm
    assert norm is not None and norm["code"] == "N:2" and norm["closest"] == "N:1"
    levels = {level["code"]: level for level in norm["levels"]}
    assert levels["N:1"]["expected"] == 4.0 and levels["N:1"]["margin"] == 0.0


def test_the_estimate_page_shows_the_norm_and_how_close_each_level_was(
        bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(**FOUR_WINS))
    assert page.status_code == 200
    box = norm_box(page.text)
    assert box.startswith("Norm toward a title N:2 , a norm toward 2nd Category.")
    assert "S = 4 over 4 games" in box
    # N:1 at 1800: E = 4 (each opponent 200 or more below), S - E = 0
    assert "The closest level not earned: N:1 (1st Category), S − E = 0.00 where more than 1 is needed" in box
    assert "N:1 1st Category 1800 4.00 0.00 > 1 no" in box
    assert "Norm Title Level E S − E Needed Earned" in box


def test_the_estimate_says_why_a_quick_section_earns_none(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(system="Q", **FOUR_WINS))
    assert page.status_code == 200
    box = norm_box(page.text)
    assert ("None could be earned: norms are earned only in sections rated in the Regular "
            "system (R)") in box
    assert "Earned" not in box  # no table of levels for a section that earns none


def test_the_estimate_says_why_three_games_earn_none(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(
        opp_rating=["1600", "1500", "1400"], opp_games=[""] * 3, result=["W", "D", "W"]))
    box = norm_box(page.text)
    assert box == "Norm toward a title None could be earned: 3 rated games; a norm needs at least 4."


def test_a_section_rated_on_the_fly_shows_each_norm_beside_the_total(
        bare_client: Any) -> None:
    event, _ = norm_section()
    page = bare_client.post("/estimate/section",
                            data={"event_json": json.dumps(event_to_json(event))})
    assert page.status_code == 200
    # each player's rows, up to the next player's (the panel holds tables of its own)
    bodies = dict(re.findall(r'<tbody class="player" id="s1p(\d+)"[^>]*>(.*?)(?=<tbody class="player"|</section>)',
                             page.text, re.S))
    assert sorted(map(int, bodies)) == sorted(EXPECTED)
    for pair, code in EXPECTED.items():
        body = bodies[str(pair)]
        marks = re.findall(r'<td class="total"><abbr class="norm" title="([^"]+)">([^<]+)</abbr>',
                           body)
        title = "2nd Category" if code == "N:2" else "4th Category"
        assert marks == [(f"a norm toward {title}", code)]
        panel = text_of(body)
        assert "Why these ratings and norm" in panel
        assert f"Norm toward a title : {code} , a norm toward {title}" in panel
    first = text_of(bodies["1"])
    assert "S = 4 over 4 games" in first
    assert re.search(r"N:2 2nd Category 1600 \d\.\d\d \d\.\d\d > 1 yes", first)
    assert re.search(r"N:1 1st Category 1800 4\.00 0\.00 > 1 no", first)
    assert ("The closest level not earned: N:1 (1st Category), S − E = 0.00 where more "
            "than 1 is needed") in first


def test_an_office_section_shows_the_norm_it_stores() -> None:
    """The office's players carry ``norm`` and ``norm_explanation`` as the JSON does."""
    explanation = {"code": "N:3", "title": "3rd Category", "eligible": True, "reason": "",
                   "score": 3.0, "games": 4, "needed": 1.0, "closest": "N:2", "levels": []}
    section = {"number": 1, "name": "", "systems": ["R"], "start_date": "2026-08-01",
               "end_date": "2026-08-01", "rule_set": "2025-01-01",
               "players": [{"pair": 1, "id": "1", "name": "A", "results": ["W2"],
                            "ratings": {}, "norm": "N:3", "norm_explanation": explanation},
                           {"pair": 2, "id": "2", "name": "B", "results": ["L1"],
                            "ratings": {}}]}
    table = crosstable.from_office(section)
    assert (table.rows[0].norm, table.rows[0].explained) == ("N:3", True)
    assert (table.rows[1].norm, table.rows[1].explained) == (None, False)


def test_a_section_with_a_start_from_a_birth_date_withholds_e(bare_client: Any) -> None:
    """Pair 5 of the round robin is a junior, unrated, with a birth date: E counts his
    post-event rating, which moves with his age-based start, so the public view withholds
    E and S - E for every player (as it withholds the steps' numbers), and keeps the
    codes, which US Chess publishes."""
    event, _ = norm_section()
    section = event.sections[0]
    junior = replace(section.players[4], ratings={}, birth_date=date(2014, 3, 1))
    section = replace(section, players=(*section.players[:4], junior))
    shown = public_section(section_to_dict(rate_section(section)))["players"]
    assert [p["norm"] for p in shown] == [p.norm.code if p.norm else None
                                          for p in rate_section(section).players]
    assert shown[0]["norm"] == "N:2"  # 4 wins: at 1800 each E = 1 still (posts <= 1600)
    for player in shown:
        norm = player["norm_explanation"]
        assert norm["withheld"].startswith("E and S - E are not shown")
        assert all(level["expected"] is None and level["margin"] is None
                   for level in norm["levels"])
        assert [level["earned"] for level in norm["levels"]] != []
    # and the panel says so where the numbers would be
    env = create_app().state.uscf.templates.env
    panel = env.from_string('{% from "_norm.html" import norm_explain %}{{ norm_explain(n) }}'
                            ).render(n=shown[0]["norm_explanation"])
    assert "N:2 2nd Category 1600 withheld withheld > 1 yes" in text_of(panel)
    assert "N:1 1st Category 1800 withheld withheld > 1 no" in text_of(panel)
    assert "E and S - E are not shown: they count an opponent's post-event rating" in text_of(panel)


def test_the_public_view_gives_e_and_the_margin_to_two_decimals() -> None:
    """E sums linear terms of unrounded post-event ratings: to every decimal it would give
    such a rating back, so the office's public view rounds it as it rounds the steps' E."""
    level = {"code": "N:2", "title": "2nd Category", "level": 1600.0,
             "expected": 1.8734375123, "margin": 1.1265624877, "earned": True}
    section = {"players": [{"pair": 1, "ratings": {}, "norm": "N:2",
                            "norm_explanation": {"code": "N:2", "levels": [level]}},
                           {"pair": 2, "ratings": {}}]}
    shown = public_section(section)["players"]
    assert shown[0]["norm_explanation"]["levels"][0]["expected"] == 1.87
    assert shown[0]["norm_explanation"]["levels"][0]["margin"] == 1.13
    assert shown[0]["norm"] == "N:2" and "norm_explanation" not in shown[1]
