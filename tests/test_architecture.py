"""The core stays pure: standard library only, no I/O, no clock, no globals that change
(mypy --strict and the layers' contracts run over the whole package in
test_code_quality.py); and docs/architecture.md names only modules that exist."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

CORE = REPO / "src" / "uscf_ratings" / "core"
#: Standard-library modules the core may import: math and data, nothing that touches the
#: outside world (os, io, sys, pathlib, json, sqlite3, socket, time, random, ...).
ALLOWED = {"__future__", "array", "bisect", "collections", "dataclasses", "datetime", "decimal",
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


def test_the_architecture_page_names_only_modules_that_exist() -> None:
    """Each module the page names (``core/layout.py``, ``core/layout.lineup``,
    ``batch.engine.outcomes``) is there, so that a newcomer is not sent to a module that
    went."""
    page = (REPO / "docs" / "architecture.md").read_text()
    package = REPO / "src" / "uscf_ratings"
    named = set(re.findall(
        r"(?<![\w/])(core|batch|office|formats|cli|web|fidelity)[/.]([a-z_]+)\b", page))
    assert len(named) > 25, f"the page's module names were not found: {sorted(named)}"
    missing = sorted(f"{layer}/{module}.py" for layer, module in named
                     if not (package / layer / f"{module}.py").is_file())
    missing += sorted(test for test in re.findall(r"tests/[\w/]+\.py", page)
                      if not (REPO / test).is_file())
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"
