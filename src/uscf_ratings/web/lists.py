"""The rating lists the pages show, made once per state of the database and kept.

A rating list as of a date is every member's rating after their last event up to that
date (`office.queries.rating_list`): at 100,000 members that reads every rating in the
database, far too slow to repeat for each page of 50 rows. So the app keeps the last few
lists it made, each under the id of the last audit row when it was made: every write of
the office adds an audit row (office/store.audit), so a list is made again after any
change, and never shown stale. The same mark tells the office's own rating loop that the
database is as it left it (office/run.RatingRun.resume).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from datetime import date

from sqlalchemy import Connection

from ..core.model import System
from ..office import queries
from ..office.run import last_audit_id
from .privacy import whole

KEEP = 4  #: lists kept (a list of 100,000 members takes about 15 MB)


@dataclass(frozen=True)
class Ranked:
    """A line of the list: the member's place in the whole list, and the entry."""

    rank: int
    entry: queries.ListEntry


@dataclass(frozen=True)
class ListPage:
    rows: list[Ranked]
    total: int  #: entries matching the search (the whole list without one)
    size: int  #: members on the whole list


class RatingLists:
    """The public rating lists (ratings to whole points, see `privacy`), kept by date,
    system and database state."""

    def __init__(self, keep: int = KEEP):
        self._keep = keep
        self._kept: OrderedDict[tuple[System, date, int], list[Ranked]] = OrderedDict()
        self._lock = threading.Lock()  # one list made at a time: the others wait for it

    def ranked(self, c: Connection, as_of: date, system: System) -> list[Ranked]:
        key = (system, as_of, last_audit_id(c))
        with self._lock:
            found = self._kept.get(key)
            if found is None:
                entries = queries.rating_list(c, as_of, system)
                found = [Ranked(n, replace(e, rating=whole(e.rating)))
                         for n, e in enumerate(entries, start=1)]
                self._kept[key] = found
                while len(self._kept) > self._keep:
                    self._kept.popitem(last=False)
            self._kept.move_to_end(key)
            return found

    def page(self, c: Connection, as_of: date, system: System, query: str, size: int,
             offset: int) -> ListPage:
        """Rows ``offset`` to ``offset + size`` of the members whose id starts with
        ``query`` or whose name contains it (case ignored), each with its place in
        the whole list."""
        everyone = self.ranked(c, as_of, system)
        text = query.strip().lower()
        matching = everyone if not text else [
            r for r in everyone
            if r.entry.id.startswith(text) or text in r.entry.name.lower()]
        return ListPage(matching[offset:offset + size], len(matching), len(everyone))
