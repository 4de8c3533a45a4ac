"""Read a member list an office starts from: a CSV or JSON list of its own, or (handed
over by content) the rating supplement US Chess publishes for directors
(`formats.supplement`).

Each gives `MemberRecord` values (`formats.member_records`): identity, what Step 1 needs
(birth date, adult, FIDE and CFC ratings) and a baseline rating per system with its N and
history counts. Every problem in a file is collected and raised together as one
`uscf_ratings.formats.errors.ParseError`, each issue naming the line or JSON path and the
field.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from ..core.model import System
from ..core.norms import NORM_CODES
from ..core.titles import TITLE_NAMES
from .bounds import MAX_MEMBERS, read_input, too_many
from .common import kind_of, load_json
from .errors import Issue, ParseError
from .member_records import Baseline, MemberRecord
from .supplement import read_supplement

#: CSV columns: identity, then per system S in R, Q, B, OR, OQ, OB the columns
#: S_rating, S_games, S_date, S_wins, S_draws, S_losses, S_events3, S_peak, S_floor, S_olm,
#: S_games_above_2200.
CSV_IDENTITY = ("id", "name", "birth_date", "adult", "state", "fide_rating", "fide_date",
                "cfc_rating", "cfc_date", "canadian_resident")
CSV_RATING = ("rating", "games", "date", "wins", "draws", "losses", "events3", "peak", "floor",
              "olm", "games_above_2200")
#: titles already earned: ``CandidateMaster:2019-05-04;FourthCategory`` (AwardType names,
#: each with its date where known), and norms already earned at each level (that level's
#: own count): ``norms_4`` ... ``norms_S`` for 'N:4' ... 'N:S'
CSV_TITLES = ("titles",)
CSV_NORMS = tuple(f"norms_{code[2:]}" for code in NORM_CODES)


def read_members(path: Path | str) -> list[MemberRecord]:
    """Read a members file: .csv, .json, or a rating supplement (by its content).

    A ``.csv`` whose first line begins with ``id`` is this project's own list; any other
    file goes to `read_supplement`. Every problem is raised together as a `ParseError`.
    """
    path = Path(path)
    if path.suffix.lower() == ".json":
        return _from_json(path, _utf8(path, _bytes(path)))
    if path.suffix.lower() == ".csv":
        data = _bytes(path)
        first = data.split(b"\n", 1)[0].decode("utf-8-sig", errors="replace")
        if first.strip().lower().startswith("id"):
            return _from_csv(path, _utf8(path, data))
    return read_supplement(path)


def _bytes(path: Path) -> bytes:
    return read_input(path)


def _utf8(path: Path, data: bytes) -> str:
    """A member list of our own is UTF-8 (a rating supplement may be Windows-1252: its reader
    takes that); anything else is refused at the line of the first byte that is not."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ParseError(str(path), [Issue(f"line {line}", f"byte 0x{data[error.start]:02X} is not "
                                                           "UTF-8: expected UTF-8 text")]) from None


#: A number as text: up to 9 ASCII digits (never another script's, see formats/common.py;
#: more is no rating or count, and int() refuses thousands), a sign (so that the office can
#: refuse a negative rating with its own message) and for a decimal an optional fraction.
_WHOLE = re.compile(r"[-+]?[0-9]{1,9}")
_DECIMAL = re.compile(r"[-+]?[0-9]{1,9}(?:\.[0-9]+)?")


class _Fields:
    """Convert text fields, collecting every problem with its place."""

    def __init__(self, issues: list[Issue]):
        self.issues = issues

    def date(self, value: Any, where: str) -> date | None:
        if value in (None, ""):
            return None
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            self.issues.append(Issue(where, f"{value!r} is not a date as YYYY-MM-DD"))
            return None

    def decimal(self, value: Any, where: str) -> float | None:
        """A number: JSON's (finite) or text such as 1850 or 1850.37."""
        if value in (None, ""):
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
            return float(value)
        if isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
            return float(value)
        self.issues.append(Issue(where, f"{value!r} is not a number (up to 9 ASCII digits, "
                                        "such as 1850 or 1850.37)"))
        return None

    def whole(self, value: Any, where: str) -> int | None:
        """A whole number: JSON's (12 or 12.0, not 12.7) or text such as 12."""
        if value in (None, ""):
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            return int(value)
        self.issues.append(Issue(where, f"{value!r} is not a whole number (up to 9 ASCII "
                                        "digits, such as 12)"))
        return None

    def flag(self, value: Any, where: str) -> bool | None:
        if value in (None, ""):
            return None
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "y", "t"):
            return True
        if text in ("0", "false", "no", "n", "f"):
            return False
        self.issues.append(Issue(where, f"{value!r} is not true/false"))
        return None

    def known(self, keys: Iterable[str], allowed: Iterable[str], where: str, what: str) -> None:
        """Refuse keys the list has no place for: a misspelt column is not left unread."""
        allowed = tuple(allowed)
        for key in keys:
            if key not in allowed:
                self.issues.append(Issue(where, f"{key!r} is not a {what} "
                                                f"(expected {', '.join(allowed)})"))


