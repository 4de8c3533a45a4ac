"""The corpus: every input the fuzzer found that broke an invariant, kept in
tests/fuzz/corpus/ and replayed by the tests on every run.

``corpus.toml`` lists one ``[[entry]]`` a file: the door it broke, the name it is read
under (the readers choose by extension), what it broke (``found``), and, for a class of
findings that other work is fixing at its root (tests/fuzz/known.py), ``xfail`` naming
that class (the test expects the failure, not strictly; the line goes once the fix is in).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .engine import Finding

CORPUS = Path(__file__).parent / "corpus"
MANIFEST = CORPUS / "corpus.toml"


@dataclass(frozen=True)
class Entry:
    id: str
    door: str
    file: str  #: under corpus/
    filename: str  #: the name it is read under
    found: str
    signature: str = ""  #: `doors.Verdict.signature`, joined: one entry a signature
    member: str | None = None
    choice: int = 0
    xfail: str | None = None

    @property
    def path(self) -> Path:
        return CORPUS / self.file


def entries() -> list[Entry]:
    if not MANIFEST.is_file():
        return []
    raw = tomllib.loads(MANIFEST.read_text(encoding="utf-8")).get("entry", [])
    return [Entry(**e) for e in raw]


def _toml(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def write_manifest(kept: list[Entry]) -> None:
    """The manifest written again with ``kept`` (to mark, unmark or drop entries)."""
    MANIFEST.write_text("".join(_lines(e) for e in kept), encoding="utf-8")


def _lines(entry: Entry) -> str:
    lines = ["", "[[entry]]", f"id = {_toml(entry.id)}", f"door = {_toml(entry.door)}",
             f"file = {_toml(entry.file)}", f"filename = {_toml(entry.filename)}",
             f"found = {_toml(entry.found)}", f"signature = {_toml(entry.signature)}",
             f"choice = {entry.choice}"]
    if entry.member:
        lines.append(f"member = {_toml(entry.member)}")
    if entry.xfail:
        lines.append(f"xfail = {_toml(entry.xfail)}")
    return "\n".join(lines) + "\n"


def save(finding: Finding, xfail: str | None = None) -> Entry:
    """The finding's input written to the corpus and listed in its manifest; not where
    the corpus holds an input of the same signature already."""
    digest = hashlib.sha256(finding.data).hexdigest()[:10]
    suffix = Path(finding.filename).suffix
    slug = re.sub(r"[^a-z0-9]+", "-", f"{finding.verdict.status} {finding.verdict.door} "
                  f"{finding.verdict.signature[1:2]}".lower()).strip("-")[:50]
    entry = Entry(f"{slug}-{digest}", finding.verdict.door, f"{slug}-{digest}{suffix}",
                  finding.filename, finding.verdict.detail[:300],
                  " / ".join(finding.verdict.signature), finding.member, finding.choice, xfail)
    for kept in entries():
        if kept.id == entry.id or kept.signature == entry.signature:
            return kept  # this input, or another of the same cause, is kept already
    CORPUS.mkdir(exist_ok=True)
    entry.path.write_bytes(finding.data)
    with MANIFEST.open("a", encoding="utf-8") as out:
        out.write(_lines(entry))
    return entry
