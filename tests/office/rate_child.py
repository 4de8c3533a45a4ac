"""Run by the crash and concurrency tests in a child process: rate event files into a
database, printing each event id once it is committed. One transaction each with
Office.rate; with ``--many GAMES`` first, Office.rate_each, committing whole events in
groups of GAMES games.

With ``--hold-last`` before the rest, the child waits on its standard input before it
reads the last file, so that a test killing it can never find it finished: however
fast the office is, and however slowly the test is scheduled, the kill comes mid-run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from uscf_ratings.core.model import Event
from uscf_ratings.formats.event_json import read_event
from uscf_ratings.office.office import Office
from uscf_ratings.office.options import RateOptions


def read_events(paths: list[str], hold_last: bool) -> Iterator[Event]:
    for number, path in enumerate(paths):
        if hold_last and number == len(paths) - 1:
            sys.stdin.read()  # returns only when the test closes our stdin
        yield read_event(path)


if __name__ == "__main__":
    args = sys.argv[1:]
    url = args.pop(0)
    hold_last = args[0] == "--hold-last"
    if hold_last:
        args.pop(0)
    office = Office(url)
    if args[0] == "--many":
        for report in office.rate_each(read_events(args[2:], hold_last),
                                       RateOptions(commit_every=int(args[1]))):
            print(report.event_id, flush=True)  # committed
    else:
        for event in read_events(args, hold_last):
            office.rate(event)
            print(event.id, flush=True)
