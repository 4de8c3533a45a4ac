"""CSV written for people never hands a spreadsheet a formula to run (CSV injection).

OWASP's rule: a cell that begins with =, +, -, @, a tab or a carriage return gets a
leading single quote, which spreadsheets show as text. A plain number (a rating change
of -12) stays a number. Checked on the helper and on every CSV the project writes for
people: the web app's rating list download, ``uscf db list --format csv`` and
``uscf rate --format csv``; and not on the CSV crosstable format, which must round-trip.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from uscf_ratings.cli.main import cli
from uscf_ratings.formats.csv_safety import safe_cell
from uscf_ratings.formats.event_json import event_from_dict
from uscf_ratings.office.office import Office

#: Names a spreadsheet would run, and what the cell must hold instead (a quote in front).
FORMULAS = {
    '=HYPERLINK("http://x","y")': '\'=HYPERLINK("http://x","y")',
    "+1+1": "'+1+1",
    "-1+2": "'-1+2",
    "@SUM(A1:A9)": "'@SUM(A1:A9)",
    "\tTab Start": "'\tTab Start",
    "\rCR Start": "'\rCR Start",
}


@pytest.mark.parametrize("text", list(FORMULAS))
def test_a_formula_gets_a_quote(text: str) -> None:
    assert safe_cell(text) == FORMULAS[text]


@pytest.mark.parametrize("value", [-12, -12.5, 0, "-12", "+3", "-0.5", "1832", "Ana Torres",
                                   "", " =not a formula (a leading space)", "O'Brien", None])
def test_numbers_and_plain_text_stay_as_they_are(value: Any) -> None:
    assert safe_cell(value) == value


def players() -> list[dict[str, Any]]:
    """Four players whose names are formulas, and a fifth named -12 (a number)."""
    names = ['=HYPERLINK("http://x","y")', "@SUM(A1:A9)", "-1+2", "+1+1", "-12"]
    opponents = {1: "W2", 2: "L1", 3: "D4", 4: "D3", 5: ""}
    out = []
    for pair, name in enumerate(names, 1):
        out.append({"pair": pair, "id": f"3000010{pair}", "name": name,
                    "ratings": {"R": {"rating": 1500 + 10 * pair, "games": 40}},
                    "results": [opponents[pair] or "U"]})
    return out


def event() -> dict[str, Any]:
    return {"event": {"id": "202501050001", "name": "Formula Open", "start_date": "2025-01-05"},
            "sections": [{"number": 1, "systems": ["R"], "players": players()}]}


def names_in(text: str, column: str) -> list[str]:
    return [row[column] for row in csv.DictReader(io.StringIO(text))]


EXPECTED = ['\'=HYPERLINK("http://x","y")', "'@SUM(A1:A9)", "'-1+2", "'+1+1", "-12"]


def test_uscf_rate_format_csv(tmp_path: Path) -> None:
    path = tmp_path / "formulas.json"
    path.write_text(json.dumps(event()))
    out = CliRunner().invoke(cli, ["rate", str(path), "--format", "csv"])
    assert out.exit_code == 0, out.output
    assert names_in(out.output, "name") == EXPECTED
    # the numbers are numbers still: pair 1 was 1510 and won, so its post is above
    rows = list(csv.DictReader(io.StringIO(out.output)))
    assert float(rows[0]["pre"]) == 1510.0 and float(rows[0]["post"]) > 1510.0


@pytest.fixture
def office_with_formulas(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'f.db'}"
    office = Office(url)
    office.init()
    office.rate(event_from_dict(event()))
    office.engine.dispose()
    return url


def list_names(text: str) -> list[str]:
    return sorted(names_in(text, "name"))


def test_uscf_db_list_format_csv(office_with_formulas: str) -> None:
    out = CliRunner().invoke(cli, ["db", "--db", office_with_formulas, "list",
                                   "--as-of", "2025-12-31", "--format", "csv"])
    assert out.exit_code == 0, out.output
    assert list_names(out.output) == sorted(EXPECTED[:4])  # -12 played no game: not listed
    ratings = [float(r["rating"]) for r in csv.DictReader(io.StringIO(out.output))]
    assert len(ratings) == 4  # numbers, not quoted text


def test_the_web_download(office_with_formulas: str) -> None:
    from fastapi.testclient import TestClient

    from uscf_ratings.web import Settings, create_app

    with TestClient(create_app(Settings(db_url=office_with_formulas))) as client:
        answer = client.get("/list.csv", params={"as_of": "2025-12-31", "system": "R"})
    assert answer.status_code == 200
    assert list_names(answer.text) == sorted(EXPECTED[:4])
    ratings = [r["rating"] for r in csv.DictReader(io.StringIO(answer.text))]
    assert all(r.isdigit() for r in ratings)  # whole points, the public view


def test_the_csv_crosstable_format_keeps_names_as_given(tmp_path: Path) -> None:
    """The CSV crosstable is read back by `uscf rate`: a quote would change the name."""
    from uscf_ratings.formats import csv_crosstable

    [path] = csv_crosstable.write(event_from_dict(event()), tmp_path / "x.csv")
    again = csv_crosstable.read(path)
    assert [p.name for p in again.sections[0].players] == [p["name"] for p in players()]
