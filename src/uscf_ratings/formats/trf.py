"""FIDE Tournament Report File: TRF16, TRF-2026 ("TRF26"), the older Krause files and the
common program extensions.

Format notes: ``shared/spec/file-formats.md``, "FIDE TRF"; real files and their oddities:
``shared/formats/trf/MANIFEST.md``. A TRF file is one event with one section.

Reading (`read`):

* Lines end in CR, LF or CR LF; a TAB counts as one space; ``###`` lines are comments
  (TRF26); record codes we do not use are ignored, as the format asks (``XXC``, ``XXS``,
  ``BB*``, ``DAT``, team records ``013``/``310``/..., byes ``240``, and so on).
* ``001`` player lines are read by their fixed columns: starting rank 5-8, name 15-47,
  FIDE rating 49-52, birth date 70-79, and round *n* at 92 + 10(n-1): opponent (4),
  colour, result. A line whose columns do not fit that grid (a whitespace-collapsed
  export, shifted columns) is read token by token instead; when neither works, each cell
  that does not fit is an issue naming its line and columns.
* Result codes to US Chess codes (the TRF26 table; 2025 US Chess text: games in which a
  player makes no move are not rated):

  ====================  =============================================================
  ``1`` ``0`` ``=``     W, L, D: a rated game against the opponent in columns 92-95
  ``+`` ``-``           X, F: forfeit win and loss, the opponent kept when given
  ``W`` ``L``           X, F: a game of less than one move is not rated, the score kept
  ``D``                 H: an unrated half point (no opponent: H is a bye in our codes)
  ``H``                 H: half-point bye
  ``F`` ``U``           B: full-point bye, and the pairing-allocated bye, which scores
                        a win by default (TRF26 tag 162: P = W)
  ``Z``, blank          U: zero-point bye, unplayed
  ====================  =============================================================

* National Rating Support lines (TRF26) of federation ``USA`` carry the US Chess id
  (columns 58-68) into ``Player.id`` and the US Chess rating (49-52) into the section's
  main system (Regular for R and dual sections, else its one system). Other federations'
  national lines are ignored; without a USA line, Tornelo's ``DAT <rank> ID:USCF <id>``
  line (notes, "De-facto extensions") gives the id. The FIDE rating column goes to
  ``Player.fide``; a complete birth date to ``Player.birth_date``.
* Ratings without N: N = `ASSUMED_GAMES` = 26, ``games_known=False``, as for the
  US Chess report (see `uscf_ratings.formats.dbf`).
* Birth dates: only complete ones (``1978`` or ``1987/00/00`` are read as unknown).
* Dates: ``042``/``052``, else the first and last ``132`` round dates; one date serves
  for both. Styles read: ``2005/07/28``, ``2005.07.28``, ``28. 07. 2005``, ``24/09/2010``
  (day first, as European programs write), ``25/08/11`` (two-digit year first, as in
  ``132``), ``May 10, 2020``. A file with no date at all (pairing-engine tests) takes
  the ``event_date`` argument (``--date``); without one it is refused, saying so.
* Systems: none of the TRF records names a US Chess rating system. The time control is
  ``122`` (text), else ``222`` (TRF26's encoded ``5400+30``, converted to ``G/90+30``).
  When it is a time control we can read, the section's systems are left to it (the
  engine picks them by the rules of the date); otherwise they are the ``systems``
  argument (``--systems``), else none: the section is read (its rating column as
  Regular) but not rated (`common.require_systems`).
* Section type: round robin when ``092`` or ``192`` says "round robin", else Swiss.
* The event's details (`core.model.EventDetails`, header records of the notes): ``022``
  the city, ``032`` the federation as the country (a three-letter code), ``102`` the
  chief arbiter, each ``112`` line a deputy arbiter (the other directors), as written,
  names only (TRF has no US Chess ids). A web address is a place, not a city or a
  person: in ``022`` it is the site; in ``102``/``112`` it is left out, as a ``032``
  that is no code (the Lichess exports write ``Lichess`` there). See `_Reader.details`.
* Event id: our ``XUS`` record (below), else the file name without its extension.

Writing (`write`) gives TRF16 with CR LF line ends: the header records ``012``, ``022``
(the city), ``032`` (a country given as a three-letter code), ``042``, ``052``, ``062``,
``092``, ``102`` and ``112`` (the directors by name, else by id), ``122``, ``XXR``, the
``001`` lines and a ``USA`` national
line for each player with a US Chess id or rating, and one extension record,
``XUS key=value ...`` (event id, section number and name, systems, type, K, online,
youth; values percent-encoded), which other programs ignore as an unknown code and which
lets our reader give the section back as it was. An event of several sections is written
as one file per section, ``<name>-s<number><extension>`` beside ``path``. Colours are not in
the model; a played game gets ``w`` for the lower pair number in odd rounds and for the
higher one in even rounds, the same on both players' lines. Byes and forfeits get ``-``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from urllib.parse import quote, unquote

from ..core.formulas import rounded_rating
from ..core.model import (
    SCORE,
    Director,
    Event,
    EventDetails,
    FideRating,
    KFactor,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from ..core.timecontrol import parse_time_control
from .bounds import positional_rounds, read_input
from .common import UNDATED, is_digits, main_system, undated, whole
from .errors import Issue, ParseError
from .event_details import director, directors, web_address

ASSUMED_GAMES = 26  #: N of a rating given without N, as in the US Chess report reader
US_FEDERATION = "USA"
#: a federation code of ``032`` (``ESP``, ``FID`` for FIDE itself), taken as the country
FEDERATION = re.compile(r"[A-Za-z]{3}")

#: TRF result code (upper case) -> US Chess code.
RESULTS = {"1": "W", "0": "L", "=": "D", "+": "X", "-": "F", "W": "X", "L": "F", "D": "H",
           "H": "H", "F": "B", "U": "B", "Z": "U", "": "U"}
PLAYED = "10="
COLOURS = "WB-"
#: Codes of program records that look like national lines (three capitals).
PROGRAM_PREFIXES = ("XX", "BB")
PROGRAM_CODES = {"DAT", "XUS"}
TYPE_TEXT = {SectionType.SWISS: "Individual: Swiss-System",
             SectionType.ROUND_ROBIN: "Individual: Round-Robin",
             SectionType.MATCH: "Individual: Match",
             SectionType.FIDE_FOREIGN: "Individual: Swiss-System"}


# ----------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------

def read(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """Read one TRF file as an event of one section. ``event_date`` is the date of a file
    that gives none (a file without a date is refused without it); ``systems`` those of a
    section whose file states neither systems nor a time control we can read (else none);
    ``data`` the file's bytes, when the caller has read them."""
    path = Path(path)
    return parse(read_input(path) if data is None else data, str(path), path.stem,
                 event_date=event_date, systems=systems)


