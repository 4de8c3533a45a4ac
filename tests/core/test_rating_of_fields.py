"""`model.rating_of_fields` makes the value ``Rating(...)`` makes, in less time: the same
fields, equal, hashed alike, frozen, and a copy with `dataclasses.replace` or pickle;
`model.player_of_fields` likewise for ``Player(...)``."""

from __future__ import annotations

import inspect
import pickle
from dataclasses import FrozenInstanceError, dataclass, fields, replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from uscf_ratings.core.model import (
    CfcRating,
    FideRating,
    InitialRating,
    MatchChange,
    Player,
    Rating,
    Result,
    System,
    player_of_fields,
    rating_of_fields,
)

counts = st.one_of(st.none(), st.integers(0, 10**6))
ratings = st.one_of(st.none(), st.floats(0, 3000))


def test_it_takes_every_field_of_rating_in_order() -> None:
    """A field added to Rating must be added to rating_of_fields too."""
    assert list(inspect.signature(rating_of_fields).parameters) == [f.name for f in
                                                                     fields(Rating)]


@given(st.tuples(
    st.floats(0, 3000), st.integers(0, 10**6), st.one_of(st.none(), st.dates()), counts, counts,
    counts, counts, ratings, ratings, ratings, ratings, st.booleans(), counts,
    st.lists(st.builds(MatchChange, st.dates(), st.floats(-400, 400)), max_size=2).map(tuple),
    st.booleans()))
def test_it_makes_what_the_class_makes(values: tuple[object, ...]) -> None:
    made = rating_of_fields(*values)  # type: ignore[arg-type]
    expected = Rating(*values)  # type: ignore[arg-type]
    assert type(made) is Rating
    assert vars(made) == vars(expected)
    assert made == expected and hash(made) == hash(expected)
    assert pickle.loads(pickle.dumps(made)) == expected
    assert replace(made, rating=1.0) == replace(expected, rating=1.0)


def test_it_is_frozen() -> None:
    made = rating_of_fields(1500.0, 30, date(2025, 1, 1), None, None, None, None, None, None,
                            None, None, False, None, (), True)
    with pytest.raises(FrozenInstanceError):
        made.rating = 1600.0  # type: ignore[misc]
    assert made.established and not made.all_wins


def test_it_pickles_as_rating_of_fields() -> None:
    """A rating is pickled as `rating_of_fields` and its fields' values (the readers of a
    re-rate send about 46 an event, office/prefetch.py), and comes back equal, at every
    protocol; a subclass keeps its class."""
    rating = Rating(1712.5, 31, date(2025, 3, 1), 10, 2, 19, 4, 1800.0, 1700.0, None, None,
                    True, 3, (MatchChange(date(2024, 5, 1), -12.5),), False)
    function, values = rating.__reduce__()
    assert function is rating_of_fields
    assert values == tuple(getattr(rating, f.name) for f in fields(Rating))
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(rating, protocol))
        assert type(back) is Rating and vars(back) == vars(rating)
    kept = KeptRating(1500.0, 4)
    assert type(pickle.loads(pickle.dumps(kept))) is KeptRating
    assert pickle.loads(pickle.dumps(kept)) == kept


@dataclass(frozen=True)
class KeptRating(Rating):
    """A subclass, pickled by the default way (importable, as pickle needs)."""


def test_player_of_fields_takes_every_field_of_player_in_order() -> None:
    """A field added to Player must be added to player_of_fields too."""
    assert list(inspect.signature(player_of_fields).parameters) == [f.name for f in
                                                                     fields(Player)]


@given(st.tuples(
    st.integers(1, 999), st.text(max_size=8), st.text(max_size=8),
    st.one_of(st.none(), st.dates()), st.one_of(st.none(), st.booleans()),
    st.dictionaries(st.sampled_from(list(System)),
                    st.builds(Rating, st.floats(0, 3000), st.integers(0, 10**6)), max_size=2),
    st.dictionaries(st.sampled_from(list(System)),
                    st.builds(InitialRating, st.floats(0, 3000), st.integers(0, 30)), max_size=1),
    st.one_of(st.none(), st.builds(FideRating, st.floats(1000, 2800),
                                   st.one_of(st.none(), st.dates()))),
    st.one_of(st.none(), st.builds(CfcRating, st.floats(1000, 2800))),
    st.lists(st.builds(Result, st.integers(1, 9), st.sampled_from("WLDX"),
                       st.one_of(st.none(), st.integers(1, 99))), max_size=3).map(tuple)))
def test_player_of_fields_makes_what_the_class_makes(values: tuple[object, ...]) -> None:
    made = player_of_fields(*values)  # type: ignore[arg-type]
    expected = Player(*values)  # type: ignore[arg-type]
    assert type(made) is Player
    assert vars(made) == vars(expected)
    assert made == expected
    assert pickle.loads(pickle.dumps(made)) == expected
    assert replace(made, pair=1000) == replace(expected, pair=1000)
    with pytest.raises(FrozenInstanceError):
        made.pair = 5  # type: ignore[misc]
