"""Seeding a pool from what US Chess published of its members (``uscf db import-history``).

A member's published history (formats/member_history.py) gives, per rating system, the
rating after each section with its date. The pool's own events start from it: until the
pool has rated a member in a system, the member's rating in that system before a section
is the one US Chess published after the member's last section before it, in rating
order (end date, start date, event id, section); a section of the history that is in the
pool itself is cut at its published place. Once the pool has rated the member in the
system, its own ratings follow on. The choice is made when each section is rated
(`MemberHistory.rating_before`, from `store.latest_states` and the rating loop), not
when the history is imported: a pool event added later, dated before the others, starts
from the rating published before it. A published rating comes before a member list's
baseline (it is dated) and after the pool's own ratings.

What the records do not give is assumed, and said (`import_notes`): an established
rating's N is not published (taken as `UNPUBLISHED_N`, marked unknown, as `uscf verify`
takes it); the peak (for the floor, 2025 text, section 5) is the highest established
rating the history shows before the section, which is the true peak only if the history
goes back far enough; the wins, draws and losses before are not known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select

from ..formats.member_history import MemberHistory
from ..formats.ratings_api import UNPUBLISHED_N
from . import schema as t


@dataclass(frozen=True)
class TitlesImported:
    """What `Office.import_titles` did: members read, each stored value replaced, and
    what was left out."""

    members: int
    changes: tuple[str, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class HistoryImported:
    """What `Office.import_history` did, and what it assumed, in words."""

    members: int
    sections: int  #: published rows stored (a section in two systems is two)
    rerated: int  #: sections of the pool rated again
    notes: tuple[str, ...]


def import_notes(history: MemberHistory) -> list[str]:
    """What rating the pool from ``history`` assumes, in words."""
    notes = []
    for system in history.systems:
        established = [e for e in history.entries if e.system is system
                       and e.post_games is None]
        if established:
            notes.append(f"{history.member} {system.value}: N of an established rating is "
                         f"not published ({len(established)} of the history's sections, "
                         f"the last {established[-1].post:.2f}): taken as {UNPUBLISHED_N}, "
                         "so that N' = N* (exact for ratings under about 1930)")
    return notes


def replace_history(c: Connection, member: str, history: MemberHistory, source: str) -> int:
    """Store ``history`` as ``member``'s published history, replacing the one imported
    before (a newer publication supersedes it: US Chess re-rates); the rows stored."""
    c.execute(delete(t.published_history).where(t.published_history.c.member_id == member))
    rows = [{"member_id": member, "system": e.system.value, "event_id": e.event_id,
             "section": e.section, "event_name": e.event_name,
             "section_name": e.section_name, "start_date": e.start, "end_date": e.end,
             "pre": e.pre, "post": e.post, "post_games": e.post_games, "source": source}
            for e in history.entries]
    if rows:
        c.execute(insert(t.published_history), rows)
    return len(rows)


def published(c: Connection, member: str) -> list[dict[str, Any]]:
    """``member``'s imported published history, in rating order (`uscf db player`)."""
    h = t.published_history.c
    return [{"event_id": r.event_id, "event": r.event_name, "section": r.section,
             "section_name": r.section_name, "start_date": r.start_date.isoformat(),
             "end_date": r.end_date.isoformat(), "system": r.system, "pre": r.pre,
             "post": r.post, "post_provisional_games": r.post_games, "source": r.source}
            for r in c.execute(select(t.published_history).where(h.member_id == member)
                               .order_by(h.end_date, h.start_date, h.event_id, h.section,
                                         h.system))]
