"""Tokens: `uscf db token create NAME` prints one; the office keeps only its hash."""

from __future__ import annotations

import hashlib
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy import select

from uscf_ratings.cli.main import cli
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.office.tokens import token_hash, token_owner


def db(tmp_path: Path, *args: str) -> tuple[int, str]:
    url = f"sqlite:///{tmp_path / 'o.db'}"
    out = CliRunner().invoke(cli, ["db", "--db", url, *args])
    return out.exit_code, out.output


def test_create_prints_a_token_and_stores_only_its_hash(tmp_path: Path) -> None:
    assert db(tmp_path, "init")[0] == 0
    code, output = db(tmp_path, "token", "create", "club-laptop")
    token = output.strip()
    assert code == 0 and len(token) >= 43  # 32 random bytes, URL-safe
    office = Office(f"sqlite:///{tmp_path / 'o.db'}")
    with office.engine.connect() as c:
        rows = c.execute(select(schema.tokens)).all()
        assert token_owner(c, token) == "club-laptop"
        assert token_owner(c, token[:-1]) is None and token_owner(c, "") is None
    office.engine.dispose()
    assert [(r.name, r.hash) for r in rows] == [
        ("club-laptop", hashlib.sha256(token.encode()).hexdigest())]
    assert token not in (tmp_path / "o.db").read_bytes().decode("latin-1")
    assert token_hash(token) == rows[0].hash


def test_names_are_unique_and_tokens_can_be_revoked(tmp_path: Path) -> None:
    db(tmp_path, "init")
    first = db(tmp_path, "token", "create", "td")[1].strip()
    code, output = db(tmp_path, "token", "create", "td")
    assert code == 1 and "already exists" in output
    second = db(tmp_path, "token", "create", "office")[1].strip()
    assert first != second
    assert db(tmp_path, "token", "list")[1].splitlines()[0].startswith("office  created ")
    assert db(tmp_path, "token", "revoke", "td") == (0, "revoked td\n")
    code, output = db(tmp_path, "token", "revoke", "td")
    assert code == 1 and "no token called 'td'" in output


def test_token_commands_need_an_initialized_database(tmp_path: Path) -> None:
    code, output = db(tmp_path, "token", "create", "x")
    assert code == 1 and "uscf db init" in output
