"""An event's crosstable and a member's history as files to download: CSV for a
spreadsheet, JSON as the API gives them.

Both are made from the public view the pages show (web/privacy.py): the ratings to whole
points, nothing from a birth date, so a download says no more than the page; a test holds
every number of the CSV to the public JSON. Cells a spreadsheet would run as formulas are
made inert (formats/csv_safety.py).
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

from fastapi.responses import Response

from ..core.formulas import published_form
from ..formats.csv_safety import safe_row

#: what ``?download=`` takes on an event's page and a member's
KINDS = ("csv", "json")

EVENT_COLUMNS = ("event_id", "section", "pair", "member_id", "name", "system", "pre",
                 "post", "games_after", "floor_held", "results", "norm")
HISTORY_COLUMNS = ("event_id", "event", "section", "end_date", "system", "pre", "post",
                   "games_after", "wins", "draws", "losses", "norm")


def event_csv(event: dict[str, Any]) -> str:
    """A row per player and system of a public event (`reads.event`): pre and post as
    crosstables show them (1556P14: provisional, with N), the floor that held the
    rating, the results as the crosstable's codes and the norm earned."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EVENT_COLUMNS)
    for section in event["sections"]:
        for player in section["players"]:
            for system, r in player["ratings"].items():
                writer.writerow(safe_row([
                    event["id"], section["number"], player["pair"], player["id"],
                    player["name"], system, published_form(r["pre"], r["pre_games"]),
                    "" if r["post"] is None else published_form(r["post"], r["games_after"]),
                    r["games_after"], r.get("floor_applied") or "", " ".join(player["results"]),
                    player["norm"] or ""]))
    return out.getvalue()


def history_csv(member: dict[str, Any]) -> str:
    """A row per rated section of a public member (`reads.player`), oldest first."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HISTORY_COLUMNS)
    for h in member["history"]:
        writer.writerow(safe_row([
            h["event_id"], h["event"] or "", h["section"], h["end_date"], h["system"],
            "" if h["pre"] is None else h["pre"], h["post"], h["games_after"],
            _count(h["wins"]), _count(h["draws"]), _count(h["losses"]), h["norm"] or ""]))
    return out.getvalue()


def _count(value: int | None) -> int | str:
    return "" if value is None else value


def download(kind: str, name: str, found: dict[str, Any], as_csv: str | None = None) -> Response:
    """``found`` as an attachment named ``name``.csv or .json; ``as_csv`` its CSV text."""
    if kind == "csv":
        assert as_csv is not None
        body, media = as_csv, "text/csv; charset=utf-8"
    else:
        body, media = json.dumps(found, indent=2), "application/json"
    return Response(body, media_type=media, headers=attachment(f"{name}.{kind}"))


def attachment(name: str) -> dict[str, str]:
    """The header that makes a response a file named ``name``, cleaned to what any
    system takes as a file name (letters, digits, dots, hyphens): no quote, no line
    break and nothing outside ASCII ever reaches the header.

    >>> attachment('rating-list-R-";x="-2027.csv')
    {'Content-Disposition': 'attachment; filename="rating-list-R-x-2027.csv"'}
    """
    plain = re.sub(r"-{2,}", "-", re.sub(r"[^A-Za-z0-9._-]+", "-", name))[:120]
    return {"Content-Disposition": f'attachment; filename="{plain}"'}
