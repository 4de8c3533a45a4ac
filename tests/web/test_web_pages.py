"""The pages, read as HTML: the estimator, uploads, the office's pages, their limits."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

from uscf_ratings.office import queries
from uscf_ratings.office.office import Office
from tests.conftest import REPO
from tests.web.conftest import SAMPLE_ID, sample_text

CSV_SECTION = REPO / "tests" / "formats" / "data" / "csv" / "two_sections.csv"


def estimate_form(**changes: Any) -> dict[str, Any]:
    form: dict[str, Any] = {"system": "R", "date": "2026-08-01", "status": "rated",
                            "rating": "1500", "games": "40", "opp_rating": ["1600", "1500", ""],
                            "opp_games": ["", "", ""], "result": ["W", "D", "W"]}
    return form | changes


def text_of(html: str) -> str:
    """The page's text without tags, spaces collapsed: what a reader sees."""
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


# --- the estimator ---------------------------------------------------------------------


def test_estimator_page_works_without_a_database(bare_client: Any) -> None:
    page = bare_client.get("/")
    assert page.status_code == 200
    assert 'id="estimate-form"' in page.text and 'id="section-form"' in page.text
    assert "Members" not in page.text  # no office pages to link to


def test_estimate_shows_the_engine_s_numbers_labelled_an_estimate(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form())
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Estimate Your Regular rating after these games" in text
    assert "1500.00 → 1526.02 shown as 1526" in text
    assert "opponents' own ratings move too" in text
    assert "standard: " in text and "Rules of 2025-01-01" in text
    assert "1573.24, 1500.00" in text  # Step 5's opponents: the first one's Step 4 rating


def test_estimate_for_an_unrated_child_uses_the_age_group(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(status="unrated", age_group="12",
                                                            rating="", games=""))
    assert page.status_code == 200
    text = text_of(page.text)
    assert "unrated → " in text
    assert "age 12.50: 50 x age" in text  # the middle of the year of age


def test_estimate_for_an_unrated_player_with_other_ratings(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(
        system="Q", status="unrated", rating="", games="", other_system="R",
        other_rating="1700", other_games="50", fide="1800"))
    assert page.status_code == 200
    assert "weighted average of R 1700.00" in page.text and "FIDE" in page.text


def test_estimate_form_problems_are_listed_beside_the_form(bare_client: Any) -> None:
    page = bare_client.post("/estimate", data=estimate_form(
        rating="", opp_rating=["abc", "5000"], opp_games=["", "0"], result=["W", "X"]))
    assert page.status_code == 422
    text = text_of(page.text)
    assert "give your rating (N too, if you know it), or say that you are unrated" in text
    assert "'abc' is not a number" in text
    assert "5000: expected a number from 100 to 3500" in text  # docs/domain.md
    assert "'X' is not W, D or L" in text
    assert 'value="abc"' in page.text  # what was typed stays in the form
    empty = bare_client.post("/estimate", data=estimate_form(opp_rating=[""]))
    assert empty.status_code == 422 and "enter at least one game" in empty.text
    early = bare_client.post("/estimate", data=estimate_form(date="2010-01-01"))
    assert early.status_code == 422  # before the rules covered (docs/domain.md), at its field
    assert "2010-01-01: expected a date from 2013-05-08" in text_of(early.text)
    assert 'name="date" aria-invalid="true" aria-describedby="error-date"' in early.text


def test_estimate_takes_at_most_the_configured_games() -> None:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    small = TestClient(create_app(Settings(max_games=2)))
    page = small.post("/estimate", data=estimate_form(opp_rating=["1500"] * 3,
                                                      opp_games=[""] * 3, result=["W"] * 3))
    assert page.status_code == 422 and "at most 2" in page.text


# --- a whole section --------------------------------------------------------------------


def test_uploaded_event_json_is_rated_exactly(bare_client: Any) -> None:
    page = bare_client.post("/estimate/section",
                            files={"file": ("sample.json", sample_text(), "application/json")})
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Riverside Chess Club August Action" in text
    assert "R: 1850 → 1846" in text and "Q: unr. → 1582P14" in text
    assert "Why these ratings" in text


