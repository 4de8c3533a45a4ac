"""The index of merged ids holds the merged members only (a partial index).

Every player and event page follows merged ids (store.aliases: the members whose
``merged_into`` is set). With the plain index of 0005, SQLite without table statistics
judged ``merged_into IS NOT NULL`` unselective and read all of the members table
instead: 6.6 ms a page at 100,000 members, a quarter of a player page's time. An index
of the merged members alone is chosen for that condition, and is small. Nothing is
written differently.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

MERGED = sa.text("merged_into IS NOT NULL")


def upgrade() -> None:
    op.drop_index("members_merged", "members")
    op.create_index("members_merged", "members", ["merged_into"],
                    sqlite_where=MERGED, postgresql_where=MERGED)


def downgrade() -> None:
    op.drop_index("members_merged", "members")
    op.create_index("members_merged", "members", ["merged_into"])
