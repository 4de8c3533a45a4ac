"""Rating a laid-out section (batch/laid.py) from the database's states.

This is `run.prepare` followed by `batch.engine.rate_outcomes`, done on the columns the
reader laid out instead of on the section's model: each row takes the member's state
where the database has one (the office's default, "database" pre-event ratings), the
file's rating where it has none, and Step 1 again (core/initial.py) for a player
unrated in both whom the database knows (the member's birth date, FIDE or CFC rating,
or a rating in another system can change Step 1). The caller sends the model's way the
sections this does not cover (office/run.py). A test holds the two ways to the same
stored rows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import date

from ..batch.engine import outcomes_of_columns
from ..batch.laid import LaidSection
from ..batch.layout import Carried, before_array, read_rating, unrated_row
from ..core.initial import initial_rating
from ..core.model import Player, Rating, System
from ..core.results import Outcome
from ..core.rules import rules_for


def outcomes_from_columns(laid: LaidSection, systems: tuple[System, ...], start: date,
                          end: date, states: Mapping[tuple[str, System], Rating],
                          step1_player: Callable[[Player, str], Player | None]
                          ) -> tuple[Outcome, ...]:
    """The outcomes of a section rated in ``systems`` from ``start`` to ``end``, its
    players' pre-event ratings taken from ``states`` by member id. ``step1_player(player,
    member)`` is the file's player as the office rates it, or None when the database adds
    nothing to what the file says (Step 1 as laid out stands)."""
    columns = laid.columns
    count = laid.entrants
    file_rows = columns.before.tolist()
    rows: list[tuple[float | bool | None, ...] | list[float]] = []
    rated = columns.rated.copy()
    carried: dict[int, Carried] = dict(columns.carried)
    for g, system in enumerate(systems):
        for e, member in enumerate(laid.ids):
            i = g * count + e
            state = states.get((member, system)) if member else None
            if state is not None:
                rows.append(read_rating(state))
                rated[i] = True
                if state.match_changes or not state.games_known:
                    carried[i] = (state.match_changes, state.games_known)
                else:
                    carried.pop(i, None)
                continue
            player = None if rated[i] or not member else step1_player(laid.unrated[e], member)
            if player is None:
                rows.append(file_rows[i])
                continue
            initial = initial_rating(player, system, rules_for(start), end)
            rows.append(unrated_row(initial.rating, initial.games))
    laid_now = replace(columns, before=before_array(rows), rated=rated, carried=carried)
    return outcomes_of_columns(laid_now, end)
