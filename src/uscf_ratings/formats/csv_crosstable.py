"""A simple CSV crosstable, and its JSON equivalent: read and write.

The format is this project's own (docs/formats.md shows an example), made to be typed by
hand or exported from a spreadsheet:

* Lines starting with ``#`` before a table are metadata, ``# key: value``. Event keys:
  ``event_id``, ``event_name``, ``start_date`` (else the ``event_date`` argument,
  ``--date``; a file with neither is refused), ``end_date``, ``online``.
  ``# section: N`` starts a section; its keys: ``section_name``, ``section_start_date``,
  ``section_end_date``, ``time_control``, ``systems`` (``R``, ``R Q``, ...), ``type``
  (``swiss``, ``round_robin``, ``match``, ``fide_foreign``), ``k`` (``full``, ``half``),
  ``section_online``. A file without ``# section:`` has one section, number 1. Other
  ``#`` lines are comments.
* Then a header row and one row per player. Columns: ``pair`` (required), ``id``,
  ``name``, ``rating`` and ``games``, then ``round1``, ``round2``, ... Optional columns:
  ``rating_R``/``games_R`` (and ``_Q``, ``_B``, ``_OR``, ``_OQ``, ``_OB``) for a rating in
  one system, ``fide`` (a FIDE rating), ``birth_date``.
* ``rating`` is the player's rating in the section's main system: R when the section is
  rated in R (dual rating included), else its one system (Q, B, OR, ...), from its
  ``systems`` or else its time control. Blank, 0 or ``unr`` is unrated;
  ``1456P12`` or ``1456/12`` is provisional with N = 12. ``games`` is N; blank means not
  known, read as N = 26 with ``games_known=False`` (assumed established).
* A round cell is a US Chess code: ``W12``, ``L3``, ``D5`` (rated games, with the
  opponent's pair number), ``X``/``X7`` and ``F``/``F7`` (forfeits), ``H``, ``B``, ``U``;
  a blank cell is a round with nothing recorded.

The JSON flavour holds the same things: ``{"format": "uscf-crosstable", "event": {"id",
"name", "start_date", "end_date", "online"}, "sections": [{"number", "name",
"start_date", "end_date", "time_control", "systems": [...], "type", "k", "online",
"players": [{"pair", "id", "name", "rating", "games", "rating_R", ..., "results": [...]}]}]}``:
a player object has the CSV columns as keys and ``results`` as a list of cells.

The format has no keys for the event's details (site, affiliate, directors): the writer
leaves them out, and `uscf convert` warns of each (formats/losses.py).

Errors name the line and column (CSV) or the JSON path, and every one is reported.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from ..core.model import (
    RESULT_CODES,
    Event,
    FideRating,
    KFactor,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from ..core.rules import rules_for
from ..core.timecontrol import parse_time_control, systems_for
from ..core.validate import MAX_RATING
from .bounds import MAX_NUMBER_CHARS, MAX_PLAYERS, MAX_RESULTS, positional_rounds, read_input, too_many
from .common import decimal, load_json, main_system, undated, utf8_text, whole
from .errors import Issue, ParseError

FORMAT_MARK = "uscf-crosstable"
EVENT_KEYS = ("event_id", "event_name", "start_date", "end_date", "online")
SECTION_KEYS = ("section", "section_name", "section_start_date", "section_end_date",
                "time_control", "systems", "type", "k", "section_online")
BASE_COLUMNS = ("pair", "id", "name", "rating", "games", "fide", "birth_date")
SYSTEM_COLUMNS = tuple(f"{kind}_{s.value}" for s in System for kind in ("rating", "games"))
_META = re.compile(r"#\s*(?P<key>[a-z_]+)\s*:\s*(?P<value>.*)")
_ROUND = re.compile(r"round(?P<n>[1-9][0-9]{0,%d})" % (MAX_NUMBER_CHARS - 1))
_CELL = re.compile(r"(?P<code>[A-Za-z])\s*(?P<opp>[0-9]{0,%d})" % MAX_NUMBER_CHARS)
_RATING = re.compile(r"(?P<r>[0-9]{1,%d}(?:\.[0-9]{1,%d})?)\s*(?:(?:[Pp]|/)\s*(?P<n>[0-9]{1,%d}))?"
                     % (MAX_NUMBER_CHARS, MAX_NUMBER_CHARS, MAX_NUMBER_CHARS))
_UNRATED = {"", "0", "unr", "unr.", "unrated"}
_TRUE, _FALSE = {"true", "yes", "1"}, {"false", "no", "0", ""}
CELL_HELP = ("expected a US Chess code: W, L or D with the opponent's pair number (W12), "
             "X or F with an optional pair number, H, B or U")


# --- public API ---------------------------------------------------------------------------


def read(path: Path | str, *, event_date: date | None = None,
         systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """Read a CSV crosstable or its JSON equivalent (chosen by the content).
    ``event_date``: the start date of a file without ``start_date``; ``systems``: those
    of sections with neither ``systems`` nor a time control we can read; ``data``: the
    file's bytes, if already read."""
    path = Path(path)
    text = utf8_text(read_input(path) if data is None else data, str(path))
    if text.lstrip().startswith(("{", "[")):
        return parse_json(text, str(path), event_date=event_date, systems=systems)
    return parse_csv(text, str(path), event_date=event_date, systems=systems)


