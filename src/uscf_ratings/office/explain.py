"""Explanations on demand: a stored section rated again from the states before it.

The office stores each result's numbers and the state after it, not the explanation. To
explain a section, it is rated again by `core.pipeline.rate_section` from what
the office used the first time: for each member, the state after the last section before
it in rating order (else the imported baseline), the member's facts and the floors set
by hand. Every change to those re-rates the sections it touches, so this gives the
stored numbers again, with every step shown.
"""

from __future__ import annotations

from sqlalchemy import Connection

from ..core.pipeline import rate_section
from ..core.pre_event import prepare
from ..core.results import SectionResult
from .run import member_ids, states_and_facts
from .store import aliases, section_key
from .submission import stored_event


def explain_event(c: Connection, event_id: str) -> list[SectionResult]:
    """Each section of a stored event with its explanations, in section order; [] for an
    event the database does not hold."""
    stored = stored_event(c, event_id)
    if stored is None:
        return []
    event, pre_ratings = stored
    merged = aliases(c)
    results = []
    for section in sorted(event.sections, key=lambda s: s.number):
        ids = member_ids(section, merged)
        states, facts, floors = states_and_facts(c, set(ids.values()),
                                                 before_key=section_key(event_id, section))
        results.append(rate_section(prepare(section, ids, states, facts, floors, pre_ratings)))
    return results
