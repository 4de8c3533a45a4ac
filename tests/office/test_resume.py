"""A run given again goes on where it stopped: events stored already as given are left as
they are and said to be; another file of a stored event is refused unless replaced."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select
from tests.conftest import another_file_of, write_events
from tests.office.conftest import dump, in_date_order, year

from uscf_ratings.formats.event_json import read_event
from uscf_ratings.office import schema
from uscf_ratings.office.defaults import PreRatings
from uscf_ratings.office.ingest import Committed, EventFailed, Ingested, ingest
from uscf_ratings.office.office import Office, OfficeError
from uscf_ratings.office.options import IngestOptions, RateOptions


def events_table(office: Office) -> list[tuple[object, ...]]:
    """What the events table says of each event, but when it was submitted."""
    with office.engine.connect() as c:
        return sorted((r.id, r.name, r.corrections, r.source)
                      for r in c.execute(select(schema.events)))


def audit_count(office: Office) -> int:
    with office.engine.connect() as c:
        return len(c.execute(select(schema.audit.c.id)).all())


def test_a_run_given_again_leaves_every_event_as_it_is(office: Office) -> None:
    events = year(8)
    office.rate_many(events)
    ratings, stored, audited = dump(office), events_table(office), audit_count(office)
    again = office.rate_many(events)
    assert [r.verb for r in again] == ["unchanged"] * len(events)
    assert all(r.sections == r.rerated == r.ratings == r.games == 0 for r in again)
    assert (dump(office), events_table(office), audit_count(office)) == \
        (ratings, stored, audited)  # nothing written, not even an audit record


def test_a_run_stopped_part_way_is_finished_by_the_same_run(office: Office,
                                                           tmp_path: Path) -> None:
    """The first five events were committed before the run stopped: given all again,
    those five are left as they are and the rest are rated, as one run would have."""
    events = year(12)
    office.rate_many(events[:5])
    reports = office.rate_many(events)
    assert [r.verb for r in reports] == ["unchanged"] * 5 + ["rated"] * 7
    assert sum(r.rerated for r in reports) == 0  # the rest come after: nothing rated twice
    assert dump(office) == in_date_order(tmp_path, events)


def test_replace_leaves_an_unchanged_event_as_it_is(office: Office) -> None:
    """--replace given again with the same files does not count a correction, nor rate
    the rest of the year again for each event."""
    events = year(6)
    office.rate_many(events)
    before = events_table(office)
    [report] = office.rate_many(events[2:3], RateOptions(replace_rated=True))
    assert report.verb == "unchanged" and report.rerated == 0
    assert events_table(office) == before


def test_another_file_or_another_pre_ratings_mode_is_refused(office: Office) -> None:
    events = year(4)
    office.rate_many(events)
    before = dump(office)
    with pytest.raises(OfficeError, match=f"event {events[1].id} is already rated from "
                                          "another file"):
        office.rate_many([replace(events[1], name="Renamed")])
    with pytest.raises(OfficeError, match="or with other --pre-ratings"):
        office.rate_many(events[1:2], RateOptions(PreRatings.FILE))
    assert dump(office) == before


def test_the_same_event_written_otherwise_is_unchanged(office: Office, tmp_path: Path
                                                      ) -> None:
    """A file is compared as the event it reads as: the office's own writing of the
    event (`Office.rate`) and the file it came from differ as text, not as events."""
    [path] = write_events(tmp_path, 1, seed=8)
    office.rate(read_event(path))
    reports = [r for r in ingest(office, [path]) if isinstance(r, Committed)]
    assert [e.verb for r in reports for e in r.events] == ["unchanged"]
    with pytest.raises(EventFailed, match="already rated from another file"):
        list(ingest(office, [another_file_of(path, tmp_path)]))


def test_ingest_counts_the_events_left_as_they_are(office: Office, tmp_path: Path) -> None:
    paths = write_events(tmp_path, 6, seed=9)
    list(ingest(office, paths[:2]))
    reports = list(ingest(office, paths, IngestOptions(rating=RateOptions(commit_every=0))))
    end = reports[-1]
    assert isinstance(end, Ingested)
    assert (end.events, end.unchanged) == (4, 2)
    rated = [e for r in reports if isinstance(r, Committed) for e in r.events
             if not e.unchanged]
    assert end.games == sum(e.games for e in rated) > 0
