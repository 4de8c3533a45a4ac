"""The office's compiled path gives each entrant the norm the reference path gives
(`batch.engine.rate_outcomes_and_norms` against `core.pipeline.rate_section`)."""

from __future__ import annotations

import random
from datetime import date

import pytest

from uscf_ratings import synthetic
from uscf_ratings.core.pipeline import rate_section

engine = pytest.importorskip("uscf_ratings.batch.engine",
                             reason="the compiled path needs the [fast] extra (numba)")


@pytest.mark.parametrize("seed", range(6))
def test_compiled_norms_are_the_reference_norms(seed: int) -> None:
    members = synthetic.federation(400, seed)
    rng = random.Random(seed)
    section = synthetic.section(1, rng.sample(list(members), 30), 6, date(2026, 3, 7), rng,
                                "G/90;d30", False)
    reference = {p.pair: p.norm.code for p in rate_section(section).players
                 if p.norm is not None and p.norm.code is not None}
    _, compiled = engine.rate_outcomes_and_norms(section)
    assert compiled == reference
    assert reference  # a section of 30 over 6 rounds earns some norm: the test means something


@pytest.mark.parametrize("seed", range(3))
def test_the_python_fallback_stores_the_compiled_norms(seed: int) -> None:
    """Where the [fast] extra is missing, the office rates lineups in Python and tests the
    norms with core.norms.player_norm (office/norms.py): the same codes as the compiled
    call, on the same lineups."""
    from uscf_ratings.core.layout import before_rows, lineup
    from uscf_ratings.core.pipeline import section_systems
    from uscf_ratings.core.rules import rules_for
    from uscf_ratings.core.steps import merge_entrants
    from uscf_ratings.office.norms import rate_lineups_and_norms as in_python

    members = synthetic.federation(400, seed)
    rng = random.Random(seed)
    section = synthetic.section(1, rng.sample(list(members), 30), 6, date(2026, 3, 7), rng,
                                "G/90;d30", False)
    rules = rules_for(section.start_date)
    laid = lineup(section, rules, section_systems(section, rules),
                  merge_entrants(section.players))
    rows, _ = before_rows(laid, laid.ratings, {}, rules, section.end_date)
    lineups = [(laid, laid.ratings, rows, section.end_date)]
    _, python_codes = in_python(lineups, [True])
    _, compiled_codes = engine.rate_lineups_and_norms(lineups, [True])
    assert python_codes == compiled_codes and python_codes[0]
