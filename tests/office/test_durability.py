"""Crash safety and concurrency, with real child processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import select, text
from tests.conftest import REPO, write_events

from uscf_ratings.formats.member_records import MemberRecord
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office

CHILD = Path(__file__).with_name("rate_child.py")


def event_files(tmp_path: Path, count: int, seed: int) -> list[Path]:
    return write_events(tmp_path, count, seed, members=300, sizes=(20, 60))


def run_child(url: str, files: list[Path], options: tuple[str, ...] = ()
              ) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO / "src") + os.pathsep + str(REPO))
    return subprocess.Popen([sys.executable, str(CHILD), url, *options, *map(str, files)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def dump(office: Office) -> list[tuple[object, ...]]:
    with office.engine.connect() as c:
        return sorted((r.event_id, r.section, r.member_id, r.system, round(r.post, 9))
                      for r in c.execute(select(schema.ratings)))


def committed(office: Office) -> list[str]:
    with office.engine.connect() as c:
        return sorted(c.execute(select(schema.events.c.id)).scalars())


@pytest.mark.parametrize("options", [(), ("--many", "300")], ids=["rate", "rate_each"])
def test_killed_rating_run_leaves_whole_events(office_url: str, tmp_path: Path,
                                               options: tuple[str, ...]) -> None:
    """Kill a child in the middle of a long run: the database passes its integrity check,
    and its ratings equal a clean run of exactly the events it committed. (rate_each
    commits events in groups, of two or three events here: a group is whole or absent.)"""
    files = event_files(tmp_path, 150, seed=3)
    office = Office(office_url)
    office.init()
    # --hold-last: the child waits before the last event, so however fast it rates and
    # however late this test polls, it has not finished when it is killed
    child = run_child(office_url, files, ("--hold-last", *options))
    deadline = time.monotonic() + 120
    while len(committed(office)) < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.02)  # somewhere in the middle of an event
    child.send_signal(signal.SIGKILL)
    child.wait()
    done = committed(office)
    assert 3 <= len(done) < len(files), "the child should be killed mid-run"
    with office.engine.connect() as c:
        if c.dialect.name == "sqlite":
            assert c.execute(text("PRAGMA integrity_check")).scalar_one() == "ok"
            assert c.execute(text("PRAGMA foreign_key_check")).all() == []
        # every committed event has all its sections and rating rows, nothing else exists
        orphans = c.execute(select(schema.ratings.c.event_id).where(
            schema.ratings.c.event_id.not_in(done))).all()
        assert orphans == []
    clean = Office(f"sqlite:///{tmp_path / 'clean.db'}")
    clean.init()
    from uscf_ratings.formats.event_json import read_event

    for path in files:
        if path.stem in done:
            clean.rate(read_event(path))
    assert dump(office) == dump(clean)


def test_two_writers_at_once_equal_one_after_the_other(office_url: str, tmp_path: Path) -> None:
    files = event_files(tmp_path, 12, seed=5)
    office = Office(office_url)
    office.init()
    office.import_members([MemberRecord("x", "unused", ratings={})])
    first, second = run_child(office_url, files[1::2]), run_child(office_url, files[0::2])
    for child in (first, second):
        _, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
    sequential = Office(f"sqlite:///{tmp_path / 'sequential.db'}")
    sequential.init()
    sequential.import_members([MemberRecord("x", "unused", ratings={})])
    from uscf_ratings.formats.event_json import read_event

    for path in files:
        sequential.rate(read_event(path))
    assert committed(office) == committed(sequential) == sorted(p.stem for p in files)
    assert dump(office) == dump(sequential)


