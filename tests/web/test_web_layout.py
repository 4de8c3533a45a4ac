"""Every kind of page at a phone's width (390 px) and a desktop's (1280 px), in Chromium:
no page is wider than the screen (a wide table scrolls in its own `.scroll` box), the
charts' text stays readable, and axe-core finds no accessibility violation. Each page's
full-length screenshot is saved in tests/web/artifacts/<width>-<page>.png, which CI keeps.

axe-core comes from the npm registry, pinned in tests/web/axe/package.json and its lock
file: `npm ci --prefix tests/web/axe` installs it (.ci/run does). Without it, or without
Chromium or Playwright, these tests skip, saying what to run (under CI=true they fail).

With USCF_DOCS_IMAGES=1 the tests also save the screenshots of docs/web.md in
docs/images/ (the screen's height only, not the whole page):

    USCF_DOCS_IMAGES=1 python3 -m pytest tests/web/test_web_layout.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.conftest import REPO, skip_or_fail
from tests.web.conftest import SAMPLE
from tests.web.test_web_browser import ARTIFACTS, browser, server  # noqa: F401  (fixtures)

AXE = Path(__file__).with_name("axe") / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {390: 844, 1280: 900}  #: a phone's and a desktop's screen, width: height
DOCS_IMAGES = REPO / "docs" / "images"
SMALLEST_CHART_TEXT = 10.0  #: CSS pixels: the rendered size of a chart's smallest text


@dataclass(frozen=True)
class Kind:
    """A kind of page: how to reach it, and what shows that it is there."""

    name: str
    path: str
    ready: str  #: a selector that the page shows once it holds what it should
    fill: Callable[[Any], None] | None = None  #: fills and sends a form on `path`
    status: int = 200
    docs: bool = False  #: one of docs/web.md's screenshots


def games(p: Any, rows: list[tuple[str, str]]) -> None:
    """Each row's opponent's rating and result ("" to leave the result as it is)."""
    for row, (rating, result) in zip(p.locator("#games tbody tr").all(), rows, strict=False):
        row.locator("input[name=opp_rating]").fill(rating)
        if result:
            row.locator("select[name=result]").select_option(result)


def estimate_games(p: Any) -> None:
    p.fill("input[name=date]", "2026-08-01")
    p.fill("input[name=rating]", "1500")
    p.fill("input[name=games]", "40")
    games(p, [("1600", "W"), ("1500", "D"), ("1450", "L"), ("1700", "W")])
    p.click("#estimate-form button[type=submit]")


def estimate_total(p: Any) -> None:
    p.fill("input[name=date]", "2026-08-01")
    p.fill("input[name=rating]", "1800")
    p.check("input[name=mode][value=total]")
    p.fill("input[name=score]", "2.5")
    games(p, [("1750", ""), ("1900", ""), ("1820", ""), ("1600", "")])
    p.click("#estimate-form button[type=submit]")


def estimate_dual(p: Any) -> None:
    p.select_option("select[name=system]", "R+Q")
    p.fill("input[name=date]", "2026-08-01")
    p.fill("input[name=rating]", "2300")
    p.fill("input[name=quick_rating]", "2250")
    games(p, [("2200", "W"), ("2400", "D"), ("2100", "W"), ("2350", "L")])
    p.locator("#games tbody tr").first.locator("input[name=opp_quick]").fill("2150")
    p.click("#estimate-form button[type=submit]")


def estimate_unrated(p: Any) -> None:
    p.fill("input[name=date]", "2026-08-01")
    p.check("input[name=status][value=unrated]")
    p.select_option("select[name=age_group]", "12")
    p.fill("input[name=fide]", "1500")  # its conversion and the age's part are explained
    games(p, [("900", "W"), ("1100", "L"), ("750", "W"), ("1000", "D")])
    p.click("#estimate-form button[type=submit]")


def upload(p: Any) -> None:
    p.set_input_files("input[name=file]", str(SAMPLE))
    p.click("#section-form button[type=submit]")


def upload_refused(p: Any) -> None:
    p.fill("textarea[name=event_json]", '{"event": {"id": "x", "start_date": "2026-13-01"}, '
                                        '"sections": [{"number": 1, "players": []}]}')
    p.click("#section-form button[type=submit]")


KINDS = [
    Kind("estimator", "/", "#estimate-form"),
    Kind("estimate-games", "/", "#estimate-result", estimate_games, docs=True),
    Kind("estimate-total", "/", "#estimate-result .assumed", estimate_total),
    Kind("estimate-dual", "/", "#estimate-rounded-Q", estimate_dual),
    Kind("estimate-unrated", "/", "#estimate-result dl.facts", estimate_unrated, docs=True),
    Kind("upload", "/", "#section-result table.msa", upload),
    Kind("upload-refused", "/", "#outcome .problem", upload_refused, status=422),
    Kind("glossary", "/glossary", "dl.glossary"),
    Kind("members", "/members?q=o", "table.list tbody tr"),
    Kind("player", "/players/30000001", "#chart-Q svg.chart:visible", docs=True),
    Kind("events", "/events", "table.list tbody tr"),
    Kind("event", "/events/202608010001", "table.msa", docs=True),
    Kind("list", "/list?as_of=2026-08-15&system=R", "table.list tbody tr", docs=True),
    Kind("titles", "/titles?as_of=2026-08-15", "table.list tbody tr"),
    Kind("api", "/docs", "table.api"),
    Kind("not-found", "/no-such-page", ".problem", status=404),
]


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        skip_or_fail(f"axe-core is not installed ({AXE} is missing): run "
                     "`npm ci --prefix tests/web/axe` (Node's npm: apt-get install npm)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def context(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:  # noqa: F811
    width: int = request.param
    made = browser.new_context(viewport={"width": width, "height": WIDTHS[width]})
    yield made
    made.close()


def overflow(p: Any) -> dict[str, Any]:
    """The page's width, and the elements whose right edge lies past the screen's, except
    inside a box that scrolls sideways by itself."""
    found: dict[str, Any] = p.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const outside = [...document.querySelectorAll('body *')]
          .filter(e => !e.parentElement.closest('.scroll'));
        const widest = Math.max(...outside.map(e => e.getBoundingClientRect().right));
        const out = outside.filter(e => e.getBoundingClientRect().right > width + 0.5)
          .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                    + (e.className && typeof e.className === 'string'
                       ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
                    + ' right ' + Math.round(e.getBoundingClientRect().right));
        const boxes = [...document.querySelectorAll('.scroll')].filter(b => b.checkVisibility());
        return {scrollWidth: document.documentElement.scrollWidth, width, widest, out,
                scrolled: Math.max(0, ...boxes.map(b => b.scrollWidth)),
                boxes: boxes.filter(b => b.scrollWidth > b.clientWidth)
                            .map(b => `${b.firstElementChild.className} ${b.scrollWidth} px`)};
    }""")
    return found


