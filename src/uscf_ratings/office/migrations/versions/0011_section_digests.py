"""Each section keeps the digest of the rows its rating wrote (office/digest.py).

A re-rate leaves alone the sections whose rows come out with the digest stored. The
sections stored before this revision have none (NULL), and the first re-rate that
reaches them writes their rows as before, with their digest. Downgrading drops the
column; nothing else depends on it.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, as in 0004 and 0008: batch mode may rebuild ``sections`` on SQLite,
# and dropping it deletes every rating of its sections (ON DELETE CASCADE).


def upgrade() -> None:
    op.add_column("sections", sa.Column("rows_digest", sa.String(32)))


def downgrade() -> None:
    op.drop_column("sections", "rows_digest")
