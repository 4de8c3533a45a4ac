"""An experiment's results as a table (text and CSV) and plots (PNG).

The table has a row per variant: the games scored, mean log loss and Brier score (all
games, established players, games with a provisional player), the mean and spread of the
rating changes, the median rating of the followed system at the end, and how far the last
ratings are from the baseline's. A second table has a row per variant with the norms it
awards by level and the members holding each title at the end (awards.py). The CSV holds
the same and more in long form, one measure per row, including every rating band and
every calibration bin.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from ..core.norms import NORM_CODES
from .awards import TITLE_KEYS, TITLE_SHORT
from .rerate import Rerated
from .run import Experiment
from .scores import Sums

COLUMNS = ("variant", "games", "log loss", "Brier", "log loss est.", "log loss prov.",
           "mean change", "sd change", "median end", "mean abs. diff.")


def differences(result: Rerated, baseline: Rerated) -> np.ndarray:
    """Each member's last rating in each system, less the baseline's."""
    if result.keys != baseline.keys:  # the same games rate the same member-systems
        raise ValueError(f"{result.variant.name}: rated other members than the baseline")
    return result.finals - baseline.finals


def table_rows(experiment: Experiment) -> list[tuple[str, ...]]:
    """The table's rows as text, the header first."""
    base = experiment.baseline
    rows: list[tuple[str, ...]] = [COLUMNS]
    for r in experiment.results:
        p, m = r.prediction, r.movement
        diff = differences(r, base)
        end = m.months[-1][4] if m.months else math.nan
        rows.append((r.variant.name, f"{p.overall.games:,}", f"{p.overall.mean_log_loss:.5f}",
                     f"{p.overall.mean_brier:.5f}",
                     f"{p.by_kind['established'].mean_log_loss:.5f}",
                     f"{p.by_kind['provisional'].mean_log_loss:.5f}",
                     f"{m.mean_change:+.3f}", f"{m.sd_change:.2f}", f"{end:.1f}",
                     "baseline" if r is base else f"{np.abs(diff).mean():.2f}"))
    return rows


def text_table(experiment: Experiment) -> str:
    """The table, aligned for a terminal or a Markdown page."""
    return _aligned(table_rows(experiment))


def awards_rows(experiment: Experiment) -> list[tuple[str, ...]]:
    """The norms and titles table's rows as text, the header first: each variant's
    norms by level, then the members holding each title at the end of the history."""
    rows: list[tuple[str, ...]] = [
        ("variant", *NORM_CODES, *(TITLE_SHORT[key] for key in TITLE_KEYS))]
    for r in experiment.results:
        rows.append((r.variant.name, *(f"{n:,}" for n in r.awards.norms),
                     *(f"{n:,}" for n in r.awards.titles)))
    return rows


def awards_table(experiment: Experiment) -> str:
    """Norms by level and titles by title, aligned as `text_table`."""
    return _aligned(awards_rows(experiment))


