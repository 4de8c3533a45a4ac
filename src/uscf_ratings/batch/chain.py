"""The one chain that rates a history in order: the office's rating, its re-rates and
late batches, and every variant of `uscf experiment`.

The history is laid out as columns (history.py). The loop walks its groups in rating
order, compiled (`run_groups`): each group's `Before` rows are read from the chain's
state (one place per member-system, a slot), from the file, from Step 1 (the blended
initialization computed here, from the file or the chain's state of that moment) or from
what a stop chose; the procedure's own kernels, compiled (batch/compiled.py: `prepare`,
`rate`), rate the group; its outcomes become the state a later group reads, and are
kept for the office to store (`Outputs`), scored for an experiment (`Scored`) and tested
for norms toward the titles (core/norms.py's kernels, compiled).

The loop stops where the core's Python functions decide (`rate_history`): before a
Python section, whose pre-event ratings `core.pre_event.lineup_pre_event` and
`core.layout.before_rows` choose from the state of that moment (history.py says which
sections those are); before a match or a foreign FIDE event, which
`core.pipeline.rate_section` rates from its model; and, for an experiment, at each
month's end. What the arrays do not hold of a state (whether N was known, the match
changes) is carried beside them (`_Extras`). A test holds the chain to the reference
path, rating each section of a history one by one, to the bit.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

import numba
import numpy as np
from numpy.typing import NDArray

from ..core.constants import Constants
from ..core.initial import initial_rating
from ..core.kernels import UNKNOWN
from ..core.layout import before_rows
from ..core.model import MatchChange, Rating, System, rating_of_fields
from ..core.norms import NORM_CODES, NORM_ELIGIBLE
from ..core.pipeline import rate_section
from ..core.pre_event import lineup_pre_event, prepare
from ..core.records import Before, Final, Games, Terms
from ..core.results import Outcome, outcomes_of
from ..core.rules import RULE_SETS, RuleSet
from ..core.variants import DOCUMENTED_RULES, STEP1_FIELDS, Variant
from .compiled import (
    age_rating,
    blended_average,
    counted_norm_games,
    highest_norm,
    most_meetings,
    norm_eligibility,
    rate,
    source_weight,
)
from .compiled import prepare as prepare_kernel
from .engine import clear_outcomes, outcome_records
from .history import SYSTEMS, Blend, HistoryLayout, Starting


class State(NamedTuple):
    """The chain's state after each member-system's last section (one place per slot),
    as the `Before` values a later section reads (``rated`` False: no state yet)."""

    values: Before
    day: NDArray[np.int64]  #: the state's date, an ordinal (0: none)
    own: NDArray[np.bool_]  #: rated by the office (not a baseline): history.Starting.own


class Rows(NamedTuple):
    """Where each row's pre-event rating comes from, and Step 1's numbers."""

    slot: NDArray[np.int64]
    from_file: NDArray[np.bool_]
    step1: NDArray[np.bool_]
    blended: NDArray[np.bool_]  #: Step 1 is the blended initialization, computed here
    under_3_adult: NDArray[np.bool_]  #: the age-based rating's rule for an age under 3
    python: NDArray[np.bool_]  #: chosen at a stop: read from ``chosen``
    step1_r0: NDArray[np.float64]
    step1_n: NDArray[np.int64]


class Outputs(NamedTuple):
    """What the office stores of each row (an entrant in a system) with a rated game:
    the pre-event rating (NaN: unrated), the event's outcome and the state after it
    (the floors set by hand or lowered carried on from before it), and the norm level
    earned (-1: none). ``post`` is NaN for a row without a rated game."""

    pre: NDArray[np.float64]
    pre_games: NDArray[np.int64]
    post: NDArray[np.float64]
    games: NDArray[np.int64]
    floor: NDArray[np.float64]
    wins: NDArray[np.int64]
    draws: NDArray[np.int64]
    losses: NDArray[np.int64]
    events3: NDArray[np.int64]
    above_2200: NDArray[np.int64]
    peak: NDArray[np.float64]
    olm: NDArray[np.bool_]
    by_hand: NDArray[np.float64]
    lowered_from: NDArray[np.float64]
    lowered_to: NDArray[np.float64]
    norm: NDArray[np.int64]


class Scored(NamedTuple):
    """What an experiment's scores read (experiments/scores.py), filled as the chain
    goes; ``filled`` holds how many games, changes and rated player-systems are filled."""

    pre_a: NDArray[np.float64]
    pre_b: NDArray[np.float64]
    provisional: NDArray[np.bool_]
    y: NDArray[np.float64]
    changes: NDArray[np.float64]
    filled: NDArray[np.int64]


class Awarded(NamedTuple):
    """Each rated row of a Regular group, as the loop meets them: its slot (-1: no
    member), group, norm (the level's index, -1: none), post-event rating, N after and
    OLM flag; ``filled[0]`` rows are filled."""

    slot: NDArray[np.int64]
    group: NDArray[np.int64]
    norm: NDArray[np.int64]
    post: NDArray[np.float64]
    games: NDArray[np.int64]
    olm: NDArray[np.bool_]
    filled: NDArray[np.int64]


class Keep(NamedTuple):
    """What the loop keeps besides the state: the office's outputs, an experiment's
    scores and awards."""

    outputs: bool
    scores: bool
    awards: bool


# --- the compiled loop ------------------------------------------------------------------


@numba.njit(cache=True, nogil=True)
def _norm(i: int, played: Games, final: Final, c: Constants) -> int:
    """Row ``i``'s norm, as core.norms.player_norm decides it, through the same
    functions compiled."""
    first, last = played.first[i], played.last[i]
    most = most_meetings(played.opponent, first, last)
    if norm_eligibility(last - first, most, c) != NORM_ELIGIBLE:
        return -1
    opponents = np.empty(last - first)
    m, score = counted_norm_games(played.opponent, played.score, first, last, final.post, 0,
                                  opponents)
    return highest_norm(np.sort(opponents[:m]), m, score, c)  # type: ignore[no-any-return]


@numba.njit(cache=True, nogil=True)
def unrated(size: int) -> Before:
    """``size`` rows of an unrated player with no history: counts UNKNOWN, ratings and
    floors NaN."""
    counts = [np.full(size, UNKNOWN, np.int64) for _ in range(6)]
    floats = [np.full(size, np.nan) for _ in range(5)]
    return Before(r0=floats[0], n=counts[0], wins=counts[1], draws=counts[2],
                  losses=counts[3], events3=counts[4], above_2200=counts[5], peak=floats[1],
                  floor=floats[2], lowered_from=floats[3], lowered_to=floats[4],
                  olm=np.zeros(size, np.bool_), rated=np.zeros(size, np.bool_))


@numba.njit(cache=True, nogil=True)
def _copy(to: Before, i: int, source: Before, j: int) -> None:
    """Row ``j`` of ``source`` into row ``i`` of ``to``."""
    to.r0[i], to.n[i], to.wins[i], to.draws[i] = (source.r0[j], source.n[j], source.wins[j],
                                                  source.draws[j])
    to.losses[i], to.events3[i] = source.losses[j], source.events3[j]
    to.above_2200[i], to.peak[i], to.floor[i] = (source.above_2200[j], source.peak[j],
                                                 source.floor[j])
    to.lowered_from[i], to.lowered_to[i] = source.lowered_from[j], source.lowered_to[j]
    to.olm[i], to.rated[i] = source.olm[j], source.rated[j]


@numba.njit(cache=True, nogil=True)
def _before(before: Before, start: int, size: int, rows: Rows, given: Before, chosen: Before,
            state: State, blank: Before) -> None:
    """The group's `Before` rows, into rows 0:size of ``before``: chosen at a stop, Step
    1's, the file's or the chain's state (``blank``: one `unrated` row)."""
    for i in range(size):
        row = start + i
        if rows.python[row]:
            _copy(before, i, chosen, row)
        elif rows.step1[row]:  # unrated: Step 1's R0 and N, no history
            _copy(before, i, blank, 0)
            before.r0[i], before.n[i] = rows.step1_r0[row], rows.step1_n[row]
        elif rows.from_file[row]:
            _copy(before, i, given, row)
        else:
            _copy(before, i, state.values, rows.slot[row])


@numba.njit(cache=True, nogil=True)
def _initial(row: int, end: int, rows: Rows, blend: Blend, state: State, c: Constants
             ) -> None:
    """Step 1 of ``row`` by the blended initialization (initial._blended), in a section
    ending on day ``end``: each source's values from the file or, for the chain's, from
    its state now."""
    first, stop = blend.first[row], blend.stop[row]
    known, born, adult = blend.birth_known[row], blend.birth_day[row], blend.adult[row]
    if stop == first:  # no source: the age-based rating, N = 0 (initial._age)
        rows.step1_r0[row] = age_rating(known, end - born, adult, rows.under_3_adult[row])
        rows.step1_n[row] = 0
        return
    ratings, weights = np.empty(stop - first), np.empty(stop - first)
    for k in range(first, stop):
        s = blend.slot[k]
        x, games, day = blend.rating[k], blend.games[k], blend.rated_day[k]
        if s >= 0:
            x, games, day = state.values.r0[s], float(state.values.n[s]), state.day[s]
        ratings[k - first] = x
        weights[k - first] = source_weight(x, games, blend.larger[k], day, end, known, born,
                                           adult, rows.under_3_adult[row], c)[5]
    rows.step1_r0[row], rows.step1_n[row] = blended_average(ratings, weights, stop - first, c)


@numba.njit(cache=True, nogil=True)
def _score(size: int, before: Before, played: Games, scored: Scored,
           established_after: float) -> None:
    """The games between players rated before the section, each once (scores.py)."""
    for i in range(size):
        if not before.rated[i]:
            continue
        for j in range(played.first[i], played.last[i]):
            o = played.opponent[j]
            if o <= i or not before.rated[o]:
                continue
            k = scored.filled[0]
            scored.pre_a[k], scored.pre_b[k] = before.r0[i], before.r0[o]
            scored.provisional[k] = (before.n[i] <= established_after
                                     or before.n[o] <= established_after)
            scored.y[k] = played.score[j]
            scored.filled[0] = k + 1


@numba.njit(cache=True, nogil=True)
def _output(start: int, size: int, before: Before, played: Games, final: Final,
            outputs: Outputs, norms: bool, c: Constants) -> None:
    """Each row's outcome as the office stores it (explanation.stored_outcomes)."""
    for i in range(size):
        row = start + i
        if played.last[i] == played.first[i]:
            continue
        outputs.pre[row] = before.r0[i] if before.rated[i] else np.nan
        outputs.pre_games[row] = before.n[i] if before.rated[i] else UNKNOWN
        outputs.post[row], outputs.games[row] = final.post[i], final.games[i]
        outputs.floor[row] = final.floor[i]
        outputs.wins[row], outputs.draws[row] = final.wins[i], final.draws[i]
        outputs.losses[row], outputs.events3[row] = final.losses[i], final.events3[i]
        outputs.above_2200[row], outputs.peak[row] = final.above_2200[i], final.peak[i]
        outputs.olm[row] = final.olm[i]
        outputs.by_hand[row] = before.floor[i]
        outputs.lowered_from[row] = before.lowered_from[i]
        outputs.lowered_to[row] = before.lowered_to[i]
        outputs.norm[row] = _norm(i, played, final, c) if norms else -1


@numba.njit(cache=True, nogil=True)
def run_groups(a: int, b: int, terms: Any, end_day: NDArray[np.int64],
               section_stop: NDArray[np.int64], rows: Rows, blend: Blend, given: Before,
               chosen: Before, games: Any, state: State, regular: NDArray[np.bool_],
               earns_norms: NDArray[np.bool_], keep: Keep, outputs: Outputs,
               scored: Scored, awarded: Awarded, c: Constants) -> None:
    """Groups a:b, in order: Step 1 of a section's blended rows before its first group
    (`_initial`), then each group rated (procedure.prepare, procedure.rate), kept as
    ``keep`` says, and written to the state (explanation.state_after). ``terms`` and
    ``games`` are `Terms` and `Games` of NumPy arrays, which are sliced here. Every
    group is rated in the same records, made once for the largest (a year has 20,000
    groups: making theirs took a tenth of the loop)."""
    if a >= b:
        return
    most, room = 0, 0
    for g in range(a, b):
        most = max(most, terms.stop[g] - terms.start[g])
        for row in range(terms.start[g], terms.stop[g]):
            room = max(room, games.last[row] - games.first[row])
    before, blank = unrated(most), unrated(1)
    prepared, step3, step4, step5, final = outcome_records(most)
    opponents, sorted_room = np.empty(room), np.empty(2 * room + 2)
    local_start, local_stop = np.zeros(1, np.int64), np.zeros(1, np.int64)
    for g in range(a, b):
        start = terms.start[g]
        for row in range(start, section_stop[g]):
            if rows.blended[row]:
                _initial(row, end_day[g], rows, blend, state, c)
        size = terms.stop[g] - start
        local_stop[0] = size
        local = Terms(local_start, local_stop,
                      terms.half_k[g:g + 1], terms.dual_regular[g:g + 1],
                      terms.regular[g:g + 1], terms.absolute_floor[g:g + 1],
                      terms.bonus_threshold[g:g + 1], terms.bonus_m3_distinct[g:g + 1])
        _before(before, start, size, rows, given, chosen, state, blank)
        played = Games(games.first[start:start + size], games.last[start:start + size],
                       games.opponent, games.score)
        clear_outcomes(size, prepared, step3, step4, step5, final)
        prepare_kernel(0, local, before, played, prepared, final, c)
        rate(0, local, before, played, prepared, step3, step4, step5, final,
             opponents, sorted_room, c)
        if keep.scores:
            _score(size, before, played, scored, c.established_after)
        if keep.outputs:
            _output(start, size, before, played, final, outputs,
                    regular[g] and earns_norms[g], c)
        if keep.awards and regular[g]:
            for i in range(size):
                if played.last[i] == played.first[i]:
                    continue
                k = awarded.filled[0]
                awarded.slot[k], awarded.group[k] = rows.slot[start + i], g
                awarded.norm[k] = _norm(i, played, final, c) if earns_norms[g] else -1
                awarded.post[k], awarded.games[k] = final.post[i], final.games[i]
                awarded.olm[k] = final.olm[i]
                awarded.filled[0] = k + 1
        for i in range(size):  # the state after the event
            s = rows.slot[start + i]
            if played.last[i] == played.first[i] or s < 0:
                continue
            scored.filled[2] += 1
            if keep.scores and before.rated[i]:
                scored.changes[scored.filled[1]] = final.post[i] - before.r0[i]
                scored.filled[1] += 1
            after = state.values  # the pre-event floors carry on (state_after)
            _copy(after, s, before, i)
            after.r0[s], after.n[s] = final.post[i], final.games[i]
            after.wins[s], after.draws[s] = final.wins[i], final.draws[i]
            after.losses[s], after.events3[s] = final.losses[i], final.events3[i]
            after.above_2200[s], after.peak[s] = final.above_2200[i], final.peak[i]
            after.olm[s], after.rated[s] = final.olm[i], True
            state.day[s] = end_day[g]
            state.own[s] = True


# --- the state beside the arrays, and the stops ------------------------------------------


@dataclass
class _Extras:
    """What a state holds beyond the arrays: whether N was known, and the match changes
    (rare: only those not the usual True and () are kept), by slot; and for each row
    the office stores, those of its state after. Brought up to a row (`advance`) at
    each stop, in order, from where each row's pre-event rating came."""

    known: dict[int, bool] = field(default_factory=dict)
    changes: dict[int, tuple[MatchChange, ...]] = field(default_factory=dict)
    by_row: dict[int, tuple[bool, tuple[MatchChange, ...]]] = field(default_factory=dict)
    done: int = 0  #: rows brought up to date
    #: the ratings chosen at the stops, by row (None: Step 1)
    chosen: dict[int, Rating | None] = field(default_factory=dict)

    def of(self, slot: int) -> tuple[bool, tuple[MatchChange, ...]]:
        return self.known.get(slot, True), self.changes.get(slot, ())

    def set(self, slot: int, known: bool, changes: tuple[MatchChange, ...]) -> None:
        if known:
            self.known.pop(slot, None)
        else:
            self.known[slot] = False
        if changes:
            self.changes[slot] = changes
        else:
            self.changes.pop(slot, None)

    def advance(self, laid: HistoryLayout, python: NDArray[np.bool_], upto: int) -> None:
        first, last = laid.games.first, laid.games.last
        for row in range(self.done, upto):
            s = int(laid.slot[row])
            if s < 0 or last[row] == first[row]:
                continue
            if python[row]:
                rating = self.chosen.get(row)
                extras = ((rating.games_known, rating.match_changes) if rating is not None
                          else (True, ()))
            elif laid.step1[row]:
                extras = (True, ())
            elif laid.from_file[row]:
                given = laid.given_ratings.get(row)
                extras = (given.games_known, given.match_changes) if given else (True, ())
            else:
                extras = self.of(s)
            self.set(s, *extras)
            if extras != (True, ()):
                self.by_row[row] = extras
        self.done = max(self.done, upto)


def new_state(slots: int) -> State:
    """No member-system rated yet."""
    return State(unrated(slots), np.zeros(slots, np.int64), np.zeros(slots, np.bool_))


def grown(state: State, slots: int) -> State:
    """``state`` with room for ``slots`` slots (the new ones unrated): at least twice its
    room, where it must grow, so that a history met an event at a time (an office's
    `uscf db rate` of many files) copies its state a few times, not once an event."""
    have = len(state.day)
    if have >= slots:
        return state
    more = new_state(max(slots - have, have))
    return State(Before(*(np.concatenate((np.asarray(old), np.asarray(new)))
                          for old, new in zip(state.values, more.values, strict=True))),
                 np.concatenate((state.day, more.day)), np.concatenate((state.own, more.own)))


def put(state: State, s: int, rating: Rating) -> None:
    """A state given as a `Rating` into slot ``s``."""
    v = state.values
    v.r0[s], v.n[s] = rating.rating, rating.games
    counts: tuple[tuple[Any, int | None], ...] = (
        (v.wins, rating.wins), (v.draws, rating.draws), (v.losses, rating.losses),
        (v.events3, rating.events3), (v.above_2200, rating.games_above_2200))
    for column, value in counts:
        column[s] = UNKNOWN if value is None else value
    numbers: tuple[tuple[Any, float | None], ...] = (
        (v.peak, rating.peak), (v.floor, rating.floor),
        (v.lowered_from, rating.floor_lowered_from), (v.lowered_to, rating.floor_lowered_to))
    for column, number in numbers:
        column[s] = math.nan if number is None else number
    v.olm[s], v.rated[s] = rating.olm, True
    state.day[s] = rating.date.toordinal() if rating.date is not None else 0


def rating_in(state: State, s: int, extras: _Extras) -> Rating:
    """Slot ``s``'s state as a `Rating`."""
    v = state.values
    day = int(state.day[s])

    def count(column: Any) -> int | None:
        value = int(column[s])
        return None if value == UNKNOWN else value

    def number(column: Any) -> float | None:
        value = float(column[s])
        return None if value != value else value

    known, changes = extras.of(s)
    return rating_of_fields(float(v.r0[s]), int(v.n[s]), date.fromordinal(day) if day else None,
                            count(v.wins), count(v.draws), count(v.losses), count(v.events3),
                            number(v.peak), number(v.floor), number(v.lowered_from),
                            number(v.lowered_to), bool(v.olm[s]), count(v.above_2200), changes,
                            known)


def start_state(laid: HistoryLayout, state: State | None, extras: _Extras) -> State:
    """The chain's state for ``laid``: ``state`` grown to its slots, with the states of
    `Starting` put in."""
    state = grown(state if state is not None else new_state(0), len(laid.slots.keys))
    for key, rating in laid.starting.states.items():
        s = laid.slots.index[key]
        put(state, s, rating)
        extras.set(s, rating.games_known, rating.match_changes)
        state.own[s] = key in laid.starting.own
    return state


# --- the driver -------------------------------------------------------------------------


@dataclass
class ModelRated:
    """A match or a foreign event rated at a stop: its outcomes, members by pair number
    and norms by pair number, as the office stores them."""

    section: int
    outcomes: tuple[Outcome, ...]
    ids: dict[int, str]
    norms: dict[int, str]

    def kept(self, laid: HistoryLayout, scored: Scored, awarded: Awarded, keep: Keep
             ) -> None:
        """What the loop keeps of a rated row, kept of each member's outcome here: its
        change and its count (``scored``), and in the Regular system its award row
        (``awarded``, with the section's index, negative, for the group)."""
        for o in self.outcomes:
            member = self.ids.get(o.pair)
            if member is None:
                continue
            scored.filled[2] += 1
            if keep.scores and o.pre is not None:
                scored.changes[scored.filled[1]] = o.post - o.pre
                scored.filled[1] += 1
            if keep.awards and o.system is System.R:
                k = awarded.filled[0]
                code = self.norms.get(o.pair)
                awarded.slot[k] = laid.slots.index[(member, o.system)]
                awarded.group[k] = -1 - self.section
                awarded.norm[k] = NORM_CODES.index(code) if code else -1
                awarded.post[k], awarded.games[k] = o.post, o.state_after.games
                awarded.olm[k] = o.state_after.olm
                awarded.filled[0] = k + 1


@dataclass
class Rated:
    """A history rated by the chain."""

    laid: HistoryLayout
    state: State
    outputs: Outputs
    extras: _Extras
    models: list[ModelRated]
    scored: Scored
    awarded: Awarded
    #: the followed system's ratings at each month's end (for an experiment)
    months: list[tuple[str, NDArray[np.float64]]]


#: what the office keeps: each row's outcome, to store
FOR_THE_OFFICE = Keep(outputs=True, scores=False, awards=False)


def rate_history(laid: HistoryLayout, variant: Variant = DOCUMENTED_RULES,
                 state: State | None = None, extras: _Extras | None = None,
                 keep: Keep = FOR_THE_OFFICE, follow: System = System.R) -> Rated:
    """Rate ``laid`` in order under ``variant`` from ``state`` (a run's state carried on
    from an earlier part of the same history; None: nothing rated yet)."""
    c = variant.constants
    rules, absolute, bonus_threshold, bonus_m3_distinct = _rule_tables(variant)
    terms = Terms(laid.start, laid.stop, laid.half_k, laid.dual_regular, laid.regular,
                  absolute[laid.rule_set, laid.system] if laid.groups else np.zeros(0, np.bool_),
                  bonus_threshold[laid.rule_set], bonus_m3_distinct[laid.rule_set])
    extras = extras if extras is not None else _Extras()
    extras.done, extras.by_row, extras.chosen = 0, {}, {}
    state = start_state(laid, state, extras)
    rows, python_sections = _rows(laid, variant, rules)
    blend = laid.blend_by(rules)
    chosen = unrated(laid.rows if python_sections else 0)  # read only at their rows
    n = laid.rows
    outputs = _outputs(n if keep.outputs else 0)
    pairs = int((np.asarray(laid.games.last) - np.asarray(laid.games.first)).sum()) \
        if keep.scores else 0
    # a model section's members are kept beside the rows (`ModelRated.kept`)
    more = 3 * sum(len(model.players) for i in laid.model_sections
                   if (model := laid.sections[i].model) is not None)
    scored = Scored(np.empty(pairs), np.empty(pairs), np.empty(pairs, np.bool_),
                    np.empty(pairs), np.empty(n + more if keep.scores else 0),
                    np.zeros(3, np.int64))
    size = n + more if keep.awards else 0
    awarded = Awarded(np.empty(size, np.int64), np.empty(size, np.int64),
                      np.empty(size, np.int64), np.empty(size), np.empty(size, np.int64),
                      np.empty(size, np.bool_), np.zeros(1, np.int64))
    regular = laid.system == SYSTEMS.index(System.R)
    stops = _stops(laid, python_sections, keep.scores)
    models: list[ModelRated] = []
    months: list[tuple[str, NDArray[np.float64]]] = []
    follow_slots = (laid.slot_systems == SYSTEMS.index(follow) if keep.scores
                    else np.zeros(0, np.bool_))
    carry = bool(laid.given_ratings or laid.model_sections or python_sections
                 or extras.known or extras.changes)
    a = 0
    for b, what, index in stops:
        run_groups(a, b, terms, laid.end_day, laid.section_stop, rows, blend, laid.given,
                   chosen, laid.games, state, regular, laid.earns_norms, keep, outputs,
                   scored, awarded, c)
        a = b
        if carry:
            extras.advance(laid, rows.python, int(laid.start[b]) if b < laid.groups
                           else laid.rows)
        if what == "python":
            _choose(laid, index, rules, state, extras, chosen)
        elif what == "model":
            models.append(_rate_model(laid, index, variant, state, extras))
            models[-1].kept(laid, scored, awarded, keep)
        elif what == "month":
            months.append((laid.section_months[index - 1], _ratings_in(state, follow_slots)))
    run_groups(a, laid.groups, terms, laid.end_day, laid.section_stop, rows, blend,
               laid.given, chosen, laid.games, state, regular, laid.earns_norms, keep,
               outputs, scored, awarded, c)
    if carry:
        extras.advance(laid, rows.python, laid.rows)
    if keep.scores and laid.sections:
        months.append((laid.section_months[-1], _ratings_in(state, follow_slots)))
    return Rated(laid, state, outputs, extras, models, scored, awarded, months)


@functools.lru_cache(maxsize=256)
def _rule_tables(variant: Variant) -> tuple[list[RuleSet], NDArray[np.bool_],
                                            NDArray[np.float64], NDArray[np.bool_]]:
    """The rule sets under ``variant`` (indexed as RULE_SETS) and what the groups' terms
    read of them: by rule set and system, whether the absolute floor applies; by rule
    set, B and whether a bonus at m = 3 needs three opponents. Made once a variant: an
    office rates an event a call."""
    rules = [variant.apply(rs) for rs in RULE_SETS]
    return (rules,
            np.array([[s in r.absolute_floor_systems for s in SYSTEMS] for r in rules],
                     dtype=np.bool_),
            np.array([r.bonus_threshold for r in rules]),
            np.array([r.bonus_m3_needs_distinct_opponents for r in rules], dtype=np.bool_))


def _stops(laid: HistoryLayout, python: Sequence[int], months: bool
           ) -> list[tuple[int, str, int]]:
    """Where the loop stops, in order: (the group before which, what, the section). A
    month's end comes before the first section of the next month; a model section, which
    has no group, before the group that follows it."""
    found = [(int(laid.section_group[i]), i, 1, "model") for i in laid.model_sections]
    found += [(int(laid.section_group[i]), i, 1, "python") for i in python]
    if months:
        month = laid.section_months
        found += [(int(laid.section_group[i]), i, 0, "month") for i in range(1, len(month))
                  if month[i] != month[i - 1]]
    return [(g, what, i) for g, i, _, what in sorted(found)]


def _ratings_in(state: State, follow: NDArray[np.bool_]) -> NDArray[np.float64]:
    """The ratings of the followed system's member-systems rated so far, in slot order
    (a copy: the state goes on)."""
    rated = np.asarray(state.values.rated)[:len(follow)] & follow
    return np.asarray(state.values.r0)[:len(follow)][rated]


def _rows(laid: HistoryLayout, variant: Variant, rules: list[RuleSet]
          ) -> tuple[Rows, tuple[int, ...]]:
    """Where each row's pre-event rating comes from under ``rules``, and the Python
    sections: the layout's, and those where the rules give Step 1 by the priority lists
    to a row that reads a rating of the chain (the layout's blended rows, under a variant
    of other rules). The static Step 1 rows are done again where the variant changes
    Step 1's rules."""
    blended = laid.step1 & ~laid.assigned & np.array(
        [r.initialization == "blended" for r in rules], dtype=np.bool_)[laid.row_rule_set]
    under_3_adult = np.array([r.missing_age_rule == "adult" for r in rules],
                             dtype=np.bool_)[laid.row_rule_set]
    python = laid.python
    sections = set(laid.python_sections)
    waiting = [one.row for one in laid.step1_rows
               if one.chain and not blended[one.row] and one.system not in one.player.initial]
    if waiting:
        python = python.copy()
        group_of = np.searchsorted(laid.start, waiting, side="right") - 1
        bounds = [*laid.section_rows.tolist(), laid.rows]
        for i in set(laid.group_section[group_of].tolist()):
            python[bounds[i]:bounds[i + 1]] = True
            sections.add(i)
    rows = Rows(laid.slot, laid.from_file, laid.step1, blended & ~python, under_3_adult,
                python, np.zeros(laid.rows), np.zeros(laid.rows, np.int64))
    static = [one.row for one in laid.step1_rows if not blended[one.row]]
    if not any(key in STEP1_FIELDS for key, _ in variant.changes):
        rows.step1_r0[static] = np.asarray(laid.given.r0)[static]
        rows.step1_n[static] = np.asarray(laid.given.n)[static]
    else:
        for one in laid.step1_rows:
            if not blended[one.row]:
                initial = initial_rating(one.player, one.system, rules[one.rule_set], one.end)
                rows.step1_r0[one.row], rows.step1_n[one.row] = initial.rating, initial.games
    return rows, tuple(sorted(sections))


def _outputs(rows: int) -> Outputs:
    floats = [np.full(rows, np.nan) for _ in range(7)]
    counts = [np.full(rows, UNKNOWN, np.int64) for _ in range(7)]
    return Outputs(floats[0], counts[0], floats[1], counts[1], floats[2], counts[2], counts[3],
                   counts[4], counts[5], counts[6], floats[3], np.zeros(rows, np.bool_),
                   floats[4], floats[5], floats[6], np.full(rows, -1, np.int64))


def _view(laid: HistoryLayout, members: Sequence[str], state: State, extras: _Extras,
          key: tuple[date, date, str, int]) -> dict[tuple[str, System], Rating]:
    """The states of ``members`` as the office holds them before the section ``key``:
    the chain's, or the rating US Chess published before it while the office has not
    rated the member in that system (office/history.py)."""
    states: dict[tuple[str, System], Rating] = {}
    index = laid.slots.index
    for member in dict.fromkeys(m for m in members if m):
        for system in SYSTEMS:
            s = index.get((member, system), -1)
            if s >= 0 and s < len(state.day) and state.values.rated[s]:
                states[(member, system)] = rating_in(state, s, extras)
        history = laid.starting.published.get(member)
        if history is not None:
            for system in history.systems:
                s = index.get((member, system), -1)
                if s < 0 or not state.own[s]:
                    published = history.rating_before(system, key)
                    if published is not None:
                        states[(member, system)] = published
    return states


def _choose(laid: HistoryLayout, i: int, rules: list[RuleSet], state: State,
            extras: _Extras, chosen: Before) -> None:
    """A Python section's pre-event ratings, chosen by the office's functions from the
    state now, written to ``chosen`` at its rows."""
    entry = laid.sections[i]
    lineup = entry.lineup
    assert lineup is not None
    start: Starting = laid.starting
    states = _view(laid, lineup.ids, state, extras, entry.key)
    ratings, players = lineup_pre_event(lineup, lineup.ids, states, start.facts,
                                        start.floors, entry.start, entry.mode)
    rule_set = rules[int(laid.rule_set[laid.section_group[i]])]
    values, _ = before_rows(lineup, ratings, players, rule_set, entry.end)
    at = int(laid.section_rows[i])
    columns: list[Any] = list(chosen)
    for k, (rating, row) in enumerate(zip(ratings, values, strict=True)):
        for column, value in zip(columns, row, strict=True):
            column[at + k] = value if value is not None else (
                UNKNOWN if column.dtype == np.int64 else math.nan)
        extras.chosen[at + k] = rating


def _rate_model(laid: HistoryLayout, i: int, variant: Variant, state: State,
                extras: _Extras) -> ModelRated:
    """A match or a foreign event rated from its model (`core.pipeline.rate_section`)
    from the state now, as the office rates it; its states put into the chain."""
    entry = laid.sections[i]
    section = entry.model
    assert section is not None
    ids = {p.pair: p.id for p in section.players if p.id}
    states = _view(laid, list(ids.values()), state, extras, entry.key)
    start = laid.starting
    prepared = prepare(section, ids, states, start.facts, start.floors, entry.mode)
    result = rate_section(prepared, variant.rules_for(section.start_date))
    # a player's games are those of every row of the member (entered twice), as the
    # lineup counts them (core/layout.py)
    rows = {p.pair: p.pairs for p in result.players}
    codes = {p.pair: [r.code for r in p.results if r.played] for p in section.players}
    played = {pair: [c for row in rows[pair] for c in codes[row]] for pair in rows}
    outcomes = tuple(o._replace(wins=played[o.pair].count("W"), draws=played[o.pair].count("D"),
                                losses=played[o.pair].count("L"))
                     for o in outcomes_of(result))
    for o in outcomes:
        member = ids.get(o.pair)
        if member is None:
            continue
        s = laid.slots.index[(member, o.system)]
        put(state, s, o.state_after)
        state.own[s] = True
        extras.set(s, o.state_after.games_known, o.state_after.match_changes)
    norms = {p.pair: p.norm.code for p in result.players
             if p.norm is not None and p.norm.code is not None}
    return ModelRated(i, outcomes, ids, norms)


def load() -> None:
    """Load the chain's compiled code from Numba's cache now, by rating a history of one
    section of one game (the first call of a compiled function loads its code), as a
    process about to rate many sections may do while it waits for something else
    (`office.run.load_kernels`)."""
    from .engine import DAY_OF_ONE_GAME, one_game
    from .history import ToRate, lay_out

    day = DAY_OF_ONE_GAME
    rate_history(lay_out([ToRate("E", 1, day, day, one_game(), earns_norms=True)]))
