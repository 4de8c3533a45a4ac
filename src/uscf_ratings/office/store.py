"""Reading and writing the office's rows: states, members, floors, events, results.

Sections are rated in the order of their key (end date, start date, event id, section
number); a player's state before a section is the state after the last earlier section
in which the player was rated in that system; before the first such section, the rating
US Chess published before it (office/history.py), else the imported baseline.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, date, datetime
from functools import lru_cache
from operator import attrgetter, itemgetter
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    Connection,
    Date,
    DateTime,
    Table,
    delete,
    func,
    insert,
    literal,
    select,
    tuple_,
    update,
)

from ..core.model import MatchChange, Rating, System, rating_of_fields
from ..core.pre_event import FloorsSetByHand, MemberFacts
from ..core.results import Outcome
from ..formats.member_history import HistoryEntry, MemberHistory
from ..formats.member_records import MemberRecord
from . import schema as t
from .db import Driver

SectionKey = tuple[date, date, str, int]  #: (end date, start date, event id, section number)


class _Dated(Protocol):
    """A section, as the model or as the office takes it (office/submission.py)."""

    @property
    def end_date(self) -> date: ...
    @property
    def start_date(self) -> date: ...
    @property
    def number(self) -> int: ...


def section_key(event_id: str, section: _Dated) -> SectionKey:
    """The section's place in rating order."""
    return (section.end_date, section.start_date, event_id, section.number)


def order_key(table: Any, number_column: str = "number") -> Any:
    """The row's section key as one SQL row value, in rating order (an index covers it)."""
    c = table.c
    return tuple_(c.end_date, c.start_date, c.event_id, c[number_column])


def after_or_at(table: Any, key: SectionKey, number_column: str = "number") -> ColumnElement[bool]:
    """SQL for: the row's section key >= ``key``, in rating order."""
    row: ColumnElement[bool] = order_key(table, number_column) >= tuple_(*map(literal, key))
    return row


