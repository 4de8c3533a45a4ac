"""No rating names a member or an event the office does not hold, whoever writes to the
database: on SQLite by its foreign keys, on PostgreSQL by the triggers of migration 0011,
checked once a statement. Each test writes as a careless or hostile user would, with
plain SQL beside the office, and expects the same refusal from both databases
(tests/office/conftest.py runs those with an ``office`` on both); what SQLite has no room
for (a second writer at the same time, other statements, temporary tables, schemas,
roles) runs on PostgreSQL alone (`on_postgres`). Last, the migration itself, at 0010 and
back."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date

import pytest
from alembic import command
from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from tests.conftest import skip_or_fail
from tests.office.conftest import fresh_postgres, postgres_url, year

from uscf_ratings.office.db import _alembic_config, writing
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import ROW_ORDER

EVENT = "REF1"


def refusals() -> tuple[type[BaseException], ...]:
    """A refused write, as SQLAlchemy raises it or as the driver does (the office's bulk
    writes go to the driver itself: `db.Driver`)."""
    kinds: list[type[BaseException]] = [IntegrityError, sqlite3.IntegrityError]
    try:
        import psycopg
    except ImportError:  # no PostgreSQL driver: its tests skip, saying why
        return tuple(kinds)
    return (*kinds, psycopg.IntegrityError)


REFUSED = refusals()


def a_row(event_id: str, member_id: str, section: int = 1) -> tuple[object, ...]:
    """A row of ``ratings`` in `ROW_ORDER`, as the office writes it."""
    values: dict[str, object] = {name: None for name in ROW_ORDER}
    values.update(event_id=event_id, section=section, member_id=member_id, system="R",
                  end_date=date(2026, 3, 1), start_date=date(2026, 3, 1), post=1500.0,
                  games_after=10, olm=False, match_changes=0, games_known=True)
    return tuple(values[name] for name in ROW_ORDER)


@pytest.fixture
def held(office: Office) -> Iterator[Connection]:
    """`stored`, closed after the test whatever it did (an open transaction would hold
    its locks, and the next test's emptying of the database would wait for it)."""
    c = stored(office)
    try:
        yield c
    finally:
        c.close()


def stored(office: Office) -> Connection:
    """A connection to an office holding one event (``REF1``, rated) and members
    ``M1`` (rated in it) and ``M2`` (no rating)."""
    c = office.engine.connect()
    c.execute(text("INSERT INTO members (id, name) VALUES ('M1', 'One'), ('M2', 'Two')"))
    c.execute(text("INSERT INTO events (id, name, start_date, end_date, source, submitted_at, "
                   "corrections) VALUES (:id, '', '2026-03-01', '2026-03-01', '{}', "
                   "'2026-03-02 00:00:00', 0)"), {"id": EVENT})
    insert(c, [a_row(EVENT, "M1")])
    c.commit()
    return c


def insert(c: Connection, rows: list[tuple[object, ...]]) -> None:
    """Rows written as the office writes them: one statement for them all (a COPY on
    PostgreSQL, `Driver.insert_many`)."""
    from uscf_ratings.office.db import Driver

    driver = Driver(c)  # its dates as the office binds them (text, in SQLite)
    driver.insert_many("ratings", ROW_ORDER, [
        tuple(driver.date(v) if isinstance(v, date) else v for v in row) for row in rows])


def count(c: Connection, sql: str) -> int:
    return int(c.execute(text(sql)).scalar_one())


@pytest.mark.parametrize("bad", [(EVENT, "NOBODY"), ("NO-EVENT", "M2")])
def test_a_row_naming_what_the_office_does_not_hold_refuses_the_whole_statement(
        office: Office, held: Connection, bad: tuple[str, str]) -> None:
    """Among good rows (a member already locked by an earlier row, a new one), one row
    names a missing member or event: the statement is refused, naming it, and none of
    its rows is stored."""
    c = held
    rows = [a_row(EVENT, "M1", 2), a_row(EVENT, "M2", 2), a_row(*bad, section=3)]
    with pytest.raises(REFUSED) as refused:
        insert(c, rows)
    c.rollback()
    if office.engine.dialect.name == "postgresql":  # SQLite's message names no value
        assert (bad[1] if bad[1] == "NOBODY" else bad[0]) in str(refused.value)
    assert count(c, "SELECT count(*) FROM ratings") == 1


def test_a_row_moved_to_a_missing_member_or_event_is_refused(office: Office, held: Connection) -> None:
    c = held
    for change in ("member_id = 'NOBODY'", "event_id = 'NO-EVENT'"):
        with pytest.raises(IntegrityError):
            c.execute(text(f"UPDATE ratings SET {change}"))
        c.rollback()
    c.execute(text("UPDATE ratings SET member_id = 'M2'"))  # a member it holds: allowed
    c.execute(text("UPDATE ratings SET post = 1600"))  # the numbers, as a re-rate writes
    c.commit()
    assert c.execute(text("SELECT member_id, post FROM ratings")).one() == ("M2", 1600.0)


def test_a_rated_member_cannot_be_deleted_or_renamed_nor_its_table_truncated(
        office: Office, held: Connection) -> None:
    c = held
    writes = ["DELETE FROM members WHERE id = 'M1'",
                "UPDATE members SET id = 'M9' WHERE id = 'M1'",
                "UPDATE events SET id = 'REF9'"]
    if office.engine.dialect.name == "postgresql":  # SQLite has no TRUNCATE
        # (without CASCADE, the keys of other tables refuse it first)
        writes += ["TRUNCATE members CASCADE", "TRUNCATE events CASCADE"]
    for sql in writes:
        with pytest.raises(REFUSED):
            c.execute(text(sql))
        c.rollback()
    c.execute(text("DELETE FROM members WHERE id = 'M2'"))  # no rating: it goes
    c.execute(text("UPDATE members SET name = 'Renamed' WHERE id = 'M1'"))  # not the id
    c.commit()
    assert count(c, "SELECT count(*) FROM members") == 1
    assert count(c, "SELECT count(*) FROM ratings") == 1


def test_an_event_deleted_takes_its_ratings_and_their_match_changes(office: Office, held: Connection) -> None:
    c = held
    c.execute(text("INSERT INTO rating_match_changes VALUES (:e, 1, 'M1', 'R', 1, "
                   "'2026-03-01', 12.5)"), {"e": EVENT})
    c.execute(text("DELETE FROM events WHERE id = :e"), {"e": EVENT})
    c.commit()
    assert [count(c, f"SELECT count(*) FROM {table}")
            for table in ("events", "ratings", "rating_match_changes", "members")] == [0, 0, 0, 2]


@dataclass
class OnPostgres:
    """An office on PostgreSQL holding `stored`'s rows, a connection to it (``c``), and
    a second client (``other``)."""

    office: Office
    c: Connection
    other: Engine


@pytest.fixture
def on_postgres() -> Iterator[OnPostgres]:
    """PostgreSQL alone (what SQLite has no room for: another writer at the same time,
    other statements, temporary tables, schemas); everything closed after the test,
    whatever it did."""
    url = postgres_url()
    fresh_postgres(url)
    office = Office(url)
    office.init()
    other = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    c = stored(office)
    try:
        yield OnPostgres(office, c, other)
    finally:
        c.close()
        other.dispose()
        office.engine.dispose()


def waited(work: Callable[[], None], meanwhile: Callable[[], None]) -> bool:
    """``work`` run in a thread; whether it was still waiting a second later, when
    ``meanwhile`` runs (which lets it go on: a commit)."""
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=1.0)
    was_waiting = thread.is_alive()
    meanwhile()
    thread.join(timeout=30)
    return was_waiting


