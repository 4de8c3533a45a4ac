"""A member's norms and awards as US Chess publishes them: what `uscf verify` compares our
norms and titles with.

The ratings API (shared/spec/uschess-ratings-api-openapi.json) gives, for a member:

* ``/api/v1/members/{id}/norms``: a ``NormDtoItemsEnvelope`` (``{"items": [...]}``, one
  page): each ``NormDto`` is a norm recorded for one section: its ``level``
  (``NormLevel``: ``FourthCategory`` ... ``SeniorLifeMaster``, read as the crosstable's
  code ``N:4`` ... ``N:S`` through core/norms.py's `NORM_LEVELS`), its ``status``
  (``NormStatus``: ``Active``, ``Deleted``, ``Preview``), the ``score`` and ``expected``
  score, the member's ``postRating`` and ``postType`` (``NormPostType``), ``games`` and
  ``playedGames``, the ``sectionNumber`` and the ``event`` (``MinimalRatedEventDto``:
  id, name, dates);
* ``/api/v1/members/{id}/awards``: pages of ``MemberAwardDto`` (``MemberAwardDtoPage``:
  ``items``, ``offset``, ``pageSize``, ``hasNextPage``): each an award's ``category``
  (``AwardCategory``: ``NormsTitle``, ``RatingsTitle``, ``WinMilestone``), ``type``
  (``AwardType``: the seven norms titles, ``NationalMaster``, ``OriginalLifeMaster``,
  ``PostalCandidateMaster``, ``PostalMaster``, ``GoldenKnight``, ``WinCount``), its
  ``date``, and where known the ``event`` and ``sectionNumber`` that earned it.

Two shapes are read, told apart by their content:

* **what ``uscf fetch --member ID --titles`` saves**: ``{"format": "uscf-ratings-api",
  "source": URL, "member": ID, "member_norms": envelope, "member_awards": [page, ...]}``,
  each response as it came;
* **one response as the API returns it**: a norms envelope, or an awards page (or a list
  of pages). A response does not name its member: the id is given (``--member``).

Every value is checked as every reader's are: the file's size, the JSON's depth and the
length of its numbers (formats/bounds.py), and each value in its domain (core/domain.py:
a section number, an event id, a rating, a count of games, a date), the message naming
the record and the field. **An enumeration's value outside the schema's list is refused**,
naming the field, the value and the values allowed: the schema's lists are closed, and a
value outside them means the API changed; a norm of a level we do not know, or a status
we cannot tell from ``Active``, is not compared on a guess. Values in the list that this
project does not compute (postal titles, Golden Knight, win milestones) are read and kept;
`uscf verify` lists them as not compared. A last awards page that says more follow
(``hasNextPage``) is refused: fetch them all with ``uscf fetch``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from ..core.domain import FIELDS, MAX_GAMES, Domain, shown
from ..core.results import NORM_LEVELS
from .bounds import read_input
from .common import kind_of, load_json, utf8_text
from .errors import Issue, Issues, ParseError
from .ratings_api import BUNDLE_MARK

#: NormLevel (the API's name) -> the crosstable's code
NORM_CODES_BY_API: dict[str, str] = {level.api: level.code for level in NORM_LEVELS}
NORM_STATUSES = ("Active", "Deleted", "Preview")
NORM_POST_TYPES = ("Provisional", "Established", "AllDraws", "AllWins")
AWARD_CATEGORIES = ("NormsTitle", "RatingsTitle", "WinMilestone")
AWARD_TYPES = ("NationalMaster", "OriginalLifeMaster", "SeniorLifeMaster", "LifeMaster",
               "CandidateMaster", "FirstCategory", "SecondCategory", "ThirdCategory",
               "FourthCategory", "PostalCandidateMaster", "PostalMaster", "GoldenKnight",
               "WinCount")
RATING_SOURCES = ("U", "R", "Q", "B", "OR", "OQ", "OB", "C", "F", "CFC", "DNR")

#: points scored or expected in one section: at most one a game
_POINTS = Domain("number", 0.0, float(MAX_GAMES), why="points of a section's games")
#: a date of a norm's event or of an award: norms are computed back to 1991 (titles.md),
#: titles are older, so a date is any day of the model (not only the rules' coverage)
_DAY = FIELDS["Rating.date"]


@dataclass(frozen=True)
class NormRecord:
    """One norm of a member as US Chess records it."""

    code: str  #: the crosstable's code, N:4 ... N:S
    status: str  #: Active, Deleted or Preview
    score: float | None
    expected: float | None
    post_rating: int | None  #: the member's post-event rating
    post_type: str | None  #: Provisional, Established, AllDraws, AllWins
    games: int | None
    played_games: int | None
    event: str  #: the event's id
    event_name: str
    section: int | None
    end: date | None  #: the event's end date, where given

    @property
    def counted(self) -> bool:
        """Whether US Chess counts it toward a title (its status is Active)."""
        return self.status == "Active"


@dataclass(frozen=True)
class AwardRecord:
    """One award of a member as US Chess records it."""

    id: str
    category: str  #: NormsTitle, RatingsTitle or WinMilestone
    type: str  #: an AwardType name: "CandidateMaster", "NationalMaster", "WinCount" ...
    date: date | None
    event: str | None
    section: int | None
    win_count: int | None = None
    rating_source: str | None = None


@dataclass(frozen=True)
class MemberTitles:
    """A member's norms and awards as published, and what the reading noticed."""

    member: str
    norms: tuple[NormRecord, ...]
    awards: tuple[AwardRecord, ...]
    notes: tuple[str, ...] = ()