def insert_rows(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """INSERT rows through the driver (see `db.Driver`), each a dict by column
    name; dates and times stored as SQLAlchemy's types store them. On PostgreSQL in one
    COPY (`db.Driver.insert_many`): as a statement a row, the members `uscf db rate` first
    meets took about a twentieth of rating 4,000 events (docs/performance.md)."""
    if not rows:
        return
    driver = Driver(connection)
    names, dated = _columns_given(table, tuple(rows[0]))
    in_order = itemgetter(*names)
    values = [in_order(row) for row in rows] if len(names) > 1 else [(r[names[0]],) for r in rows]
    if dated and driver.sqlite:
        values = [tuple(driver.date(v) if i in dated else v for i, v in enumerate(row))
                  for row in values]
    driver.insert_many(table.name, names, values)


@lru_cache(maxsize=64)
def _columns_given(table: Table, given: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[int]]:
    """The columns of ``table`` named in ``given``, in the table's order, and the places
    among them of the dates and times."""
    names = tuple(c.name for c in table.columns if c.name in given)
    dated = frozenset(i for i, n in enumerate(names)
                      if isinstance(table.c[n].type, Date | DateTime))
    return names, dated


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def audit(connection: Connection, action: str, detail: dict[str, Any]) -> int:
    """Record an operation; returns the id of its row."""
    driver = Driver(connection)
    values = (driver.date(now()), action, json.dumps(detail, sort_keys=True))
    if driver.sqlite:  # RETURNING needs SQLite 3.35: the row id the driver keeps will do
        return int(driver.execute(AUDIT_INSERT, values).lastrowid)
    return int(driver.execute(AUDIT_INSERT + " RETURNING id", values).fetchone()[0])


AUDIT_INSERT = "INSERT INTO audit (at, action, detail) VALUES (?, ?, ?)"


def audits(connection: Connection, records: Sequence[tuple[str, dict[str, Any]]]) -> int:
    """Record several operations (each an action and its detail) in one statement;
    returns the id of the last row."""
    driver = Driver(connection)
    at = driver.date(now())
    driver.executemany(AUDIT_INSERT, [(at, action, json.dumps(detail, sort_keys=True))
                                      for action, detail in records])
    return int(driver.execute("SELECT max(id) FROM audit").fetchone()[0])


# --- members ----------------------------------------------------------------------


#: the members table's fields a member list gives, in the words a change is told in
MEMBER_FIELDS = {"name": "name", "birth_date": "birth date", "adult": "adult",
                 "state": "state", "fide_rating": "FIDE rating", "fide_date": "FIDE date",
                 "cfc_rating": "CFC rating", "cfc_date": "CFC date",
                 "canadian_resident": "Canadian resident"}


def upsert_member(connection: Connection, record: MemberRecord) -> list[str]:
    """Add a member, or update one from a member list: a field the list leaves empty
    keeps what is stored, and each stored value the list replaces (a field, or an
    imported rating) is one line of the list returned, naming the member, the field,
    the old value and the new: nothing stored is changed without a word."""
    given = {"name": record.name, "birth_date": record.birth_date, "adult": record.adult,
             "state": record.state, "fide_rating": record.fide_rating,
             "fide_date": record.fide_date, "cfc_rating": record.cfc_rating,
             "cfc_date": record.cfc_date, "canadian_resident": record.canadian_resident}
    values = {k: v for k, v in given.items() if v is not None and v != ""}
    stored = connection.execute(select(t.members).where(t.members.c.id == record.id)).first()
    changes: list[str] = []
    if stored is None:
        connection.execute(insert(t.members).values(id=record.id, **given))
    else:
        old = stored._mapping
        changes = [f"member {record.id}: {MEMBER_FIELDS[k]} {_shown(old[k])} -> {_shown(v)}"
                   for k, v in values.items() if old[k] not in (None, "") and old[k] != v]
        if values:
            connection.execute(update(t.members).where(t.members.c.id == record.id)
                               .values(**values))
    changes += carried_titles(connection, record.id, record.titles, record.norms)
    for system, b in record.ratings.items():
        before = connection.execute(select(t.baselines.c.rating, t.baselines.c.games).where(
            t.baselines.c.member_id == record.id, t.baselines.c.system == system.value)).first()
        if before is not None and (before.rating, before.games) != (b.rating, b.games):
            changes.append(f"member {record.id}: imported {system.value} rating "
                           f"{_shown(before.rating)} (N {before.games}) -> "
                           f"{_shown(b.rating)} (N {b.games})")
        connection.execute(delete(t.baselines).where(
            t.baselines.c.member_id == record.id, t.baselines.c.system == system.value))
        connection.execute(insert(t.baselines).values(
            member_id=record.id, system=system.value, rating=b.rating, games=b.games,
            as_of=b.as_of, wins=b.wins, draws=b.draws, losses=b.losses, events3=b.events3,
            peak=b.peak, olm=b.olm, games_above_2200=b.games_above_2200))
        if b.floor is not None:
            connection.execute(insert(t.floors).values(
                member_id=record.id, system=system.value, floor=b.floor,
                effective=date(1, 1, 1), reason="imported with the member list"))
    return changes


def carried_titles(connection: Connection, member: str, titles: Mapping[str, date | None],
                   norms: Mapping[str, int], source: str = "member list") -> list[str]:
    """The titles and norm counts a member list or US Chess's records give a member
    stored (``member_titles``, ``member_norms``): each replaces what was stored of that
    title or level, and each stored value replaced is one line of the list returned."""
    changes = []
    mt, mn = t.member_titles.c, t.member_norms.c
    for name, day in titles.items():
        where = (mt.member_id == member) & (mt.title == name)
        old = connection.execute(select(mt.earned).where(where)).first()
        if old is not None and old.earned != day and old.earned is not None:
            changes.append(f"member {member}: title {name} earned {old.earned} -> {day}")
        connection.execute(delete(t.member_titles).where(where))
        connection.execute(insert(t.member_titles).values(
            member_id=member, title=name, earned=day, source=source))
    for code, count in norms.items():
        where = (mn.member_id == member) & (mn.code == code)
        old_count = connection.execute(select(mn.count).where(where)).scalar()
        if old_count is not None and old_count != count:
            changes.append(f"member {member}: {code} norms {old_count} -> {count}")
        connection.execute(delete(t.member_norms).where(where))
        connection.execute(insert(t.member_norms).values(
            member_id=member, code=code, count=count, source=source))
    return changes


def _shown(value: Any) -> str:
    """A stored value in a line that tells its change: text quoted, a number as given."""
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, float):
        return f"{value:.10g}"  # 1850.37, 1300: as the list wrote it
    return str(value)


def aliases(connection: Connection) -> dict[str, str]:
    """Merged ids and the id each was merged into (followed to the end of the chain)."""
    direct = {r.id: r.merged_into for r in connection.execute(
        select(t.members.c.id, t.members.c.merged_into).where(t.members.c.merged_into.is_not(None)))}
    resolved = {}
    for start, target in direct.items():
        seen = {start}
        while target in direct and target not in seen:
            seen.add(target)
            target = direct[target]
        resolved[start] = target
    return resolved


