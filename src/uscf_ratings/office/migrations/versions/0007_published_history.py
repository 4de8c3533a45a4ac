"""What US Chess published of members' ratings (`uscf db import-history`).

``published_history`` keeps each imported section of a member's published history as
it was published (formats/member_history.py): a member's rating before the first
section in the pool is taken from it (office/history.py), and `uscf db player` shows it
beside the pool's own. Nothing stored before changes.

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "published_history",
        sa.Column("member_id", sa.String(32), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("system", sa.String(2), primary_key=True),
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("section", sa.Integer, primary_key=True),
        sa.Column("event_name", sa.Text, nullable=False),
        sa.Column("section_name", sa.Text, nullable=False),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("end_date", sa.Date, nullable=False),
        sa.Column("pre", sa.Float),
        sa.Column("post", sa.Float, nullable=False),
        sa.Column("post_games", sa.Integer),
        sa.Column("source", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("published_history")
