"""`uscf db rate` rates files in date order while the rest are checked, in a transaction
held open until every file has passed: on SQLite and on PostgreSQL it stores what
`--check-first` stores, and a bad file stores nothing (office/ingest.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from tests.conftest import write_events

from uscf_ratings.cli.main import cli
from uscf_ratings.office import ingest, schema
from uscf_ratings.office.file_checks import POOL_FROM
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import STATE_COLUMNS


def year_files(folder: Path, count: int) -> list[Path]:
    return write_events(folder, count, seed=4)


def results(url: str) -> list[tuple[object, ...]]:
    office = Office(url)
    with office.engine.connect() as c:
        rows = sorted((r.event_id, r.section, r.member_id, r.system, round(r.post, 9),
                       tuple(r._mapping[n] for n in STATE_COLUMNS))
                      for r in c.execute(select(schema.ratings)))
    office.engine.dispose()
    return rows


def test_rated_while_checked_as_if_checked_first(office_url: str, tmp_path: Path) -> None:
    paths = year_files(tmp_path, 3 * POOL_FROM)
    first = f"sqlite:///{tmp_path / 'first.db'}"
    for url, options in ((office_url, ["--commit-every", "100"]), (first, ["--check-first"])):
        assert CliRunner().invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
        out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *options, *map(str, paths)])
        assert out.exit_code == 0, out.output
    assert results(office_url) == results(first)


def test_a_bad_last_file_stores_nothing(office_url: str, tmp_path: Path) -> None:
    paths = year_files(tmp_path, 3 * POOL_FROM)
    doc = json.loads(paths[-1].read_text())
    doc["sections"][0]["players"][0]["results"][0] = "Q9"
    paths[-1].write_text(json.dumps(doc))
    assert CliRunner().invoke(cli, ["db", "--db", office_url, "init"]).exit_code == 0
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate", "--commit-every", "0",
                                   *map(str, paths)])
    assert out.exit_code == 1 and str(paths[-1]) in out.output
    office = Office(office_url)
    with office.engine.connect() as c:
        assert c.execute(select(func.count()).select_from(schema.events)).scalar_one() == 0
        assert c.execute(select(func.count()).select_from(schema.ratings)).scalar_one() == 0
    office.engine.dispose()


def test_a_late_batch_stores_what_date_order_does(office_url: str, tmp_path: Path) -> None:
    """A batch dated among the events stored waits to be rated once, while its files
    are checked in a pool: the database ends as one run of every file in date order
    leaves it."""
    paths = year_files(tmp_path, 4 * POOL_FROM)
    late = paths[1::2]  # every other file by date: 2 * POOL_FROM, checked in a pool
    in_order = f"sqlite:///{tmp_path / 'in-order.db'}"
    for url, batches in ((office_url, [paths[0::2], late]), (in_order, [paths])):
        assert CliRunner().invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
        for batch in batches:
            out = CliRunner().invoke(cli, ["db", "--db", url, "rate", *map(str, batch)])
            assert out.exit_code == 0, out.output
    assert results(office_url) == results(in_order)


def test_the_kernels_load_while_the_files_are_checked_in_other_processes(
        office_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only where the checks run in a pool is there something to do meanwhile; a few
    files are checked in this process, and the kernels load at the first section."""
    loads: list[int] = []
    monkeypatch.setattr(ingest, "load_kernels", lambda: loads.append(1))
    assert CliRunner().invoke(cli, ["db", "--db", office_url, "init"]).exit_code == 0
    (tmp_path / "few").mkdir()
    (tmp_path / "many").mkdir()
    few = year_files(tmp_path / "few", POOL_FROM - 1)
    assert CliRunner().invoke(cli, ["db", "--db", office_url, "rate", *map(str, few)]
                              ).exit_code == 0
    assert loads == []
    many = year_files(tmp_path / "many", POOL_FROM)
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate", "--replace",
                                   *map(str, many)])
    assert out.exit_code == 0, out.output
    assert loads == [1]
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate", "--check-first",
                                   "--replace", *map(str, many)])
    assert out.exit_code == 0, out.output
    assert loads == [1, 1]  # --check-first: while the first pass checks every file


