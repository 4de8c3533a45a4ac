"""SwissSys ``.sjson`` files (and their ``.BK`` backups): read them into the core model.

Layout (shared/spec/file-formats.md, "SwissSys / WinTD / Swiss-Manager native formats";
shared/formats/pairing_json/MANIFEST.md, which describes the real files):

* ``Overview``: ``Tournament title``; optionally ``Starting date``, ``Ending date`` and
  ``Tournament time controls`` (seen in SwissSys 11.58 files, e.g. ``"12/19/25"``,
  ``"2025-04-01"``, ``"G5"``).
* ``Sections[]``: ``Section name``, ``Type`` (0 Swiss, 3 round robin; the order of the
  SwissSys "Tournament Types" page), optionally ``Section time control``, and ``Players[]``.
* A player: ``Pair number``, ``Name``, ``ID``, ``Rating``, ``Rating2`` (FIDE, per the
  manifest's reading of ChessRegister's export), and ``Results[]``: one string per round,
  ``"+;2;W;1;2;2;0"``, decoded by the file's own ``Note``: "Result coding is Result; Op.;
  Clr; Brd; Logical ops. 1 & 2; Game pnts". Only the result, the opponent and (for the
  double-game codes) the pair numbers matter for rating; the other fields are SwissSys
  pairing internals.

The event's details (`core.model.EventDetails`). The format notes name none of these
keys; they are the ``Overview`` keys of SwissSys 11.34 and later as a public reader of
``.sjson`` files reads them (FreePair, freepairchess/FreePair,
src/FreePair.Core/SwissSys/Raw/RawOverview.cs and RawDelegation.cs; its sample
docs/samples/swisssys/Chess_A2Z_April_Open_2026_v11_34_extended.sjson). The SwissSys
11.52 files of shared/formats/pairing_json have none of them, so their details are empty.

* ``Event address`` is the site; ``Event city``, ``Event state``, ``Event zip code``
  (``"97124 "``, or a number), ``Event country`` (``USA``) the place, as given.
* ``Organizer ID`` (``NACH organizer ID`` before SwissSys 11.34) is the affiliate id
  when ``Organizer ID Type`` is ``USCFAffiliateID`` (or 3, its number in NAChessHub's
  list) or absent; ``Organizer Name`` is then the affiliate's name. An organizer id of
  another type (a FIDE or CFC organizer, a local id) is not a US Chess affiliate: left
  out.
* ``Delegations[]``: ``Player ID``, ``Player Name``, ``Delegation Level``. Those of level
  ``TournamentDirector`` are the directors, in order: the first is the chief, the rest
  the other directors (the file does not say which one is the assistant chief). An
  ``Owner`` or an unknown level is no director. The e-mail addresses and telephone
  numbers beside them are never read.
* A value of the wrong kind (a list for a city, a ``Delegations`` that is not a list) is
  an issue naming its key, like any other; keys we do not know are left alone.

Result letters (SwissSys writes + - = for played games; docs.chessroster.com "Entering
Results": forfeits are marked X or F, byes H and B, U unpaired, ``~`` not yet played):

====  ======================  ======================================
``+`` win                     W with the opponent's pair number
``-`` loss                    L
``=`` draw                    D
``X`` forfeit win             X (opponent kept when given)
``F`` forfeit loss            F
``Z`` forfeit draw            H, unrated (see the decisions below)
``H`` half-point bye          H
``B`` full-point bye          B
``U`` unpaired                U
``~`` or empty: no result     U
====  ======================  ======================================

Double-game rounds (a "Dbl" section, two games per paired round):

* SwissSys's individual entry mode writes each game as its own entry, so a 6-round double
  Swiss has 12 entries with each opponent repeated (SwissSys 11.58 "Billerica December
  Blitz"). Those read as 12 rounds, one game each, like any file.
* The combined entry mode records both games in one entry with the special characters
  ``$ # %`` (docs.chessroster.com "Entering Results": "Results appear in the wall chart
  using special characters ($, #, %)"; the same codes are SwissSys's double-game codes of
  the US Chess report, uscf_dbf/MANIFEST.md). A section that uses any of them is read as
  one entry per double round, and each entry becomes two rated games in two rounds
  (entry k gives rounds 2k-1 and 2k), as US Chess expands them ("MUIR expands SwissSys's
  double-game codes into two rated rounds per pairing", Meow-Chess DBF notes):

  ==========  ====================  ==========================================
  ``$``       won both              W W
  ``#``       won one, drew one     W D
  ``%``       drew both             D D
  ``+``       won one, lost one     W L   (in a combined section only)
  ``=``       drew one, lost one    D L   (in a combined section only)
  ``-``       lost both             L L   (in a combined section only)
  X F H B U   as above, both games  X X, F F, ...
  ==========  ====================  ==========================================

  The file does not say which game came first; the two games of a pairing are ordered
  from the lower pair number's side and mirrored for the higher one, so both rows agree
  (``#`` against ``=`` gives W D against L D). Rating does not depend on that order.

Decisions where the notes are silent (docs/formats.md repeats them):

* ``Rating`` is one number without N. It is the rating of the section's main system (R
  for a dual-rated or unknown time control, else the section's one system), as
  ``Rating(r, games=26, games_known=False)``: assumed established. A dual section's other
  system is left unrated, so the rules derive it (2025 text, section 2), as the DBF
  reader does with D_RATING. ``"Provisional": true`` (SwissSys 11.58) still gives no N,
  so it is read the same way; ``"1456P12"`` or ``"1456/12"`` text gives N. 0, blank or
  ``unr.`` is unrated.
* ``Rating to use`` is not a rating system: it is 0 both in a regular event (dbf_test,
  rated R) and in a G5 blitz event, so systems are left to the time control.
* ``Z``: the docs list it among forfeit markers; the notes' legacy reading is "forfeit
  draw", and US Chess rated SwissSys's ``Z0`` cells as half-point byes (Meow-Chess's
  comparison with the rated records). It reads as H, as in the DBF reader: never rated.
* ``Birth date`` (ChessRegister writes a year, ``"1979"``): a full date is the birth
  date; a bare year at least 28 years before the event marks an adult (aged 27 or more,
  whose age-based rating is 1300 either way, section 2.3); a later year is left unknown.
* Names and ids lose surrounding spaces. The event id is the file name without its
  extension (SwissSys stores none). When the file gives no date, ``event_date`` is used
  (``--date``); without one the file is refused, never rated as of today. Sections
  without a time control we can read take the ``systems`` argument (``--systems``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from pathlib import Path
from typing import Any

from ..core.model import (
    Director,
    Event,
    EventDetails,
    FideRating,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from .bounds import read_input
from .common import UNDATED, is_digits, kind_of, load_json, main_system, systems_of, undated
from .errors import Issue, ParseError
from .event_details import director, directors

#: SwissSys result letter -> US Chess code, one game per entry.
SINGLE = {"+": "W", "-": "L", "=": "D", "X": "X", "F": "F", "Z": "H", "H": "H", "B": "B",
          "U": "U", "~": "U", "": "U"}
#: The combined double-game codes: the two games from the entry's own side.
COMBINED = {"$": ("W", "W"), "#": ("W", "D"), "%": ("D", "D"), "+": ("W", "L"),
            "=": ("D", "L"), "-": ("L", "L")}
DOUBLE_ONLY = frozenset("$#%")
PLAYED = frozenset("WLD")
#: codes that keep the opponent's pair number (forfeits may have one)
WITH_OPPONENT = frozenset("WLDXF")
#: Section ``Type`` 3 is a round robin (SwissSys "Tournament Types", 0-based order; a
#: SwissSys 11.58 round-robin file has ``"Type": 3``); every other type pairs Swiss-style.
ROUND_ROBIN_TYPE = 3
_UNRATED = {"", "0", "unr", "unr.", "unrated", "none"}
#: ``Organizer ID Type`` values that make the organizer id a US Chess affiliate id: absent
#: (None), or USCFAffiliateID by name or by its number in NAChessHub's list (3)
AFFILIATE_TYPES = (None, "USCFAffiliateID", 3)
#: the ``Delegation Level`` of a director (the others: ``Owner``, unknown levels)
DIRECTOR_LEVEL = "TournamentDirector"
_RATING_TEXT = re.compile(r"(?P<r>[0-9]{1,4}(?:\.[0-9]+)?)\s*(?:[Pp/]\s*(?:(?P<n>[0-9]{1,3}))?)?")


def read(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """Read a SwissSys ``.sjson`` or ``.BK`` file; raise `ParseError` listing every
    problem found. ``event_date``: the date of a file that gives none (refused without
    it); ``systems``: those of sections without a time control we can read; ``data``:
    the file's bytes, when the caller has read them."""
    path = Path(path)
    try:
        text = (read_input(path) if data is None else data).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ParseError(str(path), [Issue("", f"not UTF-8 text ({error.reason} at byte "
                                           f"{error.start})")]) from None
    event_id = path.name.split(".sjson")[0] if ".sjson" in path.name else path.stem
    return parse(text, str(path), event_id=event_id, event_date=event_date, systems=systems)