#: what `member_facts` reads, in the order of `MemberFacts`'s fields
FACT_COLUMNS = (t.members.c.birth_date, t.members.c.adult, t.members.c.fide_rating,
                t.members.c.fide_date, t.members.c.cfc_rating, t.members.c.cfc_date,
                t.members.c.canadian_resident)


def member_facts(connection: Connection, ids: Iterable[str]) -> dict[str, MemberFacts]:
    """The facts of the members among ``ids`` (read through the driver: the rating loop
    asks once per section)."""
    ids = list(ids)
    if not ids:
        return {}
    query = (f"SELECT id, {', '.join(c.name for c in FACT_COLUMNS)} FROM members "
             f"WHERE id IN ({', '.join('?' * len(ids))})")
    rows = Driver(connection).rows(query, ids, (t.members.c.id, *FACT_COLUMNS))
    return {row[0]: MemberFacts(*row[1:]) for row in rows}


# --- states -----------------------------------------------------------------------


#: the state after a rating (``ratings``, 0010) as columns, in the order of
#: `rating_of_fields`'s arguments after the rating, N and date, which are the row's
#: ``post``, ``games_after`` and ``end_date``; ``match_changes`` counts the changes
#: ``rating_match_changes`` holds
STATE_COLUMNS = ("wins_after", "draws_after", "losses_after", "events3_after", "peak_after",
                 "floor_by_hand", "floor_lowered_from", "floor_lowered_to", "olm",
                 "above_2200_after", "match_changes", "games_known")
#: a state's values for those columns, but the count of match changes and the last
_state_values = attrgetter("wins", "draws", "losses", "events3", "peak", "floor",
                           "floor_lowered_from", "floor_lowered_to", "olm",
                           "games_above_2200")


def state_columns(state: Rating) -> tuple[Any, ...]:
    """The values of `STATE_COLUMNS` for ``state``."""
    return (*_state_values(state), len(state.match_changes), state.games_known)


def state_of_columns(post: float, games_after: int, end: date, values: Sequence[Any],
                     changes: tuple[MatchChange, ...] = ()) -> Rating:
    """The state a row of ``ratings`` holds: its ``post``, ``games_after`` and
    ``end_date``, the values of `STATE_COLUMNS` (as the driver reads them: SQLite's
    booleans are 0 and 1) and its match changes."""
    (wins, draws, losses, events3, peak, floor, lowered_from, lowered_to, olm, above, _,
     games_known) = values
    return rating_of_fields(post, games_after, end, wins, draws, losses, events3, peak,
                            floor, lowered_from, lowered_to, bool(olm), above, changes,
                            bool(games_known))


def match_change_rows(section: SectionColumns, member: str, system: System, state: Rating
                      ) -> list[tuple[Any, ...]]:
    """The rows of ``rating_match_changes`` of a state, in their order."""
    event_id, number = section[:2]
    return [(event_id, number, member, SYSTEM_CODES[system], i, c.date, c.change)
            for i, c in enumerate(state.match_changes, 1)]


def stored_match_changes(driver: Driver, keys: Iterable[tuple[str, int, str, str]]
                         ) -> dict[tuple[str, int, str, str], tuple[MatchChange, ...]]:
    """The match changes of the rows of ``ratings`` keyed (event id, section, member,
    system), in order."""
    found: dict[tuple[str, int, str, str], list[MatchChange]] = {}
    read_date = driver.reader(t.rating_match_changes.c.date)
    for key in keys:
        for day, change in driver.execute(
                "SELECT date, change FROM rating_match_changes WHERE event_id = ? AND "
                "section = ? AND member_id = ? AND system = ? ORDER BY position", key):
            found.setdefault(key, []).append(
                MatchChange(read_date(day) if read_date else day, change))
    return {key: tuple(changes) for key, changes in found.items()}


#: what `latest_states` reads of a baseline, in the order of Rating's fields
BASELINE_COLUMNS = (t.baselines.c.member_id, t.baselines.c.system, t.baselines.c.rating,
                    t.baselines.c.games, t.baselines.c.as_of, t.baselines.c.wins,
                    t.baselines.c.draws, t.baselines.c.losses, t.baselines.c.events3,
                    t.baselines.c.peak, t.baselines.c.olm, t.baselines.c.games_above_2200)