def test_a_member_being_rated_cannot_be_deleted_by_another_transaction_meanwhile(
        on_postgres: OnPostgres) -> None:
    """PostgreSQL: a transaction writes rows naming M2 and has not committed; another
    deletes M2. The delete waits for the first (the rows lock M2 as a key would), then
    is refused, since M2 is rated by then. Without the lock it would have found no rows
    and deleted M2 under them."""
    c, outcome = on_postgres.c, []

    def delete() -> None:
        try:
            with on_postgres.other.begin() as d:
                d.execute(text("SET LOCAL lock_timeout = '20s'"))  # never a hung suite
                d.execute(text("DELETE FROM members WHERE id = 'M2'"))
            outcome.append(None)
        except DBAPIError as error:
            outcome.append(error)

    insert(c, [a_row(EVENT, "M2", 2)])  # not committed
    assert waited(delete, c.commit), "the delete did not wait for the rows naming M2"
    assert len(outcome) == 1 and isinstance(outcome[0], IntegrityError), outcome
    assert count(c, "SELECT count(*) FROM members WHERE id = 'M2'") == 1


def keys_of_ratings(c: Connection) -> int:
    """PostgreSQL: how many foreign keys ``ratings`` has to members and events."""
    return count(c, "SELECT count(*) FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid "
                    "JOIN pg_class p ON p.oid = k.confrelid WHERE k.contype = 'f' AND "
                    "r.relname = 'ratings' AND p.relname IN ('members', 'events')")


