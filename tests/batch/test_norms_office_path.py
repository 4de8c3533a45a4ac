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