#: the order the rating loop rates sections in (and the ratings table's index)
RATING_ORDER = "end_date, start_date, event_id, section"


def latest_states(connection: Connection, ids: Iterable[str],
                  before_key: SectionKey | None = None) -> dict[tuple[str, System], Rating]:
    """Each member's state per system after the last section in the table (or the last
    before ``before_key``); else the rating US Chess published before ``before_key``
    (the latest, where None: `published_states`); else the imported baseline."""
    ids = list(ids)
    if not ids:
        return {}
    states = baseline_states(connection, ids)
    states.update(published_states(connection, ids, before_key))
    states.update(row_states(connection, ids, before_key))
    return states


def baseline_states(connection: Connection, ids: list[str]) -> dict[tuple[str, System], Rating]:
    """The imported baselines of ``ids``, per system. Read through the driver: the
    rating loop asks once per section, for the members it sees first."""
    driver = Driver(connection)
    marks = ", ".join("?" * len(ids))
    states: dict[tuple[str, System], Rating] = {}
    query = (f"SELECT {', '.join(c.name for c in BASELINE_COLUMNS)} FROM baselines "
             f"WHERE member_id IN ({marks})")
    for member, system, rating, games, as_of, wins, draws, losses, events3, peak, olm, \
            above in driver.rows(query, ids, BASELINE_COLUMNS):
        states[(member, System(system))] = rating_of_fields(
            rating, games, as_of, wins, draws, losses, events3, peak, None, None, None,
            bool(olm), above, (), True)
    return states


def row_states(connection: Connection, ids: list[str], before_key: SectionKey | None = None
               ) -> dict[tuple[str, System], Rating]:
    """The state of ``ids`` per system after their last section in the ratings table
    (the last before ``before_key``): the pool's own ratings."""
    driver = Driver(connection)
    marks = ", ".join("?" * len(ids))
    query = (f"SELECT event_id, section, member_id, system, post, games_after, end_date, "
             f"{', '.join(STATE_COLUMNS)} FROM ratings WHERE member_id IN ({marks})")
    params: list[Any] = list(ids)
    if before_key is not None:
        end, start, event_id, number = before_key
        # end_date <= end follows from the row value; SQLite tests it on the index by
        # member, which holds end_date, and reads no row of a later date
        query += f" AND ({RATING_ORDER}) < (?, ?, ?, ?) AND end_date <= ?"
        params += [driver.date(end), driver.date(start), event_id, number, driver.date(end)]
    latest: dict[tuple[str, str], tuple[Any, ...]] = {}
    for row in driver.execute(f"{query} ORDER BY {RATING_ORDER}", params):
        latest[(row[2], row[3])] = row  # rows come in order: the last wins
    read_date = driver.reader(t.ratings.c.end_date)
    changes = stored_match_changes(driver, [
        row[:4] for row in latest.values() if row[-2]]) if latest else {}
    states: dict[tuple[str, System], Rating] = {}
    for (member, system), row in latest.items():
        if row[4] is None or row[5] is None:  # a row put in by hand, without a rating or N
            continue  # holds no state (as a row without its state's text did before 0010)
        end_date = read_date(row[6]) if read_date else row[6]
        states[(member, System(system))] = state_of_columns(
            row[4], row[5], end_date, row[7:], changes.get(row[:4], ()))
    return states


def published_states(c: Connection, ids: list[str], before_key: SectionKey | None
                     ) -> dict[tuple[str, System], Rating]:
    """Each of ``ids``' rating per system as US Chess published it before the section
    ``before_key`` (the latest, where None): `MemberHistory.rating_before`."""
    found = {}
    for member, history in stored_histories(c, ids).items():
        for system in history.systems:
            rating = history.rating_before(system, before_key)
            if rating is not None:
                found[(member, system)] = rating
    return found


def stored_histories(c: Connection, ids: list[str]) -> dict[str, MemberHistory]:
    """The published histories imported of those of ``ids`` that have one."""
    h = t.published_history.c
    entries: dict[str, list[HistoryEntry]] = {}
    for r in c.execute(select(t.published_history).where(h.member_id.in_(ids))):
        entries.setdefault(r.member_id, []).append(HistoryEntry(
            r.event_id, r.event_name, r.section, r.section_name, r.start_date, r.end_date,
            System(r.system), r.pre, r.post, r.post_games))
    return {member: MemberHistory(member, tuple(sorted(rows, key=lambda e: e.key)))
            for member, rows in entries.items()}


