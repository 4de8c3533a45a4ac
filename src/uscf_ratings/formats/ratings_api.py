"""The records US Chess publishes through its ratings API: read a rated section with its
published ratings.

The API (shared/spec/uschess-ratings-api-openapi.json, ``/api/v1``) gives, for a rated
event, the event's record (``RatedEventDetailDto``: name, dates, state, its sections),
each section's record (``SectionDetailDto``: dates, time control, rating system, format)
and the section's standings (pages of ``StandingsDto``: one row a player, with every
round's outcome and the player's pre- and post-event ratings, two decimals, per system).
Two shapes are read, told apart by their content (`claims`):

* **A standings page** as the API returns it (``{"items": [...], "offset", "pageSize",
  "hasNextPage"}``), or a list of such pages. It holds neither the event's id, nor its
  dates, nor its rating systems: the date comes from ``--date`` and the systems from
  ``--systems`` (a page without them is refused, saying so, and naming the systems its
  ratings are in), the event's id and the section's number from a file name of the form
  ``EVENTID_sN...`` (``202508311982_s02_standings.json``), else the file's name and
  section 1. The reading says what it took from where (`ApiSection.assumed`).
* **An event as ``uscf fetch`` saves it** (`BUNDLE_MARK`): ``{"format":
  "uscf-ratings-api", "source": URL, "event": RatedEventDetailDto, "sections":
  [{"section": SectionDetailDto, "standings": [page, ...]}]}``: each record exactly as
  the API sent it, so that nothing is read but what US Chess published.

How a row becomes a player of the core model:

* ``ordinal`` (the standings order) is the pair number: the rounds name their opponents
  by ``opponentOrdinal``. The name is ``lastName, firstName``; the id ``memberId``.
* Outcomes (``PlayerOutcome``): ``Win``/``Loss``/``Draw`` are rated games (W, L, D);
  ``WinForfeit`` is X, ``Forfeit`` F, ``ByeFull`` B, ``ByeHalf`` H; ``Unpaired``,
  ``NotReported`` and ``ReportNoResult`` are U. ``DrawForfeit`` and the ``...Asym``
  outcomes are not described anywhere we can cite: a section holding one is refused,
  naming the player and round, rather than rated on a guess.
* The pre-event rating of each system is ``preRatingDecimal`` (``preRating`` where
  there is no decimal); none means unrated in that system. The API publishes the
  provisional game count after the event only (``postProvisionalGameCount``): N before
  it is that count less the player's rated games here. An established rating's N is not
  published: it is taken as `UNPUBLISHED_N` (``games_known`` False), so that N' = N*
  (2025 text, section 3), which is exact while N* <= N, that is for every rating under
  about 1930; the reading counts the players it assumed this for.
* The published post-event ratings (``postRatingDecimal``) and pre-event ratings are kept
  beside the event (`ApiSection.published`), for `uscf verify` to compare with.

The section's systems: ``ratingSystem`` of its record (``D`` is dual, R and Q:
2025 text, footnote 1), else ``--systems``. Its type: ``RoundRobin`` and
``DoubleRoundRobin`` are round robins, ``Match`` a match (section 7), anything else a
Swiss; ``FideAdjustment`` sections (section 6) are refused: their FIDE ratings are not
in the records.

Errors name the file and the record (``items[3].roundOutcomes[1].outcome``), and every
one is reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any

from ..core.model import Event, EventDetails, Player, Rating, Result, Section, SectionType, System
from .bounds import read_input
from .common import DATE_HELP, in_domain, kind_of, load_json, utf8_text
from .errors import Issue, Issues, ParseError
from .outputs import total

#: the ``format`` of the files ``uscf fetch`` writes
BUNDLE_MARK = "uscf-ratings-api"
#: N taken for an established rating, whose N the API does not publish: N* is at most 50
#: (2025 text, section 3), so that N' = min(N, N*) = N*, which is exact wherever the true
#: N >= N*: for every established rating (N > 25) under about 1930
UNPUBLISHED_N = 50

OUTCOMES = {"Win": "W", "Loss": "L", "Draw": "D", "WinForfeit": "X", "Forfeit": "F",
            "ByeFull": "B", "ByeHalf": "H", "Unpaired": "U", "NotReported": "U",
            "ReportNoResult": "U"}
#: ``SectionRatingSystem`` codes we can rate; D is dual (R and Q)
SECTION_SYSTEMS = {"R": (System.R,), "Q": (System.Q,), "B": (System.B,), "OR": (System.OR,),
                   "OQ": (System.OQ,), "OB": (System.OB,), "D": (System.R, System.Q)}
SECTION_TYPES = {"RoundRobin": SectionType.ROUND_ROBIN,
                 "DoubleRoundRobin": SectionType.ROUND_ROBIN, "Match": SectionType.MATCH,
                 "Swiss": SectionType.SWISS, "DoubleRoundSwiss": SectionType.SWISS,
                 "Other": SectionType.SWISS}
_FILE_NAME = re.compile(r"^(?P<event>[0-9]{12})_s(?P<section>[0-9]+)")


@dataclass(frozen=True)
class PublishedRating:
    """What US Chess published for one player in one system of a section."""

    member: str
    name: str
    pre: float | None  #: None: unrated before the event
    post: float
    post_games: int | None  #: the provisional game count after; None: established
    pre_games: int | None  #: before (post_games less the games here); None if not known
    games: int  #: rated games in the section


@dataclass(frozen=True)
class ApiSection:
    """A section read from the records, with what was published for it: its players'
    ratings by (pair, system), and what the reading had to assume, in words."""

    section: Section
    published: Mapping[tuple[int, System], PublishedRating]
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True)
class ApiEvent:
    """An event read from the records: the event of the core model, and its sections
    with what was published for them."""

    event: Event
    sections: tuple[ApiSection, ...]
    assumed: tuple[str, ...] = ()  #: what the reading assumed for the whole event


def claims(text: str) -> bool:
    """Whether a JSON text looks like ratings-API records (for sniffing)."""
    return f'"{BUNDLE_MARK}"' in text[:400] or ('"roundOutcomes"' in text
                                                and '"ordinal"' in text)


def read(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """The event of `read_records`, as every format's ``read`` gives it."""
    return read_records(path, event_date=event_date, systems=systems, data=data).event


