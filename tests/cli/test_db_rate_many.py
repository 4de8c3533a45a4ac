"""`uscf db rate` of many files: read and checked in parallel, rated in date order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from tests.conftest import another_file_of, write_events

from uscf_ratings.cli.main import cli
from uscf_ratings.office import schema
from uscf_ratings.office.file_checks import POOL_FROM
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import STATE_COLUMNS


def year_files(folder: Path, count: int) -> list[Path]:
    return write_events(folder, count, seed=3)


def stored_events(url: str) -> int:
    office = Office(url)
    with office.engine.connect() as c:
        count = c.execute(select(func.count()).select_from(schema.events)).scalar_one()
    office.engine.dispose()
    return int(count)


def test_many_files_are_rated_in_date_order(tmp_path: Path) -> None:
    paths = year_files(tmp_path, POOL_FROM + 4)  # enough files for the pool of processes
    url = f"sqlite:///{tmp_path / 'office.db'}"
    assert CliRunner().invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, reversed(paths))])
    assert out.exit_code == 0, out.output
    rated = [line.split()[1] for line in out.output.splitlines() if line.startswith("rated ")]
    assert rated == [p.stem for p in paths]  # the files' order does not matter: their dates do
    assert stored_events(url) == len(paths)


def test_one_bad_file_among_many_stores_nothing_and_is_named(tmp_path: Path) -> None:
    paths = year_files(tmp_path, POOL_FROM + 4)
    bad = paths[7]
    doc = json.loads(bad.read_text())
    doc["sections"][0]["players"][0]["results"][0] = "Q9"
    bad.write_text(json.dumps(doc))
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths)])
    assert out.exit_code == 1
    assert str(bad) in out.output and "'Q9' is not a US Chess code" in out.output
    assert stored_events(url) == 0
    twice = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths), str(bad)])
    assert twice.exit_code == 1 and twice.output == out.output  # named once, counted once
    assert out.output.endswith("\n1 file(s) refused: nothing was stored\n"), out.output


def test_the_text_stored_is_the_text_checked_though_the_file_changes_after(tmp_path: Path
                                                                         ) -> None:
    """The check keeps the text it checked with the laid-out event in the spool: a file
    changed between the check and the rating changes nothing that is rated or stored."""
    from uscf_ratings.core.settled import settled
    from uscf_ratings.formats.event_json import event_from_dict, parse_event
    from uscf_ratings.office.checked_file import check_files
    from uscf_ratings.office.spool import read_event

    [path] = year_files(tmp_path, 1)
    text = path.read_text()
    [checked] = check_files([path], tmp_path / "spooled.pickle")
    assert not isinstance(checked, str)
    changed = text.replace('"games": ', '"games": 1', 1)  # a player's N, 100 times more
    assert parse_event(changed) != parse_event(text)
    path.write_text(changed)
    # the text checked, its defaults filled in (its sections' systems: core/settled.py)
    checked_event = settled(parse_event(text))
    assert checked_event != parse_event(text)
    stored = read_event(checked.spooled).source_text()
    assert event_from_dict(json.loads(stored), checked=True) == checked_event


def test_ctrl_c_says_how_many_events_were_committed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                    ) -> None:
    """Ctrl-C while an event is rated, in a group of events not yet committed: the message
    counts the events committed, which are the events the database holds."""
    from uscf_ratings.office import run

    paths = year_files(tmp_path, POOL_FROM + 4)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    calls, rate = iter(range(10**6)), run.RatingRun._write

    def rate_section(rating_run: run.RatingRun, *args: Any) -> run.Rated:
        if next(calls) == 12:
            raise KeyboardInterrupt
        return rate(rating_run, *args)

    monkeypatch.setattr(run.RatingRun, "_write", rate_section)
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", "--check-first",
                                   "--commit-every", "60", *map(str, paths)])
    assert out.exit_code == 130, out.output
    committed = stored_events(url)
    assert 0 < committed < len(paths)
    assert len([line for line in out.output.splitlines() if line.startswith("rated ")]) == committed
    assert (f"stopped: {committed} of {len(paths)} events rated and committed; the rest were "
            "rolled back or not begun; the database holds whole events only; to go on, run "
            "the same command again (events stored already as given are skipped)\n"
            ) in out.output


def test_ctrl_c_just_after_a_commit_counts_the_events_it_committed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C (SIGINT, as the terminal sends it) lands the moment the database has
    committed a group of events, before the run has counted them: the message counts
    them all the same, and each has its line (interrupts.held). Without the hold, the
    first group's events were stored and the message said none were."""
    import signal

    from uscf_ratings.office.office import EventTransaction

    paths = year_files(tmp_path, 6)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    commit, commits = EventTransaction.commit, 0

    def interrupted_after(transaction: EventTransaction) -> Any:
        nonlocal commits
        reports = commit(transaction)
        if reports:
            commits += 1
            if commits == 1:
                signal.raise_signal(signal.SIGINT)  # Python raises it at its next step
        return reports

    monkeypatch.setattr(EventTransaction, "commit", interrupted_after)
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", "--check-first",
                                   "--commit-every", "0", *map(str, paths)])
    assert out.exit_code == 130, out.output
    assert stored_events(url) == 1  # each event commits alone: the first, then Ctrl-C
    assert len([line for line in out.output.splitlines() if line.startswith("rated ")]) == 1
    assert f"stopped: 1 of {len(paths)} events rated and committed; the rest were " \
           "rolled back or not begun" in out.output


