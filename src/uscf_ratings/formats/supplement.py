"""Read the rating supplement US Chess publishes for tournament directors, so that a club
can seed a local pool from official (published) ratings.

`read_supplement` returns `formats.member_records.MemberRecord` values;
`read_supplement_entries` also keeps what a ``MemberRecord`` has no place for
(membership expiration, FIDE ID, status). Every problem in a file is collected and raised
together as one `uscf_ratings.formats.errors.ParseError`, each issue naming the line
or record and the column or field.

What is known about the files, and from where
=============================================

Nothing below comes from a published US Chess specification: the office itself said it had
none to give (Mike Nolan, "File Formats", https://uschess.discourse.group/t/file-formats/241).
These are the facts found, with their sources; code was not copied from any of them.

The dBase III files (the legacy "Golden Database", TARATSUP.DBF)
    * The supplement files are dBase III tables: a 32-byte header (byte 0 = 03h, bytes 1-3
      the date as YY-1900/MM/DD, bytes 4-7 the record count, 8-9 the header length, 10-11
      the record length), one 32-byte descriptor per field, a 0Dh terminator (US Chess's
      files have no 00h after it), the records, and a final 1Ah.
      https://uschess.discourse.group/t/file-formats-for-sending-in-reports-to-uscf/100
    * The Golden Database file is ``taratsup.dbf``
      (https://uschess.discourse.group/t/writing-software-for-running-tournaments-net-version/17354);
      SwissSys names the regular supplement ``TARSFLE.DBF`` and the Golden Database
      ``TARATSUP.DBF``, and says one file holds regular and quick ratings, the other regular
      and blitz
      (https://docs.chessroster.com/swisssys/app-docs/user-guide/registration/make-joint-uscf-database).
    * The DBF layout has room for two ratings only; blitz ratings came as a second set of
      files in the same layout (https://forum.uschess.org/t/rating-supplements-with-blitz-ratings-in-them/17554).
    * Both layouts hold name, ID, membership expiration date, state, regular and quick
      rating; the Golden one adds the supplement date (year and month). Each rating field is
      7 characters: in the Supplement layout the rating, then "/" and the number of games if
      provisional; in the Golden layout the rating, then P (provisional), E (established) or
      U (unrated), then 2 characters of unused norm data. Names are 27 characters
      (Supplement) or 17 (Golden). Bill Smythe, "A modest proposal for the electronic
      rating supplements", 2004,
      https://www.chessbanter.com/rec-games-chess-politics-chess-politics/5457-modest-proposal-electronic-rating-supplements.html
    * The Golden layout has no place for the provisional game count, and its P/E type field
      was once left blank (https://forum.uschess.org/t/provisional-established-information-in-databases/1049).

    NOT confirmed: the DBF *field names*. No source found gives them. The names this reader
    looks for (``MEM_ID``, ``MEM_NAME``, ``MEM_STATE``, ``MEM_EXP_DT``, ``R_RATING``,
    ``Q_RATING``, ``B_RATING``, ``ONL_RATING``, ... see `ALIASES`) are assumptions;
    a file with other names is read by passing ``columns={"ITS_NAME": "id", ...}``. Nor can
    the names tell the blitz edition's second rating from the quick one: map it with
    ``columns={"<field>": "B_rating"}``.

The current text download (``rtglist.txt``)
    * WinTD installs "a manually downloaded (and unzipped) Tab-Separated Values text file
      with the US Chess database" (https://estima.com/chess/wintdhelp/topics/uscfmenu.html).
    * A public loader of those files, github.com/26anikar/elotracker,
      ``tools/copy/copy_latest_uscf_supplement.cpp`` (commit d11ffe28), reads
      ``rtglist.txt`` from folders named ``ALLRTG<yymm>``: tab-separated; a header line
      that contains ``rtglistdate`` or ``rtgreg``; by column (0-based) 0 member ID, 1 name
      ("LAST, FIRST"), 2 state, 3 country, 5 an active flag, 6 FIDE ID, 7 FIDE federation,
      8 the member's rating-list date (YYYY-MM-...; empty for a member never rated), then
      the six ratings: columns 9-14 (R, Q, B, OR, OQ, OB) in files of fewer than 19
      columns, columns 9, 11, 13, 15, 17, 19 in files of 19 or more.

    NOT confirmed: column 4, the columns between the ratings in the wide layout (10, 12, ...,
    perhaps game counts), the names of the header's other columns, and how a provisional
    rating is written there. This reader leaves the unknown columns unread, reads a rating
    cell by the grammar below, and takes a rating with no provisional marker as established.
    The older ``RS<yymm>`` / ``RSQ`` / ``RSB`` text supplements that the same repository reads
    (``tools/copy/copysupplement.cpp``: ID in column 1, regular rating in 4) are not read: too
    little of their layout is known.

Other text files (CSV or TSV with a header)
    A header that names an ID column (any name in `ALIASES`, or one mapped with
    ``columns=``) is read by name: identity, expiration, FIDE ID, the list date and, per
    system S, a rating (``S_rating``), a game count (``S_games``) and a date (``S_date``).
    These names are this project's, not US Chess's.

Ratings and N
=============

A rating cell is read as (spaces allowed between the parts)::

    1456          a rating (no marker: taken as established)
    1456P12       provisional, on 12 games (the US Chess web site's style)
    1456/12       provisional, on 12 games (the old Supplement layout)
    1456P         provisional, game count not given (the Golden layout)
    1456E         established (the Golden layout's type E)
    1456*         read as 1456: the MSA member page shows such ratings, the
                  meaning of * is not confirmed (shared/spec/file-formats.md)
    (blank) 0 U   unrated (also 1456U: the Golden layout's type U): the rating is
                  skipped, the member is kept

The ``P`` + game count style is the US Chess web site's and the slash the printed lists'
(shared/spec/file-formats.md, "Display"); plain numbers are established ratings there too.

N (the games the rating rests on) is taken from the provisional marker, else from a games
column, else, for an established rating, it is *unknown* and set to ``established_games``
(26 unless the caller says otherwise; `SupplementEntry.assumed_games` names those
systems). 26 is the smallest established N (established = more than 25 games), and for an
established player the formulas use N only through N' = min(N, N*) (2025 text, section 3):
N* <= 26 for ratings up to about 1927, so for those N = 26 gives exactly the N' of any
established player. Above that N* grows
to 50 (at 2355), and N = 26 understates N' (so K comes out larger than US Chess's) unless the
real N is known: pass ``established_games=50`` to take N' = N* instead, which is exact for
anyone with at least N* games. A provisional rating whose game count is not given cannot be
used without guessing N; it is reported, unless ``provisional_games`` says what to assume.
"""

