"""The ratings office: rate events in order, re-rate, correct, and keep the history.

Each public method is one transaction (see `db.writing`): after a crash or a kill
the database holds either all of what the method did or none of it. The exceptions are
the runs of many events, `Office.rate_many` and `Office.rate_each`, which commit whole
events in groups through an `EventTransaction` (as `office.ingest` does for many files).
Rating an event dated before events already rated re-rates everything after it, in the
same transaction; in a run of many, such events wait and everything after the first of
them is rated again once (`EventTransaction`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Self

from sqlalchemy import Connection, delete, func, insert, select, update

from ..core.model import Event, Section, System
from ..core.pre_event import prepare
from ..core.results import SectionResult
from ..core.titles import TITLE_NAMES
from ..core.validate import check_section
from ..formats.member_history import MemberHistory
from ..formats.member_records import MemberRecord
from ..formats.member_titles import MemberTitles
from . import schema as t
from .admission import (
    check_birth_date,
    check_event,
    check_hand_floor,
    check_histories,
    check_members,
)
from .collector import fewer_collections
from .db import Driver, WriterWait, check_schema, make_engine, upgrade, writing
from .defaults import COMMIT_EVERY, PreRatings
from .errors import AdmissionError, DatabaseError, DuplicateEvent, OfficeError
from .explain import explain_event
from .history import HistoryImported, TitlesImported, import_notes, replace_history
from .options import RateOptions
from .run import (
    LOAD_AT_ONCE,
    RatingRun,
    first_key,
    last_audit_id,
    member_ids,
    states_and_facts,
)
from .store import (
    SectionKey,
    aliases,
    audit,
    audits,
    carried_titles,
    event_source,
    insert_rows,
    now,
    order_key,
    section_key,
    upsert_member,
)
from .submission import Submission, event_of_source, submission

__all__ = ["COMMIT_EVERY", "AdmissionError", "Corrected", "DuplicateEvent", "EventRated", "EventTransaction",
           "HistoryImported", "Office", "OfficeError", "PreRatings", "RateOptions", "count_rows",
           "fill_from_database", "section_key"]


@dataclass(frozen=True)
class EventRated:
    """What a run of many events (`Office.rate_each`, `office.ingest`) reports of each
    event once the transaction holding it commits (not the event itself: a report is
    kept for every event of a run)."""

    event_id: str
    name: str
    corrected: bool  #: it replaced the event rated before (``replace_rated``)
    sections: int  #: the event's own sections rated
    rerated: int  #: later sections of other events rated again
    ratings: int  #: player-systems rated in all of them
    games: int  #: the event's rated games
    #: the events of the run that re-rate was for: events dated before sections already
    #: stored wait, and the sections after the first of them are rated again once, with
    #: the report of the last (`EventTransaction`); 1 for an event rated alone
    rerated_for: int = 1
    #: stored already exactly as given (the same event JSON and pre_ratings mode), so
    #: left as it is: a run given again after an interruption goes on where it stopped
    unchanged: bool = False

    @property
    def verb(self) -> str:
        """"rated", "corrected" or "unchanged", as the command says it."""
        return "unchanged" if self.unchanged else "corrected" if self.corrected else "rated"


@dataclass(frozen=True)
class Corrected:
    """What `Office.correct` did: the event's sections with their explanations, and
    how many later sections of other events it rated again."""

    results: list[SectionResult]
    rerated: int


@dataclass(frozen=True)
class MembersImported:
    """What `Office.import_members` did: how many sections it rated again, and each
    stored value the list changed, one line each (member, field, old -> new)."""

    rerated: int
    changes: tuple[str, ...]


class Office:
    """A ratings database and the operations on it. A change waits while another
    process writes, as ``wait`` says (default: as long as it takes)."""

    def __init__(self, url: str | None = None, wait: WriterWait | None = None):
        self.engine = make_engine(url, wait)

    def init(self) -> str:
        """Create or upgrade the schema; returns its revision."""
        return upgrade(self.engine)

    # --- members ---------------------------------------------------------------

    def import_members(self, records: Sequence[MemberRecord], source: str = "members"
                       ) -> MembersImported:
        """Add or update members and re-rate from the first section any of them played:
        the number of sections re-rated, and each stored value the list changed, in
        words (a field the list leaves empty keeps its stored value). Refused whole
        (`AdmissionError`, every problem named) if a number is out of range, an id is
        listed twice with different names or a birth date comes after a section the
        member played."""
        problems = check_members(records, source)
        if problems:
            raise AdmissionError(source, problems)
        with writing(self.engine) as c:
            check_schema(c)
            played = _first_played(c, [r.id for r in records if r.birth_date is not None])
            problems = [line for r in records if r.birth_date is not None
                        for line in check_birth_date(r.id, r.birth_date, played.get(r.id))]
            if problems:
                raise AdmissionError(source, problems)
            changes = [line for record in records for line in upsert_member(c, record)]
            audit(c, "import_members", {"count": len(records), "changed": len(changes)})
            first = _first_key_of_members(c, [r.id for r in records])
            return MembersImported(_rerated(c, first), tuple(changes))

    def import_titles(self, records: Sequence[MemberTitles], source: str) -> TitlesImported:
        """Store what US Chess's records say each member earned (`uscf fetch --member ID
        --titles`, formats/member_titles.py) as titles and norm counts carried into the
        pool (core/titles.Earned): the awards that are titles, with their dates, and the
        norms whose status is Active, counted by level. A norm of a section the pool holds
        is left out, and said: the pool's own rating of it gives the norm. One
        transaction; each stored value replaced is said."""
        changes: list[str] = []
        notes: list[str] = []
        with writing(self.engine) as c:
            check_schema(c)
            merged = aliases(c)
            for record in records:
                member = merged.get(record.member, record.member)
                if c.execute(select(t.members.c.id).where(t.members.c.id == member)
                             ).first() is None:
                    c.execute(insert(t.members).values(id=member, name=""))
                r = t.ratings.c
                held = {(row.event_id, row.section) for row in c.execute(
                    select(r.event_id, r.section).where(r.member_id == member))}
                counted = [n for n in record.norms if n.counted]
                own = [n for n in counted if (n.event, n.section) in held]
                notes += [f"member {member}: the {n.code} norm of event {n.event} section "
                          f"{n.section} is not carried: the pool rates that section itself"
                          for n in own]
                titles = {a.type: a.date for a in record.awards if a.type in TITLE_NAMES}
                norms = Counter(n.code for n in counted if n not in own)
                changes += carried_titles(c, member, titles, dict(norms), source)
            audit(c, "import_titles", {"members": len(records), "source": source})
        return TitlesImported(len(records), tuple(changes), tuple(notes))

    def import_history(self, histories: Sequence[MemberHistory], source: str = "history"
                       ) -> HistoryImported:
        """Store members' published histories (formats/member_history.py), each
        replacing what was imported of that member before: until the pool has rated a
        member in a system, the member's rating before a section is the one published
        before it (office/history.py). Re-rates from the first section any of them
        played; one transaction. Refused if a member is given twice."""
        seen: dict[str, int] = {}
        for at, h in enumerate(histories):
            if h.member in seen:
                raise OfficeError(f"member {h.member} is given twice (histories "
                                  f"{seen[h.member] + 1} and {at + 1}): give each "
                                  "member's history once")
            seen[h.member] = at
        problems = check_histories(histories)
        if problems:
            raise AdmissionError(source, problems)
        with writing(self.engine) as c:
            check_schema(c)
            merged = aliases(c)
            members = {h.member: merged.get(h.member, h.member) for h in histories}
            notes: list[str] = []
            stored = 0
            for h in histories:
                member = members[h.member]
                if member != h.member:
                    notes.append(f"{h.member} was merged into {member}: imported as "
                                 f"{member}")
                if c.execute(select(t.members.c.id).where(t.members.c.id == member)
                             ).first() is None:
                    c.execute(insert(t.members).values(id=member, name=""))
                stored += replace_history(c, member, h, source)
                notes.extend(h.notes)
                notes.extend(import_notes(h))
            notes.append("peaks (for the floors) are the highest established ratings the "
                         "histories show; the wins, draws and losses before are not "
                         "published")
            audit(c, "import_history", {"members": len(histories), "source": source})
            rerated = _rerated(c, _first_key_of_members(c, list(members.values())))
            return HistoryImported(len(histories), stored, rerated, tuple(notes))

    # --- events ----------------------------------------------------------------

    def rate(self, event: Event, pre_ratings: PreRatings = PreRatings.DATABASE,
             different_event: bool = False) -> list[SectionResult]:
        """Store and rate an event; re-rate every later section. Refused if the event id
        is already rated (use `correct`), or if its content is stored under another id
        (`DuplicateEvent`) unless ``different_event``. Returns the event's sections with
        their explanations."""
        for section in event.sections:
            check_section(section)
        _admit(event)
        taken = submission(event)
        with writing(self.engine) as c:
            check_schema(c)
            if _corrections(c, event.id) is not None:
                raise OfficeError(f"event {event.id} is already rated; to replace it, use "
                                  f"`uscf db correct {event.id} FILE`")
            _store_event(c, taken, pre_ratings, 0, different_event)
            run = RatingRun(c)
            run.add_event(taken, pre_ratings)
            run.rate_from(taken.first_key)
            audit(c, "rate", {"event": event.id, "sections": len(event.sections)})
            return explain_event(c, event.id)

    def rate_many(self, events: Iterable[Event], options: RateOptions = RateOptions()
                  ) -> list[EventRated]:
        """Store and rate many events, in any order: they are rated in rating order
        (sorted first, so all held at once; `rate_each` takes them one at a time). Each
        event's report, in that order. As `rate_each` otherwise."""
        return list(self.rate_each(sorted(events, key=first_key), options))

    def rate_each(self, events: Iterable[Event], options: RateOptions = RateOptions()
                  ) -> Iterator[EventRated]:
        """Store and rate ``events`` in the order given, each as the iterable yields it,
        whole events to a transaction; yield each event's report once the transaction
        holding it has committed. A transaction commits once the games of its events
        reach ``options.commit_every`` (0: each event in its own transaction), and at the
        end. Give the events in rating order (`Office.rate_many` sorts them): events
        dated before sections already stored wait, and the sections after the first of
        them are rated again once (`EventTransaction`); no commit comes while they
        wait.

        An interruption (Ctrl-C, a crash, a kill) rolls back the events since the last
        commit and leaves whole events only. An event that fails (already rated, without
        ``options.replace_rated``; an error reading the next event from ``events``; an
        error while rating it) is undone alone: the events before it are committed and
        reported, then its error is raised.

        Faster than `rate` in a loop: what one event read (members, states) is kept for
        the next when nothing else wrote in between, and no explanations are built. Nothing
        is rated until the iteration begins; while it waits at a report, the transaction
        stays open: close the iterator (or take every report) to end it."""
        with fewer_collections(), EventTransaction(self, options) as transaction:
            try:
                for event in events:
                    transaction.rate(event)
                    if transaction.due(options.commit_every):
                        yield from transaction.commit()
            except Exception:
                yield from transaction.commit()  # the events before it stay rated
                raise
            yield from transaction.commit()

    def known_members(self, ids: Iterable[str]) -> set[str]:
        """Which of ``ids`` are members of the database (under their own id)."""
        wanted = list(ids)
        if not wanted:
            return set()
        with self.engine.connect() as c:
            return set(c.execute(select(t.members.c.id).where(t.members.c.id.in_(wanted)))
                       .scalars())

    def correct(self, event_id: str, event: Event, force_id: bool = False,
                different_event: bool = False) -> Corrected:
        """Replace a rated event by a corrected one and re-rate what follows. Refused if
        the corrected event names another event id, unless ``force_id`` says to store it
        as ``event_id`` all the same (a file whose id was mistyped); and if its content
        is that of another stored event (`DuplicateEvent`), unless ``different_event``."""
        if event.id != event_id:
            if not force_id:
                raise OfficeError(
                    f"the corrected file is event {event.id!r}, not {event_id!r}: a "
                    f"correction replaces an event by a file of the same event; if the file "
                    f"is right and only its id differs, pass --force-id")
            event = replace(event, id=event_id)
        for section in event.sections:
            check_section(section)
        _admit(event)
        taken = submission(event)
        with writing(self.engine) as c:
            check_schema(c)
            old = _event_source_meta(c, event_id)
            if old is None:
                raise OfficeError(f"event {event_id} is not in the database")
            old_first = _first_key_of_event(c, event_id)
            corrections = old[1]
            _remove_event(c, event_id)
            _store_event(c, taken, old[0], corrections + 1, different_event)
            new_first = taken.first_key
            run = RatingRun(c)
            run.add_event(taken, old[0])
            rated = run.rate_from(min(k for k in (old_first, new_first) if k is not None))
            audit(c, "correct", {"event": event_id})
            return Corrected(explain_event(c, event_id),
                             sum(1 for r in rated if r.key[2] != event_id))

    def withdraw(self, *event_ids: str) -> int:
        """Remove rated events and re-rate everything after the earliest of them, once;
        the number of sections re-rated. All or none: refused, with nothing removed, if
        any of them is not stored. Withdrawing events one at a time would re-rate what
        follows each, so that a batch would cost the square of its size."""
        if not event_ids:
            raise OfficeError("no event to withdraw")
        with writing(self.engine) as c:
            check_schema(c)
            firsts = {event_id: _first_key_of_event(c, event_id) for event_id in event_ids}
            missing = [event_id for event_id, key in firsts.items() if key is None]
            if missing:
                raise OfficeError(f"event {', '.join(missing)} "
                                  f"{'is' if len(missing) == 1 else 'are'} not in the "
                                  f"database; nothing was withdrawn")
            for event_id in firsts:
                _remove_event(c, event_id)
            rerated = _rerated(c, min(k for k in firsts.values() if k is not None))
            for event_id in firsts:
                audit(c, "withdraw", {"event": event_id})
            return rerated

    # --- office operations -----------------------------------------------------------

    def merge(self, keep: str, drop: str) -> int:
        """Two member ids that are one person: ``drop``'s games become ``keep``'s; the
        number of sections re-rated. Refused if the two ids played in one section: there
        they were two people (or the section is wrong, and wants a correction)."""
        if keep == drop:
            raise OfficeError("cannot merge a member id into itself")
        with writing(self.engine) as c:
            check_schema(c)
            for ident in (keep, drop):
                if not c.execute(select(t.members.c.id).where(t.members.c.id == ident)).first():
                    raise OfficeError(f"member {ident} is not in the database")
            merged = aliases(c)
            if merged.get(drop, drop) == merged.get(keep, keep):
                raise OfficeError(f"member {drop} is merged into {keep} already")
            met = _sections_with_both(c, merged, keep, drop)
            if met:
                shown = ", ".join(f"event {e} section {n}" for e, n in met[:5])
                more = f" and {len(met) - 5} more" if len(met) > 5 else ""
                raise OfficeError(f"members {keep} and {drop} both played in {shown}{more}: "
                                  "one person cannot be two players of a section; correct "
                                  "those sections first if an id there is wrong")
            first = _first_key_of_members(c, [keep, drop])
            c.execute(update(t.members).where(t.members.c.id == drop).values(merged_into=keep))
            rerated = _rerated(c, first)
            audit(c, "merge", {"keep": keep, "drop": drop})
            return rerated

    def set_floor(self, member: str, system: System, floor: float, effective: date,
                  reason: str) -> int:
        """Set or lower a member's floor by hand (a prize floor, a granted match request)
        from ``effective`` on, and re-rate the sections from that date; the number of
        sections re-rated. The floor must be one section 5 or 7 allows
        (`admission.check_hand_floor`)."""
        problems = check_hand_floor(floor, system.value)
        if problems:
            raise AdmissionError(f"member {member}", problems)
        with writing(self.engine) as c:
            check_schema(c)
            if not c.execute(select(t.members.c.id).where(t.members.c.id == member)).first():
                raise OfficeError(f"member {member} is not in the database")
            c.execute(insert(t.floors).values(member_id=member, system=system.value,
                                              floor=floor, effective=effective, reason=reason))
            first = c.execute(
                select(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                       t.sections.c.number)
                .where(t.sections.c.start_date >= effective)
                .order_by(*order_key(t.sections).clauses).limit(1)).first()
            rerated = _rerated(c, None if first is None else tuple(first))
            audit(c, "set_floor", {"member": member, "system": system.value, "floor": floor,
                                   "effective": effective.isoformat(), "reason": reason})
            return rerated

    def correct_member(self, member: str, **changes: Any) -> int:
        """Correct a member's birth date, adult flag or FIDE/CFC rating; re-rate from the
        member's first rated section; the number of sections re-rated."""
        allowed = {"birth_date", "adult", "fide_rating", "fide_date", "cfc_rating", "cfc_date",
                   "canadian_resident", "name", "state"}
        unknown = set(changes) - allowed
        if unknown:
            raise OfficeError(f"cannot correct {', '.join(sorted(unknown))}")
        problems = check_members([MemberRecord(member, **{
            k: v for k, v in changes.items() if k != "adult" and v is not None})],
            f"member {member}")
        if problems:  # each names the member, as the subject does
            raise AdmissionError(f"member {member}",
                                 [p.removeprefix(f"member {member}: ") for p in problems])
        with writing(self.engine) as c:
            check_schema(c)
            if not c.execute(select(t.members.c.id).where(t.members.c.id == member)).first():
                raise OfficeError(f"member {member} is not in the database")
            birth = changes.get("birth_date")
            if birth is not None:
                problems = check_birth_date(member, birth, _first_played(c, [member]).get(member))
                if problems:
                    raise AdmissionError(f"member {member}", problems)
            c.execute(update(t.members).where(t.members.c.id == member).values(**changes))
            rerated = _rerated(c, _first_key_of_members(c, [member]))
            audit(c, "correct_member", {"member": member} | {
                k: v.isoformat() if isinstance(v, date) else v for k, v in changes.items()})
            return rerated



class GroupFailed(Exception):
    """An event of `EventTransaction.rate_group` failed: the events before it (``at``,
    its place in the group) are rated; ``error`` is its own error, undone alone."""

    def __init__(self, at: int, error: Exception):
        super().__init__(f"event {at + 1} of the group: {error}")
        self.at = at
        self.error = error


class _NotAppended(Exception):
    """An event of a group is not one to append: the group is rated one by one."""


class EventTransaction:
    """Events stored and rated one after the other in a transaction of the office, which
    its owner commits (`commit`) or rolls back (`rollback`); the next event then begins a
    new one. Used as a context manager, it rolls back what is not committed at the end
    (an interruption, an error). The runs of many events (`Office.rate_each`,
    `office.ingest`) decide when to commit (`due`); between transactions a run carries
    what it read (members, states) on to the next as long as nothing else wrote in
    between (`RatingRun.resume`).

    An event dated before sections already stored is stored but waits to be rated:
    rating it at once would rate every later section again, and the next such event
    would do it once more, so that a late batch cost the square of its size. The
    sections after the first waiting event are rated once, in order, when an event
    comes after them all or the transaction commits (`_rate_waiting`); the reports say
    how many sections of other events were rated again, and for how many events."""

    def __init__(self, office: Office, options: RateOptions = RateOptions()):
        self._engine = office.engine
        self._options = options
        self._open: ExitStack | None = None  #: the open transaction
        self._c: Connection | None = None  #: its connection
        self._driver: Driver | None = None
        self._run: RatingRun | None = None  #: the rating run carried from one to the next
        self._rated: list[EventRated] = []  #: the events of the open transaction
        self.games = 0  #: rated games of the events of the open transaction
        #: the first section key of the events stored but not yet rated (`_store_and_rate`)
        self._waiting_from: SectionKey | None = None
        self._waiting: list[Submission] = []  #: those events, in the order stored

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.rollback()

    def rate(self, event: Event, undo_alone: bool = True) -> None:
        """Check ``event`` as `Office.rate` does, then store and rate it in the open
        transaction (begun if none is). See `rate_checked` for ``undo_alone`` and
        errors."""
        for section in event.sections:
            check_section(section)
        _admit(event)
        self.rate_checked(submission(event), undo_alone)

    def rate_checked(self, event: Submission, undo_alone: bool = True) -> None:
        """Store and rate ``event``, made of an event that passed the checks of `rate`
        (``uscf db rate`` checks its files beside the rating loop: office/file_checks.py),
        in the open transaction (begun if none is).

        An error is raised as it comes. With ``undo_alone`` the event's own savepoint has
        undone it, and the events before it may still be committed. Without, the event
        takes no savepoint, and the transaction is to be rolled back after an error:
        under SQLite a savepoint copies each page the event changes, a fifth of the
        rating loop's time (docs/performance.md), which a run that would roll everything
        back anyway need not spend."""
        if self._open is None:
            self._begin()
        assert self._c is not None and self._driver is not None
        waiting = self._waiting_from, list(self._waiting)
        try:
            with self._driver.savepoint("rate_event") if undo_alone else nullcontext():
                report = self._store_and_rate(self._c, event)
        except BaseException:
            self._run = None  # its members' states may be those undone
            self._waiting_from, self._waiting = waiting  # those stored before it wait on
            raise
        self._rated.append(report)
        self.games += report.games

    def rate_group(self, events: Sequence[Submission], undo_alone: bool = True) -> None:
        """Store and rate ``events``, given in rating order, as `rate_checked` would one
        after the other (``undo_alone``), but with one call of the history engine for
        them all where they come after every section stored: the engine's set-up and
        the writes, made once for the group, cost about as much as rating an event.

        Its events may overlap one another (an event's first section before another's
        last): every section of the group is rated once, in rating order, as the
        events that wait are (`_rate_waiting`), where one by one the later event would
        rate the other's sections again (the reports then count no section rated
        again). The group takes one savepoint. Where an event is not one to append
        (stored already, dated before sections other events stored, or late events
        wait), or rating the group fails, it is undone and its events are stored and
        rated again one by one, each undone alone (or, without ``undo_alone``, left
        for the caller to roll back with the transaction: `rate_checked`); the first
        that fails raises `GroupFailed`, naming its place, with the events before it
        rated."""
        if self._open is None:
            self._begin()
        assert self._c is not None and self._driver is not None
        if len(events) > 1 and not self._waiting:
            rated, games = list(self._rated), self.games
            try:
                with self._driver.savepoint("rate_group"):
                    self._append_group(self._c, events)
                return
            except _NotAppended:
                pass  # found before anything was rated: the run's state is as it was
            except Exception as error:
                self._run = None  # its members' states may be those undone
                if self._driver.transaction_lost():  # nothing to go on with: the commit says so
                    raise GroupFailed(0, error) from error
            self._rated, self.games = rated, games
        for at, event in enumerate(events):
            try:
                self.rate_checked(event, undo_alone)
            except Exception as error:
                raise GroupFailed(at, error) from error

    def _append_group(self, c: Connection, events: Sequence[Submission]) -> None:
        """`rate_group`'s one call of the engine: each event stored, then all rated."""
        if self._run is None:
            check_schema(c)
        driver = self._driver
        assert driver is not None
        first = min(event.first_key for event in events)
        if _stored_after(driver, first, events[0].id) or _any_stored(
                driver, [event.id for event in events]):
            raise _NotAppended  # sections stored before would be rated again; a correction
        _store_events(c, events, self._options.pre_ratings, 0, self._options.different_event)
        run = self._run = RatingRun.resume(self._run, c, first)
        for event in events:
            run.add_event(event, self._options.pre_ratings)
        rated = run.rate_from(first)
        sections: Counter[str] = Counter()
        ratings: Counter[str] = Counter()
        for r in rated:
            sections[r.key[2]] += 1
            ratings[r.key[2]] += r.ratings
        run.seal(audits(c, [("rate", {"event": event.id, "sections": len(event.sections)})
                            for event in events]))
        for event in events:
            self._rated.append(EventRated(event.id, event.name, False, sections[event.id], 0,
                                          ratings[event.id], event.rated_games))
            self.games += event.rated_games

    @property
    def waiting(self) -> bool:
        """Whether events of the open transaction wait to be rated (`_store_and_rate`)."""
        return bool(self._waiting)

    def due(self, commit_every: int) -> bool:
        """Whether to commit now: the events of the open transaction hold
        ``commit_every`` games, and none waits to be rated (a commit then would rate the
        sections after it again, and the next waiting event would do so once more)."""
        return self.games >= commit_every and not self._waiting

    def commit(self) -> list[EventRated]:
        """Rate the events that wait (`_store_and_rate`), then commit the open
        transaction, if there is one; the reports of its events, in the order they
        were stored."""
        if self._open is None:
            return []
        if self._driver is not None and self._driver.transaction_lost():
            self.rollback()
            raise DatabaseError("the database ended the transaction before it was "
                                "committed: the events rated since the last commit were "
                                "not stored")
        self.rate_waiting()
        done, self._open = self._open, None
        reports, self._rated, self.games, self._c, self._driver = self._rated, [], 0, None, None
        done.close()  # leaves `writing`, which commits
        return reports

    def rate_waiting(self) -> None:
        """Rate the events that wait (`_store_and_rate`), as `commit` does first; an
        error rolls the transaction back. A run that holds Ctrl-C over the commit
        itself (`interrupts.held`) calls this before it: the re-rate may be long, and
        Ctrl-C stops it, with nothing of it stored."""
        if self._open is None or not self._waiting:
            return
        assert self._c is not None
        try:
            self._rate_waiting(self._c, None)
        except BaseException:
            self.rollback()
            raise

    def rollback(self) -> None:
        """Undo every event of the open transaction, if there is one."""
        if self._open is None:
            return
        done, connection, self._open = self._open, self._c, None
        self._rated, self.games, self._c, self._driver, self._run = [], 0, None, None, None
        self._waiting_from, self._waiting = None, []
        try:
            if connection is not None:
                connection.rollback()  # `writing` then ends without committing
        finally:
            done.close()

    def _begin(self) -> None:
        opened = ExitStack()
        self._c = opened.enter_context(writing(self._engine))
        self._driver = Driver(self._c)
        self._open = opened

    def _store_and_rate(self, c: Connection, event: Submission) -> EventRated:
        if self._run is None:  # the schema cannot change under the run: check it once
            check_schema(c)
        options = self._options
        corrections = 0
        first = event.first_key
        old = _corrections(c, event.id)
        if old is not None:
            if _stored_as_given(c, event, options.pre_ratings):
                return EventRated(event.id, event.name, False, 0, 0, 0, 0, unchanged=True)
            if not options.replace_rated:
                raise OfficeError(f"event {event.id} is already rated from another file "
                                  f"(or with other --pre-ratings); to replace it, give "
                                  f"--replace or use `uscf db correct {event.id} FILE`")
            old_first = _first_key_of_event(c, event.id)
            _remove_event(c, event.id)
            first = min(k for k in (old_first, first) if k is not None)
            corrections = old + 1
        _store_event(c, event, options.pre_ratings, corrections, options.different_event)
        report = EventRated(event.id, event.name, corrections > 0, 0, 0, 0, event.rated_games)
        driver = self._driver
        assert driver is not None  # `rate_checked` began the transaction
        if self._waiting or _stored_after(driver, first, event.id):
            # Dated before sections already stored: rating it now would rate them all
            # again, and the next such event would once more. It waits, and the
            # sections after the first waiting event are rated once, when an event comes
            # after all of them or the transaction commits (`_rate_waiting`).
            if not self._waiting or self._run is None:
                self._run = RatingRun(c)
            assert self._run is not None
            self._run.add_event(event, options.pre_ratings)
            self._waiting_from = min(first, self._waiting_from or first)
            self._waiting.append(event)
            self._audit(c, event, corrections)
            if _stored_after(driver, event.first_key, event.id):
                return report
            return self._rate_waiting(c, report)
        run = self._run = RatingRun.resume(self._run, c, first)
        run.add_event(event, options.pre_ratings)
        rated = run.rate_from(first)
        self._audit(c, event, corrections)
        own = sum(1 for r in rated if r.key[2] == event.id)
        return replace(report, sections=own, rerated=len(rated) - own,
                       ratings=sum(r.ratings for r in rated))

    def _audit(self, c: Connection, event: Submission, corrections: int) -> None:
        assert self._run is not None
        self._run.seal(audit(c, "correct" if corrections else "rate",
                             {"event": event.id, "sections": len(event.sections)}))

    def _rate_waiting(self, c: Connection, last: EventRated | None) -> EventRated:
        """Rate every section from the first waiting event's on, once: the waiting
        events' own, and the sections stored before that follow them. ``last`` is the
        report of the event just stored after them all (rated here with them), or None
        when the transaction commits. Each event's report gets its own sections; the
        sections of other events rated again go to the report of the last event, for
        all of them (``rerated_for``)."""
        if self._run is None:  # an event failed meanwhile: the waiting ones are stored
            self._run = RatingRun(c)
        assert self._waiting_from is not None
        rated = self._run.rate_from(self._waiting_from)
        self._run.seal(last_audit_id(c))
        ours = {event.id for event in self._waiting}
        sections: dict[str, int] = {}
        ratings: dict[str, int] = {}
        for r in rated:
            owner = r.key[2] if r.key[2] in ours else ""  # "": another event's
            sections[owner] = sections.get(owner, 0) + 1
            ratings[owner] = ratings.get(owner, 0) + r.ratings
        for i, report in enumerate(self._rated):
            if report.event_id in ours:
                self._rated[i] = replace(report, sections=sections.get(report.event_id, 0),
                                         ratings=ratings.get(report.event_id, 0))
        # the waiting events, ``last`` among them if given (it was stored as one)
        rerated, rerated_for = sections.get("", 0), len(self._waiting)
        self._waiting_from, self._waiting = None, []
        if last is None:  # the transaction commits: its last event (waiting) reports it
            report = self._rated[-1]
            self._rated[-1] = replace(report, ratings=report.ratings + ratings.get("", 0),
                                      rerated=rerated, rerated_for=rerated_for)
            return self._rated[-1]
        return replace(last, sections=sections.get(last.event_id, 0),
                       ratings=ratings.get(last.event_id, 0) + ratings.get("", 0),
                       rerated=rerated, rerated_for=rerated_for)


def _stored_after(driver: Driver, key: SectionKey, event_id: str) -> bool:
    """Whether a section of another event is stored after ``key`` in rating order."""
    end, start, key_event, number = key
    return driver.execute(
        "SELECT 1 FROM sections WHERE (end_date, start_date, event_id, number) > "
        "(?, ?, ?, ?) AND event_id <> ? LIMIT 1",
        (driver.date(end), driver.date(start), key_event, number, event_id)
    ).fetchone() is not None


def _stored_as_given(c: Connection, event: Submission, pre_ratings: PreRatings) -> bool:
    """Whether ``event`` is stored already as given: the same event rated with the same
    pre_ratings mode. Rating it again would change nothing (the sections after it were
    rated after it), so a run given again after an interruption skips the events it
    stored before (docs/office.md). The event JSON is compared as data first (the same
    file gives the same data); where that differs, as the event it reads as (a file
    written by another program, or the office's own writing of a model), which costs
    a parse of both but comes only before a refusal."""
    stored = event_source(c, event.id)
    if stored is None or stored.get("pre_ratings", PreRatings.DATABASE.value) != pre_ratings:
        return False
    if stored["input"] == json.loads(event.source_text()):
        return True
    return event_of_source(event.id, stored)[0] == event.model


def _admit(event: Event) -> None:
    """Refuse an event the office cannot keep a history of (office/admission.py)."""
    problems = check_event(event).problems
    if problems:
        raise AdmissionError(f"event {event.id}", problems)


def _rerated(c: Connection, first: SectionKey | None) -> int:
    """Rate the sections from ``first`` on again; how many."""
    return 0 if first is None else len(RatingRun(c).rate_from(first))


def _remove_event(c: Connection, event_id: str) -> None:
    c.execute(delete(t.ratings).where(t.ratings.c.event_id == event_id))
    c.execute(delete(t.sections).where(t.sections.c.event_id == event_id))
    c.execute(delete(t.events).where(t.events.c.id == event_id))


def _any_stored(driver: Driver, event_ids: Sequence[str]) -> bool:
    """Whether any of ``event_ids`` is stored (one query; a group is at most
    `ingest.GROUP_EVENTS` events)."""
    return driver.execute(f"SELECT 1 FROM events WHERE id IN ({', '.join('?' * len(event_ids))})"
                          " LIMIT 1", list(event_ids)).fetchone() is not None


def _corrections(c: Connection, event_id: str) -> int | None:
    """A stored event's number of corrections; None if it is not stored."""
    found = Driver(c).execute("SELECT corrections FROM events WHERE id = ?", (event_id,)
                              ).fetchone()
    return None if found is None else int(found[0])


def _event_source_meta(c: Connection, event_id: str) -> tuple[PreRatings, int] | None:
    """A stored event's pre_ratings mode and its number of corrections."""
    row = c.execute(select(t.events.c.source, t.events.c.corrections)
                    .where(t.events.c.id == event_id)).first()
    if row is None:
        return None
    mode = PreRatings(json.loads(row.source).get("pre_ratings", PreRatings.DATABASE))
    return mode, row.corrections


def _store_event(c: Connection, event: Submission, pre_ratings: PreRatings,
                 corrections: int, different_event: bool = False) -> None:
    """Store the event's rows (not its ratings), in the caller's transaction; refused,
    with nothing written, if its content is stored under another id and the user did
    not say it is a different event."""
    _store_events(c, [event], pre_ratings, corrections, different_event)


def _store_events(c: Connection, events: Sequence[Submission], pre_ratings: PreRatings,
                  corrections: int, different_event: bool = False) -> None:
    """`_store_event` of each of ``events``, with a statement for them all where it was
    one for each (a round trip each on PostgreSQL); refused, with nothing written, at
    the first whose content is stored under another id or is an earlier one's."""
    contents = [event.content_fingerprint() for event in events]
    if not different_event:
        stored = _stored_contents(c, contents)
        for event, content in zip(events, contents, strict=True):
            other = next((i for i in stored.get(content, ()) if i != event.id), None)
            if other is not None:
                raise DuplicateEvent(event.id, other)
            stored[content] = sorted([*stored.get(content, ()), event.id])  # as if stored
    mode = json.dumps(pre_ratings)
    # the event JSON goes in as it is: written out again, it would cost as much as reading
    insert_rows(c, t.events, [{
        "id": event.id, "name": event.name, "start_date": event.start_date,
        "end_date": event.end_date,
        "source": f'{{"input": {event.source_text()}, "pre_ratings": {mode}}}',
        "submitted_at": now(), "corrections": corrections, "city": event.city,
        "state": event.state, "fingerprint": content}
        for event, content in zip(events, contents, strict=True)])
    insert_rows(c, t.sections, [
        {"event_id": event.id, "number": s.number, "name": s.name, "start_date": s.start_date,
         "end_date": s.end_date, "systems": ",".join(x.value for x in s.systems),
         "rule_set": s.rule_set} for event in events for s in event.sections])


def _stored_contents(c: Connection, contents: Sequence[str]) -> dict[str, list[str]]:
    """The ids of the stored events with each of ``contents`` (fingerprints), in id
    order."""
    found: dict[str, list[str]] = {}
    wanted = list(dict.fromkeys(contents))
    for at in range(0, len(wanted), LOAD_AT_ONCE):  # a query's values are bounded
        chunk = wanted[at:at + LOAD_AT_ONCE]
        for content, event_id in Driver(c).execute(
                f"SELECT fingerprint, id FROM events WHERE fingerprint IN "
                f"({', '.join('?' * len(chunk))}) ORDER BY id", chunk).fetchall():
            found.setdefault(content, []).append(event_id)
    return found


def stored_elsewhere(c: Connection, events: Sequence[tuple[str, str]]) -> dict[str, str]:
    """For each of ``events`` (its id, its content's fingerprint) whose content is stored
    under another id: that id (the first in id order), by the event's id."""
    stored = _stored_contents(c, [content for _, content in events])
    found = {}
    for event_id, content in events:
        other = next((i for i in stored.get(content, ()) if i != event_id), None)
        if other is not None:
            found[event_id] = other
    return found


def _first_key_of_event(c: Connection, event_id: str) -> SectionKey | None:
    row = c.execute(select(t.sections.c.end_date, t.sections.c.start_date, t.sections.c.event_id,
                           t.sections.c.number).where(t.sections.c.event_id == event_id)
                    .order_by(t.sections.c.end_date, t.sections.c.start_date,
                              t.sections.c.number).limit(1)).first()
    return None if row is None else (row[0], row[1], row[2], row[3])


def _sections_of(c: Connection, merged: dict[str, str], ids: set[str]
                 ) -> dict[str, set[tuple[str, int]]]:
    """The stored sections each of ``ids`` played in, under any id merged into it (pass
    no ``merged`` for the ids as the files give them)."""
    found: dict[str, set[tuple[str, int]]] = {ident: set() for ident in ids}
    for row in c.execute(select(t.events.c.id, t.events.c.source)):
        for s in json.loads(row.source)["input"]["sections"]:
            for p in s["players"]:
                member = merged.get(p.get("id", ""), p.get("id", ""))
                if member in found:
                    found[member].add((row.id, s["number"]))
    return found


def _section_keys(c: Connection, sections: set[tuple[str, int]]) -> dict[tuple[str, int], SectionKey]:
    """The rating-order key of each of ``sections`` (event id, number). The sections table
    has the dates: in the stored file a section may take the event's."""
    if not sections:
        return {}
    return {(r.event_id, r.number): (r.end_date, r.start_date, r.event_id, r.number)
            for r in c.execute(select(t.sections.c.end_date, t.sections.c.start_date,
                                      t.sections.c.event_id, t.sections.c.number))
            if (r.event_id, r.number) in sections}


def _sections_with_both(c: Connection, merged: dict[str, str], keep: str, drop: str
                        ) -> list[tuple[str, int]]:
    a, b = merged.get(keep, keep), merged.get(drop, drop)
    found = _sections_of(c, merged, {a, b})
    return sorted(found[a] & found[b])


def _first_played(c: Connection, ids: list[str]) -> dict[str, date]:
    """The start of the first stored section each of ``ids`` played in."""
    if not ids:
        return {}
    merged = aliases(c)
    wanted = {merged.get(i, i): i for i in ids}
    found = _sections_of(c, merged, set(wanted))
    keys = _section_keys(c, set().union(*found.values()))
    return {wanted[m]: min(keys[k][1] for k in sections)
            for m, sections in found.items() if sections}


def _first_key_of_members(c: Connection, ids: list[str]) -> SectionKey | None:
    """The first section in which any of ``ids`` appears (rated or not)."""
    found = set().union(*_sections_of(c, {}, set(ids)).values())
    return min(_section_keys(c, found).values(), default=None)


def fill_from_database(c: Connection, section: Section) -> Section:
    """A section as the office would rate it now: pre-event ratings, N, history and floors
    of the members the database knows, without storing anything (``uscf rate --db``)."""
    ids = member_ids(section, aliases(c))
    states, facts, floors = states_and_facts(c, set(ids.values()))
    return prepare(section, ids, states, facts, floors, PreRatings.DATABASE)


def count_rows(office: Office) -> dict[str, int]:
    with office.engine.connect() as c:
        return {name: c.execute(select(func.count()).select_from(table)).scalar_one()
                for name, table in (("events", t.events), ("sections", t.sections),
                                    ("ratings", t.ratings), ("members", t.members))}



