"""An office database as an experiment's history (experiments/history.read_office): the
documented variant gives the ratings the database stored, with what the office rates
with besides the files (members' facts, baselines, floors set by hand, merged ids)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from sqlalchemy import insert
from tests.conftest import stored_ratings, write_events
from tests.experiments.reference_chain import rerate as reference

from uscf_ratings.batch.history import HistoryLayout
from uscf_ratings.cli.main import cli
from uscf_ratings.core.variants import Variant
from uscf_ratings.experiments.history import History, HistoryError, read_folder, read_history
from uscf_ratings.experiments.rerate import laid_out, rerate_laid
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office

DOCUMENTED = Variant("documented")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("files")
    write_events(path, 30, seed=5, members=120, sizes=(4, 20))
    return path


def uscf(*args: str) -> str:
    out = CliRunner().invoke(cli, list(args))
    assert out.exit_code == 0, out.output
    return out.output


def filled(tmp: Path, folder: Path, members_csv: str = "", floors: tuple = (),
           merges: tuple = ()) -> str:
    """A database rated from the folder's files as a user fills one: the member list
    first, then the events, then floors set by hand and merges (each re-rates)."""
    url = f"sqlite:///{tmp / 'office.db'}"
    uscf("db", "--db", url, "init")
    if members_csv:
        (tmp / "members.csv").write_text(members_csv)
        uscf("db", "--db", url, "import-members", str(tmp / "members.csv"))
    uscf("db", "--db", url, "rate", *map(str, sorted(folder.iterdir())))
    for member, system, floor, day in floors:
        uscf("db", "--db", url, "set-floor", member, system, str(floor), "--from", day)
    for keep, drop in merges:
        uscf("db", "--db", url, "merge", keep, drop)
    return url


def rerated(history: History) -> dict[tuple[str, int, str, str], float]:
    kept: list = []
    reference(history, DOCUMENTED, keep=kept)
    return {(event, section, member, o.system.value): o.post
            for event, section, member, o in kept}


def _players(folder: Path) -> dict[str, tuple[str, set[tuple[str, int]]]]:
    """Each member's name and the sections it played."""
    found: dict[str, tuple[str, set[tuple[str, int]]]] = {}
    for _, section in read_folder(folder).sections:
        for p in section.players:
            found.setdefault(p.id, (p.name, set()))[1].add((section.start_date.isoformat(),
                                                              section.number))
    return found


def test_a_database_gives_its_stored_ratings_compiled_and_section_by_section(
        folder: Path, tmp_path: Path) -> None:
    """Members' facts (FIDE ratings of a member list) read by Step 1, as the office reads
    them."""
    players = sorted(_players(folder).items())
    lines = ["id,name,fide_rating,fide_date"]
    lines += [f"{m},{name},{1500 + 40 * i},2025-06-01"
              for i, (m, (name, _)) in enumerate(players[::7])]
    url = filled(tmp_path, folder, "\n".join(lines) + "\n")
    history = read_history(url)
    assert history.office.facts
    office = stored_ratings(url)
    assert rerated(history) == office and len(office) > 500
    laid = laid_out(history)
    assert isinstance(laid, HistoryLayout)
    compiled, python = rerate_laid(laid, DOCUMENTED), reference(history, DOCUMENTED)
    assert compiled.keys == python.keys and np.array_equal(compiled.finals, python.finals)
    assert compiled.prediction == python.prediction
    # the facts count: the same files without the member list rate differently
    assert rerated(read_folder(folder)) != office


