"""Round trips through the US Chess report (DBF) and TRF: every rated result survives, and
the converted files rate to the same numbers as the original.

Both formats carry less than the model: one rating per player (the section's main system:
Regular in R and dual sections, else the one system), as an integer, without N; the DBF
also drops FIDE ratings, birth dates, K and the online flag. A rating read without N gets
N = 26 (the smallest established N). So there are two kinds of comparison:

* against :func:`as_carried`, the original cut down to what the format carries, with the
  same N = 26 assumption: every section, any players;
* against the original itself, for events built so that nothing is lost: one system,
  integer ratings, established players (N >= 26) rated at most 1928. There N' = min(N, N*)
  = N* both for the true N and for the assumed 26, because N* <= 26 for ratings up to
  1928 (formula 1 of the 2025 text: N* = 50 / sqrt(0.662 + 0.00000739 (2569 - R)^2)).
"""

from __future__ import annotations

import math
import os
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.conftest import REPO

from uscf_ratings.core.formulas import n_star, round_half_up
from uscf_ratings.core.model import (
    Event,
    FideRating,
    KFactor,
    Player,
    Rating,
    Result,
    Section,
    SectionType,
    System,
)
from uscf_ratings.core.pipeline import rate_section, section_systems
from uscf_ratings.core.rules import NoRuleSet, rules_for
from uscf_ratings.core.timecontrol import parse_time_control
from uscf_ratings.fidelity.sources import load_msa
from uscf_ratings.formats import dbf, trf
from uscf_ratings.formats.errors import ParseError
from uscf_ratings.formats.event_json import event_from_dict, event_to_json, read_event

ASSUMED = 26
FIXTURES = Path(__file__).resolve().parent / "data"


# ---------------------------------------------------------------------------------------
# What each format carries
# ---------------------------------------------------------------------------------------

def systems_of(section: Section) -> tuple[System, ...] | None:
    if section.systems:
        return section.systems
    try:
        return section_systems(section, rules_for(section.start_date))
    except ValueError:
        return None


def main_system(systems: tuple[System, ...] | None) -> System:
    return System.R if not systems or System.R in systems else systems[0]


def readable(text: str | None) -> bool:
    try:
        return text is not None and parse_time_control(text) is not None
    except ValueError:
        return False


def carried_player(p: Player, main: System, rounds: int, keep_fide: bool) -> Player:
    r = p.ratings.get(main)
    by_round = {x.round: x for x in p.results}
    results = tuple(
        Result(n, x.code, x.opponent if x.code in "WLDXF" else None) if (x := by_round.get(n))
        else Result(n, "U") for n in range(1, rounds + 1))
    return Player(
        p.pair, p.id, p.name,
        birth_date=p.birth_date if keep_fide else None,
        ratings={main: Rating(round_half_up(r.rating), ASSUMED, games_known=False)} if r else {},
        fide=FideRating(round_half_up(p.fide.rating)) if keep_fide and p.fide else None,
        results=results)


def as_carried(event: Event, fmt: str, folder: str = "") -> Event:
    """``event`` cut down to what ``fmt`` ("dbf" or "trf") carries: for "trf", of its one
    section (the event must have one)."""
    sections = []
    for s in event.sections:
        rounds = max((r.round for p in s.players for r in p.results), default=0)
        if fmt == "dbf":
            systems = systems_of(s)
            kind = s.type if s.type is not SectionType.MATCH or len(s.players) == 2 else SectionType.SWISS
            section = Section(s.number, s.start_date, s.end_date, (), s.name, s.time_control,
                              type=kind, systems=systems)
            main = main_system(systems)
        else:
            systems = s.systems or (None if readable(s.time_control) else (System.R,))
            section = replace(s, systems=systems, online=s.online or event.online)
            main = main_system(systems_of(section))
        players = tuple(carried_player(p, main, rounds, fmt == "trf") for p in s.players)
        sections.append(replace(section, players=players))
    if fmt == "dbf":
        return Event(event.id if len(event.id) <= 12 else folder, event.start_date,
                     event.end_date, tuple(sections), event.name)
    (section,) = sections
    return Event(event.id, section.start_date, section.end_date, (section,), event.name,
                 section.online)


def through(event: Event, fmt: str, folder: Path) -> list[Event]:
    """Write ``event`` in ``fmt`` and read it back: one event for DBF, one per section
    for TRF."""
    if fmt == "dbf":
        dbf.write(event, folder)
        return [dbf.read(folder)]
    trf.write(event, folder / "event.trf")
    if len(event.sections) == 1:
        return [trf.read(folder / "event.trf")]
    return [trf.read(folder / f"event-s{s.number}.trf") for s in event.sections]