def test_the_checking_is_announced_before_the_kernels_load(
        office_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The loading takes about a second: the user is told first that the files are
    being checked."""
    seen: list[str] = []
    monkeypatch.setattr(ingest, "load_kernels", lambda: seen.append("load"))
    assert CliRunner().invoke(cli, ["db", "--db", office_url, "init"]).exit_code == 0
    office = Office(office_url)
    for report in ingest.ingest(office, year_files(tmp_path, POOL_FROM)):
        seen.append(type(report).__name__)
    office.engine.dispose()
    assert seen[:3] == ["CheckingFiles", "load", "FileChecked"]
    assert seen.count("load") == 1 and seen[-1] == "Ingested"


def on_the_day_of(path: Path, model: dict[str, Any]) -> None:
    """Move the event of ``path`` to the dates of ``model`` (event JSON), section by
    section: events of one weekend, rated in the order of their ids."""
    doc = json.loads(path.read_text())
    for part in (doc["event"], *doc["sections"]):
        part["start_date"] = model["event"]["start_date"]
        part["end_date"] = model["event"]["end_date"]
    path.write_text(json.dumps(doc))


def test_a_report_stored_under_another_id_stores_nothing(office_url: str,
                                                         tmp_path: Path) -> None:
    """A weekend's events, in the order of their ids, the last holding the games of an
    event of that weekend stored before under another id: the batch is refused, naming
    that file, and nothing of it is stored, though commits were due before its turn
    came (the events before it came after every section stored)."""
    paths = year_files(tmp_path, 3 * POOL_FROM)
    stored = json.loads(paths[0].read_text())
    stored["event"]["id"] = "A0"  # before the batch's ids (S000001...) in rating order
    paths[0].write_text(json.dumps(stored))
    for path in paths[1:]:
        on_the_day_of(path, stored)
    copy = dict(stored, event=dict(stored["event"], id="Z0"))  # after them all
    again = tmp_path / "Z0.json"
    again.write_text(json.dumps(copy))
    assert CliRunner().invoke(cli, ["db", "--db", office_url, "init"]).exit_code == 0
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate", str(paths[0])])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate", "--commit-every", "1",
                                   *map(str, [*paths[1:], again])])
    assert out.exit_code == 1, out.output
    assert f"{again}: event Z0 holds the same games as event A0, which is stored" \
        in out.output, out.output
    office = Office(office_url)
    with office.engine.connect() as c:
        ids = c.execute(select(schema.events.c.id)).scalars().all()
    office.engine.dispose()
    assert ids == ["A0"], out.output


def test_an_event_that_fails_before_a_copy_of_a_stored_report_stores_nothing(
        office_url: str, tmp_path: Path) -> None:
    """Every file has passed its checks, but a late one holds a report stored under
    another id, so nothing may commit (`ingest._may_commit`). An event before it fails
    while rated (rated already, from another file): the whole batch is rolled back, not
    the events before it committed, as they would be once commits may begin."""
    paths = year_files(tmp_path, 3 * POOL_FROM)
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    copy = json.loads(paths[-1].read_text())
    copy["event"]["id"] = "A_LAST"  # the last event's games, under another id
    (earlier / "A_LAST.json").write_text(json.dumps(copy))
    other = json.loads(paths[-2].read_text())
    other["event"]["name"] += " (another file)"  # the same id: rated already
    (earlier / paths[-2].name).write_text(json.dumps(other))
    assert CliRunner().invoke(cli, ["db", "--db", office_url, "init"]).exit_code == 0
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate",
                                   *map(str, sorted(earlier.iterdir()))])
    assert out.exit_code == 0, out.output
    out = CliRunner().invoke(cli, ["db", "--db", office_url, "rate", "--commit-every", "1",
                                   *map(str, paths)])
    assert out.exit_code == 1 and str(paths[-2]) in out.output, out.output
    office = Office(office_url)
    with office.engine.connect() as c:
        ids = c.execute(select(schema.events.c.id)).scalars().all()
    office.engine.dispose()
    assert sorted(ids) == ["A_LAST", paths[-2].stem], out.output
