"""Warnings both `uscf rate` and `uscf db rate` give about what a file did not hold."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from ..core.model import Event
from ..office.checked_file import Lacking, lacking_games

if TYPE_CHECKING:  # the office (SQLAlchemy) is imported only when a database is given
    from ..office.office import Office


def warn_assumed_games(name: str, event: Event, known: Office | None = None) -> None:
    """Name the players whose N the file did not give. With an office, members it
    already knows are left out: their N comes from it."""
    warn_lacking(name, lacking_games(event), known)


def warn_lacking(name: str, lacking: Lacking, known: Office | None = None) -> None:
    if not lacking:
        return
    members = set() if known is None else \
        known.known_members(i for _, players in lacking for _, i, _ in players if i)
    for number, players in lacking:
        pairs = sorted({pair for pair, i, _ in players if i not in members})
        if pairs:
            shown = ", ".join(map(str, pairs[:20])) + (" ..." if len(pairs) > 20 else "")
            assumed = " or ".join(str(n) for n in sorted({n for pair, _, n in players
                                                           if pair in pairs}))
            where = "the database does not know them either" if known else \
                "use --db to take N and history from a ratings database"
            click.echo(f"{name}: section {number}: N (games) is not in the file for "
                       f"{len(pairs)} player(s) (pairs {shown}); assumed established "
                       f"(N = {assumed}); {where}.", err=True)