def test_the_migration_keeps_every_row_and_its_checks_both_ways(office: Office) -> None:
    """A year rated, then down to 0010 and up again twice: every row kept each time,
    and a row naming a missing member refused each time (on PostgreSQL at 0010 by the
    two keys, made again, and at the head by the triggers in their place)."""
    office.rate_many(year(4, seed=3))
    with office.engine.connect() as c:
        before = c.execute(text("SELECT * FROM ratings ORDER BY 1, 2, 3, 4")).all()
    assert len(before) > 50
    postgres = office.engine.dialect.name == "postgresql"
    for revision in ("0010", "head", "0010", "head"):
        with writing(office.engine) as c:
            if revision == "0010":
                command.downgrade(_alembic_config(c), revision)
            else:
                command.upgrade(_alembic_config(c), revision)
        with office.engine.connect() as c:
            assert c.execute(text("SELECT * FROM ratings ORDER BY 1, 2, 3, 4")).all() == before
            if postgres:
                assert keys_of_ratings(c) == (2 if revision == "0010" else 0)
            with pytest.raises(REFUSED):
                insert(c, [a_row(before[0].event_id, "NOBODY", 9)])
            c.rollback()


#: the other statements that write rows of ``ratings`` (PostgreSQL), each naming a member
#: the office does not hold: a trigger on INSERT must see every one of them
OTHER_DOORS = {
    "INSERT ... SELECT": "INSERT INTO ratings (event_id, section, member_id, system, end_date, "
                         "start_date, post) SELECT 'REF1', 5, 'NOBODY', 'R', '2026-03-01', "
                         "'2026-03-01', 1500",
    "INSERT in a WITH": "WITH x AS (INSERT INTO ratings (event_id, section, member_id, system, "
                        "end_date, start_date, post) VALUES ('REF1', 5, 'NOBODY', 'R', "
                        "'2026-03-01', '2026-03-01', 1500) RETURNING 1) SELECT count(*) FROM x",
    "MERGE inserting": "MERGE INTO ratings r USING (SELECT 'NOBODY' AS m) s ON false WHEN NOT "
                       "MATCHED THEN INSERT (event_id, section, member_id, system, end_date, "
                       "start_date, post) VALUES ('REF1', 5, s.m, 'R', '2026-03-01', "
                       "'2026-03-01', 1500)",
    "MERGE updating": "MERGE INTO ratings r USING (SELECT 'REF1' AS e) s ON r.event_id = s.e "
                      "WHEN MATCHED THEN UPDATE SET member_id = 'NOBODY'",
    "an upsert": "INSERT INTO ratings (event_id, section, member_id, system, end_date, "
                 "start_date, post) VALUES ('REF1', 1, 'M1', 'R', '2026-03-01', '2026-03-01', "
                 "1500) ON CONFLICT (event_id, section, member_id, system) DO UPDATE SET "
                 "member_id = 'NOBODY'",
}


