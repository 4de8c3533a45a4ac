"""`uscf rate` and `uscf convert`: event files rated, or written in another format."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import date

import click

from ..core.model import Event, System
from ..core.pipeline import rate_section
from ..core.results import SectionResult
from ..core.rules import NoRuleSet
from ..core.settled import settled
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError, section_label
from ..formats.common import parse_systems, require_systems
from ..formats.crosstable_text import event_heading, render_section
from ..formats.detect import FORMATS, read_any, write_any
from ..formats.errors import ParseError
from ..formats.result_json import PRIVATE_NOTICE, holds_birth_dates, write_results
from .warnings import warn_assumed_games


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--json", "as_json", is_flag=True, help="One JSON document with a list `events`.")
@click.option("--format", "fmt", type=click.Choice(["text", "msa", "csv", "html", "json"]),
              default="text", show_default=True,
              help="text: a crosstable per section; msa: the layout of the US Chess MSA pages; "
                   "csv: a row per player and system; html: a self-contained page; json: as "
                   "--json.")
@click.option("--db", "url", default=None, metavar="URL",
              help="Fill pre-event ratings, N and history from a ratings database "
                   "(nothing is stored).")
@click.option("--systems", default=None, metavar="R,Q",
              help="Rating systems for sections whose file names neither systems nor a "
                   "time control (SwissSys files, PGN without TimeControl); a file that "
                   "states other systems is refused.")
@click.option("--date", "event_date", default=None, metavar="YYYY-MM-DD",
              help="The date of a file that gives none (a file without a date is refused); "
                   "a file that states another start date is refused.")
@click.option("--from", "from_format", type=click.Choice([f.name for f in FORMATS]),
              help="The input format, if the content and extension do not tell it.")
def rate(files: tuple[str, ...], as_json: bool, fmt: str, url: str | None,
         systems: str | None, event_date: str | None, from_format: str | None) -> None:
    """Rate each event FILE and print its crosstables with pre -> post ratings.

    A FILE is event JSON, a US Chess rating report (a folder or zip of the three DBF
    files), FIDE TRF, SwissSys .sjson, WinTD JSON, a CSV crosstable or PGN: the format is
    told from the content and the extension.

    Every file is read and checked before anything is printed; a file with problems is
    refused whole, with the problems of every failing section listed.
    """
    rated = []
    chosen, day = _systems_option(systems), _date_option(event_date)
    for name in files:
        try:
            event = require_systems(read_any(name, from_format, event_date=day,
                                             systems=chosen), name)
        except ParseError as error:
            raise click.ClickException(str(error)) from None
        if url is not None:
            event = _filled(event, url)
        event = settled(event)  # rated as the office would store it (core/settled.py)
        warn_assumed_games(name, event)
        rated.append((event, _rate_sections(name, event)))
    if as_json or fmt == "json":
        # as json.dumps(..., indent=2) writes it, a player at a time (click's runner
        # replaces sys.stdout as it replaces click's stream)
        write_results(rated, sys.stdout.write)
        sys.stdout.write("\n")
        sys.stdout.flush()
        return
    # A rating that started from a birth date gives the age away (docs/web.md, Privacy):
    # the output says so, first, in its own format (CSV on stderr, to stay a table).
    private = holds_birth_dates(r for _, results in rated for r in results)
    if private and fmt != "html":
        click.echo(PRIVATE_NOTICE, err=fmt == "csv")
        if fmt != "csv":
            click.echo("")
    if fmt != "text":
        from ..formats import outputs

        for event, results in rated:
            if fmt == "html":
                page = outputs.render_html(event, results, PRIVATE_NOTICE if private else None)
                click.echo(page)
            else:
                render = {"msa": outputs.render_text, "csv": outputs.render_csv}[fmt]
                click.echo(render(event, results), nl=fmt != "csv")
        return
    for event, results in rated:
        click.echo(event_heading(event.id, event.name, event.start_date, event.end_date))
        for section, result in zip(event.sections, results, strict=True):
            click.echo("")
            click.echo(render_section(section, result))
        click.echo("")


def _rate_sections(name: str, event: Event) -> list[SectionResult]:
    """Every section rated, or a ClickException with the problems of all that fail."""
    results, problems = [], []
    for section in event.sections:
        try:
            results.append(rate_section(section))
        except SectionError as error:  # its lines name the section already
            problems.append(str(error))
        except (NoRuleSet, TimeControlError) as error:
            problems.append(f"{section_label(section)}: {error}")
    if problems:
        raise click.ClickException(f"{name}: " + "\n".join(problems))
    return results


def _systems_option(text: str | None) -> tuple[System, ...] | None:
    if not text:
        return None
    try:
        return parse_systems(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--systems") from None


def _date_option(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise click.BadParameter(f"{text!r}: expected a date as YYYY-MM-DD",
                                 param_hint="--date") from None


def _filled(event: Event, url: str) -> Event:
    """The event's pre-event ratings, N and history from the database of ``url``, which
    must exist (a SQLite file is not created): its errors are one line (`database_errors`)."""
    from ..office.db import check_schema, check_url
    from ..office.office import Office, fill_from_database
    from .db import database_errors

    with database_errors(url):
        check_url(url, must_exist=True)
        office = Office(url)
        try:
            with office.engine.connect() as connection:
                check_schema(connection)
                sections = tuple(fill_from_database(connection, s) for s in event.sections)
        finally:
            office.engine.dispose()
    return replace(event, sections=sections)


@click.command()
@click.argument("source", type=click.Path(exists=True))
@click.argument("target", type=click.Path())
@click.option("--from", "from_format", type=click.Choice([f.name for f in FORMATS]),
              help="The input format, if the content and extension do not tell it.")
@click.option("--to", "to_format", type=click.Choice([f.name for f in FORMATS]),
              help="The output format, if the extension does not tell it.")
@click.option("--systems", default=None, metavar="R,Q",
              help="As for uscf rate: systems of sections whose file names neither.")
@click.option("--date", "event_date", default=None, metavar="YYYY-MM-DD",
              help="As for uscf rate: the date of a file that gives none.")
def convert(source: str, target: str, from_format: str | None, to_format: str | None,
            systems: str | None, event_date: str | None) -> None:
    """Convert an event between formats.

    Prints every file written, and on stderr a warning for each field that the target
    format cannot hold (Q ratings, N, rating dates, FIDE ratings, ...), naming the
    players."""
    chosen, day = _systems_option(systems), _date_option(event_date)
    try:
        event = read_any(source, from_format, event_date=day, systems=chosen)
    except ParseError as error:
        raise click.ClickException(str(error)) from None
    try:
        written = write_any(event, target, to_format)
    except ParseError as error:
        raise click.ClickException(str(error)) from None
    except (ValueError, OSError) as error:
        raise click.ClickException(f"{target}: {error}") from None
    for path in written.paths:
        click.echo(f"wrote {path}")
    for warning in written.warnings:
        click.echo(f"warning: {warning}", err=True)
