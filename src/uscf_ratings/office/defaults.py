"""The office's defaults and the values of its options, in a module that imports
nothing, so that the CLI's options can show them without importing the office
(SQLAlchemy, Alembic, Numba): `uscf --help` stays fast."""

from __future__ import annotations

from enum import StrEnum

#: A bulk run of the office (`Office.rate_many`, `office.ingest.ingest`) commits once the
#: events since its last commit hold this many games. A commit waits for the disk
#: (SQLite syncs the WAL) and writes every page the group changed: the index of results
#: by member takes its inserts at random places, so a group of 5,000 games rewrote most
#: of its pages, and the year's inserts took twice as long as in groups of 50,000
#: (docs/performance.md). An interruption loses the open group, a second or two of
#: rating.
COMMIT_EVERY = 50_000


class PreRatings(StrEnum):
    """Where a section's pre-event ratings come from (`uscf db rate --pre-ratings`). The
    value is stored with each event, which is re-rated the same way."""

    #: the database's: a member's state after the last section rated, or the member list;
    #: the file's rating only for a member the database has not rated in that system
    DATABASE = "database"
    #: the file's ratings as given, with the history the database carries (re-running a
    #: published history)
    FILE = "file"
    #: the file's ratings as given, with no history carried (the fidelity chain)
    FILE_ONLY = "file-without-history"
