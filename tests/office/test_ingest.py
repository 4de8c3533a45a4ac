"""office.ingest: many event files checked, then stored and rated, from Python; what it
reports, what it refuses, and when it commits while files are still being checked."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from tests.conftest import another_file_of, write_events
from tests.office.conftest import dump

from uscf_ratings.core.model import Event
from uscf_ratings.core.settled import settled
from uscf_ratings.formats.event_json import event_from_dict, read_event
from uscf_ratings.office import schema
from uscf_ratings.office.checked_file import CheckedFile, check_files, settled_text
from uscf_ratings.office.defaults import PreRatings
from uscf_ratings.office.file_checks import CHUNK, POOL_FROM, FileChecks
from uscf_ratings.office.ingest import (
    CheckingFiles,
    Committed,
    EventFailed,
    FileChecked,
    FilesRefused,
    Ingested,
    RatingInOrder,
    _Files,
    _rate_while_checking,
    ingest,
)
from uscf_ratings.office.office import Office
from uscf_ratings.office.options import IngestOptions, RateOptions, ReadOptions
from uscf_ratings.office.spool import Spool


def year_files(folder: Path, count: int) -> list[Path]:
    return write_events(folder, count, seed=6)


def games(event: Event) -> int:
    """Games with a result on the board, counted once for both players."""
    return sum(1 for s in event.sections for p in s.players for r in p.results
               if r.played) // 2


def count(office: Office, table: str) -> int:
    with office.engine.connect() as c:
        return int(c.execute(select(func.count()).select_from(schema.metadata.tables[table]))
                   .scalar_one())


def spoiled(path: Path) -> None:
    """A result code no file may hold."""
    doc = json.loads(path.read_text())
    doc["sections"][0]["players"][0]["results"][0] = "Q9"
    path.write_text(json.dumps(doc))


def test_a_few_files_are_checked_then_rated_in_date_order(office: Office,
                                                          tmp_path: Path) -> None:
    paths = year_files(tmp_path, 5)
    given = list(reversed(paths))
    reports = list(ingest(office, given))
    total = sum(games(read_event(p)) for p in paths)
    assert reports[0] == CheckingFiles(5, 0, rating=False)  # five files: no pool
    assert [r.path for r in reports if isinstance(r, FileChecked)] == given
    assert [r.games for r in reports if isinstance(r, FileChecked)] == \
        [games(read_event(p)) for p in given]
    assert reports[6] == RatingInOrder(5, total)
    committed = [r for r in reports if isinstance(r, Committed)]
    assert len(committed) == 1  # 50,000 games a commit by default
    assert [e.event_id for e in committed[0].events] == [p.stem for p in paths]
    assert reports[-1] == Ingested(5, total, count(office, "ratings"))
    assert count(office, "events") == 5


@pytest.mark.parametrize("check_first", [True, False])
def test_every_file_refused_is_named_and_nothing_is_stored(office: Office, tmp_path: Path,
                                                           check_first: bool) -> None:
    paths = year_files(tmp_path, POOL_FROM + 8)
    for bad in (paths[3], paths[11], paths[-1]):
        spoiled(bad)
    twin = tmp_path / "twin.json"
    twin.write_text(paths[5].read_text())
    files = [*paths[:9], twin, *paths[9:]]
    with pytest.raises(FilesRefused) as refused:
        list(ingest(office, files, IngestOptions(check_first=check_first)))
    problems = refused.value.problems
    assert [p.split(":")[0] for p in problems] == \
        [str(paths[3]), str(twin), str(paths[11]), str(paths[-1])]
    assert f"event {paths[5].stem} is also in {paths[5]}" in problems[1]
    assert str(refused.value).endswith("4 file(s) refused: nothing was stored")
    assert count(office, "events") == count(office, "ratings") == 0


@pytest.mark.parametrize("commit_every", [0, 10**9])  # groups of one; one group of six
def test_an_event_that_fails_is_named_by_its_file_and_the_events_before_it_stay(
        office: Office, tmp_path: Path, commit_every: int) -> None:
    paths = year_files(tmp_path, 6)
    list(ingest(office, [another_file_of(paths[3], tmp_path)]))
    committed: list[str] = []
    options = IngestOptions(check_first=True, rating=RateOptions(commit_every=commit_every))
    with pytest.raises(EventFailed) as failed:
        for report in ingest(office, paths, options):
            if isinstance(report, Committed):
                committed.extend(e.event_id for e in report.events)
    assert failed.value.path == paths[3]
    assert str(failed.value) == (
        f"{paths[3]}: event {paths[3].stem} is already rated from another file (or with "
        f"other --pre-ratings); to replace it, give --replace or use `uscf db correct "
        f"{paths[3].stem} FILE`")
    assert committed == [p.stem for p in paths[:3]]
    assert count(office, "events") == 4


def test_a_bug_while_rating_is_raised_as_it_is_after_the_events_before_it_commit(
        office: Office, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from uscf_ratings.office import run

    paths = year_files(tmp_path, 6)
    rows = run.lineup_rows

    def rows_of_part(*args: Any) -> Any:
        if any(event_id == paths[4].stem for event_id, *_ in args[3]):  # the fifth
            raise RuntimeError("a bug in the rating")  # event's sections, however rated
        return rows(*args)

    monkeypatch.setattr(run, "lineup_rows", rows_of_part)
    committed: list[str] = []
    with pytest.raises(RuntimeError, match="a bug in the rating"):
        for report in ingest(office, paths, IngestOptions(rating=RateOptions(commit_every=10**9))):
            if isinstance(report, Committed):
                committed.extend(e.event_id for e in report.events)
    assert committed == [p.stem for p in paths[:4]]
    assert count(office, "events") == 4


def test_events_rated_in_one_group_are_stored_and_reported_as_one_by_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`EventTransaction.rate_group`: one call of the engine for the events of a commit
    rates and stores what rating them one at a time does, to the bit, and reports each
    event alike; here after a first batch, so that the group goes on from the states of
    another transaction."""
    (tmp_path / "files").mkdir()
    paths = year_files(tmp_path / "files", 12)
    from uscf_ratings.office.run import RatingRun

    calls: list[int] = []
    rate_from = RatingRun.rate_from

    def counted(run: RatingRun, key: Any) -> Any:
        calls.append(1)
        return rate_from(run, key)

    monkeypatch.setattr(RatingRun, "rate_from", counted)
    outcomes, engine_calls = [], []
    for name, commit_every in (("one_by_one", 0), ("grouped", 10**9)):
        calls.clear()
        office = Office(f"sqlite:///{tmp_path / name}.db")
        office.init()
        reports: list[Any] = []
        for batch in (paths[:4], paths[4:]):
            options = IngestOptions(check_first=True,
                                    rating=RateOptions(commit_every=commit_every))
            reports += [e for r in ingest(office, batch, options)
                        if isinstance(r, Committed) for e in r.events]
        outcomes.append((dump(office), reports))
        engine_calls.append(len(calls))
    assert engine_calls == [12, 2]  # an event a call; a group (a batch of files) a call
    (one_by_one, reported_alone), (grouped, reported_grouped) = outcomes
    assert grouped == one_by_one
    assert reported_grouped == reported_alone
    assert [e.event_id for e in reported_grouped] == [p.stem for p in paths]
    assert all(e.sections > 0 and e.ratings > 0 for e in reported_grouped)


