"""Choose a reader by a file's content and extension, and convert between formats.

Each format module offers ``read(path) -> Event`` (raising `ParseError` with every
problem found) and, where the format can hold the data, ``write(event, path)``. This
module dispatches, and applies what a user gives beside a file alike for every format
(`read_any`: the date, the rating systems); the formats know nothing of each other.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

from ..core.model import Event, System
from .bounds import read_input
from .common import in_domain, with_systems
from .errors import Issue, ParseError
from .losses import losses


@dataclass(frozen=True)
class Format:
    name: str  #: used on the command line (--from, --to)
    module: str  #: module under uscf_ratings.formats
    extensions: tuple[str, ...]
    description: str

    def load(self) -> ModuleType:
        return importlib.import_module(f"uscf_ratings.formats.{self.module}")


FORMATS: tuple[Format, ...] = (
    Format("json", "event_json", (".json",), "the project's event JSON (schemas/event.schema.json)"),
    Format("dbf", "dbf", (".dbf", ".zip"), "US Chess rating report, three dBase files (format 2C)"),
    Format("trf", "trf", (".trf", ".trfx", ".txt"), "FIDE Tournament Report File (TRF16, TRF-2026)"),
    Format("sjson", "swisssys", (".sjson", ".bk"), "SwissSys .sjson export"),
    Format("wintd", "wintd", (".ptoz", ".json"), "WinTD JSON records (.ptoz or JSON)"),
    Format("csv", "csv_crosstable", (".csv",), "simple CSV crosstable"),
    Format("csvjson", "csv_crosstable", (".json",), "the CSV crosstable's JSON equivalent"),
    Format("pgn", "pgn", (".pgn",), "PGN games grouped into sections"),
    Format("api", "ratings_api", (".json",), "US Chess ratings-API records: a section's "
           "standings, or an event saved by `uscf fetch` (read only)"),
)
BY_NAME = {f.name: f for f in FORMATS}


#: A PGN tag pair, ``[Event "..."]``: no JSON array starts with a bare word and a string.
_PGN_TAG = re.compile(r'\[[ \t]*[A-Za-z][A-Za-z0-9_]*[ \t]+"')


def sniff(path: Path, data: bytes | None = None) -> Format:
    """The format of ``path``: a folder or zip of DBF files is a rating report; otherwise
    the extension where only one format uses it, then the first bytes. ``data`` is the
    file's content, where the caller has read it already."""
    if path.is_dir():
        return BY_NAME["dbf"]
    suffix = path.suffix.lower()
    if suffix == ".ptoz":
        return BY_NAME["wintd"]
    if suffix == ".zip":  # the report reader says so when it is no readable zip
        return BY_NAME["dbf"]
    if data is None:
        data = read_input(path)
    head = data[:4096]
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if suffix in (".trf", ".trfx"):
        return BY_NAME["trf"]
    if suffix == ".pgn":
        return BY_NAME["pgn"]
    # dBase version bytes (III, III with memo, IV with memo, FoxPro with memo); 0x30
    # (Visual FoxPro) is left out: it is the "0" that starts every TRF line.
    if suffix == ".dbf" or head[:1] in (b"\x03", b"\x83", b"\x8b", b"\xf5"):
        return BY_NAME["dbf"]
    # before JSON: a PGN starts with "[" too ([Event "..."])
    if _PGN_TAG.match(text):
        return BY_NAME["pgn"]
    if text.startswith(("{", "[")):
        if '"Overview"' in text or suffix in (".sjson", ".bk"):
            return BY_NAME["sjson"]
        # the CSV crosstable's JSON shares event JSON's top level: let the formats that
        # can tell their own files apart speak first
        whole = data.decode("utf-8", errors="replace")
        for candidate in ("api", "wintd", "csvjson"):
            module = _maybe(BY_NAME[candidate])
            if module is not None and getattr(module, "claims", lambda _t: False)(whole):
                return BY_NAME[candidate]
        return BY_NAME["json"]
    if text[:3].isdigit() or text.startswith("###"):
        return BY_NAME["trf"]
    if suffix == ".csv" or ("," in text.splitlines()[0] if text else False):
        return BY_NAME["csv"]
    raise ParseError(str(path), [Issue("", "unknown file format: expected event JSON, a US "
                                       "Chess DBF report (folder, zip or .DBF), TRF, SwissSys "
                                       ".sjson, WinTD JSON, CSV, PGN or ratings-API records; "
                                       "name the format with --from")])


