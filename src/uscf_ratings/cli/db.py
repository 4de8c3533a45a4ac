"""`uscf db`: the ratings office from the command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ..core.formulas import two_decimals
from ..core.model import Event, System
from ..core.norms import NORM_CODES
from ..core.rules import NoRuleSet
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError
from ..formats.errors import ParseError
from ..office.defaults import COMMIT_EVERY, PreRatings
from ..office.errors import RUN_AGAIN, SKIPPED, DatabaseError, OfficeError, first_line
from ..office.options import ReadOptions
from .options import date_option, systems_option
from .warnings import warn_lacking

if TYPE_CHECKING:  # the office (SQLAlchemy, Alembic, Numba) is imported by the commands
    from ..office.ingest import Report
    from ..office.office import EventRated, Office

#: what a command says in one line; the database's own errors (`DatabaseError`, and those
#: `office.failures` explains) are left to the group, which names the database
FAILURES = (ParseError, SectionError, NoRuleSet, TimeControlError, OfficeError)


def _office(ctx: click.Context) -> Office:
    """The office of the `db` group's URL, opened when a command first needs it (so
    that ``--help`` needs no database): a URL with no database behind it is refused,
    except by the commands that create one."""
    from ..office.db import WriterWait, check_url
    from ..office.office import Office

    if not isinstance(ctx.obj, Office):
        try:
            check_url(ctx.obj, must_exist=ctx.command.name not in CREATING)
        except DatabaseError as error:
            raise click.ClickException(str(error)) from None
        group = ctx
        while group.command is not db:  # `db token create`: two levels down
            assert group.parent is not None
            group = group.parent
        limit = group.params.get("wait")
        wait = WriterWait(limit, _ShowWaiting(_shown(group.params.get("url")), limit))
        ctx.obj = Office(ctx.obj, wait)
    return ctx.obj


class _ShowWaiting:
    """Says on stderr that a command waits while another process writes: when it begins
    to wait, then once a minute."""

    EVERY_S = 60.0

    def __init__(self, url: str, limit: float | None):
        self.url, self.limit = url, limit  #: limit: --wait's seconds, None for no limit
        self.next_at = 0.0  #: when to say it next, in seconds of waiting

    def __call__(self, waited: float) -> None:
        if waited < self.next_at:
            return
        if not self.next_at:
            goes_on = ("goes on once it has finished (Ctrl-C stops it; --wait SECONDS sets "
                       "a limit)" if self.limit is None else
                       f"waits up to {self.limit:g} s for it to finish (Ctrl-C stops it)")
            click.echo(f"waiting: another process is writing to {self.url}; this command "
                       f"{goes_on}", err=True)
        else:
            click.echo(f"still waiting for the other process ({waited:.0f} s)", err=True)
        self.next_at += self.EVERY_S


#: the commands that may create a database; every other one needs it to exist
CREATING = ("init",)


class _OfficeGroup(click.Group):
    """Commands whose database errors (a server that cannot be reached, a file that is
    not a database) end in a message that says so, never a traceback; stopped by Ctrl-C
    or SIGTERM (`interrupts.terminated_as_interrupted`), they say that nothing was
    changed (each is one transaction, rolled back: `rate` says itself what it
    committed), with exit status 130."""

    def invoke(self, ctx: click.Context) -> Any:
        from ..office.interrupts import terminated_as_interrupted

        with terminated_as_interrupted():
            try:
                return self._invoke(ctx)
            except KeyboardInterrupt:
                click.echo("stopped: nothing was changed", err=True)
                ctx.exit(130)

    def _invoke(self, ctx: click.Context) -> Any:
        with database_errors(ctx.params.get("url")):
            return super().invoke(ctx)


@contextmanager
def database_errors(url: str | None) -> Iterator[None]:
    """A database's errors (`DatabaseError`, a server that cannot be reached, a file
    that is not a database) as one line naming the database (``url``, without its
    password): every command that opens a database says them so (the `db` group,
    `uscf rate --db`)."""
    try:
        yield
    except click.ClickException:
        raise  # a command's own message
    except DatabaseError as error:
        message, shown = str(error), _shown(url)
        raise click.ClickException(
            message if message.startswith(shown) else f"{shown}: {message}") from None
    except Exception as error:
        from sqlalchemy.exc import SQLAlchemyError

        from ..office.failures import failure_of

        failure = failure_of(error)
        if failure is not None:
            raise click.ClickException(f"{_shown(url)}: {failure}") from None
        if not isinstance(error, SQLAlchemyError):
            raise
        raise click.ClickException(
            f"{_shown(url)}: cannot use the database: "
            f"{first_line(getattr(error, 'orig', None) or error)}") from None


def _shown(url: str | None) -> str:
    """A database URL as a message shows it (without its password)."""
    from ..office.db import database_url, shown_url

    return shown_url(database_url(url).replace("+psycopg", ""))


@click.group(cls=_OfficeGroup)
@click.option("--db", "url", envvar="USCF_DB", default=None, metavar="URL",
              help="sqlite:///path (default sqlite:///uscf-office.db) or postgresql://...; "
                   "also $USCF_DB.")
@click.option("--wait", "wait", type=click.FloatRange(min=0), default=None, metavar="SECONDS",
              help="While another process writes to the database, wait at most SECONDS "
                   "before giving up (default: as long as it takes, saying so on stderr).")
@click.pass_context
def db(ctx: click.Context, url: str | None, wait: float | None) -> None:
    """The ratings office: a database that rates events in order and keeps the history.

    Only `init` and `upgrade` create a database; every other command refuses a URL
    with no database behind it. A command that changes the database waits while
    another one does (see --wait)."""
    ctx.obj = url  # the office is opened by the command that needs it (`_office`)


def file_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """The options that say how to read event files: --from, --date, --systems."""
    from ..formats.detect import FORMATS

    for option in reversed((
        click.option("--from", "from_format", type=click.Choice([f.name for f in FORMATS]),
                     help="The input format, if the content and extension do not tell it."),
        click.option("--date", "event_date", type=click.DateTime(["%Y-%m-%d"]),
                     callback=date_option,
                     help="The date of files that give none (a file without a date is "
                          "refused); a file that states another start date is refused."),
        click.option("--systems", callback=systems_option, metavar="R,Q",
                     help="Rating systems of sections whose file names neither systems "
                          "nor a time control; a file that states others is refused."),
    )):
        command = option(command)
    return command


def _read_options(from_format: str | None, event_date: date | None,
                  systems: tuple[System, ...] | None, assign_ids: bool) -> ReadOptions:
    """How to read files, from the options of `file_options` and --assign-ids."""
    from ..formats.detect import BY_NAME

    return ReadOptions(None if from_format is None else BY_NAME[from_format], event_date,
                       systems, assign_ids)


def _read_one(file: Path, options: ReadOptions) -> Event:
    """An event file read and checked as `uscf db rate` reads it, its warnings shown."""
    from ..office.checked_file import named, read_checked

    try:
        read = read_checked(file, options)
    except FAILURES as error:
        raise click.ClickException(named(file, error)) from None
    _warn(file, read.notes)
    return read.event


def _warn(file: Path, notes: tuple[str, ...]) -> None:
    """What reading ``file`` found worth saying (office/admission.py), on stderr."""
    for note in notes:
        click.echo(f"warning: {file}: {note}", err=True)


@db.command()
@click.pass_context
def init(ctx: click.Context) -> None:
    """Create the database (or bring its schema up to date)."""
    click.echo(f"schema at revision {_office(ctx).init()}")


@db.command()
@click.pass_context
def upgrade(ctx: click.Context) -> None:
    """Apply the schema migrations not yet applied."""
    click.echo(f"schema at revision {_office(ctx).init()}")


@db.command("import-members")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def import_members(ctx: click.Context, file: Path) -> None:
    """Import members (CSV, JSON, or the US Chess rating supplement).

    A member already stored keeps each field the list leaves empty; each stored value
    the list changes (a name, a birth date, an imported rating) is printed, one line
    each, with the old value and the new.

    Refused whole, naming each member and field, if a rating or N is out of range
    (no rating is below the absolute floor of 100), one id is listed with two names, or
    a birth date comes after a section the member played."""
    from ..formats.member_list import read_members

    try:
        records = read_members(file)
        done = _office(ctx).import_members(records, str(file))
    except FAILURES as error:
        raise click.ClickException(str(error)) from None
    for change in done.changes:
        click.echo(f"changed {change}")
    click.echo(f"imported {len(records)} members{_rerated(done.rerated)}")


@db.command("import-history")
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--member", default=None, metavar="ID",
              help="The member's id, for a page of the ratings API saved as it came (a "
                   "file of `uscf fetch --member` names its member).")
@click.pass_context
def import_history(ctx: click.Context, files: tuple[Path, ...], member: str | None) -> None:
    """Seed the pool from members' rated sections as US Chess publishes them.

    Each FILE is a member's history: a file of `uscf fetch --member ID`, or a page of
    the ratings API's /members/ID/sections with --member. Until the pool has rated a
    member in a system, the member's rating before each section is the one published
    before it; what the records do not give (an established N, the peak before the
    history) is assumed, and said. A member's history replaces the one imported
    before, and the pool's sections are re-rated from the member's first.

    A FILE of `uscf fetch --member ID --titles` (US Chess's records of the member's
    norms and awards) gives the titles and norm counts earned before the pool's
    history: the awards that are titles, and the Active norms counted by level."""
    from ..formats.bounds import read_input
    from ..formats.member_history import MemberHistory, read_history
    from ..formats.member_titles import MemberTitles, read_member_titles, sniff

    if member is not None and len(files) > 1:
        raise click.UsageError("--member names the member of one file: give one FILE")
    try:
        histories: list[tuple[Path, MemberHistory]] = []
        records: list[tuple[Path, MemberTitles]] = []
        for file in files:
            raw = read_input(file)
            if sniff(raw):
                records.append((file, read_member_titles(file, member, data=raw)))
            else:
                histories.append((file, read_history(file, member, data=raw)))
        office = _office(ctx)
        # the histories first: what refuses them refuses before anything is written, and
        # the titles, read and checked already, are then stored
        done = office.import_history([h for _, h in histories],
                                     ", ".join(str(f) for f, _ in histories)) \
            if histories else None
        carried = office.import_titles([r for _, r in records],
                                       ", ".join(str(f) for f, _ in records)) \
            if records else None
    except FAILURES as error:
        raise click.ClickException(str(error)) from None
    if done is not None:
        for note in done.notes:
            click.echo(f"note: {note}", err=True)
        click.echo(f"imported {done.sections} published rating(s) of {done.members} "
                   f"member(s){_rerated(done.rerated)}")
    if carried is not None:
        for change in carried.changes:
            click.echo(f"changed {change}")
        for note in carried.notes:
            click.echo(f"note: {note}", err=True)
        click.echo(f"imported the titles and norms of {carried.members} member(s)")


def _rerated(sections: int) -> str:
    return f"; {sections} section(s) re-rated" if sections else "; nothing to re-rate"


@db.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option("--replace", is_flag=True, help="Treat an event already rated as a correction.")
@click.option("--pre-ratings", default=PreRatings.DATABASE.value, show_default=True,
              type=click.Choice([PreRatings.DATABASE.value, PreRatings.FILE.value]),
              help="file: take the files' pre-event ratings as given (re-running history).")
@click.option("--check-first", is_flag=True,
              help="Check every file before rating any, instead of rating files that come "
                   "in date order while the rest are checked.")
@click.option("--commit-every", type=click.IntRange(min=0), default=COMMIT_EVERY,
              show_default=True, metavar="GAMES",
              help="Commit whole events in groups of about GAMES games (0: each event "
                   "alone).")
@click.option("--assign-ids", is_flag=True,
              help="Give each player without a member id the id EVENT/SECTION/PAIR "
                   "(else such a file is refused).")
@click.option("--different-event", is_flag=True,
              help="Store events whose dates, players and games are those of an event "
                   "stored under another id (or of another file given): they are other "
                   "events (else such a file is refused, naming the stored event).")
@file_options
@click.pass_context
def rate(ctx: click.Context, files: tuple[Path, ...], replace: bool, pre_ratings: str,
         check_first: bool, commit_every: int, assign_ids: bool, different_event: bool,
         from_format: str | None, event_date: date | None,
         systems: tuple[System, ...] | None) -> None:
    """Store and rate events in order of their sections' dates, whole events to a
    transaction.

    Every file is read and checked (in parallel), and nothing is stored if one fails:
    the message names the file. Files given in date order are rated while the rest are
    still being checked, in a transaction that commits only once every file has passed
    (--check-first checks them all before rating any). Events dated before events
    already rated wait, and everything after the first of them is rated again once, in
    the transaction that rates them. Events are committed in groups of about
    --commit-every games; an event that fails once every file has passed (already
    rated, without --replace) is not stored, and the events before it are. On a
    terminal a progress bar shows on stderr; otherwise each event gets a line on stdout
    once its transaction commits. Ctrl-C stops: the events rated since the last commit
    are rolled back, and the database holds whole events only. To go on after a stop,
    run the same command again: the events stored already as given are skipped.

    Refused: a file that cannot be read or rated (every such file is listed), two files
    of one event, a file whose dates, players and games are those of an event stored
    under another id or of another file given (the same report as a DBF folder, a zip
    and a SwissSys file; unless --different-event), a player without a member id
    (unless --assign-ids), two players of one id who played each other, a birth date
    after the section. One id under two names is a warning.
    """
    from ..office.ingest import ingest
    from ..office.options import IngestOptions, RateOptions

    options = IngestOptions(_read_options(from_format, event_date, systems, assign_ids),
                            RateOptions(PreRatings(pre_ratings), replace,
                                        commit_every=commit_every,
                                        different_event=different_event),
                            check_first)
    office = _office(ctx)
    shown = _Progress(office, len(files))
    try:
        with closing(ingest(office, files, options)) as reports:
            for report in reports:
                shown.show(report)
    except FAILURES as error:  # the office's errors name their files
        raise click.ClickException(str(error)) from None
    except KeyboardInterrupt:
        shown.close()
        click.echo(shown.stopped(), err=True)
        ctx.exit(130)
    except Exception as error:
        from ..office.failures import failure_of

        failure = failure_of(error)
        if failure is None:
            raise  # the group's: a database's other errors, or a bug
        shown.close()
        assert ctx.parent is not None
        where = _shown(ctx.parent.params.get("url"))
        raise click.ClickException(f"{where}: {failure.what}: {shown.left()}; "
                                   f"{failure.advice} {SKIPPED}") from None
    finally:
        shown.close()


class _Progress:
    """What `rate` shows of the reports of `office.ingest.ingest`: warnings as files are
    checked, a line per event committed (or a bar on a terminal), a summary, and what
    Ctrl-C leaves."""

    def __init__(self, office: Office, files: int):
        self.office, self.files = office, files
        self.terminal = sys.stderr.isatty()
        self.lines = not sys.stdout.isatty() or files < 2  # else a bar and a summary
        self.done = 0  #: events committed
        self.checking = True  #: files are checked and nothing is rated
        self.bar: Any = None  #: the bar showing, if any
        self.bar_of_games = False  #: the bar counts games rated, not files checked
        self.showing = ExitStack()  #: ends the bar

    def show(self, report: Report) -> None:
        from ..office.ingest import CheckingFiles, Committed, FileChecked, RatingInOrder

        if isinstance(report, CheckingFiles):
            self.checking = not report.rating
            label = "checking and rating files" if report.rating else \
                "reading and checking files"
            self.start_bar(label, report.files, report.files, report.checked, games=False)
        elif isinstance(report, FileChecked):
            if not self.bar_of_games:
                self.bar.update(1)
            _warn(report.path, report.notes)
            warn_lacking(str(report.path), report.lacking, known=self.office)
        elif isinstance(report, RatingInOrder):
            self.checking = False
            self.start_bar(f"rating {report.events:,} events", report.games, report.events,
                           0, games=True)
        elif isinstance(report, Committed):
            self.committed(report.events)
        else:
            self.close()
            if not self.lines:  # else each event's line says what it re-rated
                rerated = (f"; {report.rerated:,} later section(s) of events rated before "
                           "were re-rated" if report.rerated else "")
                click.echo(f"rated {report.events:,} events ({report.games:,} games, "
                           f"{report.ratings:,} ratings){rerated}")
            if report.unchanged and not self.lines:  # else each has its line
                click.echo(f"{report.unchanged:,} event(s) stored already as given were "
                           "left as they are")

    def committed(self, events: tuple[EventRated, ...]) -> None:
        self.done += len(events)  # first: Ctrl-C while the lines print counts them
        for event in events:
            if self.lines and event.unchanged:
                click.echo(f"unchanged {_named(event.event_id, event.name)}: stored already as "
                           "given, left as it is")
            elif self.lines:
                also = f", {event.rerated} later section(s) re-rated" if event.rerated \
                    else ""
                if event.rerated_for > 1:
                    also += (f" (once, for this event and the {event.rerated_for - 1} "
                             "before it dated among events already rated)")
                click.echo(f"{event.verb} {_named(event.event_id, event.name)}: "
                           f"{event.sections} section(s){also}")
            if self.bar_of_games:
                self.bar.update(event.games)

    def start_bar(self, label: str, length: int, items: int, done: int, games: bool) -> None:
        """A bar of ``length`` steps (files or games) over ``items`` items; hidden off a
        terminal and for one item."""
        self.close()
        self.bar = self.showing.enter_context(click.progressbar(
            length=length, label=label, file=sys.stderr, hidden=not self.terminal or items < 2))
        self.bar.update(done)
        self.bar_of_games = games

    def close(self) -> None:
        """End the bar, if one shows."""
        self.showing.close()
        self.bar = None

    def stopped(self) -> str:
        """What Ctrl-C left."""
        if self.checking:
            return "stopped while reading the files: nothing was stored"
        return f"stopped: {self.left()}; to go on, {RUN_AGAIN} {SKIPPED}"

    def left(self) -> str:
        """What the database holds of this run, when it stops before its end."""
        rest = "; the rest were rolled back or not begun" if self.done < self.files else ""
        return (f"{self.done} of {self.files} events rated and committed{rest}; the "
                "database holds whole events only")


@db.command()
@click.argument("event_id")
@click.argument("file", type=click.Path(exists=True, path_type=Path))
@click.option("--force-id", is_flag=True,
              help="Store FILE as EVENT_ID even though it names another event id.")
@click.option("--assign-ids", is_flag=True,
              help="As for uscf db rate: give each player without a member id the id "
                   "EVENT/SECTION/PAIR (else such a file is refused).")
@click.option("--different-event", is_flag=True,
              help="As for uscf db rate: store FILE though its dates, players and games "
                   "are those of another stored event.")
@file_options
@click.pass_context
def correct(ctx: click.Context, event_id: str, file: Path, force_id: bool, assign_ids: bool,
            different_event: bool, from_format: str | None, event_date: date | None,
            systems: tuple[System, ...] | None) -> None:
    """Replace a rated event by a corrected FILE and re-rate what follows.

    Refused if FILE is of another event (its event id differs from EVENT_ID) unless
    --force-id, if its dates, players and games are those of another stored event
    unless --different-event, and for every reason `uscf db rate` refuses a file."""
    from ..office.checked_file import named

    event = _read_one(file, _read_options(from_format, event_date, systems, assign_ids))
    try:
        corrected = _office(ctx).correct(event_id, event, force_id=force_id,
                                         different_event=different_event)
    except FAILURES as error:
        raise click.ClickException(named(file, error)) from None
    click.echo(f"corrected {event_id}: its {len(corrected.results)} section(s) re-rated"
               + (f", and {corrected.rerated} later section(s) of other events"
                  if corrected.rerated else ", nothing after it to re-rate"))


@db.command()
@click.argument("event_ids", metavar="EVENT_ID...", nargs=-1, required=True)
@click.pass_context
def withdraw(ctx: click.Context, event_ids: tuple[str, ...]) -> None:
    """Remove rated events and re-rate what follows.

    Several events given together are removed in one transaction, and what follows
    the earliest of them is re-rated once; if one of them is not stored, none is
    removed."""
    try:
        rerated = _office(ctx).withdraw(*event_ids)
    except FAILURES as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"withdrew {', '.join(dict.fromkeys(event_ids))}{_rerated(rerated)}")


@db.command()
@click.argument("keep")
@click.argument("drop")
@click.pass_context
def merge(ctx: click.Context, keep: str, drop: str) -> None:
    """Merge member id DROP into KEEP (one person with two ids).

    Refused if the two ids played in one section (they were two people there)."""
    try:
        rerated = _office(ctx).merge(keep, drop)
    except FAILURES as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"merged {drop} into {keep}{_rerated(rerated)}")


@db.command("set-floor", context_settings={"ignore_unknown_options": True})
@click.argument("member")
@click.argument("system", type=click.Choice([s.value for s in System]))
@click.argument("floor", type=float)
@click.option("--from", "effective", type=click.DateTime(["%Y-%m-%d"]), required=True,
              help="Date from which the floor holds.")
@click.option("--reason", default="", help="Why: a prize, a granted match request, ...")
@click.pass_context
def set_floor(ctx: click.Context, member: str, system: str, floor: float, effective: object,
              reason: str) -> None:
    """Set or lower a member's floor by hand.

    FLOOR is a 100-point level from 100 to 2200: a prize floor (section 5, up to
    2000), a lowered floor after a match (section 7: 100 below the old one) or an earned
    floor carried over from another record. Anything else is refused."""
    assert hasattr(effective, "date")
    try:
        rerated = _office(ctx).set_floor(member, System(system), floor, effective.date(),
                                         reason)
    except FAILURES as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"floor of {member} in {system} set to {floor:g}{_rerated(rerated)}")


@db.command("correct-member")
@click.argument("member")
@click.option("--birth-date", type=click.DateTime(["%Y-%m-%d"]),
              help="The member's birth date (it chooses an unrated player's age-based "
                   "rating, section 2.3); private: no public page shows it.")
@click.option("--fide", "fide_rating", type=float,
              help="The member's FIDE rating, for a first rating from it (section 2).")
@click.option("--fide-date", type=click.DateTime(["%Y-%m-%d"]),
              help="The date of that FIDE rating (its staleness, section 2).")
@click.pass_context
def correct_member(ctx: click.Context, member: str, birth_date: object, fide_rating: float | None,
                   fide_date: object) -> None:
    """Correct a member's birth date or FIDE rating, and re-rate."""
    changes: dict[str, object] = {}
    if birth_date is not None:
        changes["birth_date"] = birth_date.date()  # type: ignore[attr-defined]
    if fide_rating is not None:
        changes["fide_rating"] = fide_rating
    if fide_date is not None:
        changes["fide_date"] = fide_date.date()  # type: ignore[attr-defined]
    if not changes:
        raise click.UsageError("nothing to correct: give --birth-date, --fide or --fide-date")
    try:
        rerated = _office(ctx).correct_member(member, **changes)
    except FAILURES as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"corrected {member}{_rerated(rerated)}")


