"""The `uscf` command: a thin layer over the library.

Each command lives in a module of its own, imported when the command runs
(cli/lazy.py): ``uscf --help`` and importing this module load click and nothing of the
core, the readers or the office.
"""

from __future__ import annotations

import sys

import click

from .lazy import LazyCommand, LazyGroup

#: every command: where it is, and the first paragraph of its help (what ``uscf --help``
#: shows of it; a test holds each to the command's own)
COMMANDS = {
    "rate": LazyCommand(
        "uscf_ratings.cli.files:rate",
        "Rate each event FILE and print its crosstables with pre -> post ratings."),
    "estimate": LazyCommand(
        "uscf_ratings.cli.estimate:estimate_command",
        "Estimate your new rating from your games, as the web estimator does."),
    "convert": LazyCommand("uscf_ratings.cli.files:convert",
                           "Convert an event between formats."),
    "rules": LazyCommand("uscf_ratings.cli.rules:rules",
                         "List every dated rule with its source sentence and status."),
    "fidelity": LazyCommand(
        "uscf_ratings.cli.rules:fidelity",
        "Rate every real section and compare with the published ratings."),
    "db": LazyCommand(  # the office's commands
        "uscf_ratings.cli.db:db",
        "The ratings office: a database that rates events in order and keeps the history."),
    "serve": LazyCommand(  # the web app
        "uscf_ratings.cli.serve:serve",
        "Run the web app: the rating estimator and, with a database, the office's pages "
        "(members, players with charts, events, the rating list) and its JSON API under /api."),
    "verify": LazyCommand(  # what US Chess published, checked
        "uscf_ratings.cli.published:verify_command",
        "Rate each section US Chess published from its published pre-event ratings, and "
        "compare every player's post-event rating with the published one."),
    "fetch": LazyCommand(  # and downloaded
        "uscf_ratings.cli.published:fetch_command",
        "Download a rated event's records (its record, each section's record and "
        "standings) from US Chess's public ratings API into EVENT_ID.json, which `uscf "
        "verify`, `uscf rate` and `uscf db rate` read; or, with --member, a member's rated "
        "sections into member-ID.json; with --member and --titles, the member's norms and "
        "awards into member-ID-titles.json, which `uscf verify` compares with ours."),
    "experiment": LazyCommand(  # variants of the rules over a history
        "uscf_ratings.cli.experiment:experiment_command",
        "Re-rate a whole history under each variant of the rules in SPEC (a TOML file) and "
        "score how well each variant's pre-event ratings predicted the games."),
}


@click.group(cls=LazyGroup, lazy=COMMANDS)
@click.version_option(package_name="uscf-ratings")
def cli() -> None:
    """Rate chess events by the US Chess rating system, exactly, by the rules of their date.

    An independent, unofficial implementation: not affiliated with US Chess.
    """


def main() -> None:  # pragma: no cover
    cli(sys.argv[1:])
