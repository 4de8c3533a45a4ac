"""Rating many events at once (Office.rate_many), and explanations rebuilt on demand."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import select
from tests.office.conftest import dump, in_date_order, year

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import outcomes_of
from uscf_ratings.formats.member_records import MemberRecord
from uscf_ratings.office import queries, schema
from uscf_ratings.office.explain import explain_event
from uscf_ratings.office.office import Office, OfficeError, section_key
from uscf_ratings.office.options import RateOptions


def test_rate_many_equals_rating_one_event_at_a_time(office: Office, tmp_path: Path) -> None:
    events = year()
    one_by_one = Office(f"sqlite:///{tmp_path / 'one.db'}")
    one_by_one.init()
    for event in events:
        one_by_one.rate(event)
    reports = office.rate_many(list(reversed(events)))  # any order: rated by date
    assert [r.event_id for r in reports] == [e.id for e in events]
    assert all(r.verb == "rated" and r.rerated == 0 for r in reports)
    assert dump(office) == dump(one_by_one)
    assert len(dump(office)) > 500


def test_stored_numbers_are_those_of_the_explained_sections(office: Office) -> None:
    """Each result the lean path stored equals, to 1e-9, what the reference path gives
    when the section is explained again from the states before it."""
    events = year()
    office.rate_many(events)
    with office.engine.connect() as c:
        stored = {(r.event_id, r.section, r.member_id, r.system): r
                  for r in c.execute(select(schema.ratings))}
        compared = 0
        for event in events:
            for result in explain_event(c, event.id):
                for player in result.players:
                    for system, r in player.ratings.items():
                        if r.post is None:
                            continue
                        row = stored.pop((event.id, result.number, player.id, system.value))
                        assert row.post == pytest.approx(r.post, abs=1e-9)
                        assert (row.pre, row.games_after) == (r.pre, r.games_after)
                        compared += 1
    assert stored == {} and compared > 500


def test_an_early_event_in_a_batch_rerates_what_follows(office: Office, tmp_path: Path) -> None:
    events = year()
    office.rate_many(events[:5] + events[8:])
    reports = office.rate_many(events[5:8])  # dated among the events already rated
    assert sum(r.rerated for r in reports) > 0
    assert dump(office) == in_date_order(tmp_path, events)


def test_late_events_of_a_batch_rate_what_follows_them_once(office: Office,
                                                               tmp_path: Path) -> None:
    """Events dated among those already rated wait in the transaction, and the sections
    after the first of them are rated once, not once per late event: each section of
    the year is rated exactly once by the batch (reports' sections and rerated), the
    re-rate is reported once, for all of them, and the database equals the year rated
    in date order."""
    events = year(20)
    late = [events[3], events[9], events[15]]  # spread over the year
    office.rate_many([e for e in events if e not in late])
    reports = office.rate_many(late)
    first = min(section_key(e.id, s) for e in late for s in e.sections)
    stored_after = sum(1 for e in events if e not in late for s in e.sections
                       if section_key(e.id, s) > first)
    assert [r.sections for r in reports] == [len(e.sections) for e in late]
    assert [r.rerated for r in reports] == [0, 0, stored_after]
    assert [r.rerated_for for r in reports] == [1, 1, 3]
    assert dump(office) == in_date_order(tmp_path, events)


def test_a_late_batch_then_events_after_it_commit_in_groups_again(office: Office,
                                                                 tmp_path: Path) -> None:
    """A batch of late events followed by events after everything stored: the late ones
    wait, the first event after them all rates them with the stored sections once, and
    from there each event is rated alone (each in its own transaction with
    commit_every=0: the reports come in order, every one committed)."""
    events = year(20)
    late = [events[2], events[6]]
    last = max(section_key(e.id, s) for e in events[:14] for s in e.sections)
    after = []  # each after every section before it (a long event can overlap the next)
    for event in events[14:]:
        if min(section_key(event.id, s) for s in event.sections) > last:
            after.append(event)
            last = max(section_key(event.id, s) for s in event.sections)
    assert len(after) >= 3
    office.rate_many([e for e in events[:14] if e not in late])
    reports = list(office.rate_each(late + after, RateOptions(commit_every=0)))
    assert [r.event_id for r in reports] == [e.id for e in late + after]
    assert [r.rerated_for for r in reports] == [1, 1, 3] + [1] * (len(after) - 1)
    assert reports[2].rerated > 0 and all(r.rerated == 0 for r in reports[3:])
    assert dump(office) == in_date_order(tmp_path, events[:14] + after)


def test_replace_rated_corrects_and_counts_the_correction(office: Office) -> None:
    events = year(6)
    office.rate_many(events)
    changed = replace(events[2], name="Corrected")
    with pytest.raises(OfficeError, match="already rated from another file"):
        office.rate_many([changed])
    [report] = office.rate_many([changed], RateOptions(replace_rated=True))
    assert report.verb == "corrected"
    with office.engine.connect() as c:
        assert queries.event(c, events[2].id)["corrections"] == 1  # type: ignore[index]


def test_a_write_between_two_events_is_seen_by_the_next(office: Office, tmp_path: Path) -> None:
    """rate_each keeps what it read between its transactions only while nobody else has
    written: a floor set between two events must hold in the events after it. (Each
    event in its own transaction: a write can only come between two commits.)"""
    events = year()
    member = events[0].sections[0].players[0].id
    office.import_members([MemberRecord(member, "Floored")])
    expected = Office(f"sqlite:///{tmp_path / 'expected.db'}")
    expected.init()
    expected.import_members([MemberRecord(member, "Floored")])
    floor_from = events[4].start_date

    for report in office.rate_each(events, RateOptions(commit_every=0)):
        if report.event_id == events[3].id:
            office.set_floor(member, System.R, 2200, floor_from, "prize")
    expected.rate_many(events[:4])
    expected.set_floor(member, System.R, 2200, floor_from, "prize")
    expected.rate_many(events[4:])
    assert dump(office) == dump(expected)
    with office.engine.connect() as c:
        later = [h for h in queries.player(c, member)["history"]  # type: ignore[index]
                 if h["system"] == "R" and date.fromisoformat(h["end_date"]) >= floor_from]
    assert later and all(h["post"] >= 2200 for h in later)


def test_event_explanations_match_the_reference_on_the_same_input(office: Office) -> None:
    """A first event of new members: the office rates its first section from the file's
    own ratings, so its explanation is that section rated directly. (Its later sections
    see the states after the first: members may play in more than one.)"""
    event = year(1)[0]
    results = office.rate(event)
    assert outcomes_of(results[0]) == outcomes_of(rate_section(event.sections[0]))
    assert len(outcomes_of(results[0])) > 3


def test_upgrade_from_the_first_schema_keeps_the_results(office_url: str) -> None:
    """A database at revision 0001 (explanations stored) upgrades to the latest revision
    with its rows: 0002 drops the explanations, 0003 adds the event's W/D/L, NULL for the
    rows stored before it (nothing is guessed), 0004 the event's city and state, NULL for
    the events stored before it, with an index on the state; 0005 indexes the events'
    order and the merged ids, 0006 makes the merged ids' index hold the merged members
    only; 0007 adds the published histories."""
    from alembic import command
    from sqlalchemy import inspect, text

    from uscf_ratings.office.db import SCHEMA_HEAD, _alembic_config, make_engine, writing

    engine = make_engine(office_url)
    with writing(engine) as c:
        command.upgrade(_alembic_config(c), "0001")
        c.execute(text("INSERT INTO members (id, name) VALUES ('m1', 'One')"))
        c.execute(text("INSERT INTO events (id, name, start_date, end_date, source, "
                       "submitted_at, corrections) VALUES ('E1', '', '2026-01-03', "
                       "'2026-01-03', '{}', '2026-01-04 00:00:00', 0)"))
        c.execute(text("INSERT INTO ratings (event_id, section, member_id, system, end_date, "
                       "start_date, post, explanation) VALUES ('E1', 1, 'm1', 'R', "
                       "'2026-01-03', '2026-01-03', 1234.5, '{}')"))
    engine.dispose()
    office = Office(office_url)
    assert office.init() == SCHEMA_HEAD  # the latest
    with office.engine.connect() as c:
        assert c.execute(select(schema.ratings.c.post)).scalar_one() == 1234.5
        assert c.execute(select(schema.ratings.c.wins, schema.ratings.c.draws,
                                schema.ratings.c.losses)).one() == (None, None, None)
        assert c.execute(select(schema.events.c.id, schema.events.c.city,
                                schema.events.c.state)).one() == ("E1", None, None)
        columns = {col["name"] for col in inspect(c).get_columns("ratings")}
        indexes = {i["name"] for i in inspect(c).get_indexes("ratings")}
        event_columns = {col["name"] for col in inspect(c).get_columns("events")}
        event_indexes = {i["name"] for i in inspect(c).get_indexes("events")}
        member_indexes = {i["name"] for i in inspect(c).get_indexes("members")}
    office.engine.dispose()
    assert "explanation" not in columns and "ratings_order" in indexes
    assert {"wins", "draws", "losses"} <= columns
    assert {"city", "state"} <= event_columns and "events_state" in event_indexes
    assert "events_latest" in event_indexes and "members_merged" in member_indexes


def test_the_schema_check_to_read_says_what_alembic_says(office_url: str) -> None:
    """check_schema_to_read (the web app's, on every request) reads the version in one
    SELECT; where there is no version table or another revision, it refuses with
    check_schema's message, and the connection can still be used (on PostgreSQL the
    failed SELECT is rolled back)."""
    from alembic import command
    from sqlalchemy import text

    from uscf_ratings.office.db import (
        SCHEMA_HEAD,
        DatabaseError,
        _alembic_config,
        check_schema_to_read,
        make_engine,
        writing,
    )

    engine = make_engine(office_url)
    with engine.connect() as c:
        with pytest.raises(DatabaseError, match="no schema yet: run `uscf db init` first"):
            check_schema_to_read(c)
        assert c.execute(text("SELECT 1")).scalar_one() == 1
    with writing(engine) as c:
        command.upgrade(_alembic_config(c), "0005")
    with engine.connect() as c:
        with pytest.raises(DatabaseError, match=f"at 0005, this program needs "
                                                f"{SCHEMA_HEAD}: run `uscf db upg"):
            check_schema_to_read(c)
    engine.dispose()
    office = Office(office_url)
    office.init()
    with office.engine.connect() as c:
        check_schema_to_read(c)  # current: nothing raised
    office.engine.dispose()


def test_the_schema_head_written_in_the_code_is_alembics(office_url: str) -> None:
    """db.SCHEMA_HEAD, which the schema check compares with so as not to import Alembic,
    is the head of the migrations as Alembic finds it; and the revision read without
    Alembic is the one Alembic reads, before any schema, part way and at the head."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    from uscf_ratings.office.db import (
        SCHEMA_HEAD,
        _alembic_config,
        current_revision,
        make_engine,
        writing,
    )

    engine = make_engine(office_url)
    with engine.connect() as c:
        assert SCHEMA_HEAD == ScriptDirectory.from_config(_alembic_config(c)).get_current_head()
        assert current_revision(c) is None
        assert MigrationContext.configure(c).get_current_revision() is None
    for revision in ("0003", "head"):
        with writing(engine) as c:
            command.upgrade(_alembic_config(c), revision)
        with engine.connect() as c:
            ours = current_revision(c)
            assert ours == MigrationContext.configure(c).get_current_revision()
            assert ours == ("0003" if revision == "0003" else SCHEMA_HEAD)
    engine.dispose()


