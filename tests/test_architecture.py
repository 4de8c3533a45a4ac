"""The core stays pure: standard library only, no I/O, no clock, no globals that change;
and it type-checks under mypy --strict."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, skip_or_fail

CORE = REPO / "src" / "uscf_ratings" / "core"
#: Standard-library modules the core may import: math and data, nothing that touches the
#: outside world (os, io, sys, pathlib, json, sqlite3, socket, time, random, ...).
ALLOWED = {"__future__", "bisect", "collections", "dataclasses", "datetime", "decimal",
           "enum", "functools", "itertools", "math", "operator", "re", "typing"}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval"}
CLOCK = {"now", "today", "utcnow", "time"}


def core_files() -> list[Path]:
    return sorted(CORE.glob("*.py"))


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_imports_only_pure_stdlib(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the core
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            assert top in ALLOWED, f"{path.name}:{node.lineno} imports {name}"
            assert top in sys.stdlib_module_names or top == "__future__"


@pytest.mark.parametrize("path", core_files(), ids=lambda p: p.name)
def test_core_does_no_io_and_reads_no_clock(path: Path) -> None:
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                assert func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {func.id}"
            if isinstance(func, ast.Attribute):
                assert func.attr not in CLOCK, f"{path.name}:{node.lineno} reads the clock"
        if isinstance(node, ast.Global):
            raise AssertionError(f"{path.name}:{node.lineno} rebinds a global")


def test_core_relative_imports_stay_inside_the_core() -> None:
    for path in core_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 1, f"{path.name}:{node.lineno} imports from outside the core"


def test_mypy_strict_on_the_core() -> None:
    try:
        from mypy import api
    except ImportError:
        skip_or_fail("mypy is not installed (pip install -e '.[test]')")
    out, err, status = api.run(["--strict", "--no-incremental", str(CORE)])
    assert status == 0, out + err
