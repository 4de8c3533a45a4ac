"""`uscf db rate` of many files: read and checked in parallel, rated in date order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from uscf_ratings.cli.main import cli
from uscf_ratings.cli.reading import POOL_FROM
from uscf_ratings.formats.event_json import write
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.synthetic import events, federation


def year_files(folder: Path, count: int) -> list[Path]:
    paths = []
    for event in events(federation(150, 3), count, 3, sizes=(4, 20)):
        path = folder / f"{event.id}.json"
        write(event, path)
        paths.append(path)
    return paths


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


def test_a_file_changed_between_the_passes_is_refused(tmp_path: Path) -> None:
    """The second pass reads each file again; one that changed since it was checked is
    not rated unchecked."""
    from uscf_ratings.cli.reading import FileChanged, Reader, check_file

    [path] = year_files(tmp_path, 1)
    checked = check_file(path, tmp_path / "kept.pickle")
    assert not isinstance(checked, str)
    path.write_text(path.read_text().replace('"results"', '"results" ', 1))  # same event, new size
    with Reader(1) as reader, pytest.raises(FileChanged, match="changed after it was checked"):
        list(reader.events([checked]))


def test_ctrl_c_says_how_many_events_were_committed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                    ) -> None:
    """Ctrl-C while an event is rated, in a group of events not yet committed: the message
    counts the events committed, which are the events the database holds."""
    from functools import partialmethod

    from uscf_ratings.office import run

    paths = year_files(tmp_path, POOL_FROM + 4)
    url = f"sqlite:///{tmp_path / 'office.db'}"
    CliRunner().invoke(cli, ["db", "--db", url, "init"])
    monkeypatch.setattr(Office, "rate_many", partialmethod(Office.rate_many, commit_every=60))
    calls, rate = iter(range(10**6)), run.RatingRun._rate

    def rate_section(rating_run: run.RatingRun, *args: Any) -> int:
        if next(calls) == 12:
            raise KeyboardInterrupt
        return rate(rating_run, *args)

    monkeypatch.setattr(run.RatingRun, "_rate", rate_section)
    out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, paths)])
    assert out.exit_code == 130, out.output
    committed = stored_events(url)
    assert 0 < committed < len(paths)
    assert len([line for line in out.output.splitlines() if line.startswith("rated ")]) == committed
    assert (f"stopped: {committed} of {len(paths)} events rated and committed; the rest were "
            "rolled back or not begun; the database holds whole events only") in out.output


def test_the_file_is_stored_as_submitted_and_read_back(tmp_path: Path) -> None:
    """An event JSON file is stored as its text (not written out again), sections that
    take the event's dates included; the event, its players' histories and an import of
    members (which looks for the members' first section) read it back."""
    from uscf_ratings.office import queries
    from uscf_ratings.office.members import MemberRecord

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
        assert source == f'{{"input": {text}, "pre_ratings": "database"}}'
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
