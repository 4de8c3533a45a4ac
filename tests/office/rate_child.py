"""Run by the crash and concurrency tests in a child process: rate event files into a
database, one transaction each, printing each event id once it is committed."""

from __future__ import annotations

import sys

from uscf_ratings.formats.event_json import read_event
from uscf_ratings.office.office import Office

if __name__ == "__main__":
    office = Office(sys.argv[1])
    for path in sys.argv[2:]:
        event = read_event(path)
        office.rate(event)
        print(event.id, flush=True)