from __future__ import annotations

import codecs
import csv
import re
import struct
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date
from itertools import chain
from pathlib import Path
from typing import Any

from ..core.model import System
from .bounds import MAX_MEMBER_LINE_CHARS, MAX_MEMBER_LIST_BYTES, MAX_MEMBERS, too_many
from .common import is_digits
from .dbf import DbfTable, read_table
from .errors import Issue, ParseError
from .member_records import Baseline, MemberRecord

#: N assumed for an established rating whose N the file does not give (see the module text).
ESTABLISHED_GAMES = 26

SYSTEMS = tuple(System)

#: Canonical column keys: identity, then per system ``<code>_rating``, ``_games``, ``_date``.
IDENTITY_KEYS = ("id", "name", "state", "country", "expires", "status", "fide_id",
                 "fide_federation", "fide_rating", "birth_date", "as_of")


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _aliases() -> dict[str, str]:
    """Header or field name (normalized: lower case, letters and digits only) -> key."""
    table: dict[str, tuple[str, ...]] = {
        "id": ("id", "uscfid", "memid", "memberid", "mbrid", "uscf", "uscfnumber"),
        "name": ("name", "memname", "fullname", "playername"),
        "state": ("state", "memstate", "st"),
        "country": ("country", "memcountry"),
        "expires": ("expires", "expdate", "expdt", "memexpdt", "expiration", "expirationdate",
                    "memexp"),
        "status": ("status", "active", "activeflag", "memstatus"),
        "fide_id": ("fideid", "memfideid"),
        "fide_federation": ("fidefed", "fidefederation", "fidecountry"),
        "fide_rating": ("fiderating", "fidertg"),
        "birth_date": ("birthdate", "dob", "membirthdt"),
        "as_of": ("rtglistdate", "ratingdate", "rtgdate", "listdate", "suppdate", "asof"),
    }
    rating_names: dict[System, tuple[str, ...]] = {
        System.R: ("r", "rtgreg", "reg", "regular", "rating", "regrating", "regularrating"),
        System.Q: ("q", "rtgquick", "quick", "qrating", "quickrating"),
        System.B: ("b", "rtgblitz", "blitz", "brating", "blitzrating"),
        System.OR: ("or", "onl", "rtgonlreg", "onlreg", "onlinereg", "onlineregular",
                    "onlineregularrating"),
        System.OQ: ("oq", "rtgonlquick", "onlquick", "onlinequick", "onlinequickrating"),
        System.OB: ("ob", "rtgonlblitz", "onlblitz", "onlineblitz", "onlineblitzrating"),
    }
    out: dict[str, str] = {}
    for key, names in table.items():
        for n in names:
            out[n] = key
    for system, names in rating_names.items():
        key = system.value
        for n in names:
            if n != key.lower():  # a bare "r" or "q" is no rating column
                out.setdefault(n, f"{key}_rating")
            if n == "rating":
                continue
            out.setdefault(f"{n}rating", f"{key}_rating")
            for suffix in ("games", "gms"):
                out.setdefault(f"{n}{suffix}", f"{key}_games")
            out.setdefault(f"{n}date", f"{key}_date")
    return out


