"""The office's rows written and read through the driver (office/store.py, office/db.py)
are those SQLAlchemy writes and reads."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import insert, select

from uscf_ratings.office import schema
from uscf_ratings.office.db import Driver
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import audit, insert_rows, member_facts


def raw_text(office: Office, table: str, column: str) -> list[object]:
    """What the database holds, as the driver gives it (SQLite: dates as text)."""
    with office.engine.connect() as c:
        return sorted(c.exec_driver_sql(f"SELECT {column} FROM {table}").scalars(), key=str)


def test_insert_rows_stores_dates_and_times_as_sqlalchemy_does(office: Office) -> None:
    """Times with and without microseconds, dates of every width."""
    times = [datetime(2026, 3, 1, 12, 0, 0), datetime(2026, 3, 1, 12, 0, 0, 1500),
             datetime(999, 1, 1, 0, 0, 0, 999999)]
    rows = [{"id": f"E{i}", "name": "", "start_date": date(2026, 1, i + 1),
             "end_date": date(1000 + i, 12, 31), "source": "{}", "submitted_at": at,
             "corrections": 0} for i, at in enumerate(times)]
    with office.engine.begin() as c:
        c.execute(insert(schema.events), [r | {"id": "A" + r["id"]} for r in rows])
        insert_rows(c, schema.events, rows)
    with office.engine.connect() as c:
        stored = c.exec_driver_sql("SELECT id, start_date, end_date, submitted_at FROM events "
                                   "ORDER BY id").all()
    assert [r[1:] for r in stored if r[0].startswith("E")] == \
        [r[1:] for r in stored if r[0].startswith("A")]
    assert len(stored) == 6


def test_audit_rows_are_stored_as_sqlalchemy_stores_them(office: Office) -> None:
    with office.engine.begin() as c:
        first = audit(c, "rate", {"event": "E1", "sections": 2})
        second = audit(c, "rate", {"sections": 1, "event": "E2"})
        c.execute(insert(schema.audit).values(at=datetime(2026, 1, 1), action="x", detail="{}"))
    assert second == first + 1
    with office.engine.connect() as c:
        rows = c.execute(select(schema.audit).order_by(schema.audit.c.id)).all()
    assert [(r.id, r.action, r.detail) for r in rows[:2]] == [
        (first, "rate", '{"event": "E1", "sections": 2}'),
        (second, "rate", '{"event": "E2", "sections": 1}')]
    assert all(isinstance(r.at, datetime) for r in rows)
    if office.engine.dialect.name == "sqlite":  # text in one form, with the microseconds
        assert len({len(str(t)) for t in raw_text(office, "audit", "at")}) == 1


def test_member_facts_read_through_the_driver_equal_sqlalchemys(office: Office) -> None:
    members = [
        {"id": "1", "name": "a", "birth_date": date(2010, 5, 1), "adult": False,
         "fide_rating": 1800.5, "fide_date": date(2025, 1, 1), "cfc_rating": 1700.0,
         "cfc_date": date(2024, 6, 30), "canadian_resident": False},
        {"id": "2", "name": "b", "birth_date": None, "adult": True, "fide_rating": None,
         "fide_date": None, "cfc_rating": 1650.0, "cfc_date": None, "canadian_resident": True},
        {"id": "3", "name": "c"},
    ]
    with office.engine.begin() as c:
        for m in members:
            c.execute(insert(schema.members).values(**m))
    with office.engine.connect() as c:
        facts = member_facts(c, ["1", "2", "3", "missing"])
        expected = {r.id: (r.birth_date, r.adult, r.fide_rating, r.fide_date, r.cfc_rating,
                           r.cfc_date, r.canadian_resident)
                    for r in c.execute(select(schema.members))}
        assert member_facts(c, []) == {}
    assert {k: tuple(vars(f).values()) for k, f in facts.items()} == expected
    for f in facts.values():  # types too: `is False` tests are made on these
        assert all(v is None or type(v) in (bool,) for v in (f.adult, f.canadian_resident))
        assert all(v is None or type(v) is date for v in (f.birth_date, f.fide_date, f.cfc_date))


def test_a_savepoint_undoes_its_block_only(office: Office) -> None:
    with office.engine.begin() as c:
        driver = Driver(c)
        insert_rows(c, schema.members, [{"id": "kept", "name": ""}])
        try:
            with driver.savepoint("test"):
                insert_rows(c, schema.members, [{"id": "undone", "name": ""}])
                raise ValueError
        except ValueError:
            pass
        with driver.savepoint("test"):
            insert_rows(c, schema.members, [{"id": "also kept", "name": ""}])
    assert raw_text(office, "members", "id") == ["also kept", "kept"]
