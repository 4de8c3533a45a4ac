"""The web's titles: the player page's titles and norms, the title supplement page, its
CSV download and the API route, on the sample office (tests/web/conftest.py): Ana Torres
(30000001) earns N:3 in the sample event (stored with the ratings: tests/office)."""

from __future__ import annotations

import csv
import io
from typing import Any

from tests.web.conftest import SECRET_MEMBER


def test_player_page_shows_the_norm_and_the_norms_toward_each_level(client: Any) -> None:
    page = client.get("/players/30000001")
    assert page.status_code == 200
    html = page.text
    assert 'id="titles"' in html and "No title yet." in html
    # the N:3 norm counts toward 4th and 3rd Category, with the event that earned it
    assert "<th scope=\"row\">4th Category</th>" in html
    assert "<th scope=\"row\">3rd Category</th>" in html
    assert "<th scope=\"row\">2nd Category</th>" not in html
    assert html.count("1 of 5") == 2 and "202608010001</a> N:3" in html
    assert "<td>N:3</td>" in html  # the history row of the section


def test_title_supplement_page_csv_and_api_agree(client: Any) -> None:
    page = client.get("/titles", params={"as_of": "2026-08-15"})
    assert page.status_code == 200 and "Ana Torres" in page.text
    download = client.get("/titles.csv", params={"as_of": "2026-08-15"})
    assert download.headers["content-disposition"] == \
        'attachment; filename="title-supplement-2026-08-15.csv"'
    rows = list(csv.DictReader(io.StringIO(download.text)))
    ana = next(r for r in rows if r["id"] == "30000001")
    assert (ana["titles"], ana["N:4"], ana["N:3"], ana["N:2"]) == ("", "1", "1", "0")
    api = client.get("/api/titles", params={"as_of": "2026-08-15"}).json()
    assert [m["id"] for m in api] == [r["id"] for r in rows]
    earned = next(m for m in api if m["id"] == "30000001")["norms"][1]["earned"]
    assert earned == [{"date": "2026-08-01", "event": "202608010001", "section": 1,
                       "code": "N:3", "count": 1}]
    # before the sample event: nobody
    assert client.get("/titles.csv", params={"as_of": "2026-07-31"}).text.count("\n") == 1


def test_titles_never_show_a_birth_date(client: Any) -> None:
    """The secret member's birth date appears on no title page nor in the API."""
    born = SECRET_MEMBER.birth_date
    assert born is not None
    for path in (f"/players/{SECRET_MEMBER.id}", "/titles?as_of=2026-12-31",
                 "/titles.csv?as_of=2026-12-31", "/api/titles?as_of=2026-12-31"):
        text = client.get(path).text
        assert born.isoformat() not in text and "2015" not in text


def test_a_bad_date_is_refused_in_words(client: Any) -> None:
    answer = client.get("/titles", params={"as_of": "2026-13-01"})
    assert answer.status_code == 422 and "Traceback" not in answer.text


def test_a_stored_event_page_shows_each_norm_under_the_total_with_its_test(client: Any) -> None:
    # The sample event's open section, stored by the office: Ana Torres (pair 1) earned N:3
    # (examples/sample-event.json rated by the core, tests/core/test_norms.py's reading),
    # shown under her total with the panel's table of the seven levels.
    html = client.get("/events/202608010001").text
    assert '<abbr class="norm" title="a norm toward 3rd Category">N:3</abbr>' in html
    assert "Why these ratings and norm" in html


def test_titles_before_the_rating_rules_coverage_answer(client: Any) -> None:
    # titles are older than the rating rules (2013 on): a date before them is a day with
    # no title in this office, not a server error
    for path in ("/titles", "/titles.csv", "/api/titles"):
        assert client.get(path, params={"as_of": "2010-01-01"}).status_code == 200, path
    assert client.get("/players/30000001", params={"as_of": "2010-01-01"}).status_code == 200