def write(event: Event, path: Path | str, *, as_json: bool | None = None) -> list[Path]:
    """Write ``event`` as CSV, or as the JSON flavour when ``as_json`` (by default: when
    ``path`` ends in ``.json``); the path written."""
    path = Path(path)
    if path.suffix.lower() == ".json" if as_json is None else as_json:
        path.write_text(json.dumps(to_json(event), indent=2) + "\n", encoding="utf-8")
    else:
        path.write_text(to_csv(event), encoding="utf-8")
    return [path]


def claims(text: str) -> bool:
    """Whether the start of a JSON text is this format's JSON flavour (for sniffing).

    The event JSON of event_json.py has the same top level, so this looks for the format
    mark or for players with a ``rating`` of their own and no ``ratings`` object."""
    if re.search(r'"format"\s*:\s*"' + FORMAT_MARK + '"', text):
        return True
    if '"players"' not in text or any(k in text for k in ('"ratings"', '"tnmt"', '"Overview"')):
        return False  # event JSON, WinTD, SwissSys
    return re.search(r'"(rating|games)(_[A-Z]{1,2})?"\s*:', text) is not None


def parse_csv(text: str, source: str = "<csv>", *, event_date: date | None = None,
              systems: tuple[System, ...] | None = None) -> Event:
    issues: list[Issue] = []
    try:
        raw = _CsvScanner(issues).scan(text)
    except _TooMany as error:
        raise ParseError(source, [error.issue]) from None
    return _build(raw, issues, source, event_date, systems)


def parse_json(text: str, source: str = "<json>", *, event_date: date | None = None,
               systems: tuple[System, ...] | None = None) -> Event:
    data = load_json(text, source)
    issues: list[Issue] = []
    raw = _json_scan(data, issues)
    return _build(raw, issues, source, event_date, systems)


# --- the neutral form both flavours are read into ----------------------------------------


#: each result code, one string shared by every result that has it
_CODES = {code: code for code in RESULT_CODES}


class _Value:
    """A cell's text and where it is. A CSV cell's place is kept as its line, column and
    column name, and written out only when a message names it: a string per cell would
    be most of the reader's memory (docs/formats.md, "The ceiling")."""

    __slots__ = ("text", "_place", "_column", "_name")

    def __init__(self, text: str, where: str | int, column: int = 0, name: str = ""):
        self.text = text
        self._place, self._column, self._name = where, column, name

    @property
    def where(self) -> str:
        """``line 12, column 5 (round3)`` for a CSV cell, else the place as given."""
        if isinstance(self._place, str):
            return self._place
        return f"line {self._place}, column {self._column} ({self._name})"


@dataclass
class _RawSection:
    where: str
    from_csv: bool = True
    meta: dict[str, _Value] = field(default_factory=dict)
    columns: list[str] = field(default_factory=list)
    rows: list[dict[str, _Value]] = field(default_factory=list)
    #: per row: (round, cell, where)
    cells: list[list[tuple[int, _Value]]] = field(default_factory=list)
    #: each round column's number, read once (one int for every row's cell)
    round_numbers: dict[str, int] = field(default_factory=dict)


