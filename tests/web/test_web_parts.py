"""Small parts of the web app: the chart, sizes, the crosstable's view, `uscf serve`."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from uscf_ratings.cli.main import cli
from uscf_ratings.web.chart import NARROW, Point, history_svg, points_from_history, time_ticks
from uscf_ratings.web.settings import parse_size


def history(days: list[str], posts: list[float], pre: float | None = 1500.0
            ) -> list[dict[str, object]]:
    return [{"system": "R", "end_date": day, "event": f"E{m}", "event_id": f"e{m}",
             "pre": pre if m == 0 else posts[m - 1], "post": post, "games_after": 30 + m}
            for m, (day, post) in enumerate(zip(days, posts, strict=True))]


def polyline(svg: str) -> list[tuple[float, float]]:
    found = re.search(r'<polyline class="line" points="([^"]+)"', svg)
    assert found is not None
    return [(float(x), float(y)) for x, y in (p.split(",") for p in found.group(1).split())]


def test_chart_places_events_by_date() -> None:
    """Events on January 1, January 8 and July 1: 7 days, then 174 days apart, so the
    second gap is drawn about 174 / 7 = 25 times as wide as the first. The rating the
    history starts from is drawn on the first event's day."""
    svg = history_svg(points_from_history(history(
        ["2026-01-01", "2026-01-08", "2026-07-01"], [1490.0, 1610.0, 1550.0]), "R"), "Regular")
    points = polyline(svg)
    xs = [x for x, _ in points]
    assert len(points) == 4 and xs[0] == xs[1] < xs[2] < xs[3]
    assert 23 < (xs[3] - xs[2]) / (xs[2] - xs[1]) < 27  # pixels are whole: about 25
    ys = [y for _, y in points]
    assert ys[2] < ys[3] < ys[0] < ys[1]  # 1610 > 1550 > 1500 > 1490: higher is drawn higher
    assert svg.count("<circle") == 4 and "2026-01-08 E1: 1610" in svg


def test_chart_of_an_unrated_start_and_one_event() -> None:
    svg = history_svg(points_from_history(history(["2026-03-01"], [1200.0], pre=None), "R"), "R")
    assert len(polyline(svg)) == 1 and svg.count("<circle") == 1


def test_chart_scales_to_the_ratings_and_marks_a_floor_below_them() -> None:
    """Ratings 1950 to 2010 with a floor of 100. The axis covers the ratings with 5
    points to spare, 1945 to 2015: a span of 70, so a step of 20 (a step of 10 would
    make 7 gridlines, more than 6), from 1940 to 2020; not down to 100. The floor is
    written at the bottom edge."""
    points = [Point(date(2026, 1, 1 + i), 1950.0 + 10 * i, "") for i in range(7)]
    svg = history_svg(points, "Regular", floor=100.0)
    levels = [int(v) for v in re.findall(r'text-anchor="end">(\d+)</text>', svg)]
    assert min(levels) == 1940 and max(levels) == 2020
    assert 'class="floor"' not in svg and "floor 100, below the chart" in svg
    inside = history_svg(points, "Regular", floor=1960.0)
    assert 'class="floor"' in inside and "floor 1960<" in inside


def test_chart_has_axis_titles_and_a_summary() -> None:
    points = [Point(date(2025, 5, 3), 1500.0, "A"), Point(date(2026, 2, 7), 1580.0, "B")]
    svg = history_svg(points, "Quick", width=NARROW)
    assert '<svg class="chart narrow" width="360"' in svg
    assert ">Rating</text>" in svg and ">Date (each point: an event's last day)</text>" in svg
    assert ("<desc>2 events from 2025-05-03 to 2026-02-07: from 1500 to 1580; lowest 1500 "
            "(2025-05-03), highest 1580 (2026-02-07).</desc>") in svg


@pytest.mark.parametrize(("first", "last", "most", "labels"), [
    # seven years: a tick each year, or every second year where four fit
    (date(2019, 6, 1), date(2026, 6, 1), 7, ["2020", "2021", "2022", "2023", "2024", "2025", "2026"]),
    (date(2019, 6, 1), date(2026, 6, 1), 4, ["2020", "2022", "2024", "2026"]),
    # five months: a tick each month, the year on the first
    (date(2026, 1, 15), date(2026, 6, 20), 7, ["Feb 2026", "Mar", "Apr", "May", "Jun"]),
    # across a new year: the year on January's tick
    (date(2025, 10, 15), date(2026, 2, 20), 7, ["Nov 2025", "Dec", "Jan 2026", "Feb"]),
])
def test_time_ticks(first: date, last: date, most: int, labels: list[str]) -> None:
    assert [t.label for t in time_ticks(first, last, most)] == labels


def test_chart_escapes_event_names() -> None:
    svg = history_svg([Point(date(2026, 1, 1), 1500.0, "<b>&</b>")], "R")
    assert "<b>" not in svg and "&lt;b&gt;&amp;&lt;/b&gt;" in svg


@pytest.mark.parametrize(("text", "size"), [("2M", 2 * 1024 * 1024), ("512K", 524288),
                                             ("1.5MiB", 1572864), ("1000", 1000)])
def test_sizes(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "big", "0", "-1K"])
def test_bad_sizes(text: str) -> None:
    with pytest.raises(ValueError):
        parse_size(text)


def test_serve_is_a_command_with_its_options() -> None:
    out = CliRunner().invoke(cli, ["serve", "--help"])
    assert out.exit_code == 0
    for option in ("--db URL", "--host", "--port", "--max-upload SIZE"):
        assert option in out.output


def test_serve_refuses_a_database_without_a_schema(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["serve", "--db", f"sqlite:///{tmp_path / 'new.db'}"])
    assert out.exit_code == 1 and "uscf db init" in out.output


def test_serve_refuses_a_bad_size() -> None:
    out = CliRunner().invoke(cli, ["serve", "--max-upload", "lots"])
    assert out.exit_code == 2 and "not a size" in out.output


def test_search_finds_what_the_rule_says() -> None:
    """The kept search index (a few text scans) finds exactly the rows the rule names:
    the id starts with the search or the name contains it, case ignored; in the rows'
    order."""
    import random

    from uscf_ratings.web.lists import Searchable

    chosen = random.Random(3)
    rows = sorted(("".join(chosen.choice("0123") for _ in range(chosen.randint(1, 4))),
                   "".join(chosen.choice("abcAB ") for _ in range(chosen.randint(0, 8))))
                  for _ in range(2000))
    index = Searchable(rows, [i for i, _ in rows], [name for _, name in rows])
    for search in ("a", "ab", "B", "1", "12", "0", "ca", "b ", "x", "  Ab", "", "a\nb"):
        text = search.strip().lower()
        expected = rows if not text else [
            (i, name) for i, name in rows
            if "\n" not in text and (i.startswith(text) or text in name.lower())]
        assert index.search(search) == expected, search
