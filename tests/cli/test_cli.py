"""The `uscf` command, run as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from uscf_ratings.cli.main import cli
from tests.conftest import REPO

SAMPLE = str(REPO / "examples" / "sample-event.json")


def test_rate_prints_crosstables() -> None:
    out = CliRunner().invoke(cli, ["rate", SAMPLE])
    assert out.exit_code == 0, out.output
    assert "Riverside Chess Club August Action" in out.output
    assert "Section 1 Open  (R/Q," in out.output  # G/30;d5 is dual-rated
    assert "Section 2 Scholastic Under 1000  (Q," in out.output  # G/20;d5: Quick only
    assert "Fatima Noor (30000006)" in out.output and "R: unr. -> " in out.output


def test_rate_json_holds_events_sections_players() -> None:
    out = CliRunner().invoke(cli, ["rate", SAMPLE, SAMPLE, "--json"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert len(doc["events"]) == 2
    section = doc["events"][0]["sections"][0]
    assert section["systems"] == ["R", "Q"]
    ana = section["players"][0]["ratings"]["R"]
    for key in ("pre", "post", "post_rounded", "games_after", "formula", "m", "S", "N",
                "N_eff", "R0", "steps", "state_after"):
        assert key in ana
    assert ana["games_after"] == 120 + 4
    assert ana["state_after"]["games"] == 124
    assert ana["post_rounded"] == round(ana["post"])  # no .5 case here


def test_state_after_rates_a_later_event(tmp_path: Path) -> None:
    """The output alone is enough to rate the next event: state_after has the input shape."""
    doc = json.loads(CliRunner().invoke(cli, ["rate", SAMPLE, "--json"]).output)
    players = doc["events"][0]["sections"][0]["players"]
    later = {"event": {"id": "next", "start_date": "2026-09-05"},
             "sections": [{"number": 1, "systems": ["R"], "players": [
                 {"pair": 1, "id": players[0]["id"],
                  "ratings": {"R": players[0]["ratings"]["R"]["state_after"]}, "results": ["W2"]},
                 {"pair": 2, "id": players[1]["id"],
                  "ratings": {"R": players[1]["ratings"]["R"]["state_after"]}, "results": ["L1"]},
             ]}]}
    path = tmp_path / "later.json"
    path.write_text(json.dumps(later))
    out = CliRunner().invoke(cli, ["rate", str(path), "--json"])
    assert out.exit_code == 0, out.output
    rated = json.loads(out.output)["events"][0]["sections"][0]["players"][0]["ratings"]["R"]
    assert rated["pre"] == players[0]["ratings"]["R"]["post"]


def test_bad_file_exits_2_with_every_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"event": {"id": "x", "start_date": "2026-01-01"},
                                "sections": [{"number": 1, "systems": ["R"], "players": [
                                    {"pair": 1, "results": ["W2", "Z"]},
                                    {"pair": 2, "results": ["L1"], "ratings": {"X": {}}}]}]}))
    out = CliRunner().invoke(cli, ["rate", str(path)])
    assert out.exit_code == 1
    assert f"{path}: sections[0].players[0].results[1]" in out.output
    assert "sections[0].players[1].ratings" in out.output


def test_every_failing_section_is_listed(tmp_path: Path) -> None:
    """A file with two bad sections names the problems of both, not only the first's."""
    def section(number: int, results: tuple[list[str], list[str]]) -> dict[str, object]:
        return {"number": number, "systems": ["R"], "players": [
            {"pair": 1, "id": "30100001", "ratings": {"R": {"rating": 1400, "games": 4}},
             "results": results[0]},
            {"pair": 2, "id": "30100002", "ratings": {"R": {"rating": 1600, "games": 4}},
             "results": results[1]}]}

    path = tmp_path / "two-bad.json"
    path.write_text(json.dumps({"event": {"id": "x", "start_date": "2026-01-01"}, "sections": [
        section(1, (["W2"], ["W1"])),  # a win on both sides
        section(2, (["W3"], ["L1"]))]}))  # pair 3 is not in the section
    out = CliRunner().invoke(cli, ["rate", str(path)])
    assert out.exit_code == 1
    assert "section 1, player 1, id 30100001, round 1: result 'W2' is not mirrored" in out.output
    assert "section 2, player 1, id 30100001, round 1: result 'W3' names pair 3" in out.output


def test_rules_lists_bonus_thresholds() -> None:
    out = CliRunner().invoke(cli, ["rules"])
    assert out.exit_code == 0
    for line in ("2014-03-20  [documented] Bonus threshold B = 10",
                 "2017-06-01  [documented] Bonus threshold B = 14",
                 "2025-01-01  [documented] Bonus threshold B = 10"):
        assert line in out.output
