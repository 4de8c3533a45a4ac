"""The US Chess rating report, format 2C: three dBase III files, THEXPORT (the event),
TSEXPORT (one record per section) and TDEXPORT (one record per player entry).

Format notes: ``shared/spec/file-formats.md``, "US Chess rating-report upload"; real files
and their oddities: ``shared/formats/uscf_dbf/MANIFEST.md``.

Reading (`read`) accepts a folder holding the three files (any case), a zip of them,
or one of the three files with its siblings beside it, and is tolerant as the notes ask:
dates as dBase ``D`` or as text (``YYYYMMDD``, ``MM/DD/YYYY``, ``YYYY-MM-DD``); numbers as
``N`` or as left- or right-justified text; round cells of any width, right-justified
(``W   12B``) or left-justified (SwissSys's ``W2W``); the older layout with 9-character event
ids, 5-character cells and a continuation record per player for rounds 11-20
(``D_REC_SEQ``); round robins reported by opponent columns. Every problem is collected
and raised together as a `ParseError`, each naming the file, record and field.

Writing (`write`) produces the 2C layout of the notes (dates as ``D``, numbers as
left-justified text, as the Sept-2025 correction asks) with a dBase III writer of our own,
`dbase3_bytes`, whose byte layout is explained there.

Decisions where the notes are silent (each is also a test):

* A rating without N (every 2C rating) gets N = `ASSUMED_GAMES` = 26, the smallest
  established N, with ``games_known=False``. For a pre-event rating under about 1928 this
  changes nothing, since N' = min(N, N*) and N* <= 26 there. A rating written with its
  game count, ``1456P12`` or ``1501/15``, gives that N and ``games_known=True``. A rating
  of 0 or blank is unrated.
* ``D_RATING`` holds one rating: that of the section's main system, Regular for R and
  dual (D) sections, else the section's one system. The writer writes that rating, rounded
  half up to an integer; the others (a dual section's Quick rating, FIDE ratings, N,
  history) are not in the format.
* ``S_R_SYSTEM``: R, Q, B, D (= R and Q). Blank means "not given": the section's systems
  are then left to its time control. The notes document no letter for the online systems,
  so the writer refuses online sections rather than report them as over-the-board.
* ``S_TRN_TYPE``: S Swiss, R round robin, M an individual match when the section has two
  players (as the real crosstables show; otherwise Swiss), C and O (cumulative, other)
  and blank are rated as Swiss.
* Result letters (notes' table): W L D rated with an opponent; X F forfeits, opponent
  optional; H B U byes and unplayed rounds (an opponent number on them is dropped); the
  legacy ``Z`` "forfeit draw" is read as an unrated half point, H. SwissSys's double-game
  codes ``$ # %`` are named in the manifest without their meaning, so they are refused
  with an issue that says so. A blank cell is U.
* The model has no colours, so the writer leaves the colour out of each cell (``W12``);
  the reader accepts and ignores colours.
* The event's details (`core.model.EventDetails`) come from THEXPORT's fields of the
  notes: ``H_CITY``, ``H_STATE``, ``H_ZIPCODE``, ``H_COUNTRY``, ``H_AFF_ID``, ``H_CTD_ID``
  (the chief TD), ``H_ATD_ID`` (the assistant chief TD) and ``H_OTHER_TD`` (other TDs'
  ids, separated by commas), as given: the report has ids and no names. A chief or
  assistant TD left blank there is taken from TSEXPORT's ``S_CTD_ID``/``S_ATD_ID`` when
  the sections that name one all name the same. Their text is not checked further (a
  wrong dBase type is refused as for every field read): nothing in them changes a
  rating. The writer writes them back, the event's TDs in every section's ``S_CTD_ID``
  and ``S_ATD_ID`` as SwissSys does, and directors by id only; a value that does not fit
  its field is left blank (`_head_details`).
* Event id: ``H_EVENT_ID``, else a section's or player's event id, else the name of the
  folder or zip. The writer writes ids of more than 12 characters (which cannot be US
  Chess ids) as blank, which the format reads as "not yet assigned".
* Text that does not fit its field (a name over 30 characters, say) is not truncated: the
  writer raises `ValueError` listing every such field.
"""

from __future__ import annotations