def test_the_file_is_stored_as_submitted_and_read_back(tmp_path: Path) -> None:
    """An event JSON file is stored with its defaults filled in (its sections take the
    event's dates); the event, its players' histories and an import of members (which
    looks for the members' first section) read it back. A file that leaves nothing to
    defaults is stored as its text (`test_a_file_without_defaults_is_stored_as_its_text`)."""
    from uscf_ratings.formats.member_records import MemberRecord
    from uscf_ratings.office import queries

    doc = {"event": {"id": "E7", "name": "Club night", "start_date": "2026-03-04"},
           "sections": [{"number": 1, "time_control": "G/60;d5", "players": [
               {"pair": 1, "id": "11", "ratings": {"R": {"rating": 1500, "games": 30}},
                "results": ["W2"]},
               {"pair": 2, "id": "12", "ratings": {"R": {"rating": 1600, "games": 40}},
                "results": ["L1"]}]}]}
    path = tmp_path / "club.json"
    text = json.dumps(doc, indent=1)  # no section dates: the event's
    path.write_text(text)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    assert CliRunner().invoke(cli, ["db", "--db", url, "rate", str(path)]).exit_code == 0
    office = Office(url)
    with office.engine.connect() as c:
        source = c.execute(select(schema.events.c.source)).scalar_one()
        # what the file left to defaults is stored filled in (core/settled.py): the
        # ratings dated the section's start, the systems of G/60;d5 (R and Q)
        stored = json.loads(source)["input"]["sections"][0]
        assert stored["systems"] == ["R", "Q"]
        assert [p["ratings"]["R"]["date"] for p in stored["players"]] == ["2026-03-04"] * 2
        shown = queries.event(c, "E7")
    assert shown is not None
    assert [(s["start_date"], s["end_date"]) for s in shown["sections"]] == \
        [("2026-03-04", "2026-03-04")]
    [one, two] = shown["sections"][0]["players"]
    assert one["ratings"]["R"]["post"] > 1500 and two["ratings"]["R"]["post"] < 1600  # W vs L
    office.import_members([MemberRecord("11", "Ann Eleven")])  # re-rates from her first
    with office.engine.connect() as c:
        history = queries.player(c, "11")
    assert history is not None and len(history["history"]) == 2  # G/60;d5: R and Q


def test_a_file_without_defaults_is_stored_as_its_text(tmp_path: Path) -> None:
    """Nothing to fill in (systems and ratings' dates given): the text is stored as it
    is, not written out again."""
    doc = {"event": {"id": "E8", "name": "Club night", "start_date": "2026-03-04"},
           "sections": [{"number": 1, "systems": ["R"], "players": [
               {"pair": 1, "id": "11", "ratings": {"R": {"rating": 1500, "games": 30,
                                                         "date": "2026-02-01"}},
                "results": ["W2"]},
               {"pair": 2, "id": "12", "results": ["L1"]}]}]}
    path = tmp_path / "club.json"
    text = json.dumps(doc, indent=1)
    path.write_text(text)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    assert CliRunner().invoke(cli, ["db", "--db", url, "rate", str(path)]).exit_code == 0
    with Office(url).engine.connect() as c:
        source = c.execute(select(schema.events.c.source)).scalar_one()
    assert source == f'{{"input": {text}, "pre_ratings": "database"}}'


