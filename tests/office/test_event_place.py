"""An event's details in the office: they ride in the stored event JSON, the city and
the state also in columns of the events table (migration 0004), written when an event is
stored or corrected; `queries.event` gives them to the web page, every key present."""

from __future__ import annotations

import json
from contextlib import closing
from dataclasses import replace
from datetime import date
from pathlib import Path

from sqlalchemy import Connection, inspect, select, text

from uscf_ratings.core.model import (
    Director,
    Event,
    EventDetails,
    Player,
    Rating,
    Result,
    Section,
    System,
)
from uscf_ratings.formats.event_json import event_to_json, write
from uscf_ratings.office import queries, schema
from uscf_ratings.office.db import SCHEMA_HEAD, _alembic_config, make_engine, writing
from uscf_ratings.office.ingest import ingest
from uscf_ratings.office.office import Office
from uscf_ratings.office.options import IngestOptions

DETAILS = EventDetails(
    city="Gainesville", state="Fl", zip_code="32603", country="United States",
    affiliate_id="G7647935", affiliate_name="Gator Chess Club",
    chief_director=Director("15120906", "DOE, JANE"), assistant_director=Director("30833045"),
    other_directors=(Director(name="Sam Roe"),))


def quad(event_id: str, day: date, details: EventDetails | None = None) -> Event:
    """Two rated members, one game; a time control dual rated in R and Q."""
    players = (Player(1, "20000001", "Ann", ratings={System.R: Rating(1800, 40)},
                      results=(Result(1, "W", 2),)),
               Player(2, "20000002", "Bo", ratings={System.R: Rating(1700, 40)},
                      results=(Result(1, "L", 1),)))
    section = Section(1, day, day, players, name="Open", time_control="G/45;d5")
    return Event(event_id, day, day, (section,), "Spring Open",
                 details=details or EventDetails())


def place(office: Office) -> list[tuple[str, str | None, str | None]]:
    with office.engine.connect() as c:
        rows = c.execute(select(schema.events.c.id, schema.events.c.city,
                                schema.events.c.state).order_by(schema.events.c.id))
        return [(r.id, r.city, r.state) for r in rows]


def test_a_rated_event_keeps_its_place_and_the_page_gets_every_detail(office: Office) -> None:
    office.rate(quad("E1", date(2026, 3, 14), DETAILS))
    assert place(office) == [("E1", "Gainesville", "FL")]  # the state upper-cased
    with office.engine.connect() as c:
        found = queries.event(c, "E1")
    assert found is not None
    assert found["details"] == {
        "city": "Gainesville", "state": "Fl", "zip_code": "32603", "country": "United States",
        "site": "", "affiliate_id": "G7647935", "affiliate_name": "Gator Chess Club",
        "chief_director": {"id": "15120906", "name": "DOE, JANE"},
        "assistant_director": {"id": "30833045", "name": ""},
        "other_directors": [{"id": "", "name": "Sam Roe"}]}
    assert (found["start_date"], found["end_date"], found["online"]) == (
        "2026-03-14", "2026-03-14", False)
    [section] = found["sections"]
    # G/45;d5: 45 + 5 = 50 minutes, dual rated (30 to 65) in R and Q
    assert {k: section[k] for k in ("time_control", "type", "systems", "k", "online",
                                    "start_date", "end_date")} == {
        "time_control": "G/45;d5", "type": "swiss", "systems": ["R", "Q"], "k": "full",
        "online": False, "start_date": "2026-03-14", "end_date": "2026-03-14"}


def test_an_event_without_details_has_no_place_and_empty_details(office: Office) -> None:
    office.rate(quad("E1", date(2026, 3, 14)))
    assert place(office) == [("E1", None, None)]
    with office.engine.connect() as c:
        found = queries.event(c, "E1")
        assert queries.event_states(c) == []
    assert found is not None and found["details"] == {
        "city": "", "state": "", "zip_code": "", "country": "", "site": "",
        "affiliate_id": "", "affiliate_name": "", "chief_director": None,
        "assistant_director": None, "other_directors": []}


def test_a_correction_writes_the_place_again(office: Office) -> None:
    office.rate(quad("E1", date(2026, 3, 14), DETAILS))
    moved = EventDetails(city="Ocala", state="fl", chief_director=Director("15120906"))
    office.correct("E1", quad("E1", date(2026, 3, 14), moved))
    assert place(office) == [("E1", "Ocala", "FL")]
    with office.engine.connect() as c:
        found = queries.event(c, "E1")
    assert found is not None and found["corrections"] == 1
    assert (found["details"]["city"], found["details"]["affiliate_id"],
            found["details"]["chief_director"]) == ("Ocala", "", {"id": "15120906", "name": ""})
    office.correct("E1", quad("E1", date(2026, 3, 14)))  # the file now gives no place
    assert place(office) == [("E1", None, None)]


