"""Where checked events wait to be rated: a temporary folder, removed at the end.

The checks of `office.ingest` (office/checked_file.py) write each event, laid out as
columns and with the text that was checked, to a file of this folder: one file for each
task of the checks (`file_checks.CHUNK` files), since creating a file costs more than
writing one, and much more while the office writes its database (0.1 to 0.7 ms a file,
docs/performance.md). Only what the rating order and the warnings need is kept in
memory: a year of laid-out events would take hundreds of megabytes. The rating loop
loads each event just before it rates it, with the text that was checked (a file changed
since does not change what is stored).

A run killed with SIGKILL (or a machine that stopped) cannot remove its folder; the
folder's name holds the run's process id, and the next run removes the folders of runs
whose process no longer runs, so that nothing of a killed run outlives the next.
"""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, Self

if TYPE_CHECKING:
    from .submission import Submission


@dataclass(frozen=True)
class SpoolEntry:
    """Where a checked event waits: ``size`` bytes from ``start`` in the file ``path``."""

    path: Path
    start: int
    size: int


def write_event(out: BinaryIO, path: Path, event: Submission) -> SpoolEntry:
    """Write ``event`` (without its model) at the end of ``out``, the file ``path``."""
    data = pickle.dumps(event.without_model(), pickle.HIGHEST_PROTOCOL)
    entry = SpoolEntry(path, out.tell(), len(data))
    out.write(data)
    return entry


def read_event(entry: SpoolEntry) -> Submission:
    """The event ``entry`` says where to find, as it was written."""
    with entry.path.open("rb") as file:
        file.seek(entry.start)
        event: Submission = pickle.loads(file.read(entry.size))
    return event


#: the start of a spool folder's name, followed by its run's process id
PREFIX = "uscf-rate-"


class Spool:
    """The temporary folder of one run, removed when the run ends."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
        remove_left_over(self.folder.parent)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def file(self, task: int) -> Path:
        """The file of the events of the checks' task number ``task``."""
        return self.folder / f"{task}.pickle"

    @staticmethod
    def drain(entries: Sequence[SpoolEntry]) -> Iterator[Submission]:
        """Each event of ``entries``, in that order; each file is removed once every
        event in it has been read, so that the disk a run takes is freed as it goes."""
        unread = Counter(entry.path for entry in entries)
        for entry in entries:
            yield read_event(entry)
            unread[entry.path] -= 1
            if not unread[entry.path]:
                entry.path.unlink()


def remove_left_over(parent: Path) -> None:
    """Remove the spool folders in ``parent`` of runs that no longer run. Only where a
    process can be asked whether it runs without being touched (POSIX: signal 0; on
    Windows `os.kill` would end it)."""
    if os.name != "posix":
        return
    for folder in parent.glob(f"{PREFIX}*"):
        pid = folder.name[len(PREFIX):].split("-")[0]
        if pid.isdigit() and not _runs(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: it runs
        return True
    return True
