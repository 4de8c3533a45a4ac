"""A section's stored lineup (office/stored_lineup.py) reads back as the lineup the office
makes from the section's model: for every real section, and for synthetic events with
what the files can give a player (baselines in the file, FIDE and CFC ratings, birth
dates, an initial rating set by hand, match changes, an N not known)."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest

from uscf_ratings.core.layout import FileRatings, holds_rating, rated_file_row
from uscf_ratings.core.model import (
    CfcRating,
    Event,
    FideRating,
    InitialRating,
    MatchChange,
    Rating,
    System,
)
from uscf_ratings.core.pre_event import PreRatings
from uscf_ratings.core.rules import RULE_SETS
from uscf_ratings.fidelity.sources import load_all
from uscf_ratings.office.stored_lineup import LINEUP_FORMAT, lineup_text, read_lineup
from uscf_ratings.office.submission import submission
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation


def read_back(event: Event, mode: PreRatings = PreRatings.DATABASE) -> int:
    """Each section's lineup written and read back equals the one made from the model,
    whether its file ratings travelled between processes (pickled) or not; how many."""
    taken = submission(event)
    travelled = pickle.loads(pickle.dumps(taken.without_model()))
    for entry, moved in zip(taken.sections, travelled.sections, strict=True):
        text = lineup_text(entry.lineup, entry.norm_reason, mode)
        assert lineup_text(moved.lineup, moved.norm_reason, mode) == text
        kept = read_lineup(text, entry.systems, entry.start_date)
        assert kept is not None
        assert kept.lineup == entry.lineup
        assert (kept.norm_reason, kept.mode) == (entry.norm_reason, mode)
        if kept.lineup is not None:  # the file's ratings, field by field
            assert [None if r is None else vars(r) for r in kept.lineup.ratings] == [
                None if r is None else vars(r) for r in entry.lineup.ratings]  # type: ignore[union-attr]
            assert {e: vars(p) for e, p in kept.lineup.unrated.items()} == {
                e: vars(p) for e, p in entry.lineup.unrated.items()}  # type: ignore[union-attr]
            made = entry.lineup.ratings  # type: ignore[union-attr]
            for row in range(len(made)):  # as the rating loop reads them, without making them
                assert holds_rating(kept.lineup.ratings, row) == holds_rating(made, row)
                if holds_rating(made, row):
                    assert rated_file_row(kept.lineup.ratings, row) == rated_file_row(made, row)
            sent = pickle.loads(pickle.dumps(kept.lineup.ratings))  # to another process
            assert type(sent) is FileRatings and sent == made
    return len(taken.sections)


def test_every_real_section_reads_back_as_made(shared: Path) -> None:
    """Those the office can rate: from the first rule set the documents cover (2013)."""
    first = RULE_SETS[0].effective
    sections = [real.section for real in load_all(shared) if real.section.start_date >= first]
    count = sum(read_back(Event(f"E{i}", s.start_date, s.end_date, (s,)))
                for i, s in enumerate(sections))
    assert count == len(sections) >= 400


@pytest.mark.parametrize("mode", list(PreRatings))
def test_synthetic_events_with_all_a_file_gives_read_back_as_made(mode: PreRatings) -> None:
    events = synthetic_events(federation(150, 3), 12, 3, sizes=(4, 30))
    given = [with_everything(e, i) for i, e in enumerate(events)]
    assert sum(read_back(e, mode) for e in given) >= 12


def with_everything(event: Event, seed: int) -> Event:
    """The event with its players given, in turn, a rating of the file with every field
    (match changes, an N not known, a floor lowered), a FIDE and a CFC rating, a birth
    date, an initial rating set by hand, or nothing."""
    def player(p, i):  # type: ignore[no-untyped-def]
        kind = (i + seed) % 5
        if kind == 0:
            return replace(p, ratings={System.R: Rating(
                1712.25, 31, date(2025, 3, 1), 10, 2, 19, 4, 1800.0, 1700, 1600.0, 1500.0,
                True, 3, (MatchChange(date(2024, 5, 1), -12.5),), False)})
        if kind == 1:
            return replace(p, ratings={}, fide=FideRating(1833, date(2025, 1, 1)),
                           cfc=CfcRating(1701.5, None, False), birth_date=date(2010, 2, 28),
                           adult=False)
        if kind == 2:
            return replace(p, ratings={}, initial={System.R: InitialRating(1450.5, 4)})
        if kind == 3:
            return replace(p, ratings={System.Q: Rating(1500.0, 12)}, adult=True)
        return p
    return replace(event, sections=tuple(
        replace(s, players=tuple(player(p, i) for i, p in enumerate(s.players)))
        for s in event.sections))


def test_a_text_of_another_format_none_or_unreadable_is_not_read() -> None:
    """The section is then read from its event JSON (office/run.py)."""
    event = synthetic_events(federation(40, 1), 1, 1, sizes=(6, 8))[0]
    entry = submission(event).sections[0]
    data = json.loads(lineup_text(entry.lineup, entry.norm_reason, PreRatings.DATABASE))
    data["format"] = LINEUP_FORMAT + 1
    assert read_lineup(json.dumps(data), entry.systems, entry.start_date) is None
    assert read_lineup(None, entry.systems, entry.start_date) is None
    text = lineup_text(entry.lineup, entry.norm_reason, PreRatings.DATABASE)
    for broken in (text[:len(text) // 2], "[]", "null", text.replace('"counts"', '"c"'),
                   text.replace('"score":"', '"score":"9'), text.replace('"ids":[', '"ids":[1,'),
                   text.replace('"ratings":[', '"ratings":[null,')):
        assert read_lineup(broken, entry.systems, entry.start_date) is None, broken
    model = read_lineup(lineup_text(None, None, PreRatings.FILE), entry.systems,
                        entry.start_date)
    assert model is not None and model.lineup is None and model.mode is PreRatings.FILE
