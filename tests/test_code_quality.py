"""The code keeps its checks: mypy --strict over the whole package, ruff (pycodestyle,
pyflakes, bugbear with B905, import order) over the package and the benchmarks, the layer
contracts of import-linter, and no import cycle between modules.

Each tool runs as a developer would run it, with the configuration in pyproject.toml, and
a failure shows the tool's findings. The tools come with the ``test`` extra
(``pip install -e '.[test]'``).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tomllib
from typing import Any

from tests.conftest import REPO, skip_or_fail

SRC = REPO / "src"
PACKAGE = "uscf_ratings"
#: What ruff checks: the package, the benchmarks and this file.
RUFF_PATHS = ("src", "bench", "tests/test_code_quality.py")


def _pyproject() -> dict[str, Any]:
    with (REPO / "pyproject.toml").open("rb") as f:
        return tomllib.load(f)


def _installed(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        skip_or_fail(f"{module} is not installed (pip install -e '.[test]')")


def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python *args`` in the repository root, with this tree's package first on the
    path; ``module`` is the tool's module, which must be installed."""
    _installed(module)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SRC), env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, *args], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=600, check=False)


# --- mypy ----------------------------------------------------------------------------------

def test_mypy_checks_the_whole_package_strictly() -> None:
    config = _pyproject()["tool"]["mypy"]
    assert config.get("strict") is True, "[tool.mypy] must say strict = true"
    assert config.get("files") == [f"src/{PACKAGE}"], (
        f"[tool.mypy] files must be the whole package, src/{PACKAGE}: it is {config.get('files')}")
    assert "overrides" not in config, "[tool.mypy] relaxes strict for some modules: fix them instead"


def test_mypy_strict_finds_nothing() -> None:
    done = _run("mypy", "-m", "mypy", "--config-file", "pyproject.toml")
    assert done.returncode == 0, f"mypy --strict on src/{PACKAGE}:\n{done.stdout}{done.stderr}"


# --- ruff ----------------------------------------------------------------------------------

def test_ruff_selects_bugbear_with_b905() -> None:
    lint = _pyproject()["tool"]["ruff"]["lint"]
    assert {"E", "F", "W", "B"} <= set(lint["select"]), (
        f"[tool.ruff.lint] select must hold E, F, W and B: it is {lint['select']}")
    ignored = set(lint.get("ignore", ())) | set(lint.get("extend-ignore", ()))
    assert not ignored & {"B", "B9", "B90", "B905"}, "zip() without strict= must stay a finding"


def test_ruff_finds_nothing() -> None:
    done = _run("ruff", "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
                *RUFF_PATHS)
    assert done.returncode == 0, f"ruff check {' '.join(RUFF_PATHS)}:\n{done.stdout}{done.stderr}"


# --- import-linter -------------------------------------------------------------------------

def test_the_contracts_are_there() -> None:
    config = _pyproject()["tool"]["importlinter"]
    assert config["root_package"] == PACKAGE
    contracts = {c["id"]: c for c in config["contracts"]}
    assert set(contracts) == {"layers", "web", "acyclic"}, sorted(contracts)
    layers = contracts["layers"]
    assert layers["layers"][0] == "cli" and layers["layers"][-1] == "core", layers["layers"]
    assert layers["exhaustive"] is True, "every module under the package must be in a layer"


def test_lint_imports_keeps_every_contract() -> None:
    done = _run("importlinter", "-c", "import sys; from importlinter.cli import lint_imports; "
                "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, "
                "no_logo=True))")
    assert done.returncode == 0, f"lint-imports:\n{done.stdout}{done.stderr}"


# --- import cycles -------------------------------------------------------------------------

def import_cycles(graph: Any) -> list[list[str]]:
    """The groups of modules of a grimp graph that import each other, directly or through
    others (strongly connected components of two modules or more), each sorted, in order
    of their first module. Tarjan's algorithm, with an explicit stack: no recursion limit."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        while work:
            module, imported = work[-1]
            for other in imported:
                if other not in index:
                    index[other] = low[other] = len(index)
                    stack.append(other)
                    on_stack.add(other)
                    work.append((other, iter(sorted(graph.find_modules_directly_imported_by(other)))))
                    break
                if other in on_stack:
                    low[module] = min(low[module], index[other])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == module:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return sorted(found)


def _describe(graph: Any, cycle: list[str]) -> str:
    lines = [f"these modules import each other: {', '.join(cycle)}"]
    for importer in cycle:
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported in cycle:
                for d in graph.get_import_details(importer=importer, imported=imported):
                    lines.append(f"  {importer} -> {imported}, line {d['line_number']}: "
                                 f"{d['line_contents']}")
    return "\n".join(lines)


def test_no_import_cycle_between_modules() -> None:
    """Imports inside functions and under TYPE_CHECKING count: grimp reads every import
    statement of a module."""
    _installed("grimp")
    import grimp

    spec = importlib.util.find_spec(PACKAGE)
    assert spec is not None and spec.origin is not None
    assert str(SRC) in spec.origin, f"{PACKAGE} is imported from {spec.origin}, not from {SRC}"
    graph = grimp.build_graph(PACKAGE, cache_dir=None)
    cycles = import_cycles(graph)
    assert not cycles, "\n".join(_describe(graph, c) for c in cycles)


def test_import_cycles_finds_the_cycles_of_a_small_graph() -> None:
    """The check above can fail: on a graph drawn by hand, a -> b -> c -> a and d <-> e are
    cycles; f imports a but nothing imports f, and a module importing itself is no cycle
    between modules."""
    _installed("grimp")
    import grimp

    graph = grimp.ImportGraph()
    for importer, imported in (("a", "b"), ("b", "c"), ("c", "a"), ("f", "a"), ("d", "e"),
                               ("e", "d"), ("g", "g"), ("c", "h")):
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph) == [["a", "b", "c"], ["d", "e"]]