@db.command()
@click.argument("member_id")
@click.option("--json", "as_json", is_flag=True,
              help="The member as JSON: ratings, history, titles and norms.")
@click.option("--as-of", type=click.DateTime(["%Y-%m-%d"]),
              help="The titles and norms held on this day (default: after every event).")
@click.pass_context
def player(ctx: click.Context, member_id: str, as_json: bool, as_of: object) -> None:
    """A member's current ratings, floors, history, titles and norms."""
    from ..office import queries
    from ..office.db import check_schema

    day: date | None = as_of.date() if as_of is not None else None  # type: ignore[attr-defined]
    with _office(ctx).engine.connect() as c:
        check_schema(c)
        found = queries.player(c, member_id, day)
    if found is None:
        raise click.ClickException(f"member {member_id} is not in the database")
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    click.echo(f"{found['name'] or '(name not known)'} ({found['id']})")
    if found["id"] != member_id:
        click.echo(f"member {member_id} was merged into {found['id']} (uscf db merge): this is "
                   "the record of both")
    for system, r in found["ratings"].items():
        floor = f", floor {r['floor']:g}" if r["floor"] else ""
        peak = f", peak {two_decimals(r['peak'])}" if r["peak"] else ""
        click.echo(f"  {system}: {r['display']} ({two_decimals(r['rating'])}){floor}{peak}")
    click.echo("history:" if found["history"] else "history: no section in this pool")
    for h in found["history"]:
        pre = "unr." if h["pre"] is None else f"{h['pre']:.2f}"
        norm = f"  {h['norm']}" if h["norm"] else ""
        click.echo(f"  {h['end_date']}  {h['event_id']} s{h['section']}  {h['system']}: "
                   f"{pre} -> {h['post']:.2f}  N {h['games_after']}{norm}")
    if found["published"]:
        click.echo("published by US Chess (imported):")
    for h in found["published"]:
        pre = "unr." if h["pre"] is None else f"{h['pre']:.2f}"
        games = h["post_provisional_games"]
        click.echo(f"  {h['end_date']}  {h['event_id']} s{h['section']}  {h['system']}: "
                   f"{pre} -> {h['post']:.2f}" + (f"  P{games}" if games else ""))
    _titles(found["titles"], day)


