"""The office's rows written and read through the driver (office/store.py, office/db.py)
are those SQLAlchemy writes and reads; a state after a rating is read back as written."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, datetime
from typing import Any

import pytest
from sqlalchemy import insert, select

from uscf_ratings.core.model import MatchChange, Rating, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import Outcome, outcomes_of
from uscf_ratings.office import schema
from uscf_ratings.office.db import Driver, writing
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import (
    audit,
    insert_rows,
    member_facts,
    outcome_rows,
    row_states,
    write_outcomes,
)
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation

#: states as unusual as a rating can be: every count unknown or known, a peak or none,
#: floors set by hand and lowered, the OLM title, match changes, N assumed
UNUSUAL = (
    dict(wins=10, draws=5, losses=15, events3=4, peak=1612.5, floor=1400.0,
         floor_lowered_from=1500.0, floor_lowered_to=1300.0, olm=True, games_above_2200=12,
         match_changes=(MatchChange(date(2025, 12, 1), 54.5),
                        MatchChange(date(2026, 1, 2), -3.0)), games_known=False),
    dict(wins=0, draws=0, losses=0, events3=0, games_above_2200=0),
    dict(peak=1e22, floor=100.0),
    dict(match_changes=(MatchChange(date(2026, 1, 2), -0.0),)),
    dict(wins=3, losses=None, games_above_2200=None, olm=True),
    dict(),
)


def test_every_state_is_read_back_as_it_was_written(office: Office) -> None:
    """The state after a rating is stored as columns and rows of match changes
    (store.outcome_rows, write_outcomes) and read back (store.row_states) as the very
    `Rating`: the states of a synthetic year's sections (unrated players, established
    ones, peaks, counts known and not) and the unusual ones, on both servers."""
    year = synthetic_events(federation(40, 11), 6, 11, sizes=(4, 12))
    office.rate_many(year)
    states = [o.state_after for event in year for section in event.sections
              for o in outcomes_of(rate_section(section))]
    section = year[0].sections[0]
    end = section.end_date
    members = [p.id for p in section.players]
    written = [replace(s, date=end) for s in states[:len(members) - len(UNUSUAL)]] + [
        Rating(1500.25 + i, 30 + i, end, **fields) for i, fields in enumerate(UNUSUAL)]
    written = written[:len(members)]
    assert len(written) == len(members) >= len(UNUSUAL) + 3
    outcomes = [Outcome(pair, System.R, None, None, s.rating, s.games, None, s)
                for pair, s in enumerate(written, 1)]
    with writing(office.engine) as c:
        driver = Driver(c)
        key = (year[0].id, section.number, driver.date(end), driver.date(section.start_date))
        changes: list[tuple[Any, ...]] = []
        rows = outcome_rows(key, outcomes, dict(enumerate(members, 1)), {}, changes=changes)
        stored = len(c.execute(select(schema.ratings).where(
            schema.ratings.c.event_id == year[0].id,
            schema.ratings.c.section == section.number)).all())
        write_outcomes(driver, key, rows, stored, changes, had_changes=True)
    with office.engine.connect() as c:
        read = row_states(c, members, (end, section.start_date, year[0].id, section.number + 1))
    assert [read[(m, System.R)] for m in members] == written
    assert sum(len(s.match_changes) for s in written) == 3


def test_outcome_rows_refuses_a_state_that_is_not_the_row_s_rating() -> None:
    """A row stores the state's rating and N once, as its post-event rating and N: a
    state that differs would be stored as another, so it is refused."""
    state = Rating(1500.0, 10, date(2026, 1, 3))
    for post, games in ((1500.5, 10), (1500.0, 11)):
        with pytest.raises(ValueError, match="member 7's state after event E section 1"):
            outcome_rows(("E", 1, "2026-01-03", "2026-01-03"),
                         [Outcome(1, System.R, None, None, post, games, None, state)],
                         {1: "7"}, {})


def raw_text(office: Office, table: str, column: str) -> list[object]:
    """What the database holds, as the driver gives it (SQLite: dates as text)."""
    with office.engine.connect() as c:
        return sorted(c.exec_driver_sql(f"SELECT {column} FROM {table}").scalars(), key=str)


def test_insert_rows_stores_dates_and_times_as_sqlalchemy_does(office: Office) -> None:
    """Times with and without microseconds, dates of every width; texts with what a COPY
    (PostgreSQL's insert_rows) escapes: tabs, newlines, backslashes, its NULL marker."""
    times = [datetime(2026, 3, 1, 12, 0, 0), datetime(2026, 3, 1, 12, 0, 0, 1500),
             datetime(999, 1, 1, 0, 0, 0, 999999)]
    texts = ["", "a\tb\nc\r\\N \\. é ♞", "\\"]
    rows: list[dict[str, Any]] = [{"id": f"E{i}", "name": texts[i],
             "start_date": date(2026, 1, i + 1), "end_date": date(1000 + i, 12, 31),
             "source": '{"name": %s}' % json.dumps(texts[i]), "submitted_at": at,
             "corrections": 0} for i, at in enumerate(times)]
    with office.engine.begin() as c:
        c.execute(insert(schema.events), [r | {"id": "A" + r["id"]} for r in rows])
        insert_rows(c, schema.events, rows)
    with office.engine.connect() as c:
        stored = c.exec_driver_sql("SELECT id, start_date, end_date, submitted_at, name, "
                                   "source FROM events ORDER BY id").all()
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
    members: list[dict[str, Any]] = [
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


def test_the_null_and_booleans_the_loop_binds_are_stored_as_null_and_booleans(
        office: Office) -> None:
    """The rating loop binds `Driver.null`, `Driver.true` and `Driver.false` for NULL,
    True and False (on SQLite a NaN, 1 and 0, which bind faster than None and a bool):
    what the database stores of them is read back by SQLAlchemy as None, True and False."""
    with office.engine.begin() as c:
        driver = Driver(c)
        assert (driver.null is None) is not driver.sqlite  # a NaN on SQLite
        insert_rows(c, schema.members, [{"id": "m", "name": ""}])
        c.execute(insert(schema.events).values(
            id="e", name="", start_date=date(2026, 1, 3), end_date=date(2026, 1, 3),
            source="{}", submitted_at=datetime(2026, 1, 4), fingerprint="f"))
        driver.executemany(
            "INSERT INTO ratings (event_id, section, member_id, system, end_date, start_date, "
            "pre, pre_games, post, games_after, norm, olm, games_known) "
            "VALUES (?, 1, 'm', 'R', ?, ?, ?, ?, 1500.0, 4, ?, ?, ?)",
            [("e", driver.date(date(2026, 1, 3)), driver.date(date(2026, 1, 3)),
              driver.null, driver.null, driver.null, driver.true, driver.false)])
        row = c.execute(select(schema.ratings.c.pre, schema.ratings.c.pre_games,
                               schema.ratings.c.norm, schema.ratings.c.olm,
                               schema.ratings.c.games_known)).one()
    assert tuple(row) == (None, None, None, True, False)


def test_sqlite_connections_have_a_page_cache_of_16_mb_and_journals_in_memory(
        tmp_path: Any) -> None:
    """SQLite's default 2 MB of page cache is outgrown by a year's results (64 MB were no
    faster than 16, and took more memory), and a savepoint's journal in a temporary file
    slows the rating loop (db.py)."""
    office = Office(f"sqlite:///{tmp_path / 'cache.db'}")
    with office.engine.connect() as c:
        assert Driver(c).execute("PRAGMA cache_size").fetchone()[0] == -16384  # KiB
        assert Driver(c).execute("PRAGMA temp_store").fetchone()[0] == 2  # 2: MEMORY
    office.engine.dispose()


def test_a_reader_reads_the_last_commit_while_a_writer_works(tmp_path: Any) -> None:
    """SQLite in WAL mode: only `writing` takes the write lock (BEGIN IMMEDIATE); a
    reader begins deferred and reads the last commit at once, instead of waiting for the
    writer's transaction (which took the busy timeout, 120 s, before)."""
    import threading

    from uscf_ratings.office.db import writing

    office = Office(f"sqlite:///{tmp_path / 'office.db'}")
    office.init()
    reader = Office(f"sqlite:///{tmp_path / 'office.db'}")  # another connection pool
    counted: list[int] = []

    def count_audit_rows() -> None:
        with reader.engine.connect() as c:
            counted.append(len(c.execute(select(schema.audit)).all()))

    with writing(office.engine) as c:
        before = len(c.execute(select(schema.audit)).all())
        audit(c, "test", {"writing": True})  # written, not committed
        thread = threading.Thread(target=count_audit_rows, daemon=True)
        thread.start()
        thread.join(timeout=20)
        assert counted == [before], "the reader waited for the writer"
    count_audit_rows()
    assert counted == [before, before + 1]
