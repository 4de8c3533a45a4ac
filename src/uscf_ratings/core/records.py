"""The named record layout that the procedure's kernels read and write (procedure.py).

A section rated in one system is a *group* of rows, one row per player. Each record
below is a structure of columns: each field holds one value per row (per group for
`Terms`, per game for the games' opponents and scores). The reference path
(pipeline.py) fills them with Python lists; the compiled path (uscf_ratings/batch) with
NumPy arrays under the same names, and compiles the same kernels over them.

Missing values take the kernels' plain forms: NaN for a rating or a floor that does not
exist, UNKNOWN (-1) for a history count the source did not give (kernels.py).
"""

from __future__ import annotations

from typing import Any, NamedTuple, Protocol, TypeVar, get_args, get_type_hints

T = TypeVar("T")


class Column(Protocol[T]):
    """One value per row: a list, or a NumPy array in the compiled path."""

    def __getitem__(self, index: int, /) -> T: ...

    def __setitem__(self, index: int, value: T, /) -> None: ...

    def __len__(self) -> int: ...


class Terms(NamedTuple):
    """The rules a group is rated under, one value per group."""

    start: Column[int]  #: the group's first row
    stop: Column[int]  #: one past its last row
    half_k: Column[bool]  #: K = 400/(N' + m/2), the 2004 page's half-K events
    dual_regular: Column[bool]  #: the Regular rating of a dual-rated event (K, section 4.2)
    regular: Column[bool]  #: the Regular system: the OLM floor applies (section 5)
    absolute_floor: Column[bool]  #: the rule set gives AF in this system (section 5)
    bonus_threshold: Column[float]  #: B (section 4.2)
    bonus_m3_distinct: Column[bool]  #: from the 2024 text, m = 3 needs three opponents


class Before(NamedTuple):
    """What each player brings into the event: the pre-event rating and its history, or
    for an unrated player Step 1's R0 and N and no history."""

    r0: Column[float]  #: the pre-event rating, or Step 1's
    n: Column[int]  #: N
    wins: Column[int]
    draws: Column[int]
    losses: Column[int]
    events3: Column[int]  #: events of three or more games
    above_2200: Column[int]  #: games played while established above 2200
    peak: Column[float]  #: the highest established rating recorded before
    floor: Column[float]  #: a floor set by hand (a prize floor)
    lowered_from: Column[float]  #: a computed floor an office lowered (section 7) ...
    lowered_to: Column[float]  #: ... and the value it was lowered to
    olm: Column[bool]  #: an Original Life Master
    rated: Column[bool]  #: False: unrated, and r0 and n are Step 1's


class Games(NamedTuple):
    """The rated games (W, L, D). Row i's games are first[i]:last[i]; the rows of one
    player in several systems share them."""

    first: Column[int]
    last: Column[int]
    opponent: Column[int]  #: per game: the opponent's place in the group (its row - start)
    score: Column[float]  #: per game: 1, 0.5 or 0


class Prepared(NamedTuple):
    """Steps 1 and 2's numbers, and what Steps 3-5 and the floors read (per row)."""

    n_eff: Column[float]  #: N' (Step 2)
    step3: Column[bool]  #: unrated with N = 0: first estimated in Step 3
    special: Column[bool]  #: the special formula (Step 4's choice)
    prior: Column[int]  #: kernels.PRIOR_NONE, PRIOR_ALL_WINS or PRIOR_ALL_LOSSES
    score: Column[float]  #: S
    k: Column[float]  #: K (0 without games)
    bonus_threshold: Column[float]  #: B where the player may earn a bonus, else NaN
    #: the most games against one opponent: the bonus (section 4.2) and a norm toward a
    #: title (core/norms.py) each allow two
    most: Column[int]
    peak: Column[float]  #: the peak before the new rating (section 5)
    floor_absolute: Column[float]  #: AF, or 100
    floor_peak: Column[float]  #: NaN: none
    floor_olm: Column[float]  #: NaN: none


class Trace(NamedTuple):
    """One of Steps 3, 4 and 5 (per row): the rating and the formula's intermediate
    values, which the reference path turns into the explanation."""

    rating: Column[float]  #: after the floor of 100 that follows each step; NaN: no step
    unfloored: Column[float]  #: the formula's result
    expected: Column[float]  #: E (standard formula)
    change: Column[float]  #: K(S - E)
    bonus: Column[float]
    r0_adjusted: Column[float]  #: R0' (special formula)
    score_adjusted: Column[float]  #: S'
    p: Column[int]
    tie_rule: Column[bool]  #: the p = 0 rule moved M
    capped: Column[bool]  #: the 2700 cap applied


class Final(NamedTuple):
    """The event's outcome (per row): the post-event rating and the state a later event
    starts from. `procedure.prepare` writes the history and the floor, `procedure.rate`
    the rest; NaN post for a player without a rated game."""

    post: Column[float]  #: Step 5's rating held by the floor
    floor: Column[float]  #: the highest floor (section 5), a floor set by hand included
    games: Column[int]  #: N after the event
    wins: Column[int]  #: the history counts after the event
    draws: Column[int]
    losses: Column[int]
    events3: Column[int]
    above_2200: Column[int]
    peak: Column[float]  #: the peak once the new rating counts
    olm: Column[bool]


def fields_holding(record: type, kind: type) -> tuple[str, ...]:
    """The fields of ``record`` whose columns hold ``kind`` values (int, float or bool),
    read from their annotations: the one list of each record's types."""
    hints = get_type_hints(record)
    return tuple(name for name in hints if get_args(hints[name]) == (kind,))


def columns(record: type[T], rows: int, value: Any = 0.0) -> T:
    """A record of Python lists, each of ``rows`` copies of ``value``."""
    fields: tuple[str, ...] = record._fields  # type: ignore[attr-defined]
    return record(*([value] * rows for _ in fields))
