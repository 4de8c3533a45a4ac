"""The office collects garbage less often during long runs, and not at all while a
rating loop runs, and restores the collector as it was after (office/collector.py)."""

from __future__ import annotations

import gc
import weakref

import pytest

from uscf_ratings.office.collector import THRESHOLDS, fewer_collections, no_collections


def test_thresholds_are_raised_inside_and_restored_after_even_on_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_collections():
        assert gc.get_threshold() == THRESHOLDS
        with fewer_collections():  # nested: the outer block's thresholds come back
            pass
        assert gc.get_threshold() == THRESHOLDS
        raise RuntimeError
    assert gc.get_threshold() == before


def _cycle() -> weakref.ref[object]:
    """A cycle of two objects, left: a weak reference to one of them."""

    class Node:
        other: object = None

    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_cycle_made_inside_is_still_collected() -> None:
    """Fewer collections, not none: a cycle left inside the block is freed inside it."""
    with fewer_collections():
        alive = _cycle()
        gc.collect()
        assert alive() is None


def test_a_cycle_made_with_the_collector_off_is_freed_by_a_collection_after() -> None:
    with no_collections():
        alive = _cycle()
        assert alive() is not None  # reference counting cannot free a cycle
    gc.collect()
    assert alive() is None


def test_the_collector_is_off_inside_and_as_it_was_after_even_on_an_error() -> None:
    assert gc.isenabled()
    with pytest.raises(RuntimeError), no_collections():
        assert not gc.isenabled()
        with no_collections():  # nested: still off after the inner block
            pass
        assert not gc.isenabled()
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with no_collections():
            pass
        assert not gc.isenabled()  # off before: left off
    finally:
        gc.enable()


def test_a_rerate_runs_with_the_collector_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """`RatingRun.rate_from` rates inside `no_collections`."""
    from uscf_ratings.office import run

    seen: list[bool] = []
    monkeypatch.setattr(run.RatingRun, "_rate_from",
                        lambda self, key: seen.append(gc.isenabled()) or [])
    run.RatingRun.rate_from(object.__new__(run.RatingRun), None)  # type: ignore[arg-type]
    assert seen == [False] and gc.isenabled()
