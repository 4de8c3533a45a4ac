"""Choose a reader by a file's content and extension, and convert between formats.

Each format module offers ``read(path) -> Event`` (raising `ParseError` with every
problem found) and, where the format can hold the data, ``write(event, path)``. This
module only dispatches; the formats know nothing of each other.
"""

from __future__ import annotations

import importlib
import zipfile
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..core.model import Event
from .errors import Issue, ParseError


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
)
BY_NAME = {f.name: f for f in FORMATS}


def sniff(path: Path, data: bytes | None = None) -> Format:
    """The format of ``path``: a folder or zip of DBF files is a rating report; otherwise
    the first bytes decide between formats that share an extension. ``data`` is the
    file's content, where the caller has read it already."""
    if path.is_dir():
        return BY_NAME["dbf"]
    suffix = path.suffix.lower()
    if suffix == ".ptoz":
        return BY_NAME["wintd"]
    if suffix == ".zip" and zipfile.is_zipfile(path):
        return BY_NAME["dbf"]
    if data is None:
        data = path.read_bytes()
    head = data[:4096]
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n")
    if suffix in (".trf", ".trfx"):
        return BY_NAME["trf"]
    # dBase version bytes (III, III with memo, IV with memo, FoxPro with memo); 0x30
    # (Visual FoxPro) is left out: it is the "0" that starts every TRF line.
    if suffix == ".dbf" or head[:1] in (b"\x03", b"\x83", b"\x8b", b"\xf5"):
        return BY_NAME["dbf"]
    if text.startswith(("{", "[")):
        if '"Overview"' in text or suffix in (".sjson", ".bk"):
            return BY_NAME["sjson"]
        # the CSV crosstable's JSON shares event JSON's top level: let the formats that
        # can tell their own files apart speak first
        whole = data.decode("utf-8", errors="replace")
        for candidate in ("wintd", "csvjson"):
            module = _maybe(BY_NAME[candidate])
            if module is not None and getattr(module, "claims", lambda _t: False)(whole):
                return BY_NAME[candidate]
        return BY_NAME["json"]
    if text.startswith("[Event ") or suffix == ".pgn":
        return BY_NAME["pgn"]
    if text[:3].isdigit() or text.startswith("###") or suffix in (".trf", ".trfx"):
        return BY_NAME["trf"]
    if suffix == ".csv" or "," in text.splitlines()[0] if text else False:
        return BY_NAME["csv"]
    raise ParseError(str(path), [Issue("", "unknown file format: expected event JSON, a US "
                                       "Chess DBF report (folder, zip or .DBF), TRF, SwissSys "
                                       ".sjson, WinTD JSON, CSV or PGN")])


def _maybe(fmt: Format) -> ModuleType | None:
    try:
        return fmt.load()
    except ImportError:
        return None


def read_any(path: Path | str, fmt: str | None = None) -> Event:
    """Read an event from any supported format, chosen by content and extension."""
    path = Path(path)
    chosen = BY_NAME[fmt] if fmt else sniff(path)
    module = chosen.load()
    if chosen.name == "json":
        event: Event = module.read_event(path)
        return event
    result: Event = module.read(path)
    return result


def write_any(event: Event, path: Path | str, fmt: str | None = None) -> None:
    """Write ``event`` in the format named by ``fmt`` or by the extension of ``path``."""
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
    module.write(event, path)
