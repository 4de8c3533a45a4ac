"""End to end: `uscf serve` in a child process, driven by a real headless Chromium.

Debian's chromium (/usr/bin/chromium) is driven by Playwright's Python package; Playwright's
own browser downloads are never used. Without either, these tests skip, saying why (under
CI=true they fail). Each test saves a screenshot in tests/web/artifacts/, which CI keeps.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from uscf_ratings.core.model import System
from uscf_ratings.estimator.estimate import EstimateInput, Game, estimate
from tests.conftest import REPO, skip_or_fail
from tests.web.conftest import SAMPLE, make_office

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).with_name("artifacts")
CSV_SECTION = REPO / "tests" / "formats" / "data" / "csv" / "two_sections.csv"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_until_up(url: str, process: subprocess.Popen[str], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"uscf serve exited {process.returncode}: {process.stdout.read() if process.stdout else ''}")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"uscf serve did not answer at {url} within {seconds:g} s")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`uscf serve` on 127.0.0.1 and a free port, with an office holding the sample event."""
    url = make_office(tmp_path_factory.mktemp("office"))
    with serving("--db", url) as (base, _process):
        yield base


@contextmanager
def serving(*options: str) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`uscf serve OPTIONS` in a child process on 127.0.0.1 and a free port: its address
    and process, once it answers; stopped at the end."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(REPO / "src") + os.pathsep + str(REPO))
    env.pop("USCF_DB", None)
    process = subprocess.Popen(
        [sys.executable, "-c", "from uscf_ratings.cli.main import cli; cli()",
         "serve", *options, "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base + "/", process)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        skip_or_fail(f"{CHROMIUM} is missing: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("playwright is not installed: pip install -e '.[test]'")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


class Watched:
    """A page whose requests, console errors and script errors are recorded."""

    def __init__(self, browser: Any, base: str):
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.base = base
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def screenshot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def check_clean(self) -> None:
        """Nothing fetched from elsewhere, no script error, no CSP violation."""
        outside = [u for u in self.requests if not u.startswith((self.base, "data:"))]
        assert outside == [], f"requests outside the app: {outside}"
        assert self.errors == [], f"console errors: {self.errors}"


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Watched]:
    watched = Watched(browser, server)
    yield watched
    watched.page.close()


def test_estimator_fill_submit_and_read(page: Watched) -> None:
    page.goto("/")
    p = page.page
    assert p.locator("select[name=age_group]").is_hidden()  # the script shows what applies
    p.check("input[name=status][value=unrated]")
    assert p.locator("select[name=age_group]").is_visible()
    assert p.locator("input[name=rating]").is_hidden()
    p.check("input[name=status][value=rated]")
    p.select_option("select[name=system]", "R")
    p.fill("input[name=date]", "2026-08-01")
    p.fill("input[name=rating]", "1500")
    p.fill("input[name=games]", "40")
    rows = p.locator("#games tbody tr")
    assert rows.count() == 4
    for _ in range(2):
        p.click("#add-game")
    assert rows.count() == 6
    games = [("1600", "", "W"), ("1500", "12", "D"), ("1450", "", "L"), ("1700", "", "W"),
             ("", "", "W"), ("1380", "", "D")]  # an empty row is ignored
    for row, (rating, n, result) in zip(rows.all(), games):
        row.locator("input[name=opp_rating]").fill(rating)
        row.locator("input[name=opp_games]").fill(n)
        row.locator("select[name=result]").select_option(result)
    p.locator("#games tbody tr").nth(4).locator(".remove-game").click()
    assert rows.count() == 5
    p.click("#estimate-form button[type=submit]")
    p.wait_for_selector("#estimate-result")
    expected = estimate(EstimateInput(System.R, date(2026, 8, 1), 1500.0, 40, games_played=(
        Game(1600.0, "W"), Game(1500.0, "D", 12), Game(1450.0, "L"), Game(1700.0, "W"),
        Game(1380.0, "D")))).rating
    assert p.inner_text("#estimate-rounded") == str(expected.post_rounded)
    assert f"{expected.post:.2f}" in p.inner_text("#estimate-post")
    assert "ESTIMATE" in p.inner_text("#estimate-result h2").upper()
    assert p.locator("#estimate-result table.games tbody tr").count() == 5
    page.screenshot("estimator")
    page.check_clean()


def test_upload_a_section_file(page: Watched) -> None:
    page.goto("/")
    p = page.page
    p.set_input_files("input[name=file]", str(SAMPLE))
    p.click("#section-form button[type=submit]")
    p.wait_for_selector("#section-result")
    text = p.inner_text("#section-result")
    assert "Riverside Chess Club August Action" in text
    assert "30000006 / R: unr. → 1672P9" in text
    first = p.locator("#section-result details").first
    first.locator("summary").click()
    assert "standard" in first.inner_text() and "K(S−E)" in first.inner_text()
    page.screenshot("section-upload")
    page.check_clean()


def test_upload_a_csv_section(page: Watched) -> None:
    if not CSV_SECTION.exists():
        pytest.skip("the CSV crosstable's test data is not in this tree")
    page.goto("/")
    p = page.page
    p.set_input_files("input[name=file]", str(CSV_SECTION))
    p.click("#section-form button[type=submit]")
    p.wait_for_selector("#section-result")
    assert "Spring Action" in p.inner_text("#section-result")
    page.screenshot("section-upload-csv")
    page.check_clean()


def test_a_bad_upload_is_explained(page: Watched) -> None:
    page.goto("/")
    p = page.page
    p.fill("textarea[name=event_json]", '{"event": {"id": "x", "start_date": "2026-13-01"}, '
                                        '"sections": [{"number": 1, "players": []}]}')
    p.click("#section-form button[type=submit]")
    p.wait_for_selector("#outcome .problem")
    problem = p.inner_text("#outcome .problem")
    assert "should be non-empty" in problem
    page.screenshot("section-problem")
    # The browser logs the page's own 422 status as an error; nothing else may be logged.
    page.errors = [e for e in page.errors if "status of 422" not in e]
    page.check_clean()


def test_player_page_draws_the_history_chart(page: Watched) -> None:
    page.goto("/players/30000001")
    p = page.page
    chart = p.locator("#chart-R svg.chart:visible")
    assert chart.count() == 1  # the desktop's drawing; the phone's is hidden at this width
    line = chart.locator("polyline.line")
    points = line.get_attribute("points") or ""
    # the rating before the sample event (2026-08-01), after it, and after the Fall Quads
    # (2026-09-01): the first two on one day, the third 31 days later, to the right
    xs = [float(xy.split(",")[0]) for xy in points.split()]
    assert len(xs) == 3 and xs[0] == xs[1] < xs[2]
    box = line.bounding_box()
    assert box is not None and box["width"] > 100  # drawn, and across the chart
    assert chart.locator("circle.point").count() == 3
    titles = chart.locator("text.title").all_text_contents()  # the axis titles
    assert any("Rating" in t for t in titles) and any("Date" in t for t in titles)
    assert "1846" in p.inner_text("table.ratings")
    page.screenshot("player")
    page.check_clean()


def test_event_page_and_rating_list(page: Watched) -> None:
    page.goto("/events/202608010001")
    p = page.page
    assert "30000001 / R: 1850 → 1846" in p.inner_text("table.msa")
    page.screenshot("event")
    page.goto("/list?as_of=2026-08-15&system=R")
    with p.expect_download() as download:
        p.click("#csv-link")
    saved = download.value
    assert saved.suggested_filename == "rating-list-R-2026-08-15.csv"
    assert Path(saved.path()).read_text(encoding="utf-8").startswith("id,name,rating,display")
    page.goto("/members?q=o")
    page.screenshot("members")
    page.check_clean()
