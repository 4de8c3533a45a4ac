"""No open page or endpoint gives a member's birth date away, nor an age that reveals it.

The office under test knows six birth dates (five from the sample event's file, one from
the member list only), and every one of those members is rated from an age-based initial
rating, whose exact value would give the age to the day.
"""

from __future__ import annotations

import json
import re
from datetime import date
from typing import Any

from tests.web.conftest import SAMPLE_ID, SECRET_MEMBER, sample_text

from uscf_ratings.formats.result_json import PRIVATE_NOTICE

BIRTH_DATES = [date(2014, 2, 17), date(2016, 3, 10), date(2013, 9, 30), date(2014, 11, 2),
               date(2017, 6, 5), SECRET_MEMBER.birth_date]
EXACT_AGE = re.compile(r"age \d+\.\d")


def written_forms(day: date) -> list[str]:
    """The ways a date may be written: ISO, US, compact, and with slashes."""
    return [day.isoformat(), day.strftime("%m/%d/%Y"), day.strftime("%Y%m%d"),
            day.strftime("%Y/%m/%d"), f"{day.month}/{day.day}/{day.year}"]


def open_paths(client: Any) -> list[str]:
    members = [m["id"] for m in client.get("/api/members", params={"limit": 500}).json()["members"]]
    events = [SAMPLE_ID, "202609010001"]
    return (["/", "/members", "/events", "/list?as_of=2026-12-31&system=Q",
             "/list.csv?as_of=2026-12-31&system=Q", "/api/members?limit=500",
             "/api/list?as_of=2026-12-31&system=Q", "/api/list?as_of=2026-12-31&system=R",
             "/openapi.json", "/docs"]
            + [f"/players/{m}" for m in members] + [f"/api/players/{m}" for m in members]
            + [f"/events/{e}" for e in events] + [f"/api/events/{e}" for e in events])


def assert_private(where: str, text: str) -> None:
    for day in BIRTH_DATES:
        assert day is not None
        for form in written_forms(day):
            assert form not in text, f"{where} shows the birth date {form}"
    if where != "/openapi.json":  # which describes the input format, birth_date among its fields
        assert "birth_date" not in text, f"{where} has a birth_date field"
    found = EXACT_AGE.search(text)
    assert found is None, f"{where} shows an exact age: {found.group(0) if found else ''}"


def test_no_open_response_holds_a_birth_date_or_an_exact_age(client: Any) -> None:
    paths = open_paths(client)
    assert len(paths) > 40
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert_private(path, answer.text)


def test_the_database_does_hold_the_birth_dates(office_url: str) -> None:
    """The test above would prove nothing if the office had no birth date to leak."""
    from sqlalchemy import select

    from uscf_ratings.office import queries, schema
    from uscf_ratings.office.office import Office

    office = Office(office_url)
    with office.engine.connect() as c:
        stored = c.execute(select(schema.members.c.birth_date)
                           .where(schema.members.c.id == SECRET_MEMBER.id)).scalar_one()
        sources = " ".join(r[0] for r in c.execute(select(schema.events.c.source)))
        explanations = json.dumps(queries.event(c, "202609010001"))  # rebuilt on demand
    office.engine.dispose()
    assert stored == SECRET_MEMBER.birth_date
    assert "2016-03-10" in sources  # the sample's own, kept with the event's input
    assert EXACT_AGE.search(explanations)  # the office explains with the exact age


def test_age_based_ratings_are_withheld(client: Any) -> None:
    """R0 = 50 x age is withheld, with the reason, in every system (docs/web.md)."""
    event = client.get("/api/events/202609010001").json()
    secret = next(p for p in event["sections"][0]["players"] if p["id"] == SECRET_MEMBER.id)
    assert secret["ratings"]
    for rating in secret["ratings"].values():
        assert rating["initial"]["method"] == "age"
        assert rating["R0"] is None and rating["initial"]["rating"] is None
        assert "from the member's age, which is private" in rating["initial"]["detail"]
        assert isinstance(rating["post"], int)


def test_the_event_page_says_why_r0_is_missing(client: Any) -> None:
    page = client.get("/events/202609010001").text
    assert "<dt>R0</dt><dd>withheld: from the member's age, which is private</dd>" in page


def test_ratings_that_say_nothing_of_an_age_are_shown_to_whole_points(client: Any) -> None:
    """Fatima Noor (adult, FIDE rating): her R0 comes from her FIDE rating alone (a
    blended start, 2025 text, section 2), shown to whole points like every public rating,
    and not withheld; the weights of a blended start never are shown."""
    event = client.get(f"/api/events/{SAMPLE_ID}").json()
    fatima = next(p for p in event["sections"][0]["players"] if p["id"] == "30000006")
    rating = fatima["ratings"]["R"]
    assert isinstance(rating["R0"], int) and isinstance(rating["post"], int)
    assert rating["initial"]["method"] in ("blended", "priority")
    assert rating["initial"]["detail"].startswith("weighted average of FIDE ")
    assert "weights are not shown" in rating["initial"]["detail"]
    assert rating["R0"] == rating["initial"]["rating"] == rating["initial"]["sources"][0]["rating"]
    assert "weight" not in rating["initial"]["sources"][0]


def test_a_write_answer_keeps_ages_private_too(client: Any, token: str) -> None:
    """Pre-event facts of a write come from the office (its birth dates among them)."""
    later = {"event": {"id": "202611010001", "start_date": "2026-11-01"},
             "sections": [{"number": 1, "systems": ["B"], "players": [
                 {"pair": 1, "id": SECRET_MEMBER.id, "results": ["W2"]},
                 {"pair": 2, "id": "30000001", "results": ["L1"]}]}]}
    answer = client.post("/api/events", json=later, headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 201, answer.text
    assert_private("POST /api/events", answer.text)


def test_rating_a_file_shows_only_what_the_file_gave(bare_client: Any) -> None:
    """POST /api/rate answers exactly as `uscf rate --json`: the sender's own facts, and
    still no birth date (the output format has none)."""
    answer = bare_client.post("/api/rate", content=sample_text())
    assert "birth_date" not in answer.text
    assert json.loads(answer.text)["events"][0]["id"] == SAMPLE_ID
    # the sample's juniors start from their ages: the answer says it is not for publishing
    assert json.loads(answer.text)["private"] == PRIVATE_NOTICE