def parse(data: bytes, source: str = "<trf>", stem: str = "trf", *,
          event_date: date | None = None, systems: tuple[System, ...] | None = None) -> Event:
    """Parse the bytes of a TRF file; ``stem`` is the event id when the file has none."""
    reader = _Reader(event_date, systems)
    event = reader.read(_lines(data), stem)
    if reader.issues or event is None:
        raise ParseError(source, sorted(reader.issues, key=_line_of))
    return event


def _line_of(issue: Issue) -> int:
    """Issues in the order of the file (those of no one line first)."""
    m = re.match(r"line ([0-9]+)", issue.where)
    return int(m[1]) if m else 0


def _lines(data: bytes) -> list[str]:
    for encoding in ("utf-8-sig", "cp1252", "latin-1"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    return [line.replace("\t", " ") for line in re.split(r"\r\n|\r|\n", text)]


@dataclass
class _Cell:
    opponent: int  #: 0 for none
    colour: str  #: W, B, - (blank reads as -)
    result: str  #: the TRF code, upper case; "" for blank
    where: str


@dataclass
class _PlayerLine:
    line: int
    pair: int
    name: str = ""
    fide: int | None = None
    birth: date | None = None
    cells: list[_Cell] = field(default_factory=list)


class _Reader:
    def __init__(self, event_date: date | None = None,
                 systems: tuple[System, ...] | None = None) -> None:
        self.event_date = event_date
        self.given_systems = systems
        self.issues: list[Issue] = []
        self.header: dict[str, str] = {}
        self.header_line: dict[str, int] = {}
        self.xus_line = 0
        self.round_dates: list[date] = []
        self.xus: dict[str, str] = {}
        self.players: list[_PlayerLine] = []
        self.nationals: list[tuple[int, str]] = []
        self.dat_ids: dict[int, str] = {}  #: US Chess ids from Tornelo's DAT lines
        self.deputies: list[str] = []  #: the 112 lines' text, in order

    def add(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))

    def read(self, lines: Sequence[str], stem: str) -> Event | None:
        for number, line in enumerate(lines, start=1):
            self.record(number, line)
        if not self.players:
            self.add("", "no player records: expected lines starting with 001")
            return None
        self.check_pairs()
        start, end = self.dates()
        time_control, tc_ok = self.time_control()
        systems = self.systems(tc_ok)
        main = main_system(systems, time_control, start, self.flag("online"))
        national = self.national_lines(main)
        pairs = {p.pair for p in self.players}
        players = tuple(self.player(p, pairs, national, main) for p in self.players)
        rounds = max((len(p.results) for p in players), default=0)
        players = tuple(_pad(p, rounds) for p in players)
        section = Section(
            number=self.int_value("section", 1), name=self.xus.get("section_name", ""),
            start_date=start, end_date=end, players=players, time_control=time_control,
            online=self.flag("online"), type=self.section_type(), systems=systems,
            k=self.k(), youth=self.flag("youth"))
        return Event(self.xus.get("event") or stem, start, end, (section,),
                     self.header.get("012", ""), section.online, self.details())

    # -- records -----------------------------------------------------------------------

    def record(self, number: int, line: str) -> None:
        code = line[:3]
        if not line.strip() or code == "###":
            return
        if code == "001":
            player = self.player_line(number, line)
            if player is not None:
                self.players.append(player)
        elif code == "132":  # a date per 10 columns from 92; some writers start at 93
            self.round_dates += [
                d for k in range(91, len(line), 10)
                if (d := self.day(line[k:k + 10], f"line {number}, columns {k + 1}-{k + 10}"))]
        elif code == "XUS":
            self.read_xus(number, line)
        elif code == "DAT":  # Tornelo: DAT 0002 ID:USCF 12345678
            tokens = line.split()
            if len(tokens) >= 4 and is_digits(tokens[1]) and tokens[2].upper() == "ID:USCF":
                self.dat_ids[int(tokens[1])] = tokens[3]
        elif code == "112":  # a deputy arbiter per line (TRF16), so each is kept
            self.deputies.append(line[4:].strip())
        elif re.fullmatch(r"[0-9][0-9]2", code) and code not in self.header:
            self.header[code] = line[4:].strip()
            self.header_line[code] = number
        elif _is_national(line):
            self.nationals.append((number, line))
        elif code == US_FEDERATION:  # our federation's line, unreadable: never dropped
            self.add(f"line {number}, columns 5-8", f"starting rank {line[4:8].strip()!r} of a "
                     "USA national record: expected digits, right-aligned")

    def read_xus(self, number: int, line: str) -> None:
        for token in line[4:].split():
            key, _, value = token.partition("=")
            self.xus[key] = unquote(value)
        self.xus_line = number

    def player_line(self, number: int, line: str) -> _PlayerLine | None:
        """A 001 line by its columns, else token by token; issues when neither works.

        Only a starting rank or a cell off the grid sends a line to the tokens: a bad value
        in a line that fits the grid (a FIDE rating of letters) is an issue as it is."""
        structure: list[Issue] = []
        values: list[Issue] = []
        player = _by_columns(number, line, structure, values)
        if structure:
            by_tokens = _by_tokens(number, line)
            if by_tokens is not None:
                return by_tokens
        self.issues += structure + values
        return player if player.pair else None

    def check_pairs(self) -> None:
        seen: dict[int, int] = {}
        for p in self.players:
            if p.pair in seen:
                self.add(f"line {p.line}, columns 5-8", f"starting rank {p.pair} is also on line "
                                                        f"{seen[p.pair]}")
            else:
                seen[p.pair] = p.line

    # -- header ------------------------------------------------------------------------

    def day(self, text: str, where: str) -> date | None:
        day, ok = parse_date(text)
        if not ok:
            self.add(where, f"{text.strip()!r} is not a date: expected YYYY/MM/DD (or "
                            "DD.MM.YYYY, DD/MM/YYYY, YY/MM/DD, 'May 10, 2020')")
        return day

    def dates(self) -> tuple[date, date]:
        start = self.day(self.header.get("042", ""), f"line {self.header_line.get('042')} (042)")
        end = self.day(self.header.get("052", ""), f"line {self.header_line.get('052')} (052)")
        if self.round_dates:
            start = start or min(self.round_dates)
            end = end or max(self.round_dates)
        start = start or end or self.event_date
        if start is None:
            self.issues.append(undated("", "a 042 start date, a 052 end date or 132 round "
                                           "dates"))
            start = UNDATED
        return start, end or start

    def details(self) -> EventDetails:
        """``022`` city, ``032`` federation (the country, as its three-letter code),
        ``102`` chief arbiter and each ``112`` deputy arbiter, as written (a name, often
        with a title or a FIDE id: ``IA Mikel Larreategi Arana (22232540)``); blank lines
        are no one. What the Lichess exports write there is not a place or a person: a
        web address in ``022`` is the site, one in ``102``/``112``
        (``https://lichess.org/swiss``) is left out, and so is a ``032`` that is no
        three-letter code (``Lichess``)."""
        place = self.header.get("022", "")
        chief = self.header.get("102", "")
        federation = self.header.get("032", "")

        def arbiter(text: str) -> Director | None:
            return None if web_address(text) else director(name=text)

        return EventDetails(
            city="" if web_address(place) else place,
            site=place if web_address(place) else "",
            country=federation if FEDERATION.fullmatch(federation) else "",
            chief_director=arbiter(chief),
            other_directors=directors(arbiter(text) for text in self.deputies))

    def time_control(self) -> tuple[str | None, bool]:
        """The time control text and whether the engine can read it."""
        text = self.header.get("122", "")
        if _readable(text):
            return text, True
        encoded = decode_time_control(self.header.get("222", ""))
        if encoded and _readable(encoded):
            return encoded, True
        return (text or self.header.get("222", "") or None), False

    def systems(self, tc_ok: bool) -> tuple[System, ...] | None:
        if "systems" in self.xus:
            try:
                return tuple(System(s) for s in self.xus["systems"].split(",") if s)
            except ValueError:
                self.add(f"line {self.xus_line}", f"systems {self.xus['systems']!r}: expected "
                                                  "R, Q, B, OR, OQ, OB separated by commas")
        return None if tc_ok else self.given_systems

    def section_type(self) -> SectionType:
        if "type" in self.xus:
            try:
                return SectionType(self.xus["type"])
            except ValueError:
                self.add(f"line {self.xus_line}", f"type {self.xus['type']!r}: expected one of "
                         + ", ".join(t.value for t in SectionType))
        words = (self.header.get("092", "") + " " + self.header.get("192", "")).lower()
        return SectionType.ROUND_ROBIN if re.search(r"round[\s_-]*robin", words) else SectionType.SWISS

    def k(self) -> KFactor:
        try:
            return KFactor(self.xus.get("k", "full"))
        except ValueError:
            self.add(f"line {self.xus_line}", f"k {self.xus['k']!r}: expected full or half")
            return KFactor.FULL

    def flag(self, key: str) -> bool:
        return self.xus.get(key, "no") == "yes"

    def int_value(self, key: str, default: int) -> int:
        value = self.xus.get(key)
        if value is None:
            return default
        if not is_digits(value):
            self.add(f"line {self.xus_line}", f"{key} {value!r}: expected a whole number")
            return default
        return int(value)

    # -- players -----------------------------------------------------------------------

    def national_lines(self, main: System) -> dict[int, tuple[str, Rating | None]]:
        """US Chess id and rating by starting rank, from the USA national lines."""
        known = {p.pair for p in self.players}
        out: dict[int, tuple[str, Rating | None]] = {}
        for number, line in self.nationals:
            if line[:3] != US_FEDERATION:
                continue
            pair = int(line[4:8])
            if pair not in known:
                self.add(f"line {number}, columns 5-8", f"national record for starting rank "
                                                        f"{pair}, which has no 001 line")
                continue
            rating = None
            text = line[48:52].strip()
            if text and not is_digits(text):
                self.add(f"line {number}, columns 49-52", f"national rating {text!r}: expected "
                                                          "digits")
            elif text and int(text) > 0:
                rating = Rating(float(text), ASSUMED_GAMES, games_known=False)
            out[pair] = (line[57:68].strip(), rating)
        return out

    def player(self, p: _PlayerLine, pairs: set[int],
               national: dict[int, tuple[str, Rating | None]], main: System) -> Player:
        member, rating = national.get(p.pair, ("", None))
        member = member or self.dat_ids.get(p.pair, "")
        results = tuple(self.result(c, rnd, p.pair, pairs)
                        for rnd, c in enumerate(p.cells, start=1))
        return Player(pair=p.pair, id=member, name=p.name,
                      birth_date=p.birth, ratings={} if rating is None else {main: rating},
                      fide=FideRating(float(p.fide)) if p.fide else None, results=results)

    def result(self, cell: _Cell, rnd: int, pair: int, pairs: set[int]) -> Result:
        code = RESULTS[cell.result]
        opponent = cell.opponent or None
        if cell.result and cell.result in PLAYED and opponent is None:
            self.add(cell.where, f"result {cell.result!r} is a played game but the opponent is "
                                 "0000 or blank: expected the opponent's starting rank")
            return Result(rnd, "U")
        if code in "HBU":
            return Result(rnd, code)
        if opponent is not None and opponent not in pairs:
            self.add(cell.where, f"opponent {opponent} has no 001 line")
        elif opponent == pair:
            self.add(cell.where, f"opponent {opponent} is the player's own starting rank")
        return Result(rnd, code, opponent)


