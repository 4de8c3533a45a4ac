"""Step 1 in the history engine's chain (batch/chain.py, batch/history.Blend): every kind
of source of the blended initialization (another system of the file or of the chain,
FIDE, CFC, dated or not, a player with or without a birth date) and the priority lists,
over a history that crosses 2020-06-01, under variants of Step 1's own rules. The chain
must give the reference's numbers (tests/experiments/reference_chain.py: the core's
functions, section by section) to the last bit."""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import date, timedelta

import numpy as np
import pytest
from tests.experiments.reference_chain import rerate

from uscf_ratings.batch import chain
from uscf_ratings.core.model import (
    CfcRating,
    Event,
    FideRating,
    InitialRating,
    Player,
    Rating,
    System,
)
from uscf_ratings.core.variants import Variant
from uscf_ratings.experiments.history import History, history_of
from uscf_ratings.experiments.rerate import laid_out as lay_out_history
from uscf_ratings.experiments.rerate import rerate_laid
from uscf_ratings.synthetic import events, federation

#: the synthetic year moved to start here: its sections cross the blended
#: initialization's start (2020-06-01), so both methods of Step 1 are met
MOVED_TO = date(2019, 12, 2)


def _draw(member: str, salt: str) -> int:
    """A number from 0 to 999 fixed by the member: each member keeps its facts in every
    event."""
    return int(hashlib.sha256(f"{salt}{member}".encode()).hexdigest()[:6], 16) % 1000