#: Every header or DBF field name this reader recognizes, normalized, with its key. Only
#: ``rtglistdate`` and ``rtgreg`` are names seen in a real US Chess file (see the module text).
ALIASES: dict[str, str] = _aliases()

#: Positional layout of ``rtglist.txt`` (github.com/26anikar/elotracker, see the module text).
RTGLIST_IDENTITY = {0: "id", 1: "name", 2: "state", 3: "country", 5: "status", 6: "fide_id",
                    7: "fide_federation", 8: "as_of"}
RTGLIST_NARROW = {9 + i: f"{s.value}_rating" for i, s in enumerate(SYSTEMS)}
RTGLIST_WIDE = {9 + 2 * i: f"{s.value}_rating" for i, s in enumerate(SYSTEMS)}
RTGLIST_WIDE_FROM = 19  #: a file with this many columns or more is the wide layout

# Numbers are ASCII digits only (re.ASCII: \d is 0-9, not another script's digits; see
# formats/common.py), as in every reader.
_RATING = re.compile(r"^(?P<r>\d{1,4}(?:\.\d+)?)\s*(?:(?P<m>[PE/*])\s*(?P<n>\d{1,3})?)?$", re.ASCII)
_UNRATED = re.compile(r"^(?:0*|\d*\s*U|UNR|UNRATED|NONE|-+)$", re.ASCII)  # U: Golden's "unrated"
_DATE_FORMATS = (
    (re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$", re.ASCII), "ymd"),
    (re.compile(r"^(\d{4})(\d{2})(\d{2})$", re.ASCII), "ymd"),
    (re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$", re.ASCII), "mdy"),
    (re.compile(r"^(\d{4})-(\d{1,2})$", re.ASCII), "ym"),
    (re.compile(r"^(\d{4})(\d{2})$", re.ASCII), "ym"),
)
#: A count or a rating in a column of its own: a sign (to say "negative"), up to 9 ASCII
#: digits (more is no count or rating, and would overflow a float's conversion to int).
_WHOLE = re.compile(r"(?P<sign>[-+]?)(?P<n>[0-9]{1,9})(?:\.0*)?")
_DECIMAL = re.compile(r"(?P<sign>[-+]?)(?P<n>[0-9]{1,9}(?:\.[0-9]+)?)")
DBF_VERSIONS = {0x03, 0x83}  #: dBase III without / with a memo file


@dataclass(frozen=True)
class ParsedRating:
    """A rating cell: the rating, the games in a provisional marker, and the marker."""

    rating: float
    games: int | None
    kind: str  #: "P" provisional, "E" established, "" no marker


def parse_rating(text: str) -> ParsedRating | None:
    """Read one rating cell; ``None`` for unrated or blank; ``ValueError`` if malformed.

    >>> parse_rating("1456P12")
    ParsedRating(rating=1456.0, games=12, kind='P')
    >>> parse_rating(" 1456/12"), parse_rating("2210E"), parse_rating("  U")
    (ParsedRating(rating=1456.0, games=12, kind='P'), ParsedRating(rating=2210.0, games=None, kind='E'), None)
    """
    value = text.strip().upper()
    if _UNRATED.match(value):
        return None
    m = _RATING.match(value)
    if not m:
        raise ValueError(f"{text.strip()!r} is not a rating (like 1456, 1456P12, 1456/12 or 1456E)")
    rating = float(m["r"])
    marker = m["m"] or ""
    if marker == "*":  # meaning not confirmed: read as an unmarked rating
        marker = ""
    if marker == "E" and m["n"]:
        raise ValueError(f"{text.strip()!r}: an established rating carries no game count")
    if not 100 <= rating <= 3000:
        raise ValueError(f"{text.strip()!r}: a rating is between 100 and 3000")
    games = int(m["n"]) if m["n"] else None
    if games is not None and games < 1:
        raise ValueError(f"{text.strip()!r}: a provisional rating rests on at least 1 game")
    kind = "P" if marker in ("P", "/") else "E" if marker == "E" else ""
    return ParsedRating(rating, games, kind)


def parse_date(text: str) -> date | None:
    """YYYY-MM-DD, YYYYMMDD, MM/DD/YYYY, or a month (YYYY-MM, YYYYMM: its first day).

    >>> parse_date("2026-03"), parse_date("20261231"), parse_date("  ")
    (datetime.date(2026, 3, 1), datetime.date(2026, 12, 31), None)
    """
    value = text.strip()
    if not value or set(value) <= {"0", "-", "/"}:
        return None
    for pattern, order in _DATE_FORMATS:
        m = pattern.match(value)
        if m:
            parts = [int(g) for g in m.groups()]
            y, mo, d = {"ymd": parts, "mdy": parts[2:] + parts[:2], "ym": parts + [1]}[order]
            try:
                return date(y, mo, d)
            except ValueError as error:  # 2026-02-30 and the like
                raise ValueError(f"{value!r} is not a date: {error}") from None
    raise ValueError(f"{value!r} is not a date (YYYY-MM-DD, YYYYMMDD, MM/DD/YYYY or YYYY-MM)")


@dataclass(frozen=True)
class SupplementEntry:
    """One member as the supplement gives them: the record, and what it has no field for."""

    member: MemberRecord
    expires: date | None = None
    fide_id: str | None = None
    fide_federation: str | None = None
    country: str | None = None
    status: str | None = None
    #: The systems whose N the file did not give: ``established_games`` or
    #: ``provisional_games`` stands in for it (``Rating.games_known`` False, for the office).
    assumed_games: frozenset[System] = frozenset()


def read_supplement(path: Path | str, *, columns: Mapping[str, str] | None = None,
                    established_games: int = ESTABLISHED_GAMES,
                    provisional_games: int | None = None) -> list[MemberRecord]:
    """Read a rating supplement (DBF, ``rtglist.txt``, or a CSV/TSV with a header).

    ``columns`` maps a file's own column or field names to keys (``id``, ``name``, ``state``,
    ``expires``, ``as_of``, ``R_rating``, ``Q_games``, ...) where `ALIASES` does not know
    them. ``established_games`` is the N given to an established rating whose N the file does
    not give: 26 by default, which is exact for N' = min(N, N*) while N* <= 26 (ratings up to
    about 1927) and understates N' above that (see the module text).
    ``provisional_games``, if given, is the N assumed for a provisional rating written without
    its game count; if not, such a rating is reported as a problem.
    """
    return [e.member for e in read_supplement_entries(
        path, columns=columns, established_games=established_games,
        provisional_games=provisional_games)]


def read_supplement_entries(path: Path | str, *, columns: Mapping[str, str] | None = None,
                            established_games: int = ESTABLISHED_GAMES,
                            provisional_games: int | None = None) -> list[SupplementEntry]:
    """As `read_supplement`, keeping expiration, FIDE ID, country and status."""
    path = Path(path)
    if established_games < 1:
        raise ValueError("established_games must be at least 1")
    overrides = {_norm(k): v for k, v in (columns or {}).items()}
    for key in overrides.values():
        if key not in IDENTITY_KEYS and not _is_system_key(key):
            raise ValueError(f"columns: {key!r} is not a key ({', '.join(IDENTITY_KEYS)}, "
                             "or <system>_rating / _games / _date)")
    try:
        with path.open("rb") as file:
            head = file.read(4096)
    except OSError as error:
        raise ParseError(str(path), [Issue("", f"cannot be read: {error.strerror or error}")]) from None
    rows: Iterable[_Row]
    if path.suffix.lower() == ".dbf" or (len(head) >= 32 and head[0] in DBF_VERSIONS
                                         and 0x0D in head[32:]):
        rows = _dbf_rows(path, overrides)
    else:
        rows = _text_rows(path, overrides)
    issues: list[Issue] = []
    entries = _entries(rows, issues, established_games, provisional_games)
    if issues:
        raise ParseError(str(path), issues)
    return entries


def _is_system_key(key: str) -> bool:
    code, _, what = key.rpartition("_")
    return code in {s.value for s in System} and what in ("rating", "games", "date")


@dataclass(frozen=True)
class _Row:
    """One row, ready to convert: where it is, key -> (the cell's column, its text), and a
    problem with the row as a whole (wrong number of columns), if any. A cell's place is
    the row's and its column's (`_place`), written out only when a message names it: a
    string per cell was most of the reader's memory."""

    where: str
    cells: dict[str, tuple[str, str]]
    problem: str | None = None


def _place(where: str, column: str) -> str:
    """``line 12, column 'Name'``: a cell's place, from its row's and its column's."""
    return f"{where}, {column}"


def _entries(rows: Iterable[_Row], issues: list[Issue], established_games: int,
             provisional_games: int | None) -> list[SupplementEntry]:
    entries: list[SupplementEntry] = []
    seen: dict[str, str] = {}
    for count, row in enumerate(rows, start=1):
        if count > MAX_MEMBERS:  # checked as the rows come: the file is never held whole
            issues.append(Issue(row.where, too_many(count, "rows of members", MAX_MEMBERS)))
            break
        if row.problem:
            issues.append(Issue(row.where, row.problem))
            continue
        entry = _entry(row.where, row.cells, issues, established_games, provisional_games)
        if entry is None:
            continue
        ident = entry.member.id
        if ident in seen:
            issues.append(Issue(_place(row.where, row.cells["id"][0]),
                                f"ID {ident} is also at {seen[ident]}"))
            continue
        seen[ident] = row.where
        entries.append(entry)
    return entries


def _entry(where: str, cells: dict[str, tuple[str, str]], found: list[Issue],
           established_games: int, provisional_games: int | None) -> SupplementEntry | None:
    """Convert one row; its problems go to ``found`` in the order of its columns."""
    issues: list[Issue] = []
    entry = _convert(where, cells, issues, established_games, provisional_games)
    if not issues:
        return entry
    order = {_place(where, column): i for i, (column, _) in enumerate(cells.values())}
    found.extend(sorted(issues, key=lambda issue: order.get(issue.where, -1)))
    return None


def _convert(where: str, cells: dict[str, tuple[str, str]], issues: list[Issue],
             established_games: int, provisional_games: int | None) -> SupplementEntry:
    def text(key: str) -> str:
        return cells[key][1].strip() if key in cells else ""

    def place(key: str) -> str:
        return _place(where, cells[key][0]) if key in cells else where

    def a_date(key: str) -> date | None:
        try:
            return parse_date(text(key))
        except ValueError as error:
            issues.append(Issue(place(key), str(error)))
            return None

    def a_number(key: str, kind: type) -> Any:
        value = text(key)
        if not value:
            return None
        m = (_WHOLE if kind is int else _DECIMAL).fullmatch(value)
        if m is None:
            expected = "a whole number" if kind is int else "a number"
            issues.append(Issue(place(key), f"{value!r} is not {expected} (up to 9 ASCII digits)"))
            return None
        number = kind(float(m["n"]))
        if m["sign"] == "-" and number:
            issues.append(Issue(place(key), f"{value!r} is negative"))
            return None
        return number

    ident = text("id")
    if not ident:
        issues.append(Issue(place("id"), "the member ID is missing"))
    elif not is_digits(ident):
        issues.append(Issue(place("id"), f"{ident!r} is not a member ID (digits only)"))
    as_of = a_date("as_of")
    ratings: dict[System, Baseline] = {}
    assumed: set[System] = set()
    for system in SYSTEMS:
        key = f"{system.value}_rating"
        try:
            parsed = parse_rating(text(key))
        except ValueError as error:
            issues.append(Issue(place(key), str(error)))
            continue
        games_col = a_number(f"{system.value}_games", int)
        when = a_date(f"{system.value}_date") or as_of
        if parsed is None:
            continue
        if parsed.games is not None and games_col is not None and parsed.games != games_col:
            issues.append(Issue(place(key), f"{text(key)!r} says {parsed.games} games, the games "
                                            f"column {games_col}"))
            continue
        games = parsed.games if parsed.games is not None else games_col
        if games is None:
            if parsed.kind == "P":
                if provisional_games is None:
                    issues.append(Issue(place(key), f"{text(key)!r} is provisional but gives no "
                                                    "game count, so N is unknown (pass "
                                                    "provisional_games= to assume one)"))
                    continue
                games = provisional_games
            else:
                games = established_games  # N unknown; see the module text
            assumed.add(system)
        ratings[system] = Baseline(rating=parsed.rating, games=games, as_of=when)
    record = MemberRecord(
        id=ident, name=text("name"), birth_date=a_date("birth_date"),
        state=text("state") or None, fide_rating=a_number("fide_rating", float), ratings=ratings)
    expires = a_date("expires")
    fide_id = text("fide_id")
    if fide_id and not is_digits(fide_id):
        issues.append(Issue(place("fide_id"), f"{fide_id!r} is not a FIDE ID (digits only)"))
    return SupplementEntry(member=record, expires=expires, fide_id=fide_id or None,
                           fide_federation=text("fide_federation") or None,
                           country=text("country") or None, status=text("status") or None,
                           assumed_games=frozenset(assumed))


# --- text files --------------------------------------------------------------------------


def _lines(path: Path) -> Iterator[str]:
    """The file's lines, as ``text.splitlines()`` of its whole text gives them, read one
    at a time: UTF-8 (a BOM skipped) if the whole file is, else Windows-1252. A line of
    more than `MAX_MEMBER_LINE_CHARS` characters, or a file of more than
    `MAX_MEMBER_LIST_BYTES` bytes, is refused (a line is held whole while it is read)."""
    size = path.stat().st_size
    if size > MAX_MEMBER_LIST_BYTES:
        raise ParseError(str(path), [Issue("", f"{size:,} bytes: larger than the "
                                           f"{MAX_MEMBER_LIST_BYTES:,} bytes a member list "
                                           "may have")])
    utf8 = _is_utf8(path)
    with path.open(encoding="utf-8-sig" if utf8 else "cp1252",
                   errors="strict" if utf8 else "replace", newline="") as handle:
        number = 0
        while piece := handle.readline(MAX_MEMBER_LINE_CHARS + 1):
            if len(piece) > MAX_MEMBER_LINE_CHARS:
                raise ParseError(str(path), [Issue(f"line {number + 1}", "more than "
                                                   f"{MAX_MEMBER_LINE_CHARS:,} characters")])
            for line in piece.splitlines():  # \f, \x85 and the like end lines too
                number += 1
                yield line


def _is_utf8(path: Path) -> bool:
    """Whether the whole file is UTF-8, read in pieces."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with path.open("rb") as handle:
            while piece := handle.read(1 << 16):
                decoder.decode(piece)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def _key_of(name: str, overrides: Mapping[str, str]) -> str | None:
    n = _norm(name)
    return overrides.get(n) or ALIASES.get(n)


def _text_rows(path: Path, overrides: Mapping[str, str]) -> Iterator[_Row]:
    """The rows of a text file, made one line at a time (`_lines`); the header is
    checked when the first row is asked for."""
    lines = _lines(path)
    skipped = []  # the blank lines before the first, which tells tab from comma
    for line in lines:
        skipped.append(line)
        if line.strip():
            break
    else:
        return
    every = chain(skipped, lines)
    split: Iterator[tuple[int, list[str]]]
    if "\t" in skipped[-1]:
        split = ((i, line.split("\t")) for i, line in enumerate(every, start=1) if line.strip())
    else:
        reader = csv.reader(every)
        split = ((reader.line_num, row) for row in reader if any(c.strip() for c in row))
    line1, header = next(split)
    if header and is_digits(header[0].strip()):  # no header: the rtglist layout
        yield from _rtglist(chain([(line1, header)], split))
        return
    keys = [_key_of(h, overrides) for h in header]
    normalized = [_norm(h) for h in header]
    if normalized[9:10] == ["rtgreg"] and not overrides:  # rtglist.txt's header: by position
        yield from _rtglist(split)
        return
    if "id" not in keys and "rtgreg" in normalized:
        raise ParseError(str(path), [Issue(f"line {line1}", "an rtglist header with rtgreg in column "
                                           f"{normalized.index('rtgreg') + 1}, not 10 as expected")])
    if "id" not in keys:
        raise ParseError(str(path), [Issue(f"line {line1}", "no member ID column in the header "
                                           f"({', '.join(h.strip() for h in header)}); name it with "
                                           "columns={'<header>': 'id'}")])
    dupes = {k for k in keys if k and keys.count(k) > 1}
    if dupes:
        named = list(zip(header, keys, strict=True))  # one key (or None) per header cell
        raise ParseError(str(path), [Issue(f"line {line1}", f"two columns read as {k}: "
                                           + ", ".join(h for h, kk in named if kk == k))
                                     for k in sorted(dupes)])
    columns = [(j, k, f"column {header[j].strip()!r}") for j, k in enumerate(keys) if k]
    for number, row in split:
        where = f"line {number}"
        if len(row) != len(header):
            yield _Row(where, {}, f"{len(row)} columns where the header has {len(header)}")
            continue
        yield _Row(where, {k: (column, row[j]) for j, k, column in columns})


#: each rtglist column's label, as a cell's place names it
_RTGLIST_COLUMNS = {layout_id: {j: (key, f"column {j + 1} ({key})")
                                for j, key in {**RTGLIST_IDENTITY, **layout}.items()}
                    for layout_id, layout in (("wide", RTGLIST_WIDE), ("narrow", RTGLIST_NARROW))}


def _rtglist(split: Iterable[tuple[int, list[str]]]) -> Iterator[_Row]:
    for line, row in split:
        where = f"line {line}"
        layout = _RTGLIST_COLUMNS["wide" if len(row) >= RTGLIST_WIDE_FROM else "narrow"]
        if len(row) < 10:
            yield _Row(where, {}, f"{len(row)} columns where rtglist.txt has at least 10 "
                                  "(ID to regular rating)")
            continue
        yield _Row(where, {key: (column, row[j] if j < len(row) else "")
                           for j, (key, column) in layout.items()})


# --- dBase III files ---------------------------------------------------------------------


def _dbf_rows(path: Path, overrides: Mapping[str, str]) -> Iterator[_Row]:
    """The rows of a DBF supplement, read by the project's one dBase reader
    (`formats.dbf.read_table`). The header is checked here, before any row is given; the
    rows are made one at a time, so a large file is never held twice over."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_MEMBER_LIST_BYTES + 1)
    except OSError as error:
        raise ParseError(str(path), [Issue("", f"cannot be read: {error.strerror or error}")]) from None
    if len(data) > MAX_MEMBER_LIST_BYTES:
        raise ParseError(str(path), [Issue("", f"larger than the {MAX_MEMBER_LIST_BYTES:,} "
                                           "bytes a member list may have")])
    if len(data) >= 12:  # refused before the records are made, counted by the bytes there
        _, header_len, record_len = struct.unpack_from("<IHH", data, 4)
        records = (len(data) - header_len) // max(record_len, 1)
        if records > MAX_MEMBERS:
            raise ParseError(str(path), [Issue("header", too_many(records, "records of "
                                                                  "members", MAX_MEMBERS))])
    problems: list[Issue] = []
    table = read_table(data, "header", problems)
    if table is None:  # nothing can be read: a broken or foreign header
        raise ParseError(str(path), [Issue(p.where, f"not a dBase III file: {p.message}")
                                     for p in problems])
    if problems:  # readable, but fewer records than the header says: refuse, drop nothing
        raise ParseError(str(path), problems)
    names = list(table.fields)
    keys = {name: _key_of(name, overrides) for name in names}
    if "id" not in keys.values():
        raise ParseError(str(path), [Issue("header", f"no member ID field among {', '.join(names)}; "
                                                     "name it with columns={'<FIELD>': 'id'}")])
    dupes = sorted({k for k in keys.values() if k and list(keys.values()).count(k) > 1})
    if dupes:
        raise ParseError(str(path), [Issue("header", f"two fields read as {k}: "
                                           + ", ".join(n for n in names if keys[n] == k))
                                     for k in dupes])
    return _dbf_records(table, keys)


def _dbf_records(table: DbfTable, keys: Mapping[str, str | None]) -> Iterator[_Row]:
    """One row per live record, numbered as in the file (a deleted record keeps its number)."""
    labels = {name: f"field {name}" for name in table.fields}
    for number, record in table.records:
        where = f"record {number}"
        cells = {}
        for name, value in record.items():
            key = keys[name]
            if not key:
                continue
            if table.fields[name].type == "D":
                value = value.strip()
            cells[key] = (labels[name], value.replace("\x00", " "))
        yield _Row(where, cells)
