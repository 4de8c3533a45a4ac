"""`uscf rules` and `uscf fidelity`: the dated rules, and how closely they reproduce the
published ratings of the real sections."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.command()
@click.option("--markdown", is_flag=True, help="As the Markdown table of docs/rules.md.")
def rules(markdown: bool) -> None:
    """List every dated rule with its source sentence and status."""
    from ..rules_table import render_markdown, render_text

    click.echo(render_markdown() if markdown else render_text())


@click.command()
@click.option("--shared", type=click.Path(exists=True, file_okay=False, path_type=Path),
              default=Path("../shared"), show_default=True,
              help="The folder that holds uscf_real/ and recent/.")
@click.option("--k", "k_policy", type=click.Choice(["era", "full", "half"]), default="era",
              show_default=True, help="K of online sections: era = half before 2020-06-01.")
@click.option("--json", "as_json", is_flag=True, help="The figures as JSON.")
@click.option("--chain", is_flag=True,
              help="Instead, chain the sections through a ratings office, with and without "
                   "carried history (slower).")
def fidelity(shared: Path, k_policy: str, as_json: bool, chain: bool) -> None:
    """Rate every real section and compare with the published ratings."""
    from ..fidelity.report import build_report, render, report_to_dict
    from ..fidelity.sources import load_all

    if chain:
        import tempfile

        from ..fidelity.chain import chain as run_chain

        with tempfile.TemporaryDirectory() as folder:
            figures = {
                "without carried history": run_chain(
                    shared, f"sqlite:///{folder}/plain.db", False, False).as_dict(),
                "with carried history and June 2021 floors": run_chain(
                    shared, f"sqlite:///{folder}/chained.db", True, True).as_dict(),
            }
        click.echo(json.dumps(figures, indent=2) if as_json else "\n".join(
            f"{name}: {f['players']} players, {f['exact_share']:.1f}% exact, "
            f"{f['within1_share']:.1f}% within 1" for name, f in figures.items()))
        return

    report = build_report(load_all(shared, k_policy))
    if as_json:
        click.echo(json.dumps(report_to_dict(report), indent=2))
    else:
        click.echo(render(report))
