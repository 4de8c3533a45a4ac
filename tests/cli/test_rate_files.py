"""`uscf rate` on the files directors have: the format by content and extension
(--from), the date (--date), the systems (--systems), and refusals without a traceback;
a zip bomb is refused within a small, measured memory."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

from click.testing import CliRunner, Result

from uscf_ratings.cli.main import cli
from uscf_ratings.formats import archive, dbf

ROOT = Path(__file__).parents[2]
SAMPLE = ROOT / "examples" / "sample-event.json"
DATA = ROOT / "tests" / "formats" / "data"


def rate(*args: str) -> Result:
    result = CliRunner().invoke(cli, ["rate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


PGN = textwrap.dedent("""\
    [Event "Friday Blitz"]
    [Date "2026.03.13"]
    [Round "1"]
    [White "Adams, Ann"]
    [Black "Baker, Bo"]
    [Result "1-0"]
    [WhiteUSCF "1800"]
    [BlackUSCF "1700"]
    [TimeControl "180+2"]

    1-0
    """)


def test_a_pgn_that_begins_with_an_event_tag_reads_whatever_its_extension(tmp_path: Path) -> None:
    """Issue 13: such a file was sniffed as JSON and refused."""
    for name in ("games.pgn", "games.txt", "games"):
        path = tmp_path / name
        path.write_text(PGN, encoding="utf-8")
        result = rate(str(path))
        assert result.exit_code == 0, result.output
        assert "Adams, Ann" in result.output and "2026-03-13" in result.output


def test_from_names_the_format(tmp_path: Path) -> None:
    path = tmp_path / "games.dat"
    path.write_text(PGN, encoding="utf-8")
    assert rate("--from", "pgn", str(path)).exit_code == 0
    refused = rate("--from", "trf", str(path))  # the wrong format: refused, not guessed
    assert refused.exit_code == 1 and "games.dat" in refused.output
    assert rate("--from", "sgf", str(path)).exit_code == 2  # not a format


def test_json_still_reads_as_json() -> None:
    result = rate("--json", str(SAMPLE))
    assert result.exit_code == 0
    assert json.loads(result.output)["events"][0]["id"] == "202608010001"


SJSON_NO_DATE = json.dumps({"Overview": {"Tournament title": "Quad"}, "Sections": [{
    "Section name": "Quad", "Type": 3, "Section time control": "G/60;d5", "Players": [
        {"Pair number": 1, "Name": "North, N", "ID": "15000001", "Rating": 1500,
         "Results": ["+;2;W;1;0;0;0"]},
        {"Pair number": 2, "Name": "East, E", "ID": "15000002", "Rating": 1400,
         "Results": ["-;1;B;1;0;0;0"]}]}]})


def test_a_file_without_a_date_is_refused_and_date_gives_one(tmp_path: Path) -> None:
    """Issue 13: SwissSys without a date was rated as of today, TRF failed with "no rule
    set for 1900-01-01"."""
    path = tmp_path / "quad.sjson"
    path.write_text(SJSON_NO_DATE, encoding="utf-8")
    refused = rate(str(path))
    assert refused.exit_code == 1
    assert refused.output == (
        f"Error: {path}: Overview.Starting date: missing: the file gives no date for the "
        "event (expected Overview 'Starting date'); give the date with --date YYYY-MM-DD\n")
    rated = rate("--date", "2025-04-01", str(path))
    assert rated.exit_code == 0 and "(quad, 2025-04-01 .. 2025-04-01)" in rated.output
    trf_refused = rate(str(DATA / "trf" / "no_dates.trf"))
    assert trf_refused.exit_code == 1 and "no_dates.trf" in trf_refused.output
    assert "--date YYYY-MM-DD" in trf_refused.output and "1900" not in trf_refused.output
    # nor a time control: the systems are given too
    assert rate("--date", "2025-04-01", "--systems", "R",
                str(DATA / "trf" / "no_dates.trf")).exit_code == 0


def test_a_date_other_than_the_files_is_refused() -> None:
    result = rate("--date", "2026-08-02", str(SAMPLE))
    assert result.exit_code == 1
    assert result.output == (f"Error: {SAMPLE}: the file states the start date 2026-08-01; "
                             "--date gives 2026-08-02 (leave --date out, or correct the "
                             "file)\n")
    assert rate("--date", "2026-08-01", str(SAMPLE)).exit_code == 0
    assert rate("--date", "1 Aug 2026", str(SAMPLE)).exit_code == 2  # not YYYY-MM-DD


TRF_NO_TC = "\r\n".join([
    "012 Club", "042 2024/06/01",
    "001    1 w    Adams, Ann                                                         1.0"
    "    1     2 w 1",
    "001    2 m    Baker, Bob                                                         0.0"
    "    2     1 b 0",
    "USA    1                                        1875 CA     12345678",
    "USA    2                                        1500 CA     23456789"]) + "\r\n"


def test_systems_applies_to_trf_files(tmp_path: Path) -> None:
    """Issue 13: --systems was ignored for TRF files (they were rated in R). Issue 37:
    without it, a file with no time control is not rated in R without a word."""
    path = tmp_path / "club.trf"
    path.write_text(TRF_NO_TC, encoding="utf-8")
    plain = rate(str(path))
    assert plain.exit_code == 1 and plain.output == (
        f"Error: {path}: section 1: the file states no rating system and it gives no time "
        "control: give the systems with --systems (R, Q, B, OR, OQ, OB; R,Q for a "
        "dual-rated section)\n")
    regular = rate("--systems", "R", str(path))
    assert regular.exit_code == 0 and "R: 1875" in regular.output
    quick = rate("--systems", "Q", str(path))
    assert quick.exit_code == 0, quick.output
    # the national rating is filed under Q, the section's one system, and rated there
    assert "Q: 1875" in quick.output and "R: 1875" not in quick.output


