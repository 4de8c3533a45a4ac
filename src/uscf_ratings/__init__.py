"""uscf-ratings: the US Chess rating system, complete and exact.

The core (`uscf_ratings.core`) is pure: frozen dataclasses in, frozen dataclasses
out, no I/O. File formats, the CLI and the fidelity report are layers around it.

`read_any` reads an event from any format a director's program writes (event JSON, a
US Chess rating report, FIDE TRF, SwissSys, WinTD, a CSV crosstable, PGN), telling the
format from the content and the extension; `read_event` and `parse_event` read event
JSON alone. `rate_section` rates one section:

>>> from datetime import date
>>> import uscf_ratings as uscf
>>> event = uscf.read_any("docs/examples/quad.sjson", event_date=date(2026, 9, 12))
>>> event.name, len(event.sections)
('Maple Quad', 1)
>>> first = uscf.rate_section(event.sections[0]).players[0]
>>> first.name, {s.value: r.post_rounded for s, r in first.ratings.items()}
('Quinn, Ada', {'R': 1443, 'Q': 1459})

The names below are imported when first used (PEP 562), so that importing a part of
the package (the CLI, whose ``--help`` needs none of them) does not load the core.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .core.model import Event, Player, Rating, Result, Section, System
    from .core.pipeline import rate_section
    from .core.results import RatingResult, SectionResult
    from .core.rules import RuleSet, rules_for
    from .formats.detect import read_any
    from .formats.event_json import parse_event, read_event

#: each public name and the module it comes from
_FROM = {
    "Event": "core.model", "Player": "core.model", "Rating": "core.model",
    "Result": "core.model", "Section": "core.model", "System": "core.model",
    "rate_section": "core.pipeline", "RatingResult": "core.results",
    "SectionResult": "core.results", "RuleSet": "core.rules", "rules_for": "core.rules",
    "parse_event": "formats.event_json", "read_event": "formats.event_json",
    "read_any": "formats.detect",
}

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
    "read_any",
    "read_event",
    "rules_for",
]


def __getattr__(name: str) -> Any:
    if name not in _FROM:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_FROM[name]}", __name__), name)
    globals()[name] = value  # the next use finds it directly
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_FROM})
