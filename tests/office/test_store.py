"""The office's rows written and read through the driver (office/store.py, office/db.py)
are those SQLAlchemy writes and reads; the state JSON is the text json.dumps gives."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from datetime import date, datetime
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import insert, select

from uscf_ratings.core.model import MatchChange, Rating
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import outcomes_of
from uscf_ratings.formats.result_json import rating_state
from uscf_ratings.office import schema, store
from uscf_ratings.office.db import Driver
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import audit, insert_rows, member_facts, state_json
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation


def json_of(state: Rating) -> str:
    """The text the office stored before state_json."""
    return json.dumps(rating_state(state))


def test_state_json_is_the_text_of_json_dumps_for_the_states_of_a_year() -> None:
    """Every state the lean path gives when the synthetic events are rated (unrated
    players, established ones, peaks, floors), and each read back from its JSON."""
    states = [o.state_after
              for event in synthetic_events(federation(3000, 11), 60, 11, sizes=(4, 60))
              for section in event.sections for o in outcomes_of(rate_section(section))]
    assert len(states) > 3000
    assert len({json_of(s) for s in states}) > 3000
    for state in states:
        assert state_json(state) == json_of(state)
        again = Rating(**json.loads(state_json(state)) | {"date": state.date})
        assert state_json(again) == json_of(again)


def test_state_json_of_the_unusual_fields() -> None:
    state = Rating(1500.25, 30, date(2026, 1, 3), 10, 5, 15, 4, 1612.5, 1400.0, 1500.0,
                   1300.0, True, 12, (MatchChange(date(2025, 12, 1), 54.5),
                                      MatchChange(date(2026, 1, 2), -3.0)), False)
    assert state_json(state) == json_of(state)
    assert json.loads(state_json(state))["match_changes"][1] == {"date": "2026-01-02",
                                                                 "change": -3.0}


numbers = st.one_of(st.integers(-10**20, 10**20), st.floats(allow_nan=True, allow_infinity=True),
                    st.floats(-1e6, 1e6).map(np.float64), st.booleans())
maybe = st.one_of(st.none(), numbers)


@given(st.builds(
    Rating, rating=numbers, games=numbers, date=st.one_of(st.none(), st.dates()),
    wins=maybe, draws=maybe, losses=maybe, events3=maybe, peak=maybe, floor=maybe,
    floor_lowered_from=maybe, floor_lowered_to=maybe, olm=st.booleans(),
    games_above_2200=maybe,
    match_changes=st.lists(st.builds(MatchChange, st.dates(), numbers), max_size=3).map(tuple),
    games_known=st.booleans()))
def test_state_json_is_the_text_of_json_dumps_for_any_state(state: Rating) -> None:
    """Ints where floats are expected, NaN and infinities, numpy floats, booleans."""
    assert state_json(state) == json_of(state)


@pytest.mark.parametrize("counts", [(None,) * 5, (3, 1, 2, 2, 0), (3, None, 2, 2, 0),
                                    (True, 1, 2, 2, 0), (3, 1, 2, 2, 0.0)])
@pytest.mark.parametrize("peak", [None, 1612.5, np.float64(1612.5), math.nan, 1700])
@pytest.mark.parametrize("rating", [1500.25, -0.0, 1e22, 5e-324, math.inf, np.float64(1.5), 1500])
def test_the_usual_states_are_written_as_json_writes_them(
        counts: tuple[Any, ...], peak: Any, rating: Any) -> None:
    """The four shapes `state_json` writes by a format of their own (counts all known or
    all unknown, with or without a peak), and the values next to them that it leaves to
    the field by field path: a count unknown among known ones, a bool or a float count, a
    numpy float, NaN and infinities, an int where a float is expected."""
    wins, draws, losses, events3, above = counts
    state = Rating(rating, 12, date(2026, 1, 3), wins, draws, losses, events3, peak,
                   games_above_2200=above)
    assert state_json(state) == json_of(state)
    for unusual in (dict(floor=1400.0), dict(olm=True), dict(games_known=False), dict(date=None),
                    dict(match_changes=(MatchChange(date(2026, 1, 2), -3.0),)),
                    dict(games=12.0), dict(games=True)):
        other = replace(state, **unusual)
        assert state_json(other) == json_of(other)


def test_the_usual_states_take_their_own_format(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the four usual shapes is written by its format, not field by field (the
    test above holds the text to json's)."""
    monkeypatch.setattr(store, "_any_state_json", lambda state: "field by field")
    for counts in ((None,) * 5, (3, 1, 2, 2, 0)):
        for peak in (None, 1612.5):
            state = Rating(1500.25, 12, date(2026, 1, 3), *counts[:4], peak,
                           games_above_2200=counts[4])
            assert state_json(state) == json_of(state)
    assert state_json(Rating(1500.25, 12, date(2026, 1, 3), olm=True)) == "field by field"


def test_a_float_that_is_not_finite_is_written_as_json_writes_it() -> None:
    for value in (math.nan, math.inf, -math.inf, -0.0, 1e22, 5e-324):
        state = Rating(value, 0, peak=value)
        assert state_json(state) == json_of(state)


def raw_text(office: Office, table: str, column: str) -> list[object]:
    """What the database holds, as the driver gives it (SQLite: dates as text)."""
    with office.engine.connect() as c:
        return sorted(c.exec_driver_sql(f"SELECT {column} FROM {table}").scalars(), key=str)


def test_insert_rows_stores_dates_and_times_as_sqlalchemy_does(office: Office) -> None:
    """Times with and without microseconds, dates of every width."""
    times = [datetime(2026, 3, 1, 12, 0, 0), datetime(2026, 3, 1, 12, 0, 0, 1500),
             datetime(999, 1, 1, 0, 0, 0, 999999)]
    rows: list[dict[str, Any]] = [{"id": f"E{i}", "name": "", "start_date": date(2026, 1, i + 1),
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


def test_sqlite_connections_have_a_page_cache_of_64_mb_and_journals_in_memory(
        tmp_path: Any) -> None:
    """SQLite's default 2 MB of page cache is outgrown by a year's results, and a
    savepoint's journal in a temporary file slows the rating loop (db.py)."""
    office = Office(f"sqlite:///{tmp_path / 'cache.db'}")
    with office.engine.connect() as c:
        assert Driver(c).execute("PRAGMA cache_size").fetchone()[0] == -65536  # KiB
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