def test_systems_other_than_the_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "quad.sjson"
    path.write_text(SJSON_NO_DATE, encoding="utf-8")
    result = rate("--date", "2025-04-01", "--systems", "R", str(path))
    assert result.exit_code == 1
    assert result.output == (f"Error: {path}: section 1 (Quad): the file states the time "
                             "control 'G/60;d5', rated in R,Q on 2025-04-01; --systems "
                             "gives R\n")
    assert rate("--date", "2025-04-01", "--systems", "Q,R", str(path)).exit_code == 0
    stated = rate("--systems", "B", str(SAMPLE))  # section 2 states Q by its time control
    assert stated.exit_code == 1 and "section 1 (Open)" in stated.output
    bad = rate("--systems", "R,X", str(SAMPLE))
    assert bad.exit_code == 2 and "'R,X': expected systems such as R or R,Q" in bad.output


def test_a_superscript_digit_is_refused_with_its_place(tmp_path: Path) -> None:
    """Issue 13: the readers crashed on digits str.isdigit accepts and int refuses."""
    path = tmp_path / "club.trf"
    path.write_text(TRF_NO_TC.replace("1875", "187¹"), encoding="utf-8")
    result = rate(str(path))
    assert result.exit_code == 1
    assert result.output == (f"Error: {path}: line 5, columns 49-52: national rating "
                             "'187¹': expected digits\n")


# --- archives -------------------------------------------------------------------------------


def zip_bomb(path: Path, megabytes: int = 300) -> Path:
    """A zip of a few hundred KB whose TDEXPORT.DBF unpacks to ``megabytes`` of zeros."""
    block = b"\0" * (1 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        with z.open("TDEXPORT.DBF", "w", force_zip64=True) as member:
            for _ in range(megabytes):
                member.write(block)
        z.writestr("THEXPORT.DBF", b"")
        z.writestr("TSEXPORT.DBF", b"")
    return path


def peak_rss_mb(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Run `uscf` in a child process; its peak resident memory in MB (read by a parent of
    its own, so that no other child of this process counts) and what it printed."""
    probe = ("import resource, subprocess, sys, json\n"
             "cli = 'from uscf_ratings.cli.main import main; main()'\n"
             "done = subprocess.run([sys.executable, '-c', cli, *sys.argv[1:]],"
             " capture_output=True, text=True)\n"
             "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss\n"
             "print(json.dumps([peak, done.returncode, done.stdout, done.stderr]))")
    run = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True,
                         check=True)
    peak, code, out, err = json.loads(run.stdout)
    return peak / 1024, subprocess.CompletedProcess(args, code, out, err)


def test_a_zip_bomb_is_refused_in_little_memory(tmp_path: Path) -> None:
    """Issue 13: a 300 KB zip that unpacks to 300 MB took the CLI to 750 MB."""
    bomb = zip_bomb(tmp_path / "report.zip")
    assert bomb.stat().st_size < 1_000_000
    baseline, ok = peak_rss_mb("rate", str(SAMPLE))
    assert ok.returncode == 0, ok.stderr
    peak, refused = peak_rss_mb("rate", str(bomb))
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert refused.stderr == (f"Error: {bomb}: zip: unpacks to 314,572,800 bytes by its "
                              f"directory; the cap is {archive.MAX_UNPACKED:,} bytes\n")
    # far below the 300 MB unpacked: no more than the CLI's own start-up and a margin
    assert peak < baseline + 40 and peak < 150 + baseline / 2, (peak, baseline)


def test_a_zip_whose_directory_lies_is_read_within_the_cap(tmp_path: Path) -> None:
    """The directory says 1,000 bytes; the member holds 300 MB. The zip is refused (the
    member does not match its directory) after at most the stated bytes are unpacked."""
    bomb = zip_bomb(tmp_path / "report.zip")
    data = bytearray(bomb.read_bytes())
    with zipfile.ZipFile(bomb) as z:
        info = z.getinfo("TDEXPORT.DBF")
    central = data.find(b"PK\x01\x02")  # the first entry of the directory: TDEXPORT.DBF
    assert data[central + 46:central + 46 + 12] == b"TDEXPORT.DBF"
    # the entry's uncompressed size, 4 bytes at offset 24 of a central directory header
    assert int.from_bytes(data[central + 24:central + 28], "little") == 300 << 20
    data[central + 24:central + 28] = (1000).to_bytes(4, "little")
    bomb.write_bytes(bytes(data))
    assert info.file_size == 300 << 20
    result = rate(str(bomb))
    assert result.exit_code == 1
    assert result.output == (f"Error: {bomb}: TDEXPORT.DBF: unpacks to more than the 1,000 bytes "
                             "its directory entry says; reading stopped\n")


def test_too_many_members_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "report.zip"
    with zipfile.ZipFile(path, "w") as z:
        for n in range(archive.MAX_MEMBERS + 1):
            z.writestr(f"notes/{n}.txt", b"")
    result = rate(str(path))
    assert result.exit_code == 1
    assert result.output == (f"Error: {path}: zip: holds {archive.MAX_MEMBERS + 1} members; "
                             f"the cap is {archive.MAX_MEMBERS}\n")
    assert dbf.ZIP_CAPS == (archive.MAX_MEMBERS, archive.MAX_UNPACKED)