def has_published(c: Connection) -> bool:
    """Whether any published history was imported (`published_states`)."""
    return c.execute(select(t.published_history.c.member_id).limit(1)).first() is not None


def office_floors(connection: Connection, ids: Iterable[str] | None) -> FloorsSetByHand:
    """Floors set by hand, per member and system, in order of their dates (every
    member's when ``ids`` is None)."""
    out: FloorsSetByHand = {}
    query = select(t.floors).order_by(t.floors.c.effective, t.floors.c.id)
    if ids is not None:
        query = query.where(t.floors.c.member_id.in_(list(ids)))
    for r in connection.execute(query):
        out.setdefault((r.member_id, System(r.system)), []).append((r.effective, r.floor))
    return out


# --- events and results -------------------------------------------------------------


def event_source(connection: Connection, event_id: str) -> dict[str, Any] | None:
    row = connection.execute(select(t.events.c.source).where(t.events.c.id == event_id)).first()
    return None if row is None else dict(json.loads(row.source))


#: each system's code; an enum's ``.value`` is a Python-level property, read per row here
SYSTEM_CODES = {s: s.value for s in System}

#: a section's columns in a row of ``ratings``: event id, number, end date, start date
SectionColumns = tuple[str, int, Any, Any]


#: no norm earned in a section (`outcome_rows`)
NO_NORMS: Mapping[int, str] = {}


def outcome_rows(section: SectionColumns, found: Iterable[Outcome], ids: Mapping[int, str],
                 states: dict[tuple[str, System], Rating],
                 norms: Mapping[int, str] = NO_NORMS, norm_system: System = System.R,
                 changes: list[tuple[Any, ...]] | None = None) -> list[tuple[Any, ...]]:
    """The rows of ``ratings`` of a rated section's outcomes, in `ROW_ORDER`: one for each
    outcome of a member (``ids``: each pair number's member; a player without a member
    id is not stored), whose state after the section is kept in ``states`` on the way
    (the rating loop makes a row for every player it rates, so in one pass).
    ``norms`` gives the norm code earned by pair number, stored on the row of
    ``norm_system`` (the system norms are earned in: core/norms.py). The rows of
    ``rating_match_changes`` of the states that carry match changes (rare) are added to
    ``changes``. ``section`` has its dates as `db.Driver.date` stores them."""
    event_id, number, end, start = section
    rows = []
    for pair, system, pre, pre_games, post, games_after, floor, state, wins, draws, losses \
            in found:
        member = ids.get(pair)
        if member is None:
            continue
        norm = norms.get(pair) if norms and system is norm_system else None
        if state.rating != post or state.games != games_after:  # what the row stores once
            raise ValueError(f"member {member}'s state after event {event_id} section "
                             f"{number} is not its post-event rating and N")
        carried = state.match_changes
        rows.append((pre, pre_games, post, games_after, floor, wins, draws, losses, norm,
                     *_state_values(state), len(carried), state.games_known,
                     event_id, number, member, SYSTEM_CODES[system], end, start))
        if carried:
            if changes is None:
                raise ValueError("outcome_rows: a state carries match changes and no list "
                                 "was given for their rows")
            changes += match_change_rows(section, member, system, state)
        states[(member, system)] = state
    return rows


def insert_outcomes(driver: Driver, rows: list[tuple[Any, ...]]) -> None:
    """INSERT rows in `ROW_ORDER` (`outcome_rows`): a COPY on PostgreSQL."""
    driver.insert_many("ratings", ROW_ORDER, rows)


def stored_sections(connection: Connection, key: SectionKey) -> dict[SectionKey, int]:
    """How many rows of ``ratings`` each section from ``key`` on holds: what a re-rate
    from ``key`` writes again (`write_outcomes`)."""
    r = t.ratings.c
    columns = (r.end_date, r.start_date, r.event_id, r.section)
    return {(end, start, event_id, number): count
            for end, start, event_id, number, count in connection.execute(
                select(*columns, func.count()).where(after_or_at(t.ratings, key, "section"))
                .group_by(*columns))}


def stored_members(connection: Connection, key: SectionKey) -> list[str]:
    """The members with a row of ``ratings`` from ``key`` on, in order of their ids: the
    members a re-rate from ``key`` rates again (with those of events not yet rated)."""
    r = t.ratings.c
    return list(connection.execute(
        select(r.member_id).distinct().where(after_or_at(t.ratings, key, "section"))
        .order_by(r.member_id)).scalars())


