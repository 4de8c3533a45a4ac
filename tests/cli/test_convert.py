"""`uscf convert`: every file written is listed, and every field the target format cannot
hold is named on stderr, player by player (issue 13)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from uscf_ratings.cli.main import cli
from uscf_ratings.formats import csv_crosstable, trf

ROOT = Path(__file__).parents[2]
SAMPLE = ROOT / "examples" / "sample-event.json"

#: One section, G/30;d5 (dual: R and Q). Player 1: R 1556 after 14 games (provisional),
#: Q 1500.5 after 30, the R rating computed on 2024-05-01, FIDE 1610. Player 2: R 1600
#: after 40 games and nothing else.
EVENT = {"event": {"id": "E1", "name": "Club", "start_date": "2024-06-01",
                   "end_date": "2024-06-01"},
         "sections": [{"number": 1, "name": "Open", "time_control": "G/30;d5", "players": [
             {"pair": 1, "id": "11111111", "name": "Ann",
              "ratings": {"R": {"rating": 1556, "games": 14, "date": "2024-05-01"},
                          "Q": {"rating": 1500.5, "games": 30}},
              "fide": {"rating": 1610}, "results": ["W2"]},
             {"pair": 2, "id": "22222222", "name": "Bob",
              "ratings": {"R": {"rating": 1600, "games": 40}}, "results": ["L1"]}]}]}


def convert(*args: str) -> Result:
    result = CliRunner().invoke(cli, ["convert", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result


def event_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(EVENT), encoding="utf-8")
    return path


def test_to_trf_warns_field_by_field(tmp_path: Path) -> None:
    """TRF holds one rating per player (the section's main system, R here, in four
    columns: whole numbers), no N, no rating dates; it holds FIDE ratings."""
    out = tmp_path / "out.trf"
    result = convert(str(event_file(tmp_path)), str(out))
    assert result.exit_code == 0
    assert result.stdout == f"wrote {out}\n"
    assert result.stderr.splitlines() == [
        f"warning: {out}: TRF cannot hold R N (games): 2 player(s)' R N (games) are not "
        "written (id 11111111, id 22222222)",
        f"warning: {out}: TRF cannot hold R rating dates: 1 player(s)' R rating dates are "
        "not written (id 11111111)",
        f"warning: {out}: TRF cannot hold Q ratings: 1 player(s)' Q ratings are not "
        "written (id 11111111)",
    ]
    back = trf.read(out).sections[0].players[0]
    assert back.fide is not None and back.fide.rating == 1610


def test_to_trf_lists_every_file_of_every_section(tmp_path: Path) -> None:
    """Issue 13: it said "wrote out.trf" when it wrote out-s1.trf and out-s2.trf."""
    out = tmp_path / "out.trf"
    result = convert(str(SAMPLE), str(out))
    assert result.exit_code == 0
    assert result.stdout == f"wrote {tmp_path / 'out-s1.trf'}\nwrote {tmp_path / 'out-s2.trf'}\n"
    assert not out.exists()
    assert "TRF cannot hold Q ratings" in result.stderr


def test_to_csvjson_writes_json(tmp_path: Path) -> None:
    """Issue 13: --to csvjson wrote CSV."""
    out = tmp_path / "out.txt"
    result = convert(str(event_file(tmp_path)), str(out), "--to", "csvjson")
    assert result.exit_code == 0 and result.stdout == f"wrote {out}\n"
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["format"] == "uscf-crosstable"
    assert data["sections"][0]["players"][0]["rating_R"] == 1556
    assert data["sections"][0]["players"][0]["games_R"] == 14
    # the CSV crosstable keeps N and Q ratings; it has no rating dates
    assert result.stderr.splitlines() == [
        f"warning: {out}: the CSV crosstable's JSON cannot hold R rating dates: 1 player(s)' "
        "R rating dates are not written (id 11111111)"]
    assert csv_crosstable.read(out).sections[0].players[0].ratings


def test_to_event_json_keeps_everything(tmp_path: Path) -> None:
    out = tmp_path / "copy.json"
    result = convert(str(event_file(tmp_path)), str(out))
    assert result.exit_code == 0 and result.stdout == f"wrote {out}\n" and result.stderr == ""


def test_to_dbf_lists_the_three_files(tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = convert(str(event_file(tmp_path)), str(out))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [f"wrote {out / name}" for name in
                                          ("THEXPORT.DBF", "TSEXPORT.DBF", "TDEXPORT.DBF")]
    assert "the DBF rating report cannot hold FIDE ratings: 1 player(s)' FIDE ratings are not " \
           "written (id 11111111)" in result.stderr


def test_refusals(tmp_path: Path) -> None:
    source = tmp_path / "broken.json"
    source.write_text("{", encoding="utf-8")
    bad = convert(str(source), str(tmp_path / "x.trf"))
    assert bad.exit_code == 1
    assert bad.stderr == f"Error: {source}: line 1 column 2: not valid JSON: Expecting " \
                         "property name enclosed in double quotes\n"
    long_name = dict(EVENT)
    long_name["sections"] = [dict(EVENT["sections"][0])]  # type: ignore[index]
    long_name["sections"][0]["players"] = [  # type: ignore[index]
        dict(p, name="N" * 40) for p in EVENT["sections"][0]["players"]]  # type: ignore[index]
    source.write_text(json.dumps(long_name), encoding="utf-8")
    unfit = convert(str(source), str(tmp_path / "x.trf"))
    assert unfit.exit_code == 1
    assert unfit.stderr.startswith(f"Error: {tmp_path / 'x.trf'}: cannot write section 1 as TRF")
    assert "has 40 characters; TRF holds 33" in unfit.stderr
    unknown = convert(str(event_file(tmp_path)), str(tmp_path / "x.xyz"))
    assert unknown.exit_code == 1 and "cannot tell the format from the extension" in unknown.stderr
    undated = tmp_path / "quad.csv"
    undated.write_text("pair,name,round1\n1,A,W2\n2,B,L1\n", encoding="utf-8")
    refused = convert(str(undated), str(tmp_path / "q.json"))
    assert refused.exit_code == 1 and "--date YYYY-MM-DD" in refused.stderr
    dated = convert(str(undated), str(tmp_path / "q.json"), "--date", "2024-06-01",
                    "--systems", "R")
    assert dated.exit_code == 0, dated.stderr
