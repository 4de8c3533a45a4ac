"""The adversary of the privacy tests: it knows every input of a section but the junior's
birth date, reads the public view of the section, and keeps the birth dates that give the
same public view.

For each candidate birth date the section is rated again. Rating it 731 times through the
reference path, with the explanation and the public view each time, would take minutes
(13 ms for a section of 60); so the 731 candidates are rated in one call of the compiled
procedure (`batch.engine.rate_traced`), and the adversary reads, of each candidate, the
numbers the public view shows at the places it shows them, at the precision it shows them
(``privacy.RATINGS`` to whole points, ``privacy.FIGURES`` to two decimals, the rest as
they are): where the true section's public view has a number, the same place of every
candidate is read; where it has none (withheld), nothing is read. The public view itself
comes from the real code (`privacy.public_section` over `result_json.section_to_dict`),
and `real_view` checks the reading against it: two candidates that read the same must
have the same public view, byte for byte (tests/web/test_privacy_adversary.py).

``floor`` is what the published ratings say by themselves: every player's post-event
rating to whole points and games after the event (1582P14), which must be public.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray
from tests.web.privacy_juniors import Case

from uscf_ratings.batch.engine import arrays, rate_traced
from uscf_ratings.core.constants import DOCUMENTED
from uscf_ratings.core.formulas import round_half_up
from uscf_ratings.core.initial import initial_rating
from uscf_ratings.core.layout import Columns, Lineup, before_rows, lineup
from uscf_ratings.core.model import Section
from uscf_ratings.core.pipeline import merge_entrants, rate_section, section_systems
from uscf_ratings.core.records import Before, Games, Terms
from uscf_ratings.core.rules import rules_for
from uscf_ratings.formats.result_json import section_to_dict
from uscf_ratings.web import privacy

#: how a number is shown: to whole points (1), two decimals (100), or as it is (0)
Scale = int


def precision(key: str) -> Scale:
    """How the public view shows the numbers under ``key`` (privacy's own tables)."""
    if key in privacy.RATINGS or key == "post_rounded":
        return 1
    if key in privacy.FIGURES:
        return 100
    return 0


def shown(values: NDArray[Any], scale: Scale) -> NDArray[Any]:
    """``values`` as the public view shows them, in units of the last digit shown: half
    up (`formulas.round_half_up`), which is taken one number at a time where a value is
    within 1e-6 of a tie, and by the floor of x + 1/2 elsewhere (the same there)."""
    if scale == 0 or values.dtype.kind != "f":
        return values
    scaled = values * scale
    out = np.floor(scaled + 0.5)
    near = np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) < 1e-6)
    for index in near:
        out[index] = round(round_half_up(values[index].item(), 2 if scale == 100 else 0)
                           * scale)
    return out


View = Callable[[dict[str, Any]], dict[str, Any]]


def real_view(section: Section, view: View | None = None) -> str:
    """The public view of a section, as the API answers it (the ratings and their
    explanations; the office adds the crosstable's cells, which hold no rating).
    ``view``: another view to try (default `privacy.public_section`)."""
    shown = (view or privacy.public_section)(section_to_dict(rate_section(section)))
    return json.dumps(shown, sort_keys=True)


@dataclass(frozen=True)
class Rated:
    """The candidates of one case rated: the records' columns, one block of rows per
    candidate, in the candidates' order."""

    laid: Lineup
    rows: int  #: rows per candidate (entrants x systems)
    columns: dict[str, NDArray[Any]]
    count: int  #: candidates