@pytest.mark.parametrize("door", sorted(OTHER_DOORS))
def test_every_other_statement_that_writes_ratings_is_checked_too(
        door: str, on_postgres: OnPostgres) -> None:
    c = on_postgres.c  # (SQLite's keys check every row of every statement alike)
    version = int(c.execute(text("SHOW server_version_num")).scalar_one())
    if door.startswith("MERGE") and version < 150000:  # MERGE came with PostgreSQL 15
        skip_or_fail(f"this PostgreSQL ({version}) has no MERGE: nobody can write by it")
    with pytest.raises(IntegrityError, match="names member NOBODY"):
        c.execute(text(OTHER_DOORS[door]))
    c.rollback()
    assert count(c, "SELECT count(*) FROM ratings WHERE member_id = 'NOBODY'") == 0


def test_a_transaction_reading_an_older_snapshot_cannot_remove_what_ratings_may_name(
        on_postgres: OnPostgres) -> None:
    """PostgreSQL: a transaction at REPEATABLE READ or SERIALIZABLE reads the rows of
    its start. Another commits rows naming M2 after that; deleting M2, renaming it,
    deleting the event or truncating would not see them, and leave rows naming what is
    gone (a foreign key reads the latest rows there; a trigger cannot). Each is refused
    at those isolations, whatever the rows, and nothing is removed."""
    c = on_postgres.c
    for isolation in ("REPEATABLE READ", "SERIALIZABLE"):
        for sql in ("DELETE FROM members WHERE id = 'M2'",
                    "UPDATE members SET id = 'M9' WHERE id = 'M2'",
                    f"DELETE FROM events WHERE id = '{EVENT}'",
                    "TRUNCATE members CASCADE"):
            with on_postgres.other.connect() as old:
                old.execute(text(f"BEGIN ISOLATION LEVEL {isolation}"))
                old.execute(text("SELECT count(*) FROM ratings"))  # its snapshot
                insert(c, [a_row(EVENT, "M2", 2)])
                c.commit()
                with pytest.raises(DBAPIError, match="refused in a .* transaction"):
                    old.execute(text(sql))
                old.rollback()
            c.execute(text("DELETE FROM ratings WHERE section = 2"))
            c.commit()
    assert count(c, "SELECT count(*) FROM members") == 2
    assert count(c, "SELECT count(*) FROM ratings") == 1
    assert count(c, "SELECT count(*) FROM ratings r WHERE NOT EXISTS (SELECT 1 FROM "
                    "members m WHERE m.id = r.member_id)") == 0


def test_the_office_writes_at_read_committed_whatever_the_servers_default() -> None:
    """A database whose default isolation is REPEATABLE READ: the office still withdraws
    an event (its rows go with it), since its own connections ask for READ COMMITTED."""
    url = postgres_url()
    fresh_postgres(url)
    admin = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1),
                          isolation_level="AUTOCOMMIT")
    with admin.connect() as a:
        name = a.execute(text("SELECT current_database()")).scalar_one()
        a.execute(text(f'ALTER DATABASE "{name}" SET default_transaction_isolation '
                       "TO 'repeatable read'"))
    try:
        office = Office(url)
        office.init()
        events = year(3, seed=4)
        office.rate_many(events)
        with office.engine.connect() as c:
            assert c.execute(text("SHOW transaction_isolation")).scalar_one() == "read committed"
        office.withdraw(events[0].id)
        with office.engine.connect() as c:
            assert count(c, f"SELECT count(*) FROM ratings WHERE event_id = '{events[0].id}'") == 0
            assert count(c, "SELECT count(*) FROM ratings") > 0
        office.engine.dispose()
    finally:
        with admin.connect() as a:
            a.execute(text(f'ALTER DATABASE "{name}" RESET default_transaction_isolation'))
        admin.dispose()


