"""A member's rated sections as US Chess publishes them: the starting point of a pool.

The ratings API (shared/spec/uschess-ratings-api-openapi.json) gives, at
``/api/v1/members/{id}/sections``, pages of ``MemberRatedSectionDto``: each section the
member was rated in (event id and name, section number and name, dates) with one
``MinimalRatingRecordDto`` per rating system the section was rated in: the pre-event
rating (none when unrated before), the post-event rating, both with two decimals, and the
provisional game count after the section while the rating is provisional
(``postProvisionalGameCount``; none once established). Two shapes are read:

* **what ``uscf fetch --member ID`` saves**: ``{"format": "uscf-ratings-api", "source":
  URL, "member": ID, "member_sections": [page, ...]}``;
* **a page as the API returns it** (``{"items": [...], "hasNextPage": ...}``), or a list
  of pages: a page does not name its member, so the id is given (``--member``).

Records whose ``ratingSource`` is not a US Chess rating system (``U``, ``DNR``, ``C``,
``F``, ``CFC``) are left out, and the reading says how many. Each system's sections form
a chain, each pre-event rating the post-event rating before it; where the chain breaks
(a section missing from the pages, or a re-rate published since), the reading says where:
nothing is changed to make it hold. The records are otherwise taken as published.

Errors name the file and the record (``member_sections[0].items[3].ratingRecords[0]``),
and every one is reported.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ..core.model import Rating, System
from .bounds import read_input
from .common import kind_of, load_json, utf8_text
from .errors import Issue, Issues, ParseError
from .ratings_api import BUNDLE_MARK, UNPUBLISHED_N, is_history_page, number_of, read_day

#: ``ratingSource`` values that are not a US Chess rating system (OpenAPI RatingSource)
NOT_RATINGS = frozenset({"U", "DNR", "C", "F", "CFC"})


@dataclass(frozen=True)
class HistoryEntry:
    """One rated section of a member in one system, as published."""

    event_id: str
    event_name: str
    section: int
    section_name: str
    start: date
    end: date
    system: System
    pre: float | None  #: None: unrated before the section
    post: float
    post_games: int | None  #: provisional game count after; None: established

    @property
    def key(self) -> tuple[date, date, str, int]:
        """The rating order (the office's: end date, start date, event id, section)."""
        return self.end, self.start, self.event_id, self.section


@dataclass(frozen=True)
class MemberHistory:
    """A member's published sections, in rating order, and what the reading noticed
    (records left out, breaks in a chain), in words."""

    member: str
    entries: tuple[HistoryEntry, ...]
    notes: tuple[str, ...] = ()

    @property
    def systems(self) -> tuple[System, ...]:
        """The systems the history has ratings in."""
        return tuple(dict.fromkeys(e.system for e in self.entries))

    def latest(self, system: System, before: tuple[date, date, str, int] | None = None
               ) -> HistoryEntry | None:
        """The last entry of ``system`` in rating order (before the key ``before``). A
        section that is in the history itself (its event id and number) is cut at its
        published place: a file may date it otherwise (a standings page read with
        ``--date`` has one date for both ends)."""
        cut = before
        if before is not None:
            same = [e.key for e in self.entries if (e.event_id, e.section) == before[2:]]
            cut = min([before, *same])
        found = [e for e in self.entries if e.system is system
                 and (cut is None or e.key < cut)]
        return found[-1] if found else None

    def rating_before(self, system: System, before: tuple[date, date, str, int] | None
                      ) -> Rating | None:
        """The member's rating in ``system`` after the last section published before the
        section key ``before`` (after the last of all where None), as a pre-event
        rating: N is the provisional count, else `UNPUBLISHED_N` with ``games_known``
        False (not published); the peak, the highest established rating shown up to
        then. None where no section comes before."""
        entry = self.latest(system, before)
        if entry is None:
            return None
        established = [e.post for e in self.entries if e.system is system
                       and e.key <= entry.key and e.post_games is None]
        return Rating(entry.post, entry.post_games or UNPUBLISHED_N, date=entry.end,
                      peak=max(established, default=None),
                      games_known=entry.post_games is not None)


def claims(data: Any) -> bool:
    """Whether parsed JSON is a member's history (a fetched one, or API pages)."""
    if isinstance(data, dict) and "member_sections" in data:
        return True
    pages = data if isinstance(data, list) else [data]
    return bool(pages) and all(is_history_page(p) for p in pages)


def read_history(path: Path | str, member: str | None = None,
                 data: bytes | None = None) -> MemberHistory:
    """Read a member's published sections as the module's docstring says; a
    `ParseError` naming every problem otherwise. ``member`` is the member's id: needed
    for API pages, and checked against a fetched file's."""
    path = Path(path)
    source = str(path)
    text = utf8_text(read_input(path) if data is None else data, source)
    reader = _Reader()
    found = reader.history(load_json(text, source), member)
    if reader.issues or found is None:
        raise ParseError(source, reader.issues or [Issue("", "no rated section read")])
    return found


class _Reader(Issues):
    def history(self, data: Any, member: str | None) -> MemberHistory | None:
        if isinstance(data, dict) and "member_sections" in data:
            if data.get("format") != BUNDLE_MARK:
                self.problem("format", f"expected {BUNDLE_MARK!r} (a file of `uscf fetch "
                             f"--member`), found {data.get('format')!r}")
            named = str(data.get("member") or "")
            if not named:
                self.problem("member", "expected the member's id")
            elif member is not None and member != named:
                self.problem("member", f"the file is member {named}'s history, not "
                             f"{member}'s")
            pages, prefix, member = data.get("member_sections"), "member_sections", named
        elif claims(data):
            pages, prefix = data if isinstance(data, list) else [data], ""
            if member is None:
                self.problem("", "a page of a member's sections does not name the member: "
                             "give the id with --member ID")
        else:
            self.problem("", "expected a member's rated sections: a file of `uscf fetch "
                         "--member ID`, or a page of the ratings API's /members/{id}/sections "
                         "({\"items\": [...]} of sections with \"ratingRecords\")")
            return None
        if not isinstance(pages, list) or not pages:
            self.problem(prefix, f"expected a list of pages, found {kind_of(pages)}")
            return None
        entries, notes = self.pages(pages, prefix)
        if self.issues or member is None:
            return None
        if not entries:
            self.problem(prefix, "no rated section in a US Chess rating system")
            return None
        entries.sort(key=lambda e: e.key)
        return MemberHistory(member, tuple(entries), tuple(notes + _breaks(entries)))

    def pages(self, pages: list[Any], prefix: str) -> tuple[list[HistoryEntry], list[str]]:
        entries: dict[tuple[str, int, System], tuple[HistoryEntry, str]] = {}
        left_out: dict[str, int] = {}
        for at, page in enumerate(pages):
            where_page = f"{prefix}[{at}]" if prefix else (f"[{at}]" if len(pages) > 1 else "")
            if not is_history_page(page) and not (isinstance(page, dict)
                                                   and page.get("items") == []):
                self.problem(where_page, "expected a page of a member's sections "
                             "({\"items\": [...]} of sections with \"ratingRecords\")")
                continue
            if at == len(pages) - 1 and page.get("hasNextPage") is True:
                self.problem(f"{where_page}.hasNextPage".lstrip("."), "the last page says "
                             "more follow: the history is incomplete (fetch it again)")
            for i, item in enumerate(page["items"]):
                where = f"{where_page}.items[{i}]".lstrip(".")
                for entry, at_record in self.item(item, where, left_out):
                    seen = entries.get((entry.event_id, entry.section, entry.system))
                    if seen is not None and seen[0] != entry:
                        self.problem(at_record, f"event {entry.event_id} section "
                                     f"{entry.section} in {entry.system.value} is also at "
                                     f"{seen[1]}, with other ratings")
                    entries.setdefault((entry.event_id, entry.section, entry.system),
                                       (entry, at_record))
        notes = [f"{count} record(s) of source {source} left out: not a US Chess rating "
                 "system" for source, count in sorted(left_out.items())]
        return [entry for entry, _ in entries.values()], notes

    def item(self, item: dict[str, Any], where: str, left_out: dict[str, int]
             ) -> list[tuple[HistoryEntry, str]]:
        event = item.get("event")
        if not isinstance(event, dict) or not event.get("id"):
            self.problem(f"{where}.event", "expected the event's record with its id")
            return []
        number = item.get("sectionNumber")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            self.problem(f"{where}.sectionNumber", f"expected a section number, found "
                         f"{number!r}")
            return []
        end = self.day(item, "endDate", where) or self.day(event, "endDate", f"{where}.event")
        start = self.day(item, "startDate", where) or end
        if end is None or start is None:
            return []
        found = []
        for at, record in enumerate(item["ratingRecords"] if isinstance(
                item.get("ratingRecords"), list) else []):
            at_record = f"{where}.ratingRecords[{at}]"
            entry = self.record(record, at_record, left_out, event, item, number, start, end)
            if entry is not None:
                found.append((entry, at_record))
        return found

    def record(self, record: Any, where: str, left_out: dict[str, int],
               event: dict[str, Any], item: dict[str, Any], number: int, start: date,
               end: date) -> HistoryEntry | None:
        if not isinstance(record, dict):
            self.problem(where, f"expected a rating record (an object), found "
                         f"{kind_of(record)}")
            return None
        source = str(record.get("ratingSource"))
        if source in NOT_RATINGS:
            left_out[source] = left_out.get(source, 0) + 1
            return None
        try:
            system = System(source)
        except ValueError:
            self.problem(f"{where}.ratingSource", f"expected a rating system, found "
                         f"{record.get('ratingSource')!r}")
            return None
        pre = number_of(record.get("preRatingDecimal"), record.get("preRating"))
        post = number_of(record.get("postRatingDecimal"), record.get("postRating"))
        games = record.get("postProvisionalGameCount")
        if post is None:
            self.problem(f"{where}.postRatingDecimal", "expected the post-event rating")
            return None
        if games is not None and (not isinstance(games, int) or isinstance(games, bool)
                                  or games < 1):
            self.problem(f"{where}.postProvisionalGameCount", f"expected a game count "
                         f"(or none), found {games!r}")
            return None
        return HistoryEntry(str(event["id"]), str(event.get("name") or ""), number,
                            str(item.get("sectionName") or ""), start, end, system, pre,
                            post, games)

    def day(self, record: dict[str, Any], key: str, where: str) -> date | None:
        value = record.get(key)
        return None if value is None else read_day(value, f"{where}.{key}", self.issues)


def _breaks(entries: list[HistoryEntry]) -> list[str]:
    """Where a system's chain breaks: a pre-event rating that is not the post-event
    rating of the section before it (to the published 0.01)."""
    notes: list[str] = []
    last: dict[System, HistoryEntry] = {}
    for entry in entries:
        before = last.get(entry.system)
        if before is not None and (entry.pre is None or abs(entry.pre - before.post) > 0.005):
            notes.append(f"{entry.system.value}: event {entry.event_id} section "
                         f"{entry.section} starts from {_shown(entry.pre)}, not from "
                         f"{before.post:.2f}, the rating after event {before.event_id} "
                         f"section {before.section}: a section is missing from the "
                         "history, or one was re-rated since")
        last[entry.system] = entry
    return notes


def _shown(rating: float | None) -> str:
    return "unrated" if rating is None else f"{rating:.2f}"
