"""Time controls as tournament directors write them, and the rating systems they select.

The 2025 text (footnote 1; the 2024 text's footnote 1 is the same) defines the quantity
the rating systems are chosen by: "For a time control, write mm as the total 'main time'
in minutes, and ss as the delay or increment in seconds." The systems then depend only on
T = mm + ss; the ranges, which changed over the years, are data in
`uscf_ratings.core.rules` and are not repeated here.

Accepted notation (any case, any spacing):

* a sudden-death period: ``G/90``, ``Game/60``, ``G45``, ``Game in 60``, ``SD/30``;
* a period with a move count: ``40/120`` (40 moves in 120 minutes), followed by more
  periods separated by commas, semicolons or spaces: ``40/120,SD/30``, ``30/90, SD/60``;
* extra time after any period, optionally after ``;`` or a space: ``d5``, ``delay 5``,
  ``t/d5``, ``td5`` for a delay; ``+5``, ``inc5``, ``increment 5``, ``i5`` for an increment;
  a trailing ``s``/``sec`` on the seconds is allowed (``G/90+30s``);
* a bare ``minutes+seconds`` (``90+30``) or bare minutes (``60``);
* the online style ``minutes increment`` (``5 0``: 5 minutes, 0-second increment), or
  ``minutes|increment``.

Decisions (the documents define mm and ss but not the notation):

* mm is the sum of the main times of all periods, because the footnote defines mm as the
  *total* main time: ``40/120,SD/30;d10`` has mm = 120 + 30 = 150 and ss = 10.
* ss is one value. When extra time is written more than once, the last one written wins:
  it is the one that applies to the last period (extra time written on an earlier period
  carries on to later ones unless another is written).
* ``d`` means delay; ``+`` and ``inc`` mean increment. Without extra time ss = 0 and the
  kind is ``None``; ``G/5;d0`` and ``G/5+0`` keep their kind with ss = 0.
* A sudden-death period (``G/``, ``SD/``) ends the control; a bare number is read only
  as the whole control (``60``, ``90+30``, ``5 0``), never as a later period.
* Hours are not recognised: ``40/2, SD/1`` reads as minutes (T = 3, which
  `systems_for` refuses as too fast for any system).

Anything else raises `TimeControlError`, which quotes the text.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .model import System
from .rules import RuleSet

ExtraKind = Literal["delay", "increment"]

_EXPECTED = (
    "expected a time control such as 'G/90;d30', 'G/3+2', '40/120,SD/30;d10', "
    "'90+30' or '5 0'"
)

_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
_PERIOD = re.compile(
    r"(?:(?P<moves>[0-9]+)\s?/\s?|(?P<sd>game|g|sd)\s?(?:in\s?)?/?\s?)?"
    rf"(?P<minutes>{_NUMBER})",
    re.ASCII,
)
_EXTRA = re.compile(
    r"[\s;]*(?:(?P<delay>t\s?/\s?d|td|delay|d)|(?P<increment>\+|increment|inc|i))"
    rf"\s?(?P<seconds>{_NUMBER})(?:\s?(?:secs|sec|s)\b)?",
    re.ASCII,
)
_ONLINE = re.compile(rf"(?P<minutes>{_NUMBER})(?:\s|\s?\|\s?)(?P<seconds>{_NUMBER})", re.ASCII)
_SEPARATORS = " ,;"


class TimeControlError(ValueError):
    """A time control that cannot be read, or that no rating system covers."""


@dataclass(frozen=True)
class Period:
    """One period of a time control: ``moves`` in ``minutes`` (``None``: rest of game)."""

    moves: int | None
    minutes: float
    seconds: float = 0.0  #: extra time written on this period, in seconds
    kind: ExtraKind | None = None  #: kind of the extra time written on this period


@dataclass(frozen=True)
class TimeControl:
    """A parsed time control with mm and ss of the 2025 text, footnote 1."""

    text: str  #: the text as written
    minutes: float  #: mm, the total main time in minutes (all periods)
    seconds: float  #: ss, the delay or increment in seconds
    kind: ExtraKind | None  #: what ss is; ``None`` when no extra time is written
    periods: tuple[Period, ...]

    @property
    def total(self) -> float:
        """T = mm + ss, which selects the rating systems (2025 text, footnote 1)."""
        return self.minutes + self.seconds


def _fail(text: str, why: str = "") -> TimeControlError:
    detail = f" ({why})" if why else ""
    return TimeControlError(f"cannot read time control {text!r}{detail}: {_EXPECTED}")


def _number(text: str, digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise _fail(text, f"{digits} is too large")
    return value


def _moves(text: str, digits: str) -> int:
    if len(digits) > 6 or int(digits) == 0:
        raise _fail(text, f"{digits} is not a move count")
    return int(digits)


@lru_cache(maxsize=1024)  # a handful of controls recur in every event; errors are not kept
def parse_time_control(text: str) -> TimeControl:
    """Read a time control and compute mm and ss (2025 text, footnote 1).

    See the module docstring for the accepted notation and the reading of multi-period
    controls (mm is the sum of all main times; ss the last extra time written).

    >>> tc = parse_time_control("40/120,SD/30;d10")
    >>> tc.minutes, tc.seconds, tc.kind, tc.total
    (150.0, 10.0, 'delay', 160.0)
    >>> parse_time_control("G/3+2").total
    5.0
    """
    work = " ".join(text.split()).lower()
    if not work:
        raise _fail(text, "it is empty")

    online = _ONLINE.fullmatch(work)
    if online:
        minutes = _number(text, online["minutes"])
        seconds = _number(text, online["seconds"])
        period = Period(None, minutes, seconds, "increment")
        return TimeControl(text, minutes, seconds, "increment", (period,))

    periods: list[Period] = []
    pos = 0
    seconds = 0.0
    kind: ExtraKind | None = None
    while True:
        while pos < len(work) and work[pos] in _SEPARATORS:
            pos += 1
        if pos == len(work):
            break
        if periods and periods[-1].moves is None:
            raise _fail(text, f"nothing may follow a sudden-death period, found {work[pos:]!r}")
        match = _PERIOD.match(work, pos)
        if match is None:
            raise _fail(text, f"no period at {work[pos:]!r}")
        bare = match["moves"] is None and match["sd"] is None
        if bare and (periods or pos != 0):
            raise _fail(text, f"a later period needs 'SD/' or a move count, found {work[pos:]!r}")
        moves = _moves(text, match["moves"]) if match["moves"] is not None else None
        minutes = _number(text, match["minutes"])
        pos = match.end()
        extra = _EXTRA.match(work, pos)
        if extra:
            seconds = _number(text, extra["seconds"])
            kind = "delay" if extra["delay"] is not None else "increment"
            periods.append(Period(moves, minutes, seconds, kind))
            pos = extra.end()
        else:
            periods.append(Period(moves, minutes))
        if bare and pos != len(work):
            raise _fail(text, f"unexpected {work[pos:]!r} after {match[0]!r}")
    if not periods:
        raise _fail(text, "it has no period")
    main = math.fsum(p.minutes for p in periods)
    if not math.isfinite(main):
        raise _fail(text, "the main time is too large")
    return TimeControl(text, main, seconds, kind, tuple(periods))


def systems_for(tc: TimeControl, online: bool, rules: RuleSet) -> tuple[System, ...]:
    """The rating systems a time control is rated in (2025 text, footnote 1).

    A system applies when its range in ``rules.time_controls`` contains T = mm + ss, it is
    online exactly when ``online`` is true, and it exists under ``rules`` (``rules.systems``).
    The result is in the order R, Q, B, OR, OQ, OB; two systems means dual rating (an
    over-the-board G/30;d5 gives (R, Q): footnote 1, "which overlaps with the OTBR range").

    The ranges are data in `uscf_ratings.core.rules`. The 2017 and 2020 texts'
    opening paragraphs name G/10+0 in both ranges: Blitz "G/5 (or G/3+2) to G/10+0" and
    QC "G/10+0 through G/60+5". That overlap is resolved there as Blitz, as the 2024 and
    2025 texts say (5 <= mm + ss <= 10, QC 10 < mm + ss); the 2017 text's online QC runs
    to G/60+5, narrowed from 2020-06-01 to "slower than G/10+0 but quicker than G/30+0"
    when online Regular began.

    Raises `TimeControlError` naming T and the rule set's date when no system
    applies (for instance T < 5, or an online Regular game before online Regular existed).
    """
    total = tc.total
    systems = tuple(
        system
        for system in System
        if system.online == online
        and system in rules.systems
        and any(r.system == system and r.contains(total) for r in rules.time_controls)
    )
    if not systems:
        where = "online" if online else "over-the-board"
        raise TimeControlError(
            f"no {where} rating system for time control {tc.text!r} "
            f"(mm + ss = {total:g}) under the rules of {rules.effective.isoformat()}"
        )
    return systems
