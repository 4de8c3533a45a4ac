"""The domain of every field (core/domain.py): the documented bounds, and properties
over values drawn outside and inside each field's domain.

The bounds asserted by hand come from the documents: no rating below the absolute floor
of 100 (2025 text, section 5); floors set by hand at 100-point levels from 100 to 2200
(sections 5 and 7); the rules' coverage from 2013-05-08 (section 8); the database's
32-bit INTEGER (PostgreSQL's ``integer``: at most 2**31 - 1) and its 32- and 64-character
ids (office/schema.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.core import domain
from uscf_ratings.core.constants import Constants
from uscf_ratings.core.domain import FIELDS, OPTIONS, Domain, event_problems
from uscf_ratings.core.model import (
    CfcRating,
    Director,
    Event,
    EventDetails,
    FideRating,
    InitialRating,
    MatchChange,
    Player,
    Rating,
    Result,
    Section,
    System,
)
from uscf_ratings.core.variants import RULE_FIELDS, Variant, VariantError

INT32 = 2**31 - 1
ONE_DAY = timedelta(days=1)


def valid_event() -> Event:
    day = date(2025, 6, 7)
    a = Player(1, "41000001", "Ada Lane", ratings={System.R: Rating(1500.0, 30, day)},
               results=(Result(1, "W", 2),))
    b = Player(2, "41000002", "Bo Reyes", ratings={System.R: Rating(1400.0, 30, day)},
               results=(Result(1, "L", 1),))
    return Event("E1", day, day, (Section(1, day, day, (a, b), "Open", "G/90;d30"),), "Open")


# --- the documented bounds, by hand -----------------------------------------------------

def test_the_bounds_are_the_documents() -> None:
    rating, floor, games = FIELDS["Rating.rating"], FIELDS["Rating.floor"], FIELDS["Rating.games"]
    assert rating.holds(100) and rating.holds(3500) and rating.holds(1834.56)
    assert not rating.holds(99.99) and not rating.holds(3500.01) and not rating.holds(math.nan)
    # 100, 200, ..., 2200: 22 levels
    assert [level for level in range(-1000, 10_000) if floor.holds(level)] == \
        list(range(100, 2201, 100))
    assert not floor.holds(1250) and not floor.holds(99999)
    assert games.holds(0) and not games.holds(-1) and not games.holds(2**63 - 1)
    assert not games.holds(10**30) and not games.holds(True) and not games.holds(2.5)
    # N + m after an event, and every count, fits the database's 32-bit integer
    assert domain.MAX_GAMES + domain.MAX_ROUNDS <= INT32
    for key in ("Section.number", "Player.pair", "Result.round", "Result.opponent"):
        assert FIELDS[key].high <= INT32 and FIELDS[key].low == 1
    day = FIELDS["Section.start_date"]
    assert day.holds(date(2013, 5, 8)) and not day.holds(date(2013, 5, 7))
    # the rules' last change is 2025-01-01 (rules.py); ten years after it, to the year's end
    assert day.holds(date(2035, 12, 31)) and not day.holds(date(2036, 1, 1))
    assert not day.holds(date(9999, 12, 31))
    assert FIELDS["Player.id"].holds("1" * 32) and not FIELDS["Player.id"].holds("1" * 33)
    assert FIELDS["Event.id"].holds("e" * 64) and not FIELDS["Event.id"].holds("e" * 65)
    assert FIELDS["Player.id"].holds("202608010001/1/3")  # --assign-ids gives "/"
    for bad in ("Ana\x00", "Ana\tLee", "Ana\nLee", "\x1b[31m", "\ud800", "a\x85b"):
        assert not FIELDS["Player.name"].holds(bad), repr(bad)
    assert FIELDS["Player.name"].holds("Zoë Ñúñez-O'Brien, Jr.")


def test_the_issues_examples_are_refused_naming_the_place() -> None:
    """Issue 37: a floor of 99999, N of 2**63 - 1 and 10**30, an event dated 9999-12-31,
    two sections of one number."""
    event = valid_event()
    section = event.sections[0]
    a = section.players[0]

    def with_rating(**changes: Any) -> Event:
        player = replace(a, ratings={System.R: replace(a.ratings[System.R], **changes)})
        return replace(event, sections=(replace(section, players=(player, *section.players[1:])),))

    assert [str(p) for p in event_problems(with_rating(floor=99999.0))] == [
        "section 1 (Open), player 1, id 41000001: R floor 99999: expected a 100-point level "
        "from 100 to 2200 (section 5: prize floors up to 2000, earned floors 1200 to 2100 "
        "and the OLM floor 2200; section 7: a lowered floor is 100 below the old one)"]
    for games in (2**63 - 1, 10**30):
        [problem] = event_problems(with_rating(games=games))
        assert problem.place == "section 1 (Open), player 1, id 41000001"
        assert problem.message.startswith(f"R games (N) {games}: expected a whole number "
                                          "from 0 to 1000000")
    late = date(9999, 12, 31)
    problems = [str(p) for p in event_problems(replace(event, start_date=late, end_date=late))]
    assert problems[0].startswith("event 'E1': start date 9999-12-31: expected a date from "
                                  "2013-05-08 to 2035-12-31")
    twice = replace(event, sections=(section, section))
    assert "event 'E1': section number 1 is used by 2 sections: expected each once" in \
        [str(p) for p in event_problems(twice)]


def test_an_event_without_a_section_is_refused_naming_the_event() -> None:
    """Event JSON's schema asks for one section at least (minItems 1), and the office keys
    an event by its sections; the fuzzer found a SwissSys file whose only section was
    deleted read as an event of none, rated to nothing by `uscf rate` and a ValueError
    (min of an empty sequence) in `uscf db rate`."""
    event = valid_event()
    assert event_problems(event) == []
    assert [str(p) for p in event_problems(replace(event, sections=()))] == [
        "event 'E1': no section: expected one at least"]


def test_a_huge_number_is_shown_short() -> None:
    """A 4,301-digit number cannot even be made text by default (Python's limit); its
    message says how long it is."""
    [problem] = event_problems(replace(valid_event(), sections=(
        replace(valid_event().sections[0], number=10**5000),)))
    assert "number of about 5001 digits: expected a whole number from 1 to 99999" in str(problem)


# --- properties: every field, outside and inside ------------------------------------------

def _set_rating(name: str) -> Callable[[Event, Any], Event]:
    def put(event: Event, value: Any) -> Event:
        return _set_player(lambda p: replace(p, ratings={
            System.R: replace(p.ratings[System.R], **{name: value})}))(event, value)
    return put


def _set_player(change: Callable[[Player], Player]) -> Callable[[Event, Any], Event]:
    def put(event: Event, _value: Any) -> Event:
        section = event.sections[0]
        first = change(section.players[0])
        return replace(event, sections=(
            replace(section, players=(first, *section.players[1:])),))
    return put


def _set_section(name: str) -> Callable[[Event, Any], Event]:
    def put(event: Event, value: Any) -> Event:
        return replace(event, sections=(replace(event.sections[0], **{name: value}),))
    return put


def _set(name: str) -> Callable[[Event, Any], Event]:
    return lambda event, value: replace(event, **{name: value})


def _player_field(name: str) -> Callable[[Event, Any], Event]:
    def put(event: Event, value: Any) -> Event:
        return _set_player(lambda p: replace(p, **{name: value}))(event, value)
    return put


def _results(event: Event, count: Any) -> Event:
    return _set_player(lambda p: replace(p, results=tuple(
        Result(i, "U") for i in range(1, count + 1))))(event, count)


def _round(event: Event, value: Any) -> Event:
    return _set_player(lambda p: replace(p, results=(Result(value, "U"),)))(event, value)


def _opponent(event: Event, value: Any) -> Event:
    return _set_player(lambda p: replace(p, results=(Result(1, "F", value),)))(event, value)


PLAYER = "section 1 (Open), player 1"


def _nested(event: Event, value: Any) -> Event:
    raise AssertionError("made in _put")
#: each field of `FIELDS` that an event holds: how to put a value there, the words the
#: message names it by and the start of the place it names
SETTERS: dict[str, tuple[Callable[[Event, Any], Event], str, str]] = {
    "Event.id": (_set("id"), "id", "event"),
    "Event.name": (_set("name"), "name", "event"),
    "Event.start_date": (lambda e, v: replace(e, start_date=v, end_date=v), "start date",
                         "event"),
    "Event.end_date": (lambda e, v: replace(e, start_date=min(v, e.start_date), end_date=v)
                       if isinstance(v, date) else replace(e, end_date=v), "end date", "event"),
    "EventDetails.*": (lambda e, v: replace(e, details=EventDetails(city=v)), "city", "event"),
    "Director.id": (lambda e, v: replace(e, details=EventDetails(
        chief_director=Director(id=v))), "chief director id", "event"),
    "Director.name": (lambda e, v: replace(e, details=EventDetails(
        other_directors=(Director(name=v),))), "director 1 name", "event"),
    "Section.number": (_set_section("number"), "number", "section"),
    "Section.name": (_set_section("name"), "name", "section"),
    "Section.time_control": (_set_section("time_control"), "time control", "section"),
    "Section.start_date": (lambda e, v: _set_section("end_date")(
        _set_section("start_date")(e, v), v), "start date", "section"),
    "Section.end_date": (lambda e, v: _set_section("end_date")(
        _set_section("start_date")(e, min(v, e.start_date)) if isinstance(v, date) else e, v),
        "end date", "section"),
    "Player.pair": (_player_field("pair"), "pair number", "section 1 (Open), player"),
    "Player.id": (_player_field("id"), "id", PLAYER),
    "Player.name": (_player_field("name"), "name", PLAYER),
    "Player.birth_date": (_player_field("birth_date"), "birth date", PLAYER),
    "Player.results": (_results, "number of results", PLAYER),
    # made in `_put`: the record that holds them is made with the value
    "MatchChange.date": (_nested, "R match change 1 date", PLAYER),
    "MatchChange.change": (_nested, "R match change 1", PLAYER),
    "InitialRating.rating": (_nested, "R initial rating", PLAYER),
    "InitialRating.games": (_nested, "R initial games", PLAYER),
    "FideRating.rating": (_nested, "FIDE rating", PLAYER),
    "FideRating.date": (_nested, "FIDE rating's date", PLAYER),
    "CfcRating.rating": (_nested, "CFC rating", PLAYER),
    "CfcRating.date": (_nested, "CFC rating's date", PLAYER),
    "Result.round": (_round, "round", PLAYER),
    "Result.opponent": (_opponent, "round 1 opponent", PLAYER),
}
SETTERS.update({f"Rating.{name}": (_set_rating(name), f"R {'games (N)' if name == 'games' else name}",
                                   PLAYER)
                for name in ("rating", "games", "date", "wins", "draws", "losses", "events3",
                             "games_above_2200", "peak", "floor", "floor_lowered_from",
                             "floor_lowered_to")})


def _put(key: str, event: Event, value: Any) -> Event:
    """``value`` in the field ``key`` of ``event`` (the nested records made as needed)."""
    section = event.sections[0]
    player = section.players[0]
    nested = {
        "MatchChange.date": lambda: replace(player, ratings={System.R: replace(
            player.ratings[System.R], match_changes=(MatchChange(value, 10.0),))}),
        "MatchChange.change": lambda: replace(player, ratings={System.R: replace(
            player.ratings[System.R], match_changes=(MatchChange(date(2025, 1, 1), value),))}),
        "InitialRating.rating": lambda: replace(player, initial={System.R: InitialRating(value)}),
        "InitialRating.games": lambda: replace(player, initial={
            System.R: InitialRating(1500.0, value)}),
        "FideRating.rating": lambda: replace(player, fide=FideRating(value)),
        "FideRating.date": lambda: replace(player, fide=FideRating(1800.0, value)),
        "CfcRating.rating": lambda: replace(player, cfc=CfcRating(value)),
        "CfcRating.date": lambda: replace(player, cfc=CfcRating(1800.0, value)),
    }
    if key in nested:
        return replace(event, sections=(replace(section, players=(
            nested[key](), *section.players[1:])),))
    return SETTERS[key][0](event, value)


def outside(d: Domain) -> st.SearchStrategy[Any]:
    """Values outside ``d``: beyond its bounds, of another kind, not finite (None is "not
    given" where a field may be left out)."""
    wrong_kind = st.sampled_from([True, "1500", b"x", [1], math.nan])
    if d.kind in ("text", "id"):
        control = st.sampled_from(["\x00", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\ud800"])
        return st.one_of(
            wrong_kind.filter(lambda v: not isinstance(v, str)),
            st.tuples(st.text(max_size=10), control, st.text(max_size=10)).map("".join),
            st.text(alphabet="abc ", min_size=d.high + 1, max_size=d.high + 50))
    if d.kind == "date":
        return st.one_of(st.dates(max_value=d.low - ONE_DAY),
                         st.dates(min_value=d.high + ONE_DAY), wrong_kind)
    if d.kind == "level":
        return st.one_of(st.floats(allow_nan=True).filter(lambda v: v not in d.levels),
                         st.integers(-10**40, 10**40).filter(lambda v: v not in d.levels),
                         wrong_kind)
    below = (st.floats(max_value=d.low) if d.low_open
             else st.floats(max_value=d.low, exclude_max=True))
    above = st.floats(min_value=d.high, exclude_min=True)
    ints = st.one_of(st.integers(max_value=math.ceil(d.low) - (0 if d.low_open else 1)),
                     st.integers(min_value=math.floor(d.high) + 1))
    choices = [below, above, ints, wrong_kind, st.sampled_from([math.inf, -math.inf])]
    if d.kind == "whole number":
        choices.append(st.floats(d.low, d.high).filter(lambda v: not v.is_integer()))
    return st.one_of(*choices)


def inside(key: str, d: Domain) -> st.SearchStrategy[Any]:
    if d.kind in ("text", "id"):
        return st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=d.high)
    if d.kind == "date":
        high = date(2025, 6, 7) if key == "Player.birth_date" else d.high
        return st.dates(min_value=d.low, max_value=high)
    if d.kind == "level":
        return st.sampled_from(d.levels)
    if d.kind == "whole number":
        return st.integers(d.low, min(d.high, 1200) if key == "Player.results" else d.high)
    return st.floats(d.low, d.high, exclude_min=d.low_open)


def test_every_field_of_the_table_is_exercised() -> None:
    # member lists' own fields: tests/office (test_imported_titles.py for the titles')
    assert set(FIELDS) - set(SETTERS) == {"Member.state", "Title.date", "Title.norms"}


@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_a_value_outside_its_domain_is_refused_naming_the_place_and_field(
        data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(SETTERS)))
    d = FIELDS[key]
    value = data.draw(outside(d))
    if key == "Player.results":
        value = data.draw(st.integers(d.high + 1, d.high + 50))  # a count of results
    _, label, place = SETTERS[key]
    problems = event_problems(_put(key, valid_event(), value))
    ours = [p for p in problems if p.message.startswith(f"{label} ")
            and f"expected {d.expected()}" in p.message]
    assert ours, (key, value, [str(p) for p in problems])
    assert all(p.place.startswith(place) for p in ours), [str(p) for p in ours]


@settings(max_examples=600, deadline=None)
@given(data=st.data())
def test_a_value_inside_its_domain_is_accepted(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(SETTERS)))
    value = data.draw(inside(key, FIELDS[key]))
    problems = event_problems(_put(key, valid_event(), value))
    assert problems == [], (key, value, [str(p) for p in problems])


# --- the options of a variant -------------------------------------------------------------

def test_every_number_a_variant_changes_has_a_domain() -> None:
    numbers = set(Constants._fields) | {k for k, kind in RULE_FIELDS.items() if kind is float}
    assert set(OPTIONS) == numbers


@pytest.mark.parametrize("key, value", [
    ("bonus_threshold", -1.0),  # a bonus for a score below expectation
    ("k_numerator", -800.0),  # K negative: a win lowers the rating
    ("k_numerator", 0.0),
    ("n_star_games", 0.0),  # N* = 0: N' = min(N, N*) = 0, K = 800/m for everyone
    ("we_scale", 0.0),  # We divides by it
    ("init_z_scale", 0.0),
    ("peak_floor_step", 0.0),
    ("step_floor", -100.0),
])
def test_a_meaningless_option_is_refused_naming_it(key: str, value: float) -> None:
    with pytest.raises(VariantError, match=rf"variant 'v': {key} -?\d+: expected a number"):
        Variant("v", {key: value})


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_options_outside_and_inside_their_domain(data: st.DataObject) -> None:
    key = data.draw(st.sampled_from(sorted(OPTIONS)))
    d = OPTIONS[key]
    bad = data.draw(st.one_of(
        st.floats(max_value=d.low) if d.low_open else st.floats(max_value=d.low,
                                                                exclude_max=True),
        st.floats(min_value=d.high, exclude_min=True), st.just(math.nan)))
    with pytest.raises(VariantError, match=f"{key} "):
        Variant("v", {key: bad})
    good = data.draw(st.floats(d.low, d.high, exclude_min=d.low_open))
    assert dict(Variant("v", {key: good}).changes) == {key: good}


def test_the_documented_values_are_inside_their_domains() -> None:
    from uscf_ratings.core.rules import RULE_SETS

    for rules in RULE_SETS:
        for key, d in OPTIONS.items():
            value = getattr(rules.constants, key, None)
            value = getattr(rules, key) if value is None else value
            assert d.holds(value), (rules.name, key, value)


def test_the_forbidden_characters_are_unicodes_control_and_surrogate_categories() -> None:
    """The text check searches for fixed ranges; Unicode's own categories (Cc, Cs) are
    what the domain says it refuses."""
    import unicodedata

    text = FIELDS["Player.name"]
    wrong = [c for c in map(chr, range(0x110000))
             if text.holds(f"a{c}b") == (unicodedata.category(c) in ("Cc", "Cs"))]
    assert wrong == []


def test_rating_a_section_past_the_rules_reach_is_refused_not_divided_by_zero() -> None:
    """Issue 37: a section dated 9999-12-31 ended in a ZeroDivisionError in blending when
    rated through the library (core.pipeline.rate_section); the section's own domain is
    checked with its consistency (core.validate.check_section)."""
    from uscf_ratings.core.pipeline import rate_section
    from uscf_ratings.core.validate import SectionError

    late = date(9999, 12, 31)
    section = replace(valid_event().sections[0], start_date=late, end_date=late)
    with pytest.raises(SectionError) as refused:
        rate_section(section)
    assert str(refused.value).startswith("section 1 (Open): start date 9999-12-31: expected "
                                         "a date from 2013-05-08 to 2035-12-31")
