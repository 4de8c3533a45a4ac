"""The doors besides `uscf rate`, `uscf db rate` and the API (tests/web/test_web_domain_doors.py)
say what those say of a value outside its domain (core/domain.py): `uscf verify`,
`uscf experiment`, `uscf db import-members` and `uscf db set-floor`."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

from click.testing import CliRunner

from uscf_ratings.cli.main import cli
from tests.conftest import SHARED, skip_or_fail

#: 2040 is past the last day a section may be dated: the rules' last change is of
#: 2025-01-01, and sections may start until the end of its tenth year (docs/domain.md)
LATE = "2040-01-01"


def event(start: str = "2025-06-07", floor: int | None = None) -> str:
    rating: dict[str, object] = {"rating": 1500, "games": 30}
    if floor is not None:
        rating["floor"] = floor
    return json.dumps({
        "event": {"id": "D1", "name": "Domain Open", "start_date": start},
        "sections": [{"number": 1, "time_control": "G/90;d30", "players": [
            {"pair": 1, "id": "41000001", "name": "Ada Lane", "ratings": {"R": rating},
             "results": ["W2"]},
            {"pair": 2, "id": "41000002", "name": "Bo Reyes",
             "ratings": {"R": {"rating": 1400, "games": 30}}, "results": ["L1"]}]}]})


def said(output: str, source: str) -> list[str]:
    """The refusal's lines without the source and the place: the words about the value."""
    lines = []
    for line in output.splitlines():
        line = line.removeprefix("Error: ")
        if line.startswith(f"{source}: "):
            lines.append(line.split(": ", 2)[-1])
    return lines


def rate(tmp_path: Path, text: str) -> tuple[Path, list[str]]:
    path = tmp_path / "event.json"
    path.write_text(text)
    out = CliRunner().invoke(cli, ["rate", str(path)])
    assert out.exit_code == 1, out.output
    return path, said(out.output, str(path))


def test_uscf_verify_refuses_a_late_date_as_uscf_rate_does(tmp_path: Path) -> None:
    index = SHARED / "recent" / "index.csv"
    if not index.exists():
        skip_or_fail(f"the real standings are not here: {index.parent} is missing")
    row = next(csv.DictReader(index.open()))
    standings = (SHARED / "recent" / "raw"
                 / f"{row['event_id']}_s{int(row['section_no']):02d}_standings.json")
    out = CliRunner().invoke(cli, ["verify", "--date", LATE, "--systems", "R", str(standings)])
    assert out.exit_code == 1 and "Traceback" not in out.output
    by_verify = said(out.output, str(standings))
    _, by_rate = rate(tmp_path, event(LATE))
    words = (f"start date {LATE}: expected a date from 2013-05-08 to 2035-12-31 (the rules' "
             "coverage starts 2013-05-08; a section starts at most 10 years after their last "
             "change)")
    assert by_verify[0] == by_rate[0] == words


def test_uscf_experiment_refuses_a_history_file_as_uscf_rate_does(tmp_path: Path) -> None:
    bad, by_rate = rate(tmp_path, event(floor=99999))
    folder = tmp_path / "events"
    folder.mkdir()
    (folder / bad.name).write_text(bad.read_text())
    spec = tmp_path / "spec.toml"
    spec.write_text('history = "events"\n[[variant]]\nname = "documented"\n')
    out = CliRunner().invoke(cli, ["experiment", str(spec), "--no-plots"])
    assert out.exit_code == 1 and "Traceback" not in out.output, out.output
    assert by_rate == ["R floor 99999: expected a 100-point level from 100 to 2200 (section 5: "
                       "prize floors up to 2000, earned floors 1200 to 2100 and the OLM floor "
                       "2200; section 7: a lowered floor is 100 below the old one)"]
    assert by_rate[0] in out.output


def test_a_member_list_and_set_floor_refuse_a_floor_as_an_event_file_does(
        tmp_path: Path) -> None:
    _, by_rate = rate(tmp_path, event(floor=99999))
    db = tmp_path / "office.db"
    url = f"sqlite:///{db}"
    runner = CliRunner()
    members = tmp_path / "members.csv"
    members.write_text("id,name,R_rating,R_games\n41000001,Ada Lane,1500,30\n")
    for args in (["db", "--db", url, "init"], ["db", "--db", url, "import-members",
                                               str(members)]):
        assert runner.invoke(cli, args).exit_code == 0
    before = sorted(sqlite3.connect(db).iterdump())
    members.write_text("id,name,R_rating,R_games,R_floor\n41000001,Ada Lane,1500,30,99999\n")
    listed = runner.invoke(cli, ["db", "--db", url, "import-members", str(members)])
    by_hand = runner.invoke(cli, ["db", "--db", url, "set-floor", "41000001", "R", "99999",
                                  "--from", "2025-01-01"])
    for out in (listed, by_hand):
        assert out.exit_code == 1 and "Traceback" not in out.output, out.output
        assert f"member 41000001: {by_rate[0]}" in out.output
    assert sorted(sqlite3.connect(db).iterdump()) == before
