"""Alembic environment: migrations run on the connection the office hands over."""

from __future__ import annotations

from alembic import context

from uscf_ratings.office.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the office always passes its connection
    raise RuntimeError("run migrations through uscf_ratings.office.db.upgrade()")
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