def test_pasted_event_json_is_rated(bare_client: Any) -> None:
    page = bare_client.post("/estimate/section", data={"event_json": sample_text()})
    assert page.status_code == 200 and "Fatima Noor" in page.text


def test_uploaded_csv_is_read_by_content_and_extension(bare_client: Any) -> None:
    if not CSV_SECTION.exists():
        pytest.skip("the CSV crosstable's test data is not in this tree")
    page = bare_client.post("/estimate/section", files={
        "file": ("spring.csv", CSV_SECTION.read_bytes(), "text/csv")})
    assert page.status_code == 200, text_of(page.text)[:500]
    assert "Spring Action" in page.text and "Torres, Ana" in page.text


@pytest.mark.parametrize(("name", "content", "status", "message"), [
    ("broken.json", b'{"event": {"id": "x"', 422, "broken.json"),
    ("bad.json", b'{"event": {"id": "x", "start_date": "2026-01-01"}, "sections": []}', 422,
     "should be non-empty"),
    ("empty.json", b"", 400, "the uploaded file is empty"),
    ("mystery.bin", b"\x00\x01\x02 nothing to read", 422, "mystery.bin"),
])
def test_malformed_uploads_get_a_4xx_naming_the_problem(bare_client: Any, name: str,
                                                        content: bytes, status: int,
                                                        message: str) -> None:
    page = bare_client.post("/estimate/section", files={"file": (name, content, "text/plain")})
    assert page.status_code == status
    assert message in page.text
    assert 'class="problem"' in page.text


def test_uploaded_section_with_section_errors_lists_them(bare_client: Any) -> None:
    bad = sample_text().replace('"W5", "D3", "W6", "D2"', '"W5", "D3", "W6", "W2"')
    page = bare_client.post("/estimate/section", data={"event_json": bad})
    assert page.status_code == 422
    assert "round 4: result &#39;W2&#39; is not mirrored" in page.text


def test_nothing_sent_is_400(bare_client: Any) -> None:
    page = bare_client.post("/estimate/section", data={"event_json": "  "})
    assert page.status_code == 400 and "choose a file to upload" in page.text


def test_an_upload_over_the_limit_is_413() -> None:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    small = TestClient(create_app(Settings(max_upload=4096)))
    page = small.post("/estimate/section",
                      files={"file": ("big.json", sample_text() * 3, "application/json")})
    assert page.status_code == 413
    assert "The file is larger than this server accepts (at most 4 KB)." in page.text
    assert "<html" in page.text  # a page, not JSON, for a page's form


# --- the office's pages ------------------------------------------------------------------


def test_event_page_is_a_crosstable_with_pre_and_post(client: Any) -> None:
    page = client.get(f"/events/{SAMPLE_ID}")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Player Name ID / Rtg (Pre→Post)" in text
    assert "30000001 / R: 1850 → 1846" in text and "Q: 1790 → 1790" in text
    assert "30000006 / R: unr. → 1672P9" in text
    assert 'href="/players/30000001"' in page.text
    assert 'href="#s1p5"' in page.text  # each cell links to the opponent's row
    assert client.get("/events/nope").status_code == 404