@dataclass
class _Raw:
    meta: dict[str, _Value] = field(default_factory=dict)
    sections: list[_RawSection] = field(default_factory=list)


class _TooMany(Exception):
    """More rows or result cells than one file may have: the scan stops at once."""

    def __init__(self, issue: Issue):
        self.issue = issue


class _CsvScanner:
    """Splits the CSV text into metadata, header and rows, keeping line and column. It
    stops at the first row past `bounds.MAX_PLAYERS` rows or `bounds.MAX_RESULTS` result
    cells: a row of a few bytes costs more than a hundred times its size once read, so
    the limits are held as the rows come, not once they are all read."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues
        self.rows = 0
        self.results = 0

    def scan(self, text: str) -> _Raw:
        raw = _Raw()
        current: _RawSection | None = None
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped.strip(","):
                continue
            if stripped.startswith("#"):
                current = self.meta(stripped, number, raw, current)
                continue
            if current is None:
                current = _RawSection(f"line {number}")
                raw.sections.append(current)
            fields = next(csv.reader([line]))
            if not current.columns:
                current.columns = self.header(fields, number)
            else:
                self.row(fields, number, current)
        return raw

    def meta(self, line: str, number: int, raw: _Raw,
             current: _RawSection | None) -> _RawSection | None:
        match = _META.fullmatch(line)
        if match is None:
            return current  # a comment
        key, value = match["key"], _Value(match["value"].strip(), f"line {number}")
        if key == "section":
            current = _RawSection(f"line {number}", meta={"section": value})
            raw.sections.append(current)
        elif key in SECTION_KEYS:
            if current is None or current.columns:
                if current is None and not raw.sections:
                    current = _RawSection(f"line {number}")
                    raw.sections.append(current)
                else:
                    self.issues.append(Issue(f"line {number}", f"'{key}' must come before "
                                             "the section's header row"))
                    return current
            current.meta[key] = value
        elif key in EVENT_KEYS:
            if any(s.columns or "section" in s.meta for s in raw.sections):
                self.issues.append(Issue(f"line {number}", f"event key '{key}' must come "
                                         "before the first section"))
            raw.meta[key] = value
        else:
            self.issues.append(Issue(f"line {number}", f"unknown metadata key '{key}': "
                                     f"expected one of {', '.join(EVENT_KEYS + SECTION_KEYS)}"))
        return current

    def header(self, fields: Sequence[str], number: int) -> list[str]:
        columns = [_column(f) for f in fields]
        for col, name in enumerate(columns, start=1):
            if name in columns[:col - 1]:
                self.issues.append(Issue(f"line {number}, column {col}", f"column {name!r} "
                                         "is given twice"))
            if name not in BASE_COLUMNS and name not in SYSTEM_COLUMNS \
                    and not _ROUND.fullmatch(name):
                self.issues.append(Issue(f"line {number}, column {col}", f"unknown column "
                                         f"{fields[col - 1].strip()!r}: expected pair, id, name, "
                                         "rating, games, rating_R (...), fide, birth_date or "
                                         "round1, round2, ..."))
        return columns

    def row(self, fields: Sequence[str], number: int, section: _RawSection) -> None:
        values: dict[str, _Value] = {}
        cells: list[tuple[int, _Value]] = []
        for col, text in enumerate(fields, start=1):
            if col > len(section.columns):
                if text.strip():
                    self.issues.append(Issue(f"line {number}, column {col}", f"cell {text!r} "
                                             f"has no column: the header has "
                                             f"{len(section.columns)} columns"))
                continue
            name = section.columns[col - 1]
            round_number = section.round_numbers.get(name)
            if round_number is None and (round_match := _ROUND.fullmatch(name)):
                round_number = section.round_numbers[name] = int(round_match["n"])
            if round_number is not None:
                cells.append((round_number, _Value(text, number, col, name)))
            else:
                values[name] = _Value(text.strip(), number, col, name)
        values.setdefault("pair", _Value("", number, 1, "pair"))
        self.rows += 1
        self.results += sum(1 for _, cell in cells if cell.text.strip())
        if self.rows > MAX_PLAYERS:
            raise _TooMany(Issue(f"line {number}", too_many(self.rows, "rows of players",
                                                             MAX_PLAYERS)))
        if self.results > MAX_RESULTS:
            raise _TooMany(Issue(f"line {number}", too_many(self.results, "results",
                                                             MAX_RESULTS)))
        section.rows.append(values)
        section.cells.append(cells)


def _column(text: str) -> str:
    """A header cell as a column name: lower case, but rating_R keeps its system letters."""
    name = text.strip().lower()
    kind, _, system = name.partition("_")
    if kind in ("rating", "games") and system:
        return f"{kind}_{system.upper()}"
    return name


def _json_scan(data: Any, issues: list[Issue]) -> _Raw:
    """The JSON flavour into the neutral form (paths as 'where')."""
    raw = _Raw()
    if not isinstance(data, dict):
        issues.append(Issue("(top level)", "expected an object with 'event' and 'sections'"))
        return raw
    event = data.get("event", {})
    if not isinstance(event, dict):
        issues.append(Issue("event", "expected an object"))
        event = {}
    names = {"id": "event_id", "name": "event_name", "start_date": "start_date",
             "end_date": "end_date", "online": "online"}
    for key, value in event.items():
        if key not in names:
            issues.append(Issue(f"event.{key}", f"unknown key: expected {', '.join(names)}"))
        elif value is not None:
            raw.meta[names[key]] = _Value(_text(value), f"event.{key}")
    sections = data.get("sections")
    if not isinstance(sections, list):
        issues.append(Issue("sections", "missing: expected a list of sections"
                            if sections is None else "expected a list of sections"))
        return raw
    for i, s in enumerate(sections):
        raw.sections.append(_json_section(s, f"sections[{i}]", issues))
    return raw


def _json_section(s: Any, where: str, issues: list[Issue]) -> _RawSection:
    section = _RawSection(where, from_csv=False)
    if not isinstance(s, dict):
        issues.append(Issue(where, "expected a section object"))
        return section
    names = {"number": "section", "name": "section_name", "start_date": "section_start_date",
             "end_date": "section_end_date", "time_control": "time_control",
             "systems": "systems", "type": "type", "k": "k", "online": "section_online"}
    for key, value in s.items():
        if key == "players":
            continue
        if key not in names:
            issues.append(Issue(f"{where}.{key}", f"unknown key: expected "
                                f"{', '.join(names)} or players"))
        elif value is not None:
            text = " ".join(map(str, value)) if isinstance(value, list) else _text(value)
            section.meta[names[key]] = _Value(text, f"{where}.{key}")
    players = s.get("players")
    if not isinstance(players, list):
        issues.append(Issue(f"{where}.players", "missing: expected a list of players"
                            if players is None else "expected a list of players"))
        return section
    for j, p in enumerate(players):
        pwhere = f"{where}.players[{j}]"
        if not isinstance(p, dict):
            issues.append(Issue(pwhere, "expected a player object"))
            continue
        values: dict[str, _Value] = {"pair": _Value("", f"{pwhere}.pair")}
        cells: list[tuple[int, _Value]] = []
        for key, value in p.items():
            if key == "results":
                if not isinstance(value, list):
                    issues.append(Issue(f"{pwhere}.results", "expected a list of cells"))
                    continue
                cells = [(k, _Value(_text(c), f"{pwhere}.results[{k - 1}]"))
                         for k, c in enumerate(value, start=1)]
            elif key in BASE_COLUMNS or key in SYSTEM_COLUMNS:
                values[key] = _Value("" if value is None else _text(value), f"{pwhere}.{key}")
            else:
                issues.append(Issue(f"{pwhere}.{key}", "unknown key: expected pair, id, name, "
                                    "rating, games, rating_R (...), fide, birth_date, results"))
        section.rows.append(values)
        section.cells.append(cells)
    return section


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# --- building the model --------------------------------------------------------------------


def _build(raw: _Raw, issues: list[Issue], source: str, event_date: date | None = None,
           systems: tuple[System, ...] | None = None) -> Event:
    builder = _Builder(issues, event_date, systems)
    event = builder.event(raw)
    if issues:
        raise ParseError(source, issues)
    return event


class _Builder:
    def __init__(self, issues: list[Issue], event_date: date | None = None,
                 systems: tuple[System, ...] | None = None):
        self.issues = issues
        self.dated = True
        self.event_date = event_date
        self.given_systems = systems

    def fail(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))

    def event(self, raw: _Raw) -> Event:
        meta = raw.meta
        start = self.calendar_date(meta.get("start_date"))
        if "start_date" not in meta:
            start = self.event_date
            if start is None:
                self.issues.append(undated("start_date", "# start_date: YYYY-MM-DD"))
        self.dated = start is not None  # a time control is checked against the rules of a date
        start = start or date(1970, 1, 1)
        end = self.calendar_date(meta.get("end_date")) or start
        online = self.flag(meta.get("online"))
        if not raw.sections:
            self.fail("(file)", "no players: expected a header row "
                      "(pair,id,name,rating,games,round1,...) and a row per player")
        sections = []
        for index, s in enumerate(raw.sections):
            sections.append(self.section(s, index, start, end, online))
        return Event(meta["event_id"].text if "event_id" in meta else "", start, end,
                     tuple(sections), meta["event_name"].text if "event_name" in meta else "",
                     online)

    def section(self, raw: _RawSection, index: int, start: date, end: date,
                online: bool) -> Section:
        meta = raw.meta
        number = self.whole(meta.get("section"), minimum=1) if "section" in meta else index + 1
        s_start = self.calendar_date(meta.get("section_start_date")) or start
        s_end = self.calendar_date(meta.get("section_end_date")) or end
        s_online = self.flag(meta["section_online"]) if "section_online" in meta else online
        tc_value = meta.get("time_control")
        tc = tc_value.text if tc_value and tc_value.text else None
        given = self.systems(meta.get("systems"))
        own = self.time_control_systems(tc_value, s_start, s_online)
        resolved = given or own or self.given_systems
        kind = self.choice(meta.get("type"), SectionType, SectionType.SWISS)
        k = self.choice(meta.get("k"), KFactor, KFactor.FULL)
        rows, cells_of = raw.rows, raw.cells
        if raw.from_csv and not raw.columns:
            self.fail(raw.where, "section without a header row (pair,id,name,rating,games,"
                      "round1,...)")
        elif raw.from_csv and "pair" not in raw.columns:
            self.fail(raw.where, "the header row has no 'pair' column")
            rows, cells_of = [], []
        pairs = {v: i for i, row in enumerate(rows)
                 if (v := self.whole(row["pair"], minimum=1, quiet=True)) is not None}
        players = []
        for at, (row, cells) in enumerate(zip(rows, cells_of, strict=True)):  # a row's cells beside it
            player = self.player(row, cells, resolved, pairs,
                                 explain=not tc and not resolved)
            cells_of[at] = []  # read: the section holds the player's results, not both
            if player is not None:
                players.append(player)
        self.duplicates(rows)
        return Section(number=number or index + 1, start_date=s_start, end_date=s_end,
                       players=tuple(players), name=meta["section_name"].text
                       if "section_name" in meta else "", time_control=tc, online=s_online,
                       type=kind, systems=given or (None if own else self.given_systems), k=k)

    def duplicates(self, rows: Sequence[Mapping[str, _Value]]) -> None:
        seen: set[int] = set()
        for row in rows:
            pair = self.whole(row["pair"], minimum=1, quiet=True)
            if pair is not None and pair in seen:
                self.fail(row["pair"].where, f"pair number {pair} is used twice")
            if pair is not None:
                seen.add(pair)

    def time_control_systems(self, value: _Value | None, day: date,
                             online: bool) -> tuple[System, ...] | None:
        if value is None or not value.text or not self.dated:
            return None
        try:
            return systems_for(parse_time_control(value.text), online, rules_for(day))
        except ValueError as error:
            self.fail(value.where, str(error))
            return None

    # --- players ----------------------------------------------------------------------

    def player(self, row: Mapping[str, _Value], cells: Sequence[tuple[int, _Value]],
               systems: tuple[System, ...] | None, pairs: Mapping[int, int],
               explain: bool) -> Player | None:
        """``explain``: the section has neither systems nor a time control, so a 'rating'
        column cannot be filed (when its time control was unreadable, that was reported)."""
        pair = self.whole(row["pair"], minimum=1)
        ratings: dict[System, Rating] = {}
        if "rating" in row or "games" in row:
            common = self.rating(row.get("rating"), row.get("games"))
            if common is not None:
                if systems is not None:
                    ratings = {main_system(systems): common}
                elif explain:
                    self.fail(row["rating"].where, "a 'rating' column needs the section's "
                              "systems or time control; use rating_R (...) columns instead")
        for system in System:
            if f"rating_{system.value}" in row or f"games_{system.value}" in row:
                one = self.rating(row.get(f"rating_{system.value}"),
                                  row.get(f"games_{system.value}"))
                if one is not None:
                    ratings[system] = one
        fide = self.number(row.get("fide"))
        birth_cell = row.get("birth_date")
        birth = self.calendar_date(birth_cell) if birth_cell and birth_cell.text.strip() else None
        results = tuple(r for rnd, cell in cells
                        if (r := self.cell(cell, rnd, pair, pairs)) is not None)
        if pair is None:
            return None
        ident, name = row.get("id"), row.get("name")
        return Player(pair=pair, id=ident.text if ident else "", name=name.text if name else "",
                      birth_date=birth, ratings=ratings,
                      fide=FideRating(fide) if fide else None, results=results)

    def rating(self, value: _Value | None, games: _Value | None) -> Rating | None:
        text = value.text.strip() if value else ""
        match = _RATING.fullmatch(text)
        if text.lower() not in _UNRATED and (match is None or float(match["r"]) > 3500):
            assert value is not None
            self.fail(value.where, f"rating {text!r} is not a rating: expected 1456, 1456P12 "
                      "(provisional, 12 games), 1501/15, or blank/unr for unrated")
            match = None
        n = self.whole(games, minimum=0) if games and games.text.strip() else None
        if text.lower() in _UNRATED:
            if n is not None and games is not None and n > 0:
                self.fail(games.where, f"games {n} given for an unrated player")
            return None
        if match is None:
            return None
        if float(match["r"]) == 0:
            return None
        if match["n"] is not None:
            if n is not None and n != int(match["n"]) and games is not None:
                self.fail(games.where, f"games {n} disagrees with the rating {text!r}")
            n = int(match["n"])
        if n is None:
            return Rating(float(match["r"]), 26, games_known=False)
        return Rating(float(match["r"]), n)

    def cell(self, cell: _Value, rnd: int, pair: int | None,
             pairs: Mapping[int, int]) -> Result | None:
        text = cell.text.strip()
        if not text:
            return None
        match = _CELL.fullmatch(text)
        code = match["code"].upper() if match else ""
        opponent = int(match["opp"]) if match and match["opp"] else None
        if match is None or code not in RESULT_CODES:
            self.fail(cell.where, f"{text!r} is not a result: {CELL_HELP}")
            return None
        if code in ("W", "L", "D") and opponent is None:
            self.fail(cell.where, f"{text!r} needs the opponent's pair number ({code}12)")
            return None
        if code in ("H", "B", "U") and opponent is not None:
            self.fail(cell.where, f"{text!r}: {code} takes no pair number")
            return None
        if opponent is not None and opponent == pair:
            self.fail(cell.where, f"{text!r} names the player's own pair number")
            return None
        if opponent is not None and opponent not in pairs:
            self.fail(cell.where, f"{text!r} names pair {opponent}, which is not in the section")
            return None
        # the code as one shared string: a string of its own per result would cost as much
        # as the result itself (docs/formats.md, "The ceiling")
        return Result(rnd, _CODES[code], opponent)

    # --- small values ---------------------------------------------------------------

    def whole(self, value: _Value | None, minimum: int = 0, quiet: bool = False) -> int | None:
        if value is None:
            return None
        text = value.text.strip()
        number = whole(text)
        if number is not None and number >= minimum:
            return number
        if not quiet:
            what = "missing" if not text else repr(text)
            self.fail(value.where, f"{what}: expected a whole number >= {minimum}")
        return None

    def number(self, value: _Value | None) -> float | None:
        if value is None or not value.text.strip():
            return None
        number = decimal(value.text.strip())
        if number is None or not 0 <= number <= MAX_RATING:
            self.fail(value.where, f"{value.text!r} is not a rating (0..3500)")
            return None
        return number or None

    def calendar_date(self, value: _Value | None) -> date | None:
        if value is None:
            return None
        try:
            return date.fromisoformat(value.text.strip())
        except ValueError:
            self.fail(value.where, f"{value.text!r} is not a date as YYYY-MM-DD")
            return None

    def flag(self, value: _Value | None) -> bool:
        if value is None:
            return False
        text = value.text.strip().lower()
        if text not in _TRUE | _FALSE:
            self.fail(value.where, f"{value.text!r}: expected true or false")
        return text in _TRUE

    def systems(self, value: _Value | None) -> tuple[System, ...] | None:
        if value is None or not value.text.strip():
            return None
        names = [n for n in re.split(r"[\s,;/]+", value.text.strip().upper()) if n]
        bad = [n for n in names if n not in System.__members__]
        if bad:
            self.fail(value.where, f"unknown system(s) {', '.join(bad)}: expected R, Q, B, "
                      "OR, OQ or OB")
            return None
        return tuple(System(n) for n in dict.fromkeys(names))

    def choice(self, value: _Value | None, kind: Any, default: Any) -> Any:
        if value is None or not value.text.strip():
            return default
        try:
            return kind(value.text.strip().lower())
        except ValueError:
            allowed = ", ".join(m.value for m in kind)
            self.fail(value.where, f"{value.text!r}: expected one of {allowed}")
            return default


# --- writing ---------------------------------------------------------------------------


def to_csv(event: Event) -> str:
    """The CSV text of ``event`` (see the module docstring)."""
    out = _Lines()
    out.meta("event_id", event.id)
    out.meta("event_name", event.name)
    out.meta("start_date", event.start_date.isoformat())
    out.meta("end_date", event.end_date.isoformat())
    if event.online:
        out.meta("online", "true")
    for section in event.sections:
        _section_csv(section, event, out)
    return out.text()


class _Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def meta(self, key: str, value: str) -> None:
        if value:
            self.lines.append(f"# {key}: {value}")

    def row(self, cells: Iterable[str]) -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="").writerow(list(cells))
        self.lines.append(buffer.getvalue())

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _section_csv(section: Section, event: Event, out: _Lines) -> None:
    meta = _section_meta(section, event)
    out.lines.append("")
    out.meta("section", str(section.number))
    for key in SECTION_KEYS[1:]:
        if key in meta:
            out.meta(key, " ".join(meta[key]) if isinstance(meta[key], list) else str(meta[key]))
    columns = _columns(section)
    # the columns name their rounds: only those that hold a result are written
    rounds = sorted({r.round for p in section.players for r in p.results})
    out.row(columns + [f"round{n}" for n in rounds])
    for p in section.players:
        values = _player_values(p, columns)
        cells = _cells(p, rounds)
        out.row([values.get(c, "") for c in columns] + cells)


def _section_meta(section: Section, event: Event) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    if section.name:
        meta["section_name"] = section.name
    if section.start_date != event.start_date:
        meta["section_start_date"] = section.start_date.isoformat()
    if section.end_date != event.end_date:
        meta["section_end_date"] = section.end_date.isoformat()
    if section.time_control:
        meta["time_control"] = section.time_control
    if section.systems:
        meta["systems"] = [s.value for s in section.systems]
    if section.type is not SectionType.SWISS:
        meta["type"] = section.type.value
    if section.k is not KFactor.FULL:
        meta["k"] = section.k.value
    if section.online != event.online:
        meta["section_online"] = "true" if section.online else "false"
    return meta


def _resolved(section: Section) -> tuple[System, ...] | None:
    if section.systems:
        return section.systems
    if not section.time_control:
        return None
    try:
        return systems_for(parse_time_control(section.time_control), section.online,
                           rules_for(section.start_date))
    except ValueError:
        return None


def _columns(section: Section) -> list[str]:
    """pair,id,name then rating,games when one rating per player covers the section's
    systems, else rating_X,games_X per system; fide and birth_date when any player has one."""
    columns = ["pair", "id", "name"]
    per_system = _per_system(section)
    if per_system is None:
        columns += ["rating", "games"]
    else:
        for s in per_system:
            columns += [f"rating_{s.value}", f"games_{s.value}"]
    if any(p.fide for p in section.players):
        columns.append("fide")
    if any(p.birth_date for p in section.players):
        columns.append("birth_date")
    return columns


def _per_system(section: Section) -> list[System] | None:
    """None when every rating is in the section's main system (the 'rating' column)."""
    systems = _resolved(section)
    used = {s for p in section.players for s in p.ratings}
    if not used:
        return None
    if systems is None or used != {main_system(systems)}:
        return [s for s in System if s in used]
    return None


