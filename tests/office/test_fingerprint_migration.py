"""Migration 0008 (issue 37, "One event, once"): the events an office stored before it
get their content's fingerprint from their stored event JSON, so that a report stored
before the upgrade is found too; going back to 0007 drops the column and its index and
keeps every row. On SQLite and on PostgreSQL (tests/office/conftest.py)."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest
from alembic import command
from sqlalchemy import Connection, inspect, select, text
from tests.office.conftest import year

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, System
from uscf_ratings.formats.event_json import event_to_json
from uscf_ratings.office import schema
from uscf_ratings.office.db import SCHEMA_HEAD, _alembic_config, make_engine, writing
from uscf_ratings.office.errors import DuplicateEvent
from uscf_ratings.office.fingerprint import fingerprint
from uscf_ratings.office.office import Office

#: the migration reads and updates 500 events at a time: 3 synthetic events and 500
#: one-game events cross that bound
ONE_GAME_EVENTS = 500
#: an event whose stored source is not event JSON (a hand-edited row): NULL, never a
#: duplicate
UNREADABLE = "UNREADABLE"


def one_game(n: int) -> Event:
    """Event ``n``: two members of its own meet once, on a day of its own."""
    day = date(2024, 1, 1) + timedelta(days=n % 700)
    players = (Player(1, f"2{n:07d}", ratings={System.R: Rating(1500, 30)},
                      results=(Result(1, "W", 2),)),
               Player(2, f"3{n:07d}", ratings={System.R: Rating(1400, 30)},
                      results=(Result(1, "L", 1),)))
    return Event(f"G{n:04d}", day, day, (Section(1, day, day, players, time_control="G/60"),))


def stored_at_0007(c: Connection, events: list[Event]) -> None:
    """Event rows as an office at 0007 stored them: the event JSON in ``source``."""
    rows = [{"id": e.id, "start": e.start_date, "end": e.end_date,
             "source": json.dumps({"input": event_to_json(e), "pre_ratings": "database"})}
            for e in events]
    rows.append({"id": UNREADABLE, "start": date(2024, 1, 1), "end": date(2024, 1, 1),
                 "source": '{"input": {"id": 7}}'})
    c.execute(text("INSERT INTO events (id, name, start_date, end_date, source, submitted_at, "
                   "corrections) VALUES (:id, '', :start, :end, :source, "
                   "'2026-01-04 00:00:00', 0)"), rows)


def fingerprints(c: Connection) -> dict[str, str | None]:
    e = schema.events.c
    return {row.id: row.fingerprint for row in c.execute(select(e.id, e.fingerprint))}


def events_table(c: Connection) -> tuple[set[str], set[str | None], int]:
    """The events table's columns, its indexes, and its rows."""
    found = inspect(c)
    return ({col["name"] for col in found.get_columns("events")},
            {i["name"] for i in found.get_indexes("events")},
            c.execute(text("SELECT COUNT(*) FROM events")).scalar_one())


def test_upgrade_to_0008_fingerprints_the_stored_events_and_downgrade_drops_it(
        office_url: str) -> None:
    """At 0007, 503 stored events and one unreadable source. Upgraded: each readable
    event's fingerprint is what office/fingerprint.py computes for the event, the
    unreadable one's NULL; the same games under another id are then refused, naming the
    event stored before the upgrade. Back at 0007: the column and its index are gone,
    every row is kept; upgraded again, the same fingerprints."""
    events = year(3, seed=11) + [one_game(n) for n in range(ONE_GAME_EVENTS)]
    engine = make_engine(office_url)
    with writing(engine) as c:
        command.upgrade(_alembic_config(c), "0007")
        stored_at_0007(c, events)
        columns, indexes, rows = events_table(c)
    engine.dispose()
    assert "fingerprint" not in columns and rows == len(events) + 1

    office = Office(office_url)
    try:
        assert office.init() == SCHEMA_HEAD and office.init() >= "0008"
        expected = {e.id: fingerprint(e) for e in events} | {UNREADABLE: None}
        with office.engine.connect() as c:
            assert fingerprints(c) == expected
        assert len(set(expected.values())) == len(events) + 1  # each event its own content

        # the first synthetic event, sent again under another id: found, named, refused
        again = events[0]
        with pytest.raises(DuplicateEvent) as refused:
            office.rate(Event("RESENT", again.start_date, again.end_date, again.sections))
        assert refused.value.stored == again.id
        with office.engine.connect() as c:
            assert events_table(c)[2] == len(events) + 1  # nothing stored

        with writing(office.engine) as c:
            command.downgrade(_alembic_config(c), "0007")
            columns, indexes, rows = events_table(c)
        assert "fingerprint" not in columns and "events_fingerprint" not in indexes
        assert rows == len(events) + 1

        with writing(office.engine) as c:
            command.upgrade(_alembic_config(c), "head")
            assert "events_fingerprint" in events_table(c)[1]
            assert fingerprints(c) == expected
    finally:
        office.engine.dispose()
