"""Every shell example in the docs runs, and the docs build.

* Each ```console block in docs/*.md and README.md is a list of ``$ uscf ...`` commands,
  each followed by its expected output. The command runs through click's CliRunner in the
  repository root. When output is shown it must match line by line, where a line ``...``
  matches any run of lines (none included); when none is shown the command must exit 0.
  Output that shows an ``Error:`` line expects a failing exit code, any other output 0.
* A block that needs the real rated sections of ``../shared`` (``uscf fidelity``) is
  marked by the comment ``<!-- docs-test: needs-shared -->`` on the line before its fence.
  It is skipped when that folder is missing, and fails instead when CI is "true".
* A ```json block marked ``<!-- docs-test: same-as PATH -->`` on the line before its fence
  shows the same JSON as the file PATH (relative to the repository root), which the
  console examples rate.
* docs/rules.md holds exactly the output of ``uscf rules --markdown`` between its markers.
* ``mkdocs build --strict`` succeeds.

The Python examples of the docs are doctests, collected by pytest itself
(``--doctest-glob=*.md`` in pyproject.toml).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from uscf_ratings.cli.main import cli

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
NEEDS_SHARED = "<!-- docs-test: needs-shared -->"
SAME_AS = re.compile(r"^<!-- docs-test: same-as (?P<path>\S+) -->$")
RULES_START, RULES_END = "<!-- rules-table -->", "<!-- /rules-table -->"
IN_CI = os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip, except in CI, where a missing prerequisite is a failure."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: not skipped)")
    pytest.skip(reason)


# --- Finding the examples ----------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    argv: str  #: the command line after "$ "
    expected: tuple[str, ...]  #: the output lines shown under it


@dataclass(frozen=True)
class Fenced:
    """A fenced code block of a Markdown file."""

    path: Path
    line: int  #: 1-based line of the opening fence
    info: str  #: the first word after the fence ("console", "json", ...)
    marker: str  #: the line before the fence (a docs-test comment, if any)
    body: tuple[str, ...]

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


@dataclass(frozen=True)
class Block:
    """A ```console block: its commands and whether it needs ../shared."""

    fenced: Fenced
    needs_shared: bool
    commands: tuple[Command, ...]

    @property
    def id(self) -> str:
        return self.fenced.id


FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")


def fenced_blocks(path: Path) -> list[Fenced]:
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            i += 1
            continue
        fence, info = opening["fence"], opening["info"].strip().split()
        end = i + 1
        while end < len(lines) and not lines[end].strip().startswith(fence):
            end += 1
        marker = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        body = tuple(line[len(opening["indent"]):] for line in lines[i + 1:end])
        blocks.append(Fenced(path, i + 1, info[0] if info else "", marker, body))
        i = end + 1
    return blocks


def console_blocks(path: Path) -> list[Block]:
    return [Block(f, f.marker == NEEDS_SHARED, parse_commands(list(f.body)))
            for f in fenced_blocks(path) if f.info == "console"]


def parse_commands(body: list[str]) -> tuple[Command, ...]:
    commands: list[Command] = []
    argv: str | None = None
    output: list[str] = []
    for line in body:
        if line.startswith("$ "):
            if argv is not None:
                commands.append(Command(argv, tuple(output)))
            argv, output = line[2:].strip(), []
        elif argv is not None:
            output.append(line)
        elif line.strip():
            raise AssertionError(f"console block: output before any '$ ' command: {line!r}")
    if argv is not None:
        commands.append(Command(argv, tuple(output)))
    return tuple(commands)


def doc_files() -> list[Path]:
    return sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


BLOCKS = [block for path in doc_files() for block in console_blocks(path)]
SAME_AS_BLOCKS = [f for path in doc_files() for f in fenced_blocks(path)
                  if SAME_AS.match(f.marker)]


# --- Matching ------------------------------------------------------------------------------


def trimmed(lines: list[str] | tuple[str, ...]) -> list[str]:
    """Lines without trailing spaces, and without blank lines at either end."""
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    while out and not out[0]:
        out.pop(0)
    return out


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """Line-by-line equality where an expected line "..." matches any run of lines."""
    memo: dict[tuple[int, int], bool] = {}

    def match(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(expected):
                result = j == len(actual)
            elif expected[i] == "...":
                result = any(match(i + 1, k) for k in range(j, len(actual) + 1))
            else:
                result = j < len(actual) and expected[i] == actual[j] and match(i + 1, j + 1)
            memo[(i, j)] = result
        return memo[(i, j)]

    return match(0, 0)


def test_lines_match() -> None:
    assert lines_match(["a", "...", "d"], ["a", "b", "c", "d"])
    assert lines_match(["a", "...", "b"], ["a", "b"])
    assert lines_match(["..."], [])
    assert lines_match(["a", "..."], ["a", "x", "y"])
    assert not lines_match(["a", "...", "d"], ["a", "b", "c"])
    assert not lines_match(["a", "b"], ["a", "b", "c"])
    assert not lines_match(["a ..."], ["a b"])


def test_console_blocks_are_parsed() -> None:
    body = ["$ uscf rules", "one", "", "two", "$ uscf --help"]
    assert parse_commands(body) == (Command("uscf rules", ("one", "", "two")),
                                    Command("uscf --help", ()))
    assert BLOCKS, "no ```console block found in docs/*.md and README.md"


# --- Running -------------------------------------------------------------------------------


def run(argv: str, database: str = "") -> tuple[int, str]:
    words = shlex.split(argv)
    assert words and words[0] == "uscf", f"console examples run `uscf ...` only: {argv!r}"
    # A fixed width, so that help texts wrap the same in every terminal; and a database of
    # the block's own, so that `uscf db` examples start empty and leave nothing behind.
    env = {"COLUMNS": "80"} | ({"USCF_DB": database} if database else {})
    result = CliRunner(env=env).invoke(cli, words[1:], prog_name="uscf")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("block", BLOCKS, ids=[b.id for b in BLOCKS])
def test_console_example(block: Block, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    uses_shared = any(words[1:2] == ["fidelity"] and "--help" not in words
                      for words in (shlex.split(c.argv) for c in block.commands))
    assert block.needs_shared or not uses_shared, (
        f"{block.id}: `uscf fidelity` needs ../shared; put {NEEDS_SHARED} before the block")
    if block.needs_shared and not SHARED.is_dir():
        skip_or_fail(f"{block.id} needs the real rated sections in {SHARED}, which is missing")
    monkeypatch.chdir(ROOT)
    for command in block.commands:
        code, output = run(command.argv, f"sqlite:///{tmp_path / 'office.db'}")
        expected = trimmed(command.expected)
        if not expected:
            assert code == 0, f"{block.id}: `{command.argv}` exited {code}:\n{output}"
            continue
        actual = trimmed(output.splitlines())
        assert lines_match(expected, actual), (
            f"{block.id}: `{command.argv}` printed\n" + "\n".join(actual)
            + "\n\nbut the docs show\n" + "\n".join(expected))
        failing = any(line.startswith("Error:") for line in expected)
        assert (code != 0) == failing, f"{block.id}: `{command.argv}` exited {code}"


@pytest.mark.parametrize("fenced", SAME_AS_BLOCKS, ids=[f.id for f in SAME_AS_BLOCKS])
def test_json_block_matches_its_file(fenced: Fenced) -> None:
    match = SAME_AS.match(fenced.marker)
    assert match is not None
    shown = json.loads("\n".join(fenced.body))
    on_disk = json.loads((ROOT / match["path"]).read_text(encoding="utf-8"))
    assert shown == on_disk, f"{fenced.id}: the JSON shown differs from {match['path']}"


# --- The rules table -----------------------------------------------------------------------


def test_rules_page_has_the_generated_table(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text.count(RULES_START) == 1 and text.count(RULES_END) == 1
    embedded = text.split(RULES_START, 1)[1].split(RULES_END, 1)[0]
    monkeypatch.chdir(ROOT)
    code, output = run("uscf rules --markdown")
    assert code == 0
    assert embedded.strip("\n") == output.strip("\n"), (
        "docs/rules.md is out of date: paste the output of `uscf rules --markdown` "
        f"between {RULES_START} and {RULES_END}")


# --- The site ------------------------------------------------------------------------------


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    missing = [name for name in ("mkdocs", "mkdocstrings", "mkdocstrings_handlers.python",
                                 "mkdocs_click") if not _installed(name)]
    if missing:
        skip_or_fail(f"mkdocs build needs {', '.join(missing)}: "
                     "pip install -e '.[docs]'")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False