def _player_values(p: Player, columns: Sequence[str]) -> dict[str, str]:
    values = {"pair": str(p.pair), "id": p.id, "name": p.name}
    if "rating" in columns and p.ratings:
        (only,) = p.ratings.values()
        values["rating"], values["games"] = _number(only.rating), _games(only)
    for s, r in p.ratings.items():
        if f"rating_{s.value}" in columns:
            values[f"rating_{s.value}"], values[f"games_{s.value}"] = _number(r.rating), _games(r)
    if p.fide:
        values["fide"] = _number(p.fide.rating)
    if p.birth_date:
        values["birth_date"] = p.birth_date.isoformat()
    return values


def _number(value: float) -> str:
    """Shortest text that reads back as the same float: 1500, 1850.37."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _games(r: Rating) -> str:
    return "" if not r.games_known and r.games == 26 else str(r.games)


def _cells(p: Player, rounds: Sequence[int]) -> list[str]:
    """The player's cell in each of ``rounds``, "" where there is none."""
    cells: dict[int, str] = {}
    for r in p.results:
        if r.round in cells:
            raise ValueError(f"section player {p.pair}: two results in round {r.round} cannot "
                             "be written as one CSV cell")
        cells[r.round] = r.code + ("" if r.opponent is None else str(r.opponent))
    return [cells.get(n, "") for n in rounds]


