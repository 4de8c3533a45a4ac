"""Rating an event for the app, exactly as ``uscf rate`` does, with refusals as 422s."""

from __future__ import annotations

from typing import Any

from ..core.model import Event
from ..core.pipeline import rate_section
from ..core.results import SectionResult
from ..core.settled import settled
from ..formats.result_json import results_document
from .problems import RATING_FAILURES, from_rating_error


def rate_event(event: Event) -> list[SectionResult]:
    """Every section of ``event`` rated by the rules of its date (nothing is stored),
    its defaults filled in as `uscf rate` and the office fill them (core/settled.py)."""
    return _rated(settled(event))


def rate_document(event: Event) -> dict[str, Any]:
    """The JSON of ``uscf rate --json`` for this one event: the sender's own numbers,
    with the notice that they hold an age where a rating started from a birth date."""
    event = settled(event)
    return results_document([(event, _rated(event))])


def _rated(event: Event) -> list[SectionResult]:
    """The sections of a settled event rated, a refusal as a 422."""
    try:
        return [rate_section(s) for s in event.sections]
    except RATING_FAILURES as error:
        raise from_rating_error(error, event.id) from None
