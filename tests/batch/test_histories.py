"""The compiled path on the histories synthetic events lack: known and unknown counts,
peaks, floors set or lowered by the office, the OLM title, all-wins and all-losses
players, half-K and dual-rated sections, opponents met twice, and older rule sets.
Each section is rated by both paths and must give the same numbers (to 1e-9)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date

import pytest
from tests.batch.test_batch_equals_reference import compare
from tests.conftest import skip_or_fail

from uscf_ratings.core.model import KFactor, Rating, Section, SectionType
from uscf_ratings.synthetic import federation
from uscf_ratings.synthetic import section as synthetic_section

try:
    from uscf_ratings.batch import engine
except ImportError:  # numba and numpy are the optional extra [fast]
    engine = None  # type: ignore[assignment]


@pytest.fixture(autouse=True)
def needs_numba() -> None:
    if engine is None:
        skip_or_fail("the batch path needs the extra [fast] (numba, numpy)")


def maybe(rng: random.Random, value: object, unknown: float = 0.3) -> object:
    return None if rng.random() < unknown else value


def history(rng: random.Random, rating: Rating) -> Rating:
    """A rating with a random, sometimes partly unknown, history."""
    games = rating.games
    kind = rng.random()
    if kind < 0.1 and games > 0:  # every earlier game won (or lost)
        wins, draws, losses = (games, 0, 0) if rng.random() < 0.5 else (0, 0, games)
    else:
        wins = rng.randint(0, games)
        draws = rng.randint(0, games - wins)
        losses = games - wins - draws
    high = rng.random() < 0.3
    value = rng.uniform(2150, 2600) if high else rating.rating
    peak = maybe(rng, value + rng.uniform(0, 300), 0.4)
    lowered = rng.random() < 0.1
    return replace(
        rating, rating=value,
        wins=maybe(rng, wins), draws=maybe(rng, draws), losses=maybe(rng, losses),
        events3=maybe(rng, rng.randint(0, 40)), peak=peak,
        floor=maybe(rng, float(rng.choice(range(1200, 2300, 100))), 0.85),
        floor_lowered_from=float(rng.choice(range(1400, 2300, 100))) if lowered else None,
        floor_lowered_to=float(rng.choice(range(1200, 1400, 100))) if lowered else None,
        olm=rng.random() < 0.05 and high,
        games_above_2200=maybe(rng, rng.choice([0, 150, 299, 300, 450])),
    )


def sections(count: int, seed: int) -> list[Section]:
    rng = random.Random(seed)
    members = federation(300, seed)
    out = []
    for i in range(count):
        day = rng.choice([date(2015, 3, 1), date(2019, 9, 1), date(2024, 6, 1), date(2026, 2, 1)])
        tc = rng.choice(["G/90;d30", "G/45;d5", "G/30;d0", "G/10;d0", "G/5;d0"])
        size = rng.randint(4, 14)
        rounds = rng.choice([3, 4, 5, size + 2])  # beyond a round robin: opponents met twice
        base = synthetic_section(i + 1, rng.sample(members, size), rounds, day, rng, tc, False)
        players = tuple(replace(p, ratings={s: history(rng, r) for s, r in p.ratings.items()})
                        for p in base.players)
        out.append(replace(base, players=players,
                           k=KFactor.HALF if rng.random() < 0.2 else KFactor.FULL,
                           type=SectionType.SWISS))
    return out


def test_histories_give_the_reference_numbers() -> None:
    assert compare(sections(150, seed=5)) > 3000
