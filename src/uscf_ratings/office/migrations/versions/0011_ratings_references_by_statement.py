"""PostgreSQL: the references of ``ratings`` to its members and events checked once a
statement rather than once a row.

A foreign key is checked by PostgreSQL with a trigger for each row inserted, which looks
the parent row up and locks it (``FOR KEY SHARE``): for the year's 518,052 rows of
``uscf db rate``, two of them took the server about 4 s, a fifth of the command
(docs/performance.md). This migration replaces the two foreign keys of ``ratings`` (to
``members`` and to ``events``) by triggers that keep the same guarantees, in the
database, whoever writes to it:

- rows inserted into ``ratings`` (the office writes them by COPY, a statement for many
  rows): after the statement, every member and event they name is looked up and locked
  ``FOR KEY SHARE``, as the keys lock them, in one query each (`CHECK_INSERTED`). One
  missing refuses the statement with PostgreSQL's own error for a foreign key
  (``foreign_key_violation``, SQLSTATE 23503), naming the row's value;
- a row's ``member_id`` or ``event_id`` changed: the new one checked the same way;
- a member deleted, or its id changed, while ``ratings`` names it: refused, as the key's
  NO ACTION refuses it;
- an event deleted: its rows of ``ratings`` deleted with it, as the key's ON DELETE
  CASCADE did (their match changes go with them, by their own key); its id changed
  while rows name it: refused;
- ``members`` or ``events`` emptied by TRUNCATE while ``ratings`` holds a row: refused,
  as PostgreSQL refuses to truncate a table a key refers to;
- any of the last three in a transaction at REPEATABLE READ or SERIALIZABLE: refused
  (`LATEST_ROWS_ONLY` says why).

The locks are what keep a concurrent transaction from deleting a member between the
check and the commit: it waits, then finds the rows and is refused. The functions run
with the owner's rights, as a key's checks do (`SAFE`). They name every table with its
schema (the one the migration runs in) and run with ``search_path`` set to
``pg_catalog, pg_temp``: a temporary table called ``members``, or a function
``current_setting`` in a schema a user put first, would otherwise be read in place of
the real one (a helper's attack, by a writer who owns nothing). SQLite keeps its
foreign keys, which cost it little (docs/performance.md). Downgrading drops the
triggers and makes the two keys again, which checks every row already stored.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: each reference of ``ratings`` the triggers keep: its column, the table it names, and
#: what a message calls a row of it
REFERENCES = (("member_id", "members", "member"), ("event_id", "events", "event"))
#: in the SQL below, the schema of the office's tables (`_schema`)
SCHEMA = "@schema@"
#: how every function runs: with the rights of the tables' owner, as a key's checks run
#: (a writer allowed to insert into ratings need not be allowed to lock members, nor
#: one allowed to delete events to delete ratings); built-in functions and operators
#: from pg_catalog, and no table found by its name alone (each is named with its
#: schema), as PostgreSQL's advice for such functions says
SAFE = "LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp"


def _inserted(column: str, table: str, what: str) -> str:
    """The check of one reference after a statement inserted rows (``new_rows``, the
    statement's transition table): each id named looked up and locked, in one query;
    where one is missing, the first of them named (found among those locked, so that a
    row changed meanwhile cannot hide it)."""
    return f"""
    SELECT count(*), array_agg(l.id) INTO held, locked
        FROM (SELECT p.id FROM {SCHEMA}.{table} p
              WHERE p.id IN (SELECT {column} FROM new_rows) FOR KEY SHARE OF p) AS l;
    IF held <> (SELECT count(DISTINCT {column}) FROM new_rows) THEN
        SELECT n.{column} INTO missing FROM new_rows n
            WHERE NOT EXISTS (SELECT 1 FROM unnest(locked) AS h(id) WHERE h.id = n.{column})
            LIMIT 1;
        RAISE foreign_key_violation USING
            MESSAGE = format('a row of ratings names {what} %s, which {table} does not hold',
                             missing);
    END IF;"""


def _changed(column: str, table: str, what: str) -> str:
    """The check of one reference of a row whose references changed."""
    return f"""
    PERFORM 1 FROM {SCHEMA}.{table} WHERE id = NEW.{column} FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            'a row of ratings names {what} %s, which {table} does not hold', NEW.{column});
    END IF;"""


CHECK_INSERTED = f"""
CREATE FUNCTION {SCHEMA}.ratings_check_inserted() RETURNS trigger {SAFE} AS $$
DECLARE
    held bigint;  -- not "found", which is PL/pgSQL's own
    locked text[];
    missing text;
