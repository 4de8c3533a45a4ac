"""A history re-rated under variants (experiments/chain.py, run.py): the documented
variant gives the office's ratings game for game, and where the tasks run does not
change a number."""

from __future__ import annotations

import gc
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from tests.conftest import skip_or_fail, stored_ratings, write_events
from tests.experiments import reference_chain
from tests.office.filled_before import history as office_history

from uscf_ratings.batch.history import SYSTEMS
from uscf_ratings.cli.main import cli
from uscf_ratings.core.model import SectionType, System
from uscf_ratings.core.variants import Variant
from uscf_ratings.experiments.history import HistoryError, Period, history_of, read_history
from uscf_ratings.experiments.rerate import Rerated, laid_out, rerate, rerate_laid
from uscf_ratings.experiments.run import run_experiment
from uscf_ratings.experiments.spec import Spec


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 synthetic events among 150 members (players meet again and again)."""
    path = tmp_path_factory.mktemp("history")
    write_events(path, 40, seed=11, members=150, sizes=(4, 24))
    return path


def office_ratings(folder: Path, tmp: Path) -> dict[tuple[str, int, str, str], float]:
    """Every post-event rating `uscf db rate` stores for the folder's files."""
    url = f"sqlite:///{tmp / 'office.db'}"
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "--db", url, "init"]).exit_code == 0
    out = runner.invoke(cli, ["db", "--db", url, "rate", *map(str, sorted(folder.iterdir()))])
    assert out.exit_code == 0, out.output
    return stored_ratings(url)


def test_the_documented_variant_gives_the_office_s_ratings(folder: Path, tmp_path: Path
                                                           ) -> None:
    kept: list = []
    result = reference_chain.rerate(read_history(folder), Variant("documented"), keep=kept)
    ours = {(event, section, member, o.system.value): o.post
            for event, section, member, o in kept}
    office = office_ratings(folder, tmp_path)
    assert len(ours) == len(office) == result.outcomes > 1000
    assert ours == office  # the same floats: the office's own functions, in its order


def test_a_changed_variant_changes_ratings_and_is_reproducible(folder: Path) -> None:
    history = read_history(folder)
    documented = rerate(history, Variant("documented"))
    b16 = rerate(history, Variant("B = 16", {"bonus_threshold": 16}))
    again = rerate(history, Variant("B = 16", {"bonus_threshold": 16}))
    assert b16.keys == documented.keys  # the same member-systems are rated
    assert not np.array_equal(b16.finals, documented.finals)
    assert np.array_equal(b16.finals, again.finals)
    assert b16.prediction == again.prediction
    # a higher threshold gives fewer bonus points: less flows into the pool
    assert b16.movement.total_change < documented.movement.total_change
    # the games scored are the same games
    assert b16.prediction.overall.games == documented.prediction.overall.games > 500


def test_the_period_keeps_sections_that_start_within_it(folder: Path) -> None:
    whole = read_history(folder)
    days = sorted({s.start_date for _, s in whole.sections})
    middle = Period(days[5], days[-5])
    part = read_history(folder, middle)
    assert 0 < len(part.sections) < len(whole.sections)
    assert all(middle.holds(s.start_date) for _, s in part.sections)


def test_a_bad_file_stops_the_history_naming_it(tmp_path: Path) -> None:
    write_events(tmp_path, 3, seed=2)
    bad = sorted(tmp_path.iterdir())[1]
    bad.write_text(bad.read_text().replace('"W', '"Q', 1))
    with pytest.raises(HistoryError, match=str(bad)):
        read_history(tmp_path)
    with pytest.raises(HistoryError, match="not a folder"):
        read_history(tmp_path / "missing")


def _spec(variants: tuple[Variant, ...]) -> Spec:
    return Spec("test", None, Period(), variants, variants[0].name, System.R)


VARIANTS = (Variant("documented"), Variant("B = 8", {"bonus_threshold": 8}),
            Variant("K 700", {"k_numerator": 700}))


def test_local_processes_give_the_numbers_of_one_process(folder: Path) -> None:
    history = read_history(folder)
    frozen = gc.get_freeze_count()
    pooled = run_experiment(_spec(VARIANTS), history, workers=2)
    # the layout is kept from the collector only while the workers run
    assert gc.get_freeze_count() == frozen
    assert pooled.where == "2 local processes"
    for variant, result in zip(VARIANTS, pooled.results, strict=True):
        alone = rerate(history, variant)
        assert result.variant == variant
        assert np.array_equal(result.finals, alone.finals)
        assert result.prediction == alone.prediction and result.movement == alone.movement


