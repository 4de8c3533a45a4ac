"""Reading an event sent to the app: an uploaded file in any format, or event JSON text.

An upload is written to a private temporary folder and read with
`uscf_ratings.formats.detect.read_any`, which chooses the format by content and
extension, exactly as ``uscf db rate FILE`` does. Only the extension of the name the
browser sent is kept, and its stem only when it is plain letters, digits, ``_`` and ``-``
(a standings page of the ratings API takes its event id from it): the name is the
client's and never becomes a path outside the private folder.

What the file lacks, the section form may give (`Supplied`): the event's date, its rating
systems, its time control, as ``--date`` and ``--systems`` do for ``uscf rate``. They are
used only where the file lacks them: the file is read as it is first, and read again with
the form's values only when that fails for want of a date or leaves a section with neither
systems nor a time control that names them. The readers then use the date for a file that
gives none and the systems for sections that give none (a file's own rating column goes to
those systems); a file that states other systems than the form's for such a read is
refused, saying so (`uscf_ratings.formats.common.with_systems`). `Uploaded` records what
the form supplied, for the page to say.
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import BinaryIO

from ..core.model import Event, Section, System
from ..core.timecontrol import TimeControlError, parse_time_control
from ..fidelity.verify import EventCheck, verify
from ..formats import ratings_api
from ..formats.bounds import parse_json
from ..formats.common import DATE_HELP, parse_systems, systems_of
from ..formats.detect import read_any, sniff
from ..formats.errors import Issue as ParseIssue
from ..formats.errors import ParseError
from ..formats.event_json import event_from_dict
from .problems import Issue, Problem, from_parse_error

log = logging.getLogger(__name__)
SAFE_SUFFIX = re.compile(r"^\.[A-Za-z0-9]{1,8}$")
SAFE_STEM = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
COPY_BLOCK = 1 << 16
#: The CLI's options, as the readers' messages name them, and what the form calls them.
FORM_WORDS = ((DATE_HELP, "give the event date in the form"),
              (" (leave --date out, or correct the file)", ""),
              ("--date gives", "the form gives"), ("--systems gives", "the form gives"))


@dataclass(frozen=True)
class Supplied:
    """What the section form gives, for a file that lacks it."""

    systems: tuple[System, ...] = ()
    time_control: str = ""
    day: date | None = None

    def __bool__(self) -> bool:
        return bool(self.systems or self.time_control or self.day)

    def systems_on(self, day: date) -> tuple[System, ...]:
        """The systems for sections that give none: the form's, else those of the form's
        time control by the rules of ``day`` (footnote 1 of the 2025 text)."""
        if self.systems or not self.time_control:
            return self.systems
        return systems_of(self.time_control, day) or ()


@dataclass(frozen=True)
class Uploaded:
    """An event read, and what of it came from the form."""

    event: Event
    day: date | None = None  #: the form's date: the file gives none
    systems: tuple[int, ...] = ()  #: sections rated in the form's systems
    timed: tuple[int, ...] = ()  #: sections given the form's time control
    #: for US Chess's own records (the ratings API's), our rating of each section from
    #: its published pre-event ratings against the published post-event ratings
    published: EventCheck | None = None


def supplied_from(values: Mapping[str, str]) -> Supplied:
    """The section form's optional fields ``given_systems`` (``R`` or ``R,Q``),
    ``given_time_control`` and ``given_date``; a 422 naming each one that is wrong."""
    issues: list[Issue] = []
    systems: tuple[System, ...] = ()
    text = values.get("given_systems", "").strip()
    if text:
        try:
            systems = parse_systems(text)
        except ValueError as error:
            issues.append(Issue(str(error), "rating systems"))
    control = values.get("given_time_control", "").strip()
    if control:
        try:
            parse_time_control(control)
        except TimeControlError as error:
            issues.append(Issue(str(error), "time control"))
    day = None
    if values.get("given_date", "").strip():
        try:
            day = date.fromisoformat(values["given_date"].strip())
        except ValueError:
            issues.append(Issue(f"{values['given_date']!r} is not a date as YYYY-MM-DD", "event date"))
    if issues:
        raise Problem(422, "; ".join(f"{i.where}: {i.message}" for i in issues), issues)
    return Supplied(systems, control, day)


def read_upload(data: bytes | BinaryIO, filename: str, supplied: Supplied = Supplied()) -> Uploaded:
    """The event in an uploaded file (its bytes, or the spooled file the form parser
    kept, copied to disk in blocks rather than read whole), with what ``supplied`` gives
    where the file lacks it; a file that cannot be read is a 4xx Problem. The upload
    itself is bounded by ``--max-upload`` (`limits`); what an archive unpacks to is
    bounded by the readers (`uscf_ratings.formats.archive`)."""
    shown = Path(filename).name or "upload"
    with _saved(data, filename) as path:
        try:
            uploaded = _read_filled(path, supplied)
            if sniff(path).name == "api":
                uploaded = replace(uploaded, published=_compared(path, shown, uploaded))
            return uploaded
        except ParseError as error:
            # Name the file as the user knows it, not by its temporary path.
            issues = [ParseIssue(i.where, _form_words(i.message)) for i in error.issues]
            raise from_parse_error(ParseError(shown, issues)) from None
        except Exception as error:
            # A reader that fails on a damaged file other than with ParseError is a reader
            # bug, but to the person uploading it is a file that cannot be read: answer
            # 422 rather than 500, and log it for the developers.
            log.exception("reading upload %r failed", shown)
            message = f"{shown}: the file could not be read ({type(error).__name__}: {error})"
            raise Problem(422, message) from None


def _compared(path: Path, shown: str, uploaded: Uploaded) -> EventCheck:
    """US Chess's records read as `uscf verify` reads them (with the form's date and
    systems where the file has none, as the event was read), and checked."""
    systems = tuple(dict.fromkeys(s for section in uploaded.event.sections
                                  for s in section.systems or ()))
    records = ratings_api.read_records(path, event_date=uploaded.day,
                                       systems=systems or None)
    return verify(records, shown)


@contextmanager
def _saved(data: bytes | BinaryIO, filename: str) -> Iterator[Path]:
    """The upload as a file in a private temporary folder, removed afterwards."""
    suffix = Path(filename).suffix
    suffix = suffix.lower() if SAFE_SUFFIX.match(suffix) else ""
    # a plain name is kept: a standings page of the ratings API takes its event id and
    # section number from it (202508311982_s02_standings.json)
    stem = Path(filename).stem
    stem = stem if SAFE_STEM.match(stem) else "upload"
    with tempfile.TemporaryDirectory(prefix="uscf-upload-") as folder:
        path = Path(folder) / f"{stem}{suffix}"
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            with path.open("wb") as out:
                shutil.copyfileobj(data, out, COPY_BLOCK)
        if path.stat().st_size == 0:
            raise Problem(400, "the uploaded file is empty",
                          [Issue("the uploaded file is empty", filename)])
        yield path


def _read_filled(path: Path, supplied: Supplied) -> Uploaded:
    """The file as it is; again with the form's values only where it lacks them."""
    try:
        event = read_any(path)
    except ParseError as error:
        if not supplied:
            raise
        undated = any(DATE_HELP in i.message for i in error.issues)
        dated = supplied.day if undated else None
        return filled(_read_with(path, supplied, dated), supplied, dated)
    if any(_lacks_systems(s, event) for s in event.sections) and supplied.systems_on(event.start_date):
        event = _read_with(path, supplied, None)
    return filled(event, supplied, None)