BEGIN{"".join(_inserted(*reference) for reference in REFERENCES)}
    RETURN NULL;
END $$;
CREATE TRIGGER ratings_references_inserted AFTER INSERT ON {SCHEMA}.ratings
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION {SCHEMA}.ratings_check_inserted();
"""

#: a row's reference changed (never by the office: its re-rates update the numbers, and
#: a trigger with a column list does not fire for them)
CHECK_CHANGED = f"""
CREATE FUNCTION {SCHEMA}.ratings_check_changed() RETURNS trigger {SAFE} AS $$
BEGIN{"".join(_changed(*reference) for reference in REFERENCES)}
    RETURN NEW;
END $$;
CREATE TRIGGER ratings_references_changed BEFORE UPDATE OF member_id, event_id
    ON {SCHEMA}.ratings
    FOR EACH ROW WHEN (OLD.member_id IS DISTINCT FROM NEW.member_id
                       OR OLD.event_id IS DISTINCT FROM NEW.event_id)
    EXECUTE FUNCTION {SCHEMA}.ratings_check_changed();
"""

#: what the triggers on a parent table (a member, an event) read of ``ratings`` is what
#: the statement's snapshot holds. At READ COMMITTED that is every row committed when it
#: runs (and the rows a writer is still writing lock the parent row: the statement waits
#: for them). A transaction at REPEATABLE READ or SERIALIZABLE reads the rows of its own
#: start, and would miss rows committed since: a foreign key reads the latest rows
#: then, which a trigger cannot. Such a transaction is refused instead, naming the
#: isolation to use. The office's own transactions are READ COMMITTED (`db.make_engine`).
LATEST_ROWS_ONLY = """
    IF current_setting('transaction_isolation') <> 'read committed' THEN
        RAISE feature_not_supported USING MESSAGE = format(
            '%s of %s refused in a %s transaction: whether rows of ratings name it is '
            'known from the latest committed rows alone; run it at READ COMMITTED',
            lower(TG_OP), TG_TABLE_NAME, current_setting('transaction_isolation'));
    END IF;"""

#: a parent row (a member, an event) that rows of ratings name: not removed, its id not
#: changed; ``TG_ARGV[0]``: the column of ratings that names it
KEEP_NAMED = f"""
CREATE FUNCTION {SCHEMA}.ratings_keep_named() RETURNS trigger {SAFE} AS $$
DECLARE
    named boolean;
BEGIN{LATEST_ROWS_ONLY}
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.ratings WHERE %I = $1)',
                   TG_TABLE_SCHEMA, TG_ARGV[0])
        INTO named USING OLD.id;
    IF named THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            '%s %s is named by rows of ratings: it cannot be %s', TG_TABLE_NAME, OLD.id,
            CASE TG_OP WHEN 'DELETE' THEN 'deleted' ELSE 'given another id' END);
    END IF;
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER ratings_keep_member BEFORE DELETE ON {SCHEMA}.members
    FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.ratings_keep_named('member_id');
CREATE TRIGGER ratings_keep_member_id BEFORE UPDATE OF id ON {SCHEMA}.members
    FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION {SCHEMA}.ratings_keep_named('member_id');
CREATE TRIGGER ratings_keep_event_id BEFORE UPDATE OF id ON {SCHEMA}.events
    FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
    EXECUTE FUNCTION {SCHEMA}.ratings_keep_named('event_id');
