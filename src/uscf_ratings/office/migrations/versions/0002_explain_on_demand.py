"""Results without stored explanations, and an index on their rating order.

A result row keeps its numbers and the state after it; the explanation is rebuilt on
demand by rating the section again from the states before it (office/explain.py), which
gives the same numbers. Storing it cost a fifth of the time of rating an event and most
of the database's size. The index lets a re-rate find the result rows from a point in
rating order without reading the whole table.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("ratings") as batch:
        batch.drop_column("explanation")
    op.create_index("ratings_order", "ratings", ["end_date", "start_date", "event_id", "section"])


def downgrade() -> None:
    op.drop_index("ratings_order", "ratings")
    with op.batch_alter_table("ratings") as batch:
        batch.add_column(sa.Column("explanation", sa.Text, nullable=False, server_default="{}"))
