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
from dataclasses import dataclass
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
    """The last ``keep`` values made, each under its key and the database's state.
    ``freeze``: the values are many objects (lists, dicts), which the garbage collector
    is then told to leave alone; a text is not one it walks."""

    def __init__(self, keep: int, freeze: bool = True):
        self._keep, self._freeze = keep, freeze
        self._kept: OrderedDict[tuple[Hashable, int], V] = OrderedDict()
        self._lock = threading.Lock()  # one value made at a time: the others wait for it

    def get(self, c: Connection, key: Hashable, make: Callable[[], V]) -> V:
        mark = (key, last_audit_id(c))
        with self._lock:
            if mark in self._kept:
                found = self._kept[mark]
            else:
                found = self._kept[mark] = make()
                while len(self._kept) > self._keep:
                    self._kept.popitem(last=False)
                if self._freeze:
                    # what is kept lives long: keep the collector from walking it again
                    # and again (a list of 100,000 members is a million objects)
                    gc.collect()
                    gc.freeze()
            self._kept.move_to_end(mark)
            return found


@dataclass(frozen=True)
class Ranked:
    """A line of the list: the member's place in the whole list, and the entry."""

    rank: int
    entry: queries.ListEntry
    state: str = ""  #: the member's state, as the members table has it ("" if none)


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


T = TypeVar("T")


class Searchable(Generic[T]):
    """Rows to search by id and name, with the ids and the names each joined in one
    text: a search is then a few scans of a text in C (``str.find``), not a loop over
    100,000 rows in Python. The members page and the rating list search alike."""

    def __init__(self, rows: list[T], ids: list[str], names: list[str]):
        self.rows = rows
        # ids are folded as the query is: an id may hold letters ("A/1/3", "Łódź-2")
        folded = [name.lower() for name in names]
        folded_ids = [i.lower() for i in ids]
        self._names = "".join(name + "\n" for name in folded)
        self._ids = "\n" + "".join(i + "\n" for i in folded_ids)
        self._name_starts = list(accumulate((len(name) + 1 for name in folded), initial=0))
        self._id_starts = list(accumulate((len(i) + 1 for i in folded_ids), initial=1))

    def search(self, query: str) -> list[T]:
        """The rows whose id starts with ``query`` or whose name contains it (case
        ignored), in their order."""
        text = query.strip().lower()
        if not text:
            return self.rows
        if "\n" in text:  # the separator: in no name and no id
            return []
        found = {bisect_right(self._name_starts, at) - 1 for at in _every(self._names, text)}
        # an id starts with it: right after a line break
        found.update(bisect_right(self._id_starts, at + 1) - 1
                     for at in _every(self._ids, "\n" + text))
        return [self.rows[i] for i in sorted(found)]


def _every(haystack: str, needle: str) -> list[int]:
    """Where ``needle`` starts in ``haystack``, every time."""
    found = []
    at = haystack.find(needle)
    while at >= 0:
        found.append(at)
        at = haystack.find(needle, at + 1)
    return found


class OfficeReads:
    """The app's kept reads: rating lists (KEEP_LISTS), members, events and their pages
    (KEEP_EVENTS)."""

    KEEP_LISTS = 4  #: a list of 100,000 members takes about 15 MB
    KEEP_EVENTS = 64

    def __init__(self) -> None:
        self._lists: Kept[Searchable[Ranked]] = Kept(self.KEEP_LISTS)
        # a state's list holds the whole list's rows, frozen with it: nothing to collect
        # (and a full collection for each state a visitor picks would cost every request)
        self._state_lists: Kept[Searchable[Ranked]] = Kept(self.KEEP_LISTS * 2, freeze=False)
        self._states: Kept[list[tuple[str, int]]] = Kept(1)
        self._members: Kept[Searchable[Member]] = Kept(1)
        self._events: Kept[dict[str, Any] | None] = Kept(self.KEEP_EVENTS)
        self._event_pages: Kept[str | None] = Kept(self.KEEP_EVENTS, freeze=False)

    def ranked(self, c: Connection, as_of: date, system: System, state: str = ""
               ) -> Searchable[Ranked]:
        """The public rating list (ratings to whole points, see `privacy`); with
        ``state``, its members of that state, each keeping the place in the whole list."""
        if state:
            def subset() -> Searchable[Ranked]:
                rows = [r for r in self.ranked(c, as_of, system).rows if r.state == state]
                return Searchable(rows, [r.entry.id for r in rows], [r.entry.name for r in rows])
            return self._state_lists.get(c, (system, as_of, state), subset)

        def make() -> Searchable[Ranked]:
            entries = queries.rating_list(c, as_of, system)
            states = {r.id: r.state for r in c.execute(
                select(t.members.c.id, t.members.c.state).where(t.members.c.state.is_not(None)))}
            ranked = [Ranked(n, queries.ListEntry(e.id, e.name, whole(e.rating), e.games,
                                                  e.as_of), (states.get(e.id) or "").upper())
                      for n, e in enumerate(entries, start=1)]
            return Searchable(ranked, [e.id for e in entries], [e.name for e in entries])
        return self._lists.get(c, (system, as_of), make)

    def page(self, c: Connection, as_of: date, system: System, query: str, size: int,
             offset: int, state: str = "") -> ListPage:
        """Rows ``offset`` to ``offset + size`` of the members (of ``state``, if given)
        whose id starts with ``query`` or whose name contains it (case ignored), each
        with its place in the whole list."""
        everyone = self.ranked(c, as_of, system, state)
        matching = everyone.search(query)
        return ListPage(matching[offset:offset + size], len(matching), len(everyone.rows))

    def states(self, c: Connection) -> list[tuple[str, int]]:
        """The members' states and how many members each (`queries.member_states`),
        for the list's choice of a state: a count over every member, kept."""
        return self._states.get(c, "states", lambda: queries.member_states(c))

    def members(self, c: Connection, query: str) -> list[Member]:
        """Members whose id starts with ``query`` or whose name contains it (case
        ignored), by name; merged ids are left out: they are their target."""
        def make() -> Searchable[Member]:
            rows = c.execute(select(t.members.c.id, t.members.c.name, t.members.c.state)
                             .where(t.members.c.merged_into.is_(None))
                             .order_by(t.members.c.name, t.members.c.id))
            members = [Member(r.id, r.name or "", r.state or "") for r in rows]
            return Searchable(members, [m.id for m in members], [m.name for m in members])
        return self._members.get(c, "members", make).search(query)

    def event(self, c: Connection, event_id: str,
              make: Callable[[], dict[str, Any] | None]) -> dict[str, Any] | None:
        """An event as ``make`` reads it, kept: its page rates it again to explain it."""
        return self._events.get(c, event_id, make)

    def event_page(self, c: Connection, key: Hashable,
                   render: Callable[[], str | None]) -> str | None:
        """An event's page as ``render`` makes it (None: no such event), kept under
        ``key``: a large section's page takes longer to render than to send."""
        return self._event_pages.get(c, key, render)