def _pad(p: Player, rounds: int) -> Player:
    """Every player gets a cell per round of the section: missing trailing cells are U."""
    if len(p.results) >= rounds:
        return p
    extra = tuple(Result(n, "U") for n in range(len(p.results) + 1, rounds + 1))
    return replace(p, results=p.results + extra)


def _is_national(line: str) -> bool:
    """A TRF26 national rating line: a federation code, then a starting rank at 5-8."""
    code = line[:3]
    return (re.fullmatch(r"[A-Z]{3}", code) is not None and code not in PROGRAM_CODES
            and not code.startswith(PROGRAM_PREFIXES) and line[3:4] in ("", " ")
            and re.fullmatch(r" *[0-9]+", line[4:8]) is not None)


# -- 001 lines by columns -------------------------------------------------------------------

def _by_columns(number: int, line: str, problems: list[Issue],
                values: list[Issue]) -> _PlayerLine:
    """The line by its columns; ``problems`` gets what does not fit the grid, ``values``
    what fits but is wrong."""
    here = f"line {number}"
    pair_text = line[4:8]
    pair_ok = line[3:4] == " " and re.fullmatch(r" *[1-9][0-9]*", pair_text) is not None
    if not pair_ok:
        problems.append(Issue(f"{here}, columns 5-8", f"starting rank {pair_text.strip()!r}: "
                                                      "expected a number from 1, right-aligned"))
    fide_text = line[48:52].strip()
    if fide_text and not is_digits(fide_text):
        values.append(Issue(f"{here}, columns 49-52", f"FIDE rating {fide_text!r}: expected "
                                                      "digits or blanks"))
    if line[89:91].strip():
        problems.append(Issue(f"{here}, columns 90-91", f"{line[89:91]!r} where the round "
                                                        "cells start: expected blanks"))
    player = _PlayerLine(number, int(pair_text) if pair_ok else 0,
                         line[14:47].strip(), whole(fide_text),
                         _birth(line[68:80]))
    end = len(line.rstrip())
    for k, start in enumerate(range(91, end, 10), start=1):
        cell = _grid_cell(line, start, f"{here}, columns {start + 1}-{start + 8} (round {k})",
                          problems)
        player.cells.append(cell)
    return player


