"""The first schema: members, baselines, floors, events, sections, ratings, audit, tokens.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "members",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("birth_date", sa.Date),
        sa.Column("adult", sa.Boolean),
        sa.Column("state", sa.String(8)),
        sa.Column("fide_rating", sa.Float),
        sa.Column("fide_date", sa.Date),
        sa.Column("cfc_rating", sa.Float),
        sa.Column("cfc_date", sa.Date),
        sa.Column("canadian_resident", sa.Boolean),
        sa.Column("merged_into", sa.String(32), sa.ForeignKey("members.id")),
    )
    op.create_table(
        "baselines",
        sa.Column("member_id", sa.String(32), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("system", sa.String(2), primary_key=True),
        sa.Column("rating", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("as_of", sa.Date),
        sa.Column("wins", sa.Integer), sa.Column("draws", sa.Integer),
        sa.Column("losses", sa.Integer), sa.Column("events3", sa.Integer),
        sa.Column("peak", sa.Float),
        sa.Column("olm", sa.Boolean, nullable=False),
        sa.Column("games_above_2200", sa.Integer),
    )
    op.create_table(
        "floors",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("member_id", sa.String(32), sa.ForeignKey("members.id"), nullable=False),
        sa.Column("system", sa.String(2), nullable=False),
        sa.Column("floor", sa.Float, nullable=False),
        sa.Column("effective", sa.Date, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("end_date", sa.Date, nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("submitted_at", sa.DateTime, nullable=False),
        sa.Column("corrections", sa.Integer, nullable=False),
    )
    op.create_table(
        "sections",
        sa.Column("event_id", sa.String(64), sa.ForeignKey("events.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("end_date", sa.Date, nullable=False),
        sa.Column("systems", sa.String(32), nullable=False),
        sa.Column("rule_set", sa.Date, nullable=False),
    )
    op.create_index("sections_order", "sections", ["end_date", "start_date", "event_id", "number"])
    op.create_table(
        "ratings",
        sa.Column("event_id", sa.String(64), sa.ForeignKey("events.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("section", sa.Integer, primary_key=True),
        sa.Column("member_id", sa.String(32), sa.ForeignKey("members.id"), primary_key=True),
        sa.Column("system", sa.String(2), primary_key=True),
        sa.Column("end_date", sa.Date, nullable=False),
        sa.Column("start_date", sa.Date, nullable=False),
        sa.Column("pre", sa.Float),
        sa.Column("pre_games", sa.Integer),
        sa.Column("post", sa.Float),
        sa.Column("games_after", sa.Integer),
        sa.Column("floor", sa.Float),
        sa.Column("state_after", sa.Text),
        sa.Column("explanation", sa.Text, nullable=False),
    )
    op.create_index("ratings_member", "ratings", ["member_id", "system", "end_date"])
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime, nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("hash", sa.String(128), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    for table in ("tokens", "audit", "ratings", "sections", "events", "floors", "baselines",
                  "members"):
        op.drop_table(table)
