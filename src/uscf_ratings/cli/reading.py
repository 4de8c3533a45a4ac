"""Reading many event files at once, in parallel, each fully checked.

``uscf db rate`` checks every file before it stores anything: the format, the schema, the
systems it is rated in and the consistency of its sections. That is most of the work of
rating a file, and it does not depend on the database, so it runs in a pool of processes
(one per core) while the results come back in the order of the files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ..core.model import Event
from ..core.pipeline import section_systems
from ..core.rules import NoRuleSet, rules_for
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError, check_section
from ..formats.errors import ParseError

#: below this many files the processes cost more to start than they save
POOL_FROM = 16

Checked = tuple[Event | None, str | None]  #: the event, or the error message naming the file


def read_checked(path: Path) -> Checked:
    """One file read and checked as the office will rate it; errors become their message
    (exceptions with their own constructors do not always cross processes)."""
    from ..formats.detect import read_any

    try:
        event = read_any(path)
        for section in event.sections:
            section_systems(section, rules_for(section.start_date))
            check_section(section)
    except (ParseError, SectionError, NoRuleSet, TimeControlError) as error:
        return None, str(error)
    return event, None


def read_all(paths: Sequence[Path], workers: int | None = None,
             on_file: Callable[[], None] | None = None) -> Iterator[tuple[Path, Checked]]:
    """Each path with its checked event or error, in the order given."""
    workers = workers or os.cpu_count() or 1
    if len(paths) < POOL_FROM or workers == 1:
        for path in paths:
            yield path, read_checked(path)
            if on_file:
                on_file()
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for path, checked in zip(paths, pool.map(read_checked, paths, chunksize=8)):
            yield path, checked
            if on_file:
                on_file()