def test_baselines_floors_and_merges_are_rated_as_the_office_rates_them(
        folder: Path, tmp_path: Path) -> None:
    players = _players(folder)
    ids = sorted(players)
    # two members who never met in a section: one person with two ids
    keep, drop = next((a, b) for a in ids for b in ids
                      if a < b and not players[a][1] & players[b][1])
    first_day = min(day for _, days in players.values() for day, _ in days)
    lines = ["id,name,R_rating,R_games,birth_date"]
    lines += [f"{m},{players[m][0]},{1200 + 25 * i},30,1990-01-01"
              for i, m in enumerate(ids[1::9])]
    floor_day = (min(day for day, _ in players[ids[2]][1]) if players[ids[2]][1]
                 else first_day)
    url = filled(tmp_path, folder, "\n".join(lines) + "\n",
                 floors=((ids[2], "R", 1600, floor_day),), merges=((keep, drop),))
    history = read_history(url)
    office = history.office
    assert office.baselines and office.floors
    assert not any(p.id == drop for _, s in history.sections for p in s.players)
    assert rerated(history) == stored_ratings(url)
    laid = laid_out(history)
    assert laid.python_sections  # the floor set by hand: chosen at the chain's stops
    chained, python = rerate_laid(laid, DOCUMENTED), reference(history, DOCUMENTED)
    assert chained.keys == python.keys and np.array_equal(chained.finals, python.finals)
    assert chained.prediction == python.prediction and chained.movement == python.movement


def test_published_histories_are_refused(folder: Path, tmp_path: Path) -> None:
    url = filled(tmp_path, folder)
    member = next(iter(_players(folder)))
    office = Office(url)
    day = read_folder(folder).sections[0][1].start_date - timedelta(days=30)
    with office.engine.begin() as c:
        c.execute(insert(schema.published_history).values(
            member_id=member, system="R", event_id="201901010001", section=1,
            event_name="e", section_name="s", start_date=day, end_date=day, pre=None,
            post=1500.0, post_games=5, source="test"))
    office.engine.dispose()
    with pytest.raises(HistoryError, match="published histories"):
        read_history(url)


@pytest.mark.parametrize("url, message", [
    ("sqlite:///{tmp}/missing.db", "there is no database at"),
    ("sqlite:///{tmp}/no/such/folder/x.db", "does not exist"),
    ("mysql://somewhere/db", "unknown kind of database"),
])
def test_a_database_that_cannot_be_read_is_named(tmp_path: Path, url: str,
                                                 message: str) -> None:
    given = url.format(tmp=tmp_path)
    with pytest.raises(HistoryError, match=message):
        read_history(given)
    assert not (tmp_path / "missing.db").exists()  # nothing created


def test_the_command_reads_a_database(folder: Path, tmp_path: Path) -> None:
    url = filled(tmp_path, folder)
    spec = tmp_path / "b.toml"
    spec.write_text('[grid]\nbonus_threshold = [10, 14]\n')
    out = CliRunner().invoke(cli, ["experiment", str(spec), "--history", url, "--workers",
                                   "1", "--no-plots", "--out", str(tmp_path / "out")])
    assert out.exit_code == 0, out.output
    assert "bonus_threshold = 14" in out.output
    assert (tmp_path / "out" / "table.md").exists()
    missing = CliRunner().invoke(cli, ["experiment", str(spec), "--history",
                                       f"sqlite:///{tmp_path}/none.db"])
    assert missing.exit_code == 1
    assert missing.output.strip().splitlines()[-1].startswith("Error: sqlite:///")
    assert "Traceback" not in missing.output


def test_a_relative_sqlite_file_in_the_spec_is_beside_the_spec(tmp_path: Path) -> None:
    from uscf_ratings.experiments.spec import read_spec

    (tmp_path / "specs").mkdir()
    spec = tmp_path / "specs" / "b.toml"
    spec.write_text('history = "sqlite:///../office.db"\n[[variant]]\nname = "a"\n')
    assert read_spec(spec).history == f"sqlite:///{tmp_path / 'specs' / '..' / 'office.db'}"
    spec.write_text('history = "sqlite:////abs/office.db"\n[[variant]]\nname = "a"\n')
    assert read_spec(spec).history == "sqlite:////abs/office.db"  # absolute: as given
