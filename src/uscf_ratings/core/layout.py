"""Sections read into the record layout of records.py: the one place the procedure's
input is made from the model.

A `Lineup` is what a section brings whatever the pre-event ratings: its entrants (a
member entered twice is one player), their rated games, the rules of each system it is
rated in (`Terms`), and the file's own ratings. `before_rows` then gives each row's
`Before` values from the pre-event ratings chosen (the file's in the reference path;
the ratings office's from its database) and Step 1 (initial.py) for the unrated.
`Columns` gathers lineups and their rows as Python lists; uscf_ratings/batch turns the
same lists into arrays.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import date
from operator import attrgetter
from typing import Any, overload

from .constants import Constants
from .initial import Initial, initial_rating
from .kernels import UNKNOWN
from .model import (
    SCORE,
    KFactor,
    Player,
    Rating,
    Section,
    System,
    rating_fields,
    rating_of_fields,
)
from .records import Before, Games, Terms, fields_holding
from .rules import RuleSet
from .steps import Entrant, rating_of

#: a rated row's `Before` values but the last (rated), in one call: Rating's fields
_READ = ("rating", "games", "wins", "draws", "losses", "events3", "games_above_2200", "peak",
         "floor", "floor_lowered_from", "floor_lowered_to", "olm")
_read = attrgetter(*_READ)
#: where each field is in a rating's fields (`model.rating_fields`), as `FileRatings` keeps them
_FIELD_AT = {f.name: at for at, f in enumerate(fields(Rating))}
_PLAIN_AT = _FIELD_AT["games_known"], _FIELD_AT["match_changes"]
_RATED = (True,)
#: an unrated row after Step 1's R0 and N: no history, no floors
_UNRATED = (None, None, None, None, None, None, None, None, None, False, False)
#: the `Before` fields that are counts (None: UNKNOWN); the others are floats (None: NaN)
#: but for the booleans olm and rated
COUNTS = fields_holding(Before, int)
BeforeRow = tuple[Any, ...]


@dataclass(frozen=True)
class Lineup:
    """A section's entrants and games, and the rules of each system it is rated in.
    Rows are (system, entrant): system g's rows are g * entrants + e."""

    systems: tuple[System, ...]
    terms: tuple[tuple[bool, bool, bool, bool, float, bool], ...]  #: per system, Terms[2:]
    pairs: tuple[int, ...]  #: per entrant: the pair number of its first row
    ids: tuple[str, ...]  #: per entrant: its member id ("" for none)
    names: tuple[str, ...]
    # The games' columns are typed arrays (64-bit, as the records' arrays), never
    # written once made: a lineup travels between processes as their bytes (the checks'
    # and the readers' lineups, office/spool.py and office/prefetch.py: a float object
    # a game to unpickle, else), and the batch engine gathers them by copying.
    first: array[int]  #: per entrant: its games are first[e]:last[e]
    last: array[int]
    opponent: array[int]  #: per game: the opponent's entrant index
    score: array[float]
    #: per entrant: its rated games won and drawn (what the office stores of the event;
    #: counted here, where the games are read, rather than for each rated row)
    won: array[int]
    drawn: array[int]
    #: per row: the file's pre-event rating (None: unrated in that system); a tuple, or
    #: `FileRatings` in a lineup that travels between processes
    ratings: Sequence[Rating | None] = field(repr=False)
    #: by entrant, for those the file leaves unrated in a system: the player Step 1 reads
    unrated: dict[int, Player] = field(repr=False)
    #: the formulas' numbers of the rule set (the same for every system)
    constants: Constants = field(repr=False)

    @property
    def size(self) -> int:
        return len(self.pairs)