def test_a_group_of_overlapping_events_rates_each_section_once_in_rating_order(
        tmp_path: Path) -> None:
    """The third event's last section ends after the fourth event's first: one by one,
    the fourth waits and the third's last section is rated again after it (reported
    with the event after them both); in a group,
    every section is rated once, in rating order. The same ratings either way."""
    from dataclasses import replace
    from datetime import timedelta

    from tests.office.conftest import year

    from uscf_ratings.formats.event_json import write

    events = year(6)  # the third event has three sections
    late_end = events[3].sections[0].end_date + timedelta(days=1)
    last = events[2].sections[-1]
    events[2] = replace(events[2], end_date=late_end, sections=(
        *events[2].sections[:-1], replace(last, end_date=late_end)))
    paths = []
    for event in events:
        paths.append(tmp_path / f"{event.id}.json")
        write(event, paths[-1])
    outcomes = []
    for name, commit_every in (("one_by_one", 0), ("grouped", 10**9)):
        office = Office(f"sqlite:///{tmp_path / name}.db")
        office.init()
        options = IngestOptions(check_first=True, rating=RateOptions(commit_every=commit_every))
        reports = [e for r in ingest(office, paths, options) if isinstance(r, Committed)
                   for e in r.events]
        outcomes.append((dump(office), {e.event_id: e.rerated for e in reports}))
    (one_by_one, rerated_alone), (grouped, rerated_grouped) = outcomes
    assert grouped == one_by_one
    assert sum(rerated_alone.values()) == 1  # the third event's last section, again
    assert set(rerated_grouped.values()) == {0}


