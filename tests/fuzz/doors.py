"""The doors an input goes through, and the invariants checked at each.

Every door returns a `Verdict`: ``accepted``, ``refused`` (the project's own error,
``placed`` when it names a line, a field, a record or a JSON path), or a violation of an
invariant:

* ``foreign``: an exception other than the project's own (`ParseError` from a reader;
  from the CLI, anything but a clean exit with one ``Error:`` message), or a traceback
  in the CLI's output;
* ``memory``: the process's resident memory grew by more than `MEMORY_CEILING` while
  the door ran (or the guard below it was hit: a MemoryError);
* ``changed``: a command that refused an input left the office's database changed;
* ``differs``: an accepted event, stored in an office and rated again from the database,
  does not give bit-identical ratings to the same event rated directly (`uscf rate`'s
  way: its defaults filled in by `core.settled`, then `core.pipeline.rate_section`).

A violation's ``signature`` (door, invariant, exception class, the last frame in the
package) tells findings of one cause apart.
"""

from __future__ import annotations

import re
import resource
import shutil
import sqlite3
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from uscf_ratings.core.model import Event

#: The memory ceiling: a door may grow the process by at most this much resident memory
#: for one input (every input here is under the 10 MB of the ceiling's files). Issue 37
#: sets one ceiling for every door ("any file up to 10 MB is read, checked, rated and
#: written within 300 MB"); align this constant with it.
MEMORY_CEILING = 300 * 2**20
#: Beyond the ceiling the process's data segment is capped (RLIMIT_DATA) at this much
#: above what it holds, so that a runaway input ends in a MemoryError, soon, rather than
#: a machine out of memory (the margin is for address space reserved but not used).
MEMORY_GUARD = MEMORY_CEILING + 128 * 2**20

ACCEPTED, REFUSED = "accepted", "refused"
FOREIGN, MEMORY, CHANGED, DIFFERS = "foreign", "memory", "changed", "differs"
VIOLATIONS = (FOREIGN, MEMORY, CHANGED, DIFFERS)

#: what a refusal that names its place says (the file's own path left out)
PLACE = re.compile(r"line \d|field|record|column|row|byte|\[\d+\]|section|player|member|"
                   r"round|pair|header|\.DBF|zip|tag", re.IGNORECASE)
PATH = re.compile(r"\S*/\S*")


@dataclass(frozen=True)
class Verdict:
    door: str
    status: str  #: ACCEPTED, REFUSED, or one of VIOLATIONS
    detail: str = ""  #: the refusal's message, or what broke and where
    placed: bool = False  #: a refusal that names the place
    signature: tuple[str, ...] = ()

    @property
    def violated(self) -> bool:
        return self.status in VIOLATIONS


def _status_kb(field_name: str) -> int:
    text = Path("/proc/self/status").read_text()
    match = re.search(rf"^{field_name}:\s+(\d+) kB", text, re.MULTILINE)
    return int(match.group(1)) if match else 0


@dataclass
class MemoryProbe:
    """The growth of resident memory while a door runs: the peak (VmHWM, reset before
    through /proc/self/clear_refs) less what the process held before. Where Linux does
    not offer that, the probe measures nothing (``growth`` 0)."""

    works: bool = True
    growth: int = 0

    @contextmanager
    def measure(self) -> Iterator[None]:
        before = 0
        if self.works:
            try:
                Path("/proc/self/clear_refs").write_text("5")
                before = _status_kb("VmRSS")
            except OSError:
                self.works = False
        soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        data = _status_kb("VmData") * 1024 if self.works else 0
        guard = data + MEMORY_GUARD if data else resource.RLIM_INFINITY
        if hard != resource.RLIM_INFINITY:
            guard = min(guard, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (guard, hard))
        try:
            yield
        finally:
            resource.setrlimit(resource.RLIMIT_DATA, (soft, hard))
            self.growth = (_status_kb("VmHWM") - before) * 1024 if self.works else 0