def test_event_states_count_the_events_of_each_state(office: Office) -> None:
    office.rate_many([quad("E1", date(2026, 3, 14), replace(DETAILS, state="FL")),
                      quad("E2", date(2026, 3, 21), EventDetails(state="ca")),
                      quad("E3", date(2026, 3, 28), EventDetails(city="Online")),
                      quad("E4", date(2026, 4, 4), EventDetails(state="fl"))])
    with office.engine.connect() as c:
        assert queries.event_states(c) == [("CA", 1), ("FL", 2)]
        found = c.execute(select(schema.events.c.id).where(schema.events.c.state == "FL")
                          .order_by(schema.events.c.id)).scalars().all()
    assert found == ["E1", "E4"]


def test_files_checked_in_processes_keep_their_details(office: Office, tmp_path: Path) -> None:
    """`uscf db rate`'s way: an event JSON file is stored as its own text, a rating report
    as the event JSON written from it: both carry the details, and the columns are set."""
    write(quad("J1", date(2026, 3, 14), DETAILS), tmp_path / "j1.json")
    with closing(ingest(office, [tmp_path / "j1.json"], IngestOptions(check_first=True))) as run:
        list(run)
    assert place(office) == [("J1", "Gainesville", "FL")]
    with office.engine.connect() as c:
        found = queries.event(c, "J1")
    assert found is not None and found["details"]["other_directors"] == [
        {"id": "", "name": "Sam Roe"}]


def test_the_real_rating_report_from_file_to_page(office: Office, shared: Path) -> None:
    """The SwissSys 11 report of shared/formats/uscf_dbf: THEXPORT gives H_CITY
    'Gainesville', H_STATE 'FL', H_ZIPCODE '32603', H_COUNTRY 'United States', H_AFF_ID
    'G7647935', H_CTD_ID '15120906', H_ATD_ID '30833045'; the event id is the folder's
    name (H_EVENT_ID is blank)."""
    report = shared / "formats" / "uscf_dbf" / "better-swisssys_swisssys11_dbf_test"
    with closing(ingest(office, [report], IngestOptions(check_first=True))) as run:
        list(run)
    assert place(office) == [(report.name, "Gainesville", "FL")]
    with office.engine.connect() as c:
        found = queries.event(c, report.name)
    assert found is not None and found["details"] == {
        "city": "Gainesville", "state": "FL", "zip_code": "32603", "country": "United States",
        "site": "", "affiliate_id": "G7647935", "affiliate_name": "",
        "chief_director": {"id": "15120906", "name": ""},
        "assistant_director": {"id": "30833045", "name": ""}, "other_directors": []}


def test_upgrade_from_0003_keeps_every_row_both_ways(office_url: str) -> None:
    """An office at 0003 holding a rated event (event, section and result rows) upgrades
    (to 0004, and on to the latest revision) with every row, the event's city and state
    NULL (its source has no details); an event rated after the upgrade fills them. Going
    back to 0003 drops the two columns and keeps every row: the events table is altered
    in place, never rebuilt (a rebuild on SQLite would delete the sections and results
    with it, ON DELETE CASCADE)."""
    from alembic import command

    engine = make_engine(office_url)
    with writing(engine) as c:
        command.upgrade(_alembic_config(c), "0003")
        c.execute(text("INSERT INTO members (id, name) VALUES ('20000001', 'Ann')"))
        c.execute(text("INSERT INTO events (id, name, start_date, end_date, source, "
                       "submitted_at, corrections) VALUES ('E0', 'Old', '2026-01-03', "
                       "'2026-01-03', :source, '2026-01-04 00:00:00', 0)"),
                  {"source": json.dumps({"input": event_to_json(quad("E0", date(2026, 1, 3))),
                                         "pre_ratings": "database"})})
        c.execute(text("INSERT INTO sections (event_id, number, name, start_date, end_date, "
                       "systems, rule_set) VALUES ('E0', 1, 'Open', '2026-01-03', "
                       "'2026-01-03', 'R,Q', '2025-01-01')"))
        c.execute(text("INSERT INTO ratings (event_id, section, member_id, system, end_date, "
                       "start_date, post) VALUES ('E0', 1, '20000001', 'R', '2026-01-03', "
                       "'2026-01-03', 1810.5)"))
    engine.dispose()

    def counts(c: Connection) -> tuple[int, ...]:
        return tuple(c.execute(text(f"SELECT COUNT(*) FROM {name}")).scalar_one()
                     for name in ("events", "sections", "ratings"))

    office = Office(office_url)
    assert office.init() == SCHEMA_HEAD  # the latest
    assert place(office) == [("E0", None, None)]
    office.rate(quad("E1", date(2026, 3, 14), DETAILS))
    assert place(office) == [("E0", None, None), ("E1", "Gainesville", "FL")]
    with office.engine.connect() as c:
        before = counts(c)
    assert before == (2, 2, 1 + 4)  # E0's one result; E1 rates Ann and Bo in R and Q
    with writing(office.engine) as c:
        command.downgrade(_alembic_config(c), "0003")
        columns = {col["name"] for col in inspect(c).get_columns("events")}
        indexes = {i["name"] for i in inspect(c).get_indexes("events")}
        assert counts(c) == before
    office.engine.dispose()
    assert not {"city", "state"} & columns and "events_state" not in indexes
