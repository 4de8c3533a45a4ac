"""An experiment runs exactly the variants its spec names (issue 37): its ``[[variant]]``
tables and its grid's combinations, nothing added."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.experiments.spec import spec_of

NAMES = st.lists(st.text("abcdefgh ", min_size=1, max_size=8), min_size=1, max_size=5,
                 unique=True)


@settings(max_examples=100, deadline=None)
@given(names=NAMES)
def test_variant_tables_alone_give_exactly_those_variants(names: list[str]) -> None:
    """Before, a spec without a grid ran one more variant, of no name: the product of no
    lists is one empty combination."""
    spec = spec_of({"history": "h", "variant": [{"name": n} for n in names]}, Path("s.toml"))
    assert [v.name for v in spec.variants] == names
    assert spec.baseline == names[0]


@settings(max_examples=50, deadline=None)
@given(names=NAMES, thresholds=st.lists(st.integers(0, 30), min_size=1, max_size=4,
                                        unique=True))
def test_tables_and_a_grid_give_the_tables_then_each_combination(
        names: list[str], thresholds: list[int]) -> None:
    spec = spec_of({"history": "h", "variant": [{"name": n} for n in names],
                    "grid": {"bonus_threshold": thresholds}}, Path("s.toml"))
    assert [v.name for v in spec.variants] == names + [
        f"bonus_threshold = {t}" for t in thresholds]


def test_a_grid_alone_gives_its_combinations() -> None:
    spec = spec_of({"history": "h", "grid": {"bonus_threshold": [8, 12],
                                             "k_numerator": [700, 800]}}, Path("s.toml"))
    assert [dict(v.changes) for v in spec.variants] == [
        {"bonus_threshold": 8.0, "k_numerator": 700.0},
        {"bonus_threshold": 8.0, "k_numerator": 800.0},
        {"bonus_threshold": 12.0, "k_numerator": 700.0},
        {"bonus_threshold": 12.0, "k_numerator": 800.0}]