def _varied(p: Player, start: date) -> Player:
    """The player with some of what real files hold and the synthetic files do not."""
    draw = _draw(p.id, "")
    changes: dict = {}
    if draw % 4 == 0:
        changes["fide"] = FideRating(1300 + _draw(p.id, "fide"),
                                     start - timedelta(days=_draw(p.id, "fd")))
    if draw % 4 == 1:
        changes["fide"] = FideRating(2100 + _draw(p.id, "fide") / 4)  # no date
    if draw % 5 == 0:
        changes["cfc"] = CfcRating(900 + _draw(p.id, "cfc"),
                                   start - timedelta(days=_draw(p.id, "cd") // 2),
                                   canadian_resident=draw % 2 == 0)
    if draw % 6 == 0:
        changes["birth_date"] = None
        changes["adult"] = draw % 12 == 0
    if draw % 7 == 3 and System.R not in p.ratings:  # established at 25, not at 40
        changes["ratings"] = {**p.ratings, System.R: Rating(1400.0 + draw % 300, 30)}
    if draw % 3 == 0:  # the file's ratings carry their dates
        changes["ratings"] = {s: replace(r, date=start - timedelta(days=draw % 200))
                              for s, r in changes.get("ratings", p.ratings).items()}
    if draw % 20 == 7:
        changes["initial"] = {System.R: InitialRating(1234.5, 4)}
    if draw % 20 == 9 and p.birth_date is not None:  # a miscoded birth date: under 3
        changes["birth_date"] = start - timedelta(days=400)
    return replace(p, **changes)


@pytest.fixture(scope="module")
def history() -> History:
    made = list(events(federation(150, 11), 40, 11, sizes=(4, 24)))
    shift = MOVED_TO - made[0].start_date
    moved = []
    for e in made:
        sections = tuple(replace(s, start_date=s.start_date + shift, end_date=s.end_date + shift,
                                 players=tuple(_varied(p, s.start_date + shift)
                                               for p in s.players))
                         for s in e.sections)
        moved.append(replace(e, start_date=e.start_date + shift, end_date=e.end_date + shift,
                             sections=sections))
    return history_of(moved, "the varied history")


def test_the_history_holds_every_kind_of_source(history: History) -> None:
    players = [p for _, s in history.sections for p in s.players]
    assert any(p.fide and p.fide.date for p in players)
    assert any(p.fide and p.fide.date is None for p in players)
    assert any(p.cfc and not p.cfc.canadian_resident for p in players)
    assert any(p.birth_date is None and p.adult for p in players)
    assert any(p.initial for p in players)
    assert any(p.birth_date and (s.end_date - p.birth_date).days < 3 * 365
               for _, s in history.sections for p in s.players)
    starts = [s.start_date for _, s in history.sections]
    assert min(starts) < date(2020, 6, 1) < max(starts)
    laid = lay_out_history(history)
    blend = laid.blend
    assert (blend.slot >= 0).any() and (blend.slot < 0).any()  # the chain's and the file's
    assert (blend.rated_day > 0).any() and (blend.rated_day == 0).any()
    assert np.isinf(blend.games).any()  # FIDE or CFC


@pytest.mark.parametrize("variant", [
    Variant("documented"),
    Variant("blended from 2017", {"initialization": "blended"}),
    Variant("FIDE by the 2017 table, split 2000", {"fide_conversion": "2017",
                                                   "fide_game_factor_split": 2000}),
    Variant("CFC for all, 2017 table", {"cfc_needs_residency": False,
                                        "cfc_conversion": "2017"}),
    Variant("Game Factors 8 and 3, cap 6", {"init_game_factor": 8,
                                            "init_other_game_factor": 3,
                                            "init_games_cap": 6}),
    Variant("staleness", {"init_z_scale": 250, "init_staleness": 0.1, "init_z_cap": 4}),
    Variant("under 3 is adult", {"missing_age_rule": "adult"}),
    # the priority lists' "established" (2017 text, 2.3)
    Variant("established after 40", {"established_after": 40}),
], ids=lambda v: v.name)
def test_compiled_step1_gives_the_python_chain_s_numbers(history: History,
                                                          variant: Variant) -> None:
    compiled_result = rerate_laid(lay_out_history(history), variant)
    python = rerate(history, variant)
    assert compiled_result.keys == python.keys
    assert np.array_equal(compiled_result.finals, python.finals)
    assert compiled_result.prediction == python.prediction
    assert compiled_result.movement == python.movement


def test_blended_rows_are_not_left_to_python(history: History,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Under the blended initialization the loop runs Step 1 itself: the chain stops to
    choose a section's ratings in Python (`chain._choose`) only where Step 1 is by the
    priority lists (before 2020-06-01) and reads a rating of the chain."""
    laid = lay_out_history(history)
    called: list[int] = []
    original = chain._choose

    def counting(laid_, i, *args):  # type: ignore[no-untyped-def]
        called.append(i)
        original(laid_, i, *args)

    monkeypatch.setattr(chain, "_choose", counting)
    rerate_laid(laid, Variant("a Step 1 field changed", {"init_z_scale": 300}))
    assert called and set(called) == set(laid.python_sections)
    assert all(laid.sections[i].start < date(2020, 6, 1) for i in called)
    blended = [r for r in laid.step1_rows if r.end >= date(2020, 6, 1)
               and r.system not in r.player.initial]
    assert any(r.chain for r in blended)  # rows that read the chain, left to the loop


def test_established_after_reaches_step1_of_a_member_new_to_the_history() -> None:
    """An OTB Blitz section of 2019 (2017 text, 2.3: an established Regular rating first,
    FIDE before a Regular rating that is not established). Player 4 is new to the
    history, unrated in Blitz, with a Regular rating on 30 games and FIDE 1800: R0 1500
    (R, N = 10) at the documented 25, 180 + 0.94 x 1800 = 1872 (FIDE, N = 5) at 40. The
    compiled loop must not keep the layout's Step 1, made by the documented rules."""
    from uscf_ratings.core.model import Result, Section

    day = date(2019, 6, 1)
    games = {1: [(2, "W"), (3, "W"), (4, "W")], 2: [(1, "L"), (4, "D"), (3, "D")],
             3: [(4, "D"), (1, "L"), (2, "D")], 4: [(3, "D"), (2, "D"), (1, "L")]}
    players = tuple(
        Player(pair, f"1000000{pair}", f"P{pair}", birth_date=date(1980, 1, 1),
               ratings={System.R: Rating(1500.0, 30)} if pair == 4
               else {System.B: Rating(1500.0, 30)},
               fide=FideRating(1800.0) if pair == 4 else None,
               results=tuple(Result(n, code, opponent)
                             for n, (opponent, code) in enumerate(games[pair], 1)))
        for pair in games)
    section = Section(1, day, day, players, "RR", systems=(System.B,))
    history = history_of([Event("E1", day, day, (section,))], "one section")
    variant = Variant("established after 40", {"established_after": 40})
    compiled_result = rerate_laid(lay_out_history(history), variant)
    python = rerate(history, variant)
    assert np.array_equal(compiled_result.finals, python.finals)
    documented = rerate(history, Variant("documented"))
    assert not np.array_equal(python.finals, documented.finals)  # the rule is reached
