"""The web group runs end to end: ``python -m bench --smoke --only web --json`` starts
`uscf serve` on loopback, measures the rating list's first page and the mix, and stops
the server.

Tiny sizes, one run; no figure is compared with its target here (timings depend on the
machine). Without the `web` extra the test skips, saying why; under CI=true it fails.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bench.web import MIX, missing_web_extra, percentile
from tests.conftest import REPO, skip_or_fail

#: the web figures and their targets, as the issue gives them
TARGETS = {"web_list_page_ms": "<= 50", "web_mix_requests_per_s": ">= 290"}
NUMBERS = ("web_list_page_ms", "web_list_page_first_ms", "web_mix_requests_per_s",
           "web_mix_p50_ms", "web_mix_p95_ms")


def positive(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)
            and math.isfinite(value) and value > 0)


@pytest.fixture(scope="module")
def web() -> dict[str, Any]:
    reason = missing_web_extra()
    if reason:
        skip_or_fail(reason)
    done = subprocess.run([sys.executable, "-m", "bench", "--smoke", "--only", "web", "--json",
                           "--quiet"], cwd=REPO, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr[-4000:]
    assert "Traceback" not in done.stderr, done.stderr[-4000:]
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def test_the_web_figures_are_measured(web: dict[str, Any]) -> None:
    assert web["complete"] is True and web["mode"] == "smoke"
    figures = web["figures"]
    for name in NUMBERS:
        assert positive(figures[name]["value"]), (name, figures[name])
        assert figures[name]["runs"] >= 1, name
        assert figures[name]["unit"] == ("requests/s" if name.endswith("per_s") else "ms")
    assert figures["web_mix_p95_ms"]["value"] >= figures["web_mix_p50_ms"]["value"]
    by_request = figures["web_mix_ms_by_request"]["value"]
    assert set(by_request) == {kind for kind, _ in MIX}, by_request
    assert all(positive(v) for v in by_request.values()), by_request
    assert "127.0.0.1" in figures["web_mix_requests_per_s"]["measured_on"]
    assert "FAILED" not in figures["web_mix_requests_per_s"]["note"]


def test_the_web_targets_are_stated(web: dict[str, Any]) -> None:
    figures = web["figures"]
    for name, target in TARGETS.items():
        assert figures[name]["target"] == target, name
        assert isinstance(figures[name]["met"], bool), name
        assert web["targets"][name] is figures[name]["met"]
    # the smoke year is far from the 100,000 members, and the figure says so
    assert "not the issue's 100,000" in figures["web_list_page_ms"]["note"]


def test_no_server_is_left_running(web: dict[str, Any]) -> None:
    """The run is over and its work folder removed: no `uscf serve` of it runs on (its
    command line names the database in that folder, now deleted, its working folder),
    nor any of its workers (started by multiprocessing, in the same folder)."""
    if not Path("/proc/self/cwd").exists():
        pytest.skip("no /proc here to list the processes")
    left = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            command = (proc / "cmdline").read_bytes().split(b"\0")
            folder = os.readlink(proc / "cwd")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        ours = (any(b"uscf-bench-" in part for part in command) and b"serve" in command
                or any(b"multiprocessing" in part for part in command)
                and "uscf-bench-" in folder)
        if ours and folder.endswith("(deleted)"):
            left.append(f"{proc.name}: {b' '.join(command).decode(errors='replace')}")
    assert left == [], left


def test_percentile() -> None:
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5) == 3.0
    assert percentile(list(map(float, range(101))), 0.95) == pytest.approx(95.0)
    assert percentile([1.0, 2.0], 0.95) == pytest.approx(1.95)
