"""The compiled path: sections laid out as arrays, and the procedure's kernels compiled.

`lay_out` reads sections with the core's own layout (core/layout.py: lineups and their
`Before` rows as lists) and turns the lists into arrays of the record layout
(core/records.py); `rate_columns` runs core/procedure.py's `prepare` and `rate`,
compiled unchanged (batch/compiled.py), one (section, system) per task on all cores.
`outcomes` reads back what the office stores. The reference path (core/pipeline.py) runs
the same kernels over lists and explains them; a test holds the two to 1e-9.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numpy.typing import NDArray

from ..core.constants import DOCUMENTED, Constants
from ..core.explanation import stored_outcomes
from ..core.kernels import UNKNOWN
from ..core.layout import BeforeRow, Columns, Lineup, before_rows, lineup
from ..core.model import Player, Rating, Result, Section, System
from ..core.norms import NORM_CODES, NORM_ELIGIBLE, norm_rules_for, section_reason
from ..core.pipeline import (
    PROCEDURE_TYPES,
    LineupToRate,
    section_systems,
)
from ..core.records import Before, Column, Final, Games, Prepared, Terms, Trace, fields_holding
from ..core.results import Outcome
from ..core.rules import rules_for
from ..core.steps import merge_entrants
from ..core.validate import check_section
from .compiled import (
    counted_norm_games,
    highest_norm,
    most_games,
    most_meetings,
    norm_eligibility,
    prepare,
    rate,
)

#: the section types the compiled path rates (matches and foreign events have their own
#: rules: core/match.py, core/foreign.py)
COMPILED_TYPES = PROCEDURE_TYPES
#: below this many (section, system) groups one thread does the work: waking the other
#: threads costs more than they save, and much more when another process holds the cores
PARALLEL_FROM = 8
R = TypeVar("R", Terms, Before, Final)


@dataclass(frozen=True)
class Laid:
    """Sections laid out as arrays: groups are (section, system), rows (group, entrant)."""

    terms: Terms
    before: Before
    games: Games
    keys: tuple[tuple[int, int, System], ...]  #: (section index, pair, system) per row
    constants: Constants  #: the formulas' numbers of the sections' rule sets

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
    return Laid(*arrays(gathered), tuple(keys), gathered.constants or DOCUMENTED)


def arrays(gathered: Columns) -> tuple[Terms, Before, Games]:
    """The gathered lists as arrays of the record layout (None read as NaN or UNKNOWN)."""
    games = Games(np.array(gathered.first, np.int64), np.array(gathered.last, np.int64),
                  np.array(gathered.opponent, np.int64), np.array(gathered.score, np.float64))
    return record_of_rows(Terms, gathered.terms), record_of_rows(Before, gathered.rows), games


#: the fields the kernels read as whole numbers (None: UNKNOWN) and as booleans; the
#: others are floats (None: NaN)
_INTEGERS = frozenset(fields_holding(Terms, int) + fields_holding(Before, int))
_BOOLEANS = frozenset(fields_holding(Terms, bool) + fields_holding(Before, bool))


def record_of_rows(record: type[R], rows: Sequence[tuple[Any, ...]]) -> R:
    """Rows of a record's values (one tuple per row or group) as its columns of arrays."""
    fields: tuple[str, ...] = record._fields
    by_field = list(zip(*rows, strict=True)) if rows else [()] * len(fields)
    return record_of_columns(record, by_field)


def record_of_columns(record: type[R], columns: Sequence[Sequence[Any]]) -> R:
    """A record's values given by field (a sequence each) as its columns of arrays."""
    fields: tuple[str, ...] = record._fields
    return record(*(_column(name, values) for name, values in zip(fields, columns,
                                                                   strict=True)))


def _column(name: str, values: Sequence[Any]) -> NDArray[Any]:
    """One field's values as an array of its kernel type."""
    if name in _BOOLEANS:
        return np.array(values, np.bool_)
    integer = name in _INTEGERS
    missing = values.count(None)
    if missing == len(values):  # the usual history field: known for no one
        return np.full(len(values), UNKNOWN if integer else np.nan)
    if missing:  # NumPy reads None as NaN, but slowly
        blank = UNKNOWN if integer else np.nan
        values = [blank if value is None else value for value in values]
    return np.array(values, np.int64 if integer else np.float64)


def rate_columns(laid: Laid) -> NDArray[np.float64]:
    """Post-event ratings of every row (NaN for a player with no rated game)."""
    return _array(rate_all(laid.terms, laid.before, laid.games, laid.constants).post)


