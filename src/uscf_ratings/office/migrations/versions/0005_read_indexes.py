"""Indexes for what the web app reads on every page: events latest first, merged ids.

The events list is ordered by end date and id, the latest first: without an index every
page of it sorted the whole table. Every player and event page follows merged ids
(store.aliases: the members with ``merged_into`` set), which read the whole members
table. Both indexes only speed reads; nothing is written differently.

Revision ID: 0005
Revises: 0004
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("events_latest", "events", ["end_date", "id"])
    op.create_index("members_merged", "members", ["merged_into"])


def downgrade() -> None:
    op.drop_index("members_merged", "members")
    op.drop_index("events_latest", "events")