def per_section(event: Event) -> list[Event]:
    return [replace(event, sections=(s,)) for s in event.sections]


def outcome(section: Section) -> dict[tuple[int, str], float | None] | str:
    """Every post-event rating, or the error that rating gives."""
    try:
        result = rate_section(section)
    except ValueError as error:
        return f"{type(error).__name__}: {error}"
    return {(p.pair, s.value): r.post for p in result.players for s, r in p.ratings.items()}


def same_ratings(a: dict[Any, float | None] | str, b: dict[Any, float | None] | str) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    return a.keys() == b.keys() and all(
        (a[k] is None and b[k] is None) or (a[k] is not None and b[k] is not None
                                            and math.isclose(a[k], b[k], abs_tol=1e-9))
        for k in a)


def rated_results(event: Event) -> set[tuple[int, int, int, str, int | None]]:
    return {(s.number, p.pair, r.round, r.code, r.opponent)
            for s in event.sections for p in s.players for r in p.results if r.played}


# ---------------------------------------------------------------------------------------
# Hand-made events
# ---------------------------------------------------------------------------------------

def established_event() -> Event:
    """Established players (N from 30 to 400) rated 1100-1928, a forfeit, two byes, an
    unrated player without birth date: nothing the formats lose matters here."""
    ratings = {1: (1928, 400), 2: (1850, 120), 3: (1700, 30), 4: (1610, 64), 5: (1500, 26),
               6: (1320, 90), 7: (1100, 41)}
    rows = {1: ["W5", "W3", "D2"], 2: ["W6", "D4", "D1"], 3: ["W7", "L1", "X6"],
            4: ["D8", "D2", "W5"], 5: ["L1", "H", "L4"], 6: ["L2", "W8", "F3"],
            7: ["L3", "B", "W8"], 8: ["D4", "L6", "L7"]}
    players = tuple(
        Player(pair, f"3000000{pair}", f"PLAYER {pair}",
               ratings={System.R: Rating(*ratings[pair])} if pair in ratings else {},
               results=tuple(Result(n, c[0], int(c[1:]) if c[1:] else None)
                             for n, c in enumerate(cells, start=1)))
        for pair, cells in rows.items())
    section = Section(1, date(2025, 3, 1), date(2025, 3, 2), players, "Open", "G/90;d30",
                      systems=(System.R,))
    return Event("202503010001", date(2025, 3, 1), date(2025, 3, 2), (section,), "Club Open")


def round_robin_event() -> Event:
    """A quad of established players in Quick, reported by opponent columns."""
    grid = {1: ["U", "W2", "D3", "W4"], 2: ["L1", "U", "W3", "D4"], 3: ["D1", "L2", "U", "W4"],
            4: ["L1", "D2", "L3", "U"]}
    values = {1: 1900, 2: 1750, 3: 1400, 4: 1250}
    players = tuple(
        Player(pair, f"4000000{pair}", f"QUAD {pair}", ratings={System.Q: Rating(values[pair], 80)},
               results=tuple(Result(n, c[0], int(c[1:]) if c[1:] else None)
                             for n, c in enumerate(row, start=1)))
        for pair, row in grid.items())
    section = Section(1, date(2024, 11, 9), date(2024, 11, 9), players, "Quad", "G/25;d5",
                      type=SectionType.ROUND_ROBIN, systems=(System.Q,))
    return Event("202411090002", date(2024, 11, 9), date(2024, 11, 9), (section,), "Quads")


EXACT = {"established": established_event, "round_robin": round_robin_event}


@pytest.mark.parametrize("fmt", ["dbf", "trf"])
@pytest.mark.parametrize("name", sorted(EXACT))
def test_nothing_lost_rates_exactly_as_the_original(name: str, fmt: str, tmp_path: Path) -> None:
    event = event_from_dict(event_to_json(EXACT[name]()))  # from JSON ...
    assert all(r.games >= ASSUMED and n_star(r.rating) <= ASSUMED and r.rating == int(r.rating)
               for s in event.sections for p in s.players for r in p.ratings.values())
    (back,) = through(event, fmt, tmp_path)  # ... through the format ...
    assert rated_results(event_from_dict(event_to_json(back))) == rated_results(event)  # ... to JSON
    for original, read in zip(event.sections, back.sections, strict=True):
        expected, got = outcome(original), outcome(read)
        assert not isinstance(expected, str) and expected
        assert same_ratings(expected, got), (expected, got)


