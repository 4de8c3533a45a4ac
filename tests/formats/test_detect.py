"""`formats.detect.sniff`: the format of a file, from its name and first bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.conftest import REPO

from uscf_ratings.formats.detect import sniff
from uscf_ratings.formats.errors import ParseError

DATA = REPO / "tests" / "formats" / "data"
FILES = sorted(p for p in DATA.rglob("*") if p.is_file() and p.suffix != ".md"
               and p.suffix != ".py") + [REPO / "examples" / "sample-event.json"]


def format_of(path: Path, data: bytes | None = None) -> str:
    try:
        return sniff(path, data).name
    except ParseError:
        return "unknown"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_the_bytes_read_by_the_caller_sniff_as_the_file_does(path: Path) -> None:
    """`uscf db rate` reads each file once and sniffs its bytes: the same answer."""
    assert format_of(path, path.read_bytes()) == format_of(path)


@pytest.mark.parametrize(("name", "expected"), [
    ("examples/sample-event.json", "json"),
    ("tests/formats/data/wintd/swiss.json", "wintd"),
    ("tests/formats/data/csv/flavour.json", "csvjson"),
    ("tests/formats/data/sjson/round_robin.sjson", "sjson"),
    ("tests/formats/data/pgn/club.pgn", "pgn"),
    ("tests/formats/data/trf/all_codes.trf", "trf"),
    ("tests/formats/data/csv/two_sections.csv", "csv"),
    ("tests/formats/data/dbf/report.zip", "dbf"),
])
def test_files_of_each_format_sniff_as_it(name: str, expected: str) -> None:
    path = REPO / name
    assert format_of(path, path.read_bytes()) == expected