def _grid_cell(line: str, start: int, where: str, problems: list[Issue]) -> _Cell:
    """The cell at columns start+1 .. start+8 (0-based ``start``): opponent, colour, result."""
    seg = line[start:start + 8].ljust(8)
    opp, colour, result = seg[0:4], seg[5].upper(), seg[7].strip().upper()
    bad = []
    if not re.fullmatch(r" *[0-9]*", opp):
        bad.append(f"opponent {opp!r} (expected a starting rank, 0000 or blanks)")
    if colour not in COLOURS + " ":
        bad.append(f"colour {seg[5]!r} (expected w, b, - or blank)")
    if result not in RESULTS:
        bad.append(f"result {seg[7]!r} (expected one of 1 0 = + - W D L H F U Z or blank)")
    if (seg[4] + seg[6] + line[start + 8:start + 10]).strip():
        bad.append("text between the fields (expected blanks at the 5th and 7th column of "
                   "the cell and after it)")
    if bad:
        problems.append(Issue(where, "cell " + repr(seg.rstrip()) + " cannot be read: "
                              + "; ".join(bad)))
        return _Cell(0, "-", "", where)
    return _Cell(int(opp) if opp.strip() else 0, colour.strip() or "-", result, where)


# -- 001 lines token by token ---------------------------------------------------------------

