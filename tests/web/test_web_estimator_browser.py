"""The estimator's new modes in a real Chromium: the fields each mode shows, a dual-rated
total-score estimate end to end, the glossary links, and a phone's 390 px.

The server, the browser and the watched page are those of test_web_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from uscf_ratings.core.model import System
from uscf_ratings.estimator.estimate import EstimateInput, Game, estimate
from tests.web.test_web_browser import Watched, browser, server  # noqa: F401  (fixtures)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Watched]:  # noqa: F811
    watched = Watched(browser, server)
    yield watched
    watched.page.close()


def widest(p: Any) -> float:
    """How far right the page reaches, in CSS pixels: its own width, and every element's
    right edge, except inside a box that scrolls sideways by itself (a wide table's
    `.scroll`), which the box keeps within the screen."""
    return float(p.evaluate("Math.max(document.documentElement.scrollWidth, "
                            "...[...document.querySelectorAll('body *')]"
                            ".filter(e => !e.parentElement.closest('.scroll'))"
                            ".map(e => e.getBoundingClientRect().right))"))


def fill_dual_total(p: Any) -> None:
    p.select_option("select[name=system]", "R+Q")
    p.fill("input[name=date]", "2026-08-01")
    p.fill("input[name=rating]", "2300")
    p.fill("input[name=quick_rating]", "2250")
    p.check("input[name=mode][value=total]")
    p.fill("input[name=score]", "2.5")
    rows = p.locator("#games tbody tr")
    for row, (rating, quick) in zip(rows.all(), [("2200", "2150"), ("2400", ""),
                                                 ("2100", ""), ("2350", "")], strict=True):
        row.locator("input[name=opp_rating]").fill(rating)
        row.locator("input[name=opp_quick]").fill(quick)


def test_each_mode_shows_its_own_fields(page: Watched) -> None:
    page.goto("/")
    p = page.page
    quick, result = p.locator("input[name=quick_rating]"), p.locator("select[name=result]").first
    assert quick.is_hidden() and p.locator("input[name=score]").is_hidden() and result.is_visible()
    p.select_option("select[name=system]", "R+Q")
    assert quick.is_visible() and p.locator("input[name=opp_quick]").first.is_visible()
    p.check("input[name=mode][value=total]")
    assert p.locator("input[name=score]").is_visible() and result.is_hidden()
    p.click("#add-game")  # a new row follows the mode too
    assert p.locator("#games tbody tr").last.locator("select[name=result]").is_hidden()
    assert p.locator("#games tbody tr").last.locator("input[name=opp_quick]").is_visible()
    page.check_clean()


def test_a_dual_rated_total_score_estimate(page: Watched) -> None:
    page.goto("/")
    p = page.page
    fill_dual_total(p)
    p.click("#estimate-form button[type=submit]")
    p.wait_for_selector("#estimate-result")
    games = (Game(2200.0, "", opponent_quick=2150.0), Game(2400.0, ""), Game(2100.0, ""),
             Game(2350.0, ""))
    expected = estimate(EstimateInput(System.R, date(2026, 8, 1), 2300.0, None, dual=True,
                                      quick_rating=2250.0, games_played=games, total=2.5))
    assert p.inner_text("#estimate-rounded") == str(expected.of(System.R).post_rounded)
    assert p.inner_text("#estimate-rounded-Q") == str(expected.of(System.Q).post_rounded)
    text = p.inner_text("#estimate-result")
    assert "Regular and Quick ratings" in text and "Result (assumed)" in text
    assert "algorithm of 400" in text
    page.screenshot("estimator-dual-total")
    page.check_clean()


def test_an_explanation_links_to_the_glossary(page: Watched) -> None:
    page.goto("/")
    p = page.page
    p.fill("input[name=rating]", "1500")
    p.locator("input[name=opp_rating]").first.fill("1600")
    p.click("#estimate-form button[type=submit]")
    p.wait_for_selector("#estimate-result")
    p.locator(".explain a[href$='#k']").first.click()
    p.wait_for_url("**/glossary#k")
    assert "800 / (N′ + m)" in p.inner_text("#k + dd")
    page.check_clean()


def test_the_estimator_fits_a_phone(browser: Any, server: str) -> None:  # noqa: F811
    watched = Watched(browser, server)
    p = watched.page
    p.set_viewport_size(PHONE)
    try:
        watched.goto("/")
        fill_dual_total(p)
        assert widest(p) <= PHONE["width"]
        p.click("#estimate-form button[type=submit]")
        p.wait_for_selector("#estimate-result")
        assert widest(p) <= PHONE["width"]
        watched.goto("/glossary")
        assert widest(p) <= PHONE["width"]
        watched.screenshot("estimator-phone")
        watched.check_clean()
    finally:
        p.close()
