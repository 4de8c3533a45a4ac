"""What a reader needs of the pages on a phone (390 px) and a desktop (1280 px), in
Chromium: a crosstable of 116 players whose pairs, names and totals stay in view while its
rounds scroll, that can be searched, and whose explanations fit the screen; no control of
any page off the screen; on a phone no target under 44 px (WCAG 2.5.5) but links within
a sentence, which the guideline excepts; axe finds nothing in the dark scheme either.

Screenshots go to tests/web/artifacts/ as in test_web_layout.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.web.test_web_browser import ARTIFACTS, browser, server  # noqa: F401  (fixtures)
from tests.web.test_web_layout import (
    KINDS,
    WIDTHS,
    Kind,
    axe_source,  # noqa: F401  (a fixture)
    axe_violations,
    loaded,
    open_everything,
    readable,
)

PLAYERS = 116
ROUNDS = 5
TARGET = 44.0  #: CSS pixels: WCAG 2.5.5's target size


def big_section(folder: Path) -> Path:
    """116 players in 5 rounds, dual-rated (G/30;d5): the lower half meets the upper half,
    player k of the lower half playing player (k + round) of the upper; the results go
    round the three (a win, a draw, a loss for the lower half's player)."""
    half = PLAYERS // 2
    cells: dict[int, list[str]] = {pair: [] for pair in range(1, PLAYERS + 1)}
    for rnd in range(1, ROUNDS + 1):
        for k in range(half):
            low, high = k + 1, half + (k + rnd) % half + 1
            mine, theirs = "WDL"[(k + rnd) % 3], "LDW"[(k + rnd) % 3]
            cells[low].append(f"{mine}{high}")
            cells[high].append(f"{theirs}{low}")
    players = [{"pair": pair, "id": f"3100{pair:04d}", "name": f"Player {pair:03d}, Sample",
                "ratings": {"R": {"rating": 900 + 9 * pair, "games": 40},
                            "Q": {"rating": 880 + 9 * pair, "games": 40}},
                "results": cells[pair]} for pair in range(1, PLAYERS + 1)]
    path = folder / "big-section.json"
    path.write_text(json.dumps({
        "event": {"id": "202608010116", "name": "A Large Open", "start_date": "2026-08-01",
                  "end_date": "2026-08-01"},
        "sections": [{"number": 1, "name": "Open", "time_control": "G/30;d5",
                      "players": players}]}))
    return path


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:  # noqa: F811
    width: int = request.param
    context = browser.new_context(viewport={"width": width, "height": WIDTHS[width]})
    yield context.new_page()
    context.close()


def rect(p: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = p.locator(selector).first.evaluate(
        "e => { const r = e.getBoundingClientRect(); "
        "return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }")
    return box


@pytest.mark.parametrize("page", list(WIDTHS), indirect=True, ids=lambda w: f"{w}px")
def test_a_116_player_crosstable_keeps_whose_results_one_reads(
        page: Any, server: str, tmp_path: Path) -> None:  # noqa: F811
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(big_section(tmp_path)))
    with page.expect_navigation():
        page.click("#section-form button[type=submit]")
    page.wait_for_selector("#section-result table.msa")
    width = page.viewport_size["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{width}-crosstable-116.png"))
    assert page.locator("tbody.player").count() == PLAYERS

    # the rounds scrolled to the last: the pair, name and total of each row still in view
    page.locator("#section-result .scroll").first.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    page.locator("#s1p60").scroll_into_view_if_needed()
    box = rect(page, "#section-result .scroll")
    for cell in ("#s1p60 td.pair", "#s1p60 td.name", "#s1p60 td.total"):
        at = rect(page, cell)
        assert box["left"] - 0.5 <= at["left"] and at["right"] <= box["right"] + 0.5, (cell, at, box)
    last_round = rect(page, "#section-result thead th:last-child")
    assert last_round["right"] <= box["right"] + 0.5  # scrolled to the end, in view
    page.screenshot(path=str(ARTIFACTS / f"{width}-crosstable-116-scrolled.png"))

    # the search keeps the rows that match, and says how many
    page.fill("input[data-find=section-1]", "player 060")
    assert page.locator("tbody.player:visible").count() == 1
    assert page.locator("[data-found=section-1]").inner_text() == f"1 of {PLAYERS} players"
    page.fill("input[data-find=section-1]", "31000061")
    assert page.locator("tbody.player:visible").first.get_attribute("id") == "s1p61"
    page.fill("input[data-find=section-1]", "")
    assert page.locator("tbody.player:visible").count() == PLAYERS

    # "Why these ratings" opens within the table's box (so within the screen), every
    # line of it, though the rounds are scrolled to the last
    page.locator("#s1p60 tr.why summary").click()
    panel = rect(page, "#s1p60 tr.why details")
    assert box["left"] - 0.5 <= panel["left"] and panel["right"] <= box["right"] + 0.5, (panel, box)
    facts = page.locator("#s1p60 tr.why dl.facts").first.evaluate(
        "d => Math.max(...[...d.querySelectorAll('*')].map(e => e.getBoundingClientRect().right))")
    assert facts <= width + 0.5


