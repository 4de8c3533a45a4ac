"""The office's defaults and the values of its options, in a module that imports
only the core, so that the CLI's options can show them without importing the office
(SQLAlchemy, Alembic, Numba). `PreRatings`, where the pre-event ratings come from, is
the core's (core/pre_event.py), which chooses them."""

from __future__ import annotations

from ..core.pre_event import PreRatings

#: A bulk run of the office (`Office.rate_many`, `office.ingest.ingest`) commits once the
#: events since its last commit hold this many games. A commit waits for the disk
#: (SQLite syncs the WAL) and writes every page the group changed: the index of results
#: by member takes its inserts at random places, so a group of 5,000 games rewrote most
#: of its pages, and the year's inserts took twice as long as in groups of 50,000
#: (docs/performance.md). An interruption loses the open group, a second or two of
#: rating.
COMMIT_EVERY = 50_000

__all__ = ["COMMIT_EVERY", "PreRatings"]
