"""Office.rate_many commits whole events in groups: what is committed when, and what an
interruption or a failing event leaves behind."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from uscf_ratings.core.model import Event
from uscf_ratings.office import run as run_module
from uscf_ratings.office import schema
from uscf_ratings.office.office import EventTransaction, Office, OfficeError
from uscf_ratings.office.options import RateOptions
from uscf_ratings.office.store import STATE_COLUMNS
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation


def year(count: int = 12, seed: int = 7) -> list[Event]:
    """Events among few members, so that states carry from one event to the next."""
    return synthetic_events(federation(100, seed), count, seed, sizes=(4, 24))


def games(event: Event) -> int:
    return sum(1 for s in event.sections for p in s.players for r in p.results
               if r.played) // 2


def commits(events: list[Event], threshold: int) -> list[int]:
    """How many of ``events`` are committed at each commit: a group ends once its games
    reach ``threshold``, and at the end."""
    ends, total = [], 0
    for i, event in enumerate(events, 1):
        total += games(event)
        if total >= threshold or i == len(events):
            ends.append(i)
            total = 0
    return ends


def dump(office: Office) -> list[tuple[object, ...]]:
    """Every stored result, and the events and sections it belongs to."""
    with office.engine.connect() as c:
        ratings = sorted((r.event_id, r.section, r.member_id, r.system, r.pre, r.pre_games,
                          r.post, r.games_after, r.floor, tuple(r._mapping[n] for n in STATE_COLUMNS))
                         for r in c.execute(select(schema.ratings)))
        sections = sorted(tuple(r) for r in c.execute(select(schema.sections)))
        events = sorted((r.id, r.name, r.start_date, r.end_date, r.source, r.corrections)
                        for r in c.execute(select(schema.events)))
    return [*ratings, *sections, *events]


def committed(office: Office) -> list[str]:
    """The ids of the events a new connection sees: those committed."""
    with office.engine.connect() as c:
        return sorted(c.execute(select(schema.events.c.id)).scalars())


def audit_rows(office: Office) -> int:
    with office.engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(schema.audit)).scalar_one())


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The year rated one event at a time with Office.rate, each its own transaction."""
    office = Office(f"sqlite:///{tmp_path_factory.mktemp('one') / 'one.db'}")
    office.init()
    for event in year():
        office.rate(event)
    rows = dump(office)
    office.engine.dispose()
    return rows


def test_events_are_committed_in_groups_and_reported_after_their_commit(office: Office) -> None:
    events = year()
    threshold = 3 * sum(map(games, events)) // len(events)  # about three events a group
    seen_when_reported: list[list[str]] = []
    for report in office.rate_each(events, RateOptions(commit_every=threshold)):
        seen = committed(office)
        assert report.event_id in seen  # its transaction has committed
        seen_when_reported.append(seen)
    ends = commits(events, threshold)
    assert 2 < len(ends) < len(events)
    # every event of a group is reported after the group's commit, none before
    assert seen_when_reported == [sorted(e.id for e in events[:end])
                                  for start, end in pairwise([0, *ends]) for _ in range(start, end)]


@pytest.mark.parametrize("commit_every", [0, 1, 150, 10**9])
def test_results_do_not_depend_on_the_groups(office: Office, commit_every: int,
                                             expected: list[tuple[object, ...]]) -> None:
    events = year()
    reports = office.rate_many(events, RateOptions(commit_every=commit_every))
    assert [r.event_id for r in reports] == [e.id for e in events]
    assert dump(office) == expected
    assert audit_rows(office) == len(events)  # one per event


def interrupted(events: list[Event], at: int) -> Iterator[Event]:
    """The events, with Ctrl-C pressed while the event ``at`` is read."""
    for i, event in enumerate(events):
        if i == at:
            raise KeyboardInterrupt
        yield event


def fail_in_section(patch: pytest.MonkeyPatch, at: int, error: BaseException) -> None:
    """``error`` raised while the results of the ``at``-th section of the run are made
    (counting from 0), after the rows of the events before it were written in the same
    transaction (`run.lineup_rows` makes the rows of a part's sections together)."""
    made = 0
    rows = run_module.lineup_rows

    def rows_of_part(*args: Any) -> Any:
        nonlocal made
        sections = args[3]
        if made <= at < made + len(sections):
            raise error
        made += len(sections)
        return rows(*args)

    patch.setattr(run_module, "lineup_rows", rows_of_part)


@pytest.mark.parametrize("where", ["between events", "inside an event"])
def test_an_interruption_leaves_whole_committed_events_and_the_next_run_goes_on(
        office: Office, where: str, expected: list[tuple[object, ...]]) -> None:
    """Ctrl-C in the last event of the first group of two or more events after the first
    commit: the events of that group before it were rated in the open transaction."""
    events = year()
    threshold = 3 * sum(map(games, events)) // len(events)
    ends = commits(events, threshold)
    last_commit, group_end = next((a, b) for a, b in pairwise(ends) if b - a >= 2)
    at = group_end - 1  # the index of the group's last event
    reported: list[str] = []
    with pytest.MonkeyPatch.context() as patch, pytest.raises(KeyboardInterrupt):
        if where == "between events":
            stream: Iterator[Event] = interrupted(events, at)
        else:
            fail_in_section(patch, sum(len(e.sections) for e in events[:at]), KeyboardInterrupt())
            stream = iter(events)
        for report in office.rate_each(stream, RateOptions(commit_every=threshold)):
            reported.append(report.event_id)
    assert reported == [e.id for e in events[:last_commit]]  # the group since was rolled back
    assert committed(office) == sorted(reported)
    assert audit_rows(office) == len(reported)
    rest = [e for e in events if e.id not in reported]
    office.rate_many(rest, RateOptions(commit_every=threshold))
    assert dump(office) == expected


