"""The fuzzer's seeds: real files of directors' programs, the tests' own data files, and
files our own writers produce.

A seed is one file's bytes with the name it is read under (the extension matters: the
readers choose by content and extension) and the door family it belongs to: ``event``
files go through the event readers and `uscf rate`, `convert` and `db rate`; ``members``
files through `read_members` and `db import-members`; ``history`` files through
`read_history` and `db import-history`. A DBF rating report is one seed as a zip of its
three tables (mutations reach the tables inside it, rezipped, as well as the zip's own
bytes).
"""

from __future__ import annotations

import io
import json
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
FORMATS = SHARED / "formats"
DATA = REPO / "tests" / "formats" / "data"
MALFORMED = REPO / "tests" / "malformed" / "files"
SAMPLE = REPO / "examples" / "sample-event.json"

#: the member whose published history ../shared holds (the ratings API's page of his
#: sections does not name him: `db import-history --member`)
HISTORY_MEMBER = "12345678"

EVENT, MEMBERS, HISTORY, TITLES = "event", "members", "history", "titles"


@dataclass(frozen=True)
class Seed:
    name: str  #: where it came from, shown in findings
    filename: str  #: the name it is written under (its extension chooses the reader)
    data: bytes
    family: str = EVENT  #: EVENT, MEMBERS, HISTORY or TITLES

    @property
    def suffix(self) -> str:
        return Path(self.filename).suffix.lower()


def zipped(files: dict[str, bytes]) -> bytes:
    """The files as one zip, as a director sends a rating report."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    return out.getvalue()


def _report(folder: Path) -> bytes | None:
    files = {p.name.upper(): p.read_bytes() for p in folder.iterdir()
             if p.suffix.upper() == ".DBF"}
    return zipped(files) if files else None


def real_seeds() -> list[Seed]:
    """The files of ../shared/formats (their MANIFEST.md say what each is), and the ratings
    API's records and one member's published history in ../shared/recent. Empty where
    ../shared is absent (the caller says so)."""
    seeds: list[Seed] = []
    for path in sorted((FORMATS / "trf").glob("*.trf*")):
        seeds.append(Seed(f"shared/trf/{path.name}", path.name, path.read_bytes()))
    for path in sorted((FORMATS / "pairing_json").glob("*.sjson")):
        seeds.append(Seed(f"shared/sjson/{path.name}", path.name, path.read_bytes()))
    for folder in sorted((FORMATS / "uscf_dbf").glob("*/")):
        report = _report(folder)
        if report is not None:
            seeds.append(Seed(f"shared/dbf/{folder.name}", "report.zip", report))
    raw = SHARED / "recent" / "raw"
    for path in sorted(raw.glob("*_standings.json"))[:2]:
        seeds.append(Seed(f"shared/api/{path.name}", path.name, path.read_bytes()))
    history = raw / f"member_{HISTORY_MEMBER}_sections.json"
    if history.is_file():
        seeds.append(Seed(f"shared/history/{history.name}", history.name,
                          history.read_bytes(), HISTORY))
    return seeds


def test_data_seeds() -> list[Seed]:
    """The tests' own data: tests/formats/data, tests/malformed/files and examples/."""
    seeds = [Seed("examples/sample-event.json", "sample-event.json", SAMPLE.read_bytes())]
    for kind in ("trf", "sjson", "wintd", "csv", "pgn"):
        for path in sorted((DATA / kind).glob("*.*")):
            if path.suffix == ".md":
                continue
            name = path.name if kind != "wintd" else path.stem + ".ptoz"
            seeds.append(Seed(f"tests/formats/data/{kind}/{path.name}", name,
                              path.read_bytes()))
    for folder in sorted((DATA / "dbf").glob("*/")):
        report = _report(folder)
        if report is not None:
            seeds.append(Seed(f"tests/formats/data/dbf/{folder.name}", "report.zip", report))
    seeds.append(Seed("tests/formats/data/dbf/report.zip", "report.zip",
                      (DATA / "dbf" / "report.zip").read_bytes()))
    for path in sorted(MALFORMED.glob("*")):
        if path.is_dir():
            report = _report(path)
            if report is not None:
                seeds.append(Seed(f"tests/malformed/files/{path.name}", "report.zip", report))
        elif path.suffix == ".zip" and path.stat().st_size < 100_000:
            seeds.append(Seed(f"tests/malformed/files/{path.name}", path.name,
                              path.read_bytes()))
    for path in sorted((DATA / "supplement").glob("*")):
        seeds.append(Seed(f"tests/formats/data/supplement/{path.name}", path.name,
                          path.read_bytes(), MEMBERS))
    seeds += _member_lists()
    titles = REPO / "docs" / "examples" / "made-up-titles.json"
    seeds.append(Seed("docs/examples/made-up-titles.json", titles.name, titles.read_bytes(),
                      TITLES))
    return seeds


def _member_lists() -> list[Seed]:
    """Member lists in the office's own CSV and JSON (docs/office.md)."""
    csv_text = ("id,name,birth_date,R_rating,R_games,R_peak,R_floor,Q_rating,Q_games\n"
                "30000001,Ana Torres,1990-05-01,1850.5,40,1900,1700,1700,12\n"
                "30000002,Ben Okafor,,1420,9,,,,\n")
    members = {"members": [
        {"id": "30000003", "name": "Cleo Park", "birth_date": "2012-03-04",
         "ratings": {"R": {"rating": 1204.25, "games": 22, "peak": 1250}}},
        {"id": "30000004", "name": "Dev Rao", "fide_rating": 1900,
         "ratings": {"Q": {"rating": 1600, "games": 5}}}]}
    return [Seed("members/csv", "members.csv", csv_text.encode(), MEMBERS),
            Seed("members/json", "members.json", json.dumps(members, indent=1).encode(),
                 MEMBERS)]


#: our writers: (format, file name written); the DBF report is written as a folder and
#: zipped. WinTD's .json would be read as event JSON by its extension: it goes as .ptoz.
WRITTEN = (("json", "event.json"), ("trf", "event.trf"), ("dbf", "report"),
           ("sjson", "event.sjson"), ("wintd", "event.ptoz"), ("csv", "event.csv"),
           ("csvjson", "crosstable.json"), ("pgn", "event.pgn"))


def written_seeds() -> list[Seed]:
    """The sample event and a synthetic one, written by `formats.detect.write_any` in every
    format that can hold them."""
    from uscf_ratings.formats.detect import write_any
    from uscf_ratings.formats.event_json import read_event
    from uscf_ratings.synthetic import events, federation

    sources = [read_event(SAMPLE), *events(federation(40, 37), 1, 37, sizes=(6, 10))]
    seeds = []
    with tempfile.TemporaryDirectory() as tmp:
        for index, event in enumerate(sources):
            for fmt, name in WRITTEN:
                target = Path(tmp) / f"{index}" / name
                target.parent.mkdir(parents=True, exist_ok=True)
                try:
                    written = write_any(event, target, fmt)
                except ValueError:
                    continue  # a format that cannot hold this event
                if fmt == "dbf":
                    data = zipped({p.name.upper(): p.read_bytes() for p in written.paths})
                    seeds.append(Seed(f"written/{index}/{fmt}", "report.zip", data))
                else:
                    seeds.append(Seed(f"written/{index}/{fmt}", name,
                                      written.paths[0].read_bytes()))
    return seeds


def all_seeds() -> list[Seed]:
    return real_seeds() + test_data_seeds() + written_seeds()