def test_a_kept_event_page_is_made_again_after_a_correction(client: Any, token: str,
                                                            office_url: str) -> None:
    """The app keeps an event's page as rendered (lists.OfficeReads.event_page), under the
    database's state: after a correction (as in test_web_api), the page shows the new
    ratings, not the kept ones; an unknown event stays a 404 when asked again."""
    page = text_of(client.get(f"/events/{SAMPLE_ID}").text)
    assert text_of(client.get(f"/events/{SAMPLE_ID}").text) == page  # kept: the same
    assert "R: 1850 → 1846" in page  # as test_event_page_is_a_crosstable... reads it
    assert client.get("/events/nope").status_code == 404
    assert client.get("/events/nope").status_code == 404
    corrected = json.loads(sample_text())
    corrected["sections"][0]["players"][0]["results"] = ["W5", "W3", "W6", "D2"]
    corrected["sections"][0]["players"][2]["results"] = ["W7", "L1", "L2", "L6"]
    answer = client.put(f"/api/events/{SAMPLE_ID}", json=corrected,
                        headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    office = Office(office_url)  # the stored rating, read beside the app
    with office.engine.connect() as c:
        found = queries.player(c, "30000001")
    office.engine.dispose()
    assert found is not None
    new_post = next(h["post_rounded"] for h in found["history"]
                    if h["event_id"] == SAMPLE_ID and h["system"] == "R")
    again = text_of(client.get(f"/events/{SAMPLE_ID}").text)
    assert new_post != 1846 and f"30000001 / R: 1850 → {new_post}" in again
    assert "R: 1850 → 1846" not in again


def test_events_list_links_every_event(client: Any) -> None:
    page = client.get("/events")
    assert f'href="/events/{SAMPLE_ID}"' in page.text and 'href="/events/202609010001"' in page.text


def test_player_page_has_ratings_history_and_a_chart_per_system(client: Any) -> None:
    page = client.get("/players/30000001")
    assert page.status_code == 200
    text = text_of(page.text)
    assert "Ana Torres" in text and "Regular 1846" in text
    # each system drawn three times, for a phone's width, a tablet's and a desktop's (the
    # stylesheet shows one)
    assert page.text.count('<svg class="chart narrow"') == 2  # R and Q
    assert page.text.count('<svg class="chart wide"') == 2
    assert page.text.count('<svg class="chart desktop"') == 2
    chart = page.text.split('id="chart-R"')[1].split("</svg>")[0]
    points = re.search(r'<polyline class="line" points="([^"]+)"', chart)
    assert points is not None and len(points.group(1).split()) == 3  # pre, then two events
    assert client.get("/players/nobody").status_code == 404


def test_player_page_lists_the_latest_first_with_wins_draws_and_losses(client: Any) -> None:
    """Ana Torres (30000001) scored W5 D3 W6 D2 in the sample event (G/30;d5: rated R and Q)
    and U D1 in the Fall Quads (G/30;d5 too): 2 wins, 2 draws, no loss, then one draw; in
    all 2 / 3 / 0 in each system."""
    page = client.get("/players/30000001")
    history = page.text.split('<table class="list history">')[1].split("</table>")[0]
    rows = [text_of(r) for r in history.split("<tr>")[2:]]
    assert [r.split()[0] for r in rows] == ["2026-09-01"] * 2 + ["2026-08-01"] * 2
    assert all("0 / 1 / 0" in r for r in rows[:2]) and all("2 / 2 / 0" in r for r in rows[2:])
    ratings = page.text.split('<table class="list ratings">')[1].split("</table>")[0]
    assert text_of(ratings).count("2 / 3 / 0") == 2
    found = client.get("/api/players/30000001").json()
    assert (found["ratings"]["R"]["wins"], found["ratings"]["R"]["draws"],
            found["ratings"]["R"]["losses"]) == (2, 3, 0)


def test_member_search(client: Any) -> None:
    page = client.get("/members", params={"q": "chang"})
    assert 'href="/players/30000011"' in page.text and "1 member matching" in text_of(page.text)
    everyone = client.get("/members")
    assert "15 members" in text_of(everyone.text)  # 14 in the sample, one imported


def test_rating_list_page_and_its_csv(client: Any) -> None:
    page = client.get("/list", params={"as_of": "2026-08-15", "system": "Q"})
    assert page.status_code == 200
    assert "1582P14" in page.text
    assert 'href="/list.csv?as_of=2026-08-15&amp;system=Q&amp;state="' in page.text
    download = client.get("/list.csv", params={"as_of": "2026-08-15", "system": "Q"})
    assert download.headers["content-type"].startswith("text/csv")
    assert "rating-list-Q-2026-08-15.csv" in download.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(download.text)))
    assert rows[0].keys() == {"id", "name", "rating", "display", "games", "as_of"}
    assert any(r["id"] == "30000003" and r["display"] == "1582P14" for r in rows)


def test_office_pages_without_a_database_say_how_to_get_one(bare_client: Any) -> None:
    page = bare_client.get("/members")
    assert page.status_code == 503 and "uscf serve --db URL" in page.text


