"""uscf-ratings: the US Chess rating system, complete and exact.

The core (`uscf_ratings.core`) is pure: frozen dataclasses in, frozen dataclasses
out, no I/O. File formats, the CLI and the fidelity report are layers around it.
"""

from .core.model import Event, Player, Rating, Result, Section, System
from .core.pipeline import rate_section
from .core.results import RatingResult, SectionResult
from .core.rules import RuleSet, rules_for
from .formats.event_json import parse_event, read_event

__all__ = [
    "Event",
    "Player",
    "Rating",
    "RatingResult",
    "Result",
    "RuleSet",
    "Section",
    "SectionResult",
    "System",
    "parse_event",
    "rate_section",
    "read_event",
    "rules_for",
]