def _titles(status: dict[str, Any], day: date | None) -> None:
    """A member's titles and the norms toward each level (office/titles.py)."""
    when = f" on {day.isoformat()}" if day else ""
    titles = status["titles"]
    click.echo(f"titles{when}:" if titles else f"titles{when}: none")
    for x in titles:
        earned = f" {x['date']}" if x["date"] else ""
        click.echo(f"  {x['name']}{earned}: {x['basis']}")
    counted = [p for p in status["norms"] if p["norms"] and not p["held"]]
    click.echo("norms toward a title:" if counted else "norms toward a title: none")
    for p in counted:
        where = ", ".join(f"{n['event']} s{n['section']} {n['code']}" if n["event"]
                          else f"{n['count']} x {n['code']} (imported)" for n in p["earned"])
        waiting = f"; {p['waiting']}" if p["waiting"] else ""
        click.echo(f"  {p['title']} ({p['level']:.0f}): {p['norms']} of {p['needed']} "
                   f"[{where}]{waiting}")


@db.command("event")
@click.argument("event_id")
@click.option("--json", "as_json", is_flag=True,
              help="The event as JSON: each section's players with their stored ratings and "
                   "each rating's explanation as `uscf rate --json` gives it.")
@click.pass_context
def event_cmd(ctx: click.Context, event_id: str, as_json: bool) -> None:
    """An event's crosstable with the explanation of each rating."""
    from ..formats.crosstable_text import event_heading, rating_change
    from ..office import queries
    from ..office.db import check_schema

    with _office(ctx).engine.connect() as c:
        check_schema(c)
        found = queries.event(c, event_id)
    if found is None:
        raise click.ClickException(f"event {event_id} is not in the database")
    if as_json:
        click.echo(json.dumps(found, indent=2))
        return
    click.echo(event_heading(found["id"], found["name"], found["start_date"], found["end_date"]))
    place = _place(found["details"])
    if place:
        click.echo(place)
    for s in found["sections"]:
        name = f" {s['name']}" if s["name"] else ""
        click.echo(f"\nSection {s['number']}{name} ({'/'.join(s['systems'])})")
        for p in s["players"]:
            changes = "  ".join(
                rating_change(system, r["pre"], r["pre_games"], r["post"], r["games_after"],
                              r.get("floor_applied")) + (f" [{r['formula']}{_k(r)}]"
                                                         if "formula" in r else "")
                for system, r in p["ratings"].items())
            click.echo(f"{p['pair']:>3} {p['name'] or p['id']:<28} {changes}  {' '.join(p['results'])}"
                       + _norm_line(p["norm"], p["norm_explanation"]))


