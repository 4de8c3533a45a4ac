"""The norms and titles each variant awards (experiments/awards.py): the compiled chain
computes them with core/norms.py's own kernels, compiled, and gives the reference path's
counts exactly; a lower margin awards at least as many."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import write_events
from tests.core.test_title_status import event, histories

from uscf_ratings.batch.compiled import KERNELS, NORM_ORDER
from uscf_ratings.batch.history import HistoryLayout
from uscf_ratings.core import norms as norm_rules
from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.model import Rating, System
from uscf_ratings.core.norms import NORM_CODES
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.pre_event import PreRatings, prepare
from uscf_ratings.core.results import outcomes_of
from uscf_ratings.core.titles import TitleEvent, title_status
from uscf_ratings.core.variants import Variant
from uscf_ratings.experiments.awards import TITLE_KEYS, Awards, could_hold
from uscf_ratings.experiments.history import History, read_history
from uscf_ratings.experiments.rerate import laid_out, rerate, rerate_laid
from uscf_ratings.office.run import member_ids


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> History:
    """25 synthetic events among 120 members, who meet again and again."""
    path = tmp_path_factory.mktemp("history")
    write_events(path, 25, seed=5, members=120, sizes=(4, 20))
    return read_history(path)


@pytest.fixture(scope="module")
def laid(history: History) -> HistoryLayout:
    return laid_out(history)


def reference(history: History, variant: Variant) -> Awards:
    """Each section rated by `rate_section` in the office's order, from the ratings the
    sections before it gave (core.pre_event.prepare), its players' norms counted from
    `PlayerResult.norm`, and each member's Regular sections through `title_status`."""
    c = variant.constants
    states: dict[tuple[str, System], Rating] = {}
    levels: Counter[str] = Counter()
    events: dict[str, list[TitleEvent]] = {}
    for event_id, section in history.sections:
        ids = member_ids(section, {})
        result = rate_section(prepare(section, ids, states, {}, {}, PreRatings.DATABASE),
                              variant.rules_for(section.start_date))
        norms = {}
        for player in result.players:
            assert player.norm is not None
            if player.norm.code is not None:
                levels[player.norm.code] += 1
            norms[player.pair] = player.norm.code
        for o in outcomes_of(result):
            member = ids.get(o.pair)
            if member is None:
                continue
            states[(member, o.system)] = o.state_after
            if o.system is System.R:
                events.setdefault(member, []).append(TitleEvent(
                    section.end_date, event_id, section.number, norms.get(o.pair), o.post,
                    o.state_after.established_after(c.established_after), o.state_after.olm))
    held: Counter[str] = Counter(t.key for member_events in events.values()
                                 for t in title_status(member_events, c=c).titles)
    return Awards(tuple(levels[code] for code in NORM_CODES),
                  tuple(held[key] for key in TITLE_KEYS))


@pytest.mark.parametrize("variant", [
    Variant("documented"),
    Variant("margin 0.5, 3 norms", {"norm_margin": 0.5, "title_norms": 3.0}),
    Variant("levels from 1000 by 250", {"norm_lowest_level": 1000.0,
                                        "norm_level_step": 250.0, "norm_min_games": 3.0}),
], ids=lambda v: v.name)
def test_compiled_counts_are_the_reference_s(history: History, laid: HistoryLayout,
                                             variant: Variant) -> None:
    expected = reference(history, variant)
    assert sum(expected.norms) > 30 and sum(1 for n in expected.norms if n) >= 3
    assert sum(expected.titles) > 0
    assert rerate_laid(laid, variant).awards == expected
    assert rerate(history, variant).awards == expected


def test_the_norm_kernels_are_core_s_compiled() -> None:
    """The chain runs core/norms.py's functions, compiled: the same code objects."""
    for name, compiled in {name: KERNELS[name] for name in NORM_ORDER}.items():
        assert compiled.py_func.__code__ is getattr(norm_rules, name).__code__


def _counting(awards: Awards) -> list[int]:
    """Norms counting at each level: a norm at a higher level counts at the lower ones
    (titles.md), as they count toward titles."""
    return [sum(awards.norms[i:]) for i in range(len(NORM_CODES))]


def test_a_margin_of_half_a_point_awards_at_least_as_many(laid: HistoryLayout) -> None:
    documented = rerate_laid(laid, Variant("documented"))
    half = rerate_laid(laid, Variant("margin 0.5", {"norm_margin": 0.5}))
    assert (half.finals == documented.finals).all()  # the margin moves no rating
    assert all(a >= b for a, b in zip(_counting(half.awards), _counting(documented.awards),
                                      strict=True))
    assert sum(half.awards.norms) > sum(documented.awards.norms)
    norms_titles = len(NORM_CODES)  # TITLE_KEYS: the norms titles first
    assert all(a >= b for a, b in zip(half.awards.titles[:norms_titles],
                                      documented.awards.titles[:norms_titles], strict=True))


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 3.0]), min_size=2, max_size=2,
                unique=True))
def test_a_lower_margin_never_awards_fewer(laid: HistoryLayout, margins: list[float]) -> None:
    low, high = sorted(margins)
    lower = rerate_laid(laid, Variant("low", {"norm_margin": low})).awards
    higher = rerate_laid(laid, Variant("high", {"norm_margin": high})).awards
    assert all(a >= b for a, b in zip(_counting(lower), _counting(higher), strict=True))


@given(histories, st.sampled_from((3.0, 5.0)))
def test_a_member_could_hold_failed_holds_no_title(
        history: list[tuple[str | None, float, bool, bool]], norms: float) -> None:
    """`could_hold` only skips members to whom `title_status` gives no title. (rerate._awards
    asks the same of every slot at once; `test_compiled_counts_are_the_reference_s` holds
    its counts to the reference, which sends every member through `awards_of`.)"""
    c = DOCUMENTED._replace(title_norms=norms)
    events = [event(1 + n % 28, norm, rating, established, olm)
              for n, (norm, rating, established, olm) in enumerate(history)]
    assert could_hold(events, c) or not title_status(events, c=c).titles