import io
import re
import struct
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..core.formulas import rounded_rating
from ..core.model import (
    Director,
    Event,
    EventDetails,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from ..core.pipeline import section_systems
from ..core.rules import rules_for
from .archive import MAX_MEMBERS, MAX_UNPACKED
from .archive import Reader as archive_reader
from .bounds import MAX_INPUT_BYTES, MAX_NUMBER_CHARS, read_input
from .common import main_system, systems_of
from .errors import Issue, ParseError
from .event_details import director, directors

TABLES = ("THEXPORT.DBF", "TSEXPORT.DBF", "TDEXPORT.DBF")
#: The caps on a report's zip (see `uscf_ratings.formats.archive`): members, unpacked bytes.
ZIP_CAPS = (MAX_MEMBERS, MAX_UNPACKED)
#: N given to a rating read without its game count: the smallest established N.
ASSUMED_GAMES = 26
PROGRAM = "USCFRATING"  # H_PROGRAM, C(10)

# ----------------------------------------------------------------------------------------
# dBase III files: reading
# ----------------------------------------------------------------------------------------

#: First bytes of dBase III/IV/V, FoxPro and Visual FoxPro tables (the version byte).
DBASE_VERSIONS = {0x02, 0x03, 0x04, 0x05, 0x30, 0x31, 0x32, 0x43, 0x63, 0x83, 0x8B, 0x8E,
                  0xB3, 0xCB, 0xE5, 0xF5, 0xFB}
#: Byte 29, the language driver, to a code page; anything else reads as cp1252.
CODE_PAGES = {0x01: "cp437", 0x02: "cp850", 0x03: "cp1252", 0x57: "cp1252", 0x64: "cp852",
              0x65: "cp866", 0xC8: "cp1250", 0xC9: "cp1251"}


@dataclass(frozen=True)
class DbfField:
    name: str
    type: str  #: C text, N/F number, D date (YYYYMMDD), L logical, M memo, ...
    length: int


@dataclass
class DbfTable:
    label: str  #: the file name, for messages
    fields: dict[str, DbfField]
    records: list[tuple[int, dict[str, str]]]  #: (record number from 1, raw text by field)


def read_table(data: bytes, label: str, issues: list[Issue]) -> DbfTable | None:
    """Parse one dBase table; problems go to ``issues``. None if nothing can be read.

    The layout is the one `dbase3_bytes` writes (see there); the header length and
    record length in the header are trusted over our own arithmetic only after checking.
    """
    if len(data) < 32:
        issues.append(Issue(label, f"truncated header: the file has {len(data)} bytes; a "
                                   "dBase header needs 32"))
        return None
    if data[0] not in DBASE_VERSIONS:
        issues.append(Issue(label, f"not a dBase table: first byte 0x{data[0]:02X} is not a "
                                   "dBase version (expected 0x03 for dBase III)"))
        return None
    count, header_len, record_len = struct.unpack_from("<IHH", data, 4)
    fields = _descriptors(data, label, header_len, issues)
    if fields is None:
        return None
    width = 1 + sum(f.length for f in fields)
    if width != record_len:
        issues.append(Issue(label, f"record length {record_len} in the header, but the fields "
                                   f"add up to {width} (1 deletion flag + field widths)"))
        return None
    available = max(0, (len(data) - header_len) // record_len)
    if available < count:
        issues.append(Issue(label, f"truncated: the header says {count} records of "
                                   f"{record_len} bytes, but only {available} follow"))
    encoding = CODE_PAGES.get(data[29], "cp1252")
    records = []
    for index in range(min(count, available)):
        start = header_len + index * record_len
        raw = data[start:start + record_len]
        if raw[0] == 0x2A:  # '*': deleted
            continue
        values, pos = {}, 1
        for f in fields:
            values[f.name] = _decode(raw[pos:pos + f.length], encoding)
            pos += f.length
        records.append((index + 1, values))
    return DbfTable(label, {f.name: f for f in fields}, records)


def _descriptors(data: bytes, label: str, header_len: int,
                 issues: list[Issue]) -> list[DbfField] | None:
    """The 32-byte field descriptors from byte 32 up to the 0x0D terminator."""
    fields: list[DbfField] = []
    pos = 32
    while pos < len(data) and data[pos] != 0x0D:
        if pos + 32 > len(data):
            issues.append(Issue(label, f"truncated header: field descriptor {len(fields) + 1} "
                                       f"at byte {pos} is cut off"))
            return None
        raw_name = data[pos:pos + 11].split(b"\0")[0]
        name = raw_name.decode("ascii", errors="replace").strip().upper()
        if not name or not name.replace("_", "").isalnum():
            issues.append(Issue(label, f"field descriptor {len(fields) + 1} at byte {pos} has "
                                       f"no valid name ({raw_name!r})"))
            return None
        fields.append(DbfField(name, chr(data[pos + 11]).upper(), data[pos + 16]))
        pos += 32
    if pos >= len(data):
        issues.append(Issue(label, "truncated header: no 0x0D byte ends the field descriptors"))
        return None
    if not fields:
        issues.append(Issue(label, "the table has no fields"))
        return None
    if header_len < pos + 1 or header_len > len(data):
        issues.append(Issue(label, f"header length {header_len} in the header, but the "
                                   f"descriptors end at byte {pos + 1} of {len(data)}"))
        return None
    return fields


def _decode(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        return raw.decode("latin-1")


# ----------------------------------------------------------------------------------------
# Finding the three files
# ----------------------------------------------------------------------------------------

def _locate(path: Path, issues: list[Issue]) -> dict[str, tuple[str, bytes]]:
    """The three files' bytes by upper-case name, from a folder, a zip or one file."""
    found: dict[str, tuple[str, bytes]] = {}
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file())
        found = {p.name.upper(): (p.name, read_input(p)) for p in files
                 if p.name.upper() in TABLES}
        if not found:  # not a report at all: say what a folder is read as, and what it has
            held = ", ".join(p.name for p in files[:3]) + (", ..." if len(files) > 3 else "")
            issues.append(Issue("", "a folder is read as one rating report (THEXPORT.DBF, "
                                    "TSEXPORT.DBF and TDEXPORT.DBF together), and this one "
                                    "holds none of them" + (
                                        f" but {len(files)} other file(s) ({held}): name "
                                        "the files themselves to read each as an event"
                                        if files else ", nor any other file")))
            return found
    elif path.is_file() and path.suffix.lower() == ".zip" or _is_zip(path):
        found = _from_zip(path, issues)
        if issues:
            return found
    elif path.is_file():
        if path.name.upper() not in TABLES:
            issues.append(Issue(path.name, "not one of THEXPORT.DBF, TSEXPORT.DBF, TDEXPORT.DBF: "
                                           "expected one of the three report files, a folder "
                                           "or a zip holding them"))
            return found
        found = {p.name.upper(): (p.name, read_input(p)) for p in path.parent.iterdir()
                 if p.is_file() and p.name.upper() in TABLES}
    else:
        issues.append(Issue("", "no such file or folder"))
        return found
    total = sum(len(data) for _, data in found.values())
    if total > MAX_INPUT_BYTES:  # the three files are one input
        issues.append(Issue("", f"the report's files hold {total:,} bytes together: more "
                                f"than the {MAX_INPUT_BYTES:,} bytes any input may have"))
        return {}
    for name in TABLES:
        if name not in found:
            issues.append(Issue(name, "missing: a rating report has THEXPORT.DBF, TSEXPORT.DBF "
                                      "and TDEXPORT.DBF together"))
    return found


def _is_zip(path: Path) -> bool:
    return path.is_file() and zipfile.is_zipfile(path)


def _from_zip(path: Path, issues: list[Issue]) -> dict[str, tuple[str, bytes]]:
    """The report's files in a zip, unpacked within the caps (`formats.archive`: a
    member over them, encrypted or compressed by a method not read is refused whole)."""
    reader = archive_reader(read_input(path), str(path))
    found: dict[str, tuple[str, bytes]] = {}
    for info in reader.infolist():
        base = info.filename.replace("\\", "/").rsplit("/", 1)[-1]
        if base.upper() not in TABLES:
            continue
        if base.upper() in found:
            issues.append(Issue(info.filename, f"a second {base.upper()} in the zip"))
            continue
        found[base.upper()] = (info.filename, reader.read(info))
    return found


# ----------------------------------------------------------------------------------------
# Reading the report
# ----------------------------------------------------------------------------------------

#: Field types each known field may have: text, numbers as text or N, dates as text or D.
TEXT, NUMBER, DATE = "C", "CNF", "CD"
FIELD_TYPES = {
    "H_EVENT_ID": NUMBER, "H_NAME": TEXT, "H_BEG_DATE": DATE, "H_END_DATE": DATE,
    "S_EVENT_ID": NUMBER, "S_SEC_NUM": NUMBER, "S_SEC_NAME": TEXT, "S_R_SYSTEM": TEXT,
    "S_TIMECTL": TEXT, "S_TRN_TYPE": TEXT, "S_TOT_RNDS": NUMBER, "S_BEG_DATE": DATE,
    "S_END_DATE": DATE,
    "D_EVENT_ID": NUMBER, "D_SEC_NUM": NUMBER, "D_PAIR_NUM": NUMBER, "D_REC_SEQ": NUMBER,
    "D_MEM_ID": NUMBER, "D_NAME": TEXT, "D_RATING": NUMBER,
    # the event's details: text as given, never checked further (see `_Report.details`)
    "H_AFF_ID": TEXT, "H_CITY": TEXT, "H_STATE": TEXT, "H_ZIPCODE": NUMBER,
    "H_COUNTRY": TEXT, "H_CTD_ID": NUMBER, "H_ATD_ID": NUMBER, "H_OTHER_TD": TEXT,
    "S_CTD_ID": NUMBER, "S_ATD_ID": NUMBER,
}
ROUND_FIELD = re.compile(r"^D_RND([0-9]+)$")
SYSTEM_LETTERS: dict[str, tuple[System, ...]] = {
    "R": (System.R,), "Q": (System.Q,), "B": (System.B,), "D": (System.R, System.Q)}
TYPE_LETTERS = {"S": SectionType.SWISS, "R": SectionType.ROUND_ROBIN, "M": SectionType.MATCH,
                "C": SectionType.SWISS, "O": SectionType.SWISS, "": SectionType.SWISS}
CODES = "WLDXFHBU"
DOUBLE_GAME = "$#%"
#: A round cell: result letter, opponent pair number, colour; spaces anywhere between.
CELL = re.compile(r"^(?P<code>\S)\s*(?P<opp>[0-9]{1,%d})?\s*(?P<colour>[WB])?$" % MAX_NUMBER_CHARS)
RATING = re.compile(r"^(?P<rating>[0-9]{1,4})(?:\s*[P/]\s*(?P<games>[0-9]{1,3}))?$")


def read(path: Path | str, *, systems: tuple[System, ...] | None = None) -> Event:
    """Read a rating report: a folder, a zip, or one of its three files. ``systems``:
    those of sections whose S_R_SYSTEM is blank and whose time control we cannot read."""
    path = Path(path)
    issues: list[Issue] = []
    files = _locate(path, issues)
    tables = [read_table(files[name][1], files[name][0], issues) if name in files else None
              for name in TABLES]
    head, sections, players = tables
    if issues or head is None or sections is None or players is None:
        raise ParseError(str(path), issues)
    fallback_id = path.stem if path.is_dir() or path.suffix.lower() == ".zip" else path.parent.name
    event = _Report(issues, systems).event(head, sections, players, fallback_id)
    if issues or event is None:
        raise ParseError(str(path), issues)
    return event


@dataclass
class _SectionInfo:
    number: int
    name: str
    systems: tuple[System, ...] | None
    time_control: str | None
    type: SectionType
    rounds: int | None
    start: date | None
    end: date | None
    record: str  #: where it came from, for messages


@dataclass
class _Entry:
    """One player's records in TDEXPORT: the first gives identity, all give cells."""

    where: str
    section: int
    pair: int
    identity: dict[str, str]
    cells: dict[int, tuple[str, str]] = field(default_factory=dict)  #: round -> (text, where)


class _Report:
    """Builds the event from the three tables, adding every problem to ``issues``."""

    def __init__(self, issues: list[Issue], systems: tuple[System, ...] | None = None):
        self.issues = issues
        self.given_systems = systems
        self.get = _Getter(set())

    def add(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))

    # -- fields ------------------------------------------------------------------------

    def check_types(self, table: DbfTable) -> set[str]:
        """Names of the fields whose type we can read; wrong types are issues."""
        usable = set()
        for name, f in table.fields.items():
            allowed = "C" if ROUND_FIELD.match(name) else FIELD_TYPES.get(name)
            if allowed is None:
                continue  # fields we do not use are not checked
            if f.type not in allowed:
                kinds = ", ".join(allowed[:-1]) + (" or " if len(allowed) > 1 else "") + allowed[-1]
                self.add(f"{table.label} field {name}",
                         f"has type {f.type!r}; expected {kinds} ({_KIND[allowed]})")
                continue
            usable.add(name)
        return usable

    def number(self, value: str, where: str) -> int | None:
        text = value.strip()
        if not text:
            return None
        if re.fullmatch(r"[0-9]+(\.0*)?", text):
            return int(float(text))
        self.add(where, f"{text!r} is not a whole number")
        return None

    def day(self, value: str, where: str) -> date | None:
        text = value.strip()
        if not text:
            return None
        for pattern, order in _DATE_PATTERNS:
            m = re.fullmatch(pattern, text)
            if m is None:
                continue
            parts = dict(zip(order, map(int, m.groups()), strict=True))
            year = parts["y"] + (2000 if parts["y"] < 70 else 1900 if parts["y"] < 100 else 0)
            try:
                return date(year, parts["m"], parts["d"])
            except ValueError:
                break
        self.add(where, f"{text!r} is not a date: expected YYYYMMDD (or MM/DD/YYYY)")
        return None

    # -- the event ---------------------------------------------------------------------

    def event(self, head: DbfTable, sects: DbfTable, details: DbfTable,
              fallback_id: str) -> Event | None:
        usable = self.check_types(head) | self.check_types(sects) | self.check_types(details)
        get = self.get = _Getter(usable)
        if len(head.records) != 1:
            self.add(head.label, f"holds {len(head.records)} event records; expected 1")
        h_num, h = head.records[0] if head.records else (0, {})
        h_where = f"{head.label} record {h_num}"
        start = self.day(get(h, "H_BEG_DATE"), f"{h_where} field H_BEG_DATE")
        end = self.day(get(h, "H_END_DATE"), f"{h_where} field H_END_DATE")
        infos = self.sections(sects, get)
        entries = self.entries(details, get, infos)
        starts = [s.start for s in infos.values() if s.start] + ([start] if start else [])
        ends = [d for s in infos.values() if (d := s.end or s.start) is not None]
        start = start or (min(starts) if starts else None)
        end = end or (max(ends) if ends else start)
        if start is None or end is None:
            self.add(h_where, "no date: expected H_BEG_DATE (or S_BEG_DATE in TSEXPORT.DBF)")
            return None
        sections = tuple(self.section(info, entries, start, end) for info in infos.values())
        event_id = (get(h, "H_EVENT_ID").strip() or _first(get(r, "S_EVENT_ID") for _, r in sects.records)
                    or _first(get(r, "D_EVENT_ID") for _, r in details.records) or fallback_id)
        return Event(event_id, start, end, sections, get(h, "H_NAME").strip(),
                     details=self.details(h, sects))

    def details(self, h: Mapping[str, str], sects: DbfTable) -> EventDetails:
        """The event's site, affiliate and directors from THEXPORT, as given (ids are not
        checked: they do not change a rating). A chief or assistant TD left blank there
        is taken from TSEXPORT's ``S_CTD_ID``/``S_ATD_ID`` when every section that names
        one names the same."""
        get = self.get

        def section_td(name: str) -> str:
            given = {get(r, name).strip() for _, r in sects.records} - {""}
            return given.pop() if len(given) == 1 else ""

        chief = get(h, "H_CTD_ID").strip() or section_td("S_CTD_ID")
        assistant = get(h, "H_ATD_ID").strip() or section_td("S_ATD_ID")
        return EventDetails(
            city=get(h, "H_CITY").strip(), state=get(h, "H_STATE").strip(),
            zip_code=get(h, "H_ZIPCODE").strip(), country=get(h, "H_COUNTRY").strip(),
            affiliate_id=get(h, "H_AFF_ID").strip(), chief_director=director(chief),
            assistant_director=director(assistant),
            other_directors=directors(director(i) for i in get(h, "H_OTHER_TD").split(",")))

    def sections(self, table: DbfTable, get: _Getter) -> dict[int, _SectionInfo]:
        infos: dict[int, _SectionInfo] = {}
        for index, (num, rec) in enumerate(table.records, start=1):
            where = f"{table.label} record {num}"
            number = self.number(get(rec, "S_SEC_NUM"), f"{where} field S_SEC_NUM") or index
            if number in infos:
                self.add(f"{where} field S_SEC_NUM", f"section {number} is given twice "
                                                     f"(also {infos[number].record})")
                continue
            letter = get(rec, "S_R_SYSTEM").strip().upper()
            if letter and letter not in SYSTEM_LETTERS:
                self.add(f"{where} field S_R_SYSTEM", f"{letter!r} is not a rating system: "
                                                      "expected R, Q, B or D (dual R and Q)")
            kind = get(rec, "S_TRN_TYPE").strip().upper()
            if kind not in TYPE_LETTERS:
                self.add(f"{where} field S_TRN_TYPE", f"{kind!r} is not a section type: "
                                                      "expected S (Swiss), R (round robin), M, C or O")
            infos[number] = _SectionInfo(
                number=number, name=get(rec, "S_SEC_NAME").strip(),
                systems=SYSTEM_LETTERS.get(letter),
                time_control=get(rec, "S_TIMECTL").strip() or None,
                type=TYPE_LETTERS.get(kind, SectionType.SWISS),
                rounds=self.number(get(rec, "S_TOT_RNDS"), f"{where} field S_TOT_RNDS"),
                start=self.day(get(rec, "S_BEG_DATE"), f"{where} field S_BEG_DATE"),
                end=self.day(get(rec, "S_END_DATE"), f"{where} field S_END_DATE"),
                record=where)
        if not infos:
            self.add(table.label, "no section records")
        return infos

    # -- players -----------------------------------------------------------------------

    def entries(self, table: DbfTable, get: _Getter,
                infos: Mapping[int, _SectionInfo]) -> dict[int, dict[int, _Entry]]:
        """Player entries by section and pair, continuation records merged."""
        rounds = sorted((int(m[1]), name) for name in table.fields
                        if (m := ROUND_FIELD.match(name)) and name in get.usable)
        if "D_PAIR_NUM" not in table.fields:
            self.add(table.label, "has no D_PAIR_NUM field: expected the players' pair numbers")
        if not rounds and not any(ROUND_FIELD.match(n) for n in table.fields):
            self.add(table.label, "has no round fields: expected D_RND01, D_RND02, ...")
        per_record = max((r for r, _ in rounds), default=0)
        out: dict[int, dict[int, _Entry]] = {n: {} for n in infos}
        for num, rec in table.records:
            where = f"{table.label} record {num}"
            section = self.section_of(rec, get, where, infos)
            pair = self.number(get(rec, "D_PAIR_NUM"), f"{where} field D_PAIR_NUM")
            if pair is None or pair < 1:
                if "D_PAIR_NUM" in get.usable and get(rec, "D_PAIR_NUM").strip() in ("", "0"):
                    self.add(f"{where} field D_PAIR_NUM", "expected a pair number from 1")
                continue
            seq = self.number(get(rec, "D_REC_SEQ"), f"{where} field D_REC_SEQ") or 1
            if section is None:
                continue
            entry = out[section].get(pair)
            if seq == 1:
                if entry is not None and entry.identity:
                    self.add(f"{where} field D_PAIR_NUM", f"pair {pair} of section {section} is "
                                                          f"given twice (also {entry.where})")
                    continue
                if entry is None:
                    entry = out[section][pair] = _Entry(where, section, pair, rec)
                entry.identity, entry.where = rec, where
            elif entry is None:
                entry = out[section][pair] = _Entry(where, section, pair, {})
            offset = (seq - 1) * per_record
            for rnd, name in rounds:
                entry.cells[offset + rnd] = (get(rec, name), f"{where} field {name}")
        for section, players in out.items():
            for pair, entry in players.items():
                if not entry.identity:
                    self.add(entry.where, f"pair {pair} of section {section} has continuation "
                                          "records (D_REC_SEQ 2 or more) but no first record")
        return out

    def section_of(self, rec: dict[str, str], get: _Getter, where: str,
                   infos: Mapping[int, _SectionInfo]) -> int | None:
        number = self.number(get(rec, "D_SEC_NUM"), f"{where} field D_SEC_NUM")
        if number is None and len(infos) == 1:
            return next(iter(infos))
        if number is None:
            self.add(f"{where} field D_SEC_NUM", "blank: expected the section number")
            return None
        if number not in infos:
            known = ", ".join(map(str, infos)) or "none"
            self.add(f"{where} field D_SEC_NUM", f"section {number} is not in TSEXPORT.DBF "
                                                 f"(sections: {known})")
            return None
        return number

    def section(self, info: _SectionInfo, entries: Mapping[int, Mapping[int, _Entry]],
                start: date, end: date) -> Section:
        players_in = entries.get(info.number, {})
        rounds = self.round_count(info, players_in.values())
        kind = info.type
        if kind is SectionType.MATCH and len(players_in) != 2:
            kind = SectionType.SWISS  # a "match" section of more players is rated as a Swiss
        s_start = info.start or start
        s_end = info.end or info.start or end
        systems = info.systems or (None if systems_of(info.time_control, s_start)
                                   else self.given_systems)
        main = main_system(systems, info.time_control, s_start)
        players = tuple(self.player(e, rounds, main, info, set(players_in))
                        for e in sorted(players_in.values(), key=lambda e: e.pair))
        return Section(number=info.number, name=info.name, start_date=s_start, end_date=s_end,
                       players=players, time_control=info.time_control, type=kind,
                       systems=systems)

    def round_count(self, info: _SectionInfo, entries: Iterable[_Entry]) -> int:
        """S_TOT_RNDS; a round robin by opponent columns may use a column per player."""
        entries = list(entries)
        used = max((rnd for e in entries for rnd, (text, _) in e.cells.items()
                    if _meaningful(text)), default=0)
        if info.rounds is None or info.type is SectionType.ROUND_ROBIN:
            return max(used, info.rounds or 0)
        for e in entries:
            for rnd, (text, where) in sorted(e.cells.items()):
                if rnd > info.rounds and _meaningful(text):
                    self.add(where, f"round {rnd} holds {text.strip()!r}, but S_TOT_RNDS says "
                                    f"section {info.number} has {info.rounds} rounds")
        return info.rounds

    def player(self, entry: _Entry, rounds: int, main: System, info: _SectionInfo,
               pairs: set[int]) -> Player:
        rec, where = entry.identity, entry.where
        rating = self.rating(self.get(rec, "D_RATING"), f"{where} field D_RATING")
        results = []
        for rnd in range(1, rounds + 1):
            text, cell_where = entry.cells.get(rnd, ("", where))
            results.append(self.cell(text, rnd, cell_where, entry.pair, info, pairs))
        return Player(pair=entry.pair, id=self.get(rec, "D_MEM_ID").strip(),
                      name=self.get(rec, "D_NAME").strip(),
                      ratings={main: rating} if rating else {}, results=tuple(results))

    def rating(self, value: str, where: str) -> Rating | None:
        text = value.strip().upper()
        if text in ("", "0", "UNR", "UNR."):
            return None
        m = RATING.fullmatch(text)
        if m is None:
            self.add(where, f"{text!r} is not a rating: expected digits such as 1500, or a "
                            "provisional rating with its games such as 1456P12")
            return None
        if int(m["rating"]) == 0:
            return None
        if m["games"] is None:
            return Rating(float(m["rating"]), ASSUMED_GAMES, games_known=False)
        return Rating(float(m["rating"]), int(m["games"]))

    def cell(self, text: str, rnd: int, where: str, pair: int, info: _SectionInfo,
             pairs: set[int]) -> Result:
        """One round cell as a result; a bad cell is an issue and reads as U."""
        raw = text.strip()
        m = CELL.fullmatch(raw.upper())
        if not raw:
            return Result(rnd, "U")
        code = raw[0].upper()
        if code in DOUBLE_GAME:
            self.add(where, f"cell {raw!r} uses the SwissSys double-game code {code!r}, whose "
                            "meaning the format notes do not give; report one column per game "
                            f"with the letters {' '.join(CODES)}")
            return Result(rnd, "U")
        if m is None or code not in CODES + "Z":
            what = f"result letter {code!r}" if m is not None else "its layout"
            self.add(where, f"cell {raw!r} cannot be read ({what}): expected a result letter "
                            f"({' '.join(CODES)}), the opponent's pair number and a colour, "
                            "such as 'W12B' or 'W   12B'")
            return Result(rnd, "U")
        opponent = int(m["opp"]) if m["opp"] and int(m["opp"]) else None
        if code == "Z":  # legacy "forfeit draw": half a point, not rated
            return Result(rnd, "H")
        if code in "HBU":
            return Result(rnd, code)
        if opponent is None and code in "WLD" and info.type is SectionType.ROUND_ROBIN:
            opponent = rnd  # a round robin reported by opponent columns
        if opponent is None and code in "WLD":
            self.add(where, f"cell {raw!r} is a played game but names no opponent: expected "
                            f"the opponent's pair number, such as '{code}12'")
            return Result(rnd, "U")
        if opponent is not None and opponent not in pairs:
            self.add(where, f"cell {raw!r} names pair {opponent}, which is not in section "
                            f"{info.number}")
        elif opponent == pair:
            self.add(where, f"cell {raw!r} names the player's own pair number")
        return Result(rnd, code, opponent)


_KIND = {TEXT: "text", NUMBER: "a number as text or N", DATE: "a date as D or text"}
_DATE_PATTERNS = (
    (r"([0-9]{4})([0-9][0-9])([0-9][0-9])", "ymd"),
    (r"([0-9]{4})[-/.]([0-9][0-9]?)[-/.]([0-9][0-9]?)", "ymd"),
    (r"([0-9][0-9]?)[-/.]([0-9][0-9]?)[-/.]([0-9]{4}|[0-9][0-9])", "mdy"),
)


class _Getter:
    """Raw text of a field in a record, or "" when the field is absent or unusable."""

    def __init__(self, usable: set[str]):
        self.usable = usable

    def __call__(self, record: Mapping[str, str], name: str) -> str:
        return record.get(name, "") if name in self.usable else ""


def _first(values: Iterable[str]) -> str:
    return next((v.strip() for v in values if v.strip()), "")


def _meaningful(text: str) -> bool:
    """A cell that says more than "unplayed" (blank, U, U0: the padding of short sections)."""
    return text.strip().upper()[:1] not in ("", "U")


# ----------------------------------------------------------------------------------------
# Writing
# ----------------------------------------------------------------------------------------

def dbase3_bytes(fields: Sequence[tuple[str, str, int]], rows: Sequence[Sequence[str]],
                 updated: date, encoding: str = "cp1252") -> bytes:
    """A dBase III table (no memo file) holding ``rows`` of text in ``fields``.

    ``fields`` are (name, type, width); type is ``C`` (text, left-justified and padded with
    spaces), ``N`` (a number, right-justified) or ``D`` (a date, text ``YYYYMMDD``). Values
    must fit their width (the caller checks). The byte layout:

    Header, 32 bytes:
      0      version: 0x03 = dBase III without memo
      1-3    date of last update: year - 1900, month, day
      4-7    number of records, unsigned 32-bit little-endian
      8-9    header length = 32 + 32 * number of fields + 1 (the terminator), 16-bit LE
      10-11  record length = 1 (the deletion flag) + the sum of field widths, 16-bit LE
      12-28  reserved, zero
      29     language driver: 0x03 = Windows ANSI (cp1252), so readers decode names right
      30-31  reserved, zero
    Field descriptors, 32 bytes each:
      0-10   field name, ASCII, padded with NUL bytes
      11     type letter
      12-15  reserved (a field address in memory), zero
      16     field width in bytes
      17     decimal places, zero here
      18-31  reserved, zero
    0x0D ends the descriptors (dBase III writes no byte after it; SwissSys does the same).
    Records follow, each: one flag byte (0x20 live, 0x2A deleted) and the fields' bytes,
    fixed width, one after another. 0x1A ends the file.
    """
    header_len = 32 + 32 * len(fields) + 1
    record_len = 1 + sum(width for _, _, width in fields)
    out = bytearray(struct.pack("<BBBBIHH", 0x03, updated.year - 1900, updated.month,
                                updated.day, len(rows), header_len, record_len))
    out += bytes(17) + b"\x03" + bytes(2)
    for name, kind, width in fields:
        out += name.encode("ascii").ljust(11, b"\0") + kind.encode("ascii") + bytes(4)
        out += bytes([width, 0]) + bytes(14)
    out += b"\x0d"
    for row in rows:
        out += b" "
        for (_, kind, width), value in zip(fields, row, strict=True):
            text = value.rjust(width) if kind == "N" else value.ljust(width)
            out += text.encode(encoding)
    out += b"\x1a"
    return bytes(out)


#: The 2C layout of the notes: (name, type, width).
HEAD_FIELDS = (("H_FORMAT", "C", 5), ("H_PROGRAM", "C", 10), ("H_EVENT_ID", "C", 12),
               ("H_NAME", "C", 35), ("H_TOT_SECT", "C", 2), ("H_BEG_DATE", "D", 8),
               ("H_END_DATE", "D", 8), ("H_AFF_ID", "C", 8), ("H_CITY", "C", 21),
               ("H_STATE", "C", 2), ("H_ZIPCODE", "C", 10), ("H_COUNTRY", "C", 21),
               ("H_SENDCROS", "C", 1), ("H_CTD_ID", "C", 8), ("H_ATD_ID", "C", 8),
               ("H_OTHER_TD", "C", 254))  # 255 in the notes, above dBase III's limit of 254
SECTION_FIELDS = (("S_EVENT_ID", "C", 12), ("S_SEC_NUM", "C", 2), ("S_SEC_NAME", "C", 30),
                  ("S_R_SYSTEM", "C", 1), ("S_TIMECTL", "C", 40), ("S_CTD_ID", "C", 8),
                  ("S_ATD_ID", "C", 8), ("S_TRN_TYPE", "C", 1), ("S_TOT_RNDS", "C", 2),
                  ("S_LST_PAIR", "C", 4), ("S_BEG_DATE", "D", 8), ("S_END_DATE", "D", 8),
                  ("S_SCH_LVL", "C", 1), ("S_GR_PRIX", "C", 1), ("S_GP_PTS", "C", 3),
                  ("S_FIDE", "C", 1))
PLAYER_FIELDS = (("D_EVENT_ID", "C", 12), ("D_SEC_NUM", "C", 2), ("D_PAIR_NUM", "C", 4),
                 ("D_MEM_ID", "C", 8), ("D_NAME", "C", 30), ("D_STATE", "C", 2),
                 ("D_RATING", "C", 4))
CELL_WIDTH = 7
TYPE_OF = {SectionType.SWISS: "S", SectionType.ROUND_ROBIN: "R", SectionType.MATCH: "M"}


def write(event: Event, path: Path | str) -> list[Path]:
    """Write the three 2C files into the folder ``path`` (created if needed), or into a
    zip when ``path`` ends in ``.zip``; the paths written. Raises `ValueError` listing
    everything the format cannot hold (too long a name, an online section, ...)."""
    path = Path(path)
    files = report_files(event)
    if path.suffix.lower() == ".zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for name, data in files.items():
                archive.writestr(name, data)
        path.write_bytes(buffer.getvalue())
        return [path]
    if path.suffix.lower() == ".dbf":
        raise ValueError(f"{path}: a rating report is three files: give a folder or a .zip")
    path.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (path / name).write_bytes(data)
    return [path / name for name in files]


def report_files(event: Event) -> dict[str, bytes]:
    """The three files' bytes by name."""
    problems: list[str] = []
    event_id = event.id if len(event.id) <= 12 else ""
    plans = [_SectionPlan.of(s, problems) for s in event.sections]
    rounds = max([p.rounds for p in plans] + [1])
    _fit(problems, "event name", event.name, 35)
    _fit(problems, "number of sections", str(len(event.sections)), 2)
    if rounds > 99:
        problems.append(f"{rounds} rounds: the report has at most 99 round columns")
    if not 1900 <= event.end_date.year <= 1900 + 255:  # the header's year is one byte
        problems.append(f"end date {event.end_date}: a dBase header holds the years 1900 "
                        "to 2155")
    if problems:
        raise ValueError("cannot write a 2C rating report:\n" + "\n".join(problems))
    site = _head_details(event.details)
    head = [["2C", PROGRAM, event_id, event.name, str(len(event.sections)),
             _ymd(event.start_date), _ymd(event.end_date)] + site]
    tds = (site[HEAD_DETAILS.index("H_CTD_ID")], site[HEAD_DETAILS.index("H_ATD_ID")])
    sections = [p.section_row(event_id, *tds) for p in plans]
    cells = [(f"D_RND{n:02d}", "C", CELL_WIDTH) for n in range(1, rounds + 1)]
    players = [row for p in plans for row in p.player_rows(event_id, rounds)]
    return {
        "THEXPORT.DBF": dbase3_bytes(HEAD_FIELDS, head, event.end_date),
        "TSEXPORT.DBF": dbase3_bytes(SECTION_FIELDS, sections, event.end_date),
        "TDEXPORT.DBF": dbase3_bytes(PLAYER_FIELDS + tuple(cells), players, event.end_date),
    }


@dataclass
class _SectionPlan:
    section: Section
    letter: str
    main: System
    rounds: int

    @classmethod
    def of(cls, s: Section, problems: list[str]) -> _SectionPlan:
        label = f"section {s.number}"
        systems = s.systems
        if not systems:
            try:
                systems = section_systems(s, rules_for(s.start_date))
            except ValueError:
                systems = None  # written blank: the reader leaves it to the time control
        letter = ""
        if systems:
            letter = next((k for k, v in SYSTEM_LETTERS.items() if set(v) == set(systems)), "?")
            if any(x.online for x in systems) or s.online:
                problems.append(f"{label}: online ({', '.join(map(str, systems))}); the format "
                                "notes give no 2C letter for the online systems")
            elif letter == "?":
                problems.append(f"{label}: systems {', '.join(map(str, systems))} have no 2C "
                                "letter (R, Q, B, or D for R and Q)")
        if s.type not in TYPE_OF:
            problems.append(f"{label}: a {s.type.value} section is not reported on a 2C report")
        _fit(problems, f"{label} number", str(s.number), 2)
        _fit(problems, f"{label} name", s.name, 30)
        _fit(problems, f"{label} time control", s.time_control or "", 40)
        for p in s.players:
            _fit(problems, f"{label} pair {p.pair} pair number", str(p.pair), 4)
            _fit(problems, f"{label} pair {p.pair} member id", p.id, 8)
            _fit(problems, f"{label} pair {p.pair} name", p.name, 30)
            for system, rating in p.ratings.items():
                _fit(problems, f"{label} pair {p.pair} {system} rating",
                     str(rounded_rating(rating.rating)), 4)
            for r in p.results:
                _fit(problems, f"{label} pair {p.pair} round {r.round}", _cell(r), CELL_WIDTH)
        main = main_system(systems, s.time_control, s.start_date)
        rounds = max((r.round for p in s.players for r in p.results), default=0)
        return cls(s, letter.replace("?", ""), main, rounds)

    def section_row(self, event_id: str, chief: str = "", assistant: str = "") -> list[str]:
        """The section's record; its chief and assistant TD are the event's (as SwissSys
        writes them)."""
        s = self.section
        pairs = max((p.pair for p in s.players), default=0)
        return [event_id, str(s.number), s.name, self.letter, s.time_control or "", chief,
                assistant, TYPE_OF.get(s.type, "S"), str(self.rounds), str(pairs),
                _ymd(s.start_date), _ymd(s.end_date), "", "N", "", "N"]

    def player_rows(self, event_id: str, columns: int) -> list[list[str]]:
        rows = []
        for p in self.section.players:
            by_round = {r.round: _cell(r) for r in p.results}
            rating = p.ratings.get(self.main)
            rows.append([event_id, str(self.section.number), str(p.pair), p.id, p.name, "",
                         str(rounded_rating(rating.rating)) if rating else ""]
                        + [by_round.get(n, "U") for n in range(1, columns + 1)])
        return rows


#: THEXPORT's fields after the dates, in order: the event's details, and H_SENDCROS
HEAD_DETAILS = tuple(name for name, _, _ in HEAD_FIELDS[7:])


def _head_details(details: EventDetails) -> list[str]:
    """THEXPORT's fields from H_AFF_ID on. A value that does not fit its field, or
    Windows-1252, is left blank rather than cut (or the report refused: nothing in them
    changes a rating); `uscf convert` then warns of it, reading the report back
    (formats/losses.py). Directors are written by their ids: the format has no names."""
    def ident(found: Director | None) -> str:
        return found.id if found is not None else ""

    others = ",".join(d.id for d in details.other_directors if d.id)
    values = {"H_AFF_ID": details.affiliate_id, "H_CITY": details.city,
              "H_STATE": details.state, "H_ZIPCODE": details.zip_code,
              "H_COUNTRY": details.country, "H_SENDCROS": "",
              "H_CTD_ID": ident(details.chief_director),
              "H_ATD_ID": ident(details.assistant_director), "H_OTHER_TD": others}
    widths = {name: width for name, _, width in HEAD_FIELDS}
    return [values[name] if _fits(values[name], widths[name]) else "" for name in HEAD_DETAILS]


def _fits(value: str, width: int) -> bool:
    problems: list[str] = []
    _fit(problems, "", value, width)
    return not problems


def _cell(r: Result) -> str:
    """A round cell, left-justified: the letter, then the opponent for games and forfeits."""
    if r.code in "WLDXF" and r.opponent is not None:
        return f"{r.code}{r.opponent}"
    return r.code


def _fit(problems: list[str], what: str, value: str, width: int) -> None:
    if len(value) > width:
        problems.append(f"{what} {value!r} has {len(value)} characters; the field holds {width}")
    try:
        value.encode("cp1252")
    except UnicodeEncodeError:
        problems.append(f"{what} {value!r} has characters outside Windows-1252")


def _ymd(day: date) -> str:
    return f"{day.year:04d}{day.month:02d}{day.day:02d}"