def rate_candidates(case: Case) -> Rated:
    """The section rated once for each candidate birth date, in one call: the section's
    arrays (`batch.engine.arrays`) repeated, the junior's Step 1 (R0 and N) changed."""
    section = case.section
    rules = rules_for(section.start_date)
    systems = section_systems(section, rules)
    laid = lineup(section, rules, systems, merge_entrants(section.players))
    base, _ = before_rows(laid, laid.ratings, {}, rules, section.end_date)
    gathered = Columns()
    gathered.add(laid, base)
    terms, before, games = arrays(gathered)
    births = case.candidates
    count, rows, played = len(births), len(base), len(laid.opponent)
    shift = np.repeat(np.arange(count, dtype=np.int64), len(systems))
    tiled = [np.tile(np.asarray(column), count) for column in terms]
    tiled[0] += shift * rows  # each candidate's groups start and stop in its own block
    tiled[1] += shift * rows
    terms = Terms(*tiled)
    moved = np.repeat(np.arange(count) * played, rows)  # and its games in its own
    first = np.tile(np.asarray(games.first), count) + moved
    last = np.tile(np.asarray(games.last), count) + moved
    games = Games(first, last, np.tile(np.asarray(games.opponent), count),
                  np.tile(np.asarray(games.score), count))
    before = Before(*(np.tile(np.asarray(column), count) for column in before))
    junior = laid.unrated[0]
    assert laid.pairs[0] == 1 and all(laid.ratings[g * laid.size] is None
                                      for g in range(len(systems)))
    private = np.zeros(count * rows, np.bool_)
    extra: dict[str, NDArray[Any]] = {"private": private}
    for index, birth in enumerate(births):
        for g, system in enumerate(systems):
            row = index * rows + g * laid.size  # entrant 0: pair 1
            started = initial_rating(replace(junior, birth_date=birth), system, rules,
                                     section.end_date)
            before.r0[row], before.n[row] = started.rating, started.games
            # whether the section's steps are withheld, by privacy's own test
            private[row] = privacy.private_start({"initial": {
                "method": started.method, "detail": started.detail, "rating": started.rating,
                "sources": [vars(source) for source in started.sources]}})
            for k, source in enumerate(started.sources):  # the weights of a blended start
                for name in ("age_rating", "z", "staleness_factor", "weight"):
                    value = getattr(source, name)
                    key = f"source {k} {name}"
                    if key not in extra:
                        extra[key] = np.full(count * rows, np.nan)
                    extra[key][row] = np.nan if value is None else value
    prepared, steps, final = rate_traced(terms, before, games, gathered.constants or DOCUMENTED)
    named = {"r0": before.r0, "n": before.n, "n_eff": prepared.n_eff,
             "special": prepared.special, "prior": prepared.prior, "k": prepared.k,
             "post": final.post, "games": final.games, "peak": final.peak,
             "floor": final.floor}
    columns: dict[str, NDArray[Any]] = {k: np.asarray(v) for k, v in named.items()} | extra
    for number, trace in zip((3, 4, 5), steps, strict=True):
        for name in trace._fields:
            columns[f"{name}{number}"] = np.asarray(getattr(trace, name))
    # whether the floor held the rating up (core/explanation.py: step 5's rating below
    # the floor in force), which the view says (``floor_applied``) even where it is None
    columns["floor_held"] = columns["rating5"] < columns["floor"]
    return Rated(laid, rows, columns, count)


#: the keys of a step and the column each is read from (the step's number appended)
STEP_COLUMNS = {"unfloored": "unfloored", "rating": "rating", "E": "expected",
                "change": "change", "bonus": "bonus", "R0_adjusted": "r0_adjusted",
                "S_adjusted": "score_adjusted", "p": "p", "tie_rule": "tie_rule",
                "capped": "capped"}
#: the steps' inputs: the opponents' ratings each step reads (procedure.rate)
STEP_INPUTS = {3: "r0", 4: "rating3", 5: "rating4"}


@dataclass(frozen=True)
class Place:
    """One number the public view shows: a column, a row of each candidate's block,
    and how it is shown."""

    column: str
    row: int
    scale: Scale
    where: str