def _record(row: dict[str, Any], ratings: Any, where: str, f: _Fields) -> MemberRecord | None:
    ident = str(row.get("id") or "").strip()
    if not ident:
        f.issues.append(Issue(where, "id is missing"))
        return None
    if not isinstance(ratings, dict):
        f.issues.append(Issue(f"{where}.ratings", f"expected an object of systems, such as "
                                                  f"{{\"R\": {{\"rating\": 1500, \"games\": 30}}}}, "
                                                  f"not {kind_of(ratings)}"))
        ratings = {}
    baselines: dict[System, Baseline] = {}
    for code, r in ratings.items():
        try:
            system = System(code)
        except ValueError:
            f.issues.append(Issue(f"{where}.ratings", f"{code!r} is not a system (R, Q, B, OR, OQ, OB)"))
            continue
        here = f"{where}.ratings.{code}"
        if not isinstance(r, dict):
            f.issues.append(Issue(here, f"expected an object such as {{\"rating\": 1500, "
                                        f"\"games\": 30}}, not {kind_of(r)}"))
            continue
        f.known(r, CSV_RATING, here, "rating field")
        rating = f.decimal(r.get("rating"), f"{here}.rating")
        games = f.whole(r.get("games"), f"{here}.games")
        if rating is None:
            continue
        if games is None:
            if r.get("games") in (None, ""):  # else a bad N, already reported
                f.issues.append(Issue(f"{here}.games", "N (games) is needed with a rating"))
            continue
        baselines[system] = Baseline(
            rating=rating, games=games, as_of=f.date(r.get("date"), f"{here}.date"),
            wins=f.whole(r.get("wins"), f"{here}.wins"),
            draws=f.whole(r.get("draws"), f"{here}.draws"),
            losses=f.whole(r.get("losses"), f"{here}.losses"),
            events3=f.whole(r.get("events3"), f"{here}.events3"),
            peak=f.decimal(r.get("peak"), f"{here}.peak"),
            floor=f.decimal(r.get("floor"), f"{here}.floor"),
            olm=bool(f.flag(r.get("olm"), f"{here}.olm")),
            games_above_2200=f.whole(r.get("games_above_2200"), f"{here}.games_above_2200"),
        )
    state = row.get("state")
    titles = _titles(row.get("titles"), f"{where}.titles", f)
    norms = _norms(row.get("norms"), f"{where}.norms", f)
    return MemberRecord(
        id=ident, name=str(row.get("name") or ""),
        birth_date=f.date(row.get("birth_date"), f"{where}.birth_date"),
        adult=f.flag(row.get("adult"), f"{where}.adult"),
        state=(str(state).strip() or None) if state is not None else None,
        fide_rating=f.decimal(row.get("fide_rating"), f"{where}.fide_rating"),
        fide_date=f.date(row.get("fide_date"), f"{where}.fide_date"),
        cfc_rating=f.decimal(row.get("cfc_rating"), f"{where}.cfc_rating"),
        cfc_date=f.date(row.get("cfc_date"), f"{where}.cfc_date"),
        canadian_resident=f.flag(row.get("canadian_resident"), f"{where}.canadian_resident"),
        ratings=baselines, titles=titles, norms=norms,
    )


