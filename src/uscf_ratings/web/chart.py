"""A rating-history chart, drawn on the server as SVG: no script, nothing to fetch.

One step along the x axis is one rated event (as on a rating card), so a short history
is as readable as a long one; the dates are written under the points. The first point is
the rating the history starts from, when the player had one.

>>> svg = history_svg(points_from_history([
...     {"system": "R", "end_date": "2026-08-01", "event": "Club", "pre": 1850.37,
...      "post": 1845.9, "games_after": 124}], "R"), "R")
>>> svg.count("<circle"), "<polyline" in svg
(2, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import Any

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 52, 16, 14, 34  #: room for the axis labels
MAX_DATE_LABELS = 6


@dataclass(frozen=True)
class Point:
    rating: float
    label: str  #: the date written under the point ("" for none)
    title: str  #: the tooltip


def points_from_history(history: Sequence[dict[str, Any]], system: str) -> list[Point]:
    """The chart's points for one system, from `uscf_ratings.office.queries.player`'s
    history (oldest first)."""
    rows = [h for h in history if h["system"] == system and h["post"] is not None]
    points = []
    if rows and rows[0]["pre"] is not None:
        points.append(Point(rows[0]["pre"], "", f"before {rows[0]['event']}: {rows[0]['pre']:.2f}"))
    for h in rows:
        points.append(Point(h["post"], h["end_date"],
                            f"{h['end_date']} {h['event']}: {h['post']:.2f} (N {h['games_after']})"))
    return points


def _grid_step(span: float) -> int:
    """Gridlines every 50, 100, 200 or 500 points: about four to eight of them."""
    return next((s for s in (50, 100, 200, 500) if span / s <= 8), 1000)


def history_svg(points: Sequence[Point], system: str, floor: float | None = None) -> str:
    """The chart as an ``<svg>`` element; the points are joined by a ``<polyline>``."""
    values = [p.rating for p in points] + ([floor] if floor else [])
    low, high = min(values, default=1000.0), max(values, default=1000.0)
    step = _grid_step(max(high - low, 1.0))
    low = math.floor((low - 1) / step) * step
    high = math.ceil((high + 1) / step) * step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (inner_w * i / (len(points) - 1) if len(points) > 1 else inner_w / 2)

    def y(rating: float) -> float:
        return TOP + inner_h * (high - rating) / (high - low)

    parts = [(f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
              f'xmlns="http://www.w3.org/2000/svg" aria-label="{escape(system)} rating history">'),
             f"<title>{escape(system)} rating history</title>"]
    for level in range(int(low), int(high) + 1, step):
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{y(level):.1f}" y2="{y(level):.1f}"/>')
        parts.append(f'<text class="axis" x="{LEFT - 6}" y="{y(level) + 4:.1f}" '
                     f'text-anchor="end">{level}</text>')
    if floor:
        parts.append(f'<line class="floor" x1="{LEFT}" x2="{WIDTH - RIGHT}" '
                     f'y1="{y(floor):.1f}" y2="{y(floor):.1f}"><title>floor {floor:g}</title></line>')
    coords = " ".join(f"{x(i):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
    parts.append(f'<polyline class="line" points="{coords}"/>')
    labelled = [i for i, p in enumerate(points) if p.label]
    every = max(1, math.ceil(len(labelled) / MAX_DATE_LABELS))
    shown = set(labelled[::-every])  # counted from the end: the latest date is always shown
    for i, p in enumerate(points):
        parts.append(f'<circle class="point" cx="{x(i):.1f}" cy="{y(p.rating):.1f}" r="3.5">'
                     f"<title>{escape(p.title)}</title></circle>")
        if i in shown:  # the ends are anchored inside the chart, so as not to be cut off
            anchor = ("middle" if len(points) == 1 else "start" if i == 0
                      else "end" if i == len(points) - 1 else "middle")
            parts.append(f'<text class="axis" x="{x(i):.1f}" y="{HEIGHT - 10}" '
                         f'text-anchor="{anchor}">{escape(p.label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