def _maybe(fmt: Format) -> ModuleType | None:
    try:
        return fmt.load()
    except ImportError:
        return None


def read_any(path: Path | str, fmt: str | None = None, *, event_date: date | None = None,
             systems: tuple[System, ...] | None = None, data: bytes | None = None) -> Event:
    """Read an event from any supported format.

    ``fmt`` names the format (a name of `FORMATS`, as ``--from``); without it the
    content and extension tell it. ``event_date`` is the date of a file, or of sections,
    that give none; a file without a date is refused without it, and a file that states
    a start date other than ``event_date`` is refused. ``systems`` (as ``--systems``) are
    the rating systems of sections that state neither systems nor a time control we can
    read; a section that states others is refused (`common.with_systems`). ``data``: the
    file's bytes, when the caller has read them. Every refusal is a `ParseError` naming
    the file."""
    path = Path(path)
    if fmt is not None and fmt not in BY_NAME:
        raise ParseError(str(path), [Issue("", f"unknown format {fmt!r}: expected one of "
                                           + ", ".join(BY_NAME))])
    chosen = BY_NAME[fmt] if fmt else sniff(path, data)
    module = chosen.load()
    event: Event
    if chosen.name == "json":
        event = module.read_event(path) if data is None else _json_from(module, path, data)
    elif chosen.name == "dbf":
        event = module.read(path, systems=systems)
    else:
        event = module.read(path, event_date=event_date, systems=systems, data=data)
    if event_date is not None and event.start_date != event_date:
        raise ParseError(str(path), [Issue("", f"the file states the start date "
                                           f"{event.start_date}; --date gives {event_date} "
                                           "(leave --date out, or correct the file)")])
    if systems:
        event = with_systems(event, systems, str(path))
    if chosen.name not in _CHECKED_BY_READER:
        event = in_domain(event, str(path))
    return event


#: the readers that check the domain themselves (`common.in_domain`): event JSON, which
#: every door that takes JSON uses, and the ratings API's records, which `uscf verify` reads
_CHECKED_BY_READER = frozenset({"json", "api"})


def _json_from(module: ModuleType, path: Path, data: bytes) -> Event:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ParseError(str(path), [Issue("", f"not UTF-8 text ({error.reason} at byte "
                                           f"{error.start})")]) from None
    event: Event = module.parse_event(text, str(path))
    return event


class Written(NamedTuple):
    """What `write_any` did: every path it wrote, and a warning for each field of the
    event the target format did not keep (field by field, naming the players)."""

    paths: list[Path]
    warnings: list[str]


def write_any(event: Event, path: Path | str, fmt: str | None = None) -> Written:
    """Write ``event`` in the format named by ``fmt`` or by the extension of ``path``;
    the paths written and the warnings of what the format could not hold (found by
    reading the written files back and comparing them with ``event``). A format that
    cannot hold the event at all raises `ValueError`."""
    path = Path(path)
    if fmt is None:
        matches = [f for f in FORMATS if path.suffix.lower() in f.extensions]
        if not matches and path.suffix == "":
            matches = [BY_NAME["dbf"]]  # a folder for the three report files
        if not matches:
            raise ValueError(f"{path}: cannot tell the format from the extension; use --to")
        fmt = matches[0].name
    module = BY_NAME[fmt].load()
    if not hasattr(module, "write"):
        raise ValueError(f"the {fmt} format is read-only")
    if fmt in ("csv", "csvjson"):
        paths = module.write(event, path, as_json=fmt == "csvjson")
    else:
        paths = module.write(event, path)
    return Written(list(paths), losses(event, fmt, module, path, list(paths)))
