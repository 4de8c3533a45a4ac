"""Reading the office: a member's ratings and history, an event's crosstable, rating lists."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, func, select

from ..core.formulas import published_form, round_half_up, rounded_rating
from ..core.model import KFactor, SectionType, System
from ..core.results import NormResult, RatingResult
from ..formats.csv_safety import safe_row
from ..formats.event_details import details_from_json, details_to_dict
from ..formats.result_json import norm_to_dict, rating_to_dict
from . import schema as t
from .db import Driver
from .explain import explain_event
from .history import published
from .store import RATING_ORDER, aliases, latest_states
from .titles import TITLE_SYSTEM, member_title_status, status_to_dict


def display(rating: float, games: int) -> str:
    """A rating as published: 1456, or 1456P12 while provisional (25 games or fewer)."""
    return published_form(rating, games)


def player(c: Connection, member_id: str, as_of: date | None = None
           ) -> dict[str, Any] | None:
    """A member's ratings per system and history (oldest first), with the rated games
    won, drawn and lost in each event (``history``) and in all the events on record
    (``ratings``: None where an event of the system lacks its counts, as rows stored
    before the office kept them do, or where the system has no event); and what US
    Chess published of the member, where it was imported (``published``:
    office/history.py); the titles held on ``as_of`` (after every stored event when None)
    and the norms toward each level, with the events that earned them (``titles``:
    office/titles.py). Each history row has the norm earned (``norm``: the crosstable's
    code, on the Regular row)."""
    merged_ids = aliases(c)
    member_id = merged_ids.get(member_id, member_id)
    row = c.execute(select(t.members).where(t.members.c.id == member_id)).first()
    if row is None:
        return None
    states = latest_states(c, [member_id])
    history = [
        {"event_id": r.event_id, "event": r.name, "section": r.section,
         "end_date": r.end_date.isoformat(), "system": r.system,
         "pre": r.pre, "post": r.post, "post_rounded": rounded_rating(r.post),
         "games_after": r.games_after, "floor": r.floor,
         "wins": r.wins, "draws": r.draws, "losses": r.losses, "norm": r.norm}
        for r in c.execute(
            select(t.ratings.c.event_id, t.events.c.name, t.ratings.c.section,
                   t.ratings.c.end_date, t.ratings.c.system, t.ratings.c.pre, t.ratings.c.post,
                   t.ratings.c.games_after, t.ratings.c.floor, t.ratings.c.wins,
                   t.ratings.c.draws, t.ratings.c.losses, t.ratings.c.norm)
            .join(t.events, t.events.c.id == t.ratings.c.event_id)
            .where(t.ratings.c.member_id == member_id)
            .order_by(t.ratings.c.end_date, t.ratings.c.start_date, t.ratings.c.event_id,
                      t.ratings.c.section, t.ratings.c.system))
    ]
    floors = {h["system"]: h["floor"] for h in history}  # in order: the last wins
    ratings = {}
    for (_, system), state in sorted(states.items(), key=lambda kv: kv[0][1].value):
        events = [h for h in history if h["system"] == system.value]
        # a total only where every event has its counts: never a part shown as the whole
        counted = events if all(h["wins"] is not None for h in events) else []
        ratings[system.value] = {
            "rating": state.rating,  # unrounded: each view rounds it once
            "display": display(state.rating, state.games),
            "games": state.games,
            "floor": floors.get(system.value),
            "peak": state.peak,
            "as_of": state.date.isoformat() if state.date else None,
            **{name: sum(h[name] for h in counted) if counted else None
               for name in RESULT_COUNTS},
        }
    merged = sorted(k for k, v in merged_ids.items() if v == member_id)
    return {"id": member_id, "name": row.name, "state": row.state, "merged_ids": merged,
            "ratings": ratings, "history": history, "published": published(c, member_id),
            "titles": status_to_dict(member_title_status(c, member_id, as_of))}


#: the rated games a player won, drew and lost, as `player` names them
RESULT_COUNTS = ("wins", "draws", "losses")


def event(c: Connection, event_id: str) -> dict[str, Any] | None:
    """A stored event as the office stored it: each player's numbers are the rows of the
    ratings table. The explanation comes from rating the section again (explain.py) and
    is shown only where it gives the stored numbers; where it does not (a row written by
    an earlier version, say), the stored numbers stand alone with a note saying so.

    Beside its id, name, dates and corrections: ``online``, and ``details``, what the
    file gave of the place, the affiliate and the directors, with every key present
    (``""``, ``None`` or ``[]`` for what it did not give; `event_details.details_to_dict`):
    ``city``, ``state``, ``zip_code``, ``country``, ``site``, ``affiliate_id``,
    ``affiliate_name``, ``chief_director`` and ``assistant_director`` (``{"id", "name"}``
    or None) and ``other_directors`` (a list of them). Each section has its dates,
    ``time_control`` (None when the file gave none), ``type``, ``systems``, ``k``,
    ``online`` and ``rule_set``."""
    row = c.execute(select(t.events).where(t.events.c.id == event_id)).first()
    if row is None:
        return None
    source = json.loads(row.source)["input"]
    head = source["event"]
    merged = aliases(c)
    stored_rows: dict[tuple[int, str], dict[str, Any]] = {}
    stored_norms: dict[tuple[int, str], str | None] = {}
    for r in c.execute(select(t.ratings).where(t.ratings.c.event_id == event_id)):
        stored_rows.setdefault((r.section, r.member_id), {})[r.system] = _stored_rating(r)
        if r.system == TITLE_SYSTEM:
            stored_norms[(r.section, r.member_id)] = r.norm
    explained: dict[tuple[int, str], dict[str, RatingResult]] = {}
    norms: dict[tuple[int, str], NormResult] = {}
    for result in explain_event(c, event_id):
        for player in result.players:  # ids are merged ids already: explained as rated
            for system, rating in player.ratings.items():
                explained.setdefault((result.number, player.id), {})[system.value] = rating
            if player.norm is not None:
                norms[(result.number, player.id)] = player.norm
    # the sections table has each section's dates and systems (the stored event JSON is
    # the file as submitted, where a section may take the event's dates)
    stored = {r.number: r for r in c.execute(
        select(t.sections.c.number, t.sections.c.start_date, t.sections.c.end_date,
               t.sections.c.systems, t.sections.c.rule_set)
        .where(t.sections.c.event_id == event_id))}
    sections = []
    for s in source["sections"]:
        players = []
        for p in s["players"]:
            member = merged.get(p.get("id", ""), p.get("id", ""))
            key = (s["number"], member)
            ratings = {system: _with_explanation(numbers, explained.get(key, {}).get(system))
                       for system, numbers in stored_rows.get(key, {}).items()}
            players.append({"pair": p["pair"], "id": member, "name": p.get("name", ""),
                            "results": p["results"], "ratings": ratings,
                            "norm": stored_norms.get(key),
                            "norm_explanation": _norm(stored_norms.get(key), norms.get(key))})
        kept = stored[s["number"]]
        sections.append({"number": s["number"], "name": s.get("name", ""),
                         "start_date": kept.start_date.isoformat(),
                         "end_date": kept.end_date.isoformat(),
                         "systems": kept.systems.split(","),
                         "time_control": s.get("time_control"),
                         "type": s.get("type", SectionType.SWISS.value),
                         "k": s.get("k", KFactor.FULL.value),
                         "online": s.get("online", head.get("online", False)),
                         "rule_set": kept.rule_set.isoformat(), "players": players})
    return {"id": row.id, "name": row.name, "start_date": row.start_date.isoformat(),
            "end_date": row.end_date.isoformat(), "corrections": row.corrections,
            "online": head.get("online", False),
            "details": details_to_dict(details_from_json(head.get("details", {}))),
            "sections": sections}


def event_states(c: Connection) -> list[tuple[str, int]]:
    """The states the stored events were played in (the events table's ``state``: as
    the files give it, upper-cased) and how many events each, by state; events whose
    file gives no state are left out. For a list of events searched by state."""
    rows = c.execute(select(t.events.c.state, func.count()).where(t.events.c.state.is_not(None))
                     .group_by(t.events.c.state).order_by(t.events.c.state))
    return [(r[0], r[1]) for r in rows]


def _stored_rating(r: Any) -> dict[str, Any]:
    """A row of the ratings table in the shape of `rating_to_dict`."""
    return {"pre": r.pre, "pre_games": r.pre_games, "post": r.post,
            "post_rounded": None if r.post is None else rounded_rating(r.post),
            "post_2dp": None if r.post is None else round_half_up(r.post, 2),
            "games_after": r.games_after, "floor": r.floor}


def _norm(stored: str | None, result: NormResult | None) -> dict[str, Any] | None:
    """The explanation of a player's stored norm (`result_json.norm_to_dict`, as
    `uscf rate --json` gives it: the expected score and the margin at each level, or why
    the player could not earn one), where rating the section again gives the stored code;
    None otherwise (no Regular row, or a section stored before norms were kept)."""
    if result is None or result.code != stored:
        return None
    return norm_to_dict(result)


def _with_explanation(numbers: dict[str, Any], result: RatingResult | None) -> dict[str, Any]:
    """The stored numbers, with the explanation where it gives them to 1e-9."""
    agrees = result is not None and result.post is not None and numbers["post"] is not None \
        and abs(result.post - numbers["post"]) <= 1e-9 and result.pre == numbers["pre"]
    if not agrees:
        return numbers | {"notes": ["the explanation is not shown: rating the section "
                                    "again does not give the stored numbers"]}
    assert result is not None
    return rating_to_dict(result) | numbers


@dataclass(frozen=True)
class ListEntry:
    id: str
    name: str
    rating: float
    games: int
    as_of: date | None

    @property
    def display(self) -> str:
        return display(self.rating, self.games)


def rating_list(c: Connection, as_of: date, system: System) -> list[ListEntry]:
    """The rating each member had after the last event ending on or before ``as_of``
    (members rated only by import: their imported rating, if dated on or before it).

    Every rating of the system up to that day is read, in the order of the rating loop,
    so that each member's last one wins: at a year of 100,000 members some 330,000
    rows, read through the driver (`Driver`), with the dates of the entries kept
    converted at the end rather than those of every row."""
    driver = Driver(c)
    latest: dict[str, tuple[float, int, Any]] = {}
    for member, rating, games, day in driver.rows(
            "SELECT member_id, rating, games, as_of FROM baselines WHERE system = ?",
            [system.value], (t.baselines.c.member_id, t.baselines.c.rating,
                             t.baselines.c.games, t.baselines.c.as_of)):
        if day is None or day <= as_of:
            latest[member] = (rating, games, day)
    # the end dates as the driver gives them (text in SQLite), converted once at the end
    for member, post, games, day in driver.execute(
            "SELECT member_id, post, games_after, end_date FROM ratings WHERE system = ? "
            f"AND end_date <= ? ORDER BY {RATING_ORDER}", [system.value, driver.date(as_of)]):
        latest[member] = (post, games, day)
    to_date = driver.reader(t.ratings.c.end_date)
    names = {r.id: r.name for r in c.execute(select(t.members.c.id, t.members.c.name))}
    merged = aliases(c)
    entries = [ListEntry(m, names.get(m, ""), rating, games,
                         to_date(day) if to_date and isinstance(day, str) else day)
               for m, (rating, games, day) in latest.items() if m not in merged]
    return sorted(entries, key=lambda e: (-e.rating, e.id))


def member_states(c: Connection) -> list[tuple[str, int]]:
    """The states the members live in (the members table's ``state``, upper-cased) and
    how many members each, by state; members without one and merged ids left out. For a
    rating list filtered by state."""
    rows = c.execute(select(func.upper(t.members.c.state), func.count())
                     .where(t.members.c.state.is_not(None), t.members.c.state != "",
                            t.members.c.merged_into.is_(None))
                     .group_by(func.upper(t.members.c.state)).order_by(func.upper(t.members.c.state)))
    return [(r[0], r[1]) for r in rows]


def rating_list_csv(entries: list[ListEntry], decimals: int = 2) -> str:
    """A rating list as CSV (``uscf db list --format csv`` and the web page's download,
    which shows whole points: ``decimals=0``). A cell a spreadsheet would run as a
    formula (a name such as ``=HYPERLINK(...)``) is made inert (`csv_safety`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "name", "rating", "display", "games", "as_of"])
    for e in entries:
        rating = f"{round_half_up(e.rating, decimals):.{decimals}f}"
        writer.writerow(safe_row([e.id, e.name, rating, e.display, e.games,
                                  e.as_of.isoformat() if e.as_of else ""]))
    return out.getvalue()
