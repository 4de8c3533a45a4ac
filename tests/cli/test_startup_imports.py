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

import click
from tests.conftest import REPO

from uscf_ratings.cli.lazy import LazyGroup
from uscf_ratings.cli.main import COMMANDS, cli

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


#: the modules of the package that `uscf --help` needs: the command group and its table
FOR_HELP = ["uscf_ratings", "uscf_ratings.cli", "uscf_ratings.cli.lazy", "uscf_ratings.cli.main"]
#: prints the package's modules loaded (as JSON)
PACKAGE_MODULES = ("import json, sys\n"
                   "{code}\n"
                   "print(json.dumps(sorted(m for m in sys.modules "
                   "if m.split('.')[0] == 'uscf_ratings')))\n")


def package_modules_after(code: str) -> tuple[list[str], str]:
    done = subprocess.run([sys.executable, "-c", PACKAGE_MODULES.format(code=code)], cwd=REPO,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    *printed, last = done.stdout.rstrip("\n").split("\n")
    return json.loads(last), "\n".join(printed)


def test_importing_the_cli_and_its_help_load_only_what_the_help_needs() -> None:
    """Issue 39: importing the CLI loads only what `--help` needs. Every command is
    imported when it runs (cli/lazy.py): neither the core nor the readers, the office,
    the fidelity modules or the web app's settings are loaded by `uscf --help`."""
    found, _ = package_modules_after("import uscf_ratings.cli.main")
    assert found == FOR_HELP
    found, printed = package_modules_after(RUN_CLI.format(args=["--help"]))
    assert found == FOR_HELP
    assert "\n  experiment " in printed
    # the check sees a module the code loads: running a command imports its own
    found, _ = package_modules_after(RUN_CLI.format(args=["rules"]))
    assert "uscf_ratings.cli.rules" in found and "uscf_ratings.rules_table" in found


def _help(group: click.Group, width: int) -> str:
    return group.get_help(click.Context(group, info_name="uscf", terminal_width=width,
                                        max_content_width=width))


def test_the_list_of_commands_reads_as_click_makes_it_from_each_command() -> None:
    """`uscf --help` shows each command's short help from the table in cli/main.py,
    without importing the command: at every width, the list is the one click makes from
    the commands themselves, imported (so a table entry cannot drift from its
    command's help)."""
    commands = {name: entry.load() for name, entry in COMMANDS.items()}
    assert all(command.name == name for name, command in commands.items())
    eager = click.Group("uscf", commands=commands, help=cli.help)
    for width in (50, 80, 100, 200):
        lazy = LazyGroup("uscf", lazy=COMMANDS, help=cli.help)
        assert _help(lazy, width) == _help(eager, width)
        lazy.get_command(click.Context(lazy), "rate")  # one command imported, the rest not
        assert _help(lazy, width) == _help(eager, width)


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


def test_the_package_names_are_imported_when_first_used() -> None:
    """`uscf_ratings.rate_section` and the other public names still come from the
    package, loaded on first use (PEP 562) rather than when any part of it is imported;
    every name of ``__all__`` resolves, and an unknown name is an AttributeError."""
    import uscf_ratings
    from uscf_ratings.core.pipeline import rate_section

    assert uscf_ratings.rate_section is rate_section
    assert all(getattr(uscf_ratings, name) is not None for name in uscf_ratings.__all__)
    assert set(uscf_ratings.__all__) <= set(dir(uscf_ratings))
    try:
        uscf_ratings.no_such_name  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "no_such_name" in str(error)
    else:
        raise AssertionError("an unknown name resolved")
