"""`uscf verify` and `uscf fetch`: what US Chess publishes, downloaded and checked
against our own rating of it (formats/ratings_api.py, formats/api_client.py,
fidelity/verify.py)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import click

from ..core.model import System
from ..fidelity.verify import EventCheck, PlayerCheck, summary, to_dict, verify
from ..formats.api_client import BASE_URL, FetchError, RatingsApi
from ..formats.errors import ParseError
from ..formats.ratings_api import read_records
from .options import date_option, systems_option


def _api(base_url: str) -> RatingsApi:
    return RatingsApi(base_url, said=lambda line: click.echo(line, err=True))


def _is_event_id(source: str) -> bool:
    return source.isascii() and source.isdigit() and not Path(source).exists()


@click.command("verify")
@click.argument("sources", nargs=-1, required=True, metavar="FILE_OR_EVENT_ID...")
@click.option("--date", "event_date", type=click.DateTime(["%Y-%m-%d"]),
              callback=date_option, metavar="YYYY-MM-DD",
              help="The section's date, for a standings page alone (it holds none).")
@click.option("--systems", callback=systems_option, metavar="R,Q",
              help="The section's rating systems, for a standings page alone (it holds "
                   "none): R, Q, ... or R,Q for a dual-rated section.")
@click.option("--member", "member", default=None, metavar="ID",
              help="Show this member's rows only (the summary still counts every player).")
@click.option("--json", "as_json", is_flag=True, help="Every comparison as JSON.")
@click.option("--api", "base_url", default=BASE_URL,
              show_default=True, hidden=True)
def verify_command(sources: tuple[str, ...], event_date: date | None,
                   systems: tuple[System, ...] | None, member: str | None, as_json: bool,
                   base_url: str) -> None:
    """Rate each section US Chess published from its published pre-event ratings, and
    compare every player's post-event rating with the published one.

    A SOURCE is a file of ratings-API records (a section's standings page, or an event
    saved by `uscf fetch`), or an event id, downloaded first. A rating agrees when it is
    within 0.01 of the published one (the pre-event ratings are published to 0.01);
    every other is given its likely cause. What the records do not hold (N of an
    established player, a provisional player's earlier games) is said, with what was
    assumed.
    """
    checks = []
    for source in sources:
        try:
            if _is_event_id(source):
                api = _api(base_url)
                try:
                    data = json.dumps(api.event(source)).encode()
                finally:
                    api.close()
                records = read_records(Path(f"{source}.json"), data=data)
            else:
                if not Path(source).exists():
                    raise click.ClickException(f"{source}: no such file (nor an event id: "
                                               "digits only)")
                records = read_records(source, event_date=event_date, systems=systems)
        except (ParseError, FetchError) as error:
            raise click.ClickException(str(error)) from None
        checks.append(verify(records, source))
    if as_json:
        click.echo(json.dumps({"events": [to_dict(c) for c in checks],
                               "summary": summary(checks)}, indent=2))
        return
    for check in checks:
        _show(check, member)
    click.echo(summary(checks))


def _show(check: EventCheck, member: str | None) -> None:
    click.echo(f"{check.source}: event {check.event_id}" + (f" ({check.name})" if check.name
                                                              else ""))
    for line in check.assumed:
        click.echo(f"  assumed: {line}")
    for section in check.sections:
        click.echo(f"  section {section.number}" + (f" ({section.name})" if section.name
                                                     else "") +
                   (f", {section.rule_set}" if section.rule_set else ""))
        for line in section.assumed:
            click.echo(f"    assumed: {line}")
        if section.refused:
            click.echo(f"    not rated: {section.refused}")
            continue
        rows = [c for c in section.checks if member is None or c.member == member]
        if rows:
            click.echo(f"    {'pair':>4}  {'member':<10} {'name':<24} {'sys':<3} {'pre':>8} "
                       f"{'published':>9} {'ours':>8}  result")
        for c in rows:
            click.echo(f"    {c.pair:>4}  {c.member:<10} {c.name[:24]:<24} {c.system.value:<3} "
                       f"{_number(c.pre):>8} {c.published:>9.2f} {_number(c.ours):>8}  "
                       f"{_result(c)}")
        click.echo(f"    {section.agreeing} of {len(section.checks)} agree")


def _number(value: float | None) -> str:
    return "unrated" if value is None else f"{value:.2f}"


def _result(check: PlayerCheck) -> str:
    if check.agrees:
        return "agrees"
    difference = check.difference
    by = "" if difference is None else f" by {difference:+.2f}"
    return f"differs{by}: {check.cause}"


@click.command("fetch")
@click.argument("event_id", required=False)
@click.option("--member", "member", default=None, metavar="ID",
              help="Instead of an event, download this member's rated sections (for "
                   "`uscf db import-history`).")
@click.option("--into", "folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True, help="The folder to write the file in.")
@click.option("--api", "base_url", default=BASE_URL,
              show_default=True, help="The ratings API's address.")
def fetch_command(event_id: str | None, member: str | None, folder: Path,
                  base_url: str) -> None:
    """Download a rated event's records (its record, each section's record and
    standings) from US Chess's public ratings API into EVENT_ID.json, which `uscf
    verify`, `uscf rate` and `uscf db rate` read; or, with --member, a member's rated
    sections into member-ID.json.

    One request at a time, each with a timeout; a request that fails for a reason that
    may pass is tried again after a pause, said on stderr. The records are kept exactly
    as US Chess sent them.
    """
    if (event_id is None) == (member is None):
        raise click.UsageError("give an EVENT_ID, or --member ID (one of the two)")
    api = _api(base_url)
    try:
        data = api.event(event_id) if event_id is not None else \
            api.member_sections(member or "")
    except FetchError as error:
        raise click.ClickException(str(error)) from None
    finally:
        api.close()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (f"{event_id}.json" if event_id is not None else f"member-{member}.json")
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    what = (f"{len(data['sections'])} section(s)" if event_id is not None
            else f"{sum(len(p.get('items') or []) for p in data['member_sections'])} section(s)")
    click.echo(f"wrote {target}: {what}, as published at {data['source']}")