def dump(url: str) -> list[tuple[object, ...]]:
    office = Office(url)
    with office.engine.connect() as c:
        rows = sorted((r.event_id, r.section, r.member_id, r.system, r.post,
                       tuple(r._mapping[n] for n in STATE_COLUMNS))
                      for r in c.execute(select(schema.ratings)))
    office.engine.dispose()
    return rows


def rate_files(url: str, paths: list[Path], *options: str) -> Any:
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    return CliRunner().invoke(cli, ["db", "--db", url, "rate", *options, *map(str, paths)])


@pytest.mark.parametrize("commit_every", ["0", "60", "50000"])
def test_files_in_date_order_are_rated_while_checked_as_if_checked_first(
        tmp_path: Path, commit_every: str) -> None:
    """Files in date order are rated as the first pass checks them; the database is the
    one --check-first gives, row for row, whatever the commit groups."""
    paths = year_files(tmp_path, 3 * POOL_FROM)
    together = rate_files(f"sqlite:///{tmp_path / 'a.db'}", paths, "--commit-every",
                          commit_every)
    first = rate_files(f"sqlite:///{tmp_path / 'b.db'}", paths, "--check-first")
    assert together.exit_code == first.exit_code == 0, together.output + first.output
    lines = [line for line in together.output.splitlines() if line.startswith("rated ")]
    assert [line.split()[1] for line in lines] == [p.stem for p in paths]
    assert dump(f"sqlite:///{tmp_path / 'a.db'}") == dump(f"sqlite:///{tmp_path / 'b.db'}")


def test_a_bad_file_after_events_were_rated_stores_nothing(tmp_path: Path) -> None:
    """The last file fails its check after the events before it were rated (in a
    transaction held open until every file passes): nothing is stored."""
    paths = year_files(tmp_path, 3 * POOL_FROM)
    doc = json.loads(paths[-1].read_text())
    doc["sections"][0]["players"][0]["results"][0] = "Q9"
    paths[-1].write_text(json.dumps(doc))
    url = f"sqlite:///{tmp_path / 'office.db'}"
    out = rate_files(url, paths, "--commit-every", "0")
    assert out.exit_code == 1
    assert str(paths[-1]) in out.output and "'Q9' is not a US Chess code" in out.output
    assert not any(line.startswith("rated ") for line in out.output.splitlines())
    assert stored_events(url) == 0


def test_files_out_of_date_order_are_rated_in_date_order_all_the_same(tmp_path: Path) -> None:
    """A file dated before one already rated stops the rating while checking: what it
    rated is rolled back, and the events are rated in date order once every file is
    checked, as --check-first does."""
    paths = year_files(tmp_path, 3 * POOL_FROM)
    shuffled = paths[:20] + paths[25:] + paths[20:25]  # five late files, found late
    out = rate_files(f"sqlite:///{tmp_path / 'a.db'}", shuffled)
    first = rate_files(f"sqlite:///{tmp_path / 'b.db'}", paths, "--check-first")
    assert out.exit_code == first.exit_code == 0, out.output + first.output
    rated = [line.split()[1] for line in out.output.splitlines() if line.startswith("rated ")]
    assert rated == [p.stem for p in paths]
    assert dump(f"sqlite:///{tmp_path / 'a.db'}") == dump(f"sqlite:///{tmp_path / 'b.db'}")