def claims(data: Any) -> bool:
    """Whether parsed JSON is a member's norms or awards (fetched, or an API response)."""
    if isinstance(data, dict) and ("member_norms" in data or "member_awards" in data):
        return True
    pages = data if isinstance(data, list) else [data]
    return bool(pages) and all(_page_of(p) is not None for p in pages)


def sniff(raw: bytes) -> bool:
    """Whether a file's bytes hold a member's norms or awards (a fetched file by its first
    bytes; an API response by its records, never an event's standings)."""
    head = raw[:400]
    if b'"member_norms"' in head or b'"member_awards"' in head:
        return True
    if b'"roundOutcomes"' in raw or b'"ratingRecords"' in raw or b'"sections"' in head:
        return False
    try:
        return claims(load_json(raw.decode("utf-8-sig"), ""))
    except (ParseError, UnicodeDecodeError):
        return False


def read_member_titles(path: Path | str, member: str | None = None,
                       data: bytes | None = None) -> MemberTitles:
    """Read a member's norms and awards as the module's docstring says; a `ParseError`
    naming the file and every problem otherwise. ``member``: the member's id, needed for
    a response as the API returns it, and checked against a fetched file's."""
    path = Path(path)
    source = str(path)
    text = utf8_text(read_input(path) if data is None else data, source)
    reader = _Reader()
    found = reader.read(load_json(text, source), member)
    if reader.issues or found is None:
        raise ParseError(source, reader.issues or [Issue("", "no norm or award read")])
    return found


def _page_of(data: Any) -> str | None:
    """"norms" or "awards" for an API response of either, else None (by its rows)."""
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        return None
    rows = data["items"]
    if all(isinstance(r, dict) and "level" in r for r in rows) and (rows or "pageSize"
                                                                      not in data):
        return "norms"
    if all(isinstance(r, dict) and "category" in r for r in rows) and (rows or "pageSize"
                                                                         in data):
        return "awards"
    return None


