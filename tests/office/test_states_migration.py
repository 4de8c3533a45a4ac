"""Migration 0010: the state after each rating moves from a JSON text into typed columns
(and match changes into rows of their own), and back. On SQLite and on PostgreSQL
(tests/office/conftest.py).

The database "filled before the change" is ``office-0009.json``: what commit d4f3734,
which stored states as JSON, left in a database after `filled_before.fill` (a synthetic
year, two matches, a rating given without N, a floor set by hand), loaded at revision
0009. Migrated, it must hold every state it held, value for value; rated again, and as
it was, it must equal a database that the same `fill` fills now, to the bit; taken back
down, it must hold the very texts it held.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from typing import Any

import pytest
from alembic import command
from sqlalchemy import Boolean, Connection, Date, DateTime, MetaData, Table, inspect, select, text
from tests.office.filled_before import DUMP, TABLES, fill

from uscf_ratings.core.model import MatchChange, Rating, rating_of_fields
from uscf_ratings.office import schema
from uscf_ratings.office.db import SCHEMA_HEAD, Driver, _alembic_config, writing
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import STATE_COLUMNS, state_of_columns, stored_match_changes
from uscf_ratings.office.stored_rated import rerate_everything

KEY = ("event_id", "section", "member_id", "system")


def load_0009(url: str) -> tuple[Office, dict[str, Any]]:
    """An office at revision 0009 holding the rows of ``office-0009.json``."""
    dumped = json.loads(DUMP.read_text())
    assert dumped["revision"] == "0009"
    office = Office(url)
    with writing(office.engine) as c:
        command.upgrade(_alembic_config(c), "0009")
        for name in TABLES:
            table = Table(name, MetaData(), autoload_with=c)
            columns, rows = dumped["tables"][name]["columns"], dumped["tables"][name]["rows"]
            if rows:
                c.execute(table.insert(), [
                    {n: _typed(table.c[n].type, v) for n, v in zip(columns, row, strict=True)}
                    for row in rows])
        if c.dialect.name == "postgresql":  # ids given: the sequences start after them
            for name in ("audit", "floors"):
                c.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                               f"(SELECT max(id) FROM {name}))"))
    return office, dumped


def _typed(kind: Any, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(kind, DateTime):
        return datetime.fromisoformat(value)
    if isinstance(kind, Date):
        return date.fromisoformat(value)
    if isinstance(kind, Boolean):
        return bool(value)
    return value


def state_of_text(text_: str) -> Rating:
    """A state as the office read its text before 0010."""
    d = json.loads(text_)
    return rating_of_fields(
        d["rating"], d["games"], date.fromisoformat(d["date"]), d.get("wins"), d.get("draws"),
        d.get("losses"), d.get("events3"), d.get("peak"), d.get("floor"),
        d.get("floor_lowered_from"), d.get("floor_lowered_to"), d.get("olm", False),
        d.get("games_above_2200"),
        tuple(MatchChange(date.fromisoformat(c["date"]), c["change"])
              for c in d.get("match_changes", ())), d.get("games_known", True))


def stored_states(office: Office) -> dict[tuple[Any, ...], Rating]:
    """Every row's state, as the office reads it from the columns."""
    r = schema.ratings.c
    with office.engine.connect() as c:
        rows = c.execute(select(*(r[n] for n in KEY), r.post, r.games_after, r.end_date,
                                *(r[n] for n in STATE_COLUMNS))).all()
        changes = stored_match_changes(Driver(c), [tuple(row[:4]) for row in rows])
    return {tuple(row[:4]): state_of_columns(row[4], row[5], row[6], row[7:],
                                             changes.get(tuple(row[:4]), ()))
            for row in rows}


def snapshot(office: Office) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every column of every rating row and every match change, in key order."""
    with office.engine.connect() as c:
        ratings = sorted(tuple(row) for row in c.execute(select(schema.ratings)))
        changes = sorted(tuple(row) for row in c.execute(select(schema.rating_match_changes)))
    return ratings, changes


def texts(c: Connection) -> dict[tuple[Any, ...], str]:
    return {tuple(row[:4]): row[4] for row in c.execute(
        text("SELECT event_id, section, member_id, system, state_after FROM ratings"))}


def test_0010_moves_every_state_into_columns_and_back(office_url: str) -> None:
    office, dumped = load_0009(office_url)
    try:
        table = dumped["tables"]["ratings"]
        at = {n: table["columns"].index(n) for n in (*KEY, "state_after")}
        before = {tuple(row[at[n]] for n in KEY): row[at["state_after"]] for row in table["rows"]}
        assert any("match_changes" in t for t in before.values())  # the fixture has them all
        assert any('"games_known": false' in t for t in before.values())
        assert any('"floor"' in t for t in before.values())

        assert office.init() == SCHEMA_HEAD
        with office.engine.connect() as c:
            assert "state_after" not in {col["name"] for col in inspect(c).get_columns("ratings")}
        states = stored_states(office)
        assert states == {key: state_of_text(t) for key, t in before.items()}
        assert sum(len(s.match_changes) for s in states.values()) == 6

        with writing(office.engine) as c:
            command.downgrade(_alembic_config(c), "0009")
            assert texts(c) == before  # the very texts, byte for byte
            assert "rating_match_changes" not in inspect(c).get_table_names()
    finally:
        office.engine.dispose()


def test_a_database_filled_before_migrated_then_rerated_equals_one_filled_after(
        office_url: str, tmp_path: Any) -> None:
    """Issue 39: "an office database filled before the change, migrated, then re-rated,
    equals one filled after". The one filled after is on SQLite; both are compared as
    SQLAlchemy reads them (floats, dates and booleans alike on both servers)."""
    office, _ = load_0009(office_url)
    after = Office(f"sqlite:///{tmp_path / 'after.db'}")
    try:
        after.init()
        fill(after)
        filled_after = snapshot(after)
        assert filled_after[1]  # the matches' changes are rows

        assert office.init() == SCHEMA_HEAD
        assert snapshot(office) == filled_after  # migrated: the same rows already
        assert rerate_everything(office) == 21
        assert snapshot(office) == filled_after  # and rated again from them
    finally:
        office.engine.dispose()
        after.engine.dispose()


def test_an_upgrade_refuses_a_text_that_is_not_its_row_and_changes_nothing(
        office_url: str) -> None:
    """A state whose rating is not the row's post-event rating would lose a value in the
    columns: the upgrade stops, naming the row, and the database stays at 0009."""
    office, _ = load_0009(office_url)
    try:
        with writing(office.engine) as c:
            c.execute(text("UPDATE ratings SET state_after = replace(state_after, "
                           "'\"rating\": ', '\"rating\": 1') WHERE event_id = 'M1'"))
        with pytest.raises(RuntimeError, match=r"event M1, section 1, member 3900000\d"):
            office.init()
        with office.engine.connect() as c:
            assert c.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0009"
            assert "state_after" in {col["name"] for col in inspect(c).get_columns("ratings")}
    finally:
        office.engine.dispose()
