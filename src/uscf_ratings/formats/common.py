"""What several file formats need alike: which systems a time control is rated in,
which system a file's single rating column belongs to, the one refusal of a section
whose systems cannot be read from its file (`require_systems`), and the one check of
every value read (`in_domain`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from datetime import date
from typing import Any

from ..core.domain import event_problems
from ..core.model import Event, SectionType, System
from ..core.rules import rules_for
from ..core.timecontrol import parse_time_control, systems_for
from ..core.validate import section_label
from .bounds import MAX_NUMBER_CHARS, check_event_size, parse_json
from .errors import Issue, ParseError


def in_domain(event: Event, source: str) -> Event:
    """``event`` as read, if it is within the caps on players and results
    (`bounds.check_event_size`) and every value is in its domain (core/domain.py); else
    a `ParseError` naming ``source`` and, for each value, its place, the field and what
    was expected: the same words whichever reader or door read it."""
    check_event_size(event, source)
    problems = event_problems(event)
    if problems:
        raise ParseError(source, [Issue(p.place, p.message) for p in problems])
    return event


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
    control on ``day``; Regular if even that is unknown (the column is then read as
    Regular, but such a section is not rated: see `require_systems`)."""
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


def utf8_text(raw: bytes, source: str) -> str:
    """A file's bytes as UTF-8 text (a byte-order mark dropped), or a ParseError saying
    where they are not."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ParseError(source, [Issue("", f"not UTF-8 text ({error.reason} at byte "
                                        f"{error.start})")]) from None


def load_json(text: str, source: str) -> Any:
    """Parse JSON text, or raise a ParseError naming the line and column: invalid JSON,
    nesting too deep or a number too long (`bounds.parse_json`, the one rule)."""
    return parse_json(text, source)


# --- numbers: ASCII digits only, and not too many of them ---------------------------------
# str.isdigit and the regex class \d accept superscripts and other scripts' digits ('¹',
# '٣', '５'), some of which int() refuses: a reader that checked with isdigit and then
# called int crashed. Every reader checks numbers with these instead. A number is at most
# `bounds.MAX_NUMBER_CHARS` characters, as in JSON: int() refuses more than 4,300 digits
# (a ValueError the fuzzer found in six readers), and the domain (core/domain.py) then
# refuses whatever is out of range in its own words.

_WHOLE = re.compile(r"[0-9]{1,%d}" % MAX_NUMBER_CHARS)
_DECIMAL = re.compile(r"(?=.{1,%d}\Z)[0-9]+(?:\.[0-9]+)?" % MAX_NUMBER_CHARS, re.DOTALL)


def is_digits(text: str) -> bool:
    """Whether ``text`` is one to `MAX_NUMBER_CHARS` ASCII digits 0-9, nothing else (no
    sign, space, separator or other script's digit)."""
    return _WHOLE.fullmatch(text) is not None


def whole(text: str) -> int | None:
    """The whole number written in ASCII digits, or None for anything else."""
    return int(text) if _WHOLE.fullmatch(text) else None


def decimal(text: str) -> float | None:
    """A number written as ASCII digits with an optional decimal point and fraction
    (``1850``, ``1850.37``), or None for anything else (signs, exponents, ``_``, ``,``)."""
    return float(text) if _DECIMAL.fullmatch(text) else None


# --- what a user gives beside the file: the date and the rating systems --------------------

#: The option that gives a file's date, named in the message of a file without one.
DATE_HELP = "give the date with --date YYYY-MM-DD"
#: A placeholder date while a file without one is read on (to report every problem) and
#: then refused; no rule set covers it.
UNDATED = date(1900, 1, 1)


def undated(where: str, expected: str) -> Issue:
    """The issue of a file that states no date: it is never rated as of today."""
    return Issue(where, "missing: the file gives no date for the event "
                        f"(expected {expected}); "
                        f"{DATE_HELP}")


def parse_systems(text: str) -> tuple[System, ...]:
    """``R`` or ``R,Q`` (as --systems takes them) as systems; ValueError naming the
    text and the allowed codes otherwise."""
    codes = [code.strip() for code in text.split(",")]
    try:
        chosen = tuple(System(code) for code in codes)
    except ValueError:
        raise ValueError(f"{text!r}: expected systems such as R or R,Q (each one of "
                         + ", ".join(s.value for s in System) + ")") from None
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"{text!r}: a system is named twice")
    return chosen


def with_systems(event: Event, systems: tuple[System, ...], source: str) -> Event:
    """The event with ``systems`` (as --systems gives them) for every section that states
    neither its systems nor a time control we can read; a section that states other
    systems, or a time control rated in other systems, is refused with a `ParseError`
    naming ``source``, the section and what the file states. Readers take the same
    systems for those sections themselves (their single rating column depends on them);
    this checks every format alike and fills what a reader left open."""
    given = ",".join(s.value for s in systems)
    issues: list[Issue] = []
    sections = []
    for s in event.sections:
        if s.systems:
            if set(s.systems) != set(systems):
                issues.append(Issue(section_label(s), "the file states the systems "
                                    f"{','.join(x.value for x in s.systems)}; --systems "
                                    f"gives {given}"))
            sections.append(s)
            continue
        own = systems_of(s.time_control, s.start_date, s.online or event.online)
        if own is not None and set(own) != set(systems):
            issues.append(Issue(section_label(s), f"the file states the time control "
                                f"{s.time_control!r}, rated in {','.join(x.value for x in own)} "
                                f"on {s.start_date}; --systems gives {given}"))
        sections.append(s if own is not None else replace(s, systems=systems))
    if issues:
        raise ParseError(source, issues)
    return replace(event, sections=tuple(sections))


#: what a rating door says to a section whose systems it cannot know
SYSTEMS_HELP = ("give the systems with --systems (R, Q, B, OR, OQ, OB; R,Q for a "
                "dual-rated section)")


def unknown_systems(event: Event) -> list[Issue]:
    """Each section whose rating systems the file does not give: it states none, and no
    time control that can be read on its date (footnote 1 of the rating system chooses
    the systems by the time control). A FIDE foreign event is rated R (section 7)."""
    issues = []
    for s in event.sections:
        if s.systems or s.type is SectionType.FIDE_FOREIGN or \
                systems_of(s.time_control, s.start_date, s.online or event.online):
            continue
        what = (f"its time control {s.time_control!r} cannot be read on {s.start_date}"
                if s.time_control else "it gives no time control")
        issues.append(Issue(section_label(s), f"the file states no rating system and {what}: "
                            f"{SYSTEMS_HELP}"))
    return issues


def require_systems(event: Event, source: str) -> Event:
    """``event``, if every section's systems are known; else a `ParseError` naming
    ``source`` and each section whose are not. Every door that rates a file calls it
    once it is read (with ``--systems`` applied): nothing is rated in a system assumed
    (`uscf rate`, `uscf db rate`, `uscf experiment`)."""
    issues = unknown_systems(event)
    if issues:
        raise ParseError(source, issues)
    return event
