"""The reference path's norm is the kernels' norm, to the last bit, and its explanation
(made on demand: `NormResult.levels`) says the same, for any ratings and any table a
variant may set.

`player_norm` decides the code with `highest_norm`, which goes up from the lowest level
and stops at the first not earned; the explanation tests every level with `norm_units`.
"""

from __future__ import annotations

from dataclasses import fields

from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.norms import (
    LEVEL_COUNT,
    NORM_CODES,
    highest_norm,
    norm_level,
    norm_units,
    player_norm,
)
from uscf_ratings.core.results import LevelCheck, NormResult

ratings = st.one_of(st.integers(100, 2900).map(float),
                    st.floats(100, 2900, allow_nan=False).map(lambda x: round(x, 2)))
constants = st.builds(
    lambda below, above, margin, step: DOCUMENTED._replace(
        norm_table_below=below, norm_table_above=above, norm_margin=margin,
        norm_level_step=step),
    st.sampled_from([400.0, 300.0, 500.0, 250.5]), st.sampled_from([200.0, 100.0, 300.0]),
    st.sampled_from([1.0, 0.5, 0.0, 1.5]), st.sampled_from([200.0, 150.0, 100.0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), min_size=4,
                max_size=9), constants)
def test_the_norm_is_highest_norms(games: list[tuple[float, float]], c) -> None:  # type: ignore[no-untyped-def]
    """Each game against its own opponent: the code is `highest_norm`'s."""
    posts: list[float | None] = [r for r, _ in games]
    norm = player_norm([(i, s) for i, (_, s) in enumerate(games)], posts,
                       [f"pair {i}" for i in range(len(games))], c)
    opponents = sorted(r for r, _ in games)
    best = highest_norm(opponents, len(opponents), sum(s for _, s in games), c)
    assert norm.code == (NORM_CODES[best] if best >= 0 else None)
    # the explanation's levels earned are the lowest ones, the highest of them the code
    earned = [check.earned for check in norm.levels]
    assert earned == sorted(earned, reverse=True)
    assert norm.code == next((check.code for check in reversed(norm.levels) if check.earned),
                             None)
    assert [check.earned for check in norm.levels] == [
        2.0 * c.norm_table_below * (norm.score - c.norm_margin)
        > norm_units(norm_level(i, c), opponents, len(opponents), c)
        for i in range(LEVEL_COUNT)]


def test_the_explanation_is_made_on_demand_and_equal_to_the_test() -> None:
    """The levels are made when first read, once, and hold every field of LevelCheck;
    a NormResult equals one made by its ``__init__`` from the same fields."""
    norm = player_norm([(0, 1.0), (1, 1.0), (2, 0.5), (3, 1.0)], [1500.0, 1400.0, 1600.0, 1300.0],
                       ["a", "b", "c", "d"])
    assert set(vars(norm)) == {f.name for f in fields(NormResult)}
    assert norm == NormResult(**vars(norm))
    assert norm.levels is norm.levels  # made once
    for check in norm.levels:
        assert check == LevelCheck(**vars(check))
    # by hand (titles.md's table), S = 3.5 against 1300, 1400, 1500, 1600:
    # at 1200: 0.375 + 0.25 + 0.125 + 0 = 0.75, S - E = 2.75 > 1, earned;
    # at 1400: 0.75 + 0.5 + 0.375 + 0.25 = 1.875, S - E = 1.625 > 1, earned;
    # at 1600: 1 + 1 + 0.75 + 0.5 = 3.25, S - E = 0.25, not earned: N:3
    assert [c.expected for c in norm.levels[:3]] == [0.75, 1.875, 3.25]
    assert [c.margin for c in norm.levels[:3]] == [2.75, 1.625, 0.25]
    assert norm.code == "N:3"
