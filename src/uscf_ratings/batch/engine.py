"""The compiled path: sections laid out as arrays, and the procedure's kernels compiled.

`lay_out` reads sections with the core's own layout (core/layout.py: lineups and their
`Before` rows as lists) and turns the lists into arrays of the record layout
(core/records.py); `rate_columns` runs core/procedure.py's `prepare` and `rate`,
compiled unchanged (batch/compiled.py), one (section, system) per task on all cores.
`outcomes` reads back what the office stores. The reference path (core/pipeline.py) runs
the same kernels over lists and explains them; a test holds the two to 1e-9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from itertools import chain
from typing import Any, cast

import numba
import numpy as np
from numpy.typing import NDArray

from ..core.explanation import stored_outcomes
from ..core.kernels import UNKNOWN
from ..core.layout import COUNTS, BeforeRow, Columns, Lineup, before_rows, lineup
from ..core.model import Rating, Section, System
from ..core.pipeline import PROCEDURE_TYPES, merge_entrants, section_systems
from ..core.records import Before, Final, Games, Prepared, Terms, Trace
from ..core.results import Outcome
from ..core.rules import rules_for
from ..core.validate import check_section
from .compiled import most_games, prepare, rate

#: the section types the compiled path rates (matches and foreign events have their own
#: rules: core/match.py, core/foreign.py)
COMPILED_TYPES = PROCEDURE_TYPES
#: below this many (section, system) groups one thread does the work: waking the other
#: threads costs more than they save, and much more when another process holds the cores
PARALLEL_FROM = 8


@dataclass(frozen=True)
class Laid:
    """Sections laid out as arrays: groups are (section, system), rows (group, entrant)."""

    terms: Terms
    before: Before
    games: Games
    keys: tuple[tuple[int, int, System], ...]  #: (section index, pair, system) per row

    @property
    def player_games(self) -> int:
        """One player's side of one rated game in one system, counted once."""
        return int((_array(self.games.last) - _array(self.games.first)).sum())


def lay_out(sections: Sequence[Section]) -> Laid:
    """Check Swiss and round-robin sections and lay them out with their own ratings."""
    gathered = Columns()
    keys: list[tuple[int, int, System]] = []
    for index, section in enumerate(sections):
        check_section(section)
        rules = rules_for(section.start_date)
        systems = section_systems(section, rules)
        laid = lineup(section, rules, systems, merge_entrants(section.players))
        rows, _ = before_rows(laid, laid.ratings, {}, rules, section.end_date)
        gathered.add(laid, rows)
        keys += [(index, pair, system) for system in systems for pair in laid.pairs]
    return Laid(*arrays(gathered), tuple(keys))


def arrays(gathered: Columns) -> tuple[Terms, Before, Games]:
    """The gathered lists as arrays of the record layout (None read as NaN or UNKNOWN)."""
    fields = len(Before._fields)
    flat = np.fromiter((np.nan if v is None else v for v in chain.from_iterable(gathered.rows)),
                       np.float64, len(gathered.rows) * fields)
    by_field = flat.reshape(-1, fields).T
    values = dict(zip(Before._fields, by_field, strict=True))
    before = Before(**{name: _as(name, column) for name, column in values.items()})
    groups = np.array(gathered.terms, dtype=np.float64).reshape(-1, len(Terms._fields)).T
    terms = Terms(groups[0].astype(np.int64), groups[1].astype(np.int64), groups[2] == 1.0,
                  groups[3] == 1.0, groups[4] == 1.0, groups[5] == 1.0,
                  np.ascontiguousarray(groups[6]), groups[7] == 1.0)
    games = Games(np.array(gathered.first, dtype=np.int64), np.array(gathered.last, np.int64),
                  np.array(gathered.opponent, dtype=np.int64),
                  np.array(gathered.score, dtype=np.float64))
    return terms, before, games


def _as(name: str, column: NDArray[np.float64]) -> NDArray[np.generic]:
    """One `Before` column in its kernel type."""
    typed: NDArray[np.generic]
    if name in ("olm", "rated"):
        typed = column == 1.0
    elif name in COUNTS:
        typed = np.where(np.isnan(column), UNKNOWN, column).astype(np.int64)
    else:
        typed = np.ascontiguousarray(column)
    return typed


def rate_columns(laid: Laid) -> NDArray[np.float64]:
    """Post-event ratings of every row (NaN for a player with no rated game)."""
    return _array(rate_all(laid.terms, laid.before, laid.games)[1].post)


