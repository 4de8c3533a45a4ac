"""`uscf verify` and `uscf fetch`: what US Chess publishes, downloaded and checked
against our own rating of it (formats/ratings_api.py, formats/api_client.py,
fidelity/verify.py)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..core.model import System
from ..formats.api_client import BASE_URL, FetchError, RatingsApi
from ..formats.bounds import read_input
from ..formats.errors import ParseError
from ..formats.ratings_api import ApiEvent, read_records
from .options import date_option, systems_option

if TYPE_CHECKING:  # imported by the command that uses them, not at start-up
    from ..fidelity.verify import EventCheck, PlayerCheck
    from ..fidelity.verify_titles import MemberCheck
    from ..formats.member_titles import MemberTitles


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
              help="Show this member's rows only (the summary still counts every player); "
                   "the member of a norms or awards response as the API returns it.")
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

    A SOURCE may also be a member's norms and awards (`uscf fetch --member ID
    --titles`): the member's norm in each section of the events given, and the titles
    they make, are compared with US Chess's, each difference with its cause.
    """
    # the comparison rates sections: imported here, so that `uscf --help` and the other
    # commands start without the fidelity modules (docs/performance.md, start-up)
    from ..fidelity import verify_titles
    from ..fidelity.verify import summary, to_dict, verify
    from ..fidelity.verify_titles import fetched_sections, verify_member
    from ..formats.member_titles import read_member_titles, sniff

    verified: list[tuple[ApiEvent, EventCheck]] = []
    members: list[tuple[str, MemberTitles]] = []
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
                raw = read_input(Path(source))
                if sniff(raw):
                    members.append((source, read_member_titles(source, member, data=raw)))
                    continue
                records = read_records(source, event_date=event_date, systems=systems,
                                       data=raw)
        except (ParseError, FetchError) as error:
            raise click.ClickException(str(error)) from None
        verified.append((records, verify(records, source)))
    checks = [check for _, check in verified]
    fetched = fetched_sections(verified)
    compared = [verify_member(titles, source, fetched) for source, titles in members]
    if as_json:
        document: dict[str, object] = {"events": [to_dict(c) for c in checks],
                                       "summary": summary(checks)}
        if compared:
            document["members"] = [verify_titles.to_dict(m) for m in compared]
            document["members_summary"] = verify_titles.summary(compared)
        click.echo(json.dumps(document, indent=2))
        return
    for check in checks:
        _show(check, member)
    if checks:
        click.echo(summary(checks))
    for compared_member in compared:
        _show_member(compared_member)
    if compared:
        click.echo(verify_titles.summary(compared))


def _show_member(check: MemberCheck) -> None:
    click.echo(f"{check.source}: member {check.member}, norms and titles")
    for line in check.notes:
        click.echo(f"  note: {line}")
    if check.norms:
        click.echo(f"  {'event':<14} {'sec':>3} {'end':<10} {'US Chess':<16} {'ours':<5} "
                   "result")
    for n in check.norms:
        theirs = "-" if n.theirs is None else n.theirs + ("" if n.status == "Active"
                                                           else f" {n.status}")
        unrated = n.cause is not None and n.cause.startswith("the section could not")
        ours = "?" if not n.fetched or unrated else (n.ours or "-")
        end = "" if n.end is None else n.end.isoformat()
        section = "" if n.section is None else str(n.section)
        click.echo(f"  {n.event:<14} {section:>3} {end:<10} {theirs:<16} {ours:<5} "
                   + ("agrees" if n.agrees else f"differs: {n.cause}")
                   + (f" ({n.detail})" if n.detail and not n.agrees else ""))
    for t in check.titles:
        theirs = "not awarded" if t.theirs is None else \
            f"awarded {t.theirs.date or 'undated'}" + (f" at {t.theirs.event}"
                                                        if t.theirs.event else "")
        ours = "not held" if t.ours is None else f"held from {t.ours.date} at {t.ours.event}"
        click.echo(f"  title {t.name}: US Chess {theirs}; ours {ours}: "
                   + ("agrees" if t.agrees else f"differs: {t.cause}")
                   + (f" ({t.detail})" if t.detail and not t.agrees else ""))
    for line in check.undecided:
        click.echo(f"  cannot be decided from what was fetched: {line}")


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
        if member is not None and not rows:
            click.echo(f"    member {member} did not play in this section")
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
@click.option("--titles", is_flag=True,
              help="With --member: download the member's norms and awards instead (for "
                   "`uscf verify`).")
@click.option("--into", "folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("."), show_default=True, help="The folder to write the file in.")
@click.option("--api", "base_url", default=BASE_URL,
              show_default=True, help="The ratings API's address.")
def fetch_command(event_id: str | None, member: str | None, titles: bool, folder: Path,
                  base_url: str) -> None:
    """Download a rated event's records (its record, each section's record and
    standings) from US Chess's public ratings API into EVENT_ID.json, which `uscf
    verify`, `uscf rate` and `uscf db rate` read; or, with --member, a member's rated
    sections into member-ID.json; with --member and --titles, the member's norms and
    awards into member-ID-titles.json, which `uscf verify` compares with ours.

    One request at a time, each with a timeout; a request that fails for a reason that
    may pass is tried again after a pause, said on stderr. The records are kept exactly
    as US Chess sent them.
    """
    if (event_id is None) == (member is None):
        raise click.UsageError("give an EVENT_ID, or --member ID (one of the two)")
    if titles and member is None:
        raise click.UsageError("--titles downloads a member's norms and awards: give "
                               "--member ID")
    api = _api(base_url)
    try:
        if event_id is not None:
            data = api.event(event_id)
        elif titles:
            data = api.member_titles(member or "")
        else:
            data = api.member_sections(member or "")
    except FetchError as error:
        raise click.ClickException(str(error)) from None
    finally:
        api.close()
    folder.mkdir(parents=True, exist_ok=True)
    name = (f"{event_id}.json" if event_id is not None
            else f"member-{member}-titles.json" if titles else f"member-{member}.json")
    target = folder / name
    target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if event_id is not None:
        what = f"{len(data['sections'])} section(s)"
    elif titles:
        norms = data["member_norms"].get("items")
        what = (f"{len(norms) if isinstance(norms, list) else 0} norm(s), "
                f"{sum(len(p.get('items') or []) for p in data['member_awards'])} award(s)")
    else:
        what = f"{sum(len(p.get('items') or []) for p in data['member_sections'])} section(s)"
    click.echo(f"wrote {target}: {what}, as published at {data['source']}")
