"""`uscf serve --workers N`: the options, the settings each worker builds its app from,
and, end to end, a server of two workers in a child process that answers, hands its
settings to its workers and leaves no process behind when it is stopped (or killed)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner

from uscf_ratings.cli.main import cli
from uscf_ratings.cli.serve import MAX_DEFAULT_WORKERS, default_workers
from uscf_ratings.web.settings import VARIABLES, Settings
from tests.web.conftest import make_office
from tests.web.test_web_browser import serving

ON_LINUX = sys.platform.startswith("linux")


# --- The options and the settings ----------------------------------------------------------


def test_the_options_are_in_the_help() -> None:
    out = CliRunner().invoke(cli, ["serve", "--help"])
    assert out.exit_code == 0
    for option in ("--workers N", "--access-log / --no-access-log"):
        assert option in out.output
    assert f"at most {MAX_DEFAULT_WORKERS}" in out.output


@pytest.mark.parametrize("number", ["0", "-1", "two"])
def test_workers_must_be_a_positive_number(number: str) -> None:
    out = CliRunner().invoke(cli, ["serve", "--workers", number])
    assert out.exit_code == 2 and "--workers" in out.output


def test_the_default_is_a_worker_per_cpu_up_to_a_limit() -> None:
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert default_workers() == max(1, min(cpus or 1, MAX_DEFAULT_WORKERS))


def test_every_setting_has_its_variable() -> None:
    assert set(VARIABLES) == {f.name for f in fields(Settings)}
    assert len(set(VARIABLES.values())) == len(VARIABLES)


def test_settings_travel_through_the_environment() -> None:
    settings = Settings("sqlite:///o.db", max_upload=4096, max_games=7, page_size=9)
    assert Settings.from_environment(settings.to_environment()) == settings
    assert "USCF_DB" not in Settings().to_environment()  # no database: no variable
    assert Settings.from_environment({"USCF_DB": "", "USCF_MAX_UPLOAD": " "}) == Settings()
    assert Settings.from_environment({"USCF_MAX_UPLOAD": "4K"}).max_upload == 4096


@pytest.mark.parametrize("variable, text", [("USCF_MAX_UPLOAD", "lots"),
                                            ("USCF_MAX_GAMES", "-3"),
                                            ("USCF_PAGE_SIZE", "1.5")])
def test_a_bad_variable_is_named(variable: str, text: str) -> None:
    with pytest.raises(ValueError, match=rf"\${variable}="):
        Settings.from_environment({variable: text})


def _worker_environment(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    from uscf_ratings.web.app import PARENT_VARIABLE

    monkeypatch.delenv(PARENT_VARIABLE, raising=False)
    for variable in VARIABLES.values():
        monkeypatch.delenv(variable, raising=False)
    for variable, value in settings.to_environment().items():
        monkeypatch.setenv(variable, value)


def test_a_worker_builds_its_app_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                      office_url: str) -> None:
    from uscf_ratings.web.app import app_from_environment

    settings = Settings(office_url, max_upload=4096, page_size=20)
    _worker_environment(monkeypatch, settings)
    assert app_from_environment().state.uscf.settings == settings


@pytest.mark.parametrize("made", [False, True], ids=["no file", "no schema"])
def test_a_worker_refuses_a_database_without_a_schema_in_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        made: bool) -> None:
    """As `uscf serve` does (the command checks first: this is a database that lost its
    schema between the command's check and a worker's start)."""
    from uscf_ratings.web.app import STARTUP_FAILURE, app_from_environment

    path = tmp_path / "new.db"
    if made:  # a SQLite database, without the office's tables
        sqlite3.connect(path).close()
    url = f"sqlite:///{path}"
    said = CliRunner().invoke(cli, ["serve", "--db", url]).output.strip()
    _worker_environment(monkeypatch, Settings(url))
    with pytest.raises(SystemExit) as end:
        app_from_environment()
    assert end.value.code == STARTUP_FAILURE
    assert capsys.readouterr().err.strip() == said
    assert said.startswith("Error: ") and "uscf db init" in said and "\n" not in said
    assert path.exists() is made  # the check created no file


@pytest.mark.parametrize("url", ["office.db", "mysql://h/d", "postgresql://u:secret@127.0.0.1:1/x"])
def test_serve_refuses_a_database_it_cannot_use_in_one_line(url: str) -> None:
    out = CliRunner().invoke(cli, ["serve", "--db", url, "--workers", "2"])
    assert out.exit_code == 1, out.output
    assert out.output.startswith("Error: ") and out.output.count("\n") == 1, out.output
    assert "secret" not in out.output


# --- Two workers, end to end -------------------------------------------------------------


def children(pid: int) -> dict[int, bytes]:
    """The processes whose parent is ``pid``, each with its command line (from /proc)."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if parent == pid:
                found[int(entry.name)] = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
    return found


def running(pid: int, command: bytes) -> bool:
    """Whether the process ``pid`` still runs ``command`` (a zombie has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        return state != "Z" and Path(f"/proc/{pid}/cmdline").read_bytes() == command
    except OSError:
        return False


def left_running(processes: dict[int, bytes], seconds: float = 10) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        alive = [pid for pid, command in processes.items() if running(pid, command)]
        if not alive:
            return []
        time.sleep(0.1)
    return alive


def workers_of(process: subprocess.Popen[str]) -> dict[int, bytes]:
    """The server's children: its workers (and multiprocessing's resource tracker)."""
    found = children(process.pid)
    workers = [pid for pid, command in found.items() if b"spawn_main" in command]
    assert len(workers) == 2, found
    return found


def get(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as answer:
        answer.read()
        status: int = answer.status
        return status


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(),
                                reason="no /proc here to list the processes")


@needs_proc
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_two_workers_answer_and_stop_with_the_server(tmp_path: Path, stop: int) -> None:
    url = make_office(tmp_path)
    with serving("--db", url, "--workers", "2") as (base, process):
        for path in ("/", "/members", "/events", "/api/members?q=Ana", "/players/30000001"):
            for _ in range(3):  # new connections: the workers take turns, or not
                assert get(base + path) == 200, path
        started = workers_of(process)
        process.send_signal(stop)
        assert process.wait(timeout=20) == 0
    assert left_running(started) == []
    assert process.stdout is not None
    printed = process.stdout.read()
    assert "2 workers" in printed and "Traceback" not in printed, printed


@needs_proc
@pytest.mark.skipif(not ON_LINUX, reason="a worker ends with its parent on Linux only")
def test_the_workers_end_when_the_server_is_killed() -> None:
    with serving("--workers", "2") as (base, process):
        assert get(base + "/") == 200
        started = workers_of(process)
        process.kill()
        process.wait(timeout=10)
        assert left_running(started) == []


def test_the_settings_reach_the_workers() -> None:
    """`--max-upload 4K` holds in every worker: a 5 KB body is refused (413), whichever
    worker takes the request; a 3 KB one is read (and refused as not JSON)."""
    with serving("--workers", "2", "--max-upload", "4K", "--no-access-log") as (base, process):
        for size, expected in ((5_000, 413), (3_000, 400)) * 3:
            request = urllib.request.Request(base + "/api/rate", data=b"x" * size,
                                             method="POST",
                                             headers={"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=30)
            assert refused.value.code == expected, (size, refused.value.read()[:200])
            refused.value.close()
        process.terminate()
        process.wait(timeout=20)
        assert process.stdout is not None
        printed = process.stdout.read()
    assert "POST /api/rate" not in printed and "Traceback" not in printed, printed