def test_an_event_already_rated_stops_the_run_after_committing_the_events_before_it(
        office: Office, expected: list[tuple[object, ...]]) -> None:
    events = year()
    office.rate_many(events[:4])
    before = dump(office)
    reported: list[str] = []
    other = replace(events[2], name="Another file of it")
    with pytest.raises(OfficeError, match=f"event {events[2].id} is already rated"):
        for report in office.rate_each([*events[4:7], other, *events[7:]],
                                       RateOptions(commit_every=10**9)):
            reported.append(report.event_id)
    assert reported == [e.id for e in events[4:7]]
    assert committed(office) == sorted(e.id for e in events[:7])
    assert set(before) <= set(dump(office))  # the event already rated is as it was
    office.rate_many(events[7:])
    assert dump(office) == expected


def test_an_event_that_fails_midway_is_undone_alone(
        office: Office, expected: list[tuple[object, ...]]) -> None:
    """An error while an event's results are being written: a savepoint undoes that
    event, the events before it in its group are committed, then the error is raised."""
    events = year()
    assert len(events[5].sections) > 1
    reported: list[str] = []
    with pytest.MonkeyPatch.context() as patch, pytest.raises(RuntimeError, match="a bug"):
        at = sum(len(e.sections) for e in events[:5]) + 1  # the 6th event's second section
        fail_in_section(patch, at, RuntimeError("a bug in the rating"))
        for report in office.rate_each(events, RateOptions(commit_every=10**9)):
            reported.append(report.event_id)
    assert reported == [e.id for e in events[:5]]
    assert committed(office) == sorted(reported)
    office.rate_many(events[5:])
    assert dump(office) == expected


def test_an_error_reading_the_next_event_keeps_the_events_before_it(office: Office) -> None:
    """As when a file changes between `uscf db rate`'s two passes."""
    events = year()

    def reading() -> Iterator[Event]:
        yield from events[:3]
        raise ValueError("the file changed")

    with pytest.raises(ValueError, match="the file changed"):
        list(office.rate_each(reading(), RateOptions(commit_every=10**9)))
    assert committed(office) == sorted(e.id for e in events[:3])


def test_nothing_to_rate_opens_no_transaction(office: Office) -> None:
    assert office.rate_many([]) == []
    assert audit_rows(office) == 0


# --- EventTransaction: the primitive the runs of many events are built on ----------------


def test_a_transaction_commits_when_its_owner_says_so(office: Office) -> None:
    events = year()
    with EventTransaction(office) as transaction:
        for event in events[:3]:
            transaction.rate(event)
        assert transaction.games == sum(map(games, events[:3]))
        assert committed(office) == []  # another connection sees nothing yet
        reports = transaction.commit()
        assert [r.event_id for r in reports] == [e.id for e in events[:3]]
        assert [r.games for r in reports] == [games(e) for e in events[:3]]
        assert committed(office) == sorted(e.id for e in events[:3])
        assert transaction.games == 0 and transaction.commit() == []
        transaction.rate(events[3])  # the next event begins a new transaction
    # left without a commit: rolled back
    assert committed(office) == sorted(e.id for e in events[:3])


def test_a_rollback_undoes_the_open_transaction_and_the_run_goes_on(
        office: Office, expected: list[tuple[object, ...]]) -> None:
    events = year()
    with EventTransaction(office) as transaction:
        for event in events[:2]:
            transaction.rate(event)
        transaction.commit()
        for event in events[2:5]:
            transaction.rate(event)
        transaction.rollback()
        assert committed(office) == sorted(e.id for e in events[:2])
        for event in events[2:]:  # rated again: nothing of what was undone is left
            transaction.rate(event)
        transaction.commit()
    assert dump(office) == expected


@pytest.mark.parametrize("undo_alone", [True, False])
def test_an_event_that_fails_midway_is_undone_by_its_savepoint_or_with_the_rest(
        office: Office, undo_alone: bool, tmp_path: Path) -> None:
    """With its savepoint, the event that fails is undone alone and the events before it
    can be committed; without, the transaction is rolled back whole."""
    events = year()
    assert len(events[3].sections) > 1
    with EventTransaction(office) as transaction:
        for event in events[:3]:
            transaction.rate(event)
        with pytest.MonkeyPatch.context() as patch, pytest.raises(RuntimeError, match="a bug"):
            at = 1  # the 4th event's second section, counting from the first section it rates
            fail_in_section(patch, at, RuntimeError("a bug in the rating"))
            transaction.rate(events[3], undo_alone=undo_alone)
        if undo_alone:
            assert [r.event_id for r in transaction.commit()] == [e.id for e in events[:3]]
        else:
            transaction.rollback()
    assert committed(office) == (sorted(e.id for e in events[:3]) if undo_alone else [])
    clean = Office(f"sqlite:///{tmp_path / 'clean.db'}")
    clean.init()
    clean.rate_many(events[:3] if undo_alone else [])
    assert dump(office) == dump(clean)
