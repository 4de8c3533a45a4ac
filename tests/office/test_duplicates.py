"""One event, once (issue 37): the same report as a DBF folder, a zip of it and the
director's SwissSys file is stored once; the other two are refused, naming the stored
event, and the database is unchanged; --different-event stores it all the same."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from tests.conftest import skip_or_fail

from uscf_ratings.cli.main import cli
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "formats"
#: the toy event "dbf_test" (2026-03-30, 2 players, 1 round) as SwissSys 11 wrote it:
#: its rating report and its .sjson (../shared/formats/*/MANIFEST.md)
REPORT = SHARED / "uscf_dbf" / "better-swisssys_swisssys11_dbf_test"
SWISSSYS = SHARED / "pairing_json" / "better-swisssys_dbf_test.sjson"


def counts(url: str) -> tuple[int, int]:
    with Office(url).engine.connect() as c:
        return (c.execute(select(func.count()).select_from(schema.events)).scalar_one(),
                c.execute(select(func.count()).select_from(schema.ratings)).scalar_one())


def test_one_report_in_three_formats_is_stored_once(tmp_path: Path) -> None:
    if not REPORT.is_dir() or not SWISSSYS.is_file():
        skip_or_fail(f"the real files are not in {SHARED}")
    zipped = Path(shutil.make_archive(str(tmp_path / "dbf_zip"), "zip", REPORT))
    url = f"sqlite:///{tmp_path / 'office.db'}"
    run = CliRunner()
    assert run.invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
    first = run.invoke(cli, ["db", "--db", url, "rate", str(REPORT)])
    assert first.exit_code == 0, first.output
    stored = counts(url)
    assert stored == (1, 2)  # one event; its two players rated in R
    for again in ([str(zipped)], [str(SWISSSYS), "--date", "2026-03-30", "--systems", "R"]):
        refused = run.invoke(cli, ["db", "--db", url, "rate", *again])
        assert refused.exit_code == 1
        assert f"holds the same games as event {REPORT.name}" in refused.output
        assert "--different-event" in refused.output and "Traceback" not in refused.output
        assert counts(url) == stored  # nothing changed
    forced = run.invoke(cli, ["db", "--db", url, "rate", str(zipped), "--different-event"])
    assert forced.exit_code == 0, forced.output
    assert counts(url) == (2, 4)


@pytest.mark.parametrize("swap", [False, True])
def test_the_fingerprint_ignores_order_numbering_and_format(swap: bool) -> None:
    """Players in another order with other pair numbers, sections swapped: the same
    content. One result changed: another content."""
    from dataclasses import replace
    from datetime import date

    from uscf_ratings.core.model import Event, Player, Result, Section
    from uscf_ratings.office.fingerprint import fingerprint

    def section(number: int, ids: tuple[str, str], code: str) -> Section:
        other = {"W": "L", "L": "W", "D": "D"}[code]
        a, b = (1, 2) if not swap else (7, 3)
        players = (Player(a, ids[0], results=(Result(1, code, b),)),
                   Player(b, ids[1], results=(Result(1, other, a),)))
        return Section(number, date(2026, 3, 30), date(2026, 3, 30),
                       players[::-1] if swap else players, time_control="G/60")

    one = Event("A", date(2026, 3, 30), date(2026, 3, 30),
                (section(1, ("11", "12"), "W"), section(2, ("13", "14"), "D")))
    other = Event("B", date(2026, 3, 30), date(2026, 3, 30),
                  (section(1, ("13", "14"), "D"), section(2, ("12", "11"), "L")))
    assert fingerprint(one) == fingerprint(other)
    changed = replace(other, sections=(section(1, ("13", "14"), "W"), other.sections[1]))
    assert fingerprint(changed) != fingerprint(one)
