"""The office collects garbage less often during long runs, and restores the
collector's thresholds after (office/collector.py)."""

from __future__ import annotations

import gc

import pytest

from uscf_ratings.office.collector import THRESHOLDS, fewer_collections


def test_thresholds_are_raised_inside_and_restored_after_even_on_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_collections():
        assert gc.get_threshold() == THRESHOLDS
        with fewer_collections():  # nested: the outer block's thresholds come back
            pass
        assert gc.get_threshold() == THRESHOLDS
        raise RuntimeError
    assert gc.get_threshold() == before


def test_a_cycle_made_inside_is_still_collected() -> None:
    """Fewer collections, not none: a cycle left inside the block is freed."""
    import weakref

    class Node:
        other: object = None

    with fewer_collections():
        a, b = Node(), Node()
        a.other, b.other = b, a
        alive = weakref.ref(a)
        del a, b
        gc.collect()
        assert alive() is None
