"""`uscf db rate` killed (SIGKILL) at several moments, then given again until it
succeeds, leaves the database an uninterrupted run leaves; no process of the command
outlives the kill, and the next run removes the temporary files the killed ones left; a
second writer waits for the first, saying so, or stops at its limit."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import select
from tests.conftest import write_events
from tests.office.conftest import fresh_postgres, postgres_url

from uscf_ratings.office import schema
from uscf_ratings.office.file_checks import POOL_FROM
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import STATE_COLUMNS

USCF = [sys.executable, "-c", "from uscf_ratings.cli.main import main; main()"]
#: events of the batch: enough files for the pool of checking processes
EVENTS = 2 * POOL_FROM + 8
#: a commit every few events, so that a kill finds some committed and some not
COMMIT_EVERY = "150"


def uscf(*args: str, temp: Path | None = None) -> subprocess.Popen[str]:
    """The CLI in a process of its own; ``temp`` its folder for temporary files."""
    env = os.environ | {"PYTHONUNBUFFERED": "1"} | ({"TMPDIR": str(temp)} if temp else {})
    return subprocess.Popen([*USCF, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)


def stored(url: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every rating row, and every event but when it was submitted."""
    office = Office(url)
    with office.engine.connect() as c:
        ratings = sorted((r.event_id, r.section, r.member_id, r.system, round(r.post, 9),
                          r.games_after,
                          tuple(r._mapping[n] for n in STATE_COLUMNS))
                         for r in c.execute(select(schema.ratings)))
        events = sorted((r.id, r.name, r.corrections, r.source)
                        for r in c.execute(select(schema.events)))
    office.engine.dispose()
    return ratings, events


def descendants(pid: int) -> set[int]:
    """The processes started by ``pid``, and by them (Linux's /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # it ended meanwhile
                continue
            parents[int(entry.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        parent_pid = todo.pop()
        children = [child for child, parent in parents.items() if parent == parent_pid]
        found.update(children)
        todo.extend(children)
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped by init, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_when(process: subprocess.Popen[str], moment: Callable[[subprocess.Popen[str]], bool]
              ) -> set[int]:
    """SIGKILL ``process`` once ``moment`` says so; its processes at that moment."""
    while not moment(process):
        assert process.poll() is None, f"it ended first: {process.communicate()}"
    workers = descendants(process.pid)
    process.kill()
    process.communicate()
    assert process.returncode == -signal.SIGKILL
    return workers


def while_checking(process: subprocess.Popen[str]) -> bool:
    """The files are being checked by the pool's processes."""
    time.sleep(0.01)
    return bool(descendants(process.pid))


def after_commits(count: int) -> Callable[[subprocess.Popen[str]], bool]:
    """``count`` events are in the database (each gets its line once committed: "rated",
    or "unchanged" for one an earlier, killed run had committed, which on a fast day may
    be most of them)."""
    seen = 0

    def moment(process: subprocess.Popen[str]) -> bool:
        nonlocal seen
        assert process.stdout is not None
        seen += process.stdout.readline().startswith(("rated ", "unchanged "))
        return seen >= count
    return moment


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'office.db'}"
    found = postgres_url()
    fresh_postgres(found)
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2,
                    reason="the files are checked in a pool of processes only on two cores, "
                           "and the processes are found in Linux's /proc")