def test_a_dask_cluster_gives_the_numbers_of_local_processes(folder: Path) -> None:
    try:
        from dask.distributed import LocalCluster
    except ImportError:
        skip_or_fail("Dask is the extra [experiments]")
    history = read_history(folder)
    local = run_experiment(_spec(VARIANTS), history, workers=2)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        remote = run_experiment(_spec(VARIANTS), history, scheduler=cluster.scheduler_address)
    assert remote.where.startswith(f"Dask scheduler {cluster.scheduler_address} (2 workers")
    for a, b in zip(local.results, remote.results, strict=True):
        assert a.variant == b.variant
        assert np.array_equal(a.finals, b.finals)
        assert a.prediction == b.prediction and a.movement == b.movement


@pytest.mark.parametrize("variant", [
    Variant("documented"),
    Variant("B = 8, K 700", {"bonus_threshold": 8, "k_numerator": 700}),
    Variant("priority lists", {"initialization": "priority"}),  # Step 1 changes
    Variant("staleness", {"init_z_scale": 250, "init_staleness": 0.1}),
    Variant("established at 20, AF in R only", {"established_after": 20,
                                                "absolute_floor_systems": ["R"]}),
    Variant("narrow", {"pwe_width": 300, "special_cap": 2500, "step_floor": 200}),
], ids=lambda v: v.name)
def test_the_chain_gives_the_reference_s_numbers(folder: Path, variant: Variant) -> None:
    """The laid-out history rated by the engine's chain (batch/chain.py) against the
    reference (tests/experiments/reference_chain.py: each section in turn, by the core's
    functions), which gives the office's ratings: every last rating, every score, every
    change, every award, to the last bit."""
    history = read_history(folder)
    laid = laid_out(history)
    assert any(r.chain for r in laid.step1_rows)  # Step 1 reading the chain's ratings
    assert any(not r.chain for r in laid.step1_rows)
    assert_same(rerate_laid(laid, variant), reference_chain.rerate(history, variant))


def assert_same(chained: Rerated, reference: Rerated) -> None:
    """Every number of the two, to the last bit."""
    assert chained.keys == reference.keys
    assert np.array_equal(chained.finals, reference.finals)
    assert chained.prediction == reference.prediction
    assert chained.movement == reference.movement
    assert chained.outcomes == reference.outcomes
    assert chained.awards == reference.awards


@pytest.mark.parametrize("variant", [Variant("documented"),
                                     Variant("priority lists", {"initialization": "priority"})],
                         ids=lambda v: v.name)
def test_matches_and_ratings_without_n_are_rated_as_the_reference_rates_them(
        variant: Variant) -> None:
    """Two individual matches (rated at the chain's stops by `rate_section`, their match
    changes carried to the second) and a rating given without N, in a synthetic year."""
    history = history_of(office_history(), "the office's migration history")
    assert any(s.type is SectionType.MATCH for _, s in history.sections)
    assert_same(rerate(history, variant), reference_chain.rerate(history, variant))


def test_the_layout_travels_with_what_every_variant_reads_of_it(folder: Path) -> None:
    """`HistoryLayout.with_shared_facts`: the layout a variant's process is sent holds the
    members' sorted keys, the months and the rest already, equal to those a copy of it
    makes again; so each process does not make them for itself."""
    import pickle
    from dataclasses import replace

    laid = laid_out(read_history(folder))
    sent = pickle.loads(pickle.dumps(laid))
    names = ("rated_keys", "slot_systems", "section_months", "row_rule_set", "assigned",
             "python_sections", "model_sections")
    assert all(name in vars(sent) for name in names)
    again = replace(sent)  # the same fields, nothing made yet
    assert not any(name in vars(again) for name in names)
    assert sent.rated_keys[0] == again.rated_keys[0]
    assert np.array_equal(sent.rated_keys[1], again.rated_keys[1])
    assert sent.section_months == again.section_months
    assert np.array_equal(sent.slot_systems, again.slot_systems)
    # a slot's system read from the column is the one its key names
    assert [SYSTEMS[i] for i in sent.slot_systems] == [s for _, s in sent.slots.keys]
    assert np.array_equal(sent.row_rule_set, again.row_rule_set)
    assert np.array_equal(sent.assigned, again.assigned)
    assert (sent.python_sections, sent.model_sections) == (again.python_sections,
                                                           again.model_sections)


def test_the_slots_flag_the_member_systems_with_a_state(folder: Path) -> None:
    """`Slots.rated` and `Slots.own` (a byte a slot): one flag for each slot made, set for
    exactly the member-systems the layout gives a state (a row with a game, a match or a
    foreign event, a state before the history), which `rated_keys` lists too."""
    laid = laid_out(read_history(folder))
    slots = laid.slots
    assert len(slots.rated) == len(slots.own) == len(slots.keys)
    played = (np.asarray(laid.games.last) - np.asarray(laid.games.first)) > 0
    with_state = set(laid.slot[played & (laid.slot >= 0)].tolist()) | laid.other_states
    assert {i for i, flag in enumerate(slots.rated) if flag} == with_state
    assert {i for i, flag in enumerate(slots.own) if flag} == with_state  # no baselines
    assert len(laid.rated_keys[1]) == len(with_state)
