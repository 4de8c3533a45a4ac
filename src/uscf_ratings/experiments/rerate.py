"""One variant of the rules over a whole history, through the office's own engine.

The history (history.py) is laid out once as columns (`laid_out`: batch/history.py), as
the office lays out the sections it rates: Swiss and round-robin sections by their
lineups, matches and foreign FIDE events by their models, with what an office database
adds (its baselines, members' facts, floors set by hand and the way each event's
pre-event ratings were chosen). A variant is the same chain with other rules and
constants (`rerate_laid`: batch/chain.py), so the documented variant gives the office's
numbers, game for game. The chain keeps what the scores read (scores.py: the pre-event
ratings of both players of every game between rated players, each player's change, the
followed system's ratings at each month's end) and what the awards read (awards.py).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..batch.chain import Awarded, Keep, rate_history
from ..batch.history import HistoryLayout, Starting, ToRate, lay_out
from ..core.constants import Constants
from ..core.layout import lineup
from ..core.model import System
from ..core.norms import NORM_CODES, section_reason
from ..core.pipeline import PROCEDURE_TYPES, section_systems
from ..core.rules import rules_for
from ..core.steps import merge_entrants
from ..core.titles import TitleEvent
from ..core.variants import Variant
from ..office.collector import fewer_collections
from .awards import Awards, awards_of
from .history import History
from .scores import Movement, Prediction, movement, predict


@dataclass(frozen=True)
class Rerated:
    """A variant's outcome over the history: its scores, and every member's last rating
    in each system (in the order of `keys`, the same for every variant)."""

    variant: Variant
    prediction: Prediction
    movement: Movement
    keys: tuple[tuple[str, str], ...]  #: (member, system) of `finals`
    finals: NDArray[np.float64]
    outcomes: int  #: player-systems rated
    awards: Awards = Awards()  #: the norms and titles it awards (awards.py)


def laid_out(history: History) -> HistoryLayout:
    """The history laid out for the chain (batch/history.py), with what its office adds."""
    # the layout makes lists and tuples by the million and keeps them: the collector,
    # at its usual pace, walked them again and again (a year: 5.9 s laid out, 4.0 s with
    # fewer collections), as in the office's runs
    with fewer_collections():
        return _laid_out(history)


def _laid_out(history: History) -> HistoryLayout:
    office = history.office
    sections = []
    for event_id, section in history.sections:
        rules = rules_for(section.start_date)
        systems = section_systems(section, rules)
        laid = (lineup(section, rules, systems, merge_entrants(section.players))
                if section.type in PROCEDURE_TYPES else None)
        sections.append(ToRate(
            event_id, section.number, section.start_date, section.end_date, laid,
            section if laid is None else None, office.mode(event_id),
            section_reason(section.type, section.online, systems, section.start_date) is None))
    history_laid = lay_out(sections, Starting(dict(office.baselines), frozenset(),
                                              office.facts, office.floors))
    # a variant's task is sent the layout, with what every variant reads of it made once
    return history_laid.without_lineups().with_shared_facts()


def rerate(history: History, variant: Variant, follow: System = System.R) -> Rerated:
    """Rate ``history`` under ``variant`` (`laid_out`, then `rerate_laid`)."""
    return rerate_laid(laid_out(history), variant, follow)


def rerate_laid(laid: HistoryLayout, variant: Variant, follow: System = System.R) -> Rerated:
    """The laid-out history rated under ``variant``, and scored."""
    c = variant.constants
    done = rate_history(laid, variant, keep=Keep(False, True, True), follow=follow)
    games, changes, rated = done.scored.filled.tolist()
    s = done.scored
    keys, order = laid.rated_keys
    return Rerated(variant,
                   predict(s.pre_a[:games], s.pre_b[:games], s.provisional[:games],
                           s.y[:games], c.we_scale),
                   movement(s.changes[:changes], done.months), keys,
                   np.asarray(done.state.values.r0)[order], rated,
                   _awards(laid, done.awarded, c))


def _awards(laid: HistoryLayout, awarded: Awarded, c: Constants) -> Awards:
    """The norms and titles of the rows the loop kept, in rating order (awards.py); a
    row of a match or a foreign event has its section's index for a group (-1 - i)."""
    filled = int(awarded.filled[0])
    slot, norm, group = awarded.slot[:filled], awarded.norm[:filled], awarded.group[:filled]
    post, games, olm = awarded.post[:filled], awarded.games[:filled], awarded.olm[:filled]
    levels = norm[norm >= 0].tolist()
    slots = len(laid.slots.keys)
    # awards.could_hold, for every slot at once: only those members go through titles_held
    member = slot >= 0
    at = np.maximum(slot, 0)
    norms = np.bincount(slot[member & (norm >= 0)], minlength=slots)
    established = games > c.established_after
    ever_established = np.zeros(slots, np.bool_)
    ever_established[slot[member & established]] = True
    candidate = (norms >= c.title_norms) & ever_established
    candidate[slot[member & (olm | (established & (post >= c.national_master)))]] = True
    kept = np.flatnonzero(member & candidate[at])
    # each row's section: a group's, or (-1 - i) the section i of a match or foreign event
    section = np.where(group[kept] >= 0, laid.group_section[np.maximum(group[kept], 0)],
                       -1 - group[kept])
    sections, keys = laid.sections, laid.slots.keys
    events: dict[str, list[TitleEvent]] = {}
    for s, i, n, rating, is_established, has_olm in zip(
            slot[kept].tolist(), section.tolist(), norm[kept].tolist(), post[kept].tolist(),
            established[kept].tolist(), olm[kept].tolist(), strict=True):
        entry = sections[i]
        events.setdefault(keys[s][0], []).append(TitleEvent(
            entry.end, entry.event_id, entry.number, NORM_CODES[n] if n >= 0 else None,
            rating, is_established, has_olm))
    return awards_of(levels, events, c)
