"""Issue 17: the estimator's section upload takes US Chess's own records (the ratings
API's), and puts our rating of each section beside the published numbers."""

from __future__ import annotations

import json
from typing import Any

from click.testing import CliRunner
from tests.conftest import REPO
from tests.published.conftest import RAW, real
from tests.web.test_web_pages import text_of

from uscf_ratings.cli.main import cli as cli_main

MADE_UP = REPO / "docs" / "examples" / "made-up-match.json"


def test_an_event_of_the_records_shows_the_published_beside_ours(bare_client: Any) -> None:
    """The made-up match, worked by hand in tests/published/recorded/README.md (1500
    against 1500, N taken as 50 so N' = N* = 16.568, K = 45.536, one win: 1521.28 and
    1478.72), agrees in both rows."""
    page = bare_client.post("/estimate/section", files={
        "file": ("made-up-match.json", MADE_UP.read_bytes(), "application/json")})
    assert page.status_code == 200, text_of(page.text)[:500]
    text = text_of(page.text)
    assert "Against US Chess's published ratings" in text
    assert "2 published ratings compared: 2 agree to 0.01" in text
    assert "FIRST, ANN R 1500.00 1521.28 1521.28 agrees" in text
    assert "SECOND, BEN R 1500.00 1478.72 1478.72 agrees" in text


def test_a_real_standings_page_with_the_form_s_date_and_systems(bare_client: Any) -> None:
    """A standings page holds neither date nor systems: the form gives them; its event
    id comes from the file's name. Every published rating of the page is compared; the
    member of the docs' example shows the published number of the file, and the cause."""
    path = real(RAW / "202605290393_s01_standings.json")
    page = bare_client.post("/estimate/section", data={"given_date": "2026-05-29",
                                                       "given_systems": "R"},
                            files={"file": (path.name, path.read_bytes(), "application/json")})
    assert page.status_code == 200, text_of(page.text)[:500]
    text = text_of(page.text)
    rows = json.loads(path.read_text())["items"]
    maya = next(r for r in rows if r["memberId"] == "20000031")
    [published] = [r["postRatingDecimal"] for r in maya["ratings"] if r["ratingSystem"] == "R"]
    assert "(202605290393, 2026-05-29 .. 2026-05-29)" in text
    assert (f"GARCIA, MAYA R 1236.21 {published:.2f} 1239.93 an opponent's earlier games "
            "were all wins (history not on the crosstable)") in text
    # every published R rating of the page is compared, and the count of those that
    # agree is the one `uscf verify` gives for the same file
    compared = sum(1 for r in rows for g in r["ratings"] if g["ratingSystem"] == "R")
    cli = CliRunner().invoke(cli_main, ["verify", "--date", "2026-05-29", "--systems", "R",
                                        str(path)])
    summary = cli.output.splitlines()[-1]
    assert summary.startswith(f"{compared} published ratings compared: ")
    assert summary in text


def test_another_format_shows_no_comparison(bare_client: Any) -> None:
    from tests.web.conftest import sample_text

    page = bare_client.post("/estimate/section",
                            files={"file": ("sample.json", sample_text(), "application/json")})
    assert page.status_code == 200 and "published ratings compared" not in page.text
