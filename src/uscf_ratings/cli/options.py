"""Options more than one command takes, parsed alike: --systems and --date."""

from __future__ import annotations

from datetime import date, datetime

import click

from ..core.model import System
from ..formats.common import parse_systems


def systems_option(_ctx: click.Context, _param: click.Parameter, text: str | None
                   ) -> tuple[System, ...] | None:
    """--systems R,Q as systems (a click callback); a usage error naming the codes."""
    if not text:
        return None
    try:
        return parse_systems(text)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def date_option(_ctx: click.Context, _param: click.Parameter, value: datetime | None
                ) -> date | None:
    """--date, given as ``click.DateTime(["%Y-%m-%d"])``, as a date (a click callback)."""
    return None if value is None else value.date()
