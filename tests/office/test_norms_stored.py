"""Norms stored with the ratings (migration 0009): each member's highest norm toward a
title in a section, on the member's Regular row, as `core.pipeline.rate_section` gives
it; a re-rate computes them again. On SQLite and on PostgreSQL (conftest.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sqlalchemy import select
from tests.office.conftest import year

from uscf_ratings.core.model import Event, Result
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.formats.event_json import read_event
from uscf_ratings.office import schema
from uscf_ratings.office.explain import explain_event
from uscf_ratings.office.office import Office

SAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sample-event.json"


def stored_norms(office: Office) -> dict[tuple[str, int, str, str], str | None]:
    """Each stored row's norm by (event, section, member, system)."""
    r = schema.ratings.c
    with office.engine.connect() as c:
        return {(row.event_id, row.section, row.member_id, row.system): row.norm
                for row in c.execute(select(r.event_id, r.section, r.member_id, r.system,
                                            r.norm))}


def explained_norms(office: Office, events: list[Event]) -> dict[tuple[str, int, str], str | None]:
    """Each member's norm as the reference path gives it when it rates each stored
    section again (office/explain.py: `rate_section` from the states before it)."""
    found = {}
    with office.engine.connect() as c:
        for event in events:
            for result in explain_event(c, event.id):
                for p in result.players:
                    if p.id and p.norm is not None:
                        found[(event.id, result.number, p.id)] = p.norm.code
    return found


def regular(norms: dict[tuple[str, int, str, str], str | None]
            ) -> dict[tuple[str, int, str], str | None]:
    """The norms of the Regular rows; every other system's row holds none."""
    assert all(norm is None for (*_, system), norm in norms.items() if system != "R")
    return {key[:3]: norm for key, norm in norms.items() if key[3] == "R"}


def test_the_sample_event_stores_the_norm_rate_section_gives_each_player(office: Office) -> None:
    """Rated into an empty office, the sample event's players are rated from the file's
    ratings, as `rate_section` rates them: each member's stored norm on the Regular row
    is the code of the player's `NormResult` (some earn one, some none), and every
    norm earned is stored (a Quick-only section has no Regular row, and no norm)."""
    event = read_event(SAMPLE)
    office.rate(event)
    expected = {(event.id, section.number, p.id): p.norm.code if p.norm else None
                for section in event.sections for p in rate_section(section).players}
    stored = regular(stored_norms(office))
    assert stored == {k: expected[k] for k in stored}
    assert {k for k, code in expected.items() if code} <= set(stored)  # each norm is stored
    assert any(stored.values()) and not all(stored.values())


def test_a_year_stores_the_norm_the_reference_path_gives_for_every_member(
        office: Office) -> None:
    """A synthetic year slice rated in order through the compiled kernels (or Python's,
    without the extra): every stored norm equals the one the reference path gives
    rating the section again from the stored states (the explanation), and norms are
    earned at several levels."""
    events = year(14)
    office.rate_many(events)
    stored = regular(stored_norms(office))
    explained = explained_norms(office, events)
    assert stored == {k: explained.get(k) for k in stored}
    assert len({v for v in stored.values() if v}) >= 2


def test_a_re_rate_computes_the_stored_norms_again(office: Office, tmp_path: Path) -> None:
    """An early event corrected (every decisive result of a section where a norm was
    earned reversed) re-rates every later section: the norms stored then are those of an
    office that rated the corrected year from the start, and of the reference path; some
    differ from before the correction (the post-event ratings they rest on changed)."""
    events = year(10)
    office.rate_many(events)
    before = stored_norms(office)
    at, number = next((i, key[1]) for i, e in enumerate(events) for key, norm
                      in before.items() if key[0] == e.id and norm)  # the first with a norm
    first = events[at]
    section = next(s for s in first.sections if s.number == number)
    flipped = {"W": "L", "L": "W"}
    players = list(section.players)
    for i, p in enumerate(players):
        results = [Result(r.round, flipped.get(r.code, r.code), r.opponent) for r in p.results]
        players[i] = replace(p, results=tuple(results))
    corrected = replace(first, sections=tuple(
        replace(s, players=tuple(players)) if s is section else s for s in first.sections))
    office.correct(first.id, corrected)
    after = stored_norms(office)
    fresh = Office(f"sqlite:///{tmp_path / 'fresh.db'}")
    fresh.init()
    rated = [*events[:at], corrected, *events[at + 1:]]
    fresh.rate_many(rated)
    assert after == stored_norms(fresh)
    assert regular(after) == {k: explained_norms(office, rated[at:]).get(k)
                              for k in regular(after) if k[0] in {e.id for e in rated[at:]}}
    assert after != before