@pytest.mark.parametrize("fmt", ["dbf", "trf"])
def test_sample_event_through_json_and_back(fmt: str, tmp_path: Path) -> None:
    """JSON -> model -> DBF/TRF -> model -> JSON: the JSON is valid, keeps every rated
    result, is what the format carries, and rates as the original cut to that."""
    event = read_event(REPO / "examples" / "sample-event.json")
    backs = through(event, fmt, tmp_path)
    originals = [event] if fmt == "dbf" else per_section(event)
    for original, back in zip(originals, backs, strict=True):
        again = event_from_dict(event_to_json(back))  # checked against the schema
        assert rated_results(again) == rated_results(original)
        carried = as_carried(original, fmt, tmp_path.name)
        assert event_to_json(back) == event_to_json(carried)
        for expected, got in zip(carried.sections, back.sections, strict=True):
            assert same_ratings(outcome(expected), outcome(got))


@pytest.mark.parametrize("fmt", ["dbf", "trf"])
def test_real_dbf_report_converts(shared: Path, fmt: str, tmp_path: Path) -> None:
    report = dbf.read(shared / "formats" / "uscf_dbf" / "better-swisssys_swisssys11_dbf_test")
    (back,) = through(report, fmt, tmp_path)
    assert rated_results(back) == rated_results(report) and len(rated_results(report)) == 2
    assert same_ratings(outcome(report.sections[0]), outcome(back.sections[0]))


def test_dbf_to_trf_and_back_for_every_fixture(tmp_path: Path) -> None:
    for name in ("swisssys_style", "typed_dates_numbers", "round_robin", "legacy_5char"):
        report = dbf.read(FIXTURES / "dbf" / name)
        folder = tmp_path / name
        folder.mkdir()
        for original, back in zip(per_section(report), through(report, "trf", folder), strict=True):
            assert rated_results(back) == rated_results(original)


# ---------------------------------------------------------------------------------------
# Every real MSA section, through both writers
# ---------------------------------------------------------------------------------------

def msa_events(shared: Path) -> list[tuple[str, Event, dict[tuple[int, str], float | None]]]:
    """Each rated MSA section as an event of its own, with its ratings as loaded."""
    out = []
    for path in sorted((shared / "uscf_real" / "msa_sections").glob("*.json")):
        section = load_msa(path).section
        # Names do not affect ratings; the formats hold 30 (DBF) or 33 (TRF) characters.
        # Nor does the time control text when the systems are given, as they are here; a
        # few crosstables list one per round, longer than the report's 40 characters.
        assert section.systems
        players = tuple(replace(p, name=p.name[:30]) for p in section.players)
        tc = section.time_control if len(section.time_control or "") <= 40 else None
        section = replace(section, players=players, time_control=tc)
        try:
            rated = rate_section(section)
        except NoRuleSet:
            continue  # before 2013-05-08: no rule set
        except ValueError:
            continue  # sections the engine refuses as they are
        ratings = {(q.pair, x.value): r.post for q in rated.players for x, r in q.ratings.items()}
        out.append((path.stem, Event(path.stem[:12], section.start_date, section.end_date,
                                     (section,), "MSA"), ratings))
    return out


class Memo:
    """Rating is a pure function of the section, so equal sections (the original cut to
    what DBF carries, the same cut for TRF, and what is read back) are rated once."""

    def __init__(self) -> None:
        self.done: list[tuple[Section, dict[tuple[int, str], float | None] | str]] = []

    def __call__(self, section: Section) -> dict[tuple[int, str], float | None] | str:
        for seen, result in self.done:
            if seen == section:
                return result
        result = outcome(section)
        self.done.append((section, result))
        return result


def exact_candidate(section: Section) -> bool:
    """Nothing the formats lose matters: one rating per player, in the main system, an
    integer, established with N' = N* (see the module docstring)."""
    main = main_system(systems_of(section))
    return all(set(p.ratings) <= {main} and p.fide is None and p.birth_date is None
               and all(r.rating == int(r.rating) and r.games >= ASSUMED and n_star(r.rating) <= ASSUMED
                       for r in p.ratings.values())
               for p in section.players) and section.k is KFactor.FULL and not section.online