TITLES = {"GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM", "G", "M", "F", "WG", "WM", "WF",
          "C", "WC"}
_POINTS = re.compile(r"^[0-9]{1,3}\.[0-9]$")


def _by_tokens(number: int, line: str) -> _PlayerLine | None:
    """A whitespace-collapsed or shifted 001 line (Tornelo's sample: ``001 1 m g
    Mirzoev,Azer 2527 AZE ...``): the starting rank, the static fields up to the points,
    then the cells. None when the tokens do not make such a line."""
    tokens = line.split()
    if len(tokens) < 2 or tokens[0] != "001" or not is_digits(tokens[1]):
        return None
    points_at = next((i for i in range(2, len(tokens)) if _POINTS.match(tokens[i])), None)
    if points_at is None:
        return None
    player = _static_tokens(number, int(tokens[1]), tokens[2:points_at])
    cells = _cell_tokens(tokens[points_at + 1:], float(tokens[points_at]))
    if cells is None:
        return None
    where = f"line {number} (read token by token)"
    player.cells = [_Cell(o, c, r, f"{where}, round {k}") for k, (o, c, r) in enumerate(cells, 1)]
    return player


def _static_tokens(number: int, pair: int, tokens: list[str]) -> _PlayerLine:
    """Name and FIDE rating from the tokens between the starting rank and the points:
    [sex] [title] name... [rating] [federation] [FIDE id] [birth date]."""
    rest = list(tokens)
    birth = None
    if rest and re.fullmatch(r"[0-9]{4}([./][0-9]{2}[./][0-9]{2})?|[0-9]{2}[./][0-9]{2}[./][0-9]{4}",
                             rest[-1]):
        birth = _birth(rest.pop())
    if len(rest) > 1 and re.fullmatch(r"[0-9]{5,11}", rest[-1]):
        rest.pop()  # FIDE id
    if rest and re.fullmatch(r"[A-Z]{3}", rest[-1]):
        rest.pop()  # federation
    fide = int(rest.pop()) if len(rest) > 1 and re.fullmatch(r"[0-9]{1,4}", rest[-1]) else None
    if len(rest) > 1 and rest[0].lower() in ("m", "w", "f", "u"):
        rest.pop(0)
    if len(rest) > 1 and rest[0].upper() in TITLES:
        rest.pop(0)
    return _PlayerLine(number, pair, " ".join(rest), fide or None, birth)


