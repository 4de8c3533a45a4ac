"""Migration 0009: ``ratings.norm``, ``member_titles`` and ``member_norms`` are added,
and taken away by the downgrade, every rating row kept. Rows stored before the upgrade
read no norm until their sections are rated again, which computes them. On SQLite and
on PostgreSQL (tests/office/conftest.py)."""

from __future__ import annotations

from alembic import command
from sqlalchemy import Connection, inspect, select, text
from tests.office.conftest import year
from tests.office.test_norms_stored import stored_norms

from uscf_ratings.office import schema
from uscf_ratings.office.db import SCHEMA_HEAD, _alembic_config, writing
from uscf_ratings.office.office import Office


def shape(c: Connection) -> tuple[set[str], set[str], int]:
    """The ratings table's columns, the tables, and the rating rows."""
    found = inspect(c)
    return ({col["name"] for col in found.get_columns("ratings")}, set(found.get_table_names()),
            c.execute(text("SELECT COUNT(*) FROM ratings")).scalar_one())


def test_0009_up_and_down_keeps_every_row_and_a_re_rate_fills_the_norms(office: Office) -> None:
    events = year(8)
    office.rate_many(events)
    norms = stored_norms(office)
    assert any(norms.values())
    with office.engine.connect() as c:
        columns, tables, rows = shape(c)
    assert "norm" in columns and {"member_titles", "member_norms"} <= tables

    with writing(office.engine) as c:
        command.downgrade(_alembic_config(c), "0008")
        columns, tables, after = shape(c)
    assert "norm" not in columns and not {"member_titles", "member_norms"} & tables
    assert after == rows

    with writing(office.engine) as c:
        command.upgrade(_alembic_config(c), "0009")
    assert stored_norms(office) == dict.fromkeys(norms)  # kept rows: no norm yet
    with writing(office.engine) as c:
        c.execute(schema.member_norms.insert().values(
            member_id=next(iter(norms))[2], code="N:4", count=2, source="list"))
        assert c.execute(select(schema.member_norms.c.count)).scalar_one() == 2
    assert office.init() == SCHEMA_HEAD  # and on to the head
    office.correct(events[0].id, events[0])  # the same event again: every section re-rated
    assert stored_norms(office) == norms