def _titles(given: Any, where: str, f: _Fields) -> dict[str, date | None]:
    """Titles earned: JSON's ``{"CandidateMaster": "2019-05-04", "FourthCategory": null}``
    or the CSV's ``CandidateMaster:2019-05-04;FourthCategory``; each name one of
    US Chess's AwardType names."""
    if given in (None, ""):
        return {}
    if isinstance(given, str):
        pairs = [part.strip().partition(":") for part in given.split(";") if part.strip()]
        given = {name.strip(): day.strip() or None for name, _, day in pairs}
    if not isinstance(given, dict):
        f.issues.append(Issue(where, f"expected titles such as {{\"CandidateMaster\": "
                                     f"\"2019-05-04\"}}, not {kind_of(given)}"))
        return {}
    titles: dict[str, date | None] = {}
    for name, day in given.items():
        if name not in TITLE_NAMES:
            f.issues.append(Issue(where, f"{name!r} is not a title (expected one of "
                                         f"{', '.join(TITLE_NAMES)})"))
            continue
        titles[name] = f.date(day, f"{where}.{name}")
    return titles


def _norms(given: Any, where: str, f: _Fields) -> dict[str, int]:
    """Norms earned by level: JSON's ``{"N:4": 2, "N:C": 1}`` (the CSV's ``norms_4`` ...
    columns are gathered into the same)."""
    if given in (None, ""):
        return {}
    if not isinstance(given, dict):
        f.issues.append(Issue(where, f"expected norms by level such as {{\"N:4\": 2}}, "
                                     f"not {kind_of(given)}"))
        return {}
    norms: dict[str, int] = {}
    for code, count in given.items():
        if code not in NORM_CODES:
            f.issues.append(Issue(where, f"{code!r} is not a norm level (expected one of "
                                         f"{', '.join(NORM_CODES)})"))
            continue
        number = f.whole(count, f"{where}.{code}")
        if number is not None:
            norms[code] = number
    return norms


#: Every column of the CSV list: identity, then per system ``<code>_<rating field>``.
CSV_COLUMNS = (CSV_IDENTITY + CSV_TITLES + CSV_NORMS
               + tuple(f"{s.value}_{k}" for s in System for k in CSV_RATING))


def _from_csv(path: Path, text: str) -> list[MemberRecord]:
    issues: list[Issue] = []
    f = _Fields(issues)
    reader = csv.reader(text.splitlines())
    header = [h.strip() for h in next(reader, [])]
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if unknown:
        expected = (f"{', '.join(CSV_IDENTITY + CSV_TITLES + CSV_NORMS)}, and per system S "
                    "(R, Q, B, OR, OQ, OB) " + ", ".join(f"S_{k}" for k in CSV_RATING))
        raise ParseError(str(path), [Issue("line 1", f"column {h!r} is not a member-list column "
                                                     f"(expected {expected})") for h in unknown])
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:
        raise ParseError(str(path), [Issue("line 1", f"column {h!r} is given twice") for h in twice])
    records = []
    count = 0
    for cells in reader:
        where = f"line {reader.line_num}"
        if not any(c.strip() for c in cells):
            continue
        count += 1
        if count > MAX_MEMBERS:  # as the rows come: the records are never all made
            issues.append(Issue(where, too_many(count, "rows of members", MAX_MEMBERS)))
            break
        if len(cells) != len(header):
            issues.append(Issue(where, f"{len(cells)} columns where the header has {len(header)}"))
            continue
        row = dict(zip(header, cells, strict=True))
        ratings = {
            code: {k: row.get(f"{code}_{k}") for k in CSV_RATING}
            for code in (s.value for s in System) if row.get(f"{code}_rating")
        }
        norms = {f"N:{column[6:]}": row[column] for column in CSV_NORMS if row.get(column)}
        record = _record(row | {"norms": norms}, ratings, where, f)
        if record:
            records.append(record)
    if issues:
        raise ParseError(str(path), issues)
    return records


def _from_json(path: Path, text: str) -> list[MemberRecord]:
    try:
        data = load_json(text, str(path))
    except ParseError:
        raise
    except ValueError as error:  # json's own limit: an integer of over 4,300 digits
        raise ParseError(str(path), [Issue("", f"not valid JSON: {error}")]) from None
    rows = data.get("members") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ParseError(str(path), [Issue("", "expected a list of members or {\"members\": [...]}")])
    if len(rows) > MAX_MEMBERS:
        raise ParseError(str(path), [Issue("", too_many(len(rows), "members", MAX_MEMBERS))])
    issues: list[Issue] = []
    f = _Fields(issues)
    records = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            issues.append(Issue(f"members[{i}]", "expected an object"))
            continue
        f.known(row, CSV_IDENTITY + ("ratings", "titles", "norms"), f"members[{i}]",
                "member field")
        record = _record(row, row.get("ratings") or {}, f"members[{i}]", f)
        if record:
            records.append(record)
    if issues:
        raise ParseError(str(path), issues)
    return records