def test_the_options_reach_what_is_stored(office: Office, tmp_path: Path) -> None:
    [path] = year_files(tmp_path, 1)
    options = IngestOptions(ReadOptions(), RateOptions(PreRatings.FILE))
    list(ingest(office, [path], options))
    with office.engine.connect() as c:
        source = json.loads(c.execute(select(schema.events.c.source)).scalar_one())
    assert source["pre_ratings"] == "file"  # the value `uscf db rate --pre-ratings` takes
    with pytest.raises(ValueError, match="commit_every -1"):
        RateOptions(commit_every=-1)


def test_the_events_wait_in_a_spool_file_a_task_and_each_file_goes_once_read(
        tmp_path: Path) -> None:
    """The checks write the events of each task of CHUNK files to one file; rating in
    date order removes a file once it has read every event in it."""
    paths = year_files(tmp_path, CHUNK + 2)
    with Spool() as spool, FileChecks(paths, spool, ReadOptions()) as checks:
        assert not checks.in_pool  # fewer files than POOL_FROM
        checked = [item for item in checks.results if isinstance(item, CheckedFile)]
        first, second = spool.file(0), spool.file(1)
        assert [item.spooled.path for item in checked] == [first] * CHUNK + [second] * 2
        events = Spool.drain([item.spooled for item in checked])
        taken = [next(events).id for _ in range(CHUNK + 1)]
        assert not first.exists() and second.exists()
        taken += [event.id for event in events]
        assert not second.exists()
    assert not spool.folder.exists()
    assert taken == [p.stem for p in paths]  # files named by event id, in date order


def test_a_checked_event_json_file_is_spooled_as_its_settled_event(tmp_path: Path) -> None:
    """A checked event JSON file whose sections do not name their systems goes to the
    spool as the file's JSON with each section's systems and each rating's date added
    (`settled_text`), not written out again: read back, it is the settled event, field
    for field. One file's section names none; one's names two, and it is stored as its
    text; the third's three sections name one system between them."""
    paths = year_files(tmp_path, 3)
    doc = json.loads(paths[1].read_text())
    for section in doc["sections"]:
        section["systems"] = ["R", "Q"]
    paths[1].write_text(json.dumps(doc))
    doc = json.loads(paths[2].read_text())
    assert len(doc["sections"]) == 3
    doc["sections"][2]["systems"] = ["R"]  # G/90;d30
    paths[2].write_text(json.dumps(doc))
    checked = [item for item in check_files(paths, tmp_path / "spool.pickle")
               if isinstance(item, CheckedFile)]
    assert len(checked) == 3
    for path, event in zip(paths, Spool.drain([item.spooled for item in checked]),
                           strict=True):
        assert event.source is not None and event.model == settled(read_event(path))
        assert event.model.sections[0].systems  # filled, where the file named none
        if path == paths[1]:  # nothing filled: its text, as it is
            assert event.source == path.read_text()
            continue
        stored, given = json.loads(event.source), json.loads(path.read_text())
        for section, before in zip(stored["sections"], given["sections"], strict=True):
            if "systems" not in before:
                del section["systems"]
            for player, as_given in zip(section["players"], before["players"], strict=True):
                for system, rating in player.get("ratings", {}).items():
                    assert rating.pop("date") == as_given["ratings"][system].get(
                        "date", before.get("start_date", given["event"]["start_date"]))
        assert stored == given  # the file's own JSON: nothing else written out again