class FileRatings(Sequence["Rating | None"]):
    """A lineup's file ratings (`Lineup.ratings`) as they travel between processes:
    pickled as each rating's fields, and made a `Rating` again only when read.

    The office's rating loop takes the lineups of every stored event it rates again from
    its readers (office/prefetch.py), and those of the files it is given from the
    checks (office/spool.py). It reads the file's rating of a member only while the
    database has no state for the member in that system (`core.pre_event.choose`): in a
    long re-rate most are never read, and unpickling each of them as a `Rating` was
    more than half the time of unpickling an event (docs/performance.md)."""

    __slots__ = ("_items",)

    def __init__(self, ratings: Iterable[Rating | None]) -> None:
        #: each rating, or its fields (`model.rating_fields`) once unpickled
        self._items: tuple[Rating | tuple[Any, ...] | None, ...] = tuple(ratings)

    @classmethod
    def _of_items(cls, items: tuple[Rating | tuple[Any, ...] | None, ...]) -> FileRatings:
        made = cls.__new__(cls)
        made._items = items
        return made

    @property
    def items(self) -> tuple[Rating | tuple[Any, ...] | None, ...]:
        """Each rating, or its fields, as held."""
        return self._items

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its ratings' fields (a subclass of `Rating` as itself)."""
        return FileRatings._of_items, (tuple(
            rating_fields(r) if r.__class__ is Rating else r for r in self._items),)

    @overload
    def __getitem__(self, index: int) -> Rating | None: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Rating | None, ...]: ...

    def __getitem__(self, index: int | slice) -> Rating | None | tuple[Rating | None, ...]:
        if isinstance(index, slice):
            return tuple(map(file_rating, self._items[index]))
        return file_rating(self._items[index])

    def __iter__(self) -> Iterator[Rating | None]:
        return map(file_rating, self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence of the same ratings: a lineup is the same lineup whether
        its ratings travelled or not."""
        if not isinstance(other, Sequence) or isinstance(other, str):
            return NotImplemented
        return tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"FileRatings({list(self)!r})"


def file_rating(item: Rating | tuple[Any, ...] | None) -> Rating | None:
    """A rating of `FileRatings` from what it holds (an item of `rating_items`)."""
    return rating_of_fields(*item) if isinstance(item, tuple) else item


def rating_items(ratings: Sequence[Rating | None]) -> Sequence[Rating | tuple[Any, ...] | None]:
    """A lineup's file ratings as held, by row: a `FileRatings` gives each rating's
    fields where it travelled (not made a `Rating`), any other sequence its ratings."""
    return ratings._items if isinstance(ratings, FileRatings) else ratings


def rated_row(rating: Rating) -> BeforeRow:
    """The `Before` values of a rated row (`before_rows`)."""
    return _read(rating) + _RATED


def file_columns(items: Sequence[Rating | tuple[Any, ...]]
                 ) -> tuple[list[tuple[Any, ...]], list[bool]]:
    """The `Before` values of rows whose pre-event rating is the file's, from their
    items of `rating_items` (ratings): a column of values each field (as `rated_row`
    reads them), and per row whether its rating is plain: its N known and no match
    changes (else the caller reads the rating itself, `file_rating`). Fields that
    travelled are read without making the rating, all rows at once: a long history
    reads most file ratings here."""
    held = [item if isinstance(item, tuple) else rating_fields(item) for item in items]
    if not held:
        return [() for _ in range(len(_READ) + 1)], []
    every = list(zip(*held, strict=True))  # by field
    known, changes = every[_PLAIN_AT[0]], every[_PLAIN_AT[1]]
    plain = [bool(k) and not c for k, c in zip(known, changes, strict=True)]
    return [every[_FIELD_AT[name]] for name in _READ] + [_RATED * len(held)], plain


#: the `Before` values of an unrated row before Step 1: R0 and N not known yet
UNRATED_ROW: BeforeRow = (None, None, *_UNRATED)


def lineup(section: Section, rules: RuleSet, systems: tuple[System, ...],
           entrants: Sequence[Entrant]) -> Lineup:
    """The section's lineup (``entrants``: pipeline.merge_entrants of its players)."""
    index = {p.pair: e.position for e in entrants for p in e.rows}
    opponent: list[int] = []
    score: list[float] = []
    last: list[int] = []
    won: list[int] = []
    drawn: list[int] = []
    for e in entrants:
        for p in e.rows:
            for r in p.results:
                s = SCORE.get(r.code)  # None unless played: Result.played, inlined
                if s is not None and r.opponent is not None:
                    opponent.append(index[r.opponent])
                    score.append(s)
        games = score[last[-1] if last else 0:]
        won.append(games.count(1.0))
        drawn.append(games.count(0.5))
        last.append(len(opponent))
    first = [0, *last[:-1]] if last else []
    dual = System.R in systems and System.Q in systems
    half = section.k is KFactor.HALF
    terms = tuple((half, dual and s is System.R, s is System.R, s in rules.absolute_floor_systems,
                   rules.bonus_threshold, rules.bonus_m3_needs_distinct_opponents)
                  for s in systems)
    ratings = tuple(rating_of(e, s) for s in systems for e in entrants)
    size = len(entrants)
    unrated = {row % size: entrants[row % size].first
               for row, rating in enumerate(ratings) if rating is None}
    return Lineup(systems, terms, tuple(e.first.pair for e in entrants),
                  tuple(e.first.id for e in entrants), tuple(e.first.name for e in entrants),
                  array("q", first), array("q", last), array("q", opponent),
                  array("d", score), array("q", won), array("q", drawn), ratings, unrated,
                  rules.constants)


def before_rows(lineup: Lineup, ratings: Sequence[Rating | None],
                players: Mapping[int, Player], rules: RuleSet, end: date
                ) -> tuple[list[BeforeRow], dict[int, Initial]]:
    """Each row's `Before` values from the pre-event ``ratings`` (per row), and Step 1's
    result for each unrated row, by row. ``players`` gives the player Step 1 reads for
    an entrant (default: its first row in the section)."""
    rows: list[BeforeRow] = []
    initials: dict[int, Initial] = {}
    size = lineup.size
    for row, rating in enumerate(ratings):
        if rating is not None:
            rows.append(rated_row(rating))
            continue
        g, e = divmod(row, size)
        player = players.get(e) or lineup.unrated[e]
        initial = initials[row] = initial_rating(player, lineup.systems[g], rules, end)
        rows.append((initial.rating, initial.games, *_UNRATED))
    return rows, initials


@dataclass
class Columns:
    """Lineups and their rows gathered as lists, one group per (section, system)."""

    terms: list[tuple[Any, ...]] = field(default_factory=list)
    rows: list[BeforeRow] = field(default_factory=list)
    #: the formulas' numbers, one record for all the lineups (the kernels take one)
    constants: Constants | None = None
    first: list[int] = field(default_factory=list)
    last: list[int] = field(default_factory=list)
    opponent: list[int] = field(default_factory=list)
    score: list[float] = field(default_factory=list)

    def add(self, lineup: Lineup, rows: Sequence[BeforeRow]) -> int:
        """One lineup with its rows; returns the row of its first entrant."""
        if self.constants is None:
            self.constants = lineup.constants
        elif lineup.constants != self.constants:
            raise ValueError("sections rated together must share the formulas' numbers "
                             "(constants.Constants); rate variants of the rules apart")
        at = len(self.rows)
        base = len(self.opponent)
        size = lineup.size
        first = [base + f for f in lineup.first]
        last = [base + f for f in lineup.last]
        for g, terms in enumerate(lineup.terms):
            self.terms.append((at + g * size, at + (g + 1) * size, *terms))
            self.first += first
            self.last += last
        self.opponent += lineup.opponent
        self.score += lineup.score
        self.rows += rows
        return at

    def records(self) -> tuple[Terms, Before, Games]:
        """The gathered lists as records of lists (None read as NaN or UNKNOWN)."""
        nan = float("nan")
        fields = list(zip(*self.rows, strict=True)) or [()] * len(Before._fields)
        lists: list[Any] = [
            [UNKNOWN if v is None else v for v in values] if name in COUNTS else
            [nan if v is None else v for v in values]
            for name, values in zip(Before._fields, fields, strict=True)]
        before = Before(*lists)
        groups: list[Any] = [list(values) for values in zip(*self.terms, strict=True)] \
            if self.terms else [[] for _ in Terms._fields]
        terms = Terms(*groups)
        return terms, before, Games(self.first, self.last, self.opponent, self.score)
