"""`uscf experiment SPEC`: a history re-rated under variants of the rules, and scored
(uscf_ratings/experiments)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

import click

from .options import date_option


@click.command("experiment")
@click.argument("spec", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--history", "history_path", metavar="FOLDER|URL",
              help="The folder of event files, or the office database (sqlite:///office.db, "
                   "postgresql://...), to re-rate instead of the file's history.")
@click.option("--from", "start", type=click.DateTime(["%Y-%m-%d"]), callback=date_option,
              metavar="YYYY-MM-DD", help="Only sections that start on or after this date.")
@click.option("--to", "end", type=click.DateTime(["%Y-%m-%d"]), callback=date_option,
              metavar="YYYY-MM-DD", help="Only sections that start on or before this date.")
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
              help="The folder for the table, the CSV and the plots (default: beside SPEC, "
                   "named after it).")
@click.option("--scheduler", default=None, metavar="tcp://HOST:PORT",
              help="Run the variants on this Dask cluster (default: local processes).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Local processes (default: one per core).")
@click.option("--no-plots", is_flag=True, help="Write the table and the CSV only.")
def experiment_command(spec: Path, history_path: str | None, start: date | None,
                       end: date | None, out: Path | None, scheduler: str | None,
                       workers: int | None, no_plots: bool) -> None:
    """Re-rate a whole history under each variant of the rules in SPEC (a TOML file) and
    score how well each variant's pre-event ratings predicted the games.

    The history is a folder of event files or an office database (its stored events,
    with its member list, baselines, floors set by hand and merges). Every variant
    starts from the same ratings (the files' own, for members not yet rated in the
    history) and rates the same sections in the office's order. The table
    gives, per variant, the mean log loss and Brier score of the expected scores, the
    mean and spread of the rating changes and how far the last ratings are from the
    baseline's; a second table the norms each awards by level and the members holding
    each title. table.md, awards.md, results.csv and three plots are written to the
    --out folder.
    See docs/researcher.md for the file's keys and a worked example.
    """
    try:
        from ..experiments.history import HistoryError, Period, read_history
        from ..experiments.report import awards_table, text_table, write_csv, write_plots
        from ..experiments.run import SchedulerError, run_experiment
        from ..experiments.spec import SpecError, read_spec
    except ImportError as error:  # numpy and numba: the extra
        raise click.ClickException(
            f"uscf experiment needs the extra [experiments] ({error.name} is missing): "
            "pip install 'uscf-ratings[experiments]'") from None
    try:
        plan = read_spec(spec)
        source = history_path or plan.history
        if source is None:
            raise click.ClickException(f"{spec}: no history: give history = \"FOLDER\" (or "
                                       "a database URL) in the file, or --history FOLDER|URL")
        period = Period(start or plan.period.start, end or plan.period.end)
        if period.start and period.end and period.start > period.end:
            raise click.ClickException(f"the period starts ({period.start}) after it ends "
                                       f"({period.end}): check --from and --to, or from and "
                                       f"to in {spec}")
        click.echo(f"reading {source} ...", err=True)
        history = read_history(source, period)
        if not history.sections:
            raise click.ClickException(f"{history.source}: no section starts within {period}")
        click.echo(f"{len(history.sections):,} sections of {history.files:,} files "
                   f"({period}); {_variants(len(plan.variants))}", err=True)
        with click.progressbar(length=len(plan.variants), label="variants",
                               file=sys.stderr) as bar:
            done = run_experiment(plan, history, scheduler=scheduler, workers=workers,
                                  progress=lambda *_: bar.update(1))
    except (SpecError, HistoryError, SchedulerError) as error:
        raise click.ClickException(str(error)) from None
    target = out or spec.with_suffix("")
    target.mkdir(parents=True, exist_ok=True)
    table, awards = text_table(done), awards_table(done)
    (target / "table.md").write_text(table + "\n", encoding="utf-8")
    (target / "awards.md").write_text(awards + "\n", encoding="utf-8")
    rows = write_csv(done, target / "results.csv")
    click.echo(table)
    click.echo(f"\nNorms by level, and members holding each title at the end:\n{awards}")
    written = f"written to {target}: table.md, awards.md, results.csv ({rows:,} rows)"
    try:
        plots = [] if no_plots else write_plots(done, target)
    except ImportError as error:
        raise click.ClickException(
            f"{written}; the plots need matplotlib ({error.name} is missing): pip install "
            "'uscf-ratings[experiments]', or give --no-plots") from None
    click.echo(f"\n{_variants(len(done.results))} in {done.seconds:.1f} s on {done.where}; "
               + written + "".join(f", {p.name}" for p in plots))


def _variants(count: int) -> str:
    return f"{count} variant{'' if count == 1 else 's'}"
