"""Nothing rated in a system assumed: a section whose file states no rating system and
no time control that can be read is refused by every door that rates, in every format,
naming the section and --systems; with --systems it is rated.

The files: the sample event without its time control, written in each format that can
be written (event JSON, DBF, TRF, CSV, CSV JSON), and the tests' own SwissSys, WinTD and
PGN files with their time control made one that cannot be read (PGN's "?", unknown). A TRF made by lichess
(no time control in its header) is the real case the issue names.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.conftest import REPO, SHARED, skip_or_fail

from uscf_ratings.cli.main import cli
from uscf_ratings.formats.detect import read_any, write_any

DATA = REPO / "tests" / "formats" / "data"
HELP = "give the systems with --systems (R, Q, B, OR, OQ, OB; R,Q for a dual-rated section)"


def written(folder: Path) -> dict[str, Path]:
    """Each format's file of a section with neither systems nor a time control (two
    sections in the sample: Open and Reserve), or with one that cannot be read."""
    document = json.loads((REPO / "examples" / "sample-event.json").read_text(encoding="utf-8"))
    for section in document["sections"]:
        section.pop("time_control", None)
        section.pop("systems", None)
    files = {"json": folder / "event.json"}
    files["json"].write_text(json.dumps(document), encoding="utf-8")
    event = read_any(files["json"])
    for name, target in (("dbf", "dbf"), ("trf", "event.trf"), ("csv", "event.csv"),
                         ("csvjson", "event.crosstable.json")):
        paths = write_any(event, folder / target, name).paths
        files[name] = folder / "dbf" if name == "dbf" else paths[0]
    for name, source, old, new in (
            ("sjson", DATA / "sjson" / "round_robin.sjson", "G/60;d5", "bullet"),
            ("wintd", DATA / "wintd" / "swiss.json", "G/60;d5", "bullet"),
            ("pgn", DATA / "pgn" / "club.pgn", "180+2", "?")):  # "?": not known (PGN 9.6.1)
        text = source.read_text(encoding="utf-8").replace(old, new)
        files[name] = folder / f"{name}-{source.name}"
        files[name].write_text(text.replace("90+30", "bullet"), encoding="utf-8")
    return files


def dump(database: Path) -> list[str]:
    """The database's schema and rows, as SQL."""
    with closing(sqlite3.connect(database)) as c:
        return list(c.iterdump())


FORMATS = ("json", "dbf", "trf", "csv", "csvjson", "sjson", "wintd", "pgn")


@pytest.mark.parametrize("fmt", FORMATS)
def test_uscf_rate_refuses_each_format_naming_the_section_and_systems(
        tmp_path: Path, fmt: str) -> None:
    path = written(tmp_path)[fmt]
    refused = CliRunner().invoke(cli, ["rate", str(path)])
    assert refused.exit_code == 1 and "Traceback" not in refused.output
    lines = refused.output.splitlines()
    assert lines[0].startswith(f"Error: {path}: section 1")
    assert all(HELP in line for line in lines), refused.output
    reason = "its time control 'bullet' cannot be read" if fmt in ("sjson", "wintd") else \
        "it gives no time control"
    assert f"the file states no rating system and {reason}" in lines[0]
    sections = len(read_any(path).sections)
    assert len(lines) == sections  # each section named, once
    rated = CliRunner().invoke(cli, ["rate", "--systems", "R", str(path)])
    assert rated.exit_code == 0, rated.output


@pytest.mark.parametrize("fmt", ["json", "trf", "pgn"])
def test_uscf_db_rate_refuses_alike_and_stores_nothing(tmp_path: Path, fmt: str) -> None:
    path = written(tmp_path)[fmt]
    url = f"sqlite:///{tmp_path / 'o.db'}"
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
    before = dump(tmp_path / "o.db")
    refused = runner.invoke(cli, ["db", "--db", url, "rate", str(path)])
    assert refused.exit_code == 1 and HELP in refused.output, refused.output
    assert "section 1" in refused.output and "Traceback" not in refused.output
    assert dump(tmp_path / "o.db") == before
    rated = runner.invoke(cli, ["db", "--db", url, "rate", "--systems", "R", "--assign-ids",
                               str(path)])
    assert rated.exit_code == 0, rated.output


def test_the_lichess_bullet_trf_is_not_rated_as_regular() -> None:
    """Issue 37: a lichess bullet event (its TRF states no time control) was rated as
    over-the-board Regular without a word."""
    path = SHARED / "formats" / "trf" / "competichess_lichess_bullet_2020_112p.trf"
    if not path.exists():
        skip_or_fail(f"{path} is missing (a clone without ../shared)")
    refused = CliRunner().invoke(cli, ["rate", str(path)])
    assert refused.exit_code == 1
    assert refused.output == (f"Error: {path}: section 1: the file states no rating system "
                              f"and it gives no time control: {HELP}\n")
