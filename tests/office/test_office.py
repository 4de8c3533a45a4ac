"""The ratings office on SQLite and PostgreSQL: order, re-rates, corrections, operations."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats.member_records import Baseline, MemberRecord
from uscf_ratings.office import queries, schema
from uscf_ratings.office.office import Office, OfficeError

R = System.R


def swiss(event_id: str, day: date, pairs: list[tuple[str, str, str]], number: int = 1,
          ratings: dict[str, float] | None = None) -> Event:
    """An event of one round: each (white id, black id, result for white)."""
    players: dict[str, Player] = {}
    pair_of: dict[str, int] = {}
    for a, b, _ in pairs:
        for ident in (a, b):
            pair_of.setdefault(ident, len(pair_of) + 1)
    cells: dict[str, list[Result]] = {i: [] for i in pair_of}
    other = {"W": "L", "L": "W", "D": "D"}
    for a, b, res in pairs:
        cells[a].append(Result(1, res, pair_of[b]))
        cells[b].append(Result(1, other[res], pair_of[a]))
    for ident, pair in pair_of.items():
        given = (ratings or {}).get(ident)
        players[ident] = Player(pair, ident, name=f"Player {ident}",
                                ratings={R: Rating(given, 30)} if given else {},
                                results=tuple(cells[ident]))
    section = Section(number, day, day, tuple(players.values()), systems=(R,))
    return Event(event_id, day, day, (section,))


def base(office: Office) -> None:
    office.import_members([MemberRecord(i, f"Member {i}", adult=True,
                                        ratings={R: Baseline(1500 + 100 * n, 40)})
                           for n, i in enumerate(["a", "b", "c", "d"])])


def dump(office: Office) -> list[tuple[object, ...]]:
    with office.engine.connect() as c:
        return sorted((r.event_id, r.section, r.member_id, r.system, round(r.post, 9),
                       r.games_after) for r in c.execute(select(schema.ratings)))


def test_rates_with_database_ratings_in_order(office: Office) -> None:
    base(office)
    first = swiss("E1", date(2026, 1, 10), [("a", "b", "W"), ("c", "d", "D")])
    office.rate(first)
    second = swiss("E2", date(2026, 2, 10), [("a", "c", "L")])
    office.rate(second)
    with office.engine.connect() as c:
        a = queries.player(c, "a")
    assert a is not None
    history = a["history"]
    assert [h["event_id"] for h in history] == ["E1", "E2"]
    assert history[0]["pre"] == 1500  # the imported baseline
    assert history[1]["pre"] == history[0]["post"]  # the state after E1
    assert a["ratings"]["R"]["games"] == 42


def test_the_office_rates_like_the_engine(office: Office) -> None:
    """Rating through the office gives the engine's numbers for the same section."""
    base(office)
    event = swiss("E1", date(2026, 1, 10), [("a", "b", "W"), ("c", "d", "D")])
    office.rate(event)
    direct = rate_section(replace(event.sections[0], players=tuple(
        replace(p, ratings={R: Rating(1500 + 100 * "abcd".index(p.id), 40)},
                adult=True) for p in event.sections[0].players)))
    stored = {row[2]: row[4] for row in dump(office)}
    for p in direct.players:
        assert stored[p.id] == round(p.ratings[R].post or 0, 9)