#: a table of the session, named as the office's, that the triggers must not read in its
#: place (PostgreSQL finds a temporary table first by its name alone), and what the
#: session then tries
SHADOWED = {
    "a rated member deleted": ("ratings (member_id varchar(32), event_id varchar(64))",
                               "DELETE FROM public.members WHERE id = 'M1'"),
    "a rated member renamed": ("ratings (member_id varchar(32), event_id varchar(64))",
                               "UPDATE public.members SET id = 'M9' WHERE id = 'M1'"),
    "a row naming a member only the session holds": (
        "members (id varchar(32))",
        "INSERT INTO pg_temp.members VALUES ('GHOST'); INSERT INTO public.ratings (event_id, "
        "section, member_id, system, end_date, start_date) VALUES ('REF1', 7, 'GHOST', 'R', "
        "'2026-03-01', '2026-03-01')"),
}


@pytest.mark.parametrize("attack", sorted(SHADOWED))
def test_a_temporary_table_named_as_the_offices_does_not_fool_the_checks(
        attack: str, on_postgres: OnPostgres) -> None:
    """PostgreSQL: any user may make temporary tables, and the session finds them first
    by name. The triggers name every table with its schema: each attempt is refused,
    and nothing is left naming what is gone."""
    c, (table, sql) = on_postgres.c, SHADOWED[attack]
    c.execute(text(f"CREATE TEMPORARY TABLE {table}"))
    with pytest.raises(IntegrityError):
        for statement in sql.split("; "):
            c.execute(text(statement))
    c.rollback()
    assert count(c, "SELECT count(*) FROM public.ratings r WHERE NOT EXISTS (SELECT 1 "
                    "FROM public.members m WHERE m.id = r.member_id) OR NOT EXISTS "
                    "(SELECT 1 FROM public.events e WHERE e.id = r.event_id)") == 0
    assert count(c, "SELECT count(*) FROM public.members") == 2


def test_an_event_deleted_beside_a_temporary_ratings_takes_its_own_ratings(
        on_postgres: OnPostgres) -> None:
    """PostgreSQL: the cascade deletes the rows of the office's ``ratings``, not of a
    temporary table of that name (which kept them, naming the event gone)."""
    c = on_postgres.c
    c.execute(text("CREATE TEMPORARY TABLE ratings (member_id varchar(32), "
                   "event_id varchar(64))"))
    c.execute(text("INSERT INTO pg_temp.ratings VALUES ('M1', :e)"), {"e": EVENT})
    c.execute(text("DELETE FROM public.events WHERE id = :e"), {"e": EVENT})
    c.commit()
    assert count(c, "SELECT count(*) FROM public.ratings") == 0
    assert count(c, "SELECT count(*) FROM pg_temp.ratings") == 1  # not the office's


def test_a_function_put_first_on_the_search_path_does_not_fool_the_checks(
        on_postgres: OnPostgres) -> None:
    """PostgreSQL: a user who may make a schema puts a ``current_setting`` of their own
    first on the path, which says READ COMMITTED, then deletes a rated member from a
    REPEATABLE READ transaction whose snapshot is older than its rows: refused, since
    the triggers run with the path set to pg_catalog."""
    c = on_postgres.c
    with on_postgres.other.connect() as old:
        old.execute(text("CREATE SCHEMA liar"))  # in the test's database, emptied after
        old.execute(text("CREATE FUNCTION liar.current_setting(text) RETURNS text "
                         "LANGUAGE sql AS $$ SELECT 'read committed'::text $$"))
        old.commit()
        try:
            old.execute(text("BEGIN ISOLATION LEVEL REPEATABLE READ"))
            old.execute(text("SET LOCAL search_path = liar, pg_catalog, public"))
            old.execute(text("SELECT count(*) FROM public.ratings"))  # its snapshot
            insert(c, [a_row(EVENT, "M2", 2)])
            c.commit()
            with pytest.raises(DBAPIError, match="refused in a repeatable read transaction"):
                old.execute(text("DELETE FROM public.members WHERE id = 'M2'"))
        finally:
            old.rollback()
            old.execute(text("DROP SCHEMA liar CASCADE"))
            old.commit()
    assert count(c, "SELECT count(*) FROM members WHERE id = 'M2'") == 1