def _array(column: Any) -> NDArray[Any]:
    """A column of the records this module makes: a NumPy array (records.Column types
    the lists of the reference path and the arrays alike)."""
    return cast("NDArray[Any]", column)  # a string: NDArray[Any] costs a typing call each time


def rate_all(terms: Terms, before: Before, games: Games, c: Constants) -> Final:
    """`procedure.prepare` and `procedure.rate` for every group, compiled: the event's
    outcome for every row."""
    if len(terms.start) < PARALLEL_FROM:
        done: Final = _rate_serial(terms, before, games, c)
        return done
    # allocated apart: Numba's parallel functions do not take tuples of records unpacked
    prepared, step3, step4, step5, final = outcome_records(len(before.r0))
    _rate_parallel(terms, before, games, prepared, step3, step4, step5, final, c)
    return final


@numba.njit(cache=True, nogil=True)
def outcome_records(rows: int) -> tuple[Prepared, Trace, Trace, Trace, Final]:
    """The records `procedure.prepare` and `procedure.rate` write, for ``rows`` rows
    (every value is written before it is read; Final's post is NaN until rated)."""
    prepared = Prepared(
        n_eff=np.empty(rows), step3=np.empty(rows, np.bool_), special=np.empty(rows, np.bool_),
        prior=np.empty(rows, np.int64), score=np.empty(rows), k=np.empty(rows),
        bonus_threshold=np.empty(rows), most=np.empty(rows, np.int64), peak=np.empty(rows),
        floor_absolute=np.empty(rows),
        floor_peak=np.empty(rows), floor_olm=np.empty(rows))
    traces = [Trace(
        rating=np.empty(rows), unfloored=np.empty(rows), expected=np.empty(rows),
        change=np.empty(rows), bonus=np.empty(rows), r0_adjusted=np.empty(rows),
        score_adjusted=np.empty(rows), p=np.empty(rows, np.int64),
        tie_rule=np.empty(rows, np.bool_), capped=np.empty(rows, np.bool_)) for _ in range(3)]
    final = Final(
        post=np.empty(rows), floor=np.empty(rows), games=np.empty(rows, np.int64),
        wins=np.empty(rows, np.int64), draws=np.empty(rows, np.int64),
        losses=np.empty(rows, np.int64), events3=np.empty(rows, np.int64),
        above_2200=np.empty(rows, np.int64), peak=np.empty(rows),
        olm=np.empty(rows, np.bool_))
    clear_outcomes(rows, prepared, traces[0], traces[1], traces[2], final)
    return prepared, traces[0], traces[1], traces[2], final


@numba.njit(cache=True, nogil=True)
def clear_outcomes(rows: int, prepared: Prepared, step3: Trace, step4: Trace, step5: Trace,
                   final: Final) -> None:
    """Rows 0:rows of the records as `outcome_records` gives them: flags and counts
    zero, ratings NaN (the chain rates every group in the same records, made once for
    the largest, rather than making a group's own)."""
    for i in range(rows):
        prepared.step3[i], prepared.special[i], prepared.prior[i], prepared.most[i] = (
            False, False, 0, 0)
        for trace in (step3, step4, step5):
            trace.rating[i], trace.p[i], trace.tie_rule[i], trace.capped[i] = (
                math.nan, 0, False, False)
        final.post[i], final.olm[i] = math.nan, False
        final.games[i], final.wins[i], final.draws[i] = 0, 0, 0
        final.losses[i], final.events3[i], final.above_2200[i] = 0, 0, 0


@numba.njit(cache=True, nogil=True)
def _group(g: int, terms: Terms, before: Before, games: Games, prepared: Prepared,
           step3: Trace, step4: Trace, step5: Trace, final: Final, c: Constants) -> None:
    prepare(g, terms, before, games, prepared, final, c)
    room = most_games(g, terms, games)
    rate(g, terms, before, games, prepared, step3, step4, step5, final, np.empty(room),
         np.empty(2 * room + 2), c)


@numba.njit(cache=True, nogil=True)
def _rate_serial(terms: Terms, before: Before, games: Games, c: Constants) -> Final:
    """One group after another: for a few groups, where starting threads costs more than
    it saves."""
    prepared, step3, step4, step5, final = outcome_records(len(before.r0))
    for g in range(len(terms.start)):
        _group(g, terms, before, games, prepared, step3, step4, step5, final, c)
    return final


