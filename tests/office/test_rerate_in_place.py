"""The rating loop's ways to go faster leave the database as it was: a re-rate writes
each stored section's rows again in place (`store.write_outcomes`), whether they are
updated, replaced or removed; sections that share no member are rated in one call."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import insert, select, text
from tests.office.conftest import year

from uscf_ratings.office import run, schema
from uscf_ratings.office.db import Driver, writing
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import RATING_COLUMNS, ROW_ORDER, write_outcomes


def rows(office: Office) -> list[tuple[Any, ...]]:
    """Every column of every row of ``ratings``, in key order."""
    with office.engine.connect() as c:
        return sorted(tuple(r) for r in c.execute(select(schema.ratings)))


def rowids(office: Office) -> dict[tuple[Any, ...], int]:
    """SQLite's rowid of each row, by its key (event, section, member, system)."""
    with office.engine.connect() as c:
        return {tuple(r[1:]): r[0] for r in c.execute(text(
            "SELECT rowid, event_id, section, member_id, system FROM ratings"))}


def test_a_late_batch_leaves_every_column_as_a_run_in_date_order(office: Office,
                                                                   tmp_path: Path) -> None:
    """On both databases. On SQLite, the rows of the sections stored before keep their
    rowid: they were updated, not deleted and inserted again."""
    events = year(20)
    late = [events[3], events[9], events[15]]
    office.rate_many([e for e in events if e not in late])
    sqlite = office.engine.dialect.name == "sqlite"
    before = rowids(office) if sqlite else {}
    stored = rows(office)
    office.rate_many(late)
    ordered = Office(f"sqlite:///{tmp_path / 'order.db'}")
    ordered.init()
    ordered.rate_many(events)
    after = rows(office)
    assert after == rows(ordered)
    late_ids = {e.id for e in late}
    changed = [r for r in after if r[0] not in late_ids and r not in stored]
    assert len(changed) > 100  # the re-rate did change the numbers of later sections
    if sqlite:
        kept = rowids(office)
        assert {key: kept[key] for key in before} == before


def section_rows(office: Office, event_id: str) -> list[tuple[Any, ...]]:
    with office.engine.connect() as c:
        return sorted(tuple(r) for r in c.execute(
            select(schema.ratings).where(schema.ratings.c.event_id == event_id)))


def written(office: Office, new: list[tuple[Any, ...]], stored: int) -> None:
    """``write_outcomes`` of rows given as SQLAlchemy reads them (in the table's order of
    columns), committed."""
    with writing(office.engine) as c:
        driver = Driver(c)
        as_stored = [tuple(driver.date(v) if isinstance(v, date) else v for v in row)
                     for row in new]
        in_row_order = [tuple(row[RATING_COLUMNS.index(c)] for c in ROW_ORDER)
                        for row in as_stored]
        write_outcomes(driver, as_stored[0][:2] + as_stored[0][4:6], in_row_order, stored)


def test_write_outcomes_updates_replaces_or_removes(office: Office) -> None:
    """The rows of one stored section written again: with the same players (updated),
    with one player another member (replaced), and fewer (the others removed)."""
    events = year(3)
    office.rate_many(events)
    event_id = events[0].id
    stored = section_rows(office, event_id)
    assert len(stored) >= 4 and RATING_COLUMNS[:6] == (
        "event_id", "section", "member_id", "system", "end_date", "start_date")
    one_section = [r for r in stored if r[1] == stored[0][1]]
    count = len(one_section)
    post = RATING_COLUMNS.index("post")

    # the same players: every value column takes the new numbers (a flag flipped; the
    # count of match changes kept, as there are no rows of them to go with another)
    def changed(name: str, v: Any) -> Any:
        if v is None or name == "match_changes":
            return v
        if isinstance(v, bool):
            return not v
        return v + 1 if isinstance(v, (int, float)) else v + " "

    new = [r[:6] + tuple(changed(name, v) for name, v in zip(RATING_COLUMNS[6:], r[6:],
                                                            strict=True))
           for r in one_section]
    written(office, new, count)
    assert [r for r in section_rows(office, event_id) if r[1] == new[0][1]] == sorted(new)

    # one player replaced by another member (the count alone is the same): replaced
    other = next(r[2] for e in events[1:] for r in section_rows(office, e.id)
                 if r[2] not in {x[2] for x in one_section})
    swapped = [new[0][:2] + (other,) + new[0][3:]] + new[1:]
    written(office, swapped, count)
    assert [r for r in section_rows(office, event_id) if r[1] == new[0][1]] == sorted(swapped)

    # fewer rows than stored: the others are removed
    fewer = [replace_post(r, post, 1234.5) for r in swapped[1:]]
    written(office, fewer, count)
    assert [r for r in section_rows(office, event_id) if r[1] == new[0][1]] == sorted(fewer)


def replace_post(row: tuple[Any, ...], index: int, value: float) -> tuple[Any, ...]:
    return row[:index] + (value,) + row[index + 1:]


