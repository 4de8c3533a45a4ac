"""The CLI starts fast: importing it, `uscf --help` and `uscf rate` of an event JSON file
load none of the numeric, database or web libraries (issue 13: "commands import the
numeric and database libraries only when they use them"). Each check runs in a fresh
interpreter, since this test process has imported them all already. The timings
themselves are figures of the benchmark (`python -m bench --only startup`), not tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

#: libraries that cost a tenth of a second or more to import, and that neither the
#: help nor rating one event file needs
NUMERIC_AND_DATABASE = ("numba", "numpy", "sqlalchemy", "alembic")
WEB = ("fastapi", "uvicorn", "starlette", "jinja2")
#: the schema validators are only needed for a file the quick check doubts
VALIDATORS = ("jsonschema", "fastjsonschema")

#: runs a piece of code, then prints the libraries above that were imported (as JSON)
SHOW = ("import json, sys\n"
        "{code}\n"
        "names = {names!r}\n"
        "print(json.dumps(sorted(n for n in names if n in sys.modules)))\n")


def imported_after(code: str, names: tuple[str, ...]) -> tuple[list[str], str]:
    """Which of ``names`` a fresh interpreter has imported after running ``code``, and
    what ``code`` printed before that."""
    done = subprocess.run([sys.executable, "-c", SHOW.format(code=code, names=names)],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    *printed, last = done.stdout.rstrip("\n").split("\n")
    found: list[str] = json.loads(last)
    return found, "\n".join(printed)


#: `uscf ARGS` as the console script runs it, ending normally (click exits)
RUN_CLI = ("from uscf_ratings.cli.main import cli\n"
           "try:\n"
           "    cli({args!r}, prog_name='uscf')\n"
           "except SystemExit as end:\n"
           "    assert end.code in (0, None), end.code\n")


def test_importing_the_cli_loads_no_heavy_library() -> None:
    found, _ = imported_after("import uscf_ratings.cli.main",
                              NUMERIC_AND_DATABASE + WEB + VALIDATORS)
    assert found == []


def test_help_loads_no_heavy_library() -> None:
    found, printed = imported_after(RUN_CLI.format(args=["--help"]),
                                    NUMERIC_AND_DATABASE + WEB + VALIDATORS)
    assert "Usage: uscf [OPTIONS] COMMAND" in printed
    for command in ("rate", "convert", "db", "serve"):  # every command is still listed
        assert f"\n  {command} " in printed, command
    assert found == []


def test_rating_an_event_file_loads_no_numeric_or_database_library() -> None:
    """The sample's two sections rated in Python; no database given, so no SQLAlchemy."""
    found, printed = imported_after(
        RUN_CLI.format(args=["rate", str(REPO / "examples" / "sample-event.json")]),
        NUMERIC_AND_DATABASE + WEB)
    assert "->" in printed  # crosstables with pre -> post ratings were printed
    assert found == []


def test_reading_the_office_loads_neither_numba_nor_alembic(tmp_path: Path) -> None:
    """A command that only reads the office (`uscf db player`) checks the schema and
    reads, without importing Numba (the rating kernels) or Alembic (the migrations):
    about a second of a command that took two and a half (docs/performance.md). Rating
    the event before it does import Numba, which the check sees."""
    url = f"sqlite:///{tmp_path / 'office.db'}"
    sample = str(REPO / "examples" / "sample-event.json")
    found, printed = imported_after(
        RUN_CLI.format(args=["db", "--db", url, "init"])
        + RUN_CLI.format(args=["db", "--db", url, "rate", sample]), ("numba", "alembic"))
    assert "rated " in printed and found == ["alembic", "numba"]
    found, printed = imported_after(
        RUN_CLI.format(args=["db", "--db", url, "player", "30000006"]),
        ("numba", "alembic", "mako"))
    assert "30000006" in printed
    assert found == []


def test_the_check_can_see_a_heavy_import() -> None:
    """The helper reports a library that the code did import (else the tests above
    would pass whatever the CLI imported)."""
    found, _ = imported_after("import sqlalchemy", NUMERIC_AND_DATABASE)
    assert found == ["sqlalchemy"]


#: the comparison with real and published sections: only `fidelity` and `verify` need it
FIDELITY = ("uscf_ratings.fidelity.verify", "uscf_ratings.fidelity.verify_titles",
            "uscf_ratings.fidelity.report", "uscf_ratings.fidelity.norm_agreement",
            "uscf_ratings.formats.member_titles")


def test_help_loads_no_fidelity_module() -> None:
    found, printed = imported_after(RUN_CLI.format(args=["--help"]), FIDELITY)
    assert "\n  verify " in printed and "\n  fidelity " in printed
    assert found == []