def test_inserting_an_early_event_equals_rating_in_date_order(office_url: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    events = [swiss(f"E{i}", date(2026, 1, 1) + timedelta(days=7 * i),
                    [("a", "b", "WLD"[i % 3]), ("c", "d", "DWL"[i % 3])]) for i in range(5)]
    in_order = Office(f"sqlite:///{tmp_path / 'ordered.db'}")
    in_order.init()
    base(in_order)
    for e in events:
        in_order.rate(e)
    shuffled = Office(office_url)
    shuffled.init()
    base(shuffled)
    for e in (events[3], events[4], events[0], events[2], events[1]):
        shuffled.rate(e)
    assert dump(shuffled) == dump(in_order)


def test_same_event_twice_is_refused_and_correction_rerates(office: Office) -> None:
    base(office)
    e1 = swiss("E1", date(2026, 1, 10), [("a", "b", "W")])
    e2 = swiss("E2", date(2026, 2, 10), [("a", "b", "W")])
    office.rate(e1)
    office.rate(e2)
    with pytest.raises(OfficeError, match="already rated"):
        office.rate(e1)
    office.correct("E1", swiss("E1", date(2026, 1, 10), [("a", "b", "L")]))
    with office.engine.connect() as c:
        b = queries.player(c, "b")
        audit = [r.action for r in c.execute(select(schema.audit.c.action))]
    assert b is not None
    e1_b, e2_b = b["history"]
    assert e1_b["post"] > e1_b["pre"]  # b now won E1
    assert e2_b["pre"] == e1_b["post"]  # and E2 was re-rated from it
    assert audit.count("correct") == 1


def test_withdraw_rerates_what_follows(office: Office) -> None:
    base(office)
    office.rate(swiss("E1", date(2026, 1, 10), [("a", "b", "W")]))
    office.rate(swiss("E2", date(2026, 2, 10), [("a", "b", "W")]))
    office.withdraw("E1")
    with office.engine.connect() as c:
        a = queries.player(c, "a")
    assert a is not None and [h["event_id"] for h in a["history"]] == ["E2"]
    assert a["history"][0]["pre"] == 1500


def test_withdrawals_given_together_rerate_once(office: Office, tmp_path: Path) -> None:
    """Issue 16: events withdrawn together are removed in one transaction and what
    follows the earliest is re-rated once. E1..E4 of one section each, E1 and E3
    withdrawn: once, E2 and E4 are re-rated (2 sections); one at a time it would be
    E2, E3, E4 and then E4 again (4). The result equals never having rated them."""
    base(office)
    events = {f"E{m}": swiss(f"E{m}", date(2026, m, 10),
                             [("a", "b", "W"), ("c", "d", "LDWL"[m - 1])])
              for m in (1, 2, 3, 4)}
    for event in events.values():
        office.rate(event)
    with pytest.raises(OfficeError, match="E9 is not in the database; nothing was withdrawn"):
        office.withdraw("E3", "E9")
    assert office.withdraw("E3", "E1") == 2
    never = Office(f"sqlite:///{tmp_path / 'never.db'}")
    never.init()
    base(never)
    never.rate(events["E2"])
    never.rate(events["E4"])
    assert dump(office) == dump(never)
    with office.engine.connect() as c:
        actions = [r.action for r in c.execute(select(schema.audit.c.action))]
    assert actions.count("withdraw") == 2


def test_merge_two_ids_of_one_person(office: Office) -> None:
    base(office)
    office.rate(swiss("E1", date(2026, 1, 10), [("a", "b", "W")]))
    office.rate(swiss("E2", date(2026, 2, 10), [("x", "c", "W")], ratings={"x": 1400}))
    office.merge("a", "x")
    with office.engine.connect() as c:
        a = queries.player(c, "a")
        x = queries.player(c, "x")  # the merged id resolves to the one kept
    assert a is not None and x is not None and x["id"] == "a"
    assert [h["event_id"] for h in a["history"]] == ["E1", "E2"]
    assert a["history"][1]["pre"] == a["history"][0]["post"]
    assert a["merged_ids"] == ["x"]


def test_floor_set_by_hand_holds(office: Office) -> None:
    base(office)
    office.set_floor("d", R, 1800, date(2026, 1, 1), "prize in an under-1800 section")
    office.rate(swiss("E1", date(2026, 1, 10), [("d", "a", "L")]))
    with office.engine.connect() as c:
        d = queries.player(c, "d")
    assert d is not None and d["history"][0]["post"] == 1800


def test_correct_member_birth_date_changes_initial_rating(office: Office) -> None:
    office.import_members([MemberRecord("k", "Kid"), MemberRecord("a", "A", ratings={
        R: Baseline(1000, 40)})])
    office.rate(swiss("E1", date(2026, 1, 10), [("k", "a", "L")]))
    office.correct_member("k", birth_date=date(2016, 1, 10))
    with office.engine.connect() as c:
        event = queries.event(c, "E1")  # explained on demand, from the corrected member
    assert event is not None
    kid = next(p for p in event["sections"][0]["players"] if p["id"] == "k")
    initial = kid["ratings"]["R"]["initial"]
    assert initial["method"] == "age" and initial["rating"] == pytest.approx(50 * 3653 / 365.25)


def test_rating_list_as_of_a_date(office: Office) -> None:
    base(office)
    office.rate(swiss("E1", date(2026, 1, 10), [("a", "b", "W")]))
    office.rate(swiss("E2", date(2026, 3, 10), [("a", "b", "W")]))
    with office.engine.connect() as c:
        before = {e.id: e.rating for e in queries.rating_list(c, date(2026, 2, 1), R)}
        now = {e.id: e.rating for e in queries.rating_list(c, date(2026, 12, 31), R)}
        first = queries.player(c, "a")
    assert first is not None
    assert before["a"] == first["history"][0]["post"]
    assert now["a"] == first["history"][1]["post"]
    assert before["c"] == 1700  # never played: the imported rating


def test_nothing_is_half_written_when_rating_fails(office: Office) -> None:
    base(office)
    office.rate(swiss("E1", date(2026, 1, 10), [("a", "b", "W")]))
    before = dump(office)
    broken = swiss("E0", date(2025, 12, 1), [("a", "b", "W")])
    players = list(broken.sections[0].players)
    players[1] = replace(players[1], results=(Result(1, "D", 1),))  # not mirrored
    with pytest.raises(ValueError):
        office.rate(replace(broken, sections=(replace(broken.sections[0], players=tuple(players)),)))
    assert dump(office) == before
    with office.engine.connect() as c:
        assert c.execute(select(schema.events.c.id)).scalars().all() == ["E1"]


def test_floor_lowered_by_hand_lets_the_rating_fall(office: Office) -> None:
    """A granted match request lowers a floor by 100 (section 7, rule 4): a 1805 player
    with a peak of 2000 (floor 1800) whose floor is lowered to 1700 may fall below 1800."""
    office.import_members([
        MemberRecord("p", "Peaked", ratings={R: Baseline(1805, 100, peak=2000)}),
        MemberRecord("q", "Strong", ratings={R: Baseline(1900, 100)}),
    ])
    office.rate(swiss("E1", date(2026, 1, 10), [("p", "q", "L")]))
    with office.engine.connect() as c:
        held = queries.player(c, "p")
    assert held is not None and held["history"][0]["post"] == 1800  # the peak floor holds
    office.set_floor("p", R, 1700, date(2026, 1, 1), "match request granted")
    with office.engine.connect() as c:
        lowered = queries.player(c, "p")
    assert lowered is not None
    post = lowered["history"][0]["post"]
    assert 1700 <= post < 1800
