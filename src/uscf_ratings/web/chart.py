"""A rating-history chart, drawn on the server as SVG: no script, nothing to fetch.

Events are placed by date on a time axis, so months without a game look like months.
The rating axis covers the ratings, not the floor: a floor far below them is marked at
the bottom edge with its value instead of squashing the line; its label goes where the
line does not cross it, and no tick label runs past the edge. The chart is drawn three
times, for a phone's width, a tablet's and a desktop's (the page's stylesheet shows one),
so that its text keeps its size instead of shrinking or growing with the picture and the
chart uses the width it is given; each has a title and a summary for screen readers, and
the page lists every number in its history table.

>>> from datetime import date
>>> points = [Point(date(2024, 3, 2), 1450.0, "Spring Open"),
...           Point(date(2026, 8, 1), 1620.4, "Club")]
>>> svg = history_svg(points, "Regular", floor=1300.0, width=WIDE)
>>> svg.count("<circle"), '<polyline' in svg, "Rating" in svg
(2, True, True)
>>> [t.label for t in time_ticks(date(2024, 3, 2), date(2026, 8, 1), 8)]
['2025', '2026']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from html import escape
from typing import Any

NARROW, WIDE, DESKTOP = 360, 640, 1100  #: the widths drawn, in CSS pixels
WIDTHS = (NARROW, WIDE, DESKTOP)
CHAR_W = 6.8  #: the width of a character of the axis's 12 px text, at most (for room)
HEIGHT = 250
LEFT, RIGHT, TOP, BOTTOM = 56, 14, 12, 46  #: room for the tick labels and axis titles
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@dataclass(frozen=True)
class Point:
    day: date  #: the event's last day
    rating: float
    event: str


@dataclass(frozen=True)
class Tick:
    day: date
    label: str


def points_from_history(history: Sequence[dict[str, Any]], system: str) -> list[Point]:
    """The chart's points for one system, from `uscf_ratings.office.queries.player`'s
    history (oldest first): each event's post-event rating on its last day, after the
    rating the first one started from (if the player had one)."""
    rows = [h for h in history if h["system"] == system and h["post"] is not None]
    points = [Point(date.fromisoformat(h["end_date"]), h["post"], h["event"] or h["event_id"])
              for h in rows]
    if rows and rows[0]["pre"] is not None:  # where the record starts: drawn on the same day
        points.insert(0, replace(points[0], rating=rows[0]["pre"],
                                 event=f"before {points[0].event}"))
    return points


def time_ticks(first: date, last: date, most: int) -> list[Tick]:
    """Ticks at the starts of years, of months or of weeks, whichever gives at most
    ``most`` ticks between ``first`` and ``last``."""
    for years in (1, 2, 5, 10, 20, 50):
        ticks = [Tick(date(y, 1, 1), str(y)) for y in range(first.year, last.year + 1)
                 if y % years == 0 and first <= date(y, 1, 1) <= last]
        if len(ticks) >= 2 and len(ticks) <= most:
            return ticks
    for months in (1, 2, 3, 6):  # the year on the first tick and on each January's
        starts = [d for d in _month_starts(first, last) if (d.month - 1) % months == 0]
        if 2 <= len(starts) <= most:
            return [Tick(d, MONTHS[d.month - 1] + (f" {d.year}" if i == 0 or d.month <= months
                                                   else ""))
                    for i, d in enumerate(starts)]
    days = max(1, math.ceil((last - first).days / max(most - 1, 1)))
    start = first + timedelta(days=(7 - first.weekday()) % 7) if days >= 7 else first
    return [Tick(d, f"{MONTHS[d.month - 1]} {d.day}")
            for d in (start + timedelta(days=days * i) for i in range(most)) if d <= last]


def _month_starts(first: date, last: date) -> list[date]:
    found = []
    year, month = first.year, first.month
    while (year, month) <= (last.year, last.month):
        if date(year, month, 1) >= first:
            found.append(date(year, month, 1))
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return found


def rating_ticks(low: float, high: float) -> tuple[float, float, int]:
    """The rating axis: its bottom and top on a round step, and the step (about four to
    seven gridlines)."""
    step = next((s for s in (10, 20, 25, 50, 100, 200, 250, 500) if (high - low) / s <= 6), 1000)
    bottom = math.floor(low / step) * step
    top = math.ceil(high / step) * step
    if top - bottom < step:  # one rating: a step either side
        bottom, top = bottom - step, top + step
    return bottom, top, step


def history_svg(points: Sequence[Point], system: str, floor: float | None = None,
                width: int = WIDE) -> str:
    """The chart as an ``<svg>`` element ``width`` pixels wide: the points joined by a
    ``<polyline>``, the floor dashed."""
    ratings = [p.rating for p in points] or [1000.0]
    bottom, top, step = rating_ticks(min(ratings) - 5, max(ratings) + 5)
    first = min((p.day for p in points), default=date(2000, 1, 1))
    last = max((p.day for p in points), default=first)
    pad = timedelta(days=max(15, (last - first).days // 40))
    start, end = first - pad, last + pad
    inner_w, inner_h = width - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(day: date) -> float:
        return LEFT + inner_w * (day - start).days / (end - start).days

    def y(rating: float) -> float:
        return TOP + inner_h * (top - rating) / (top - bottom)

    title = f"{system} rating history"
    kind = "desktop" if width >= DESKTOP else "wide" if width >= WIDE else "narrow"
    parts = [f'<svg class="chart {kind}" width="{width}" height="{HEIGHT}" '
             f'viewBox="0 0 {width} {HEIGHT}" role="img" xmlns="http://www.w3.org/2000/svg">',
             f"<title>{escape(title)}</title>", f"<desc>{escape(summary(points))}</desc>"]
    for level in range(int(bottom), int(top) + 1, step):
        parts += [f'<line class="grid" x1="{LEFT}" x2="{width - RIGHT}" y1="{y(level):.0f}" '
                  f'y2="{y(level):.0f}"/>',
                  f'<text class="axis" x="{LEFT - 6}" y="{y(level) + 4:.0f}" '
                  f'text-anchor="end">{level}</text>']
    for tick in time_ticks(start, end, max(4, inner_w // 85)):
        at, anchor = _label_place(x(tick.day), len(tick.label) * CHAR_W, width)
        parts += [f'<line class="tick" x1="{x(tick.day):.0f}" x2="{x(tick.day):.0f}" '
                  f'y1="{HEIGHT - BOTTOM}" y2="{HEIGHT - BOTTOM + 5}"/>',
                  f'<text class="axis" x="{at:.0f}" y="{HEIGHT - BOTTOM + 18}" '
                  f'text-anchor="{anchor}">{escape(tick.label)}</text>']
    line = [(x(p.day), y(p.rating)) for p in points]
    parts += _floor(floor, bottom, top, y, width, line)
    parts.append(f'<line class="frame" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" '
                 f'y2="{HEIGHT - BOTTOM}"/>')
    parts.append(f'<text class="title" x="{LEFT + inner_w / 2:.0f}" y="{HEIGHT - 6}" '
                 'text-anchor="middle">Date (each point: an event\'s last day)</text>')
    parts.append(f'<text class="title" transform="translate(14 {TOP + inner_h / 2:.0f}) '
                 'rotate(-90)" text-anchor="middle">Rating</text>')
    coords = " ".join(f"{x(p.day):.0f},{y(p.rating):.0f}" for p in points)
    parts.append(f'<polyline class="line" points="{coords}"/>')
    for p in points:
        parts.append(f'<circle class="point" cx="{x(p.day):.0f}" cy="{y(p.rating):.0f}" '
                     f'r="3.5"><title>{p.day.isoformat()} {escape(p.event)}: '
                     f'{p.rating:g}</title></circle>')
    parts.append("</svg>")
    return "\n".join(parts)


def _label_place(at: float, wide: float, width: int) -> tuple[float, str]:
    """Where a tick label of ``wide`` pixels goes, centred under its tick unless that
    would run past an edge of the drawing: then it ends (or starts) at the edge."""
    if at + wide / 2 > width - 2:
        return width - 2, "end"
    if at - wide / 2 < 2:
        return 2, "start"
    return at, "middle"


def _floor(floor: float | None, bottom: float, top: float, y: Callable[[float], float],
           width: int, line: Sequence[tuple[float, float]]) -> list[str]:
    """The floor as a dashed line where it lies within the axis, labelled where the
    rating line does not cross the label (`_clear_place`); below the axis, a note at the
    bottom edge (a floor of 100 under ratings near 2000 would flatten the line)."""
    if not floor:
        return []
    if floor >= bottom:
        at = y(min(floor, top))
        text = f"floor {floor:g}"
        label_x, label_y, anchor = _clear_place(text, at, width, line)
        return [f'<line class="floor" x1="{LEFT}" x2="{width - RIGHT}" y1="{at:.0f}" '
                f'y2="{at:.0f}"/>',
                f'<text class="floor-label" x="{label_x:.0f}" y="{label_y:.0f}" '
                f'text-anchor="{anchor}">{text}</text>']
    return [f'<text class="floor-label" x="{width - RIGHT - 4}" y="{y(bottom) - 6:.0f}" '
            f'text-anchor="end">floor {floor:g}, below the chart &#8595;</text>']


def _clear_place(text: str, at: float, width: int, line: Sequence[tuple[float, float]]
                 ) -> tuple[float, float, str]:
    """The floor label's place (its x, baseline and anchor): at the right end above the
    floor line, else the left end, else below the line at either end, the first whose
    box no part of the rating line crosses; the one crossed least if every one is.

    >>> _clear_place("floor 1300", 200.0, 360, [(60.0, 195.0), (340.0, 195.0)])
    (342, 214.0, 'end')
    """
    wide = len(text) * CHAR_W
    right, left = width - RIGHT - 4, LEFT + 4
    places = [(right, at - 5, "end"), (left, at - 5, "start"),
              (right, at + 14, "end"), (left, at + 14, "start")]

    def crossings(place: tuple[float, float, str]) -> int:
        x, baseline, anchor = place
        x0 = x - wide if anchor == "end" else x
        box = (x0 - 2, baseline - 12, x0 + wide + 2, baseline + 3)
        segments = list(zip(line, line[1:], strict=False)) or [(pt, pt) for pt in line]
        return sum(_crosses(a, b, box) for a, b in segments)

    return min(places, key=crossings)  # the first of the least crossed


def _crosses(a: tuple[float, float], b: tuple[float, float],
             box: tuple[float, float, float, float]) -> bool:
    """Whether the segment from ``a`` to ``b`` passes through the box (x0, y0, x1, y1):
    the part of the segment within the box's x-range and within its y-range overlap
    (Liang and Barsky's clipping, in parameter t from 0 at ``a`` to 1 at ``b``).

    >>> _crosses((0, 0), (10, 10), (4, 4, 6, 6)), _crosses((0, 0), (10, 0), (4, 1, 6, 3))
    (True, False)
    """
    low, high = 0.0, 1.0
    for start, change, lo, hi in ((a[0], b[0] - a[0], box[0], box[2]),
                                  (a[1], b[1] - a[1], box[1], box[3])):
        if change == 0:
            if not lo <= start <= hi:
                return False
            continue
        t0, t1 = sorted(((lo - start) / change, (hi - start) / change))
        low, high = max(low, t0), min(high, t1)
    return low <= high


def summary(points: Sequence[Point]) -> str:
    """The chart in one sentence, for a screen reader."""
    if not points:
        return "No rated event yet."
    low = min(points, key=lambda p: p.rating)
    high = max(points, key=lambda p: p.rating)
    events = "one event" if len(points) == 1 else f"{len(points)} events"
    return (f"{events} from {points[0].day.isoformat()} to {points[-1].day.isoformat()}: "
            f"from {points[0].rating:g} to {points[-1].rating:g}; lowest {low.rating:g} "
            f"({low.day.isoformat()}), highest {high.rating:g} ({high.day.isoformat()}).")
