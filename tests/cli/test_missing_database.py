"""Every command given a database that does not exist says so in one line and creates
nothing; `uscf db init` alone creates one. Issue 37: `uscf rate --db office.db` ended
in a traceback, and `uscf rate --db sqlite:///missing.db` left an empty file behind."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.conftest import REPO

from uscf_ratings.cli.db import db
from uscf_ratings.cli.main import cli

SAMPLE = str(REPO / "examples" / "sample-event.json")

#: each command that opens a database, with arguments it would otherwise accept
COMMANDS = {
    "rate --db": ["rate", "--db", "{url}", SAMPLE],
    "serve": ["serve", "--db", "{url}", "--port", "1"],
    "experiment": ["experiment", "{spec}", "--history", "{url}", "--no-plots"],
    "db upgrade": ["db", "--db", "{url}", "upgrade"],
    "db import-members": ["db", "--db", "{url}", "import-members", "{members}"],
    "db import-history": ["db", "--db", "{url}", "import-history", SAMPLE],
    "db rate": ["db", "--db", "{url}", "rate", SAMPLE],
    "db correct": ["db", "--db", "{url}", "correct", "202608010001", SAMPLE],
    "db withdraw": ["db", "--db", "{url}", "withdraw", "202608010001"],
    "db merge": ["db", "--db", "{url}", "merge", "30000001", "30000002"],
    "db set-floor": ["db", "--db", "{url}", "set-floor", "30000001", "R", "1400", "--from",
                     "2026-09-01", "--reason", "prize"],
    "db correct-member": ["db", "--db", "{url}", "correct-member", "30000001", "--fide",
                          "1600"],
    "db player": ["db", "--db", "{url}", "player", "30000001"],
    "db event": ["db", "--db", "{url}", "event", "202608010001"],
    "db list": ["db", "--db", "{url}", "list", "--as-of", "2026-12-31"],
    "db title-supplement": ["db", "--db", "{url}", "title-supplement", "--as-of", "2026-12-31"],
    "db token create": ["db", "--db", "{url}", "token", "create", "td"],
    "db token revoke": ["db", "--db", "{url}", "token", "revoke", "td"],
    "db token list": ["db", "--db", "{url}", "token", "list"],
}


#: commands that read their file before the database: the sample is no member history
READ_FIRST = {"db import-history"}


def test_every_db_command_is_tried() -> None:
    """A command added to `uscf db` is added here too."""
    names = {f"db {n}" for n, c in db.commands.items() if not hasattr(c, "commands")}
    names |= {f"db token {n}" for n in db.commands["token"].commands}  # type: ignore[attr-defined]
    assert names - {"db init"} <= set(COMMANDS)


def invoke(args: list[str], url: str, folder: Path) -> tuple[int, str]:
    members = folder / "members.csv"
    members.write_text("id,name\n30000001,Ana Torres\n")
    spec = folder / "spec.toml"
    spec.write_text("[[variant]]\nname = 'a'\nbonus_threshold = 12\n")
    filled = [a.format(url=url, members=members, spec=spec) for a in args]
    out = CliRunner().invoke(cli, filled, env={"USCF_DB": None})
    return out.exit_code, out.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_missing_sqlite_file_is_said_and_not_created(tmp_path: Path, name: str) -> None:
    path = tmp_path / "missing.db"
    code, output = invoke(COMMANDS[name], f"sqlite:///{path}", tmp_path)
    assert code == 1 and "Traceback" not in output, output
    if name in READ_FIRST:
        assert len(output.splitlines()) == 1 and output.startswith(f"Error: {SAMPLE}: ")
    else:
        assert output.splitlines()[-1] == (f"Error: sqlite:///{path}: there is no database "
                                           f"at {path}: create one with `uscf db init`")
    assert not path.exists()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_bare_path_is_said_and_nothing_created(tmp_path: Path, name: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output = invoke(COMMANDS[name], "office.db", tmp_path)
    assert code == 1 and "Traceback" not in output, output
    if name in READ_FIRST:
        return
    if name == "experiment":  # --history FOLDER|URL: a path is a folder of files
        assert output.endswith("Error: office.db: not a folder of event files\n")
        return
    assert "'office.db' is not a database URL: expected sqlite:///PATH (such as " \
        "sqlite:///office.db)" in output
    assert not (tmp_path / "office.db").exists()


def test_uscf_rate_db_says_each_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "missing.db"
    bare = CliRunner().invoke(cli, ["rate", "--db", "office.db", SAMPLE])
    assert (bare.exit_code, bare.output) == (1, (
        "Error: office.db: 'office.db' is not a database URL: expected sqlite:///PATH (such "
        "as sqlite:///office.db) or postgresql://USER@HOST/NAME\n"))
    missing = CliRunner().invoke(cli, ["rate", "--db", f"sqlite:///{path}", SAMPLE])
    assert (missing.exit_code, missing.output) == (1, (
        f"Error: sqlite:///{path}: there is no database at {path}: create one with "
        "`uscf db init`\n"))
    assert not path.exists()
    (tmp_path / "empty.db").write_bytes(b"")  # a file, but no schema
    empty = CliRunner().invoke(cli, ["rate", "--db", f"sqlite:///{tmp_path / 'empty.db'}",
                                     SAMPLE])
    assert (empty.exit_code, empty.output) == (1, (
        f"Error: sqlite:///{tmp_path / 'empty.db'}: the database has no schema yet: run "
        "`uscf db init` first\n"))
    # and with a database, the pre-event ratings come from it
    url = f"sqlite:///{tmp_path / 'o.db'}"
    assert CliRunner().invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
    assert CliRunner().invoke(cli, ["rate", "--db", url, SAMPLE]).exit_code == 0


def test_db_init_alone_creates_one(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    out = CliRunner().invoke(cli, ["db", "--db", f"sqlite:///{path}", "init"])
    assert out.exit_code == 0 and out.output.startswith("schema at revision")
    assert path.exists()
