"""What several file formats need alike: which systems a time control is rated in, and
which system a file's single rating column belongs to."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from typing import Any

from ..core.model import System
from ..core.rules import rules_for
from ..core.timecontrol import parse_time_control, systems_for
from .errors import Issue, ParseError


def systems_of(time_control: str | None, day: date, online: bool = False) -> tuple[System, ...] | None:
    """The systems a time control is rated in on ``day``, or None when that cannot be
    known (no time control, one that cannot be read, or a date before the rules)."""
    if not time_control:
        return None
    try:
        return systems_for(parse_time_control(time_control), online, rules_for(day))
    except ValueError:
        return None


def main_system(systems: Sequence[System] | None, time_control: str | None = None,
                day: date | None = None, online: bool = False) -> System:
    """The system whose rating a file's one rating column holds: Regular for R and dual
    sections, else the section's one system; with no systems given, those of the time
    control on ``day``; Regular if even that is unknown."""
    if not systems and day is not None:
        systems = systems_of(time_control, day, online)
    if not systems or System.R in systems:
        return System.R
    return systems[0]


def kind_of(value: Any) -> str:
    """A JSON value's kind, in words, for error messages."""
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false",
             int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)


def load_json(text: str, source: str) -> Any:
    """Parse JSON text, or raise a ParseError naming the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(source, [Issue(f"line {error.lineno} column {error.colno}",
                                        f"not valid JSON: {error.msg}")]) from None