def where_raised(error: BaseException) -> str:
    """The last frame of the package in the error's traceback: ``formats/trf.py:123``."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if "uscf_ratings" in f.filename]
    if not (ours or frames):
        return "?"
    frame = (ours or frames)[-1]
    name = frame.filename.split("uscf_ratings/")[-1]
    return f"{name}:{frame.lineno} in {frame.name}"


def foreign(door: str, error: BaseException) -> Verdict:
    status = MEMORY if isinstance(error, MemoryError) else FOREIGN
    place = where_raised(error)
    first = (str(error).splitlines() or [""])[0][:200]
    # one cause, whichever door it came through: the door is not in the signature
    return Verdict(door, status, f"{type(error).__name__} at {place}: {first}",
                   signature=(status, type(error).__name__, place))


#: a line "WHERE: WHAT" once the file's path is left out (the form of `errors.Issue`)
WHERE_WHAT = re.compile(r"^(?:Error:)?[\s:]*[\w .\[\]'\"-]+: \S", re.MULTILINE)


def refused(door: str, message: str, error: BaseException | None = None) -> Verdict:
    """A refusal; ``placed`` where each of a `ParseError`'s issues names its place (its
    ``where``, or a line, byte or field in its message), or, for a command's message,
    where it names one. A whole-file refusal ("no date", "not a zip") names none."""
    from uscf_ratings.formats.errors import ParseError

    if isinstance(error, ParseError):
        placed = all(issue.where or PLACE.search(issue.message) for issue in error.issues)
    else:
        text = PATH.sub("", message)
        placed = bool(PLACE.search(text) or WHERE_WHAT.search(text))
    return Verdict(door, REFUSED, message[:300], placed=placed)


# --- the office's database ------------------------------------------------------------------

def dump(path: Path) -> list[str]:
    """Every row of every table as SQL text, sorted (the audit log included)."""
    connection = sqlite3.connect(path)
    try:
        return sorted(connection.iterdump())
    finally:
        connection.close()


@dataclass
class Offices:
    """Two offices made once a run and copied for each input: ``seeded`` holds the
    sample event and its members (the commands that refuse must leave it as it was);
    ``empty`` holds the schema only (an event stored there is rated from its own file,
    as `uscf rate` rates it)."""

    folder: Path
    seeded: Path = field(init=False)
    empty: Path = field(init=False)
    seeded_rows: list[str] = field(init=False)

    def __post_init__(self) -> None:
        from click.testing import CliRunner

        from uscf_ratings.cli.main import cli

        from .seeds import SAMPLE

        self.folder.mkdir(parents=True, exist_ok=True)
        self.empty, self.seeded = self.folder / "empty.db", self.folder / "seeded.db"
        for path in (self.empty, self.seeded):
            CliRunner().invoke(cli, ["db", "--db", f"sqlite:///{path}", "init"])
        done = CliRunner().invoke(cli, ["db", "--db", f"sqlite:///{self.seeded}", "rate",
                                        str(SAMPLE)])
        assert done.exit_code == 0, done.output
        for path in (self.empty, self.seeded):  # everything in the main file: copied whole
            with sqlite3.connect(path) as c:
                c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.seeded_rows = dump(self.seeded)

    def copy(self, which: Path) -> Path:
        target = self.folder / f"work-{which.name}"
        for old in self.folder.glob(f"{target.name}*"):
            old.unlink()
        shutil.copyfile(which, target)
        return target


# --- the doors --------------------------------------------------------------------------------

Door = Callable[[Path, "Context"], Verdict]


@dataclass
class Context:
    offices: Offices
    scratch: Path  #: a folder for a door's outputs
    choice: int = 0  #: which variant of a door to run (the engine varies it)
    member: str | None = None  #: --member for a page of a member's sections


def _reader(door: str, read: Callable[[], object]) -> Verdict:
    """A reader called: what it read is accepted, `ParseError` is refused, and every other
    exception is the finding."""
    from uscf_ratings.formats.errors import ParseError

    try:
        read()
    except ParseError as error:
        return refused(door, str(error), error)
    except Exception as error:  # every other exception is the finding
        return foreign(door, error)
    return Verdict(door, ACCEPTED)


def read_event(path: Path, ctx: Context) -> Verdict:
    """The readers (`formats.detect.read_any`): an event, or `ParseError`."""
    from uscf_ratings.formats.detect import read_any

    return _reader("read", lambda: read_any(path))


def read_members_door(path: Path, ctx: Context) -> Verdict:
    from uscf_ratings.formats.member_list import read_members

    return _reader("read-members", lambda: read_members(path))


def read_history_door(path: Path, ctx: Context) -> Verdict:
    from uscf_ratings.formats.member_history import read_history

    return _reader("read-history", lambda: read_history(path, ctx.member))


def read_titles_door(path: Path, ctx: Context) -> Verdict:
    """US Chess's records of a member's norms and awards (`formats.member_titles`)."""
    from uscf_ratings.formats.member_titles import read_member_titles

    return _reader("read-titles", lambda: read_member_titles(path))


#: the made-up section the titles seed's records are of (docs/check-my-rating.md)
VERIFIED_EVENT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "made-up-norm.json"


def verify_titles_cli(path: Path, ctx: Context) -> Verdict:
    """`uscf verify` of a section with the member's records beside it: the comparison of
    norms and titles runs on whatever the records say."""
    return _cli("verify", ["verify", str(VERIFIED_EVENT), str(path)])


def _cli(door: str, args: list[str], database: Path | None = None,
         rows: list[str] | None = None) -> Verdict:
    """A `uscf` command through click's CliRunner: exit 0, or 1 with an ``Error:``
    message and no traceback; a refusal leaves ``database`` as ``rows``."""
    from click.testing import CliRunner

    from uscf_ratings.cli.main import cli

    result = CliRunner().invoke(cli, args)
    error = result.exception
    if error is not None and not isinstance(error, SystemExit):
        return foreign(door, error)
    output = result.output
    if "Traceback (most recent call last)" in output:
        return Verdict(door, FOREIGN, "a traceback in the output",
                       signature=(door, FOREIGN, "traceback in output"))
    if result.exit_code == 0:
        return Verdict(door, ACCEPTED)
    lines = [line for line in output.splitlines() if line.startswith("Error:")]
    if result.exit_code not in (1, 2) or not lines:
        return Verdict(door, FOREIGN, f"exit {result.exit_code} without a message: "
                       f"{output[-200:]!r}", signature=(door, FOREIGN, f"exit {result.exit_code}"))
    if database is not None and rows is not None and dump(database) != rows:
        return Verdict(door, CHANGED, f"the database changed after: {lines[0][:200]}",
                       signature=(door, CHANGED))
    return refused(door, output)


FORMATS_OUT = ("text", "json", "msa", "csv", "html")
CONVERT_TO = ("event.json", "event.trf", "event.csv", "crosstable.json", "report")


def rate_cli(path: Path, ctx: Context) -> Verdict:
    """`uscf rate FILE --format F`."""
    fmt = FORMATS_OUT[ctx.choice % len(FORMATS_OUT)]
    return _cli("rate", ["rate", str(path), "--format", fmt])


def convert_cli(path: Path, ctx: Context) -> Verdict:
    """`uscf convert FILE TARGET`, to each format that has a writer."""
    target = ctx.scratch / f"out-{ctx.choice}" / CONVERT_TO[ctx.choice % len(CONVERT_TO)]
    shutil.rmtree(target.parent, ignore_errors=True)
    target.parent.mkdir(parents=True)
    to = ["--to", "csvjson"] if target.name == "crosstable.json" else []
    return _cli("convert", ["convert", str(path), str(target), *to])


def db_rate_cli(path: Path, ctx: Context) -> Verdict:
    """`uscf db rate FILE` into an office that holds the sample event; with and without
    --assign-ids and --replace."""
    database = ctx.offices.copy(ctx.offices.seeded)
    assign = ["--assign-ids"] if ctx.choice % 2 else []
    replace = ["--replace"] if ctx.choice % 4 >= 2 else []  # the sample's id is stored
    return _cli("db rate", ["db", "--db", f"sqlite:///{database}", "rate", *assign, *replace,
                            str(path)], database, ctx.offices.seeded_rows)


def import_members_cli(path: Path, ctx: Context) -> Verdict:
    database = ctx.offices.copy(ctx.offices.seeded)
    return _cli("import-members", ["db", "--db", f"sqlite:///{database}", "import-members",
                                   str(path)], database, ctx.offices.seeded_rows)


def import_history_cli(path: Path, ctx: Context) -> Verdict:
    database = ctx.offices.copy(ctx.offices.seeded)
    member = ["--member", ctx.member] if ctx.member else []
    return _cli("import-history", ["db", "--db", f"sqlite:///{database}", "import-history",
                                   *member, str(path)], database, ctx.offices.seeded_rows)


def stored_equals_rated(path: Path, ctx: Context) -> Verdict:
    """An event the office accepts (`read_checked`, ids given where the file has none),
    rated directly as `uscf rate` rates it (`direct_ratings`: settled, then section by
    section), and stored in an empty office (`Office.rate`): the ratings stored, and those
    of the event read back from the database and rated again (`office.explain`), are
    the direct ones, bit for bit. Refused (not compared) where the office refuses the
    event, or, once stored, where one member plays in two of its sections (the office
    then rates the second from the state after the first, as it must)."""
    from sqlalchemy import select

    from uscf_ratings.office import schema
    from uscf_ratings.office.checked_file import CHECK_FAILURES, read_checked
    from uscf_ratings.office.errors import OfficeError
    from uscf_ratings.office.options import ReadOptions

    door = "stored = rated"
    try:
        event = read_checked(path, ReadOptions(assign_ids=True)).event
        direct = direct_ratings(event)
    except CHECK_FAILURES as error:
        return refused(door, str(error))
    except Exception as error:
        return foreign(door, error)
    from uscf_ratings.office.office import Office

    database = ctx.offices.copy(ctx.offices.empty)
    office = Office(f"sqlite:///{database}")
    try:
        explained = office.rate(event)
        with office.engine.connect() as c:
            stored = {(r.section, r.member_id, r.system): r.post
                      for r in c.execute(select(schema.ratings))}
    except (*CHECK_FAILURES, OfficeError) as error:
        return refused(door, str(error))
    except Exception as error:
        return foreign(door, error)
    finally:
        office.engine.dispose()
    ids = [p.id for s in event.sections for p in s.players]
    if len(ids) != len(set(ids)):
        return refused(door, "stored; not compared: a member plays in two sections, and the "
                       "office rates the second from the state after the first")
    again = {(s.number, p.id, system.value): r.post for s in explained for p in s.players
             for system, r in p.ratings.items() if r.m and r.post is not None}
    for name, found in (("stored", stored), ("rated again from the database", again)):
        wrong = sorted(k for k in direct.keys() | found.keys() if direct.get(k) != found.get(k))
        if wrong:
            k = wrong[0]
            return Verdict(door, DIFFERS, f"{len(wrong)} rating(s) {name} differ, e.g. "
                           f"section {k[0]} {k[1]} {k[2]}: direct {direct.get(k)!r}, "
                           f"{name} {found.get(k)!r}", signature=(door, DIFFERS, name))
    return Verdict(door, ACCEPTED)


def direct_ratings(event: Event) -> dict[tuple[int, str, str], float]:
    """The ratings ``uscf rate`` gives ``event``, by (section, member, system): its
    defaults filled in first (`core.settled`: a rating without a date is dated the
    section's start), as `uscf rate`, the web and the office fill them, through the
    office's own statement of that path (`office.stored_rated.rated_from_file`). Only
    members who played a rated game: the others keep their rating and get no row."""
    from uscf_ratings.office.stored_rated import rated_from_file

    return {(number, member, system.value): value[0]
            for (number, member, system), value in rated_from_file(event).items()}


#: the doors of each family of seeds: those run on every input, and those the engine
#: takes in turn (one an input)
ALWAYS: dict[str, tuple[Door, ...]] = {
    "event": (read_event,), "members": (read_members_door,), "history": (read_history_door,),
    "titles": (read_titles_door,)}
IN_TURN: dict[str, tuple[Door, ...]] = {
    "event": (rate_cli, convert_cli, db_rate_cli, stored_equals_rated),
    "members": (import_members_cli,), "history": (import_history_cli,),
    "titles": (verify_titles_cli,)}
BY_NAME: dict[str, Door] = {
    "read": read_event, "read-members": read_members_door, "read-history": read_history_door,
    "rate": rate_cli, "convert": convert_cli, "db rate": db_rate_cli,
    "import-members": import_members_cli, "import-history": import_history_cli,
    "stored = rated": stored_equals_rated, "read-titles": read_titles_door,
    "verify": verify_titles_cli}


def run_door(door: Door, path: Path, ctx: Context, probe: MemoryProbe) -> Verdict:
    """A door run under the memory probe: a growth beyond the ceiling is a violation
    whatever the door said."""
    try:
        with probe.measure():
            verdict = door(path, ctx)
    except MemoryError as error:
        return foreign(door.__name__, error)
    if probe.growth > MEMORY_CEILING:
        return Verdict(verdict.door, MEMORY, f"grew {probe.growth / 2**20:.0f} MB "
                       f"(ceiling {MEMORY_CEILING / 2**20:.0f} MB); it said: {verdict.status} "
                       f"{verdict.detail[:100]}", signature=(verdict.door, MEMORY))
    return verdict
