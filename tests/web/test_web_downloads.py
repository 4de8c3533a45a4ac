"""An event's crosstable and a member's history as CSV and JSON (issue 40): the public
view only. The JSON is the API's; every cell of the CSV is what the page shows."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from tests.web.conftest import SAMPLE_ID
from tests.web.test_web_pages import text_of


def rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_an_events_json_download_is_the_apis_public_view(client: Any) -> None:
    answer = client.get(f"/events/{SAMPLE_ID}?download=json")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == f'attachment; filename="event-{SAMPLE_ID}.json"'
    assert answer.json() == client.get(f"/api/events/{SAMPLE_ID}").json()


def test_each_csv_row_says_what_the_crosstable_shows(client: Any) -> None:
    """Every player and system of the sample: the page's crosstable line holds the row's
    "system: pre -> post" and its results, as the page writes them."""
    answer = client.get(f"/events/{SAMPLE_ID}?download=csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    found = rows(answer.text)
    public = client.get(f"/api/events/{SAMPLE_ID}").json()
    assert len(found) == sum(len(p["ratings"]) for s in public["sections"] for p in s["players"])
    page = client.get(f"/events/{SAMPLE_ID}").text
    for row in found:
        body = re.search(rf'<tbody class="player" id="s{row["section"]}p{row["pair"]}"'
                         r'.*?</tbody>', page, re.S)
        assert body is not None
        shown = text_of(body.group(0))
        assert f"{row['system']}: {row['pre']} → {row['post']}" in shown, (row, shown[:200])
        assert all(code.replace(" ", "") in shown.replace(" ", "")
                   for code in row["results"].split())
        assert row["name"] in shown and row["member_id"] in shown


def test_a_history_download_has_the_pages_rows(client: Any) -> None:
    answer = client.get("/players/30000006?download=csv")
    assert answer.headers["content-disposition"] == \
        'attachment; filename="member-30000006-history.csv"'
    found = rows(answer.text)
    public = client.get("/api/players/30000006").json()
    assert [(r["event_id"], r["system"], int(r["post"]), int(r["games_after"]))
            for r in found] == [(h["event_id"], h["system"], h["post"], h["games_after"])
                                for h in public["history"]]
    assert client.get("/players/30000006?download=json").json() == public


def test_only_csv_and_json_are_offered(client: Any) -> None:
    assert client.get(f"/events/{SAMPLE_ID}?download=xml").status_code == 422
    assert client.get("/events/no-such-event?download=csv").status_code == 404