@db.command("list")
@click.option("--as-of", type=click.DateTime(["%Y-%m-%d"]), required=True,
              help="The day of the list: each member's rating after the last event ended "
                   "by then.")
@click.option("--system", type=click.Choice([s.value for s in System]), default="R",
              show_default=True, help="The rating system listed.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json"]), default="table",
              show_default=True, help="table: a line a member; csv: for a spreadsheet (a "
              "header even when empty); json: a list of members.")
@click.pass_context
def list_cmd(ctx: click.Context, as_of: object, system: str, fmt: str) -> None:
    """The rating list (supplement) as of a date."""
    day: date = as_of.date()  # type: ignore[attr-defined]
    from ..office import queries
    from ..office.db import check_schema

    with _office(ctx).engine.connect() as c:
        check_schema(c)
        entries = queries.rating_list(c, day, System(system))
    if fmt == "json":
        click.echo(json.dumps([{"id": e.id, "name": e.name, "rating": e.rating,
                                "display": e.display, "games": e.games,
                                "as_of": e.as_of.isoformat() if e.as_of else None}
                               for e in entries], indent=2))
    elif fmt == "csv":
        click.echo(queries.rating_list_csv(entries), nl=False)
    else:
        click.echo(f"{'member':>10}  {'name':<30} {'rating':>8}")
        for e in entries:
            click.echo(f"{e.id:>10}  {e.name:<30} {e.display:>8}")
        if not entries:
            click.echo(f"(no member is rated in {system} on {day.isoformat()})")



