"""The rating loop's pre-event ratings (office/run.py `lineup_pre_event`): each row's is
`choose`'s, and the loop reads a row's file rating only where `choose` reads it, since
a lineup's file ratings are made when read (`layout.FileRatings`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from typing import overload

import pytest

from uscf_ratings.core.layout import lineup
from uscf_ratings.core.model import Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import merge_entrants
from uscf_ratings.core.pre_event import choose, lineup_pre_event, reads_given
from uscf_ratings.core.rules import rules_for
from uscf_ratings.office.defaults import PreRatings

START = date(2025, 6, 7)
FILE = {"A": Rating(1500.0, 30), "B": Rating(1400.0, 12), "C": Rating(1600.0, 40)}
#: the database has rated A (rounds to the file's rating) and C (does not), not B
KNOWN = {("A", System.R): Rating(1500.2, 34, date(2025, 5, 1), wins=20, draws=4, losses=10),
         ("C", System.R): Rating(1650.0, 44, date(2025, 5, 1))}


class Recorded(Sequence[Rating | None]):
    """File ratings that record which rows are read."""

    def __init__(self, ratings: Sequence[Rating | None]) -> None:
        self.ratings, self.read = tuple(ratings), set[int]()

    @overload
    def __getitem__(self, index: int) -> Rating | None: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Rating | None]: ...

    def __getitem__(self, index: int | slice) -> Rating | None | Sequence[Rating | None]:
        assert isinstance(index, int), "the loop reads rows one by one"
        self.read.add(index)
        return self.ratings[index]

    def __len__(self) -> int:
        return len(self.ratings)

    def __iter__(self) -> Iterator[Rating | None]:
        raise AssertionError("the loop reads rows one by one")


def section() -> Section:
    """A, B, C and a player with no member id, in a round of two games (R only)."""
    ids = ["A", "B", "C", ""]
    players = tuple(
        Player(pair, ids[pair - 1], f"Player {pair}",
               ratings={System.R: FILE[ids[pair - 1]]} if ids[pair - 1] else
               {System.R: Rating(1450.0, 20)},
               results=(Result(1, "W" if pair % 2 else "L", pair + 1 if pair % 2 else pair - 1),))
        for pair in (1, 2, 3, 4))
    return Section(1, START, START, players, systems=(System.R,))


@pytest.mark.parametrize("mode", list(PreRatings))
def test_each_row_is_choose_s_and_the_file_is_read_where_choose_reads_it(
        mode: PreRatings) -> None:
    s = section()
    laid = lineup(s, rules_for(START), (System.R,), merge_entrants(s.players))
    recorded = Recorded(laid.ratings)
    travelled = type(laid)(**{**vars(laid), "ratings": recorded})
    ratings, players = lineup_pre_event(travelled, laid.ids, dict(KNOWN), {}, {}, START, mode)
    assert players == {}  # every row is rated, in the file or the database
    for row, member in enumerate(laid.ids):
        if member:
            assert ratings[row] == choose(KNOWN.get((member, System.R)), laid.ratings[row],
                                          mode)
        else:  # no member id: the file's rating
            assert ratings[row] == laid.ratings[row]
    # by hand: the database's state wins by default; the file's is read for B (no state)
    # and for the player with no member id; the other modes read every file rating
    expected = {1, 3} if mode is PreRatings.DATABASE else {0, 1, 2, 3}
    assert recorded.read == expected
    assert [reads_given(KNOWN.get((m, System.R)), mode) for m in "ABC"] == \
        [mode is not PreRatings.DATABASE, True, mode is not PreRatings.DATABASE]
    if mode is PreRatings.DATABASE:
        assert ratings[0] is KNOWN[("A", System.R)] and ratings[2] is KNOWN[("C", System.R)]