def test_a_member_deleted_and_made_again_meanwhile_is_named_when_refused(
        on_postgres: OnPostgres) -> None:
    """PostgreSQL: another transaction deletes M2 and inserts it again; a statement that
    names M2 waits for it, finds the row it would lock gone, and is refused as a key
    refuses it, naming M2 (its first message named nothing: the lookup of the missing
    id ran on a newer snapshot, where M2 is there again)."""
    outcome: list[BaseException | None] = []

    def write() -> None:
        with on_postgres.office.engine.connect() as w:
            try:
                insert(w, [a_row(EVENT, "M2", 2)])
                w.commit()
                outcome.append(None)
            except REFUSED as error:  # the driver's own error: insert_many is raw
                outcome.append(error)

    with on_postgres.other.connect() as d:
        d.execute(text("DELETE FROM members WHERE id = 'M2'"))
        d.execute(text("INSERT INTO members (id, name) VALUES ('M2', 'Again')"))
        assert waited(write, d.commit), "the write did not wait for the member's row"
    assert len(outcome) == 1 and isinstance(outcome[0], REFUSED), outcome
    assert "names member M2," in str(outcome[0])


def test_a_writer_needs_only_the_grants_a_key_needed(on_postgres: OnPostgres) -> None:
    """PostgreSQL: a role allowed to insert into ratings, and to delete events, and no
    more. A key's checks run with the owner's rights, and so do the triggers: its good
    row is stored, its row naming a missing member refused, and the event it deletes
    takes its ratings (with the writer's own rights, the check could not lock the
    member, nor the cascade delete the ratings: refused, for want of grants)."""
    c, writer = on_postgres.c, f"uscf_writer_{os.getpid()}"
    c.execute(text(f"CREATE ROLE {writer}"))
    c.execute(text(f"GRANT USAGE ON SCHEMA public TO {writer}"))  # (made again: no grant)
    c.execute(text(f"GRANT INSERT ON ratings TO {writer}"))
    c.execute(text(f"GRANT SELECT, DELETE ON events TO {writer}"))
    c.commit()
    row = ("INSERT INTO ratings (event_id, section, member_id, system, end_date, start_date) "
           "VALUES ('REF1', 4, :member, 'R', '2026-03-01', '2026-03-01')")
    try:
        c.execute(text(f"SET ROLE {writer}"))
        c.execute(text(row), {"member": "M2"})
        with pytest.raises(IntegrityError, match="names member NOBODY"):
            with c.begin_nested():  # the refusal undone alone: the good row stays
                c.execute(text(row), {"member": "NOBODY"})
        c.commit()
        c.execute(text("RESET ROLE"))
        assert count(c, "SELECT count(*) FROM ratings") == 2  # stored's, and the good row
        c.execute(text(f"SET ROLE {writer}"))
        c.execute(text("DELETE FROM events WHERE id = :e"), {"e": EVENT})
        c.commit()
    finally:
        c.rollback()
        c.execute(text("RESET ROLE"))
        c.execute(text(f"DROP OWNED BY {writer}"))
        c.execute(text(f"DROP ROLE {writer}"))
        c.commit()
    assert count(c, "SELECT count(*) FROM ratings") == 0
    assert count(c, "SELECT count(*) FROM events") == 0
