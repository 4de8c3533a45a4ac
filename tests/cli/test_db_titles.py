"""`uscf db player` shows titles and norms, `uscf db event` each player's norm with its
explanation, and `uscf db title-supplement` lists titles and norms in progress, on the
hand-worked history of tests/office/test_titles.py."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from tests.cli.test_db_commands import run
from tests.office.test_titles import X, history

from sqlalchemy import select

from uscf_ratings.office import schema
from uscf_ratings.office.office import Office


@pytest.fixture
def url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'office.db'}"
    office = Office(url)
    office.init()
    history(office)
    office.engine.dispose()
    return url


def test_player_shows_titles_and_the_norms_toward_each_level(url: str) -> None:
    out = run("db", "--db", url, "player", X).output
    assert "titles:\n  4th Category 2024-04-06: 6 norms at 1200 or above (E5, section 1)" in out
    assert "  Candidate Master 2024-04-06: 6 norms at 2000 or above, an established rating" in out
    # the one norm at 2200 (event 4) toward Life Master, with the event that earned it
    assert "  Life Master (2200): 1 of 5 [E4 s1 N:M]" in out
    assert "  2024-03-30  E4 s1  R: " in out and out.count(" N:C\n") == 5
    before = run("db", "--db", url, "player", X, "--as-of", "2024-03-30").output
    assert "titles on 2024-03-30: none" in before
    assert ("  Candidate Master (2000): 5 of 5 [E0 s1 N:C, E1 s1 N:C, E2 s1 N:C, E3 s1 N:C, "
            "E4 s1 N:M]; waiting for an established rating of 2000") in before


def test_event_shows_each_norm_and_why_a_player_has_none(url: str) -> None:
    out = run("db", "--db", url, "event", "E0").output
    lines = out.splitlines()
    assert next(line for line in lines if "Member, X" in line).endswith("  N:C")
    # an opponent played one game: not eligible, and the reason says so
    assert next(line for line in lines if "Opponent 0-1" in line).endswith(
        "no norm: 1 rated game; a norm needs at least 4")


def test_title_supplement_as_csv_and_as_a_table(url: str) -> None:
    rows = list(csv.DictReader(io.StringIO(run(
        "db", "--db", url, "title-supplement", "--as-of", "2024-03-30", "--csv").output)))
    assert [(r["id"], r["N:C"], r["N:M"]) for r in rows] == [(X, "5", "1")]
    table = run("db", "--db", url, "title-supplement", "--as-of", "2024-03-30").output
    assert table.split() == [X, "Member,", "X", "-", "[N:4", "5", "N:3", "5", "N:2", "5",
                             "N:1", "5", "N:C", "5", "N:M", "1]"]
    refused = run("db", "--db", url, "title-supplement", "--as-of", "30/03/2024", ok=False)
    assert refused.exit_code != 0 and "--as-of" in refused.output


def test_import_history_takes_us_chess_records_of_titles_and_norms(tmp_path: Path) -> None:
    # docs/examples/made-up-titles.json: member 90000011, Active norms N:3 and N:2, the award
    # FourthCategory of 2024-11-02. Carried: the title with its date, one norm at each level.
    url = f"sqlite:///{tmp_path / 'office.db'}"
    Office(url).init()
    records = Path(__file__).resolve().parents[2] / "docs" / "examples" / "made-up-titles.json"
    out = run("db", "--db", url, "import-history", str(records)).output
    assert out == "imported the titles and norms of 1 member(s)\n"
    shown = run("db", "--db", url, "player", "90000011").output
    assert "4th Category 2024-11-02" in shown
    # the two norms count at 1400 (one at 1400, one at 1600 counting below)
    assert "3rd Category (1400): 2 of 5" in shown
    # again: nothing replaced, nothing said
    assert run("db", "--db", url, "import-history", str(records)).output == out


def test_titles_before_the_rating_rules_coverage(url: str) -> None:
    """Titles and norms are older than the rating rules this project covers (2013 on):
    asking for a date before them answers, never with a traceback; the supplement says
    when nobody is in it."""
    shown = run("db", "--db", url, "player", X, "--as-of", "2010-01-01")
    assert shown.exit_code == 0 and "titles on 2010-01-01: none" in shown.output
    empty = run("db", "--db", url, "title-supplement", "--as-of", "2010-01-01")
    assert empty.exit_code == 0
    assert empty.output == "no member holds a title or a norm toward one on 2010-01-01\n"


def test_a_merged_id_s_imported_titles_and_norms_are_the_member_s(url: str, tmp_path: Path
                                                                  ) -> None:
    # an old id of member X, listed with a title and norms, then merged into X: X holds the
    # title at its date, and the norms count with X's own (X: 5 N:C and 1 N:M from the pool)
    listed = tmp_path / "members.csv"
    listed.write_text("id,name,titles,norms_4,norms_S\n"
                      "39000001,Old Id,NationalMaster:2001-02-03,2,1\n")
    assert run("db", "--db", url, "import-members", str(listed)).exit_code == 0
    assert run("db", "--db", url, "merge", X, "39000001").exit_code == 0
    shown = run("db", "--db", url, "player", X).output
    assert "National Master 2001-02-03: carried from an import" in shown
    # N:S: the imported one; N:4: 6 of the pool's, 2 + 1 imported
    assert "Senior Life Master (2400): 1 of 5 [1 x N:S (imported)]" in shown
    levels = json.loads(run("db", "--db", url, "player", X, "--json").output)["titles"]["norms"]
    assert next(p["norms"] for p in levels if p["code"] == "N:4") == 9
    supplement = run("db", "--db", url, "title-supplement", "--as-of", "2030-01-01",
                     "--csv").output
    assert "39000001" not in supplement and X in supplement


def test_an_imported_count_is_one_entry_however_large(url: str, tmp_path: Path) -> None:
    listed = tmp_path / "members.csv"
    listed.write_text("id,name,norms_4\n39000002,Many,10000\n")
    assert run("db", "--db", url, "import-members", str(listed)).exit_code == 0
    shown = run("db", "--db", url, "player", "39000002").output
    assert "4th Category (1200): 10000 of 5 [10000 x N:4 (imported)]" in shown
    assert len(run("db", "--db", url, "player", "39000002", "--json").output) < 5_000


def test_an_imported_norm_of_a_section_the_pool_rates_is_not_counted_twice(tmp_path: Path
                                                                          ) -> None:
    # docs/examples: the pool rates 900000000020 section 1, where member 90000011 earns
    # N:3; US Chess's records list that norm and an N:2 of another event: 2 toward 3rd
    # Category, as US Chess counts them, not 3
    url = f"sqlite:///{tmp_path / 'office.db'}"
    Office(url).init()
    docs = Path(__file__).resolve().parents[2] / "docs" / "examples"
    assert run("db", "--db", url, "rate", str(docs / "made-up-norm.json")).exit_code == 0
    done = run("db", "--db", url, "import-history", str(docs / "made-up-titles.json"))
    assert ("note: member 90000011: the N:3 norm of event 900000000020 section 1 is not "
            "carried: the pool rates that section itself") in done.output
    shown = run("db", "--db", url, "player", "90000011").output
    assert "3rd Category (1400): 2 of 5 [900000000020 s1 N:3, 1 x N:2 (imported)]" in shown


def test_records_beside_a_refused_history_store_nothing(tmp_path: Path) -> None:
    # one command, two files: US Chess's records of a member and a history the reader
    # refuses: the refusal names the file, and neither is stored
    url = f"sqlite:///{tmp_path / 'office.db'}"
    Office(url).init()
    records = Path(__file__).resolve().parents[2] / "docs" / "examples" / "made-up-titles.json"
    bad = tmp_path / "history.json"
    bad.write_text('{"items": [{"nothing": 1}]}')
    done = run("db", "--db", url, "import-history", str(records), str(bad), ok=False)
    assert done.exit_code == 1 and f"Error: {bad}" in done.output
    office = Office(url)
    with office.engine.connect() as c:
        assert c.execute(select(schema.member_titles)).first() is None
        assert c.execute(select(schema.member_norms)).first() is None