def rate_traced(terms: Terms, before: Before, games: Games, c: Constants
                ) -> tuple[Prepared, tuple[Trace, Trace, Trace], Final]:
    """Groups laid out as arrays (`arrays`) rated compiled, with every step's numbers:
    what the reference path's kernels give (`core.pipeline`), for a caller that needs
    more than the ratings (the privacy adversary of the tests rates a section with 731
    birth dates of a junior in one call)."""
    prepared, step3, step4, step5, final = outcome_records(len(before.r0))
    # the parallel loop writes into the records it is given, and is compiled already for
    # `rate_all` (a new compiled caller of `_group` would compile the procedure again)
    _rate_parallel(terms, before, games, prepared, step3, step4, step5, final, c)
    return prepared, (step3, step4, step5), final


@numba.njit(parallel=True, cache=True, nogil=True)
def _rate_parallel(terms: Terms, before: Before, games: Games, prepared: Prepared,
                   step3: Trace, step4: Trace, step5: Trace, final: Final, c: Constants
                   ) -> None:
    """One group per task, on all cores."""
    for g in numba.prange(len(terms.start)):
        _group(g, terms, before, games, prepared, step3, step4, step5, final, c)


def load() -> None:
    """Load the compiled kernels that `rate_lineups_and_norms` calls from Numba's cache
    now, by rating a section of one game and testing its norms: the first call of a
    compiled function loads its code (about 0.4 s, after the 0.5 s of importing this
    module), and a process that is about to rate many sections can do that while it
    waits for something else (`office.run.load_kernels`)."""
    laid = one_game()
    day = DAY_OF_ONE_GAME
    rows, _ = before_rows(laid, laid.ratings, {}, rules_for(day), day)
    for earn in (True, False):  # a section that earns norms, and one that does not
        rate_lineups_and_norms([(laid, laid.ratings, rows, day)], [earn])


#: the day of `one_game`'s section
DAY_OF_ONE_GAME = date(2025, 1, 4)


def one_game() -> Lineup:
    """The lineup of a Regular section of one game between two members rated 1500, the
    least that runs every compiled kernel once (`load`, `chain.load`)."""
    day = DAY_OF_ONE_GAME
    rated = {System.R: Rating(1500.0, 30)}
    section = Section(1, day, day, (
        Player(1, "1", ratings=rated, results=(Result(1, "W", 2),)),
        Player(2, "2", ratings=rated, results=(Result(1, "L", 1),))), systems=(System.R,))
    return lineup(section, rules_for(day), (System.R,), merge_entrants(section.players))


def rate_outcomes(section: Section) -> tuple[Outcome, ...]:
    """One checked Swiss or round-robin section through Steps 1-5 and the floors,
    compiled: the numbers the office stores, without the explanations."""
    return rate_outcomes_and_norms(section, norms=False)[0]


def rate_outcomes_and_norms(section: Section, norms: bool = True
                            ) -> tuple[tuple[Outcome, ...], dict[int, str]]:
    """`rate_outcomes`, and the norm each entrant earns (its code by the pair number of its
    first row), as the office stores them (`rate_lineups_and_norms`)."""
    rules = rules_for(section.start_date)
    systems = section_systems(section, rules)
    laid = lineup(section, rules, systems, merge_entrants(section.players))
    rows, _ = before_rows(laid, laid.ratings, {}, rules, section.end_date)
    earn = norms and section_reason(section.type, section.online, systems,
                                    section.start_date) is None
    found, codes = rate_lineups_and_norms([(laid, laid.ratings, rows, section.end_date)],
                                          [earn])
    return found[0], codes[0]


def outcomes(laid: Lineup, ratings: Sequence[Rating | None], rows: Sequence[BeforeRow],
             end: date) -> tuple[Outcome, ...]:
    """`core.pipeline.rate_rows`, compiled: a lineup rated from the pre-event ``ratings``
    (per row, with their `Before` values ``rows``), as the office stores it."""
    return rate_lineups([(laid, ratings, rows, end)])[0]


def rate_lineups(lineups: Sequence[LineupToRate]) -> list[tuple[Outcome, ...]]:
    """`core.pipeline.rate_rows` of each lineup, compiled: `outcomes` of each, all in one call
    of the kernels, which is most of the time a small section takes (making the arrays
    and calling compiled code cost about 0.2 ms a call; docs/performance.md). The
    lineups are rated side by side, so none may hold a member another one rates, and
    they share the formulas' numbers (`layout.Columns.add` checks that).

    They are rated in one thread: a few sections side by side are a few hundred rows,
    which Numba's threads rate no faster, and those threads keep a core busy after each
    call, the core the office's readers use beside the loop. In a year's late batch
    (946 calls) the kernels took 1.7 to 2.0 s in one thread against 2.1 to 2.3 s in
    two, and the command used 7 to 8 s less CPU time (docs/performance.md)."""
    return rate_lineups_and_norms(lineups, [False] * len(lineups))[0]


