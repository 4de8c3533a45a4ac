"""`layout.FileRatings`: a lineup's file ratings as they travel between processes are
the same sequence of ratings, pickled as their fields and made again when read."""

from __future__ import annotations

import pickle
import pickletools
from dataclasses import dataclass
from datetime import date

from uscf_ratings.core.layout import FileRatings, file_columns, rated_row, rating_items
from uscf_ratings.core.model import MatchChange, Rating

EVERY_FIELD = Rating(1712.5, 31, date(2025, 3, 1), 10, 2, 19, 4, 1800.0, 1700.0, None, None,
                     True, 3, (MatchChange(date(2024, 5, 1), -12.5),), False)


@dataclass(frozen=True)
class KeptRating(Rating):
    """A subclass travels as itself (importable, as pickle needs)."""


RATINGS = (None, EVERY_FIELD, Rating(1500.0, 4), None, KeptRating(1300.0, 9))


def test_it_is_the_sequence_of_its_ratings() -> None:
    given = FileRatings(RATINGS)
    assert len(given) == 5
    assert list(given) == list(RATINGS)
    assert given[1] == EVERY_FIELD and given[0] is None and given[-1] == RATINGS[-1]
    assert given[1:3] == RATINGS[1:3]
    assert given == RATINGS and RATINGS == given  # a lineup compares equal either way
    assert given != RATINGS[:4] and given != "not ratings"
    assert hash(given) == hash(RATINGS)


def test_pickled_it_comes_back_equal_at_every_protocol() -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(FileRatings(RATINGS), protocol))
        assert back == RATINGS
        for made, rating in zip(back, RATINGS, strict=True):
            assert type(made) is type(rating)
            assert rating is None or vars(made) == vars(rating)


def test_it_travels_as_the_ratings_fields() -> None:
    """A plain rating is pickled as its values, not as a `Rating`: the process that
    unpickles a lineup makes a rating only where it reads one (office/run.py reads a
    member's file rating only where the database has no state for the member)."""
    sent = pickle.dumps(FileRatings([EVERY_FIELD, None, Rating(1500.0, 4)]))
    names = {arg for _, arg, _ in pickletools.genops(sent) if isinstance(arg, str)}
    assert "FileRatings" in names and "MatchChange" in names  # what it does name
    assert "Rating" not in names and "rating_of_fields" not in names
    back = pickle.loads(sent)
    assert back[0] == EVERY_FIELD and back[0] is not back[0]  # made each time it is read


def test_the_rated_rows_read_from_the_fields_are_the_ratings_own() -> None:
    """`file_columns` reads travelled ratings' `Before` values from their fields, as
    `rated_row` reads them from each rating, a column a field, and says which ratings
    are not plain (N not known, match changes): those the history keeps as ratings."""
    plain = Rating(1500.0, 4, None, 1, 2, 1, 0, None, None, 1450.0, 1400.0, False, 7)
    unknown_n = Rating(1650.25, 20, games_known=False)
    ratings = (EVERY_FIELD, plain, unknown_n, KeptRating(1300.0, 9))
    travelled = pickle.loads(pickle.dumps(FileRatings(ratings)))
    for given in (ratings, FileRatings(ratings), travelled):
        columns, plain_rows = file_columns(rating_items(given))
        assert list(zip(*columns, strict=True)) == [rated_row(r) for r in ratings]
        assert plain_rows == [False, True, False, True]
    # by hand, the field order the kernels read: R, N, W, D, L, events of 3+, games above
    # 2200, peak, floor, lowered from, lowered to, OLM, rated
    columns, _ = file_columns(rating_items(travelled))
    assert [column[1] for column in columns] == [1500.0, 4, 1, 2, 1, 0, 7, None, None,
                                                1450.0, 1400.0, False, True]
    assert file_columns([]) == ([()] * 13, [])
