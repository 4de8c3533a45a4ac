"""`uscf rate` gives each player's norm: `--json` as the code or null with its explanation,
and the crosstables beside the total (the section and its codes are worked by hand in
tests/formats/test_outputs_norms.py)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from click.testing import CliRunner
from tests.formats.test_outputs_norms import EXPECTED, norm_section

from uscf_ratings.cli.main import cli
from uscf_ratings.formats.event_json import write


def rated(tmp_path: Path, *options: str) -> str:
    event, _ = norm_section()
    (path,) = write(event, tmp_path / "quint.json")
    outcome = CliRunner().invoke(cli, ["rate", str(path), *options])
    assert outcome.exit_code == 0, outcome.output
    return outcome.output


def test_json_gives_each_norm_with_its_explanation(tmp_path: Path) -> None:
    for option in ("--json", "--format=json"):
        document = json.loads(rated(tmp_path, option))
        players = document["events"][0]["sections"][0]["players"]
        assert {p["pair"]: p["norm"] for p in players} == EXPECTED
        first = players[0]["norm_explanation"]
        assert (first["code"], first["closest"], first["games"], first["score"]) == (
            "N:2", "N:1", 4, 4.0)
        assert [level["earned"] for level in first["levels"]] == [True] * 3 + [False] * 4


def test_the_crosstables_print_the_code_beside_the_total(tmp_path: Path) -> None:
    rows = list(csv.DictReader(io.StringIO(rated(tmp_path, "--format", "csv"))))
    assert {int(r["pair"]): r["norm"] for r in rows} == EXPECTED
    msa = rated(tmp_path, "--format", "msa")
    assert "   1 Player 1             30100001   4.0 N:2 W   2" in msa
    text = rated(tmp_path)
    assert "  1 Player 1 (30100001)" in text and " 4.0 N:2 R: 1600 -> 1717" in text