def test_the_settled_text_is_the_whole_event_written_out_where_a_player_was_filled(
        tmp_path: Path) -> None:
    """`settled_text` adds systems alone: where `core.settled` filled a rating's date
    (a model not read from event JSON, whose reader dates every rating), it gives
    None, and the office writes the whole settled event out instead."""
    [path] = year_files(tmp_path, 1)
    parsed = json.loads(path.read_text())
    read = read_event(path)
    section = read.sections[0]
    player = section.players[0]
    system, rating = next(iter(player.ratings.items()))
    undated = replace(read, sections=(replace(section, players=(
        replace(player, ratings={**player.ratings, system: replace(rating, date=None)}),
        *section.players[1:])), *read.sections[1:]))
    assert settled_text(parsed, undated, settled(undated)) is None
    text = settled_text(parsed, read, settled(read))
    assert text is not None and event_from_dict(json.loads(text)) == settled(read)


# --- Rating while the files are checked -------------------------------------------------


class Checks:
    """Stands for `FileChecks`: the results of ``paths`` checked, in the order given, and
    every file checked and passed from the ``passed_at``-th result taken on; the first
    ``ready_until`` results can be taken without waiting (the rest come one at a time)."""

    def __init__(self, paths: list[Path], spool: Path, passed_at: int, ready_until: int = 0):
        self.taken = 0
        self.passed_at = passed_at
        self.ready_until = ready_until
        self.checked = check_files(paths, spool)
        self.results = self._results(self.checked)

    def ready(self) -> bool:
        return self.taken < self.ready_until

    def _results(self, results: list[CheckedFile | str]) -> Iterator[CheckedFile | str]:
        for result in results:
            self.taken += 1
            yield result

    def all_passed(self) -> bool:
        return self.taken >= self.passed_at

    def passed(self) -> list[CheckedFile]:
        return [item for item in self.checked if isinstance(item, CheckedFile)]



def test_nothing_commits_until_every_file_has_passed(office: Office, tmp_path: Path) -> None:
    """Whatever commit_every says: the first six events are held in one transaction, then
    each event commits alone (commit_every=0)."""
    paths = year_files(tmp_path, 12)
    checks = Checks(paths, tmp_path / "spool.pickle", passed_at=6)
    rating = _rate_while_checking(office, checks, _Files(), RateOptions(commit_every=0))
    sizes, stored = [], []
    with pytest.raises(StopIteration) as end:
        while True:
            report = next(rating)
            if isinstance(report, Committed):
                sizes.append(len(report.events))
                stored.append(count(office, "events"))
    assert end.value.value is True  # every event rated and committed
    assert sizes == [6] + [1] * 6
    assert stored == [6, 7, 8, 9, 10, 11, 12]


@pytest.mark.parametrize("held_before_it", [True, False])
def test_an_event_begun_while_commits_are_held_is_undone_with_the_rest(
        office: Office, tmp_path: Path, held_before_it: bool) -> None:
    """An event that begins while commits are held has no savepoint of its own: if it
    fails, the whole transaction rolls back. An event that begins after every file has
    passed is undone alone, and the events before it commit."""
    paths = year_files(tmp_path, 8)
    # the sixth event fails: it is already rated, from another file
    office.rate(read_event(another_file_of(paths[5], tmp_path)))
    checks = Checks(paths, tmp_path / "spool.pickle", passed_at=7 if held_before_it else 6)
    with pytest.raises(EventFailed, match=f"event {paths[5].stem} is already rated"):
        list(_rate_while_checking(office, checks, _Files(), RateOptions(commit_every=0)))
    assert count(office, "events") == (1 if held_before_it else 1 + 5)