def remove_outcomes(driver: Driver, sections: Iterable[SectionKey]) -> None:
    """DELETE the rows of ``sections``."""
    driver.executemany(
        "DELETE FROM ratings WHERE end_date = ? AND start_date = ? AND event_id = ? "
        "AND section = ?",
        [(driver.date(end), driver.date(start), event_id, number)
         for end, start, event_id, number in sections])


def write_outcomes(driver: Driver, section: SectionColumns, rows: list[tuple[Any, ...]],
                   stored: int, changes: Sequence[tuple[Any, ...]] = (),
                   had_changes: bool = False) -> None:
    """Write the rows made by `outcome_rows` of a section of which the table holds
    ``stored`` rows (a re-rate: `stored_sections`), and the rows of its states' match
    changes (``changes``); ``had_changes``: the database may hold match changes of the
    section's rows from before, which go.

    Where they are the rows of the same players in the same systems, the usual case of a
    re-rate, they are updated in place: the indexes hold none of the numbers, and an
    UPDATE leaves them as they are, where a DELETE and an INSERT change each index at a
    random place (most of what a re-rate spent in SQLite: docs/performance.md).
    Otherwise (a member merged, a player no longer in the section's rated games) the
    section's rows are replaced (their match changes go with them: a foreign key)."""
    if stored and had_changes:
        driver.execute("DELETE FROM rating_match_changes WHERE event_id = ? AND section = ?",
                       section[:2])
    if stored == len(rows) and rows and driver.executemany(UPDATE_OUTCOME, rows) == stored:
        pass  # each row's key matched one stored row: they are the stored ones
    else:
        if stored:
            driver.execute("DELETE FROM ratings WHERE event_id = ? AND section = ?",
                           section[:2])
        insert_outcomes(driver, rows)
    driver.insert_many("rating_match_changes", MATCH_CHANGE_COLUMNS,
                       [(*row[:5], driver.date(row[5]), row[6]) for row in changes])


def write_sections(driver: Driver,
                   sections: Sequence[tuple[SectionColumns, list[tuple[Any, ...]], int,
                                            list[tuple[Any, ...]]]],
                   had_changes: bool) -> None:
    """Write the rows of many sections at once, each given as (its columns, its rows by
    `outcome_rows`, how many rows the table holds of it, its match changes' rows), as
    `write_outcomes` writes one: the sections new to the table in one INSERT (a COPY on
    PostgreSQL); those stored before with as many rows in one UPDATE of them all, in
    place; any other section (a row no longer there, another member) replaced alone."""
    new = [row for _, rows, stored, _ in sections if not stored for row in rows]
    again = [(columns, rows, stored, changes) for columns, rows, stored, changes in sections
             if stored]
    if had_changes:
        driver.executemany("DELETE FROM rating_match_changes WHERE event_id = ? AND "
                           "section = ?", [columns[:2] for columns, *_ in again])
    in_place = [s for s in again if s[2] == len(s[1])]
    updated = [row for _, rows, _, _ in in_place for row in rows]
    if updated and driver.executemany(UPDATE_OUTCOME, updated) != len(updated):
        alone = again  # some row's key matched none: each section written on its own
    else:
        alone = [s for s in again if s[2] != len(s[1])]
    for columns, rows, stored, _ in alone:
        write_outcomes(driver, columns, rows, stored)
    insert_outcomes(driver, new)
    driver.insert_many("rating_match_changes", MATCH_CHANGE_COLUMNS, [
        (*row[:5], driver.date(row[5]), row[6])
        for _, _, _, changes in sections for row in changes])


def has_match_changes(driver: Driver) -> bool:
    """Whether any stored state carries match changes (`write_outcomes`)."""
    return driver.execute("SELECT 1 FROM rating_match_changes LIMIT 1").fetchone() is not None


RATING_COLUMNS = tuple(c.name for c in t.ratings.columns)
#: the order of a row's values as the rating loop writes them (`outcome_rows`): the values
#: of the rating (what an UPDATE sets), then the section's key columns (event, section,
#: member, system) and its dates (what it matches): one tuple serves both statements
ROW_ORDER = (*RATING_COLUMNS[6:], *RATING_COLUMNS[:6])
UPDATE_OUTCOME = (
    f"UPDATE ratings SET {', '.join(f'{c} = ?' for c in RATING_COLUMNS[6:])} "
    f"WHERE {' AND '.join(f'{c} = ?' for c in RATING_COLUMNS[:6])}")
MATCH_CHANGE_COLUMNS = tuple(c.name for c in t.rating_match_changes.columns)