def _read_with(path: Path, supplied: Supplied, dated: date | None) -> Event:
    """The file read with the form's date (``dated``) and systems; the systems of the
    form's time control are those of the event's date, once it is known."""
    systems = supplied.systems_on(dated or date.today())
    event = read_any(path, event_date=dated, systems=systems or None)
    exact = supplied.systems_on(event.start_date)
    if exact != systems:
        event = read_any(path, event_date=dated, systems=exact or None)
    return event


def _lacks_systems(section: Section, event: Event) -> bool:
    """Neither systems nor a time control that names them (footnote 1 of the 2025 text)."""
    return not section.systems and systems_of(section.time_control, section.start_date,
                                              section.online or event.online) is None


def filled(event: Event, supplied: Supplied, dated: date | None = None) -> Uploaded:
    """The event with the form's systems in the sections whose time control names none,
    and the form's time control in those that give none; with a record of what the form
    supplied (``dated``: the form's date, used). The form's systems win over its time
    control, as a section's own systems win over its own (`Section.systems`)."""
    sections, systems, timed = [], [], []
    for s in event.sections:
        own = systems_of(s.time_control, s.start_date, s.online or event.online)
        if supplied.systems and own is None:
            s = s if s.systems else replace(s, systems=supplied.systems)
            if s.systems == supplied.systems:
                systems.append(s.number)
        if not s.time_control and supplied.time_control:
            s = replace(s, time_control=supplied.time_control)
            timed.append(s.number)
        sections.append(s)
    return Uploaded(replace(event, sections=tuple(sections)), dated, tuple(systems), tuple(timed))


def _form_words(message: str) -> str:
    """A reader's message with the CLI's options named as the form's fields."""
    for cli, form in FORM_WORDS:
        message = message.replace(cli, form)
    return message


def event_from_json_text(text: str | bytes, source: str = "event JSON") -> Event:
    """Event JSON (a pasted text or an API body): 400 if it is not JSON, 422 if the JSON
    is not a valid event."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise Problem(400, f"{source}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    if not text.strip():
        raise Problem(400, f"{source}: empty: expected an event JSON document")
    try:  # the readers' one rule: nesting and numbers bounded (`formats.bounds`)
        data = parse_json(text, source)
    except ParseError as error:
        [issue] = error.issues
        raise Problem(400, f"{source}: {issue}", [Issue(issue.message, issue.where)]) from None
    try:
        return event_from_dict(data, source)
    except ParseError as error:
        raise from_parse_error(error) from None
