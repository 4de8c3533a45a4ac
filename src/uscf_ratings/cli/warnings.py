"""Warnings both `uscf rate` and `uscf db rate` give about what a file did not hold."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..core.model import Event

if TYPE_CHECKING:  # the office (SQLAlchemy) is imported only when a database is given
    from ..office.office import Office

#: per section: its number and the (pair, member id) of players whose N is not given
Lacking = tuple[tuple[int, tuple[tuple[int, str], ...]], ...]


def lacking_games(event: Event) -> Lacking:
    """The players whose N the file did not give (rating reports and TRF carry none)."""
    out = []
    for section in event.sections:
        players = tuple(sorted({(p.pair, p.id) for p in section.players
                                for r in p.ratings.values() if not r.games_known}))
        if players:
            out.append((section.number, players))
    return tuple(out)


def warn_assumed_games(name: str, event: Event, known: Office | None = None) -> None:
    """Name the players whose N the file did not give. With an office, members it
    already knows are left out: their N comes from it."""
    warn_lacking(name, lacking_games(event), known)


def warn_lacking(name: str, lacking: Lacking, known: Office | None = None) -> None:
    if not lacking:
        return
    members: set[str] = set()
    if known is not None:
        from sqlalchemy import select

        from ..office import schema

        ids = [i for _, players in lacking for _, i in players if i]
        with known.engine.connect() as connection:
            members = set(connection.execute(select(schema.members.c.id).where(
                schema.members.c.id.in_(ids))).scalars())
    for number, players in lacking:
        pairs = sorted({pair for pair, i in players if i not in members})
        if pairs:
            shown = ", ".join(map(str, pairs[:20])) + (" ..." if len(pairs) > 20 else "")
            where = "the database does not know them either" if known else \
                "use --db to take N and history from a ratings database"
            click.echo(f"{name}: section {number}: N (games) is not in the file for "
                       f"{len(pairs)} player(s) (pairs {shown}); assumed established "
                       f"(N = 26); {where}.", err=True)
