"""Every malformed input is refused with a message that says what and where, and leaves
the office's database as it was (tests/malformed/README.md)."""

from __future__ import annotations

import shutil
import sqlite3
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from uscf_ratings.cli.main import cli

HERE = Path(__file__).parent
FILES = HERE / "files"
SAMPLE = HERE.parents[1] / "examples" / "sample-event.json"


@dataclass(frozen=True)
class Case:
    name: str
    command: tuple[str, ...]
    exit: int
    message: tuple[str, ...]
    file: str | None = None
    text: str | None = None
    suffix: str = ""


def load_cases() -> list[Case]:
    cases = []
    for source in sorted(HERE.glob("*.toml")):
        for raw in tomllib.loads(source.read_text(encoding="utf-8")).get("case", []):
            cases.append(Case(name=raw["name"], command=tuple(raw["command"]),
                              exit=raw.get("exit", 1), message=tuple(raw["message"]),
                              file=raw.get("file"), text=raw.get("text"),
                              suffix=raw.get("suffix", "")))
    return cases


CASES = load_cases()


def rows(path: Path) -> list[str]:
    """Every row of every table, as SQL text, in a stable order (the audit log included:
    a refusal writes nothing, not even an audit line)."""
    connection = sqlite3.connect(path)
    try:
        return sorted(connection.iterdump())
    finally:
        connection.close()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An office that holds the sample event (its members with it) and a floor set by hand."""
    path = tmp_path_factory.mktemp("seeded") / "office.db"
    url = f"sqlite:///{path}"
    runner = CliRunner()
    for args in (["db", "--db", url, "init"],
                 ["db", "--db", url, "rate", str(SAMPLE)],
                 ["db", "--db", url, "set-floor", "30000006", "R", "1200", "--from",
                  "2024-01-01", "--reason", "prize"]):
        result = runner.invoke(cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    return path


def test_there_are_enough_cases() -> None:
    """Issue 13 asks for at least 60 malformed inputs across the formats and the office."""
    assert len(CASES) >= 60, len(CASES)
    assert len({c.name for c in CASES}) == len(CASES), "case names must be unique"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_refused_and_database_unchanged(case: Case, seeded: Path, tmp_path: Path) -> None:
    db = tmp_path / "office.db"
    for suffix in ("", "-wal", "-shm"):  # a SQLite database in WAL mode is up to three files
        if Path(f"{seeded}{suffix}").exists():
            shutil.copy(f"{seeded}{suffix}", f"{db}{suffix}")
    before = rows(db)
    if case.file is not None:
        path = tmp_path / Path(case.file).name
        source = FILES / case.file
        if source.is_dir():
            shutil.copytree(source, path)
        else:
            shutil.copy(source, path)
    elif case.text is not None:
        path = tmp_path / f"{case.name}{case.suffix}"
        path.write_text(case.text, encoding="utf-8")
    else:
        path = tmp_path / "none"
    url = f"sqlite:///{db}"
    args = [a.replace("{file}", str(path)).replace("{db}", url) for a in case.command]
    if args[0] == "db" and "--db" not in args:
        args[1:1] = ["--db", url]
    result = CliRunner().invoke(cli, args)
    output = result.output  # stdout and stderr, as a terminal shows them
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"a traceback would reach the user: {result.exception!r}\n{output}")
    assert "Traceback" not in output
    assert result.exit_code == case.exit, output
    for expected in case.message:
        assert expected.lower() in output.lower(), f"{expected!r} not in:\n{output}"
    assert rows(db) == before, "the database changed although the input was refused"
