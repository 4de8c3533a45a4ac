"""The compiled batch path gives the reference path's ratings (to 1e-9)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from tests.conftest import skip_or_fail

try:
    from uscf_ratings.batch.engine import pack, rate_packed
except ImportError:  # numba and numpy are the optional extra [fast]
    pack = rate_packed = None  # type: ignore[assignment]

from uscf_ratings.core.model import Section, SectionType
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.rules import NoRuleSet
from uscf_ratings.synthetic import events, federation


@pytest.fixture(autouse=True)
def needs_numba() -> None:
    if pack is None:
        skip_or_fail("the batch path needs the extra [fast] (numba, numpy)")


def compare(sections: list[Section]) -> int:
    packed = pack(sections)
    post = rate_packed(packed)
    row = {key: i for i, key in enumerate(packed.keys)}
    compared = 0
    for index, section in enumerate(sections):
        for player in rate_section(section).players:
            for system, rating in player.ratings.items():
                value = post[row[(index, player.pair, system)]]
                if rating.post is None:
                    assert math.isnan(value)
                    continue
                assert value == pytest.approx(rating.post, abs=1e-9)
                compared += 1
    return compared


def test_synthetic_sections() -> None:
    members = federation(800, seed=11)
    sections = [s for e in events(members, 40, seed=11) for s in e.sections]
    assert compare(sections) > 3000


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
    assert compare(sections) > 20000
