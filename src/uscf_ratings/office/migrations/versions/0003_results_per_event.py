"""Each result row keeps the event's rated games won, drawn and lost.

A player's page shows them per event and in all, which the state after an event cannot
give where the history before it is not on record (an imported rating without its
counts). Rows stored before this revision keep NULL: the office does not guess them.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

COLUMNS = ("wins", "draws", "losses")


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.Integer))


def downgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
