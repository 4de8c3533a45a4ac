"""The compiled path (the procedure's kernels compiled) gives the reference path's ratings (to 1e-9)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from tests.conftest import skip_or_fail

try:
    from uscf_ratings.batch.engine import lay_out, rate_columns, rate_outcomes
except ImportError:  # numba and numpy are the optional extra [fast]
    lay_out = rate_columns = rate_outcomes = None  # type: ignore[assignment]

from uscf_ratings.core.model import Section, SectionType
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import outcomes_of
from uscf_ratings.core.rules import NoRuleSet
from uscf_ratings.synthetic import events, federation


@pytest.fixture(autouse=True)
def needs_numba() -> None:
    if lay_out is None:
        skip_or_fail("the batch path needs the extra [fast] (numba, numpy)")


def compare(sections: list[Section]) -> int:
    laid = lay_out(sections)
    post = rate_columns(laid)
    row = {key: i for i, key in enumerate(laid.keys)}
    compared = 0
    for index, section in enumerate(sections):
        for player in rate_section(section).players:
            for system, rating in player.ratings.items():
                value = post[row[(index, player.pair, system)]]
                if rating.post is None or rating.m == 0:  # no new rating: NaN here,
                    assert math.isnan(value)  # the pre-event rating kept by the reference
                    continue
                assert value == pytest.approx(rating.post, abs=1e-9)
                compared += 1
    return compared + compare_outcomes(sections)


def compare_outcomes(sections: list[Section]) -> int:
    """The office's lean path (one section at a time) gives the reference path's stored
    numbers: post-event rating, floor, games and the whole state after the event."""
    compared = 0
    for section in sections:
        lean = {(o.pair, o.system): o for o in rate_outcomes(section)}
        reference = {(o.pair, o.system): o for o in outcomes_of(rate_section(section))}
        assert lean.keys() == reference.keys()
        for key, theirs in reference.items():
            ours = lean[key]
            assert ours.post == pytest.approx(theirs.post, abs=1e-9)
            assert ours.state_after.rating == pytest.approx(theirs.state_after.rating, abs=1e-9)
            peak, expected_peak = ours.state_after.peak, theirs.state_after.peak
            assert (peak is None) == (expected_peak is None)
            assert peak is None or peak == pytest.approx(expected_peak, abs=1e-9)
            rest = ("pre", "pre_games", "games_after", "floor")
            assert [getattr(ours, n) for n in rest] == [getattr(theirs, n) for n in rest]
            same = ("games", "wins", "draws", "losses", "events3", "olm", "games_above_2200",
                    "floor", "floor_lowered_from", "floor_lowered_to", "date", "games_known")
            assert ([getattr(ours.state_after, n) for n in same]
                    == [getattr(theirs.state_after, n) for n in same])
            compared += 1
    return compared


def test_synthetic_sections() -> None:
    members = federation(800, seed=11)
    sections = [s for e in events(members, 80, seed=11) for s in e.sections]
    assert compare(sections) > 6000


def test_real_sections(shared: Path) -> None:
    from uscf_ratings.fidelity.sources import load_all

    sections = []
    for real in load_all(shared):
        if real.section.type in (SectionType.MATCH, SectionType.FIDE_FOREIGN):
            continue
        try:
            rate_section(real.section)
        except (NoRuleSet, ValueError):
            continue
        sections.append(real.section)
    assert compare(sections) > 40000