def test_on_a_terminal_the_summary_says_what_was_re_rated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal the events of a batch get no line of their own, so the summary says
    how many sections of events rated before were rated again: here every section of the
    two events dated after the two given late (counted from their files)."""
    from uscf_ratings.cli import db as db_command

    paths = year_files(tmp_path, 5)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    assert rate_files(url, [paths[0], *paths[3:]]).exit_code == 0
    made = db_command._Progress.__init__

    def on_a_terminal(progress: Any, *args: Any) -> None:
        made(progress, *args)
        progress.lines = False  # as where stdout is a terminal: a bar and a summary

    monkeypatch.setattr(db_command._Progress, "__init__", on_a_terminal)
    out = rate_files(url, paths[1:3])
    assert out.exit_code == 0, out.output
    later = sum(len(json.loads(p.read_text())["sections"]) for p in paths[3:])
    assert later > 0
    assert out.output.rstrip("\n").endswith(
        f"; {later:,} later section(s) of events rated before were re-rated"), out.output
    assert not [line for line in out.output.splitlines()  # no line of each event's own
                if line.startswith(tuple(f"rated {p.stem}" for p in paths))]


def test_an_event_already_rated_stops_the_run_with_whole_events_reported(tmp_path: Path
                                                                        ) -> None:
    """An event already rated stops the run. Whether it came while files were still
    being checked (everything rolled back) or after (the events before it committed),
    the database holds exactly the events reported, and the one rated before."""
    paths = year_files(tmp_path, 3 * POOL_FROM)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    assert rate_files(url, [another_file_of(paths[30], tmp_path)]).exit_code == 0
    out = rate_files(url, paths, "--commit-every", "0")
    assert out.exit_code == 1 and f"event {paths[30].stem} is already rated" in out.output
    reported = [line.split()[1] for line in out.output.splitlines() if line.startswith("rated ")]
    assert reported in ([], [p.stem for p in paths[:30]])
    assert stored_events(url) == len(reported) + 1


def test_ctrl_c_while_the_files_are_checked_stores_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from uscf_ratings.office import checked_file

    paths = year_files(tmp_path, 3)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    calls, check = iter(range(10**6)), checked_file.read_checked

    def read_checked(*args: Any) -> Any:
        if next(calls) == 1:
            raise KeyboardInterrupt
        return check(*args)

    monkeypatch.setattr(checked_file, "read_checked", read_checked)
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths)])
    assert out.exit_code == 130, out.output
    assert "stopped while reading the files: nothing was stored" in out.output
    assert stored_events(url) == 0


@pytest.mark.parametrize("files", [1, POOL_FROM])
def test_a_database_without_the_schema_is_refused_before_any_file_is_read(
        tmp_path: Path, files: int) -> None:
    """A database with no schema, or one at an older revision (a user who upgraded the
    program and not the database): one line saying what to run, as every other
    command says it, and no file read or stored."""
    from alembic import command

    from uscf_ratings.office.db import SCHEMA_HEAD, _alembic_config, make_engine, writing

    paths = year_files(tmp_path, files)
    (tmp_path / "empty.db").write_bytes(b"")
    older = f"sqlite:///{tmp_path / 'older.db'}"
    engine = make_engine(older)
    with writing(engine) as c:
        command.upgrade(_alembic_config(c), "0007")
    engine.dispose()
    for url, says in ((f"sqlite:///{tmp_path / 'empty.db'}",
                       "the database has no schema yet: run `uscf db init` first"),
                      (older, f"the database schema is at 0007, this program needs "
                              f"{SCHEMA_HEAD}: run `uscf db upgrade`")):
        out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths)])
        assert (out.exit_code, out.output) == (1, f"Error: {url}: {says}\n")


def killed_while_checking(paths: list[Path], *rest: Any) -> Any:
    """Stands for `checked_file.check_files` in the pool: the process is killed, as the
    system's out-of-memory killer would."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_checking_process_killed_under_the_run_is_said_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process of the pool that checks the files is killed (the machine out of
    memory): `uscf db rate` says so in one line, with what to do, and stores nothing."""
    from uscf_ratings.office import file_checks

    paths = year_files(tmp_path, POOL_FROM)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    monkeypatch.setattr(file_checks, "check_files", killed_while_checking)
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths)])
    assert out.exit_code == 1 and "Traceback" not in out.output, out.output
    assert "a process that checked or read the events ended without an answer, stopped " \
        "by the system (out of memory, or killed)" in out.output, out.output
    assert "check the machine's free memory, then run the same command again" in out.output
    assert stored_events(url) == 0


def test_a_reading_process_killed_under_a_rerate_is_said_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process of the pool that reads the stored events for a re-rate is killed:
    `uscf db withdraw` (which rates every later section again) says so in one line, and
    changes nothing."""
    from uscf_ratings.office import prefetch, run

    paths = year_files(tmp_path, 6)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    assert CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths)]).exit_code == 0
    monkeypatch.setattr(run, "PREFETCH_FROM", 1)  # every re-rate reads in the pool
    monkeypatch.setattr(prefetch, "read_stored_pickled", killed_while_checking)
    out = CliRunner().invoke(cli, ["db", "--db", url, "withdraw", paths[0].stem])
    assert out.exit_code == 1 and "Traceback" not in out.output, out.output
    assert "a process that checked or read the events ended without an answer" in out.output
    assert stored_events(url) == len(paths)