def test_api_page_lists_the_endpoints(bare_client: Any) -> None:
    page = bare_client.get("/docs")
    text = text_of(page.text)
    assert "POST /api/rate" in text and "PUT /api/events/{event_id} token" in text


# --- what every page is made of -----------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/members", "/events", f"/events/{SAMPLE_ID}",
                                  "/players/30000001", "/list", "/docs"])
def test_pages_load_nothing_from_elsewhere(client: Any, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200
    for url in re.findall(r'(?:src|href|action)="([^"]*)"', page.text):
        assert url.startswith(("/", "#", "?")), f"{path} refers to {url}"
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert page.headers["x-content-type-options"] == "nosniff"


def test_static_assets_are_served(bare_client: Any) -> None:
    for name in ("style.css", "app.js", "favicon.svg"):
        assert bare_client.get(f"/static/{name}").status_code == 200


def test_text_from_an_upload_is_escaped(bare_client: Any) -> None:
    sneaky = sample_text().replace("Ana Torres", "<script>alert(1)</script>")
    page = bare_client.post("/estimate/section", data={"event_json": sneaky})
    assert page.status_code == 200
    assert "<script>alert(1)</script>" not in page.text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text


# --- lists: pages, searches; how responses travel ------------------------------------------


@pytest.fixture
def small_pages(office_url: str) -> Iterator[Any]:
    """The app with two rows a page, so that the sample's lists take several pages."""
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    with TestClient(create_app(Settings(db_url=office_url, page_size=2))) as test_client:
        yield test_client


def _ranks(html: str) -> list[tuple[int, str]]:
    """(place, member id) of each row of the rating list."""
    return [(int(rank), member) for rank, member in re.findall(
        r'<td class="num">(\d+)</td><td><a href="/players/(\w+)"', html)]


def test_rating_list_is_paged_and_searchable_with_places_in_the_whole_list(
        client: Any, small_pages: Any) -> None:
    query = {"as_of": "2026-09-30", "system": "R"}
    everyone = _ranks(client.get("/list", params=query).text)
    assert [rank for rank, _ in everyone] == list(range(1, len(everyone) + 1))
    assert len(everyone) > 4
    first = small_pages.get("/list", params=query)
    assert _ranks(first.text) == everyone[:2]
    assert 'href="/list?as_of=2026-09-30&amp;system=R&amp;state=&amp;q=&amp;page=2" rel="next"' in first.text
    assert _ranks(small_pages.get("/list", params=query | {"page": 2}).text) == everyone[2:4]
    found = small_pages.get("/list", params=query | {"q": "torres"})
    ana = [(rank, member) for rank, member in everyone if member == "30000001"]
    assert _ranks(found.text) == ana  # her place in the whole list, not in the search
    assert "1 matching" in text_of(found.text)
    api = client.get("/api/list", params=query | {"q": "torres"}).json()
    assert [(e["rank"], e["id"]) for e in api] == ana
    assert len(client.get("/api/list", params=query | {"limit": 3, "offset": 1}).json()) == 3


def test_events_are_searchable_by_name_and_dates(client: Any) -> None:
    """The sample event runs on 2026-08-01, the Fall Quads on 2026-09-01."""
    def found(params: dict[str, str]) -> set[str]:
        page = client.get("/events", params=params)
        assert page.status_code == 200
        return set(re.findall(r'<a href="/events/(\d+)">\1</a>', page.text))

    both = {SAMPLE_ID, "202609010001"}
    assert found({}) == both
    assert found({"q": "quads"}) == {"202609010001"}
    assert found({"q": "2026080"}) == {SAMPLE_ID}  # an id starts with it
    assert found({"since": "2026-08-02"}) == {"202609010001"}
    assert found({"until": "2026-08-01"}) == {SAMPLE_ID}
    assert found({"q": "", "since": "", "until": ""}) == both  # a form's empty fields
    bad = client.get("/events", params={"since": "August"})
    assert bad.status_code == 422 and "write it as YYYY-MM-DD" in bad.text


def test_head_is_answered_like_get_without_a_body(client: Any) -> None:
    for path in ("/", "/members", f"/events/{SAMPLE_ID}", "/static/style.css", "/api/players/30000001"):
        head, get = client.head(path), client.get(path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b"" and head.headers["content-type"] == get.headers["content-type"]


def test_responses_are_compressed_and_static_files_cacheable(client: Any) -> None:
    page = client.get(f"/events/{SAMPLE_ID}", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"
    plain = client.get(f"/events/{SAMPLE_ID}", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.text == page.text
    home = client.get("/").text
    link = re.search(r'href="(/static/style\.css\?v=[0-9a-f]{8})"', home)
    assert link is not None  # the stylesheet is linked with its digest
    css = client.get(link.group(1))
    assert css.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert client.get("/static/style.css").headers["cache-control"] == "public, max-age=3600"


def test_static_files_go_compressed_as_they_are_on_disk(client: Any) -> None:
    """The stylesheet, compressed once: the gzip body is the file's bytes, with the file's
    ETag, so a conditional request still gets a 304; a client without gzip gets the file."""
    import gzip

    from uscf_ratings.web.app import HERE

    on_disk = (HERE / "static" / "style.css").read_bytes()
    with client.stream("GET", "/static/style.css", headers={"Accept-Encoding": "gzip"}) as sent:
        body = b"".join(sent.iter_raw())
        headers = sent.headers
    assert headers["content-encoding"] == "gzip" and headers["vary"] == "Accept-Encoding"
    assert gzip.decompress(body) == on_disk and len(body) < len(on_disk) / 2
    plain_tag = client.get("/static/style.css", headers={"Accept-Encoding": "identity"}).headers["etag"]
    assert headers["etag"] != plain_tag  # another representation, another ETag
    refused = client.get("/static/style.css", headers={"Accept-Encoding": "gzip;q=0"})
    assert "content-encoding" not in refused.headers  # q=0: gzip refused
    again = client.get("/static/style.css", headers={"Accept-Encoding": "gzip",
                                                     "If-None-Match": headers["etag"]})
    assert again.status_code == 304
    plain = client.get("/static/style.css", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == on_disk


def test_every_page_has_a_skip_link_and_named_navigation(client: Any) -> None:
    for path in ("/", "/members", "/events", "/list", "/players/30000001"):
        html = client.get(path).text
        assert '<a class="skip" href="#content">' in html and '<main id="content"' in html
        assert all("aria-label=" in nav for nav in re.findall(r"<nav[^>]*>", html)), path


def test_event_page_gives_each_section_s_type_time_control_dates_and_rules(client: Any) -> None:
    """The sample event's first section: Swiss, G/30;d5, on 2026-08-01, rated by the rule
    set of the rules table in force that day."""
    from uscf_ratings.core.rules import rules_for

    text = text_of(client.get(f"/events/{SAMPLE_ID}").text)
    assert f"Swiss, G/30;d5, 2026-08-01, {rules_for(date(2026, 8, 1)).name}" in text
    assert "Dates 2026-08-01" in text


def test_event_details_show_on_the_event_page_and_events_are_found_by_state(
        office_url: str) -> None:
    """An event whose file gives its place, affiliate and directors."""
    from fastapi.testclient import TestClient

    from uscf_ratings.formats.event_json import event_from_dict
    from uscf_ratings.office.office import Office
    from uscf_ratings.web import Settings, create_app

    office = Office(office_url)
    office.rate(event_from_dict({
        "event": {"id": "202610030001", "name": "Gator Open", "start_date": "2026-10-03",
                  "details": {"city": "Gainesville", "state": "fl", "zip_code": "32603",
                              "affiliate_id": "G7647935",
                              "chief_director": {"id": "15120906", "name": "Pat Lee"},
                              "other_directors": [{"name": "Sam Roe"}]}},
        "sections": [{"number": 1, "time_control": "G/90;d30", "players": [
            {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
            {"pair": 2, "id": "30000002", "name": "Ben Okafor", "results": ["L1"]}]}]}))
    office.engine.dispose()
    with TestClient(create_app(Settings(db_url=office_url))) as client:
        text = text_of(client.get("/events/202610030001").text)
        assert "Location Gainesville, fl, 32603" in text  # as the file gave it
        assert "Affiliate G7647935" in text
        assert "Chief director Pat Lee, 15120906" in text and "Other directors Sam Roe" in text
        florida = client.get("/events", params={"state": "fl"}).text
        assert re.findall(r'<a href="/events/(\d+)">\1</a>', florida) == ["202610030001"]
        assert "Gainesville, FL" in florida and '<option value="FL" selected>FL (1)' in florida
        assert "0 events found" in text_of(client.get("/events", params={"state": "OH"}).text)


def test_api_page_shows_code_as_code(bare_client: Any) -> None:
    page = bare_client.get("/docs").text
    assert "`" not in page.split("<table", 1)[1]  # Markdown's backticks became <code>
    assert "<code>uscf db token create NAME</code>" in page


def test_no_total_of_wins_draws_and_losses_is_made_of_a_part(office_url: str) -> None:
    """A row stored before the office kept an event's W/D/L (NULL): the event shows "-"
    and the system's total is not given, rather than the total of the other events."""
    from fastapi.testclient import TestClient
    from sqlalchemy import update

    from uscf_ratings.office import schema
    from uscf_ratings.office.db import make_engine, writing
    from uscf_ratings.web import Settings, create_app

    engine = make_engine(office_url)
    with writing(engine) as c:
        c.execute(update(schema.ratings).where(
            schema.ratings.c.member_id == "30000001", schema.ratings.c.system == "R",
            schema.ratings.c.event_id == SAMPLE_ID).values(wins=None, draws=None, losses=None))
    engine.dispose()
    with TestClient(create_app(Settings(db_url=office_url))) as client:
        found = client.get("/api/players/30000001").json()
        assert found["ratings"]["R"]["wins"] is None
        assert (found["ratings"]["Q"]["wins"], found["ratings"]["Q"]["draws"]) == (2, 3)
        history = {(h["event_id"], h["system"]): h["wins"] for h in found["history"]}
        assert history[(SAMPLE_ID, "R")] is None and history[("202609010001", "R")] == 0


# --- error pages for people -----------------------------------------------------------------


def test_an_address_that_cannot_be_read_is_said_in_plain_words(client: Any) -> None:
    """/list?page=abc: the page names the parameter and what it should be, says what to
    do, and offers the ways back (the office's pages, and the page one came from)."""
    page = client.get("/list?as_of=2026-08-15&page=abc", headers={
        "referer": "http://testserver/events"})
    assert page.status_code == 422
    text = text_of(page.text)
    assert "page should be a whole number, not 'abc'" in text
    assert "Correct what is named above, then try again." in text
    for way in ("Back to the page you came from", "The estimator", "Members", "Events",
                "The rating list"):
        assert way in text
    assert 'href="/events"' in page.text
    assert "Input should be" not in text and "query.page" not in text


def test_an_error_page_never_links_elsewhere_for_its_way_back(client: Any) -> None:
    page = client.get("/no-such-page", headers={"referer": "https://elsewhere.example/x"})
    assert page.status_code == 404
    assert "elsewhere.example" not in page.text
    assert "Back to the page you came from" not in text_of(page.text)
    assert "Find a member by name or id" in text_of(page.text)
    assert 'role="search" aria-label="Find a member from this page"' in page.text


def test_the_list_filters_by_state_and_keeps_places_in_the_whole_list(client: Any) -> None:
    """The office's one member with a state (OH, imported) alone, at his place in the
    whole Regular list; the state is offered with its count, and the CSV follows it."""
    from tests.web.conftest import SECRET_MEMBER

    query = {"as_of": "2026-09-30", "system": "R"}
    everyone = _ranks(client.get("/list", params=query).text)
    page = client.get("/list", params=query | {"state": "oh"})
    assert _ranks(page.text) == [(r, m) for r, m in everyone if m == SECRET_MEMBER.id]
    assert '<option value="OH" selected>OH (1)</option>' in page.text
    assert "in OH" in text_of(page.text)
    csv_rows = client.get("/list.csv", params=query | {"state": "OH"}).text.splitlines()
    assert len(csv_rows) == 2 and csv_rows[1].startswith(SECRET_MEMBER.id)


def test_pages_are_numbered_and_the_current_one_marked(client: Any, small_pages: Any) -> None:
    query = {"as_of": "2026-09-30", "system": "R"}
    total = len(_ranks(client.get("/list", params=query).text))
    pages = -(-total // 2)
    assert pages >= 3
    second = small_pages.get("/list", params=query | {"page": 2}).text
    nav = re.search(r'<nav class="pages".*?</nav>', second, re.S)
    assert nav is not None
    numbers = re.findall(r'aria-label="page (\d+)(?: of \d+)?"', nav.group(0))
    assert numbers == [str(n) for n in range(1, min(pages, 4) + 1)] + (
        [str(pages)] if pages > 4 else [])
    assert f'aria-current="page" aria-label="page 2 of {pages}"' in nav.group(0)


@pytest.mark.parametrize(("state", "said"), [
    ('";x="', "should be letters, digits, spaces, dots and hyphens"),
    ("\x00", "should be letters, digits, spaces, dots and hyphens"),
    ("\u202e", "should be letters, digits, spaces, dots and hyphens"),
    ("a\r\nX:1", "should be letters, digits, spaces, dots and hyphens"),
    ("123456789", "should be at most 8 characters long")])
def test_a_state_outside_its_domain_is_refused_before_any_header(client: Any, state: str,
                                                                 said: str) -> None:
    """The list's state goes into a page, a link and a file's name: only a state's
    characters pass (web/limits.py), and the refusal names it in words."""
    for path in ("/list", "/list.csv", "/api/list"):
        answer = client.get(path, params={"as_of": "2026-09-30", "state": state})
        assert answer.status_code == 422, (path, state)
        assert "content-disposition" not in answer.headers
    assert f"state {said}" in text_of(client.get("/list", params={"state": state}).text)


def test_an_empty_list_says_why(client: Any, small_pages: Any) -> None:
    none_there = text_of(client.get("/list", params={"as_of": "2026-09-30", "state": "ZZ"}).text)
    assert "No member in ZZ has a Regular rating on that date." in none_there
    past = text_of(small_pages.get("/list", params={"as_of": "2026-09-30", "page": 99}).text)
    assert re.search(r"There is no page 99: the list has \d+ pages\.", past)


def test_a_back_link_never_leaves_the_site(client: Any) -> None:
    """A Referer of this host whose path a browser would read as another host's
    ("/\\evil.example" is "//evil.example") gives no way back to it."""
    for referer in ("http://testserver/\\evil.example", "http://testserver//evil.example",
                    "http://elsewhere.example/list"):
        page = client.get("/players/nobody", headers={"referer": referer})
        assert "evil.example" not in page.text and "elsewhere" not in page.text
    page = client.get("/players/nobody", headers={"referer": "http://testserver/events?q=x"})
    assert 'href="/events?q=x">Back to the page you came from' in page.text


@pytest.mark.parametrize(("method", "path", "status", "said"), [
    ("get", "/no-such-page", 404, "there is no page at /no-such-page"),
    ("post", "/members", 405, "/members is not for a POST request: it takes GET"),
    ("get", "/list?page=abc", 422, "page should be a whole number, not 'abc'"),
    ("get", "/events/no-such-event", 404, "event no-such-event is not in the database"),
])
def test_every_refusal_says_what_and_what_to_do(client: Any, method: str, path: str,
                                                status: int, said: str) -> None:
    """A page for people: what was wrong in words (no "Method Not Allowed", no pydantic
    terms), what to do, and the ways back; a 405 names what the address takes (Allow)."""
    from uscf_ratings.web.problems import ADVICE

    answer = getattr(client, method)(path)
    assert answer.status_code == status
    text = text_of(answer.text)
    assert said in text and ADVICE[status] in text and "The estimator" in text
    assert "Method Not Allowed" not in text and "Not Found" not in text
    if status == 405:
        assert answer.headers["allow"] == "GET"