@pytest.mark.parametrize("held", [True, False])
def test_an_event_that_fails_in_a_group_is_undone_as_it_would_be_alone(
        office: Office, tmp_path: Path, held: bool) -> None:
    """Files checked already are rated as one group (`EventTransaction.rate_group`);
    the sixth event fails. While commits are held, the whole transaction rolls back;
    once every file has passed, the five events before it commit."""
    paths = year_files(tmp_path, 8)
    office.rate(read_event(another_file_of(paths[5], tmp_path)))
    checks = Checks(paths, tmp_path / "spool.pickle", passed_at=100 if held else 0,
                    ready_until=len(paths))
    with pytest.raises(EventFailed, match=f"event {paths[5].stem} is already rated") as failed:
        list(_rate_while_checking(office, checks, _Files(), RateOptions(commit_every=10**9)))
    assert failed.value.path == paths[5]
    assert count(office, "events") == (1 if held else 1 + 5)


def test_a_file_out_of_order_rolls_back_what_was_rated(office: Office, tmp_path: Path) -> None:
    paths = year_files(tmp_path, 8)
    given = [*paths[:3], paths[4], paths[3], *paths[5:]]
    checks = Checks(given, tmp_path / "spool.pickle", passed_at=100)
    files = _Files()
    rating = _rate_while_checking(office, checks, files, RateOptions(commit_every=0))
    with pytest.raises(StopIteration) as end:
        while True:
            next(rating)
    assert end.value.value is False  # to be rated in date order
    assert [item.path for item in files.checked] == given[:5]  # the rest not yet taken
    assert count(office, "events") == 0


def test_a_bad_file_while_rating_stores_nothing(office: Office, tmp_path: Path) -> None:
    paths = year_files(tmp_path, 8)
    spoiled(paths[4])
    spoiled(paths[6])
    checks = Checks(paths, tmp_path / "spool.pickle", passed_at=100)
    with pytest.raises(FilesRefused) as refused:
        list(_rate_while_checking(office, checks, _Files(), RateOptions(commit_every=0)))
    assert [p.split(":")[0] for p in refused.value.problems] == [str(paths[4]), str(paths[6])]
    assert count(office, "events") == 0


def test_a_group_s_members_are_loaded_a_bounded_number_at_a_query(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`RatingRun._load_part` loads a part's members at once, at most `LOAD_AT_ONCE` a
    query (a query's values are bounded): with three a query, the same database."""
    from uscf_ratings.office import run, store

    (tmp_path / "files").mkdir()
    paths = year_files(tmp_path / "files", 6)
    asked: list[int] = []
    facts = store.member_facts

    def counted(c: Any, ids: Any) -> Any:
        asked.append(len(list(ids)))
        return facts(c, ids)

    dumps = []
    for name, at_once in (("plain", run.LOAD_AT_ONCE), ("small", 3)):
        monkeypatch.setattr(run, "LOAD_AT_ONCE", at_once)
        monkeypatch.setattr(run, "member_facts", counted)
        asked.clear()
        office = Office(f"sqlite:///{tmp_path / name}.db")
        office.init()
        list(ingest(office, paths, IngestOptions(check_first=True,
                                                 rating=RateOptions(commit_every=10**9))))
        dumps.append(dump(office))
        assert max(asked) <= at_once
    assert dumps[0] == dumps[1]


def test_a_section_numbered_as_a_whole_float_is_stored_as_its_number(office: Office,
                                                                      tmp_path: Path) -> None:
    """JSON's ``"number": 1.0`` is an integer to the event schema: the file is rated on
    both databases, its section stored as 1 (PostgreSQL's integer column refused 1.0,
    and `uscf db rate` ended in a traceback)."""
    path = year_files(tmp_path, 1)[0]
    doc = json.loads(path.read_text())
    number = doc["sections"][0]["number"]
    doc["sections"][0]["number"] = float(number)
    path.write_text(json.dumps(doc))
    assert f'"number": {float(number)}' in path.read_text()
    reports = list(ingest(office, [path]))
    assert isinstance(reports[-1], Ingested) and reports[-1].ratings > 0
    with office.engine.connect() as c:
        numbers = {n for n, in c.execute(select(schema.sections.c.number))}
        rated = {n for n, in c.execute(select(schema.ratings.c.section).distinct())}
    assert number in numbers and number in rated
    assert all(type(n) is int for n in numbers | rated)
