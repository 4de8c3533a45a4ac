"""Warnings both `uscf rate` and `uscf db rate` give about what a file did not hold."""

from __future__ import annotations

import click
from sqlalchemy import select

from ..core.model import Event
from ..office import schema
from ..office.office import Office


def warn_assumed_games(name: str, event: Event, known: Office | None = None) -> None:
    """Name the players whose N the file did not give (rating reports and TRF carry none).
    With an office, members it already knows are left out: their N comes from it."""
    if all(r.games_known for s in event.sections for p in s.players for r in p.ratings.values()):
        return
    members: set[str] = set()
    if known is not None:
        ids = [p.id for s in event.sections for p in s.players if p.id]
        with known.engine.connect() as connection:
            members = set(connection.execute(select(schema.members.c.id).where(
                schema.members.c.id.in_(ids))).scalars())
    for section in event.sections:
        lacking = sorted({p.pair for p in section.players if p.id not in members
                          for r in p.ratings.values() if not r.games_known})
        if lacking:
            shown = ", ".join(map(str, lacking[:20])) + (" ..." if len(lacking) > 20 else "")
            where = "the database does not know them either" if known else \
                "use --db to take N and history from a ratings database"
            click.echo(f"{name}: section {section.number}: N (games) is not in the file for "
                       f"{len(lacking)} player(s) (pairs {shown}); assumed established "
                       f"(N = 26); {where}.", err=True)
