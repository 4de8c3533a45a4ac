"""A section laid out once, where it is read, for the office to rate later.

`uscf db rate` reads and checks its files in worker processes. What the rating loop
needs of a section is its columns (batch/layout.py) and who its players are, so the
workers lay it out there and send that, which is cheap to send; the office then puts the
database's states into the columns (office/run.py) instead of building the section's
model again. The columns hold the file's ratings; a player the file does not rate in a
system has Step 1's R0 and N from the file's own facts, and the office rates it again
where the database knows more about the member.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.model import Player, Section
from .engine import COMPILED_TYPES
from .layout import Columns, Layout


@dataclass(frozen=True)
class LaidSection:
    """A section's columns with the file's ratings, and its entrants: rows are
    (system, entrant), each system's rows in the order of ``ids``."""

    columns: Columns
    ids: tuple[str, ...]  #: each entrant's member id ("" for none)
    names: tuple[str, ...]  #: each entrant's name
    #: the entrants the file leaves unrated in one of the section's systems, by place
    unrated: dict[int, Player]

    @property
    def entrants(self) -> int:
        return len(self.ids)


def lay_out_section(section: Section) -> LaidSection | None:
    """The section laid out, or None where the office rates the model instead: a
    section type the columns do not cover, or a member entered twice."""
    if section.type not in COMPILED_TYPES:
        return None
    ids = [p.id for p in section.players if p.id]
    if len(set(ids)) < len(ids):
        return None
    layout = Layout()
    players = layout.add(0, section)
    columns = layout.columns()
    count = len(players)
    unrated = {i % count: players[i % count] for i in (~columns.rated).nonzero()[0].tolist()}
    return LaidSection(columns, tuple(p.id for p in players), tuple(p.name for p in players),
                       unrated)

