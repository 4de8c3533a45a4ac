"""Where each row's pre-event rating comes from when several sections are laid out in
one call (`batch.history.lay_out`): a member-system has a state in the chain before a
section if it had one before the call, or an earlier section of the call rated it (a row
with a game, or a match). Checked by hand on four small sections."""

from __future__ import annotations

from datetime import date

import numpy as np

from uscf_ratings.batch.history import Slots, Starting, ToRate, lay_out
from uscf_ratings.core.layout import lineup
from uscf_ratings.core.model import Player, Rating, Result, Section, SectionType, System
from uscf_ratings.core.pipeline import section_systems
from uscf_ratings.core.rules import rules_for
from uscf_ratings.core.steps import merge_entrants

DAY = date(2024, 3, 2)


def _section(number: int, players: tuple[Player, ...],
             kind: SectionType = SectionType.SWISS) -> ToRate:
    section = Section(number, DAY, DAY, players, type=kind, systems=(System.R,))
    if kind is SectionType.MATCH:
        return ToRate("E", number, DAY, DAY, None, section)
    rules = rules_for(DAY)
    laid = lineup(section, rules, section_systems(section, rules),
                  merge_entrants(section.players))
    return ToRate("E", number, DAY, DAY, laid)


def _player(pair: int, member: str, opponent: int | None, code: str,
            rating: float | None = None) -> Player:
    ratings = {System.R: Rating(rating, 10)} if rating is not None else {}
    result = Result(1, code, opponent)
    return Player(pair, member, member, ratings=ratings, results=(result,))


def test_a_state_from_an_earlier_section_of_the_call_is_the_chains() -> None:
    # 1: A (the file rates 1500) beats B (unrated); C's round is a bye: no rated game
    first = _section(1, (_player(1, "A", 2, "W", 1500.0), _player(2, "B", 1, "L"),
                         _player(3, "C", None, "B")))
    # 2: a match of D and E (section 7): rated at a stop, from its model
    match = _section(2, (_player(1, "D", 2, "D", 1600.0), _player(2, "E", 1, "D", 1400.0)),
                     SectionType.MATCH)
    # 3: A, B, C, D and F, each given a rating by the file
    last = _section(3, (_player(1, "A", 2, "W", 1510.0), _player(2, "B", 1, "L", 1300.0),
                        _player(3, "C", 4, "D", 1200.0), _player(4, "D", 3, "D", 1650.0),
                        _player(5, "F", None, "B", 1700.0)))
    slots = Slots()
    laid = lay_out([first, match, last], Starting(), slots)
    assert laid.section_rows.tolist() == [0, 3, 3]  # the match has no rows
    # in 1, A's rating is the file's, B's is Step 1's, C (a bye) has Step 1's too
    # in 3, A and B were rated in 1 and D by the match: the chain's; C played no rated
    # game in 1 and F is new: the file's
    assert laid.from_file.tolist() == [True, False, False,
                                       False, False, True, False, True]
    assert laid.step1.tolist() == [False, True, True] + [False] * 5
    assert [r.member for r in laid.step1_rows] == ["B", "C"]
    assert not laid.python.any()
    assert laid.given.r0[[0, 5, 7]].tolist() == [1500.0, 1200.0, 1700.0]
    assert np.isnan(laid.given.r0[[3, 4, 6]]).all()  # the chain's: read in the loop
    # after the call, every member-system with a rated game in it has a state: C's
    # came in 3 (a draw with D); F had only a bye
    rated = {key for key, flag in zip(slots.keys, slots.rated, strict=True) if flag}
    assert rated == {(m, System.R) for m in "ABCDE"}


def test_a_state_before_the_call_is_the_chains_from_its_first_section() -> None:
    """A member-system with a state before the call (the office's) reads it in the first
    section; one that first plays later in the call reads the file's until then."""
    given = {("A", System.R): Rating(1490.0, 30)}
    only = _section(1, (_player(1, "A", 2, "W", 1500.0), _player(2, "B", 1, "L", 1450.0)))
    laid = lay_out([only], Starting(given, frozenset(given)), Slots())
    assert laid.from_file.tolist() == [False, True]
    assert not laid.step1.any()