def read_records(path: Path | str, *, event_date: date | None = None,
                 systems: tuple[System, ...] | None = None, data: bytes | None = None
                 ) -> ApiEvent:
    """Read ratings-API records (a standings page, or an event saved by ``uscf fetch``)
    as the module's docstring says, every value in its domain (core/domain.py); a
    `ParseError` naming every problem otherwise."""
    path = Path(path)
    source = str(path)
    text = utf8_text(read_input(path) if data is None else data, source)
    reader = _Reader(path, event_date, systems)
    found = reader.records(load_json(text, source))
    if reader.issues or found is None:
        raise ParseError(source, reader.issues or [Issue("", "no section read")])
    in_domain(found.event, source)
    return found


class _Reader(Issues):
    def __init__(self, path: Path, event_date: date | None,
                 systems: tuple[System, ...] | None):
        super().__init__()
        self.path = path
        self.event_date = event_date
        self.systems = systems

    # --- the two shapes ---------------------------------------------------------------

    def records(self, data: Any) -> ApiEvent | None:
        if isinstance(data, dict) and ("member_sections" in data or is_history_page(data)):
            self.problem("", "this file holds a member's rated sections, not an event's "
                         "standings: seed a ratings database with it by `uscf db "
                         "import-history`")
            return None
        if isinstance(data, dict) and ("member_norms" in data or "member_awards" in data):
            self.problem("", "this file holds a member's norms and awards, not an event's "
                         "standings: `uscf verify` compares them with ours, beside the "
                         "events fetched")
            return None
        if isinstance(data, dict) and data.get("format") == BUNDLE_MARK:
            return self.bundle(data)
        if _is_page(data) or (isinstance(data, list) and data and all(map(_is_page, data))):
            return self.standings_alone(data if isinstance(data, list) else [data])
        self.problem("", "expected ratings-API records: a standings page ({\"items\": "
                     "[...]} of rows with \"ordinal\" and \"roundOutcomes\"), or an event "
                     f"saved by `uscf fetch` (\"format\": \"{BUNDLE_MARK}\")")
        return None

    def standings_alone(self, pages: list[Any]) -> ApiEvent | None:
        assumed = []
        match = _FILE_NAME.match(self.path.name)
        if match:
            event_id, number = match["event"], int(match["section"])
            assumed.append(f"the event's id ({event_id}) and the section's number "
                           f"({number}) are taken from the file's name: a standings page "
                           "holds neither")
        else:
            event_id, number = self.path.stem, 1
            assumed.append(f"a standings page holds no event id: the event is called "
                           f"{event_id!r} (the file's name), its section number 1")
        rows = self.rows(pages, "" if len(pages) == 1 else "[{at}]")
        if self.event_date is None:
            self.problem("", f"a standings page gives no date for the section: {DATE_HELP}")
        found = sorted({r.get("ratingSystem") for _, row in rows
                        for r in _list(row.get("ratings")) if isinstance(r, dict)}
                       - {None}, key=str)
        if not self.systems:
            self.problem("", "a standings page gives no rating systems: give them with "
                         "--systems (its ratings are in " + (", ".join(map(str, found))
                                                              or "no system") + ")")
        else:
            # a system the page publishes no rating in would be rated all the same, and
            # change the section's other ratings (a dual-rated section): refused
            missing = [s.value for s in self.systems if s.value not in found]
            if missing:
                self.problem("", f"--systems names {', '.join(missing)}, but the standings "
                             "page publishes no rating in " + ("it" if len(missing) == 1
                                                               else "them")
                             + " (its ratings are in " + (", ".join(map(str, found))
                                                          or "no system") + ")")
        if self.issues:
            return None
        assert self.event_date is not None and self.systems
        assumed.append(f"the date ({self.event_date}) and the systems "
                       f"({','.join(s.value for s in self.systems)}) are those given: a "
                       "standings page has neither")
        section = self.section(number, "", self.event_date, self.event_date, self.systems,
                               None, SectionType.SWISS, rows)
        if section is None:
            return None
        event = Event(event_id, self.event_date, self.event_date, (section.section,))
        return ApiEvent(event, (section,), tuple(assumed))

    def bundle(self, data: dict[str, Any]) -> ApiEvent | None:
        record = data.get("event")
        if not isinstance(record, dict):
            self.problem("event", f"expected the event's record (an object), found "
                         f"{kind_of(record)}")
            return None
        start, end = self.day(record, "startDate", "event"), self.day(record, "endDate", "event")
        sections = []
        for at, item in enumerate(_list(data.get("sections"))):
            where = f"sections[{at}]"
            own = item.get("section") if isinstance(item, dict) else None
            if not isinstance(own, dict):
                self.problem(f"{where}.section", "expected the section's record (an object)")
                continue
            pages = item.get("standings")
            if not isinstance(pages, list) or not all(map(_is_page, pages)):
                self.problem(f"{where}.standings", "expected the section's standings pages "
                             "(a list of {\"items\": [...]})")
                continue
            read = self.record_section(own, pages, where, start, end)
            if read is not None:
                sections.append(read)
        if not sections and not self.issues:
            self.problem("sections", "the event holds no section")
        if self.issues or start is None or end is None:
            return None
        event_id = str(record.get("id") or "")
        affiliate = record.get("affiliate")
        affiliate = affiliate if isinstance(affiliate, dict) else {}
        details = EventDetails(city=str(record.get("city") or ""),
                               state=str(record.get("stateCode") or ""),
                               zip_code=str(record.get("zipCode") or ""),
                               country=str(record.get("countryCode") or ""),
                               affiliate_id=str(affiliate.get("id") or ""),
                               affiliate_name=str(affiliate.get("name") or ""))
        event = Event(event_id, min(s.section.start_date for s in sections),
                      max(s.section.end_date for s in sections),
                      tuple(s.section for s in sections), name=str(record.get("name") or ""),
                      online=all(s.section.online for s in sections), details=details)
        return ApiEvent(event, tuple(sections))

    def record_section(self, own: dict[str, Any], pages: list[Any], where: str,
                       event_start: date | None, event_end: date | None) -> ApiSection | None:
        number = own.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            self.problem(f"{where}.section.number", f"expected a section number, found "
                         f"{number!r}")
            return None
        start = self.day(own, "startDate", f"{where}.section", event_start)
        end = self.day(own, "endDate", f"{where}.section", event_end)
        code = own.get("ratingSystem")
        systems = SECTION_SYSTEMS.get(str(code))
        if systems is None:
            self.problem(f"{where}.section.ratingSystem", f"{code!r}: expected a rating "
                         "system we rate: " + ", ".join(SECTION_SYSTEMS))
        kind_name = own.get("format") or "Swiss"
        kind = SECTION_TYPES.get(str(kind_name))
        if kind is None:
            self.problem(f"{where}.section.format", f"{kind_name!r}: sections of this "
                         "format are not read (a FIDE adjustment's FIDE ratings are not in "
                         "the records); expected " + ", ".join(SECTION_TYPES))
        rows = self.rows(pages, f"{where}.standings[{{at}}]")
        if start is None or end is None or systems is None or kind is None:
            return None
        online = bool(own.get("isOnline")) or systems[0].online
        time_control = own.get("timeControl")
        return self.section(number, str(own.get("name") or ""), start, end, systems,
                            str(time_control) if time_control else None, kind, rows, online)

    # --- the parts ----------------------------------------------------------------------

    def day(self, record: dict[str, Any], key: str, where: str,
            default: date | None = None) -> date | None:
        value = record.get(key)
        if value is None and default is not None:
            return default
        return read_day(value, f"{where}.{key}", self.issues)

    def rows(self, pages: list[Any], page_path: str) -> list[tuple[str, dict[str, Any]]]:
        """Every row of ``pages``, in order, each with its place in the file:
        ``page_path`` formatted with the page's index, then ``.items[i]``."""
        rows = []
        for at, page in enumerate(pages):
            where = page_path.format(at=at)
            if page.get("hasNextPage") and at == len(pages) - 1:
                self.problem(where, "the standings go on in a next page that is not in the "
                             "file (hasNextPage): fetch them all with `uscf fetch`")
            for i, row in enumerate(_list(page.get("items"))):
                at_row = f"{where}.items[{i}]" if where else f"items[{i}]"
                if isinstance(row, dict):
                    rows.append((at_row, row))
                else:
                    self.problem(at_row, f"expected a row (an object), found {kind_of(row)}")
        return rows

    def section(self, number: int, name: str, start: date, end: date,
                systems: tuple[System, ...], time_control: str | None, kind: SectionType,
                rows: list[tuple[str, dict[str, Any]]], online: bool = False
                ) -> ApiSection | None:
        players: list[Player] = []
        published: dict[tuple[int, System], PublishedRating] = {}
        assumed_n = provisional = 0
        for at_row, row in rows:
            player = self.player(row, at_row)
            if player is None:
                continue
            games = sum(1 for r in player.results if r.played)
            ratings: dict[System, Rating] = {}
            for code, record, at_rating in self.ratings(row, at_row):
                pre = number_of(record.get("preRatingDecimal"), record.get("preRating"))
                post = number_of(record.get("postRatingDecimal"), record.get("postRating"))
                post_games = record.get("postProvisionalGameCount")
                if post is None or (post_games is not None and not isinstance(post_games, int)):
                    self.problem(at_rating, "expected a post-event rating and a whole "
                                 "provisional game count (or none)")
                    continue
                pre_games = post_games - games if post_games is not None else None
                if pre is not None:
                    if pre_games is not None and pre_games > 0:
                        ratings[code] = Rating(pre, pre_games)
                        provisional += code in systems
                    else:  # established, or became so here: N not published
                        ratings[code] = Rating(pre, UNPUBLISHED_N, games_known=False)
                        assumed_n += code in systems
                        pre_games = None
                published[(player.pair, code)] = PublishedRating(
                    player.id, player.name, pre, post, post_games, pre_games, games)
            players.append(replace(player, ratings=ratings))
        if not self.issues:
            self.check_score(rows, players)
        if self.issues:
            return None
        assumed = []
        if assumed_n:
            assumed.append(f"N is not published for {_ratings(assumed_n)} established "
                           f"after the event: taken as {UNPUBLISHED_N} before it, so that "
                           "N' = N* (exact for ratings under about 1930)")
        if provisional:
            assumed.append(f"the earlier games of {_ratings(provisional)} provisional before "
                           "the event are not published: taken as neither all wins nor all "
                           "losses (section 4.1)")
        section = Section(number, start, end, tuple(players), name=name,
                          time_control=time_control, online=online, type=kind,
                          systems=systems)
        return ApiSection(section, published, tuple(assumed))

    def player(self, row: dict[str, Any], where: str) -> Player | None:
        pair = row.get("ordinal")
        if not isinstance(pair, int) or isinstance(pair, bool) or pair < 1:
            self.problem(f"{where}.ordinal", f"expected the player's place (a whole number), "
                         f"found {pair!r}")
            return None
        results = []
        for at, cell in enumerate(_list(row.get("roundOutcomes"))):
            at_cell = f"{where}.roundOutcomes[{at}]"
            result = self.result(cell, at_cell)
            if result is not None:
                results.append(result)
        results.sort(key=lambda r: r.round)
        name = ", ".join(str(row.get(k) or "").strip() for k in ("lastName", "firstName")
                         if str(row.get(k) or "").strip())
        return Player(pair, str(row.get("memberId") or ""), name, results=tuple(results))

    def result(self, cell: Any, where: str) -> Result | None:
        if not isinstance(cell, dict):
            self.problem(where, f"expected a round's outcome (an object), found {kind_of(cell)}")
            return None
        outcome, number = cell.get("outcome"), cell.get("roundNumber")
        code = OUTCOMES.get(str(outcome))
        if code is None:
            self.problem(f"{where}.outcome", f"{outcome!r}: not read (expected one of "
                         + ", ".join(OUTCOMES) + "); the section is not rated on a guess")
            return None
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            self.problem(f"{where}.roundNumber", f"expected a round number, found {number!r}")
            return None
        opponent = cell.get("opponentOrdinal") if code in "WLDXF" else None
        if code in "WLD" and (not isinstance(opponent, int) or opponent < 1):
            self.problem(f"{where}.opponentOrdinal", f"a played game needs its opponent's "
                         f"place, found {opponent!r}")
            return None
        return Result(number, code, opponent if isinstance(opponent, int) and opponent > 0
                      else None)

    def ratings(self, row: dict[str, Any], where: str
                ) -> Iterator[tuple[System, dict[str, Any], str]]:
        for at, record in enumerate(_list(row.get("ratings"))):
            at_rating = f"{where}.ratings[{at}]"
            code = record.get("ratingSystem") if isinstance(record, dict) else None
            try:
                system = System(str(code))
            except ValueError:
                if code in ("U", "DNR", "C", "F", "CFC"):  # not a US Chess rating we rate
                    continue
                self.problem(f"{at_rating}.ratingSystem", f"expected a rating system, "
                             f"found {code!r}")
                continue
            assert isinstance(record, dict)
            yield system, record, at_rating

    def check_score(self, rows: Sequence[tuple[str, dict[str, Any]]],
                    players: Sequence[Player]) -> None:
        """Each row's score is the points of its rounds: a row that disagrees is read
        wrong, or published wrong, and is not rated either way."""
        for (at_row, row), player in zip(rows, players, strict=True):
            score, mine = row.get("score"), total(player)
            if isinstance(score, (int, float)) and abs(score - mine) > 1e-9:
                self.problem(f"{at_row}.score", f"the row's score is {score:g}, its rounds "
                             f"give {mine:g}")


def _ratings(count: int) -> str:
    return f"{count} rating{'s' if count != 1 else ''}"


def _is_page(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("items"), list) and all(
        isinstance(row, dict) and "roundOutcomes" in row for row in data["items"])


def read_day(value: Any, where: str, issues: list[Issue]) -> date | None:
    """A record's date (YYYY-MM-DD, a time after it ignored); None, with an issue at
    ``where``, if it is not one."""
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        issues.append(Issue(where, f"expected a date (YYYY-MM-DD), found {value!r}"))
        return None


def is_history_page(data: Any) -> bool:
    """Whether ``data`` is a page of a member's rated sections (formats/member_history.py)."""
    return isinstance(data, dict) and isinstance(data.get("items"), list) and bool(
        data["items"]) and all(isinstance(r, dict) and "ratingRecords" in r
                               for r in data["items"])


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def number_of(decimal: Any, whole: Any) -> float | None:
    """A rating as published: the two-decimal value, else the whole one, else None."""
    for value in (decimal, whole):
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None
