"""`uscf experiment SPEC`: the table, the CSV and the plots; and every refusal in one
line that names the file and the key."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from tests.conftest import write_events

from uscf_ratings.cli.main import cli

SPEC = """\
title = "The bonus threshold"
history = "events"
baseline = "documented"

[[variant]]
name = "documented"

[grid]
bonus_threshold = [8, 16]
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("experiment")
    (folder / "events").mkdir()
    write_events(folder / "events", 12, seed=8, members=80)
    path = folder / "bonus.toml"
    path.write_text(SPEC)
    return path


def test_the_experiment_writes_its_table_csv_and_plots(spec: Path) -> None:
    out = CliRunner().invoke(cli, ["experiment", str(spec), "--workers", "2"])
    assert out.exit_code == 0, out.output
    folder = spec.with_suffix("")
    table = (folder / "table.md").read_text().splitlines()
    assert table[0].startswith("| variant") and "log loss" in table[0]
    assert [row.split("|")[1].strip() for row in table[2:]] == [
        "documented", "bonus_threshold = 8", "bonus_threshold = 16"]
    assert "3 variants in" in out.output and "on 2 local processes" in out.output
    awards = (folder / "awards.md").read_text().splitlines()
    assert awards[0].split("|")[2].strip() == "N:4" and "NM" in awards[0]
    assert [row.split("|")[1].strip() for row in awards[2:]] == [
        "documented", "bonus_threshold = 8", "bonus_threshold = 16"]
    assert "Norms by level" in out.output
    with (folder / "results.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["variant"] for r in rows} == {"documented", "bonus_threshold = 8",
                                            "bonus_threshold = 16"}
    games = {r["variant"]: float(r["value"]) for r in rows
             if r["measure"] == "games" and r["group"] == "all"}
    assert len(set(games.values())) == 1 and games["documented"] > 0  # the same games
    for name in ("calibration.png", "ratings-over-time.png", "differences.png"):
        assert (folder / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(("text", "message"), [
    ("[[variant]]\nname = 'a'\nbonus = 3\n", "variant 'a': no rule field 'bonus'"),
    ("[[variant]]\nname = 'a'\n[[variant]]\nname = 'a'\n", "two variants are named 'a'"),
    ("colour = 'red'\n", "unknown key 'colour'"),
    ("from = '2025'\n[[variant]]\nname = 'a'\n", "from must be a date such as 2025-01-01"),
    ("baseline = 'z'\n[[variant]]\nname = 'a'\n", "baseline 'z' is not the name of a "
                                                  "variant"),
    ("[grid]\nbonus_threshold = 8\n", "grid.bonus_threshold must be a list of values"),
    ("[[variant]\n", "not TOML"),
    ("[[variant]]\nname = 'a'\n", "no history: give history"),
    ("from = 2026-06-01\nto = 2026-01-01\n[[variant]]\nname = 'a'\n",
     "from (2026-06-01) is after to (2026-01-01)"),
    # numbers that make the formulas meaningless (issue 37; core/domain.py, OPTIONS)
    ("history = 'h'\n[[variant]]\nname = 'a'\n[[variant]]\nname = 'b'\nbonus_threshold = -4\n",
     "[[variant]] 2: variant 'b': bonus_threshold -4: expected a number from 0"),
    ("history = 'h'\n[[variant]]\nname = 'k'\nk_numerator = -800\n",
     "[[variant]] 1: variant 'k': k_numerator -800: expected a number above 0"),
    ("history = 'h'\n[[variant]]\nname = 'n'\nn_star_games = 0\n",
     "[[variant]] 1: variant 'n': n_star_games 0: expected a number above 0"),
    ("history = 'h'\n[grid]\nbonus_threshold = [8, 10, -2]\n",
     "grid.bonus_threshold[2]: bonus_threshold -2: expected a number from 0"),
])
def test_a_bad_spec_is_refused_in_one_line_naming_it(tmp_path: Path, text: str,
                                                     message: str) -> None:
    path = tmp_path / "x.toml"
    path.write_text(text)
    out = CliRunner().invoke(cli, ["experiment", str(path)])
    assert out.exit_code == 1
    assert f"Error: {path}" in out.output and message in out.output
    assert "Traceback" not in out.output
    assert not (tmp_path / "x").exists()  # nothing written


def test_an_unreachable_scheduler_is_said_in_one_line(spec: Path, tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["experiment", str(spec), "--out", str(tmp_path / "o"),
                                   "--scheduler", "tcp://127.0.0.1:9"])
    assert out.exit_code == 1
    assert "no Dask scheduler at tcp://127.0.0.1:9" in out.output
    assert "Traceback" not in out.output


def test_without_matplotlib_the_table_is_written_and_the_plots_refused(
        spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    out = CliRunner().invoke(cli, ["experiment", str(spec), "--out", str(tmp_path / "o")])
    assert out.exit_code == 1, out.output
    assert "the plots need matplotlib" in out.output and "--no-plots" in out.output
    assert "Traceback" not in out.output
    assert (tmp_path / "o" / "table.md").exists() and (tmp_path / "o" / "results.csv").exists()
    assert not (tmp_path / "o" / "calibration.png").exists()
    again = CliRunner().invoke(cli, ["experiment", str(spec), "--out", str(tmp_path / "o"),
                                     "--no-plots"])
    assert again.exit_code == 0, again.output


def test_a_period_that_ends_before_it_starts_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("history = 'events'\n[[variant]]\nname = 'a'\n")
    out = CliRunner().invoke(cli, ["experiment", str(path), "--from", "2026-06-01", "--to",
                                   "2026-01-01"])
    assert out.exit_code == 1
    assert out.output.strip() == ("Error: the period starts (2026-06-01) after it ends "
                                  f"(2026-01-01): check --from and --to, or from and to in "
                                  f"{path}")
