"""Synthetic sections with one junior whose start is private: what the privacy adversary
(test_privacy_adversary.py) tries to break.

Each `Case` is a section rated by the rules of its date, with one junior (pair 1) who is
unrated in the section's systems and whose birth date is known to the office:

* ``age 2017``: an age-based start, R0 = 50 x age (2017 text, section 2.3), under the
  rules of 2017-06-01 (priority lists: the junior has no other rating);
* ``age 2020``: the same start under the rules of 2020-06-01 (blended initialization,
  which falls back to the age when there is no source: 2024 text, section 2);
* ``blended 2020`` and ``blended 2025``: a blended start (2024 and 2025 texts,
  section 2) from the junior's dated Quick and Blitz ratings, whose weights use
  P = 50 x age at each source's date, under the rules of 2020-06-01 and 2025-01-01.

The opponents are rated near the junior's strength (a scholastic section), their
ratings whole points or two decimals, established or provisional; a few are unrated
adults (R0 1300, nothing private). The results follow the players' strengths by the
logistic expectancy, so that the junior's estimate is where it depends on R0 (a junior
who beats everyone far above R0 would show nothing of it: the special formula's R0
term is then flat). Sections have 4 to 60 players: a round robin up to 6, else a
Swiss of 3 to 7 rounds paired by score.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from datetime import date, timedelta

from uscf_ratings.core.model import Player, Rating, Result, Section, System

KINDS = {  # label -> (first day, last day) of the section's date, and blended or not
    "age 2017": (date(2017, 6, 1), date(2020, 5, 20), False),
    "age 2020": (date(2020, 6, 1), date(2023, 1, 20), False),
    "blended 2020": (date(2020, 6, 1), date(2023, 1, 20), True),
    "blended 2025": (date(2025, 1, 1), date(2025, 12, 20), True),
}
#: candidates: every birth date within a year either side of the true one (731 days)
SPAN = 365


@dataclass(frozen=True)
class Case:
    label: str
    number: int
    section: Section
    birth: date
    decimals: bool  #: the opponents' ratings have two decimals (else whole points)

    @property
    def candidates(self) -> list[date]:
        return [self.birth + timedelta(days=d) for d in range(-SPAN, SPAN + 1)]

    def born(self, birth: date) -> Section:
        """The section with the junior born on ``birth``."""
        junior = replace(self.section.players[0], birth_date=birth)
        return replace(self.section, players=(junior, *self.section.players[1:]))

    @property
    def name(self) -> str:
        return (f"{self.label} #{self.number} ({len(self.section.players)} players, "
                f"{'decimal' if self.decimals else 'integer'} ratings, "
                f"{self.section.end_date})")


def cases(per_kind: int, seed: int = 37) -> list[Case]:
    """``per_kind`` juniors of each kind, the same for a seed."""
    rng = random.Random(seed)
    return [case(rng, label, n) for label in KINDS for n in range(per_kind)]


def case(rng: random.Random, label: str, number: int) -> Case:
    first, last, blended = KINDS[label]
    day = first + timedelta(days=rng.randrange((last - first).days))
    size = 4 + int(56 * rng.random() ** 2)  # 4 to 60, most of them small
    decimals = number % 2 == 1
    systems = (System.R, System.Q) if rng.random() < 0.25 else (System.R,)
    # the junior is 5 to 16, far enough from 3 and 26 for every candidate to be 50 x age
    birth = day - timedelta(days=rng.randrange(5 * 366, 16 * 365))
    r0 = 50 * (day - birth).days / 365.25
    strength = {1: r0 + rng.gauss(0, 150)}
    prefix = f"{list(KINDS).index(label) + 1}{number:03d}"  # ids unique among the cases
    players = [_junior(rng, f"{prefix}0001", birth, day, r0, blended, systems)]
    for pair in range(2, size + 1):
        rating = min(2400.0, max(100.0, rng.gauss(r0 + 100, 300)))
        rating = round(rating, 2) if decimals else float(round(rating))
        strength[pair] = rating + rng.gauss(0, 100)
        if rng.random() < 0.05:  # an unrated adult: 1300, nothing private
            players.append(Player(pair, f"{prefix}{pair:04d}", f"Adult {pair}", adult=True))
            continue
        games = rng.choice((2, 5, 9, 14, 20, 30, 60, 150))
        players.append(Player(pair, f"{prefix}{pair:04d}", f"Opponent {pair}", adult=True,
                              ratings={s: Rating(rating, games) for s in systems}))
    results = _games(rng, size, strength)
    players = [replace(p, results=tuple(results[p.pair])) for p in players]
    section = Section(1, day, day, tuple(players), name=f"{label} {number}", systems=systems)
    return Case(label, number, section, birth, decimals)


def _junior(rng: random.Random, member: str, birth: date, day: date, r0: float,
            blended: bool, systems: tuple[System, ...]) -> Player:
    """Pair 1: no rating in the section's systems; for a blended start, Blitz and
    (without Quick in the section) Quick ratings dated 1 to 24 months before, near the
    age's rating (so that z is not at its cap of 6)."""
    ratings = {}
    if blended:
        kept = [System.B] if System.Q in systems else [System.Q, System.B]
        for system in kept:
            if system is System.B or rng.random() < 0.7:
                rated = day - timedelta(days=rng.randrange(30, 730))
                ratings[system] = Rating(float(round(max(100.0, rng.gauss(r0, 200)))),
                                         rng.randrange(1, 20), rated)
        if not ratings:
            ratings[System.B] = Rating(float(round(r0)), 6, day - timedelta(days=200))
    return Player(1, member, "Junior", birth_date=birth, ratings=ratings)


def _games(rng: random.Random, size: int, strength: dict[int, float]
           ) -> dict[int, list[Result]]:
    """A round robin (up to 6 players) or a Swiss paired by score, results drawn by the
    logistic expectancy of the strengths, 10% draws."""
    results: dict[int, list[Result]] = {p: [] for p in strength}
    met: set[tuple[int, int]] = set()
    score = dict.fromkeys(strength, 0.0)
    if size <= 6:
        rounds = [[(a, b)] for a in strength for b in strength if a < b]
    else:
        rounds = [[] for _ in range(rng.randint(3, 7))]
    for number, pairs in enumerate(rounds, start=1):
        if not pairs:
            pairs = _pairing(rng, score, met)
        paired = {p for pair in pairs for p in pair}
        for a, b in pairs:
            met.add((min(a, b), max(a, b)))
            expected = 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400))
            draw = rng.random()
            code = "D" if draw < 0.1 else "W" if rng.random() < expected else "L"
            other = {"W": "L", "L": "W", "D": "D"}[code]
            results[a].append(Result(number, code, b))
            results[b].append(Result(number, other, a))
            score[a] += {"W": 1.0, "D": 0.5, "L": 0.0}[code]
            score[b] += {"W": 0.0, "D": 0.5, "L": 1.0}[other]
        for p in strength:
            if p not in paired:
                results[p].append(Result(number, "B" if size > 6 else "U"))
    return results


def _pairing(rng: random.Random, score: dict[int, float], met: set[tuple[int, int]]
             ) -> list[tuple[int, int]]:
    """Players by score (ties at random), each paired with the next it has not met."""
    order = sorted(score, key=lambda p: (-score[p], rng.random()))
    pairs = []
    while len(order) > 1:
        a = order.pop(0)
        b = next((p for p in order if (min(a, p), max(a, p)) not in met), order[0])
        order.remove(b)
        pairs.append((a, b))
    return pairs