def test_killed_at_several_moments_and_given_again_it_ends_as_one_run(url: str,
                                                                      tmp_path: Path) -> None:
    paths = [str(p) for p in write_events(tmp_path, EVENTS, seed=11)]
    command = ["db", "--db", url, "rate", "--commit-every", COMMIT_EVERY, *paths]
    whole = f"sqlite:///{tmp_path / 'whole.db'}"
    for run in (["db", "--db", whole, "init"], ["db", "--db", url, "init"],
                [*command[:2], whole, *command[3:]]):
        assert uscf(*run).wait() == 0

    temp = tmp_path / "temp"  # where the runs keep checked events (office/spool.py)
    temp.mkdir()
    for moment in (while_checking, after_commits(1), after_commits(EVENTS // 2)):
        workers = kill_when(uscf(*command, temp=temp), moment)
        if moment is while_checking:
            assert workers  # the pool was running
        deadline = time.monotonic() + 10
        while any(map(running, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if running(pid)], "a worker outlived the kill"

    assert list(temp.iterdir())  # the killed runs could not remove their folders
    last = uscf(*command, temp=temp)
    out, err = last.communicate()
    assert last.returncode == 0, err
    assert list(temp.iterdir()) == []  # the last removed them, and its own
    unchanged = [line for line in out.splitlines() if line.startswith("unchanged ")]
    rated = [line for line in out.splitlines() if line.startswith("rated ")]
    assert len(unchanged) >= EVENTS // 2 and len(unchanged) + len(rated) == EVENTS
    assert stored(url) == stored(whole)


@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="the processes are found in Linux's /proc")
def test_sigterm_stops_the_run_as_ctrl_c_does(tmp_path: Path) -> None:
    """``kill PID`` (SIGTERM) once the run has committed events: the run rolls back what
    it had not committed, says how many events the database holds and how to go on
    (exit status 130, as for Ctrl-C), removes its temporary folder and leaves no worker
    behind; the same command given again finishes the job."""
    paths = [str(p) for p in write_events(tmp_path, EVENTS, seed=14)]
    url = f"sqlite:///{tmp_path / 'office.db'}"
    command = ["db", "--db", url, "rate", "--commit-every", COMMIT_EVERY, *paths]
    assert uscf("db", "--db", url, "init").wait() == 0
    temp = tmp_path / "temp"
    temp.mkdir()
    process = uscf(*command, temp=temp)
    moment = after_commits(1)
    while not moment(process):
        assert process.poll() is None, f"it ended first: {process.communicate()}"
    workers = descendants(process.pid)
    process.terminate()
    _, err = process.communicate()
    assert process.returncode == 130, err
    committed = len(stored(url)[1])
    assert 0 < committed < EVENTS
    assert err.splitlines()[-1] == (
        f"stopped: {committed} of {EVENTS} events rated and committed; the rest were rolled "
        "back or not begun; the database holds whole events only; to go on, run the same "
        "command again (events stored already as given are skipped)")
    assert list(temp.iterdir()) == []  # removed by the run itself, not left to the next
    deadline = time.monotonic() + 10
    while any(map(running, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if running(pid)], "a worker outlived the run"
    again = uscf(*command, temp=temp)
    out, err = again.communicate()
    assert again.returncode == 0, err
    assert out.count("unchanged ") == committed and len(stored(url)[1]) == EVENTS


def hold_the_lock(url: str) -> subprocess.Popen[str]:
    """Another process holding the office's write lock until its stdin is closed."""
    code = ("import sys\n"
            "from uscf_ratings.office.db import make_engine, writing\n"
            "with writing(make_engine(sys.argv[1])):\n"
            "    print('held', flush=True)\n"
            "    sys.stdin.read()\n")
    holder = subprocess.Popen([sys.executable, "-c", code, url], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    return holder


def let_go(holder: subprocess.Popen[str]) -> None:
    holder.communicate()  # closes its stdin
    assert holder.returncode == 0


def test_a_second_writer_waits_saying_so_or_stops_at_its_limit(url: str, tmp_path: Path
                                                              ) -> None:
    """What the user sees; tests/office/test_writers_wait.py holds the lock longer than
    SQLite's busy timeout (made short there), which the second writer outlasts."""
    [path] = write_events(tmp_path, 1, seed=12)
    assert uscf("db", "--db", url, "init").wait() == 0

    holder = hold_the_lock(url)
    stopped = uscf("db", "--db", url, "--wait", "0.5", "rate", str(path))
    out, err = stopped.communicate()
    assert stopped.returncode == 1
    said, error = err.splitlines()  # that it waits; why it stopped, in one line
    assert said.startswith("waiting: another process is writing to ")
    assert said.endswith("; this command waits up to 0.5 s for it to finish (Ctrl-C stops it)")
    assert error.startswith("Error: ") and error.endswith(
        "for the 0.5 s this command was to wait: nothing was changed; run it again later, "
        "or wait longer (--wait)")
    assert stored(url) == ([], [])
    not_waiting = uscf("db", "--db", url, "--wait", "0", "rate", str(path))
    out, err = not_waiting.communicate()
    assert not_waiting.returncode == 1
    [error] = err.splitlines()  # it does not wait, so it does not say it waits
    assert error.startswith("Error: ") and error.endswith(
        "another process was writing to the database and this command was not to wait: "
        "nothing was changed; run it again later, or wait longer (--wait)")
    let_go(holder)
    assert stored(url) == ([], [])

    holder = hold_the_lock(url)
    waited = uscf("db", "--db", url, "rate", str(path))
    assert waited.stderr is not None
    said = waited.stderr.readline()
    assert said.startswith("waiting: another process is writing to ")
    time.sleep(1.5)  # three times as long as it waits for the lock at each try
    assert waited.poll() is None  # it still waits
    let_go(holder)
    out, err = waited.communicate()
    assert waited.returncode == 0, err
    assert out.startswith(f"rated {path.stem} ") and err == ""
    assert len(stored(url)[1]) == 1
