"""A command group whose commands are imported when they run, not when `uscf` starts.

``uscf --help`` lists every command with its short help; click makes that line from the
first paragraph of the command's help. The group keeps that paragraph in its table
(`LazyCommand`), so listing the commands imports none of them: `uscf --help` loads click
and this package's two small modules, where importing every command would load the core,
the readers and the office (docs/performance.md, Start-up). A test holds each table entry
to the first paragraph of the command it names (tests/cli/test_startup_imports.py).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass

import click


@dataclass(frozen=True)
class LazyCommand:
    """Where a command is (``"uscf_ratings.cli.files:rate"``) and the first paragraph of
    its help, as click shortens it for the list of commands."""

    target: str
    summary: str

    def load(self) -> click.Command:
        module, _, name = self.target.partition(":")
        command = getattr(importlib.import_module(module), name)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.target} is not a click command")
        return command


class LazyGroup(click.Group):
    """A group of `LazyCommand`s by name, beside any commands added the usual way."""

    def __init__(self, *args: object, lazy: Mapping[str, LazyCommand] | None = None,
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy: dict[str, LazyCommand] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.commands[cmd_name] = self.lazy[cmd_name].load()
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """click's list of commands, with the short help of a command not imported yet
        made from its table entry by click itself (a stand-in command with that help)."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.commands:
                command = self.commands[name]
                if command.hidden:
                    continue
                rows.append((name, command.get_short_help_str(limit)))
            else:  # click's own shortening, of a command holding just that paragraph
                stand_in = click.Command(name, help=self.lazy[name].summary)
                rows.append((name, stand_in.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)
