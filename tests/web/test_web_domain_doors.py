"""One value outside its domain is refused in the same words by every door (issue 37):
`uscf rate`, `uscf db rate`, the API's POST /api/events (the office's write) and POST
/api/rate, and the upload of a file to the web's estimator, each naming the place and
the field and saying what was expected; and the office's database is unchanged, row by
row.

The values are drawn by hypothesis around the bounds the documents give (section 5 of
the 2025 text: ratings from the absolute floor of 100; floors at 100-point levels up to
2200; the rules' coverage from 2013-05-08) and around the database's integer types (a
count of 2**63 - 1 wrapped to a negative N before; 10**30 raised OverflowError)."""

from __future__ import annotations

import html
import json
import re
import sqlite3
from datetime import date
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from uscf_ratings.cli.main import cli


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def event() -> dict[str, Any]:
    """A valid event of two members not in the office, rated after its events."""
    return {"event": {"id": "domain-1", "name": "Domain Open", "start_date": "2026-10-03"},
            "sections": [{"number": 1, "time_control": "G/90;d30", "players": [
                {"pair": 1, "id": "41000001", "name": "Ada Lane",
                 "ratings": {"R": {"rating": 1500, "games": 30}}, "results": ["W2"]},
                {"pair": 2, "id": "41000002", "name": "Bo Reyes",
                 "ratings": {"R": {"rating": 1400, "games": 30}}, "results": ["L1"]}]}]}


def put(path: str, value: Any) -> dict[str, Any]:
    """The event with ``value`` at ``path`` (dots; a number is a list's index)."""
    document = event()
    *parents, last = path.split(".")
    here: Any = document
    for part in parents:
        here = here[int(part)] if part.isdigit() else here[part]
    here[last] = value
    return document


RATING = "sections.0.players.0.ratings.R"
PLAYER = "sections.0.players.0"
#: a field of the event JSON, the words its message names it by, and values outside the
#: documented domain
OUTSIDE: list[tuple[str, str, st.SearchStrategy[Any]]] = [
    (f"{RATING}.floor", "R floor", st.one_of(
        st.integers(2201, 10**30), st.integers(-10**6, 99),
        st.integers(101, 2199).filter(lambda f: f % 100 != 0))),
    (f"{RATING}.games", "R games (N)", st.one_of(
        st.integers(1_000_001, 2**63 - 1), st.just(2**63 - 1), st.just(10**30),
        st.integers(-2**63, -1))),
    (f"{RATING}.wins", "R wins", st.integers(1_000_001, 10**25)),
    (f"{RATING}.rating", "R rating", st.one_of(
        st.floats(3500.001, 1e300), st.floats(-1e6, 99.999), st.integers(3501, 10**20))),
    (f"{RATING}.peak", "R peak", st.floats(3500.5, 1e12)),
    (f"{RATING}.date", "R date", st.dates(date(1, 1, 1), date(1899, 12, 31)).map(str)),
    ("event.start_date", "start date", st.dates(date(2036, 1, 1), date(9999, 12, 31)).map(str)),
    ("sections.0.number", "number", st.integers(100_000, 2**63 - 1)),
    (f"{PLAYER}.name", "name", st.text(min_size=1, max_size=5).map(lambda t: t + "\x07")),
    (f"{PLAYER}.id", "id", st.text(alphabet="0123456789/", min_size=33, max_size=60)),
    (f"{PLAYER}.fide", "FIDE rating", st.floats(3500.5, 1e9).map(lambda r: {"rating": r})),
]


def rows(db: Path) -> list[str]:
    connection = sqlite3.connect(db)
    try:
        return sorted(connection.iterdump())
    finally:
        connection.close()


def lines_after(source: str, text: str) -> set[str]:
    """The refusal's lines that name ``source``, without it: what every door says alike."""
    found = set()
    for line in text.splitlines():
        line = re.sub(r"^Error: ", "", line)
        if line.startswith(f"{source}: "):
            found.add(line[len(source) + 2:])
    return found


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow])
@given(data=st.data())
def test_every_door_refuses_a_value_outside_its_domain_in_the_same_words(
        data: st.DataObject, client: Any, token: str, office_url: str,
        tmp_path: Path) -> None:
    path, label, values = data.draw(st.sampled_from(OUTSIDE))
    value = data.draw(values)
    document = put(path, value)
    text = json.dumps(document)
    file = tmp_path / "bad.json"
    file.write_text(text, encoding="utf-8")
    db = Path(office_url.removeprefix("sqlite:///"))
    before = rows(db)

    said: dict[str, set[str]] = {}
    runner = CliRunner()
    for door, args in (("uscf rate", ["rate", str(file)]),
                       ("uscf db rate", ["db", "--db", office_url, "rate", str(file)])):
        result = runner.invoke(cli, args)
        assert result.exit_code == 1, (door, result.output)
        assert "Traceback" not in result.output
        said[door] = lines_after(str(file), result.output)
    for door, answer in (
            ("POST /api/events", client.post("/api/events", content=text,
                                             headers=auth(token))),
            ("POST /api/rate", client.post("/api/rate", content=text))):
        assert answer.status_code == 422, (door, answer.text)
        said[door] = lines_after("request body", answer.json()["detail"])

    first = said["uscf rate"]
    assert first, said
    for door, lines in said.items():
        assert lines == first, f"{door} says otherwise:\n{lines}\nnot\n{first}"
    # the web's upload of a director's file (Check my rating: a whole section) lists the
    # same lines on its page
    page = client.post("/estimate/section",
                       files={"file": ("bad.json", text.encode(), "application/json")})
    assert page.status_code == 422
    shown = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page.text)).split())
    for line in first:
        line = " ".join(line.split())
        assert line in shown.replace(" : ", ": "), f"the upload's page does not say {line!r}"
    # the message names the place, the field and what was expected
    assert any(label in line and "expected" in line for line in first), first
    where = "event 'domain-1'" if path.startswith("event") else "section "
    assert any(line.startswith(where) for line in first), first
    assert rows(db) == before, "a refusal changed the database"
