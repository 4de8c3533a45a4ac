"""Each event keeps the fingerprint of its content, so that one report is rated once.

The same tournament sent as a DBF folder, a zip of it and a SwissSys file arrives under
three event ids; the office refuses an event whose content (each section's dates, its
members, the games of each round: office/fingerprint.py) is stored under another id.
The ``fingerprint`` column holds it, with an index for the look-up at every store. The
events stored before this revision get theirs here, from the event JSON they were rated
from (``events.source``), so that a report stored before is found too. A source that
cannot be read back keeps NULL (it is never taken for a duplicate).

Revision ID: 0008
Revises: 0007
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

#: stored events read and updated at a time
BATCH = 500


# Plain ALTER TABLE, as in 0004: batch mode may rebuild ``events`` on SQLite, and
# dropping it deletes every section and rating (ON DELETE CASCADE).


def upgrade() -> None:
    op.add_column("events", sa.Column("fingerprint", sa.String(64)))
    op.create_index("events_fingerprint", "events", ["fingerprint"])
    _fill(op.get_bind())


def _fill(bind: sa.Connection) -> None:
    from uscf_ratings.formats.errors import ParseError
    from uscf_ratings.office.fingerprint import fingerprint
    from uscf_ratings.office.submission import event_of_source

    events = sa.table("events", sa.column("id", sa.String), sa.column("source", sa.Text),
                      sa.column("fingerprint", sa.String))
    ids = list(bind.execute(sa.select(events.c.id).order_by(events.c.id)).scalars())
    update = (sa.update(events).where(events.c.id == sa.bindparam("event_id"))
              .values(fingerprint=sa.bindparam("content")))
    for at in range(0, len(ids), BATCH):
        rows = bind.execute(sa.select(events.c.id, events.c.source)
                            .where(events.c.id.in_(ids[at:at + BATCH])))
        values = []
        for event_id, source in rows:
            try:
                event = event_of_source(event_id, json.loads(source))[0]
            except (ValueError, KeyError, TypeError, ParseError):
                continue  # unreadable: NULL, never a duplicate
            values.append({"event_id": event_id, "content": fingerprint(event)})
        if values:
            bind.execute(update, values)


def downgrade() -> None:
    op.drop_index("events_fingerprint", "events")
    op.drop_column("events", "fingerprint")
