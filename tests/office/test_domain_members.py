"""Member records have the event model's domain (core/domain.py): the same field gets the
same words whether it comes in an event file, a member list (`import-members`) or a floor
set by hand (`set-floor`), and a refusal leaves the office's database as it was, on
every database the office tests run on."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from uscf_ratings.core.domain import event_problems
from uscf_ratings.core.model import Event, Player, Rating, Result, Section, System
from uscf_ratings.formats.member_records import Baseline, MemberRecord
from uscf_ratings.office import schema
from uscf_ratings.office.errors import AdmissionError
from uscf_ratings.office.office import Office

DAY = date(2025, 6, 7)


def every_row(office: Office) -> list[tuple[object, ...]]:
    with office.engine.connect() as c:
        return sorted(tuple(map(repr, row)) for table in (schema.members, schema.baselines,
                                                         schema.floors, schema.events,
                                                         schema.ratings, schema.audit,
                                                         schema.published_history)
                      for row in c.execute(select(table)))


def in_an_event(rating: Rating, **player: Any) -> Event:
    a = Player(1, "41000001", "Ada Lane", ratings={System.R: rating},
               results=(Result(1, "W", 2),), **player)
    b = Player(2, "41000002", "Bo Reyes", ratings={System.R: Rating(1400.0, 30, DAY)},
               results=(Result(1, "L", 1),))
    return Event("E1", DAY, DAY, (Section(1, DAY, DAY, (a, b)),))


#: a rating's field, values outside its documented domain (section 5 of the 2025 text:
#: ratings and peaks from 100 to 3500, floors at 100-point levels to 2200; counts that fit
#: the database's integers)
OUTSIDE = st.one_of(
    st.tuples(st.just("rating"), st.floats(3500.01, 1e12) | st.floats(-1e6, 99.9)),
    st.tuples(st.just("games"), st.integers(1_000_001, 10**30) | st.integers(-10**6, -1)),
    st.tuples(st.just("wins"), st.integers(-10**9, -1) | st.integers(1_000_001, 2**63 - 1)),
    st.tuples(st.just("peak"), st.floats(3500.01, 1e9)),
    st.tuples(st.just("floor"), st.floats(-1e6, 1e6).filter(
        lambda f: f not in [float(x) for x in range(100, 2201, 100)])),
)


@settings(max_examples=150, deadline=None)
@given(field_value=OUTSIDE)
def test_a_rating_in_a_member_list_and_in_an_event_is_refused_in_the_same_words(
        field_value: tuple[str, Any]) -> None:
    from uscf_ratings.office.admission import check_members

    name, value = field_value
    as_event = [p.message for p in event_problems(
        in_an_event(replace(Rating(1500.0, 30, DAY), **{name: value})))]
    baseline = replace(Baseline(1500.0, 30, DAY), **{name: value})
    as_member = check_members([MemberRecord("41000001", "Ada Lane",
                                            ratings={System.R: baseline})], "list.csv")
    assert as_event and [f"member 41000001: {m}" for m in as_event] == as_member


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field_value=OUTSIDE)
def test_a_member_list_out_of_its_domain_changes_nothing(
        office: Office, field_value: tuple[str, Any]) -> None:
    office.import_members([MemberRecord("41000009", "Cy Moss",
                                        ratings={System.R: Baseline(1500.0, 30, DAY)})])
    before = every_row(office)
    name, value = field_value
    bad = replace(Baseline(1500.0, 30, DAY), **{name: value})
    with pytest.raises(AdmissionError) as refused:
        office.import_members([MemberRecord("41000009", "Cy Moss",
                                            ratings={System.R: Baseline(1600.0, 31, DAY)}),
                               MemberRecord("41000010", "Di Park", ratings={System.R: bad})])
    label = "games (N)" if name == "games" else name
    assert f"members: member 41000010: R {label} " in str(refused.value)
    assert every_row(office) == before


def test_set_floor_event_file_and_member_list_say_one_thing(office: Office) -> None:
    """Issue 37: a floor of 99999 was stored from an event file and refused by a member
    list; now the three doors refuse it in the same words."""
    from uscf_ratings.office.admission import check_members

    office.import_members([MemberRecord("41000001", "Ada Lane")])
    before = every_row(office)
    with pytest.raises(AdmissionError) as by_hand:
        office.set_floor("41000001", System.R, 99999.0, DAY, "prize")
    [from_event] = event_problems(in_an_event(Rating(1500.0, 30, DAY, floor=99999.0)))
    [from_list] = check_members([MemberRecord("41000001", "Ada Lane", ratings={
        System.R: Baseline(1500.0, 30, DAY, floor=99999.0)})], "list.csv")
    words = ("R floor 99999: expected a 100-point level from 100 to 2200 (section 5: prize "
             "floors up to 2000, earned floors 1200 to 2100 and the OLM floor 2200; section "
             "7: a lowered floor is 100 below the old one)")
    assert str(by_hand.value) == f"member 41000001: {words}"
    assert from_event.message == words and from_list == f"member 41000001: {words}"
    with pytest.raises(AdmissionError):
        office.rate(in_an_event(Rating(1500.0, 30, DAY, floor=99999.0)))
    assert every_row(office) == before


def test_two_sections_of_one_number_are_refused_before_the_database(office: Office) -> None:
    """Issue 37: they ended in an IntegrityError (the office's key is the event id and the
    section number)."""
    event = in_an_event(Rating(1500.0, 30, DAY))
    twice = replace(event, sections=(event.sections[0], event.sections[0]))
    before = every_row(office)
    with pytest.raises(AdmissionError, match="section number 1 is used by 2 sections"):
        office.rate(twice)
    assert every_row(office) == before


def test_a_published_history_out_of_its_domain_changes_nothing(office: Office) -> None:
    """`import-history`: an entry's ratings, N and section number have the event's domain;
    its dates may go back before the rules' coverage (a history is not rated again)."""
    from uscf_ratings.formats.member_history import HistoryEntry, MemberHistory

    def entry(post: float, games: int | None, section: int = 1) -> HistoryEntry:
        return HistoryEntry("200901010001", "Old Open", section, "Open", date(2009, 1, 1),
                            date(2009, 1, 1), System.R, None, post, games)

    good = MemberHistory("41000001", (entry(1500.0, 10),))
    office.import_history([good])  # 2009, before the rules' coverage: a history may be
    before = every_row(office)
    bad = MemberHistory("41000001", (entry(99999.0, 2**63 - 1, section=0),))
    with pytest.raises(AdmissionError) as refused:
        office.import_history([bad])
    assert str(refused.value).splitlines() == [
        "history: member 41000001: entry 1 section 0: expected a whole number from 1 to "
        "99999 (far more than any event has)",
        "history: member 41000001: entry 1 R rating after 99999: expected a number from 100 "
        "to 3500 (section 5: no rating is below the absolute floor of 100)",
        "history: member 41000001: entry 1 R games after 9223372036854775807: expected a "
        "whole number from 0 to 1000000 (a thousand times the most games anyone has played; "
        "the database stores N + m in a 32-bit integer)"]
    assert every_row(office) == before
