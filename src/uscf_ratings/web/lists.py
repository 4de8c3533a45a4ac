"""What the pages read often and the database changes seldom, made once per state of
the database and kept: rating lists, the members to search, stored events.

A rating list as of a date is every member's rating after their last event up to that
date (`office.queries.rating_list`): at 100,000 members that reads every rating in the
database, far too slow to repeat for each page of 50 rows; a member search by a part of
a name reads every name; an event page rates the event again for its explanations. So
the app keeps the last few of each it made, under the id of the last audit row when it
was made: every write of the office adds an audit row (office/store.audit), so anything
kept is made again after any change, and never shown stale. The same mark tells the
office's own rating loop that the database is as it left it (office/run.RatingRun.resume).
"""

from __future__ import annotations

import gc
import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from datetime import date
from itertools import accumulate
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection, select

from ..core.model import System
from ..office import queries
from ..office import schema as t
from ..office.run import last_audit_id
from .privacy import whole

V = TypeVar("V")


class Kept(Generic[V]):
    """The last ``keep`` values made, each under its key and the database's state."""

    def __init__(self, keep: int):
        self._keep = keep
        self._kept: OrderedDict[tuple[Hashable, int], V] = OrderedDict()
        self._lock = threading.Lock()  # one value made at a time: the others wait for it

    def get(self, c: Connection, key: Hashable, make: Callable[[], V]) -> V:
        mark = (key, last_audit_id(c))
        with self._lock:
            found = self._kept.get(mark)
            if found is None:
                found = self._kept[mark] = make()
                while len(self._kept) > self._keep:
                    self._kept.popitem(last=False)
                # what is kept lives long: keep the collector from walking it again and
                # again (a list of 100,000 members is a million objects)
                gc.collect()
                gc.freeze()
            self._kept.move_to_end(mark)
            return found


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


@dataclass(frozen=True)
class Member:
    id: str
    name: str
    state: str
    folded: str  #: the name in lower case, searched


class MemberIndex:
    """The members to search, with their names and ids each joined in one text: a
    search is then a few scans of a text in C (``str.find``), not a loop over 100,000
    members in Python."""

    def __init__(self, members: list[Member]):
        self.members = members
        self._names = "".join(m.folded + "\n" for m in members)
        self._ids = "\n" + "".join(m.id + "\n" for m in members)
        self._name_starts = list(accumulate((len(m.folded) + 1 for m in members), initial=0))
        self._id_starts = list(accumulate((len(m.id) + 1 for m in members), initial=1))

    def search(self, query: str) -> list[Member]:
        text = query.strip().lower()
        if not text:
            return self.members
        if "\n" in text:  # the separator: in no name and no id
            return []
        found = {bisect_right(self._name_starts, at) - 1 for at in _every(self._names, text)}
        # an id starts with it: right after a line break
        found.update(bisect_right(self._id_starts, at + 1) - 1
                     for at in _every(self._ids, "\n" + text))
        return [self.members[i] for i in sorted(found)]


def _every(haystack: str, needle: str) -> list[int]:
    """Where ``needle`` starts in ``haystack``, every time."""
    found = []
    at = haystack.find(needle)
    while at >= 0:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


def matches(text: str, member_id: str, folded_name: str) -> bool:
    """A search: the id starts with ``text`` or the name contains it, case ignored
    (``text`` already lowered)."""
    return member_id.startswith(text) or text in folded_name


class OfficeReads:
    """The app's kept reads: rating lists (KEEP_LISTS), members, events (KEEP_EVENTS)."""

    KEEP_LISTS = 4  #: a list of 100,000 members takes about 15 MB
    KEEP_EVENTS = 64

    def __init__(self) -> None:
        self._lists: Kept[list[Ranked]] = Kept(self.KEEP_LISTS)
        self._members: Kept[MemberIndex] = Kept(1)
        self._events: Kept[dict[str, Any] | None] = Kept(self.KEEP_EVENTS)

    def ranked(self, c: Connection, as_of: date, system: System) -> list[Ranked]:
        """The public rating list (ratings to whole points, see `privacy`)."""
        def make() -> list[Ranked]:
            entries = queries.rating_list(c, as_of, system)
            return [Ranked(n, replace(e, rating=whole(e.rating)))
                    for n, e in enumerate(entries, start=1)]
        return self._lists.get(c, (system, as_of), make)

    def page(self, c: Connection, as_of: date, system: System, query: str, size: int,
             offset: int) -> ListPage:
        """Rows ``offset`` to ``offset + size`` of the members whose id starts with
        ``query`` or whose name contains it (case ignored), each with its place in
        the whole list."""
        everyone = self.ranked(c, as_of, system)
        text = query.strip().lower()
        matching = everyone if not text else [
            r for r in everyone if matches(text, r.entry.id, r.entry.name.lower())]
        return ListPage(matching[offset:offset + size], len(matching), len(everyone))

    def members(self, c: Connection, query: str) -> list[Member]:
        """Members whose id starts with ``query`` or whose name contains it (case
        ignored), by name; merged ids are left out: they are their target."""
        def make() -> MemberIndex:
            rows = c.execute(select(t.members.c.id, t.members.c.name, t.members.c.state)
                             .where(t.members.c.merged_into.is_(None))
                             .order_by(t.members.c.name, t.members.c.id))
            return MemberIndex([Member(r.id, r.name or "", r.state or "",
                                       (r.name or "").lower()) for r in rows])
        return self._members.get(c, "members", make).search(query)

    def event(self, c: Connection, event_id: str,
              make: Callable[[], dict[str, Any] | None]) -> dict[str, Any] | None:
        """An event as ``make`` reads it, kept: its page rates it again to explain it."""
        return self._events.get(c, event_id, make)