def rate_lineups_and_norms(lineups: Sequence[LineupToRate], earn: Sequence[bool]
                           ) -> tuple[list[tuple[Outcome, ...]], list[dict[int, str]]]:
    """`rate_lineups`, and the norm each entrant earns toward the titles in each lineup
    whose ``earn`` is true (`core.norms.section_reason` gives none), by the pair number of
    its first row: `core.norms.norms_by_pair` from the post-event Regular ratings just
    computed, compiled, in the same call (`lineup_norms`)."""
    gathered = Columns()
    starts = [gathered.add(laid, rows) for laid, _, rows, _ in lineups]
    if gathered.constants is None:
        return [], []
    terms, before, games_arrays = arrays(gathered)
    # the first row of each lineup's Regular group, where its entrants may earn norms
    groups = [-1] * len(lineups)
    for i, ((laid, _, _, end), at, wanted) in enumerate(zip(lineups, starts, earn, strict=True)):
        rules = norm_rules_for(end) if wanted else None
        if rules is not None and rules.system in laid.systems:
            groups[i] = at + laid.systems.index(rules.system) * laid.size
    found: list[dict[int, str]] = [{} for _ in lineups]
    if all(g < 0 for g in groups):
        rated = _rate_serial(terms, before, games_arrays, gathered.constants)
    else:
        chosen = [(g, laid.size) for g, (laid, *_) in zip(groups, lineups, strict=True)
                  if g >= 0]
        rated, levels_found = _rate_serial_and_norms(
            terms, before, games_arrays, gathered.constants,
            np.array([g for g, _ in chosen], np.int64), np.array([n for _, n in chosen], np.int64))
        levels = levels_found.tolist()
        for i, ((laid, *_), g) in enumerate(zip(lineups, groups, strict=True)):
            if g >= 0:
                found[i] = {pair: NORM_CODES[level] for pair, level
                            in zip(laid.pairs, levels[g:g + laid.size], strict=True)
                            if level >= 0}
    final = _lists(rated)
    games = Games(gathered.first, gathered.last, gathered.opponent, gathered.score)
    return [stored_outcomes(laid, ratings, games, final, end, at)
            for (laid, ratings, _, end), at in zip(lineups, starts, strict=True)], found


@numba.njit(cache=True, nogil=True)
def _rate_serial_and_norms(terms: Terms, before: Before, games: Games, c: Constants,
                           groups: NDArray[np.int64], sizes: NDArray[np.int64]
                           ) -> tuple[Final, NDArray[np.int64]]:
    """`_rate_serial`, then `lineup_norms` from the post-event ratings just computed, in
    one call of compiled code (a call costs more than the norms of a section)."""
    rated = _rate_serial(terms, before, games, c)
    return rated, lineup_norms(groups, sizes, games.first, games.last, games.opponent,
                               games.score, rated.post, c)


@numba.njit(cache=True, nogil=True)
def lineup_norms(groups: NDArray[np.int64], sizes: NDArray[np.int64], first: Column[int],
                 last: Column[int], opponent: Column[int], score: Column[float],
                 post: Column[float], c: Constants) -> NDArray[np.int64]:
    """For every row of the Regular groups starting at rows ``groups`` (of ``sizes``
    entrants), the index of the highest norm level the entrant earns (0 = 4th Category),
    else -1; -1 for every other row. `core.norms.player_norm`'s test over the laid-out
    arrays, through the same functions compiled (batch/compiled.py):
    `norm_eligibility`, `counted_norm_games` (``post`` is NaN for no rating) and
    `highest_norm`. A test holds it to `core.norms.section_norms`."""
    levels = np.full(len(post), -1, np.int64)
    ratings = np.empty(len(opponent))  # one scratch row for every player's opponents
    for k in range(len(groups)):
        at = groups[k]
        for row in range(at, at + sizes[k]):
            start, end = first[row], last[row]
            if norm_eligibility(end - start, most_meetings(opponent, start, end),
                                c) != NORM_ELIGIBLE:
                continue
            m, total = counted_norm_games(opponent, score, start, end, post, at, ratings)
            ratings[:m].sort()  # ascending, in place: the order core.norms sums them in
            levels[row] = highest_norm(ratings, m, total, c)
    return levels


def _lists(record: R) -> R:
    """A record of arrays as a record of lists (Python's own numbers, read faster)."""
    return type(record)(*(_array(column).tolist() for column in record))