def _norm_line(code: str | None, norm: dict[str, Any] | None) -> str:
    """A player's norm after the results: the code earned, else how close the lowest
    level was (S - E against the margin), else why none could be earned."""
    if code:
        return f"  {code}"
    if norm is None:
        return ""
    if not norm["eligible"]:
        return f"  no norm: {norm['reason']}"
    closest = next((x for x in norm["levels"] if not x["earned"]), None)
    if closest is None:
        return ""
    return (f"  no norm: {closest['code']} needs S - E > {norm['needed']:g}, "
            f"S - E = {closest['margin']:.2f}")


@db.command("title-supplement")
@click.option("--as-of", type=click.DateTime(["%Y-%m-%d"]), required=True,
              help="The day of the supplement: the titles held and norms earned by then.")
@click.option("--csv", "as_csv", is_flag=True, help="CSV, one member a row.")
@click.pass_context
def title_supplement_cmd(ctx: click.Context, as_of: object, as_csv: bool) -> None:
    """Members with their titles and norms in progress as of a date."""
    day: date = as_of.date()  # type: ignore[attr-defined]
    from ..office.db import check_schema
    from ..office.titles import supplement_csv, supplement_row, title_supplement

    with _office(ctx).engine.connect() as c:
        check_schema(c)
        entries = title_supplement(c, day)
    if as_csv:
        click.echo(supplement_csv(entries), nl=False)
        return
    if not entries:
        click.echo(f"no member holds a title or a norm toward one on {day.isoformat()}")
    for e in entries:
        row = supplement_row(e)
        norms = " ".join(f"{code} {count}" for code, count
                         in zip(NORM_CODES, row[3:10], strict=True) if count != "0")
        click.echo(f"{e.id:>10}  {e.name:<30} {row[2] or '-'}  [{norms}]")


