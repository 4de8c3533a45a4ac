"""Norms stored with the ratings, and the titles and norms a member brings from before.

``ratings.norm`` holds each member's highest norm toward a title in a section, as the
crosstable's code ('N:C'), on the member's Regular row: a norm is earned once a member
and section, from the post-event Regular ratings (core/norms.py), so the Regular row,
which every player who can earn one has, holds it without a table of its own. The
rows stored before this revision get theirs when their sections are rated again (a
re-rate computes them, as rating does); until then they read NULL, no norm.

``member_titles`` and ``member_norms`` keep what a member list or an imported history
says a member had earned before the pool's history: titles by their AwardType names,
with a date where given, and norm counts by level. core/titles.py starts from them.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, as in 0004 and 0008: batch mode may rebuild ``ratings`` on SQLite.


def upgrade() -> None:
    op.add_column("ratings", sa.Column("norm", sa.String(4)))
    op.create_table(
        "member_titles",
        sa.Column("member_id", sa.String(32), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("title", sa.String(32), primary_key=True),
        sa.Column("earned", sa.Date),
        sa.Column("source", sa.Text, nullable=False),
    )
    op.create_table(
        "member_norms",
        sa.Column("member_id", sa.String(32), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("code", sa.String(4), primary_key=True),
        sa.Column("count", sa.Integer, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("member_norms")
    op.drop_table("member_titles")
    op.drop_column("ratings", "norm")