def _cell_tokens(tokens: list[str], points: float) -> list[tuple[int, str, str]] | None:
    """Split the tokens after the points into cells; the first may be the rank.

    A cell is ``opponent colour result``, ``colour result``, ``opponent colour`` (paired,
    no result yet) or ``result`` alone (``H``, ``-``). Several splits may fit; the one whose
    score equals the points wins, then the one with more opponents, then the one with a rank.
    """
    candidates = []
    for has_rank in (True, False):
        if has_rank and not (tokens and is_digits(tokens[0])):
            continue
        cells = _split_cells(tokens[1:] if has_rank else tokens)
        if cells is not None:
            score = sum(_TRF_POINTS.get(r, 0.0) for _, _, r in cells)
            opponents = sum(1 for o, _, _ in cells if o)
            candidates.append((score == points, opponents, has_rank, cells))
    if not candidates:
        return None
    return max(candidates, key=lambda c: c[:3])[3]


_TRF_POINTS = {"1": 1.0, "+": 1.0, "W": 1.0, "F": 1.0, "U": 1.0, "=": 0.5, "D": 0.5, "H": 0.5}


def _split_cells(tokens: list[str]) -> list[tuple[int, str, str]] | None:
    """The first full split of ``tokens`` into cells, trying longer cells first (worked
    from the end, so that long lines need no recursion)."""

    def opp(t: str) -> bool:
        return re.fullmatch(r"[0-9]{1,4}", t) is not None

    def colour(t: str) -> bool:
        return t.upper() in ("W", "B", "-")

    def result(t: str) -> bool:
        return len(t) == 1 and t.upper() in RESULTS

    def options(i: int) -> list[tuple[int, tuple[int, str, str]]]:
        t = tokens[i:i + 3]
        found = []
        if len(t) == 3 and opp(t[0]) and colour(t[1]) and result(t[2]):
            found.append((3, (int(t[0]), t[1].upper(), t[2].upper())))
        if len(t) >= 2 and opp(t[0]) and t[1].lower() in ("w", "b"):
            found.append((2, (int(t[0]), t[1].upper(), "")))
        if len(t) >= 2 and colour(t[0]) and result(t[1]):
            found.append((2, (0, t[0].upper(), t[1].upper())))
        if result(t[0]):
            found.append((1, (0, "-", t[0].upper())))
        return found

    n = len(tokens)
    choice: list[tuple[int, tuple[int, str, str]] | None] = [None] * (n + 1)
    complete = [False] * n + [True]  # complete[i]: tokens[i:] split into cells
    for i in range(n - 1, -1, -1):
        for size, cell in options(i):
            if complete[i + size]:
                choice[i], complete[i] = (size, cell), True
                break
    if not complete[0]:
        return None
    cells, i = [], 0
    while i < n:
        step = choice[i]
        assert step is not None  # complete[i] holds at each i reached from 0: a cell was chosen
        size, cell = step
        cells.append(cell)
        i += size
    return cells


