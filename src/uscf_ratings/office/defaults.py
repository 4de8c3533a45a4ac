"""The office's defaults and the values of its options, in a module that imports
nothing, so that the CLI's options can show them without importing the office
(SQLAlchemy, Alembic, Numba): `uscf --help` stays fast."""

from __future__ import annotations

#: `Office.rate_many` commits once the events since its last commit hold this many
#: games. A commit waits for the disk (SQLite syncs the WAL) and writes every page the
#: group changed: the index of results by member takes its inserts at random places, so
#: a group of 5,000 games rewrote most of its pages, and the year's inserts took twice
#: as long as in groups of 50,000 (docs/performance.md). An interruption loses the open
#: group, a second or two of rating.
COMMIT_EVERY = 50_000

#: where a section's pre-event ratings come from (`uscf db rate --pre-ratings`)
PRE_FROM_DATABASE = "database"
PRE_FROM_FILE = "file"
PRE_FROM_FILE_ONLY = "file-without-history"  #: the file's ratings, no history carried