def _place(details: dict[str, Any]) -> str:
    """The event's details on one line: ``Gainesville, FL 32603, United States;
    affiliate G7647935; chief TD 15120906; assistant chief TD 30833045``; "" if none."""
    def who(d: dict[str, str]) -> str:
        return f"{d['name']} ({d['id']})" if d["name"] and d["id"] else d["name"] or d["id"]

    town = " ".join(x for x in (details["state"], details["zip_code"]) if x)
    parts = [", ".join(x for x in (details["site"], details["city"], town, details["country"])
                       if x)]
    affiliate = " ".join(x for x in (details["affiliate_id"], details["affiliate_name"]) if x)
    parts += [f"affiliate {affiliate}" if affiliate else "",
              f"chief TD {who(details['chief_director'])}" if details["chief_director"] else "",
              f"assistant chief TD {who(details['assistant_director'])}"
              if details["assistant_director"] else "",
              "other TDs " + ", ".join(who(d) for d in details["other_directors"])
              if details["other_directors"] else ""]
    return "; ".join(x for x in parts if x)


def _named(event_id: str, name: str) -> str:
    """An event as a line names it: its id, and its name in brackets where it has one."""
    return f"{event_id} ({name})" if name else event_id


def _k(rating: dict[str, object]) -> str:
    steps = rating.get("steps") or []
    k = steps[-1].get("K") if steps else None  # type: ignore[index]
    return f", K {k:.2f}" if isinstance(k, float) else ""


