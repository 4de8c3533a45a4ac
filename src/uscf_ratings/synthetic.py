"""A synthetic federation for tests and benchmarks: reproducible from a seed.

Players have realistic rating and N distributions (many young, low-rated, provisional
players; a long tail of established adults); events hold Swiss sections of 4 to 120
players (mostly small) and 3 to 9 rounds with some unrated players, byes and forfeits, dual-rated and
online sections. Pairings are a simple Swiss (score groups, top half against bottom half),
good enough to give every player a plausible schedule.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from .core.model import Event, Player, Rating, Result, Section, System

TIME_CONTROLS = (("G/90;d30", False, 3), ("G/45;d5", False, 3), ("G/30;d5", False, 2),
                 ("G/15;d5", False, 1), ("G/5;d0", False, 1), ("G/15+10", True, 1),
                 ("G/3+2", True, 1), ("G/45+15", True, 1))


@dataclass(frozen=True)
class Member:
    id: str
    name: str
    birth_date: date
    strength: float  #: the "true" rating results are drawn from


def federation(size: int, seed: int = 1) -> list[Member]:
    rng = random.Random(seed)
    members = []
    for i in range(size):
        age = rng.choice([rng.uniform(6, 18)] * 3 + [rng.uniform(18, 80)])
        strength = max(100.0, min(2700.0, rng.gauss(400 + 60 * min(age, 25), 350)))
        birth = date(2026, 1, 1) - timedelta(days=int(age * 365.25))
        members.append(Member(f"{30000000 + i}", f"Player {i}", birth, strength))
    return members


def _rating_for(member: Member, rng: random.Random) -> tuple[float, int] | None:
    if rng.random() < 0.08:
        return None  # unrated
    games = int(rng.choice([rng.uniform(1, 25), rng.uniform(26, 400), rng.uniform(26, 120)]))
    rating = max(100.0, rng.gauss(member.strength, 120 if games > 25 else 250))
    return round(rating, 2), games


def section(number: int, members: list[Member], rounds: int, day: date, rng: random.Random,
            time_control: str, online: bool) -> Section:
    """One Swiss section; results drawn from the members' strengths."""
    n = len(members)
    score = [0.0] * n
    cells: list[list[Result]] = [[] for _ in range(n)]
    met: set[tuple[int, int]] = set()
    for rnd in range(1, rounds + 1):
        order = sorted(range(n), key=lambda i: (-score[i], -members[i].strength))
        if n % 2:
            bye = order.pop()  # the lowest player gets the bye
            kind = rng.choice("BHU")
            cells[bye].append(Result(rnd, kind))
            score[bye] += {"B": 1.0, "H": 0.5, "U": 0.0}[kind]
        while order:
            a = order.pop(0)
            b = next((x for x in order if (a, x) not in met), order[0])
            order.remove(b)
            met |= {(a, b), (b, a)}
            if rng.random() < 0.02:  # a forfeit: not a rated game
                cells[a].append(Result(rnd, "X", b + 1))
                cells[b].append(Result(rnd, "F", a + 1))
                score[a] += 1
                continue
            expected = 1 / (1 + 10 ** ((members[b].strength - members[a].strength) / 400))
            draw = 0.15
            u = rng.random()
            code = "W" if u < expected - draw / 2 else ("D" if u < expected + draw / 2 else "L")
            other = {"W": "L", "L": "W", "D": "D"}[code]
            cells[a].append(Result(rnd, code, b + 1))
            cells[b].append(Result(rnd, other, a + 1))
            score[a] += {"W": 1.0, "D": 0.5, "L": 0.0}[code]
            score[b] += {"W": 0.0, "D": 0.5, "L": 1.0}[code]
    systems = _systems(time_control, online)
    players = []
    for i, m in enumerate(members):
        ratings = {}
        for system in systems:
            found = _rating_for(m, rng)
            if found:
                ratings[system] = Rating(found[0], found[1])
        players.append(Player(i + 1, m.id, m.name, birth_date=m.birth_date,
                              ratings=ratings, results=tuple(cells[i])))
    return Section(number, day, day, tuple(players), time_control=time_control, online=online)


def _systems(time_control: str, online: bool) -> tuple[System, ...]:
    from .core.rules import rules_for
    from .core.timecontrol import parse_time_control, systems_for

    return systems_for(parse_time_control(time_control), online, rules_for(date(2026, 1, 1)))


SMALLEST, LARGEST = 4, 120  #: section sizes
#: Most sections are small (quads, scholastic and club sections) and few are large: sizes
#: are 4 plus an exponential draw of this mean, capped at LARGEST, about 17 players and
#: 50 games a section on average, so that a million games make about 20,000 sections.
MEAN_EXTRA_PLAYERS = 14.5


def section_size(rng: random.Random) -> int:
    """A section's number of players, skewed towards small sections."""
    return min(LARGEST, SMALLEST + int(rng.expovariate(1 / MEAN_EXTRA_PLAYERS)))


def events(members: list[Member], count: int, seed: int = 1, start: date = date(2026, 1, 3),
           sizes: tuple[int, int] | None = None) -> list[Event]:
    """``count`` events of one to three sections each, a few days apart.

    Section sizes follow `section_size`, or are uniform in ``sizes`` when given. A
    section has 3 to 9 rounds, and no more rounds than a round robin of its players
    needs (a quad plays 3)."""
    rng = random.Random(seed)
    out = []
    for e in range(count):
        day = start + timedelta(days=(e * 365) // max(count, 1))
        sections = []
        for number in range(1, rng.choice([1, 1, 2, 3]) + 1):
            tc, online, _ = rng.choices(TIME_CONTROLS, weights=[w for *_, w in TIME_CONTROLS])[0]
            size = rng.randint(*sizes) if sizes else section_size(rng)
            chosen = rng.sample(members, min(size, len(members)))
            rounds = min(rng.randint(3, 9), max(3, len(chosen) - 1))
            sections.append(section(number, chosen, rounds, day, rng, tc, online))
        out.append(Event(f"S{e:06d}", day, day, tuple(sections), f"Synthetic {e}"))
    return out