def _aligned(rows: list[tuple[str, ...]]) -> str:
    """A Markdown table: the first column to the left, the others to the right."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
             + " |" for row in rows]
    rule = "|" + "|".join("-" * (w + 2) if i == 0 else "-" * (w + 1) + ":"
                          for i, w in enumerate(widths)) + "|"
    return "\n".join([lines[0], rule, *lines[1:]])


def _long(experiment: Experiment) -> Iterator[tuple[str, str, str, float]]:
    """(variant, measure, group, value) for every number of the experiment."""
    base = experiment.baseline
    for r in experiment.results:
        name, p, m = r.variant.name, r.prediction, r.movement
        groups: list[tuple[str, Sums]] = [("all", p.overall)]
        groups += [(f"band {b}", s) for b, s in sorted(p.by_band.items(),
                                                        key=lambda i: int(i[0].split("-")[0]))]
        groups += [(kind, s) for kind, s in p.by_kind.items()]
        for group, s in groups:
            yield name, "games", group, s.games
            yield name, "log_loss", group, s.mean_log_loss
            yield name, "brier", group, s.mean_brier
        for i, (n, sum_p, sum_y) in enumerate(p.calibration):
            group = f"p {i / 20:.2f}-{(i + 1) / 20:.2f}"
            yield name, "calibration_games", group, n
            yield name, "calibration_mean_p", group, sum_p / n if n else math.nan
            yield name, "calibration_mean_y", group, sum_y / n if n else math.nan
        yield name, "changes", "all", m.changes
        yield name, "mean_change", "all", m.mean_change
        yield name, "sd_change", "all", m.sd_change
        yield name, "total_change", "all", m.total_change
        for month, count, mean, q10, q50, q90 in m.months:
            yield name, "rated", month, count
            yield name, "mean_rating", month, mean
            yield name, "p10_rating", month, q10
            yield name, "median_rating", month, q50
            yield name, "p90_rating", month, q90
        diff = differences(r, base)
        for code, count in r.awards.norms_by_code().items():
            yield name, "norms", code, count
        for key, count in r.awards.titles_by_key().items():
            yield name, "titles", key, count
        yield name, "vs_baseline_mean", "all", float(diff.mean()) if len(diff) else math.nan
        yield name, "vs_baseline_mean_abs", "all", float(np.abs(diff).mean()) if len(diff) \
            else math.nan
        yield name, "vs_baseline_max_abs", "all", float(np.abs(diff).max()) if len(diff) \
            else math.nan


def write_csv(experiment: Experiment, path: Path) -> int:
    """Every number in long form; returns the rows written."""
    rows = 0
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(("variant", "measure", "group", "value"))
        for variant, measure, group, value in _long(experiment):
            writer.writerow((variant, measure, group, repr(float(value))))
            rows += 1
    return rows


def write_plots(experiment: Experiment, folder: Path) -> list[Path]:
    """calibration.png, ratings-over-time.png and differences.png in ``folder``."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display
    import matplotlib.pyplot as plt

    written = []
    fig, ax = plt.subplots(figsize=(6, 6))
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.8, linestyle="--", label="perfect")
    for r in experiment.results:
        points = [(sp / n, sy / n) for n, sp, sy in r.prediction.calibration if n]
        ax.plot(*zip(*points, strict=True), marker="o", markersize=3, label=r.variant.name)
    ax.set(xlabel="expected score We (pre-event ratings)", ylabel="mean result",
           title=f"Calibration: {experiment.spec.title}")
    ax.legend(fontsize="small")
    written.append(_save(fig, folder / "calibration.png"))

    fig, ax = plt.subplots(figsize=(8, 5))
    for r in experiment.results:
        months = r.movement.months
        if months:
            x = range(len(months))
            line = ax.plot(x, [m[4] for m in months], label=r.variant.name)[0]
            for q in (3, 5):  # the 10th and 90th percentiles, thin
                ax.plot(x, [m[q] for m in months], color=line.get_color(), linewidth=0.7,
                        linestyle=":")
            ax.set_xticks(list(x), [m[0] for m in months], rotation=60, fontsize="small")
    ax.set(ylabel=f"{experiment.spec.follow} rating: median (10th, 90th percentile dotted)",
           title="Ratings over time")
    ax.legend(fontsize="small")
    written.append(_save(fig, folder / "ratings-over-time.png"))

    fig, ax = plt.subplots(figsize=(8, 5))
    base = experiment.baseline
    for r in experiment.results:
        if r is not base:
            ax.hist(differences(r, base), bins=60, histtype="step", label=r.variant.name)
    ax.set(xlabel=f"last rating less the baseline's ({base.variant.name})",
           ylabel="member-systems", title="Differences from the baseline", yscale="log")
    ax.legend(fontsize="small")
    written.append(_save(fig, folder / "differences.png"))
    return written


def _save(fig: object, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()  # type: ignore[attr-defined]
    fig.savefig(path, dpi=110)  # type: ignore[attr-defined]
    plt.close(fig)  # type: ignore[arg-type]
    return path
