"""Each event keeps where it was played: its city and state, to find events by place.

The event's details (site, affiliate, directors: core/model.py, `EventDetails`) ride in
the event JSON the events table keeps already (``source``); the city and the state are
also columns, written when an event is stored or corrected, so that a list of events can
be searched by state without reading every source. Rows stored before this revision
keep NULL: their sources were written before event JSON had details, so there is
nothing to copy.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

COLUMNS = ("city", "state")


# Plain ALTER TABLE, not alembic's batch mode: on SQLite, batch mode may rebuild the
# table (a copy, DROP TABLE, a rename), and dropping ``events`` with the office's foreign
# keys on deletes every section and rating of every event (ON DELETE CASCADE). SQLite
# adds a column in place, and drops one in place from 3.35 on (older: the downgrade
# fails and changes nothing). A test holds the rows through both directions.


def upgrade() -> None:
    for name in COLUMNS:
        op.add_column("events", sa.Column(name, sa.Text))
    op.create_index("events_state", "events", ["state"])


def downgrade() -> None:
    op.drop_index("events_state", "events")
    for name in reversed(COLUMNS):
        op.drop_column("events", name)
