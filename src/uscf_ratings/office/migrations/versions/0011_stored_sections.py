"""Each section keeps its lineup and the digest of the rows its rating wrote, so that a
re-rate reads no event JSON and writes no row that comes out as stored.

``sections.lineup`` (office/stored_lineup.py) holds what a re-rate rates the section
from; the sections stored before this revision get theirs here, made from the event JSON
they were rated from (``events.source``), as the rating loop made them. A source that
cannot be read back keeps NULL, and a re-rate reads that event's JSON, as before.
``sections.rows_digest`` (office/digest.py) starts NULL: the first re-rate that reaches a
section writes its rows, as before, with their digest. Downgrading drops both columns;
nothing else depends on them.

Revision ID: 0011
Revises: 0010
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: stored events read and updated at a time
BATCH = 500


# Plain ALTER TABLE, as in 0004 and 0008: batch mode may rebuild ``sections`` on SQLite,
# and dropping it deletes every rating of its sections (ON DELETE CASCADE).


def upgrade() -> None:
    op.add_column("sections", sa.Column("rows_digest", sa.String(32)))
    op.add_column("sections", sa.Column("lineup", sa.Text))
    _fill(op.get_bind())


def _fill(bind: sa.Connection) -> None:
    from uscf_ratings.formats.errors import ParseError
    from uscf_ratings.office.stored_lineup import lineup_text
    from uscf_ratings.office.submission import event_of_source, submission

    events = sa.table("events", sa.column("id", sa.String), sa.column("source", sa.Text))
    sections = sa.table("sections", sa.column("event_id", sa.String),
                        sa.column("number", sa.Integer), sa.column("lineup", sa.Text))
    ids = list(bind.execute(sa.select(events.c.id).order_by(events.c.id)).scalars())
    update = (sa.update(sections).where(sections.c.event_id == sa.bindparam("event"),
                                        sections.c.number == sa.bindparam("section"))
              .values(lineup=sa.bindparam("text")))
    for at in range(0, len(ids), BATCH):
        rows = bind.execute(sa.select(events.c.id, events.c.source)
                            .where(events.c.id.in_(ids[at:at + BATCH])))
        values = []
        for event_id, source in rows:
            try:
                event, mode = event_of_source(event_id, json.loads(source))
                taken = submission(event)
            except (ValueError, KeyError, TypeError, ParseError):
                continue  # unreadable: NULL, read from the event JSON as before
            values += [{"event": event_id, "section": s.number,
                        "text": lineup_text(s.lineup, s.norm_reason, mode)}
                       for s in taken.sections]
        if values:
            bind.execute(update, values)


def downgrade() -> None:
    op.drop_column("sections", "lineup")
    op.drop_column("sections", "rows_digest")