def test_a_link_to_a_players_row_lands_on_it(browser: Any, server: str) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844})
    p = context.new_page()
    p.goto(server + "/players/30000005")
    link = p.locator("table.history a[href*='/events/202608010001#s1-30000005']").first
    with p.expect_navigation():
        link.click()
    row = p.locator("#s1p5")
    assert row.evaluate("b => getComputedStyle(b.querySelector('td.name')).backgroundColor") \
        != row.evaluate("b => getComputedStyle(document.querySelector('#s1p1 td.name'))"
                        ".backgroundColor")  # the row landed on is marked
    top = rect(p, "#s1p5")["top"]
    assert 0 <= top < 844 / 2, f"the row is not in view: its top at {top} px"
    context.close()


CONTROLS = """() => {
    const width = document.documentElement.clientWidth;
    const shown = [...document.querySelectorAll(
        'a[href], button, input:not([type=hidden]), select, textarea, summary')]
      .filter(e => e.checkVisibility());
    const name = e => e.tagName.toLowerCase() + (e.name ? `[name=${e.name}]` : '')
      + (e.id ? '#' + e.id : '') + ` "${(e.textContent || e.value || '').trim().slice(0, 30)}"`;
    const off = shown.filter(e => e.getBoundingClientRect().right > width + 0.5
                                  && !e.closest('.scroll table.msa, .scroll table.list, .scroll table.api'))
      .map(e => name(e) + ' right ' + Math.round(e.getBoundingClientRect().right));
    // WCAG 2.5.5 excepts a link within a sentence: its parent holds text of its own
    const inSentence = e => e.tagName === 'A' && [...e.parentElement.childNodes].some(
        n => n.nodeType === Node.TEXT_NODE && n.textContent.trim() !== '');
    const small = shown.filter(e => !inSentence(e)).map(e => {
        const target = e.matches('input[type=radio], input[type=checkbox]') && e.closest('label')
          ? e.closest('label') : e;
        const r = target.getBoundingClientRect();
        return [name(e), Math.round(r.width), Math.round(r.height)];
      }).filter(([, w, h]) => w < 43.5 || h < 43.5);
    return {off, small};
}"""

@pytest.mark.parametrize("page", list(WIDTHS), indirect=True, ids=lambda w: f"{w}px")
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_every_control_is_on_the_screen_and_large_enough_on_a_phone(
        page: Any, server: str, kind: Kind) -> None:  # noqa: F811
    context = page.context
    p = loaded(context, server, kind)
    if kind.name == "estimator":  # every field of every mode shown at once
        p.select_option("select[name=system]", "R+Q")
        p.check("input[name=mode][value=games]")
    open_everything(p)
    found = p.evaluate(CONTROLS)
    width = p.viewport_size["width"]
    assert found["off"] == [], f"{kind.name} at {width} px: controls off the screen: {found['off']}"
    if width < 600:
        assert found["small"] == [], f"{kind.name} on a phone: targets under 44 px: {found['small']}"


