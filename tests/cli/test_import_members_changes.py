"""`uscf db import-members` changes nothing stored without a word: each stored value a
list replaces is one line (member, field, old -> new), and a field the list leaves
empty keeps what is stored. Issue 37: a list renamed "Fatima Noor" to "Fatima N."
without a word."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select

from uscf_ratings.cli.main import cli
from uscf_ratings.office import schema as t


def run(*args: str) -> tuple[int, str]:
    out = CliRunner().invoke(cli, list(args))
    return out.exit_code, out.output


def office(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'o.db'}"
    assert run("db", "--db", url, "init")[0] == 0
    return url


def stored(url: str, member: str) -> dict[str, object]:
    engine = create_engine(url)
    with engine.connect() as c:
        row = c.execute(select(t.members).where(t.members.c.id == member)).one()
    engine.dispose()
    return dict(row._mapping)


def test_a_shorter_name_is_said_with_the_old_and_the_new(tmp_path: Path) -> None:
    url = office(tmp_path)
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("id,name,birth_date,state,R_rating,R_games\n"
                     "30000006,Fatima Noor,1990-05-04,OH,1650,30\n"
                     "30000007,Gus Park,,CA,1300.25,6\n")
    second.write_text("id,name,birth_date,state,R_rating,R_games\n"
                      "30000006,Fatima N.,,OH,1650,30\n"
                      "30000007,Gus Park,,NY,1320,10\n")
    assert run("db", "--db", url, "import-members", str(first)) == (
        0, "imported 2 members; nothing to re-rate\n")
    assert run("db", "--db", url, "import-members", str(second)) == (0, (
        "changed member 30000006: name 'Fatima Noor' -> 'Fatima N.'\n"
        "changed member 30000007: state 'CA' -> 'NY'\n"
        "changed member 30000007: imported R rating 1300.25 (N 6) -> 1320 (N 10)\n"
        "imported 2 members; nothing to re-rate\n"))
    fatima = stored(url, "30000006")
    # the name as the list gives it, said; the birth date the list leaves empty, kept
    assert (fatima["name"], fatima["birth_date"]) == ("Fatima N.", date(1990, 5, 4))
    # the same list again changes nothing, and says nothing
    assert run("db", "--db", url, "import-members", str(second)) == (
        0, "imported 2 members; nothing to re-rate\n")


NAMES = st.sampled_from(["", "Ann Lee", "Ann L.", "ANN LEE"])
STATES = st.sampled_from(["", "OH", "CA"])


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(NAMES, STATES), min_size=1, max_size=4))
def test_every_stored_value_replaced_is_said_and_an_empty_one_kept(
        lists: list[tuple[str, str]]) -> None:
    """One member imported from a sequence of lists: after each, the stored name and
    state are the last non-empty ones given, and a line is printed exactly when a
    stored non-empty value became another."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        url = office(Path(folder))
        name = state = ""
        for given_name, given_state in lists:
            path = Path(folder) / "m.csv"
            path.write_text(f"id,name,state\n50000001,{given_name},{given_state}\n")
            code, output = run("db", "--db", url, "import-members", str(path))
            assert code == 0, output
            expected = []
            if name and given_name and given_name != name:
                expected.append(f"changed member 50000001: name {name!r} -> {given_name!r}")
            if state and given_state and given_state != state:
                expected.append(f"changed member 50000001: state {state!r} -> {given_state!r}")
            assert output.splitlines()[:-1] == expected
            name, state = given_name or name, given_state or state
            row = stored(url, "50000001")
            assert (row["name"], row["state"] or "") == (name, state)