def places(view: dict[str, Any], rated: Rated, floor_only: bool) -> list[Place]:
    """Every number of the true section's public view that a rating gives, as a place
    in the candidates' records; ``floor_only``: the published ratings alone."""
    laid = rated.laid
    out: list[Place] = []
    for e, player in enumerate(view["players"]):
        assert player["pair"] == laid.pairs[e]
        for g, system in enumerate(laid.systems):
            shown = player["ratings"].get(system.value)
            if shown is None:
                continue
            row = g * laid.size + e
            where = f"pair {player['pair']} {system.value}"

            def add(key: str, column: str, at: int = row, label: str = where,
                    value: Any = shown) -> None:
                if value.get(key) is not None:
                    out.append(Place(column, at, precision(key), f"{label} {key}"))

            if e == 0 and not floor_only:  # the junior's start decides what is withheld
                out.append(Place("private", row, 0, f"{where} start from the birth date"))
            for key in ("post", "post_rounded", "post_2dp"):
                add(key, "post")
            add("games_after", "games")
            if floor_only:
                continue
            add("R0", "r0")
            add("N", "n")
            add("N_eff", "n_eff")
            add("formula", "special")
            add("reason", "prior")
            after = shown.get("state_after") or {}
            add("rating", "post", value=after, label=f"{where} state_after")
            add("games", "games", value=after, label=f"{where} state_after")
            add("peak", "peak", value=after, label=f"{where} state_after")
            add("floor_applied", "floor")  # which floor: the one in force
            if "floor_applied" in shown:  # and whether it held, shown as None if not
                out.append(Place("floor_held", row, 0, f"{where} floor_applied"))
            initial = shown.get("initial") or {}
            add("rating", "r0", value=initial, label=f"{where} initial")
            add("games", "n", value=initial, label=f"{where} initial")
            for k, source in enumerate(initial.get("sources") or []):
                for name in ("age_rating", "z", "staleness_factor", "weight"):
                    add(name, f"source {k} {name}", value=source,
                        label=f"{where} initial source {k}")
            for step in shown.get("steps") or []:
                number = step["step"]
                label = f"{where} step {number}"
                for key, column in STEP_COLUMNS.items():
                    add(key, f"{column}{number}", value=step, label=label)
                add("K", "k", value=step, label=label)
                add("N_eff", "n_eff", value=step, label=label)
                lo = laid.first[e]
                for j, opponent in enumerate(step.get("opponents") or []):
                    if opponent is not None:
                        at = g * laid.size + laid.opponent[lo + j]
                        out.append(Place(STEP_INPUTS[number], at, 1,
                                         f"{label} opponent {j + 1}"))
    return out


def readings(rated: Rated, found: Sequence[Place]) -> NDArray[np.bool_]:
    """For each candidate: whether everything at ``found`` reads as the true one's
    (NaN, a step not taken, reads as itself)."""
    count = rated.count
    truth = count // 2  # the candidates run from a year before the true date to a year after
    same = np.ones(count, np.bool_)
    for column, row, scale in dict.fromkeys((p.column, p.row, p.scale) for p in found):
        values = shown(rated.columns[column][row::rated.rows][:count], scale)
        same &= (values == values[truth]) | ((values != values) & (values[truth] != values[truth]))
    return same


@dataclass(frozen=True)
class Measured:
    case: Case
    consistent: NDArray[np.bool_]  #: per candidate: the public view reads the same
    floor: NDArray[np.bool_]  #: per candidate: the published ratings read the same
    shown: int  #: numbers of the public view the adversary reads

    @property
    def days(self) -> int:
        return int(self.consistent.sum())

    @property
    def floor_days(self) -> int:
        return int(self.floor.sum())


def measure(case: Case, view: View | None = None) -> Measured:
    """What the adversary finds of ``case`` from its public view (or from ``view``)."""
    rated = rate_candidates(case)
    shown = json.loads(real_view(case.section, view))
    everything = places(shown, rated, floor_only=False)
    published = places(shown, rated, floor_only=True)
    return Measured(case, readings(rated, everything), readings(rated, published),
                    len(everything))