def _array(column: Any) -> NDArray[Any]:
    """A column of the records this module makes: a NumPy array (records.Column types
    the lists of the reference path and the arrays alike)."""
    array: NDArray[Any] = cast(NDArray[Any], column)
    return array


def rate_all(terms: Terms, before: Before, games: Games) -> tuple[Prepared, Final]:
    """`procedure.prepare` and `procedure.rate` for every group, compiled."""
    if len(terms.start) < PARALLEL_FROM:
        done: tuple[Prepared, Final] = _rate_serial(terms, before, games)
        return done
    # allocated apart: Numba's parallel functions do not take tuples of records unpacked
    prepared, step3, step4, step5, final = _records(len(before.r0))
    _rate_parallel(terms, before, games, prepared, step3, step4, step5, final)
    return prepared, final


@numba.njit(cache=True, nogil=True)
def _records(rows: int) -> tuple[Prepared, Trace, Trace, Trace, Final]:
    prepared = Prepared(np.empty(rows), np.zeros(rows, np.bool_), np.zeros(rows, np.bool_),
                        np.zeros(rows, np.int64), np.empty(rows), np.empty(rows), np.empty(rows),
                        np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                        np.zeros(rows, np.int64), np.zeros(rows, np.int64),
                        np.zeros(rows, np.int64), np.zeros(rows, np.int64), np.empty(rows),
                        np.empty(rows), np.empty(rows), np.empty(rows), np.empty(rows))
    traces = [Trace(np.full(rows, np.nan), np.empty(rows), np.empty(rows), np.empty(rows),
                    np.empty(rows), np.empty(rows), np.empty(rows), np.zeros(rows, np.int64),
                    np.zeros(rows, np.bool_), np.zeros(rows, np.bool_)) for _ in range(3)]
    final = Final(np.full(rows, np.nan), np.empty(rows), np.zeros(rows, np.bool_))
    return prepared, traces[0], traces[1], traces[2], final


@numba.njit(cache=True, nogil=True)
def _group(g: int, terms: Terms, before: Before, games: Games, prepared: Prepared,
           step3: Trace, step4: Trace, step5: Trace, final: Final) -> None:
    prepare(g, terms, before, games, prepared)
    room = most_games(g, terms, games)
    rate(g, terms, before, games, prepared, step3, step4, step5, final, np.empty(room),
         np.empty(2 * room + 2))


@numba.njit(cache=True, nogil=True)
def _rate_serial(terms: Terms, before: Before, games: Games) -> tuple[Prepared, Final]:
    """One group after another: for a few groups, where starting threads costs more than
    it saves."""
    prepared, step3, step4, step5, final = _records(len(before.r0))
    for g in range(len(terms.start)):
        _group(g, terms, before, games, prepared, step3, step4, step5, final)
    return prepared, final


@numba.njit(parallel=True, cache=True, nogil=True)
def _rate_parallel(terms: Terms, before: Before, games: Games, prepared: Prepared,
                   step3: Trace, step4: Trace, step5: Trace, final: Final) -> None:
    """One group per task, on all cores."""
    for g in numba.prange(len(terms.start)):
        _group(g, terms, before, games, prepared, step3, step4, step5, final)


def rate_outcomes(section: Section) -> tuple[Outcome, ...]:
    """One checked Swiss or round-robin section through Steps 1-5 and the floors,
    compiled: the numbers the office stores, without the explanations."""
    rules = rules_for(section.start_date)
    laid = lineup(section, rules, section_systems(section, rules),
                  merge_entrants(section.players))
    rows, _ = before_rows(laid, laid.ratings, {}, rules, section.end_date)
    return outcomes(laid, laid.ratings, rows, section.end_date)


def outcomes(laid: Lineup, ratings: Sequence[Rating | None], rows: Sequence[BeforeRow],
             end: date) -> tuple[Outcome, ...]:
    """`core.pipeline.rate_rows`, compiled: a lineup rated from the pre-event ``ratings``
    (per row, with their `Before` values ``rows``), as the office stores it."""
    gathered = Columns()
    gathered.add(laid, rows)
    terms, before, games = arrays(gathered)
    prepared, final = rate_all(terms, before, games)
    return stored_outcomes(laid, ratings, Games(*(_array(c).tolist() for c in games)),
                           Prepared(*(_array(c).tolist() for c in prepared)),
                           Final(*(_array(c).tolist() for c in final)), end)