class _Reader(Issues):
    def read(self, data: Any, member: str | None) -> MemberTitles | None:
        norm_pages: list[tuple[str, Any]] = []
        award_pages: list[tuple[str, Any]] = []
        if isinstance(data, dict) and data.get("format") == BUNDLE_MARK:
            own = data.get("member")
            if not isinstance(own, str) or not own:
                self.problem("member", f"expected the member's id, found {shown(own)}")
                return None
            if member is not None and member != own:
                self.problem("member", f"the file holds member {own}'s records, not "
                             f"{member}'s")
                return None
            member = own
            if "member_norms" in data:
                norm_pages.append(("member_norms", data["member_norms"]))
            pages = data.get("member_awards", [])
            if not isinstance(pages, list):
                self.problem("member_awards", f"expected a list of pages, found "
                             f"{kind_of(pages)}")
                return None
            award_pages += [(f"member_awards[{at}]", p) for at, p in enumerate(pages)]
        elif claims(data):
            pages = data if isinstance(data, list) else [data]
            many = len(pages) > 1
            for at, page in enumerate(pages):
                where = f"[{at}]" if many else ""
                (norm_pages if _page_of(page) == "norms" else award_pages).append(
                    (where, page))
            if member is None:
                self.problem("", "a response of the API does not name its member: give "
                             "the member's id (--member)")
                return None
        else:
            self.problem("", "expected a member's norms or awards: a file saved by `uscf "
                         "fetch --member ID --titles`, a norms response ({\"items\": [...]} "
                         "of records with \"level\") or an awards page ({\"items\": [...]} "
                         "of records with \"category\")")
            return None
        problem = FIELDS["Player.id"].problem("", member)
        if problem:
            self.problem("member", problem)
        norms = [n for where, page in norm_pages for n in self.norms(page, where)]
        awards = self.awards(award_pages)
        if self.issues:
            return None
        notes = []
        other = sorted({a.type for a in awards if a.category == "WinMilestone"
                        or a.type.startswith("Postal") or a.type == "GoldenKnight"})
        if other:
            notes.append("awards not computed here (read, not compared): "
                         + ", ".join(other))
        return MemberTitles(member, tuple(norms), tuple(awards), tuple(notes))

    # --- norms ------------------------------------------------------------------------

    def norms(self, page: Any, where: str) -> list[NormRecord]:
        if not isinstance(page, dict) or not isinstance(page.get("items"), list):
            self.problem(where, f"expected the norms response ({{\"items\": [...]}}), "
                         f"found {kind_of(page)}")
            return []
        found = []
        for at, row in enumerate(page["items"]):
            record = self.norm(row, f"{where}.items[{at}]" if where else f"items[{at}]")
            if record is not None:
                found.append(record)
        return found

    def norm(self, row: Any, where: str) -> NormRecord | None:
        if not isinstance(row, dict):
            self.problem(where, f"expected a norm (an object), found {kind_of(row)}")
            return None
        before = len(self.issues)
        level = self.choice(row, "level", where, tuple(NORM_CODES_BY_API), required=True)
        status = self.choice(row, "status", where, NORM_STATUSES, required=True)
        post_type = self.choice(row, "postType", where, NORM_POST_TYPES)
        games = self.whole(row, "games", where, FIELDS["Rating.games"])
        played = self.whole(row, "playedGames", where, FIELDS["Rating.games"])
        score = self.number(row, "score", where, _POINTS)
        expected = self.number(row, "expected", where, _POINTS)
        post = self.whole(row, "postRating", where, FIELDS["Rating.rating"])
        section = self.whole(row, "sectionNumber", where, FIELDS["Section.number"])
        event = self.event(row.get("event"), f"{where}.event", required=True)
        if len(self.issues) > before or event is None or level is None or status is None:
            return None
        return NormRecord(NORM_CODES_BY_API[level], status, score, expected, post,
                          post_type, games, played, event[0], event[1], section, event[2])

    # --- awards -----------------------------------------------------------------------

    def awards(self, pages: list[tuple[str, Any]]) -> list[AwardRecord]:
        found = []
        for at, (where, page) in enumerate(pages):
            if not isinstance(page, dict) or not isinstance(page.get("items"), list):
                self.problem(where, f"expected an awards page ({{\"items\": [...]}}), "
                             f"found {kind_of(page)}")
                continue
            if page.get("hasNextPage") is True and at == len(pages) - 1:
                self.problem(where or "hasNextPage", "the awards go on in a next page that "
                             "is not in the file (hasNextPage): fetch them all with `uscf "
                             "fetch --member ID --titles`")
            for i, row in enumerate(page["items"]):
                award = self.award(row, f"{where}.items[{i}]" if where else f"items[{i}]")
                if award is not None:
                    found.append(award)
        return found

    def award(self, row: Any, where: str) -> AwardRecord | None:
        if not isinstance(row, dict):
            self.problem(where, f"expected an award (an object), found {kind_of(row)}")
            return None
        before = len(self.issues)
        category = self.choice(row, "category", where, AWARD_CATEGORIES, required=True)
        kind = self.choice(row, "type", where, AWARD_TYPES, required=True)
        source = self.choice(row, "ratingSource", where, RATING_SOURCES)
        ident = row.get("id")
        if ident is not None and (problem := FIELDS["Event.id"].problem("", ident)):
            self.problem(f"{where}.id", problem)
        wins = self.whole(row, "winCount", where, FIELDS["Rating.games"])
        section = self.whole(row, "sectionNumber", where, FIELDS["Section.number"])
        day = self.day(row.get("date"), f"{where}.date") if row.get("date") is not None \
            else None
        event = self.event(row.get("event"), f"{where}.event", required=False)
        if len(self.issues) > before or category is None or kind is None:
            return None
        return AwardRecord(str(ident or ""), category, kind, day,
                           event[0] if event else None, section, wins, source)

    # --- the parts --------------------------------------------------------------------

    def choice(self, row: dict[str, Any], key: str, where: str, allowed: tuple[str, ...],
               required: bool = False) -> str | None:
        """An enumeration's value: one of ``allowed`` (the schema's list), else refused
        naming it (the module's docstring says why)."""
        value = row.get(key)
        if value is None and not required:
            return None
        if isinstance(value, str) and value in allowed:
            return value
        self.problem(f"{where}.{key}", f"{shown(value)}: expected one of "
                     + ", ".join(allowed))
        return None

    def whole(self, row: dict[str, Any], key: str, where: str, domain: Domain
              ) -> int | None:
        value = row.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(f"{where}.{key}", f"expected a whole number, found {shown(value)}")
            return None
        problem = domain.problem("", value)
        if problem:
            self.problem(f"{where}.{key}", problem)
            return None
        return value

    def number(self, row: dict[str, Any], key: str, where: str, domain: Domain
               ) -> float | None:
        value = row.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.problem(f"{where}.{key}", f"expected a number, found {shown(value)}")
            return None
        problem = domain.problem("", float(value))
        if problem:
            self.problem(f"{where}.{key}", problem)
            return None
        return float(value)

    def day(self, value: Any, where: str) -> date | None:
        try:
            day = date.fromisoformat(str(value)[:10]) if isinstance(value, str) else None
        except ValueError:
            day = None
        if day is None:
            self.problem(where, f"expected a date (YYYY-MM-DD), found {shown(value)}")
            return None
        problem = _DAY.problem("", day)
        if problem:
            self.problem(where, problem)
            return None
        return day

    def event(self, value: Any, where: str, required: bool
              ) -> tuple[str, str, date | None] | None:
        """(id, name, end date) of a ``MinimalRatedEventDto``."""
        if value is None and not required:
            return None
        if not isinstance(value, dict):
            self.problem(where, f"expected the event (an object with its id), found "
                         f"{kind_of(value)}")
            return None
        ident, name = value.get("id"), value.get("name", "")
        problem = (FIELDS["Event.id"].problem("", ident) if isinstance(ident, str)
                   and ident else f"expected the event's id, found {shown(ident)}")
        if problem:
            self.problem(f"{where}.id", problem)
        if name is not None and (wrong := FIELDS["Event.name"].problem("", name)):
            self.problem(f"{where}.name", wrong)
        end = self.day(value["endDate"], f"{where}.endDate") \
            if value.get("endDate") is not None else None
        if problem or not isinstance(ident, str):
            return None
        return ident, str(name or ""), end