# --- API tokens for `uscf serve` ------------------------------------------------------


@db.group()
def token() -> None:
    """Tokens that allow writing through the web app's API (`uscf serve`)."""


@token.command("create")
@click.argument("name")
@click.pass_context
def token_create(ctx: click.Context, name: str) -> None:
    """Create a token called NAME and print it. Only its hash is stored: copy it now."""
    from ..office.tokens import TokenError, create_token

    try:
        click.echo(create_token(_office(ctx).engine, name))
    except (TokenError, DatabaseError) as error:
        raise click.ClickException(str(error)) from None


@token.command("revoke")
@click.argument("name")
@click.pass_context
def token_revoke(ctx: click.Context, name: str) -> None:
    """Delete the token called NAME: requests that use it are refused from now on."""
    from ..office.tokens import TokenError, revoke_token

    try:
        revoke_token(_office(ctx).engine, name)
    except (TokenError, DatabaseError) as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"revoked {name}")


@token.command("list")
@click.pass_context
def token_list(ctx: click.Context) -> None:
    """List the tokens by name and creation time (the tokens themselves are not kept)."""
    from ..office.tokens import list_tokens

    try:
        tokens = list_tokens(_office(ctx).engine)
    except DatabaseError as error:
        raise click.ClickException(str(error)) from None
    for info in tokens:
        click.echo(f"{info.name}  created {info.created_at:%Y-%m-%d %H:%M} UTC")
