"""The state after each rating stored as typed columns rather than a JSON text.

Every row of ``ratings`` kept the state a later event starts from as JSON
(``state_after``): writing it was most of what the office spent on a row, and reading it
back a parse per member (docs/performance.md). The state's rating, N and date are the
row's ``post``, ``games_after`` and ``end_date`` already; its other fields are now columns
of their own (``wins_after`` ... ``games_known``, office/schema.py), and the match changes
a state carries (rare: members who played individual matches, section 7) are rows of
``rating_match_changes``, counted in ``ratings.match_changes``.

Upgrading reads each stored text and writes its values into the columns. A text whose
rating, N or date is not the row's, or that cannot be read, stops the upgrade, naming
the row, and nothing is changed (the migration is one transaction): no stored value is
dropped. A row without a text (NULL: the office always wrote one, but a row put in by
hand may lack it) keeps its rating, N and date, and reads no counts, floors or titles,
as the office reads a state that gives none; where it has no rating or no N either, it
holds no state, as before (store.row_states). Downgrading writes the texts again from the
columns, as the office wrote them (``json.dumps`` of the state in the input format,
formats/result_json.rating_state).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import date
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: rows read and written at a time
BATCH = 5_000
KEY = ("event_id", "section", "member_id", "system")
#: each state column and the field of the state's JSON it holds, in the text's order
#: (rating_state writes wins ... games_above_2200, then olm, games_known, match_changes)
FIELDS = (("wins_after", "wins"), ("draws_after", "draws"), ("losses_after", "losses"),
          ("events3_after", "events3"), ("peak_after", "peak"), ("floor_by_hand", "floor"),
          ("floor_lowered_from", "floor_lowered_from"),
          ("floor_lowered_to", "floor_lowered_to"), ("above_2200_after", "games_above_2200"))
INTEGERS = ("wins_after", "draws_after", "losses_after", "events3_after", "above_2200_after")
#: the fields a state's text may hold
KNOWN = {"rating", "games", "date", "olm", "games_known", "match_changes",
         *(name for _, name in FIELDS)}


def _ratings(*extra: str) -> sa.TableClause:
    columns: list[sa.ColumnClause[Any]] = [
        sa.column(name, sa.String) for name in ("event_id", "member_id", "system")]
    columns += [sa.column("section", sa.Integer), sa.column("post", sa.Float),
                sa.column("games_after", sa.Integer), sa.column("end_date", sa.Date),
                sa.column("olm", sa.Boolean), sa.column("games_known", sa.Boolean),
                sa.column("match_changes", sa.Integer)]
    columns += [sa.column(name, sa.Integer if name in INTEGERS else sa.Float)
                for name, _ in FIELDS]
    columns += [sa.column(name, sa.Text) for name in extra]
    return sa.table("ratings", *columns)


_changes = sa.table("rating_match_changes", sa.column("event_id", sa.String),
                    sa.column("section", sa.Integer), sa.column("member_id", sa.String),
                    sa.column("system", sa.String), sa.column("position", sa.Integer),
                    sa.column("date", sa.Date), sa.column("change", sa.Float))
#: the names of the state's columns, and of their values in an UPDATE's parameters
SET = (*(name for name, _ in FIELDS), "olm", "games_known", "match_changes")


def upgrade() -> None:
    for name, _ in FIELDS:
        op.add_column("ratings", sa.Column(name, sa.Integer if name in INTEGERS else sa.Float))
    op.add_column("ratings", sa.Column("olm", sa.Boolean, nullable=False,
                                       server_default=sa.false()))
    op.add_column("ratings", sa.Column("match_changes", sa.Integer, nullable=False,
                                       server_default=sa.text("0")))
    op.add_column("ratings", sa.Column("games_known", sa.Boolean, nullable=False,
                                       server_default=sa.true()))
    op.create_table(
        "rating_match_changes",
        sa.Column("event_id", sa.String(64), primary_key=True),
        sa.Column("section", sa.Integer, primary_key=True),
        sa.Column("member_id", sa.String(32), primary_key=True),
        sa.Column("system", sa.String(2), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("change", sa.Float, nullable=False),
        sa.ForeignKeyConstraint(list(KEY), [f"ratings.{n}" for n in KEY], ondelete="CASCADE"),
    )
    bind = op.get_bind()
    ratings = _ratings("state_after")
    for rows in _batches(bind, ratings, ratings.c.state_after):
        values, changes = [], []
        for row in rows:
            state = _read(row)
            values.append({"k_" + n: row[n] for n in KEY} | {
                "v_" + name: state.get(field) for name, field in FIELDS} | {
                "v_olm": bool(state.get("olm", False)),
                "v_games_known": bool(state.get("games_known", True)),
                "v_match_changes": len(state.get("match_changes") or ())})
            changes += [{n: row[n] for n in KEY} | {
                "position": i, "date": date.fromisoformat(c["date"]), "change": c["change"]}
                for i, c in enumerate(state.get("match_changes") or (), 1)]
        bind.execute(sa.update(ratings).where(*(
            ratings.c[n] == sa.bindparam("k_" + n) for n in KEY)).values(
            {name: sa.bindparam("v_" + name) for name in SET}), values)
        if changes:
            bind.execute(sa.insert(_changes), changes)
    op.drop_column("ratings", "state_after")


def _batches(bind: sa.Connection, ratings: sa.TableClause, *columns: sa.ColumnClause[Any]
             ) -> Iterator[Sequence[Any]]:
    """The rows of ``ratings`` in order of their key, ``BATCH`` at a time, with the key,
    ``post``, ``games_after``, ``end_date`` and ``columns``."""
    key = [ratings.c[n] for n in KEY]
    query = sa.select(*key, ratings.c.post, ratings.c.games_after, ratings.c.end_date,
                      *columns).order_by(*key)
    after: tuple[Any, ...] | None = None
    while True:
        page = query if after is None else query.where(sa.tuple_(*key) > sa.tuple_(*after))
        rows = bind.execute(page.limit(BATCH)).mappings().all()
        if not rows:
            return
        yield rows
        after = tuple(rows[-1][n] for n in KEY)


def _read(row: Any) -> dict[str, Any]:
    """The state of a row's text, checked: its rating, N and date are the row's."""
    where = (f"ratings row (event {row['event_id']}, section {row['section']}, member "
             f"{row['member_id']}, system {row['system']})")
    if row["state_after"] is None:  # never written by the office: the row's own values
        return {}
    try:
        state = json.loads(row["state_after"])
    except ValueError as error:
        raise RuntimeError(f"{where}: its state_after cannot be read: {error}") from None
    if not isinstance(state, dict) or not KNOWN.issuperset(state):
        raise RuntimeError(f"{where}: its state_after is not a state of the office: "
                           f"{row['state_after']!r}")
    day = state.get("date")
    if (state.get("rating") != row["post"] or state.get("games") != row["games_after"]
            or (day is None or date.fromisoformat(day) != row["end_date"])):
        raise RuntimeError(
            f"{where}: its state_after {row['state_after']!r} does not hold the row's "
            f"post-event rating {row['post']!r}, N {row['games_after']!r} and end date "
            f"{row['end_date']}: nothing was changed")
    return state


def downgrade() -> None:
    op.add_column("ratings", sa.Column("state_after", sa.Text))
    bind = op.get_bind()
    ratings = _ratings("state_after")
    for rows in _batches(bind, ratings, *(ratings.c[name] for name in SET)):
        texts = [{"k_" + n: row[n] for n in KEY} | {"text": json.dumps(_state(bind, row))}
                 for row in rows]
        bind.execute(sa.update(ratings).where(*(
            ratings.c[n] == sa.bindparam("k_" + n) for n in KEY)).values(
            state_after=sa.bindparam("text")), texts)
    op.drop_table("rating_match_changes")
    for name in reversed(SET):
        op.drop_column("ratings", name)


def _state(bind: sa.Connection, row: Any) -> dict[str, Any]:
    """A row's state as the office wrote its text (formats/result_json.rating_state)."""
    out: dict[str, Any] = {"rating": row["post"], "games": row["games_after"],
                           "date": row["end_date"].isoformat()}
    for name, field in FIELDS:
        if row[name] is not None:
            out[field] = row[name]
    if row["olm"]:
        out["olm"] = True
    if not row["games_known"]:
        out["games_known"] = False
    if row["match_changes"]:
        found = bind.execute(
            sa.select(_changes.c.date, _changes.c.change)
            .where(*(_changes.c[n] == row[n] for n in KEY)).order_by(_changes.c.position))
        out["match_changes"] = [{"date": day.isoformat(), "change": change}
                                for day, change in found]
    return out
