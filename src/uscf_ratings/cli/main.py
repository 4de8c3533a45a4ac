"""The `uscf` command: a thin layer over the library."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..core.pipeline import rate_section
from ..core.results import SectionResult
from ..core.rules import NoRuleSet
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError
from ..formats.crosstable_text import render_section
from ..formats.errors import ParseError
from ..formats.event_json import read_event
from ..formats.result_json import event_to_dict


@click.group()
@click.version_option(package_name="uscf-ratings")
def cli() -> None:
    """Rate chess events by the US Chess rating system, exactly, by the rules of their date.

    An independent, unofficial implementation: not affiliated with US Chess.
    """


@cli.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="One JSON document with a list `events`.")
def rate(files: tuple[str, ...], as_json: bool) -> None:
    """Rate each event FILE and print its crosstables with pre -> post ratings.

    Every file is read and checked before anything is printed; a file with problems is
    refused whole, with the problems of its first failing section listed.
    """
    rated = []
    for name in files:
        try:
            event = read_event(name)
            results: list[SectionResult] = [rate_section(s) for s in event.sections]
        except ParseError as error:
            raise click.ClickException(str(error)) from None
        except (SectionError, NoRuleSet, TimeControlError) as error:
            raise click.ClickException(f"{name}: {error}") from None
        rated.append((event, results))
    if as_json:
        document = {"events": [event_to_dict(e, r) for e, r in rated]}
        click.echo(json.dumps(document, indent=2))
        return
    for event, results in rated:
        click.echo(f"{event.name or event.id}  ({event.id}, {event.start_date} .. {event.end_date})")
        for section, result in zip(event.sections, results):
            click.echo("")
            click.echo(render_section(section, result))
        click.echo("")


@cli.command()
@click.option("--markdown", is_flag=True, help="As the Markdown table of docs/rules.md.")
def rules(markdown: bool) -> None:
    """List every dated rule with its source sentence and status."""
    from ..rules_table import render_markdown, render_text

    click.echo(render_markdown() if markdown else render_text())


@cli.command()
@click.option("--shared", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=Path("../shared"), show_default=True,
              help="The folder that holds uscf_real/ and recent/.")
@click.option("--k", "k_policy", type=click.Choice(["era", "full", "half"]), default="era",
              show_default=True, help="K of online sections: era = half before 2020-06-01.")
@click.option("--json", "as_json", is_flag=True, help="The figures as JSON.")
def fidelity(shared: Path, k_policy: str, as_json: bool) -> None:
    """Rate every real section and compare with the published ratings."""
    from ..fidelity.report import build_report, render, report_to_dict
    from ..fidelity.sources import load_all

    report = build_report(load_all(shared, k_policy))
    if as_json:
        click.echo(json.dumps(report_to_dict(report), indent=2))
    else:
        click.echo(render(report))


from .db import db  # noqa: E402  (the office's commands)

cli.add_command(db)


def main() -> None:  # pragma: no cover
    cli(sys.argv[1:])