# -- dates and time controls ----------------------------------------------------------------

MONTHS = {m: i for i, m in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
_DATES = (
    (re.compile(r"([0-9]{4})\s*[/.-]\s*([0-9]{1,2})\s*[/.-]\s*([0-9]{1,2})"), "ymd"),
    (re.compile(r"([0-9]{1,2})\s*[/.-]\s*([0-9]{1,2})\s*[/.-]\s*([0-9]{4})"), "dmy"),
    (re.compile(r"([0-9][0-9])/([0-9][0-9])/([0-9][0-9])"), "ymd"),  # 132 round dates: YY/MM/DD
    (re.compile(r"([A-Za-z]{3})[a-z]*\.?\s+([0-9]{1,2}),?\s+([0-9]{4})"), "mdy"),
    (re.compile(r"([0-9]{1,2})\.?\s+([A-Za-z]{3})[a-z]*\.?\s+([0-9]{4})"), "dmy"),
)


def parse_date(text: str) -> tuple[date | None, bool]:
    """A date in any of the styles seen in TRF files: (date, True), (None, True) for a
    blank, (None, False) for text that is not a date."""
    text = text.strip()
    if not text:
        return None, True
    for pattern, order in _DATES:
        m = pattern.fullmatch(text)
        if m is None:
            continue
        parts = dict(zip(order, m.groups(), strict=True))
        month = MONTHS.get(parts["m"][:3].lower()) if parts["m"].isalpha() else int(parts["m"])
        year = int(parts["y"])
        year += 0 if year >= 100 else 2000 if year < 70 else 1900
        try:
            return date(year, month or 0, int(parts["d"])), True
        except ValueError:
            return None, False
    return None, False


def _birth(text: str) -> date | None:
    """A complete birth date, else None (files give ``1978``, ``1987/00/00``, blanks)."""
    day, _ = parse_date(text)
    return day


def _readable(text: str) -> bool:
    if not text:
        return False
    try:
        parse_time_control(text)
    except ValueError:
        return False
    return True


def decode_time_control(code: str) -> str | None:
    """TRF26 tag 222 (``5400+30``, ``40/6000+30:900+30``: seconds) in US Chess notation
    (``G/90+30``, ``40/100,SD/15+30``); None for what has no such form (Armageddon)."""
    code = code.strip()
    if not code:
        return None
    parts, increment = [], None
    periods = code.split(":")
    for i, period in enumerate(periods):
        m = re.fullmatch(r"(?:([0-9]{1,9})/)?([0-9]{1,9})(?:\+([0-9]{1,9}))?", period)
        if m is None:
            return None
        minutes = f"{int(m[2]) / 60:g}"
        if m[1]:
            parts.append(f"{m[1]}/{minutes}")
        else:
            parts.append(("G/" if i == 0 else "SD/") + minutes)
        increment = m[3] if m[3] is not None else increment
    return ",".join(parts) + (f"+{increment}" if increment else "")


# ----------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------

TRF_CODES = {"W": "1", "L": "0", "D": "=", "X": "+", "F": "-", "H": "H", "B": "F", "U": "Z"}


def write(event: Event, path: Path | str) -> list[Path]:
    """Write ``event`` as TRF16: one file, or one per section (``<stem>-s<N><suffix>``);
    the paths written, in section order."""
    path = Path(path)
    targets = [(event.sections[0], path)] if len(event.sections) == 1 else [
        (s, path.with_name(f"{path.stem}-s{s.number}{path.suffix or '.trf'}"))
        for s in event.sections]
    texts = [(target, section_text(event, s)) for s, target in targets]
    for target, text in texts:
        target.write_bytes(text.encode("utf-8"))
    return [target for target, _ in texts]


def section_text(event: Event, s: Section) -> str:
    """One section as the text of a TRF16 file, lines ending in CR LF."""
    problems = _check(s)
    if problems:
        raise ValueError(f"cannot write section {s.number} as TRF:\n" + "\n".join(problems))
    rounds = positional_rounds(s, "TRF")
    main = main_system(s.systems, s.time_control, s.start_date, s.online or event.online)
    xus = {"event": event.id, "section": str(s.number), "type": s.type.value, "k": s.k.value,
           "online": "yes" if s.online or event.online else "no",
           "youth": "yes" if s.youth else "no", "section_name": s.name}
    if s.systems:
        xus["systems"] = ",".join(x.value for x in s.systems)
    lines = [f"012 {event.name}", *_place_lines(event.details),
             f"042 {s.start_date:%Y/%m/%d}", f"052 {s.end_date:%Y/%m/%d}",
             f"062 {len(s.players)}", f"092 {TYPE_TEXT[s.type]}", *_arbiter_lines(event.details)]
    if s.time_control:
        lines.append(f"122 {s.time_control}")
    lines.append(f"XXR {rounds}")
    lines.append("XUS " + " ".join(f"{k}={quote(v, safe=',')}" for k, v in xus.items()))
    points = {p.pair: _points(p) for p in s.players}
    ranks = {pair: 1 + sum(1 for q in points.values() if q > pts) for pair, pts in points.items()}
    for p in s.players:
        lines.append(_line_001(p, points[p.pair], ranks[p.pair], rounds))
    for p in s.players:
        rating = p.ratings.get(main)
        if p.id or rating:
            shown = str(rounded_rating(rating.rating)) if rating else ""
            lines.append(f"{US_FEDERATION} {p.pair:>4} {'':>4} {'':<33} {shown:>4} {'':<3} "
                         f"{p.id:>11}")
    return "\r\n".join(lines) + "\r\n"


def _place_lines(details: EventDetails) -> list[str]:
    """``022`` the city (or a web address, the site of an online event), ``032`` the
    country when it is a federation code (three capitals): what the reader gives back."""
    place = details.city or (details.site if web_address(details.site) else "")
    lines = [f"022 {place}"] if place else []
    if FEDERATION.fullmatch(details.country):
        lines.append(f"032 {details.country}")
    return lines


def _arbiter_lines(details: EventDetails) -> list[str]:
    """``102`` the chief director, ``112`` the assistant and the others, one a line, each
    by name (TRF has no US Chess ids: a director known by id alone is written by it)."""
    def shown(d: Director) -> str:
        return d.name or d.id

    lines = [f"102 {shown(details.chief_director)}"] if details.chief_director else []
    deputies = [d for d in (details.assistant_director, *details.other_directors) if d]
    return lines + [f"112 {shown(d)}" for d in deputies]


def _check(s: Section) -> list[str]:
    problems = []
    for p in s.players:
        label = f"pair {p.pair}"
        if not 1 <= p.pair <= 9999:
            problems.append(f"{label}: a starting rank is 1 to 9999")
        if len(p.name) > 33:
            problems.append(f"{label}: name {p.name!r} has {len(p.name)} characters; TRF holds 33")
        if len(p.id) > 11 or " " in p.id:
            problems.append(f"{label}: member id {p.id!r} does not fit columns 58-68")
        ratings = [r.rating for r in p.ratings.values()] + ([p.fide.rating] if p.fide else [])
        if any(rounded_rating(r) > 9999 for r in ratings):
            problems.append(f"{label}: a rating over 9999 does not fit four columns")
    return problems


def _points(p: Player) -> float:
    bye = {"X": 1.0, "B": 1.0, "H": 0.5}
    return sum(SCORE.get(r.code, bye.get(r.code, 0.0)) for r in p.results)


def _line_001(p: Player, points: float, rank: int, rounds: int) -> str:
    fide = str(rounded_rating(p.fide.rating)) if p.fide else ""
    birth = f"{p.birth_date:%Y/%m/%d}" if p.birth_date else ""
    static = (f"001 {p.pair:>4} {'':1}{'':>3} {p.name:<33} {fide:>4} {'':<3} {'':>11} "
              f"{birth:<10} {points:4.1f} {rank:>4}")
    by_round = {r.round: r for r in p.results}
    cells = [_trf_cell(by_round.get(n, Result(n, "U")), p.pair) for n in range(1, rounds + 1)]
    return static + "".join("  " + c for c in cells)


def _trf_cell(r: Result, pair: int) -> str:
    """Eight columns: opponent (4), colour, result, with a blank between each."""
    code = TRF_CODES[r.code]
    if r.played and r.opponent is not None:
        white = (pair < r.opponent) == (r.round % 2 == 1)
        return f"{r.opponent:>4} {'w' if white else 'b'} {code}"
    opponent = f"{r.opponent:>4}" if r.code in "XF" and r.opponent else "0000"
    return f"{opponent} - {code}"