@pytest.mark.parametrize("kind", [k for k in KINDS if k.docs or k.name in (
    "estimate-dual", "not-found", "estimate-unrated")], ids=lambda k: k.name)
def test_the_dark_scheme_passes_axe(browser: Any, server: str, axe_source: str,  # noqa: F811
                                    kind: Kind) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    p = loaded(context, server, kind)
    open_everything(p)
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / f"390-dark-{kind.name}.png"), full_page=True)
    violations = axe_violations(p, axe_source)
    context.close()
    assert violations == [], f"axe-core in the dark scheme on {kind.name}:\n{readable(violations)}"


CHART_TEXT = """() => [...document.querySelectorAll('svg.chart')].map(svg => {
    svg.style.display = 'block';  // each drawing, the one this width hides too
    const view = svg.viewBox.baseVal;
    const frame = svg.getBoundingClientRect();
    const scale = view.width / frame.width;  // screen pixels to the drawing's units
    const texts = [...svg.querySelectorAll('text')].map(t => {
        const b = t.getBoundingClientRect();  // as drawn: a rotated title too
        return {text: t.textContent, left: (b.left - frame.left) * scale,
                right: (b.right - frame.left) * scale, top: (b.top - frame.top) * scale,
                bottom: (b.bottom - frame.top) * scale, floor: t.classList.contains('floor-label')};
    });
    const line = svg.querySelector('polyline.line');
    const length = line.getTotalLength();
    const along = [];
    for (let at = 0; at <= length; at += 1) { const p = line.getPointAtLength(at); along.push([p.x, p.y]); }
    return {width: view.width, kind: svg.getAttribute('class'), texts, along};
})"""


@pytest.mark.parametrize("member", ["30000001", "30000005", "30000008"])
def test_chart_labels_never_run_off_or_under_the_line(browser: Any, server: str,  # noqa: F811
                                                       member: str) -> None:
    """Every text of every drawing (phone, tablet, desktop) lies within the drawing, and
    the rating line crosses no floor label, as Chromium lays them out."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.goto(f"{server}/players/{member}")
    drawings = p.evaluate(CHART_TEXT)
    context.close()
    assert len(drawings) >= 3
    for drawing in drawings:
        for text in drawing["texts"]:
            assert -0.5 <= text["left"] and text["right"] <= drawing["width"] + 0.5, \
                (drawing["kind"], text)
            if text["floor"]:
                crossed = [pt for pt in drawing["along"]
                           if text["left"] <= pt[0] <= text["right"]
                           and text["top"] <= pt[1] <= text["bottom"]]
                assert crossed == [], (drawing["kind"], text["text"], crossed[:3])


def test_a_desktop_chart_uses_the_width_it_is_given(browser: Any, server: str) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.goto(f"{server}/players/30000001")
    chart = rect(p, "#chart-R svg.chart:visible")
    main = rect(p, "main")
    context.close()
    assert chart["right"] - chart["left"] >= 0.8 * (main["right"] - main["left"])


@pytest.mark.parametrize("path", ["/events/202608010001", "/list?as_of=2026-08-15&system=R",
                                  "/players/30000001"])
def test_printing_a_page_prints_its_content_alone(browser: Any, server: str,  # noqa: F811
                                                  path: str) -> None:
    """In print media the navigation, the search boxes, the pager and the "Why these
    ratings" toggles are not drawn; a crosstable's columns are not sticky on paper."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    p = context.new_page()
    p.goto(server + path)
    p.emulate_media(media="print")
    drawn = p.evaluate("""() => [...document.querySelectorAll(
        'header.top, footer, .find, form.search, nav.pages, nav.ways, tr.why, a.skip')]
        .filter(e => e.checkVisibility()).map(e => e.tagName + '.' + e.className)""")
    sticky = p.evaluate("""() => [...document.querySelectorAll('table.msa .name')]
        .filter(e => getComputedStyle(e).position === 'sticky').length""")
    content = p.locator("main h1").first.is_visible()
    context.close()
    assert drawn == [] and sticky == 0 and content
