"""Run by the crash and concurrency tests in a child process: rate event files into a
database, printing each event id once it is committed. One transaction each with
Office.rate; with ``--many GAMES`` first, Office.rate_many, committing whole events in
groups of GAMES games."""

from __future__ import annotations

import sys

from uscf_ratings.formats.event_json import read_event
from uscf_ratings.office.office import EventRated, Office


def committed(report: EventRated) -> None:
    print(report.event_id, flush=True)


if __name__ == "__main__":
    office = Office(sys.argv[1])
    if sys.argv[2] == "--many":
        events = (read_event(path) for path in sys.argv[4:])
        office.rate_many(events, presorted=True, commit_every=int(sys.argv[3]),
                         on_event=committed)
    else:
        for path in sys.argv[2:]:
            event = read_event(path)
            office.rate(event)
            print(event.id, flush=True)