def parse(text: str, source: str = "<sjson>", *, event_id: str = "",
          event_date: date | None = None, systems: tuple[System, ...] | None = None) -> Event:
    """Parse the text of a SwissSys file (see the module docstring for the layout)."""
    data = load_json(text, source)
    reader = _Reader(systems)
    event = reader.event(data, event_id, event_date)
    if reader.issues or event is None:
        raise ParseError(source, reader.issues)
    return event


@dataclass
class _Entry:
    """One decoded ``Results`` entry: the result letter and the opponent (or None)."""

    letter: str
    opponent: int | None
    where: str


@dataclass
class _Row:
    pair: int
    player: dict[str, Any]
    entries: list[_Entry] = field(default_factory=list)
    where: str = ""


class _Reader:
    """Builds the model, collecting every problem as an `Issue`."""

    def __init__(self, systems: tuple[System, ...] | None = None) -> None:
        self.issues: list[Issue] = []
        self.given_systems = systems

    def fail(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))

    # --- event and sections -------------------------------------------------------------

    def event(self, data: Any, event_id: str, event_date: date | None) -> Event | None:
        if not isinstance(data, dict):
            self.fail("(top level)", f"expected an object with 'Overview' and 'Sections', "
                      f"found {kind_of(data)}")
            return None
        overview = data.get("Overview", {})
        if not isinstance(overview, dict):
            self.fail("Overview", f"expected an object, found {kind_of(overview)}")
            overview = {}
        sections = data.get("Sections")
        if not isinstance(sections, list):
            self.fail("Sections", "expected a list of sections" if sections is not None
                      else "missing: expected a list of sections")
            return None
        name = self.text(overview, "Tournament title", "Overview")
        start = self.calendar_date(overview.get("Starting date"), "Overview.Starting date")
        end = self.calendar_date(overview.get("Ending date"), "Overview.Ending date")
        start = start or end or event_date
        if start is None:
            self.issues.append(undated("Overview.Starting date", "Overview 'Starting date'"))
            start = UNDATED  # reading goes on, to report every problem
        end = end or start
        default_tc = self.text(overview, "Tournament time controls", "Overview") or None
        built = [self.section(s, i, start, end, default_tc) for i, s in enumerate(sections)]
        return Event(event_id, start, end, tuple(s for s in built if s is not None), name,
                     details=self.details(overview))

    def details(self, overview: Mapping[str, Any]) -> EventDetails:
        """The site, the affiliate and the directors of the Overview (module docstring,
        "The event's details"): a value of the wrong kind is an issue naming its key;
        keys and delegation levels we do not know are left alone."""
        def text(key: str) -> str:
            return self.text(overview, key, "Overview")

        place = EventDetails(
            site=text("Event address"), city=text("Event city"), state=text("Event state"),
            zip_code=text("Event zip code"), country=text("Event country"))
        organizer_key = "Organizer ID" if "Organizer ID" in overview else "NACH organizer ID"
        organizer = text(organizer_key)
        kind = overview.get("Organizer ID Type")
        affiliate = kind in AFFILIATE_TYPES
        if not affiliate and kind is not None and not isinstance(kind, (str, int)):
            self.fail("Overview.Organizer ID Type", f"expected text, found {kind_of(kind)}")
        directors_given = self.delegated_directors(overview.get("Delegations"))
        return replace(
            place, affiliate_id=organizer if affiliate else "",
            affiliate_name=text("Organizer Name") if affiliate and organizer else "",
            chief_director=directors_given[0] if directors_given else None,
            other_directors=directors_given[1:])

    def delegated_directors(self, value: Any) -> tuple[Director, ...]:
        """The ``Delegations`` whose level is ``TournamentDirector``, in order."""
        if value is None:
            return ()
        where = "Overview.Delegations"
        if not isinstance(value, list):
            self.fail(where, f"expected a list of delegations, found {kind_of(value)}")
            return ()
        found = []
        for i, d in enumerate(value):
            if not isinstance(d, dict):
                self.fail(f"{where}[{i}]", f"expected an object with 'Player ID', 'Player "
                          f"Name' and 'Delegation Level', found {kind_of(d)}")
            elif d.get("Delegation Level") == DIRECTOR_LEVEL:
                found.append(director(self.text(d, "Player ID", f"{where}[{i}]"),
                                      self.text(d, "Player Name", f"{where}[{i}]")))
        return directors(found)

    def section(self, s: Any, index: int, start: date, end: date,
                default_tc: str | None) -> Section | None:
        where = f"Sections[{index}]"
        if not isinstance(s, dict):
            self.fail(where, f"expected a section object, found {kind_of(s)}")
            return None
        kind = s.get("Type", 0)
        if not isinstance(kind, int) or isinstance(kind, bool):
            self.fail(f"{where}.Type", f"expected a whole number, found {kind!r}")
            kind = 0
        time_control = self.text(s, "Section time control", where) or default_tc
        systems = systems_of(time_control, start) or self.given_systems
        players = s.get("Players", [])
        if not isinstance(players, list):
            self.fail(f"{where}.Players", f"expected a list of players, found {kind_of(players)}")
            players = []
        rows = [r for i, p in enumerate(players)
                if (r := self.row(p, f"{where}.Players[{i}]")) is not None]
        self.check_pairs(rows, where)
        combined = any(e.letter in DOUBLE_ONLY for r in rows for e in r.entries)
        known = {r.pair for r in rows}
        main = main_system(systems)
        built = tuple(self.player(r, main, combined, known, start) for r in rows)
        return Section(
            number=index + 1, start_date=start, end_date=end, players=built,
            name=self.text(s, "Section name", where), time_control=time_control,
            type=SectionType.ROUND_ROBIN if kind == ROUND_ROBIN_TYPE else SectionType.SWISS,
            systems=None if systems_of(time_control, start) else self.given_systems,
        )

    def check_pairs(self, rows: Sequence[_Row], where: str) -> None:
        seen: dict[int, str] = {}
        for r in rows:
            if r.pair in seen:
                self.fail(f"{r.where}.Pair number",
                          f"pair number {r.pair} is already used by {seen[r.pair]}")
            seen.setdefault(r.pair, r.where)

    # --- players ------------------------------------------------------------------------

    def row(self, p: Any, where: str) -> _Row | None:
        if not isinstance(p, dict):
            self.fail(where, f"expected a player object, found {kind_of(p)}")
            return None
        pair = p.get("Pair number")
        if not isinstance(pair, int) or isinstance(pair, bool) or pair < 1:
            self.fail(f"{where}.Pair number", "missing: expected a pair number (1, 2, ...)"
                      if pair is None else f"expected a pair number (1, 2, ...), found {pair!r}")
            return None
        results = p.get("Results", [])
        if not isinstance(results, list):
            self.fail(f"{where}.Results", f"expected a list of result strings, found "
                      f"{kind_of(results)}")
            results = []
        entries = [e for k, cell in enumerate(results)
                   if (e := self.entry(cell, f"{where}.Results[{k}]")) is not None]
        return _Row(pair, p, entries, where)

    def entry(self, cell: Any, where: str) -> _Entry | None:
        if not isinstance(cell, str):
            self.fail(where, f"expected a result string such as '+;2;W;1;2;2;0', found "
                      f"{kind_of(cell)}")
            return None
        fields = cell.split(";")
        letter = fields[0].strip().lstrip("\x00").upper()
        if letter not in SINGLE and letter not in DOUBLE_ONLY:
            self.fail(where, f"result {fields[0]!r} in {cell!r} is not a SwissSys result: "
                      "expected + - = (played), X F (forfeit), H B (bye), U Z ~ (unplayed) "
                      "or the double-game codes $ # %")
            return None
        opponent = None
        if len(fields) > 1 and fields[1].strip() not in ("", "0", "-1"):
            text = fields[1].strip()
            if not is_digits(text):
                self.fail(where, f"opponent {text!r} in {cell!r} is not a pair number")
                return None
            opponent = int(text)
        return _Entry(letter, opponent, where)

    def player(self, row: _Row, main: System, combined: bool,
               known: set[int], start: date) -> Player:
        p, where = row.player, row.where
        birth, adult = self.birth(p.get("Birth date"), f"{where}.Birth date", start)
        rating = self.rating(p.get("Rating"), f"{where}.Rating")
        fide = self.rating(p.get("Rating2"), f"{where}.Rating2")
        results = self.results(row, combined, known)
        ident = p.get("ID", "")
        if not isinstance(ident, (str, int)) or isinstance(ident, bool):
            self.fail(f"{where}.ID", f"expected a member id, found {kind_of(ident)}")
            ident = ""
        return Player(
            pair=row.pair, id=str(ident).strip(), name=self.text(p, "Name", where),
            birth_date=birth, adult=adult,
            ratings={main: rating} if rating else {},
            fide=FideRating(fide.rating) if fide else None,
            results=results,
        )

    def rating(self, value: Any, where: str) -> Rating | None:
        """A rating without N is assumed established (games=26, games_known=False)."""
        if value is None or isinstance(value, bool):
            return None
        if isinstance(value, (int, float)):
            if value < 0:
                self.fail(where, f"rating {value!r} is negative")
                return None
            return Rating(float(value), 26, games_known=False) if value > 0 else None
        if not isinstance(value, str):
            self.fail(where, f"expected a rating number, found {kind_of(value)}")
            return None
        if value.strip().lower() in _UNRATED:
            return None
        match = _RATING_TEXT.fullmatch(value.strip())
        if match is None:
            self.fail(where, f"rating {value!r} is not a rating: expected 1456, 1456P12 "
                      "(provisional, 12 games) or unr.")
            return None
        number = float(match["r"])
        if number == 0:
            return None
        if match["n"] is not None:
            return Rating(number, int(match["n"]))
        return Rating(number, 26, games_known=False)

    def birth(self, value: Any, where: str, start: date) -> tuple[date | None, bool | None]:
        """A birth date, or for a bare year whether the player is surely an adult."""
        if value is None or value == "":
            return None, None
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str) and re.fullmatch(r"[0-9]{4}", value.strip()):
            return None, (True if start.year - int(value) >= 28 else None)
        return self.calendar_date(value, where), None

    # --- results ------------------------------------------------------------------------

    def results(self, row: _Row, combined: bool, known: set[int]) -> tuple[Result, ...]:
        """Entry k is round k+1, or rounds 2k+1 and 2k+2 in a combined double section."""
        out: list[Result] = []
        for k, e in enumerate(row.entries):
            rounds: tuple[int, ...]
            if combined:
                codes, rounds = self.combined_codes(e, row.pair), (2 * k + 1, 2 * k + 2)
            else:  # a $ # % entry makes the section combined, so e.letter is in SINGLE
                codes, rounds = (SINGLE[e.letter],), (k + 1,)
            if not self.opponent_ok(e, codes[0], row.pair, known):
                continue
            out.extend(Result(rnd, code, e.opponent if code in WITH_OPPONENT else None)
                       for rnd, code in zip(rounds, codes, strict=True))
        return tuple(out)

    def combined_codes(self, e: _Entry, pair: int) -> tuple[str, ...]:
        """The two games of a combined double-game entry, ordered so both rows mirror."""
        if e.letter in COMBINED:
            first, second = COMBINED[e.letter]
            if e.opponent is not None and pair > e.opponent:
                first, second = _mirror_order(first, second)
            return first, second
        code = SINGLE[e.letter]
        return code, code

    def opponent_ok(self, e: _Entry, code: str, pair: int, known: set[int]) -> bool:
        if code in PLAYED and e.opponent is None:
            self.fail(e.where, f"a played game ({e.letter}) needs the opponent's pair number "
                      "in the second field")
            return False
        if e.opponent is not None and code in WITH_OPPONENT:
            if e.opponent == pair:
                self.fail(e.where, f"opponent {e.opponent} is the player's own pair number")
                return False
            if e.opponent not in known:
                self.fail(e.where, f"opponent {e.opponent} is not a pair number of this "
                          "section")
                return False
        return True

    # --- small values -------------------------------------------------------------------

    def text(self, obj: Mapping[str, Any], key: str, where: str) -> str:
        value = obj.get(key, "")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        if not isinstance(value, str):
            self.fail(f"{where}.{key}", f"expected text, found {kind_of(value)}")
            return ""
        return value.strip()

    def calendar_date(self, value: Any, where: str) -> date | None:
        if value is None or value == "":
            return None
        if isinstance(value, str):
            for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%m/%d/%y"):
                try:
                    return datetime.strptime(value.strip(), fmt).date()
                except ValueError:
                    continue
        self.fail(where, f"{value!r} is not a date: expected YYYY-MM-DD or MM/DD/YY(YY)")
        return None


def _mirror_order(first: str, second: str) -> tuple[str, str]:
    """The higher pair number's games in the lower one's order: W L becomes L W, so that
    '#' (W D) and '=' (D L -> L D) line up game by game."""
    return second, first


