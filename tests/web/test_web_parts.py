"""Small parts of the web app: the chart, sizes, the crosstable's view, `uscf serve`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from uscf_ratings.cli.main import cli
from uscf_ratings.web.chart import Point, history_svg, points_from_history
from uscf_ratings.web.settings import parse_size


def history(posts: list[float], pre: float | None = 1500.0) -> list[dict[str, object]]:
    return [{"system": "R", "end_date": f"2026-{m + 1:02d}-01", "event": f"E{m}",
             "pre": pre if m == 0 else posts[m - 1], "post": post, "games_after": 30 + m}
            for m, post in enumerate(posts)]


def polyline(svg: str) -> list[tuple[float, float]]:
    found = re.search(r'<polyline class="line" points="([^"]+)"', svg)
    assert found is not None
    return [(float(x), float(y)) for x, y in (p.split(",") for p in found.group(1).split())]


def test_chart_draws_the_start_and_every_event_left_to_right() -> None:
    svg = history_svg(points_from_history(history([1520.0, 1490.0, 1610.0]), "R"), "R")
    points = polyline(svg)
    assert len(points) == 4
    assert [x for x, _ in points] == sorted(x for x, _ in points)
    ys = [y for _, y in points]
    assert ys[3] < ys[1] < ys[0] < ys[2]  # higher ratings are drawn higher
    assert svg.count("<circle") == 4 and "2026-03-01 E2: 1610.00 (N 32)" in svg


def test_chart_of_an_unrated_start_and_one_event() -> None:
    svg = history_svg(points_from_history(history([1200.0], pre=None), "R"), "R")
    assert len(polyline(svg)) == 1 and svg.count("<circle") == 1


def test_chart_shows_the_floor_and_labels_at_most_six_dates() -> None:
    points = [Point(1400.0 + i, f"2026-01-{i + 1:02d}", "") for i in range(20)]
    svg = history_svg(points, "R", floor=1300.0)
    assert 'class="floor"' in svg
    labels = re.findall(r'text-anchor="(?:start|middle|end)">(2026[^<]+)<', svg)
    assert 1 < len(labels) <= 7 and labels[-1] == "2026-01-20"


def test_chart_escapes_event_names() -> None:
    svg = history_svg([Point(1500.0, "", "<b>&</b>")], "R")
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