def test_a_rerate_removes_rows_of_a_section_no_longer_stored(office: Office,
                                                              tmp_path: Path) -> None:
    """A re-rate from a key leaves exactly the rows of the sections it rated, as the
    DELETE from that key on did before rows were updated in place: a row of a section
    number that is not stored (put there by hand) goes."""
    events = year(8)
    office.rate_many(events)
    last = events[-1]
    row = rows(office)[0]
    with writing(office.engine) as c:
        c.execute(insert(schema.ratings).values(
            dict(zip(RATING_COLUMNS, (last.id, 99, row[2], row[3], date(2099, 1, 1),
                                      date(2099, 1, 1)) + row[6:], strict=True))))
    assert any(r[1] == 99 for r in rows(office))
    office.withdraw(events[1].id)
    ordered = Office(f"sqlite:///{tmp_path / 'order.db'}")
    ordered.init()
    ordered.rate_many([e for e in events if e is not events[1]])
    assert rows(office) == rows(ordered)


def test_a_merge_replaces_the_rows_of_the_id_merged(office: Office, tmp_path: Path) -> None:
    """A member's games under a second id: merged, that id's rows are replaced by the
    kept id's (the rows no longer match, so the section is written anew), and the
    database equals the events rated with the one id from the start."""
    events = year(10)
    keep = events[0].sections[0].players[0].id
    games = [e for e in events[1:] if any(p.id == keep for s in e.sections for p in s.players)]
    assert games, "the member plays again"
    drop = "99999999"
    second = games[-1]
    as_drop = replace(second, sections=tuple(
        replace(s, players=tuple(replace(p, id=drop) if p.id == keep else p
                                 for p in s.players)) for s in second.sections))
    office.rate_many([as_drop if e is second else e for e in events])
    assert any(r[2] == drop for r in rows(office))
    office.merge(keep, drop)
    ordered = Office(f"sqlite:///{tmp_path / 'order.db'}")
    ordered.init()
    ordered.rate_many(events)
    assert rows(office) == rows(ordered)


def test_parts_of_any_size_rate_as_one(office: Office, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The run hands the engine its sections a part at a time (`run.PART`), carrying the
    chain's state from one part to the next: every column equals a run whose parts are
    one section each, and a re-rate from the first event in parts of three sections
    equals both."""
    events = year(30)
    sections = sum(len(e.sections) for e in events)
    monkeypatch.setattr(run, "PART", 10**6)
    office.rate_many(events)
    alone = Office(f"sqlite:///{tmp_path / 'alone.db'}")
    alone.init()
    monkeypatch.setattr(run, "PART", 1)
    alone.rate_many(events)
    assert rows(office) == rows(alone) and len(rows(office)) > sections
    monkeypatch.setattr(run, "PART", 3)
    office.correct(events[0].id, events[0])  # every section rated again, in parts of 3
    assert rows(office) == rows(alone)


def test_a_long_rerate_loads_its_members_at_once_and_rates_as_before(
        office: Office, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A re-rate of at least `PREFETCH_FROM` sections loads the members of the rows it
    writes again in a few large reads (`RatingRun._load_stored_members`, here in lots of
    7) before its loop, each once and in order; the database then equals a run in
    date order, with a merge made before the late events."""
    events = year(20)
    keep = events[0].sections[0].players[0].id
    drop = "99999999"
    later = next(e for e in events[5:] if any(p.id == keep for s in e.sections
                                               for p in s.players))
    as_drop = replace(later, sections=tuple(
        replace(s, players=tuple(replace(p, id=drop) if p.id == keep else p
                                 for p in s.players)) for s in later.sections))
    late = [events[2], events[11]]
    office.rate_many([as_drop if e is later else e for e in events if e not in late])
    office.merge(keep, drop)
    first = min(run.first_key(e) for e in late)
    with office.engine.connect() as c:
        stored = set(c.execute(select(schema.ratings.c.member_id).where(
            run.after_or_at(schema.ratings, first, "section"))).scalars())

    monkeypatch.setattr(run, "PREFETCH_FROM", 1)  # every re-rate is long
    monkeypatch.setattr(run, "LOAD_AT_ONCE", 7)
    lots: list[list[str]] = []
    preloading = False
    preload, load = run.RatingRun._load_stored_members, run.RatingRun._load

    def watched_preload(self: run.RatingRun, key: run.SectionKey) -> None:
        nonlocal preloading
        preloading = True
        try:
            preload(self, key)
        finally:
            preloading = False

    def watched_load(self: run.RatingRun, names: dict[str, str]) -> None:
        if preloading:
            lots.append(list(names))
        load(self, names)

    monkeypatch.setattr(run.RatingRun, "_load_stored_members", watched_preload)
    monkeypatch.setattr(run.RatingRun, "_load", watched_load)
    office.rate_many(late)

    assert [len(lot) for lot in lots[:-1]] == [7] * (len(lots) - 1) and len(lots[-1]) <= 7
    preloaded = [member for lot in lots for member in lot]
    assert drop not in stored  # the merge rewrote its rows as the kept id's
    assert preloaded == sorted(stored) and keep in preloaded
    ordered = Office(f"sqlite:///{tmp_path / 'order.db'}")
    ordered.init()
    ordered.rate_many(events)
    assert rows(office) == rows(ordered)


def test_stored_members_are_those_with_rows_from_the_key_on(office: Office) -> None:
    """`store.stored_members`: each member with a row of ``ratings`` from the key on,
    once, in order of their ids (read from the table, here by hand)."""
    events = year(8)
    office.rate_many(events)
    key = run.first_key(events[4])
    with office.engine.connect() as c:
        found = run.stored_members(c, key)
        by_hand = {r.member_id for r in c.execute(select(schema.ratings))
                   if (r.end_date, r.start_date, r.event_id, r.section) >= key}
    assert found == sorted(by_hand) and len(found) < len(rows(office))
