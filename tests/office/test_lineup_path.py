"""The office rates a Swiss or round-robin section from its lineup, in the history
engine's compiled chain (batch/chain.py); rated from its model instead, one section at a
time by the reference path (`core.pre_event.prepare` and `core.pipeline.rate_section`,
the way of matches and foreign events), it stores the same rows, to the bit.

The year below has what changes a player's pre-event rating in the office: imported
baselines (in R only, so dual-rated sections rate Q players by Step 1 from their R
rating), birth dates, FIDE and CFC ratings the files do not give, players the files leave
unrated, states carried from event to event, a floor set by hand and two member ids
merged, and an early event that re-rates the later ones.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from uscf_ratings.core.model import System
from uscf_ratings.formats.member_records import Baseline, MemberRecord
from uscf_ratings.office import run as run_module
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import STATE_COLUMNS
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation

SEED = 17


def members() -> list[MemberRecord]:
    """Every third member with an R baseline, every fourth with a FIDE rating, every
    fifth with a CFC rating, and birth dates for half of them."""
    records = []
    for i, m in enumerate(federation(150, SEED)):
        records.append(MemberRecord(
            m.id, m.name, birth_date=m.birth_date if i % 2 else None,
            fide_rating=1500.0 + 3 * i if i % 4 == 1 else None,
            fide_date=date(2025, 6, 1) if i % 4 == 1 else None,
            cfc_rating=1400.0 + 2 * i if i % 5 == 2 else None,
            cfc_date=date(2025, 3, 1) if i % 5 == 2 else None,
            ratings={System.R: Baseline(round(m.strength), 10 + i % 40)} if i % 3 == 0 else {}))
    return records


def run_year(url: str, lineup: bool, monkeypatch: pytest.MonkeyPatch,
             prefetch_from: int = run_module.PREFETCH_FROM) -> dict[str, int]:
    """The year rated into ``url`` from the lineups, or (``lineup=False``) from the
    models; how many sections went each way, and how many re-rates read their stored
    events in a pool (office/prefetch.py)."""
    ways = {"lineup": 0, "model": 0, "pools": 0}
    to_rate = run_module.RatingRun._to_rate

    def section_to_rate(run: run_module.RatingRun, event: Any, entry: Any, mode: Any) -> Any:
        taken = to_rate(run, event, entry, mode)
        if taken.lineup is not None and not lineup:  # the section's model, in its place
            model = run_module.merged_followed(run._model(event, entry), run.merged)
            taken = replace(taken, lineup=None, model=model)
        ways["lineup" if taken.lineup is not None else "model"] += 1
        return taken

    def prefetched(*args: Any) -> Any:
        ways["pools"] += 1
        return read_ahead(*args)

    read_ahead = run_module.prefetched
    events = synthetic_events(federation(150, SEED), 30, SEED, sizes=(4, 30))
    with monkeypatch.context() as patch:
        patch.setattr(run_module.RatingRun, "_to_rate", section_to_rate)
        patch.setattr(run_module, "prefetched", prefetched)
        patch.setattr(run_module, "PREFETCH_FROM", prefetch_from)
        office = Office(url)
        office.init()
        office.import_members(members())
        first = events[0].sections[0].players
        office.merge(first[0].id, first[1].id)
        office.set_floor(first[2].id, System.R, 1200.0, date(2000, 1, 1), "a prize")
        office.rate_many(events[:10] + events[13:])
        office.rate_many(events[10:13])  # dated among those rated: the later ones again
    return ways


def stored(url: str) -> list[tuple[Any, ...]]:
    """Every row, with its state read back. The games won, drawn and lost are counted
    by the lineup (core/layout.py) in one path, from the model's results in the other."""
    with Office(url).engine.connect() as c:
        return sorted((r.event_id, r.section, r.member_id, r.system, r.pre, r.pre_games, r.post,
                       r.games_after, r.floor, tuple(r._mapping[n] for n in STATE_COLUMNS),
                       r.wins, r.draws, r.losses, r.norm)
                      for r in c.execute(select(schema.ratings)))


def test_the_lineups_store_what_the_models_store(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    by_lineup = f"sqlite:///{tmp_path / 'lineup.db'}"
    by_model = f"sqlite:///{tmp_path / 'model.db'}"
    ways = run_year(by_lineup, True, monkeypatch)
    assert run_year(by_model, False, monkeypatch)["lineup"] == 0
    rows = stored(by_lineup)
    assert rows == stored(by_model)
    assert len(rows) > 1000
    # every section went the lineup's way, the merged and floored members' included
    assert ways["lineup"] > 0 and ways["model"] == 0
    unrated_then = [r for r in rows if r[4] is None]
    assert len(unrated_then) > 25  # rated by Step 1, some with what the database knows


def test_a_long_rerate_reads_the_stored_events_ahead_in_a_pool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the pool from the first section on, every re-rate (the import, the merge, the
    floor and the early events) reads its stored events in worker processes."""
    in_pool = f"sqlite:///{tmp_path / 'pool.db'}"
    in_loop = f"sqlite:///{tmp_path / 'loop.db'}"
    ways = run_year(in_pool, True, monkeypatch, prefetch_from=1)
    assert ways["pools"] >= 2 and ways["model"] == 0
    assert run_year(in_loop, True, monkeypatch)["pools"] == 0
    assert stored(in_pool) == stored(in_loop)


def test_a_travelling_lineup_keeps_every_fact_of_its_unrated_players() -> None:
    """A submission's lineups travel with their unrated players without results (Step 1
    reads the facts, not the games): each is the player with ``results=()``, every other
    field the same (FIDE and CFC ratings, birth date, ratings in other systems)."""
    from uscf_ratings.core.settled import settled
    from uscf_ratings.office.submission import submission

    events = synthetic_events(federation(150, SEED), 30, SEED, sizes=(4, 30))
    compared = 0
    for event in events:
        made = submission(event)  # from the event with its defaults filled, as stored
        for entry, section in zip(made.sections, settled(event).sections, strict=True):
            laid = entry.lineup
            if laid is None:
                continue
            rows = {p.pair: p for p in section.players}
            for e, player in laid.unrated.items():
                given = rows[laid.pairs[e]]
                assert player == replace(given, results=()) and player.results == ()
                assert type(player) is type(given)
                compared += 1
    assert compared > 25