@pytest.mark.fidelity
def test_every_real_msa_section_through_dbf_and_trf(shared: Path) -> None:
    """About 750 sections, each written and read back twice and rated: ~20 s of CPU."""
    events = msa_events(shared)
    assert len(events) > 700
    counts = {"dbf": 0, "trf": 0, "online refused": 0, "exact": 0}
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for key, event, original in events:
            (section,) = event.sections
            memo = Memo()
            for fmt in ("dbf", "trf"):
                folder = Path(tmp) / f"{key}-{fmt}"
                folder.mkdir()
                if fmt == "dbf" and any(s.online for s in systems_of(section) or ()):
                    with pytest.raises(ValueError, match="online"):
                        dbf.write(event, folder)
                    counts["online refused"] += 1
                    continue
                (back,) = through(event, fmt, folder)
                counts[fmt] += 1
                carried = as_carried(event, fmt, folder.name)
                if rated_results(back) != rated_results(event):
                    failures.append(f"{key} {fmt}: rated results differ")
                if event_to_json(back) != event_to_json(carried):
                    failures.append(f"{key} {fmt}: not what the format carries")
                expected, got = memo(carried.sections[0]), memo(back.sections[0])
                if not same_ratings(expected, got):
                    failures.append(f"{key} {fmt}: ratings differ from the original as carried")
                if exact_candidate(section):
                    counts["exact"] += 1
                    if not same_ratings(original, got):
                        failures.append(f"{key} {fmt}: ratings differ from the original")
    assert not failures, "\n".join(failures[:20])
    assert counts["dbf"] + counts["online refused"] == counts["trf"] == len(events)
    assert counts["exact"] > 30, counts  # 22 sections qualify, through both formats


# ---------------------------------------------------------------------------------------
# Arbitrary bytes never crash a parser
# ---------------------------------------------------------------------------------------

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
GOOD_DBF = {name: (FIXTURES / "dbf" / "typed_dates_numbers" / name).read_bytes()
            for name in dbf.TABLES}
GOOD_TRF = (FIXTURES / "trf" / "trf16_us_club.trf").read_bytes()


def parses_or_refuses(read: Callable[[Path], Event], path: Path) -> None:
    """Either an event or a ParseError; any other exception fails the test."""
    try:
        event = read(path)
    except ParseError as error:
        assert error.issues and all(isinstance(str(i), str) for i in error.issues)
    else:
        assert isinstance(event, Event)


def in_tmp(files: dict[str, bytes], read: Callable[[Path], Event], target: str = "") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            (Path(tmp) / name).write_bytes(data)
        parses_or_refuses(read, Path(tmp) / target if target else Path(tmp))


@SETTINGS
@given(st.binary(max_size=3000))
def test_trf_arbitrary_bytes(data: bytes) -> None:
    in_tmp({"x.trf": data}, trf.read, "x.trf")


@SETTINGS
@given(st.lists(st.sampled_from([b"001", b"   ", b"  1", b" w ", b" 1", b"0000 - H", b"\r",
                                 b"\n", b"\t", b"USA", b"XUS systems=Q", b"042 2024/01/0",
                                 b"=", b"+", b"9999", b"\xff", b"###", b"122 G/3"]),
                max_size=80))
def test_trf_near_misses(parts: list[bytes]) -> None:
    in_tmp({"x.trf": b"".join(parts)}, trf.read, "x.trf")


@SETTINGS
@given(st.sampled_from(dbf.TABLES), st.binary(max_size=2000))
def test_dbf_arbitrary_bytes_in_one_file(name: str, data: bytes) -> None:
    in_tmp(GOOD_DBF | {name: data}, dbf.read)


@SETTINGS
@given(st.sampled_from(dbf.TABLES), st.data())
def test_dbf_damaged_bytes(name: str, data: st.DataObject) -> None:
    """A real-looking table with a few bytes changed, cut or extended."""
    raw = bytearray(GOOD_DBF[name])
    for _ in range(data.draw(st.integers(1, 8))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    tail = data.draw(st.binary(max_size=40))
    in_tmp(GOOD_DBF | {name: bytes(raw[:cut]) + tail}, dbf.read)


@SETTINGS
@given(st.binary(max_size=2000))
def test_dbf_arbitrary_bytes_as_a_zip(data: bytes) -> None:
    in_tmp({"report.zip": data}, dbf.read, "report.zip")


def test_dbf_zip_of_arbitrary_members() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        archive = Path(tmp) / "r.zip"
        with zipfile.ZipFile(archive, "w") as z:
            for name in dbf.TABLES:
                z.writestr(name, os.urandom(64))
        parses_or_refuses(dbf.read, archive)
