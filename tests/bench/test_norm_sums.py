"""The reference path's cheaper norm sums are the kernels' sums, to the last bit.

`player_norm` sums each level's expected score with `level_units` (each opponent's terms
computed once per section) rather than calling `norm_units` and `highest_norm` (which the
compiled paths run). These properties hold the two to the same numbers, bit for bit, for
any ratings and any table a variant may set.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.norms import (
    LEVEL_COUNT,
    NORM_CODES,
    highest_norm,
    level_units,
    norm_level,
    norm_units,
    player_norm,
)

ratings = st.one_of(st.integers(100, 2900).map(float),
                    st.floats(100, 2900, allow_nan=False).map(lambda x: round(x, 2)))
constants = st.builds(
    lambda below, above, margin, step: DOCUMENTED._replace(
        norm_table_below=below, norm_table_above=above, norm_margin=margin,
        norm_level_step=step),
    st.sampled_from([400.0, 300.0, 500.0, 250.5]), st.sampled_from([200.0, 100.0, 300.0]),
    st.sampled_from([1.0, 0.5, 0.0, 1.5]), st.sampled_from([200.0, 150.0, 100.0]))


@settings(max_examples=300, deadline=None)
@given(st.lists(ratings, min_size=0, max_size=12), constants, st.data())
def test_level_units_are_norm_units(opponents: list[float], c, data) -> None:  # type: ignore[no-untyped-def]
    opponents.sort()
    table: dict[float, list[float]] = {}
    if data.draw(st.booleans()):  # a table already holding other players' terms
        level_units(sorted(data.draw(st.lists(ratings, max_size=6))), c, table)
    got = level_units(opponents, c, table)
    assert got == [norm_units(norm_level(i, c), opponents, len(opponents), c)
                   for i in range(LEVEL_COUNT)]


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
    assert [check.earned for check in norm.levels] == [
        2.0 * c.norm_table_below * (norm.score - c.norm_margin)
        > norm_units(norm_level(i, c), opponents, len(opponents), c)
        for i in range(LEVEL_COUNT)]