def chart_text_sizes(p: Any) -> list[float]:
    """The rendered font size, in CSS pixels, of each text of each chart shown: its
    font size in the drawing's units times the drawing's scale on the screen."""
    sizes: list[float] = p.evaluate("""() => [...document.querySelectorAll('svg.chart')]
        .filter(svg => svg.getBoundingClientRect().width > 0)
        .flatMap(svg => {
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll('text')].map(
            t => parseFloat(getComputedStyle(t).fontSize) * scale);
        })""")
    return sizes


def axe_violations(p: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page, with every rule axe runs by default (WCAG 2 A and
    AA, and its best practices)."""
    p.evaluate(source)
    found: list[dict[str, Any]] = p.evaluate("""async () => {
        const results = await axe.run(document, {resultTypes: ['violations']});
        return results.violations.map(v => ({
          id: v.id, impact: v.impact, help: v.help,
          nodes: v.nodes.map(n => ({target: n.target.join(' '), summary: n.failureSummary}))}));
    }""")
    return found


def readable(violations: list[dict[str, Any]]) -> str:
    lines = []
    for v in violations:
        lines.append(f"{v['id']} ({v['impact']}): {v['help']}")
        for node in v["nodes"][:8]:
            summary = " ".join(str(node["summary"]).split())
            lines.append(f"    {node['target']}: {summary[:300]}")
        if len(v["nodes"]) > 8:
            lines.append(f"    ... and {len(v['nodes']) - 8} more")
    return "\n".join(lines)


def save_docs_image(p: Any, path: Path) -> None:
    """The top of the page, a screen high, in 256 colours or fewer (pngquant, from
    Debian's package of that name), which makes it about a quarter of the size."""
    pngquant = shutil.which("pngquant")
    if pngquant is None:
        pytest.fail("the screenshots of docs/web.md are made small by pngquant: apt-get install pngquant")
    p.evaluate("window.scrollTo(0, 0)")
    path.parent.mkdir(exist_ok=True)
    subprocess.run([pngquant, "--quality", "50-80", "--speed", "1", "--strip", "--force",
                    "--output", str(path), "-"], input=p.screenshot(), check=True)


def open_kind(p: Any, base: str, kind: Kind) -> list[str]:
    """Load the page (sending its form, if it has one) and wait until it is complete: the
    console's errors and the script errors so far, less the page's own status."""
    statuses: list[int] = []
    errors: list[str] = []
    p.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.on("response", lambda r: statuses.append(r.status)
         if r.request.resource_type == "document" else None)
    p.goto(base + kind.path)
    if kind.fill is not None:
        with p.expect_navigation():
            kind.fill(p)
    p.wait_for_selector(kind.ready)
    assert statuses[-1] == kind.status, f"{kind.name}: HTTP {statuses}"
    return [e for e in errors if f"status of {kind.status}" not in e]


def open_everything(p: Any) -> None:
    """Open every <details> ("Why these ratings", the upload form's fields for what a
    file lacks), and wait until each has said so (the page's script listens)."""
    p.evaluate("""async () => {
        const closed = [...document.querySelectorAll('details:not([open])')];
        const opened = closed.map(d => new Promise(r => d.addEventListener('toggle', r, {once: true})));
        closed.forEach(d => { d.open = true; });
        await Promise.all(opened);
    }""")


def loaded(context: Any, base: str, kind: Kind) -> Any:
    """A new page of the context, showing ``kind``, with no console error."""
    p = context.new_page()
    errors = open_kind(p, base, kind)
    assert errors == [], f"{kind.name}: console errors (a style or script the CSP refused?): {errors}"
    return p


@pytest.mark.parametrize("context", list(WIDTHS), indirect=True, ids=lambda w: f"{w}px")
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_page_fits_the_screen(context: Any, server: str, kind: Kind) -> None:  # noqa: F811
    p = loaded(context, server, kind)
    width = p.viewport_size["width"]
    ARTIFACTS.mkdir(exist_ok=True)
    p.screenshot(path=str(ARTIFACTS / f"{width}-{kind.name}.png"), full_page=True)
    if kind.docs and os.environ.get("USCF_DOCS_IMAGES") == "1":
        save_docs_image(p, DOCS_IMAGES / f"{kind.name}-{'phone' if width < 600 else 'desktop'}.png")

    measured = overflow(p)
    print(f"{width} px, {kind.name}: page {measured['scrollWidth']} px wide, its content "
          f"reaches {measured['widest']:.0f} px; its widest scrolling table is "
          f"{measured['scrolled']} px")
    assert measured["scrollWidth"] <= width, f"{kind.name} is wider than the screen: {measured}"
    assert measured["out"] == [], f"{kind.name}: elements past the screen's edge: {measured['out']}"
    if width >= 1000:  # a desktop's screen has room for every table
        assert measured["boxes"] == [], f"{kind.name}: tables that scroll sideways: {measured}"

    sizes = chart_text_sizes(p)
    if kind.name == "player":
        assert len(sizes) > 10, "the player's charts are not shown"  # R and Q, with ticks
        assert min(sizes) >= SMALLEST_CHART_TEXT, f"chart text of {min(sizes):.1f} px at {width} px"
        print(f"{width} px, the charts' smallest text: {min(sizes):.1f} px")
    else:
        assert sizes == []

    open_everything(p)  # what a click shows fits too
    opened = overflow(p)
    assert opened["scrollWidth"] <= width and opened["out"] == [], f"{kind.name}, opened: {opened}"


@pytest.mark.parametrize("context", list(WIDTHS), indirect=True, ids=lambda w: f"{w}px")
@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_page_passes_axe(context: Any, server: str, axe_source: str,  # noqa: F811
                         kind: Kind) -> None:
    p = loaded(context, server, kind)
    open_everything(p)  # what a click shows is checked too; what shows before, still shows
    violations = axe_violations(p, axe_source)
    width = p.viewport_size["width"]
    assert violations == [], f"axe-core at {width} px on {kind.name}:\n{readable(violations)}"