def test_merged_ids_are_read_through_their_index_not_the_whole_members_table(
        tmp_path: Path) -> None:
    """store.aliases runs on every player and event page: SQLite (no table statistics)
    must search the partial index of 0006 rather than scan the members table, as it did
    with the plain index of 0005."""
    from sqlalchemy import text

    office = Office(f"sqlite:///{tmp_path / 'plan.db'}")
    office.init()
    with office.engine.connect() as c:
        plan = c.execute(text("EXPLAIN QUERY PLAN SELECT id, merged_into FROM members "
                              "WHERE merged_into IS NOT NULL")).all()
    office.engine.dispose()
    details = " ".join(str(row[-1]) for row in plan)
    assert "USING INDEX members_merged" in details, details
    assert "SCAN members" not in details, details


def test_migrations_build_the_tables_the_code_describes(office: Office) -> None:
    """The migrations' tables are office/schema.py's, but for the two foreign keys of
    ``ratings`` that PostgreSQL keeps as triggers (migration 0011): there, exactly
    those are missing."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with office.engine.connect() as c:
        differences = compare_metadata(MigrationContext.configure(c), schema.metadata)
    if office.engine.dialect.name == "postgresql":
        keys = sorted((d[1].table.name, d[1].column_keys[0]) for d in differences
                      if d[0] == "add_fk")
        assert keys == sorted(schema.KEPT_BY_TRIGGERS_ON_POSTGRESQL)
        differences = [d for d in differences if d[0] != "add_fk"]
    assert differences == []


#: PostgreSQL's name of each type a binary COPY sends (`db.copy_types`): what the
#: server's catalogue must hold for the column, or the server misreads the bytes
_CATALOGUE_NAMES = {"bool": {"boolean"}, "int4": {"integer"}, "float8": {"double precision"},
                    "timestamp": {"timestamp without time zone"}, "date": {"date"},
                    "text": {"text", "character varying"}}


def test_binary_copy_sends_each_column_as_the_database_holds_it() -> None:
    """Every column of every table, as `Driver.insert_many` sends it in a binary COPY,
    is of the type PostgreSQL's catalogue gives it once the migrations have run (the
    server reads an int4 as 4 bytes: a column made int8 by a later migration, and not
    here, would be misread, not refused)."""
    from sqlalchemy import text
    from tests.office.conftest import fresh_postgres, postgres_url

    from uscf_ratings.office.db import copy_types

    url = postgres_url()
    fresh_postgres(url)
    office = Office(url)
    office.init()
    with office.engine.connect() as c:
        held = dict(c.execute(text(
            "SELECT c.table_name || '.' || c.column_name, c.data_type "
            "FROM information_schema.columns c WHERE c.table_schema = 'public'")).all())
    office.engine.dispose()
    checked = 0
    for name, table in schema.metadata.tables.items():
        columns = tuple(column.name for column in table.columns)
        sent = copy_types(name, columns)
        assert sent is not None, f"{name}: a column's type has no binary COPY type"
        for column, kind in zip(columns, sent, strict=True):
            assert held[f"{name}.{column}"] in _CATALOGUE_NAMES[kind], (name, column, kind)
            checked += 1
    assert checked == len(held) - 1  # every column but alembic_version's


def turned(player: Player, round_: int) -> Player:
    """``player`` with the result of round ``round_`` the other way round."""
    swap = {"W": "L", "L": "W"}
    return replace(player, results=tuple(replace(c, code=swap[c.code]) if c.round == round_
                                         else c for c in player.results))


def flipped(event: Event) -> Event:
    """``event`` corrected: the first decisive game of its first section the other way
    round (W and L swapped in both players' cells)."""
    section = event.sections[0]
    by_pair = {p.pair: p for p in section.players}
    for player in section.players:
        for cell in player.results:
            if cell.code in ("W", "L") and cell.opponent is not None:
                changed = {player.pair: turned(player, cell.round),
                           cell.opponent: turned(by_pair[cell.opponent], cell.round)}
                players = tuple(changed.get(p.pair, p) for p in section.players)
                return replace(event, sections=(replace(section, players=players),)
                               + event.sections[1:])
    raise AssertionError(f"{event.id} has no decisive game")


def test_corrections_given_together_rerate_what_follows_once(office: Office,
                                                             tmp_path: Path) -> None:
    """Issue 16: corrections of several events given together (``uscf db rate
    --replace``) rate each section from the earliest corrected one exactly once, and
    the database equals the corrected year rated in date order."""
    events = year(20)
    office.rate_many(events)
    before = dump(office)
    picked = (3, 9, 15)
    corrected = {events[i].id: flipped(events[i]) for i in picked}
    reports = office.rate_many(list(corrected.values()), RateOptions(replace_rated=True))
    first = min(section_key(events[i].id, s) for i in picked for s in events[i].sections)
    stored_after = sum(1 for e in events if e.id not in corrected for s in e.sections
                       if section_key(e.id, s) > first)
    assert [r.verb for r in reports] == ["corrected"] * 3
    assert [r.sections for r in reports] == [len(events[i].sections) for i in picked]
    assert sum(r.rerated for r in reports) == stored_after
    assert dump(office) == in_date_order(tmp_path, [corrected.get(e.id, e) for e in events])
    assert dump(office) != before  # the corrections changed ratings


def test_match_changes_a_state_carries_into_a_swiss_are_stored_on_its_row(
        office: Office) -> None:
    """A state after an event carries the match changes of the rating it started from
    (core/steps.py): the Swiss a match player plays next stores the match's change on
    that player's row, as the match's own row stores it (2017 text, section 7)."""
    from tests.office.filled_before import _match

    day = date(2026, 2, 1)
    rated = {System.R: Rating(1600.0, 30)}
    players = (
        Player(1, "39000001", "Match Player A", results=(Result(1, "W", 2), Result(2, "D", 3))),
        Player(2, "38000011", "Other 1", ratings=rated, results=(Result(1, "L", 1),
                                                                 Result(2, "W", 4))),
        Player(3, "38000012", "Other 2", ratings=rated, results=(Result(1, "W", 4),
                                                                 Result(2, "D", 1))),
        Player(4, "38000013", "Other 3", ratings=rated, results=(Result(1, "L", 3),
                                                                 Result(2, "L", 2))))
    swiss = Event("SW", day, day, (Section(1, day, day, players, systems=(System.R,)),),
                  "Swiss")
    office.rate_many([_match(1, date(2026, 1, 20)), swiss])
    r, m = schema.ratings.c, schema.rating_match_changes.c
    with office.engine.connect() as c:
        carried = {event_id: count for event_id, count in c.execute(
            select(r.event_id, r.match_changes).where(r.member_id == "39000001"))}
        changes = {event_id: (position, day, change) for event_id, position, day, change
                   in c.execute(select(m.event_id, m.position, m.date, m.change)
                                .where(m.member_id == "39000001"))}
    assert carried == {"M1": 1, "SW": 1}
    assert changes["SW"] == changes["M1"]
    assert changes["M1"][:2] == (1, date(2026, 1, 20))
