"""What the office's commands print, as `uscf rate` prints it (issue 40, "The terminal"):
P markers and floor marks, a header when a list is empty, no empty brackets for an event
without a name, a merged id said to be merged, a member absent from a section said to be
absent (tests/published/test_verify.py), a port in use refused before the server announces itself, help for every option."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path

import click
import pytest
from tests.cli.test_db_commands import SAMPLE, SAMPLE_ID, event_file, run

from uscf_ratings.cli.main import cli


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'office.db'}"
    run("db", "--db", url, "init")
    return url


def nameless_sample(folder: Path) -> Path:
    """The sample event without its name and its sections' names; Eli Brooks (pair 5)
    at R 1410 with a floor of 1400 set by the office (a prize floor, section 5)."""
    data = json.loads(SAMPLE.read_text())
    data["event"].pop("name", None)
    for section in data["sections"]:
        section.pop("name", None)
        for player in section["players"]:
            if player["name"] == "Eli Brooks":
                player["ratings"]["R"] |= {"rating": 1410, "floor": 1400}
    path = folder / "nameless.json"
    path.write_text(json.dumps(data))
    return path


def ratings_of(line: str) -> list[str]:
    """The ``R: 1556P14 -> 1548P18`` parts of a crosstable line."""
    return re.findall(r"\b(?:R|Q|B|OR|OQ|OB): \S+ -> \S+(?: \((?:OLM )?floor\))?", line)


def test_db_event_prints_each_rating_as_uscf_rate_does(url: str, tmp_path: Path) -> None:
    """Dana Levi's file gives R 1556 on N = 14: provisional (N <= 25), so 1556P14, and
    after her four games P18 (her rating moves with Eli's, changed here). Eli's Step 5 rating is below the office's floor of 1400,
    which holds it: 1400 with the floor's mark. Every line's ratings read as in `uscf rate`."""
    path = nameless_sample(tmp_path)
    rated = run("db", "--db", url, "rate", str(path)).output
    assert f"rated {SAMPLE_ID}: 2 section(s)" in rated and "()" not in rated
    shown = run("db", "--db", url, "event", SAMPLE_ID).output
    lines = shown.splitlines()
    assert lines[0] == f"{SAMPLE_ID}  (2026-08-01 .. 2026-08-01)"
    assert "Section 1 (R/Q)" in lines and "()" not in shown
    dana = next(line for line in lines if "Dana Levi" in line)
    assert re.search(r"R: 1556P14 -> \d{4}P18 ", dana), dana
    eli = next(line for line in lines if "Eli Brooks" in line)
    assert "R: 1410 -> 1400 (floor)" in eli
    direct = run("rate", str(path)).output.splitlines()
    assert lines[0] in direct  # after the notice of a rating that started from an age
    for name in ("Ana Torres", "Chen Wei", "Dana Levi", "Eli Brooks", "Fatima Noor"):
        ours = next(line for line in lines if name in line)
        theirs = next(line for line in direct if name in line)
        assert sorted(ratings_of(ours)) == sorted(ratings_of(theirs)), name


def test_an_empty_list_has_its_header_and_says_it_is_empty(url: str) -> None:
    shown = run("db", "--db", url, "list", "--as-of", "2000-01-01").output.splitlines()
    assert shown[0].split() == ["member", "name", "rating"]
    assert shown[1] == "(no member is rated in R on 2000-01-01)"
    csv = run("db", "--db", url, "list", "--as-of", "2000-01-01", "--format", "csv").output
    assert csv.splitlines()[0].startswith("id,")


def test_a_merged_id_is_said_to_be_merged(url: str, tmp_path: Path) -> None:
    run("db", "--db", url, "rate", str(SAMPLE))
    run("db", "--db", url, "rate", str(event_file(tmp_path, "later", "2026-09-05", [
        {"pair": 1, "id": "30000001", "name": "Ana Torres", "results": ["W2"]},
        {"pair": 2, "id": "40000001", "name": "Hana Sato", "adult": True,
         "ratings": {"R": {"rating": 1500, "games": 30}}, "results": ["L1"]}])))
    run("db", "--db", url, "merge", "30000008", "40000001")
    shown = run("db", "--db", url, "player", "40000001").output.splitlines()
    assert shown[0].endswith("(30000008)")
    assert shown[1] == ("member 40000001 was merged into 30000008 (uscf db merge): this is "
                        "the record of both")
    assert "merged" not in run("db", "--db", url, "player", "30000008").output


def test_serve_refuses_a_port_in_use_before_announcing_itself() -> None:
    pytest.importorskip("uvicorn")
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = run("serve", "--port", str(port), "--workers", "1", ok=False)
    assert done.exit_code == 1
    assert done.output.startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    assert "uscf-ratings on http" not in done.output


def _commands(group: click.Group, ctx: click.Context, prefix: str = ""):  # type: ignore[no-untyped-def]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        yield f"{prefix}{name}", command
        if isinstance(command, click.Group):
            yield from _commands(command, ctx, f"{prefix}{name} ")


def test_every_option_of_every_command_has_help() -> None:
    with click.Context(cli) as ctx:
        missing = [f"uscf {name} {param.opts[0]}" for name, command in _commands(cli, ctx)
                   for param in command.params
                   if isinstance(param, click.Option) and not param.help
                   and not param.hidden and param.opts[0] != "--help"]
    assert not missing, f"options without help: {missing}"
