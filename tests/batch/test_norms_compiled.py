"""The compiled norm test (`batch.engine.lineup_norms`, calling core/norms.py's
`highest_norm` compiled) gives `core.norms.player_norm`'s code for every entrant:
eligibility (the least number of games, opponents met at most twice, opponents without
a post-event rating not counted) and the level, over random lineups."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import skip_or_fail

try:
    import numpy as np

    from uscf_ratings.batch.engine import lineup_norms
except ImportError:  # numba and numpy are the optional extra [fast]
    lineup_norms = None  # type: ignore[assignment]

from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.norms import NORM_CODES, player_norm


@pytest.fixture(autouse=True)
def needs_numba() -> None:
    if lineup_norms is None:
        skip_or_fail("the compiled norms need the extra [fast] (numba, numpy)")


#: a section: each entrant's post-event rating (None: none) and games (opponent, score);
#: ratings on a grid of 25 points from 700 to 2700 reach every branch of the table
sections = st.integers(2, 9).flatmap(lambda size: st.tuples(
    st.lists(st.one_of(st.none(), st.integers(28, 108).map(lambda r: 25.0 * r)),
             min_size=size, max_size=size),
    st.lists(st.lists(st.tuples(st.integers(0, size - 1), st.sampled_from((0.0, 0.5, 1.0))),
                      max_size=9), min_size=size, max_size=size)))


@settings(max_examples=400, deadline=None)
@given(sections)
def test_the_compiled_norm_is_player_norms_for_every_entrant(
        section: tuple[list[float | None], list[list[tuple[int, float]]]]) -> None:
    posts, games = section
    first: list[int] = []
    last: list[int] = []
    opponent: list[int] = []
    score: list[float] = []
    for played in games:
        first.append(len(opponent))
        opponent += [o for o, _ in played]
        score += [s for _, s in played]
        last.append(len(opponent))
    post = [math.nan if p is None else p for p in posts]
    # the lineup laid out at row 3 of the records, as a second section's rows would be
    offset = 3
    levels = lineup_norms(np.array([offset], np.int64), np.array([len(posts)], np.int64),
                          np.array([0] * offset + first, np.int64),
                          np.array([0] * offset + last, np.int64),
                          np.array(opponent, np.int64), np.array(score, np.float64),
                          np.array([0.0] * offset + post), DOCUMENTED).tolist()
    assert levels[:offset] == [-1] * offset  # rows of no group chosen: none
    labels = [f"pair {e + 1}" for e in range(len(posts))]
    expected = [player_norm(played, posts, labels, DOCUMENTED).code for played in games]
    assert [NORM_CODES[k] if k >= 0 else None for k in levels[offset:]] == expected