def to_json(event: Event) -> dict[str, Any]:
    """The JSON flavour of ``event``."""
    def value(text: str) -> Any:
        if text == "":
            return None
        try:
            number = float(text)
        except ValueError:
            return text
        return int(number) if number.is_integer() and "." not in text else number

    sections = []
    for section in event.sections:
        meta = _section_meta(section, event)
        names = {"section_name": "name", "section_start_date": "start_date",
                 "section_end_date": "end_date", "time_control": "time_control",
                 "systems": "systems", "type": "type", "k": "k", "section_online": "online"}
        out: dict[str, Any] = {"number": section.number}
        out.update({names[k]: (v == "true" if k == "section_online" else v)
                    for k, v in meta.items()})
        columns = _columns(section)
        # the JSON's results are a list, a cell for every round from 1 to the last
        rounds = range(1, positional_rounds(section, "the CSV crosstable's JSON") + 1)
        players = []
        for p in section.players:
            values = _player_values(p, columns)
            row: dict[str, Any] = {"pair": p.pair}
            for c in columns[1:]:
                text = values.get(c, "")
                row[c] = text if c in ("id", "name", "birth_date") else value(text)
            row["results"] = _cells(p, rounds)
            players.append(row)
        out["players"] = players
        sections.append(out)
    head: dict[str, Any] = {"id": event.id, "name": event.name,
                            "start_date": event.start_date.isoformat(),
                            "end_date": event.end_date.isoformat()}
    if event.online:
        head["online"] = True
    return {"format": FORMAT_MARK, "event": head, "sections": sections}
