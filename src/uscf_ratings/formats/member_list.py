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
import json
from datetime import date
from pathlib import Path
from typing import Any

from ..core.model import System
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


def read_members(path: Path | str) -> list[MemberRecord]:
    """Read a members file: .csv, .json, or a rating supplement (by its content)."""
    path = Path(path)
    if path.suffix.lower() == ".json":
        return _from_json(path)
    if path.suffix.lower() == ".csv":
        text = path.read_text(encoding="utf-8-sig")
        if text.split("\n", 1)[0].strip().lower().startswith("id"):
            return _from_csv(path, text)
    return read_supplement(path)


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

    def number(self, value: Any, where: str, kind: type = float) -> Any:
        if value in (None, ""):
            return None
        try:
            return kind(value)
        except (TypeError, ValueError):
            self.issues.append(Issue(where, f"{value!r} is not a {kind.__name__}"))
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


def _record(row: dict[str, Any], ratings: dict[str, dict[str, Any]], where: str,
            f: _Fields) -> MemberRecord | None:
    ident = str(row.get("id") or "").strip()
    if not ident:
        f.issues.append(Issue(where, "id is missing"))
        return None
    baselines: dict[System, Baseline] = {}
    for code, r in ratings.items():
        try:
            system = System(code)
        except ValueError:
            f.issues.append(Issue(f"{where}.ratings", f"{code!r} is not a system (R, Q, B, OR, OQ, OB)"))
            continue
        here = f"{where}.ratings.{code}"
        rating = f.number(r.get("rating"), f"{here}.rating")
        games = f.number(r.get("games"), f"{here}.games", int)
        if rating is None:
            continue
        if games is None:
            f.issues.append(Issue(f"{here}.games", "N (games) is needed with a rating"))
            continue
        baselines[system] = Baseline(
            rating=rating, games=games, as_of=f.date(r.get("date"), f"{here}.date"),
            wins=f.number(r.get("wins"), f"{here}.wins", int),
            draws=f.number(r.get("draws"), f"{here}.draws", int),
            losses=f.number(r.get("losses"), f"{here}.losses", int),
            events3=f.number(r.get("events3"), f"{here}.events3", int),
            peak=f.number(r.get("peak"), f"{here}.peak"),
            floor=f.number(r.get("floor"), f"{here}.floor"),
            olm=bool(f.flag(r.get("olm"), f"{here}.olm")),
            games_above_2200=f.number(r.get("games_above_2200"), f"{here}.games_above_2200", int),
        )
    return MemberRecord(
        id=ident, name=str(row.get("name") or ""),
        birth_date=f.date(row.get("birth_date"), f"{where}.birth_date"),
        adult=f.flag(row.get("adult"), f"{where}.adult"),
        state=(row.get("state") or None),
        fide_rating=f.number(row.get("fide_rating"), f"{where}.fide_rating"),
        fide_date=f.date(row.get("fide_date"), f"{where}.fide_date"),
        cfc_rating=f.number(row.get("cfc_rating"), f"{where}.cfc_rating"),
        cfc_date=f.date(row.get("cfc_date"), f"{where}.cfc_date"),
        canadian_resident=f.flag(row.get("canadian_resident"), f"{where}.canadian_resident"),
        ratings=baselines,
    )


def _from_csv(path: Path, text: str) -> list[MemberRecord]:
    issues: list[Issue] = []
    f = _Fields(issues)
    records = []
    for line, row in enumerate(csv.DictReader(text.splitlines()), start=2):
        ratings = {
            code: {k: row.get(f"{code}_{k}") for k in CSV_RATING}
            for code in (s.value for s in System) if row.get(f"{code}_rating")
        }
        record = _record(row, ratings, f"line {line}", f)
        if record:
            records.append(record)
    if issues:
        raise ParseError(str(path), issues)
    return records


def _from_json(path: Path) -> list[MemberRecord]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ParseError(str(path), [Issue(f"line {error.lineno} column {error.colno}",
                                           f"not valid JSON: {error.msg}")]) from None
    rows = data.get("members") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise ParseError(str(path), [Issue("", "expected a list of members or {\"members\": [...]}")])
    issues: list[Issue] = []
    f = _Fields(issues)
    records = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            issues.append(Issue(f"members[{i}]", "expected an object"))
            continue
        record = _record(row, row.get("ratings") or {}, f"members[{i}]", f)
        if record:
            records.append(record)
    if issues:
        raise ParseError(str(path), issues)
    return records
