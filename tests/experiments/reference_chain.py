"""The reference the history engine (batch/chain.py) is held to: one variant of the
rules over a whole history, section by section, in Python, the way the office rated
before the engine.

Each section, in rating order, is rated as `uscf db rate` rates it (office/run.py): a
member's rating before a section is the state after the member's last section rated
here, else the file's rating; Step 1 reads the other systems' ratings chosen the same
way. A history read from an office database also brings what that database rates with
(history.FromOffice: baselines, members' facts, floors set by hand, each event's way of
choosing pre-event ratings); a folder brings none, as an empty database. The functions
that choose are the office's own (`core.pre_event.lineup_pre_event`, `core.pre_event.prepare`),
so a variant that changes nothing gives the office's numbers, game for game.

While it rates, the chain collects what the scores need (scores.py): the pre-event
ratings of both players of every game between rated players, each player's change, and
the ratings of the system followed at each month's end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from uscf_ratings.core.layout import BeforeRow, Lineup, before_rows, lineup
from uscf_ratings.core.model import Rating, Section, System
from uscf_ratings.core.norms import NORM_CODES, norm_rules_for, norms_by_pair, section_reason
from uscf_ratings.core.pipeline import PROCEDURE_TYPES, rate_rows, rate_section, section_systems
from uscf_ratings.core.pre_event import lineup_pre_event, prepare
from uscf_ratings.core.records import Before
from uscf_ratings.core.results import Outcome, outcomes_of
from uscf_ratings.core.steps import merge_entrants
from uscf_ratings.core.titles import TitleEvent
from uscf_ratings.core.variants import Variant
from uscf_ratings.experiments.awards import awards_of
from uscf_ratings.experiments.history import FromOffice, History
from uscf_ratings.experiments.rerate import Rerated
from uscf_ratings.experiments.scores import movement, predict
from uscf_ratings.office.defaults import PreRatings
from uscf_ratings.office.run import member_ids

States = dict[tuple[str, System], Rating]
MODE = PreRatings.DATABASE  #: `uscf db rate`'s default


#: where a `Before` row (layout.before_rows) holds R0, N and whether the player was rated
_R0, _N, _RATED = (Before._fields.index(name) for name in ("r0", "n", "rated"))


@dataclass
class _Games:
    """The games between rated players, as the chain meets them."""

    pre_a: list[float] = field(default_factory=list)
    pre_b: list[float] = field(default_factory=list)
    provisional: list[bool] = field(default_factory=list)
    y: list[float] = field(default_factory=list)

    def add(self, laid: Lineup, rows: Sequence[BeforeRow], established_after: float) -> None:
        size = laid.size
        for g in range(len(laid.systems)):
            base = g * size
            for e in range(size):
                a = rows[base + e]
                if not a[_RATED]:  # unrated before the section: Step 1's R0 predicts nothing
                    continue
                for j in range(laid.first[e], laid.last[e]):
                    o = laid.opponent[j]
                    b = rows[base + o]
                    if o <= e or not b[_RATED]:  # each game once, from the first listed
                        continue
                    self.pre_a.append(a[_R0])
                    self.pre_b.append(b[_R0])
                    self.provisional.append(a[_N] <= established_after
                                            or b[_N] <= established_after)
                    self.y.append(laid.score[j])


def rerate(history: History, variant: Variant, follow: System = System.R,
           keep: list[tuple[str, int, str, Outcome]] | None = None) -> Rerated:
    """Rate ``history`` under ``variant`` from the files' own starting ratings. ``follow``
    is the system whose ratings are taken at each month's end; ``keep`` collects every
    outcome as (event id, section number, member, outcome), for comparing with the
    office."""
    states: States = dict(history.office.baselines)
    games = _Games()
    changes: list[float] = []
    months: list[tuple[str, list[float]]] = []
    month = ""
    rated = 0
    levels: list[int] = []
    events: dict[str, list[TitleEvent]] = {}
    c = variant.constants
    for event_id, section in history.sections:
        this_month = section.end_date.strftime("%Y-%m")
        if month and this_month != month:
            months.append((month, _ratings_in(states, follow)))
        month = this_month
        found, ids = _rate(section, variant, states, games, history.office,
                           history.office.mode(event_id))
        for outcome in found:
            member = ids.get(outcome.pair)
            if member is None:
                continue
            states[(member, outcome.system)] = outcome.state_after
            rated += 1
            if outcome.pre is not None:
                changes.append(outcome.post - outcome.pre)
            if keep is not None:
                keep.append((event_id, section.number, member, outcome))
        _award(event_id, section, variant, found, ids, levels, events)
    if month:
        months.append((month, _ratings_in(states, follow)))
    keys = tuple(sorted((m, s.value) for m, s in states))
    finals = np.array([states[(m, System(s))].rating for m, s in keys], dtype=np.float64)
    return Rerated(variant, predict(np.array(games.pre_a), np.array(games.pre_b),
                                    np.array(games.provisional, dtype=np.bool_),
                                    np.array(games.y), variant.constants.we_scale),
                   movement(changes, months), keys, finals, rated,
                   awards_of(levels, events, c))


def _award(event_id: str, section: Section, variant: Variant, found: Sequence[Outcome],
           ids: dict[int, str], levels: list[int], events: dict[str, list[TitleEvent]]
           ) -> None:
    """The section's norms (core/norms.py, from the post-event ratings ``found`` of the
    system norms are earned in) into ``levels``, and each member's rated section in that
    system into ``events`` (core/titles.py)."""
    rules = norm_rules_for(section.start_date)
    if rules is None:
        return
    c = variant.constants
    posts = {o.pair: o.post for o in found if o.system is rules.system}
    systems = section_systems(section, variant.rules_for(section.start_date))
    reason = section_reason(section.type, section.online, systems, section.start_date)
    norms = norms_by_pair(section.players, posts, reason, c)
    levels += [NORM_CODES.index(n.code) for n in norms.values() if n.code is not None]
    for o in found:
        member = ids.get(o.pair)
        if o.system is not rules.system or member is None:
            continue
        norm = norms.get(o.pair)
        events.setdefault(member, []).append(TitleEvent(
            section.end_date, event_id, section.number, norm.code if norm else None, o.post,
            o.state_after.established_after(c.established_after), o.state_after.olm))


def _rate(section: Section, variant: Variant, states: States, games: _Games,
          office: FromOffice, mode: PreRatings) -> tuple[tuple[Outcome, ...], dict[int, str]]:
    """One section as the office rates it (office/run.py): Swiss and round-robin
    sections through their lineup, matches and foreign events through the model."""
    rules = variant.rules_for(section.start_date)
    systems = section_systems(section, rules)
    if section.type in PROCEDURE_TYPES:
        laid = lineup(section, rules, systems, merge_entrants(section.players))
        ids = list(laid.ids)
        ratings, players = lineup_pre_event(laid, ids, states, office.facts,
                                            office.floors, section.start_date, mode)
        rows, _ = before_rows(laid, ratings, players, rules, section.end_date)
        games.add(laid, rows, rules.constants.established_after)
        found = rate_rows(laid, ratings, rows, section.end_date)
        return found, {pair: i for pair, i in zip(laid.pairs, ids, strict=True) if i}
    by_pair = member_ids(section, {})
    prepared = prepare(section, by_pair, states, office.facts, office.floors, mode)
    return outcomes_of(rate_section(prepared, rules)), by_pair


def _ratings_in(states: States, system: System) -> list[float]:
    return [r.rating for (_, s), r in states.items() if s is system]