"""

#: an event deleted takes its rows of ratings with it (the key's ON DELETE CASCADE)
CASCADE = f"""
CREATE FUNCTION {SCHEMA}.ratings_of_deleted_event() RETURNS trigger {SAFE} AS $$
BEGIN{LATEST_ROWS_ONLY}
    DELETE FROM {SCHEMA}.ratings WHERE event_id = OLD.id;
    RETURN NULL;
END $$;
CREATE TRIGGER ratings_cascade AFTER DELETE ON {SCHEMA}.events
    FOR EACH ROW EXECUTE FUNCTION {SCHEMA}.ratings_of_deleted_event();
"""

#: TRUNCATE runs no row trigger: refused while ratings holds a row, as for a key
NO_TRUNCATE = f"""
CREATE FUNCTION {SCHEMA}.ratings_keep_parents() RETURNS trigger {SAFE} AS $$
BEGIN{LATEST_ROWS_ONLY}
    IF EXISTS (SELECT 1 FROM {SCHEMA}.ratings) THEN
        RAISE foreign_key_violation USING MESSAGE = format(
            'ratings names rows of %s: it cannot be truncated', TG_TABLE_NAME);
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER ratings_keep_members BEFORE TRUNCATE ON {SCHEMA}.members
    FOR EACH STATEMENT EXECUTE FUNCTION {SCHEMA}.ratings_keep_parents();
CREATE TRIGGER ratings_keep_events BEFORE TRUNCATE ON {SCHEMA}.events
    FOR EACH STATEMENT EXECUTE FUNCTION {SCHEMA}.ratings_keep_parents();
"""

TRIGGERS = (("ratings_references_inserted", "ratings"), ("ratings_references_changed", "ratings"),
            ("ratings_keep_member", "members"), ("ratings_keep_member_id", "members"),
            ("ratings_keep_event_id", "events"), ("ratings_cascade", "events"),
            ("ratings_keep_members", "members"), ("ratings_keep_events", "events"))
FUNCTIONS = ("ratings_check_inserted", "ratings_check_changed", "ratings_keep_named",
             "ratings_of_deleted_event", "ratings_keep_parents")


def _schema() -> str:
    """The schema the migration runs in (where the office's tables are: the first of the
    connection's search path), quoted as an identifier, to put for `SCHEMA`."""
    schema = str(op.get_bind().exec_driver_sql("SELECT current_schema()").scalar_one())
    return '"' + schema.replace('"', '""') + '"'


def _keys_of_ratings() -> list[tuple[str, str]]:
    """The foreign keys of ``ratings`` to ``members`` and ``events``: (name, table)."""
    found = op.get_bind().exec_driver_sql(
        "SELECT c.conname, p.relname FROM pg_constraint c "
        "JOIN pg_class r ON r.oid = c.conrelid JOIN pg_class p ON p.oid = c.confrelid "
        "WHERE c.contype = 'f' AND r.relname = 'ratings' "
        "AND p.relname IN ('members', 'events') AND r.relnamespace = p.relnamespace "
        "AND pg_table_is_visible(r.oid)").all()
    return [(str(name), str(table)) for name, table in found]


def upgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return  # SQLite keeps its foreign keys
    for name, _ in _keys_of_ratings():
        op.drop_constraint(name, "ratings", type_="foreignkey")
    schema = _schema()
    for statement in (CHECK_INSERTED, CHECK_CHANGED, KEEP_NAMED, CASCADE, NO_TRUNCATE):
        op.execute(statement.replace(SCHEMA, schema))


def downgrade() -> None:
    if op.get_context().dialect.name != "postgresql":
        return
    schema = _schema()
    for trigger, table in TRIGGERS:
        op.execute(f"DROP TRIGGER {trigger} ON {schema}.{table}")
    for function in FUNCTIONS:
        op.execute(f"DROP FUNCTION {schema}.{function}()")
    op.create_foreign_key(None, "ratings", "members", ["member_id"], ["id"])
    op.create_foreign_key(None, "ratings", "events", ["event_id"], ["id"], ondelete="CASCADE")
