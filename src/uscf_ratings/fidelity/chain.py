"""Chaining real sections through the ratings office.

The sample is sparse (a player's next section in it is often not the next one played),
so the published pre-event ratings are taken as given (``pre_ratings="file"``); what a
crosstable does not show (N of established players, wins, draws, losses, events with
three games, peak) is carried from section to section only across links where the rating
the office computed rounds to the next section's published pre-event rating. The floors
members had in June 2021 (member_pages_2021.json) can be imported as office floors.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..core.formulas import rounded_rating
from ..core.model import Event, System
from ..core.rules import FIRST_COVERED
from ..formats.member_records import MemberRecord
from ..office.defaults import PreRatings
from ..office.office import Office
from .sources import RealSection, load_all


@dataclass
class ChainFigures:
    players: int = 0
    exact: int = 0
    within1: int = 0

    def as_dict(self) -> dict[str, float]:
        n = self.players or 1
        return {"players": self.players, "exact_share": 100 * self.exact / n,
                "within1_share": 100 * self.within1 / n}


def _events(sections: list[RealSection]) -> list[tuple[Event, list[RealSection]]]:
    by_event: dict[str, list[RealSection]] = defaultdict(list)
    for real in sections:
        if real.section.start_date >= FIRST_COVERED:
            by_event[real.key.split("_")[0]].append(real)
    events = []
    for event_id, reals in by_event.items():
        numbers = [r.section.number for r in reals]
        if len(set(numbers)) != len(numbers):  # the same section twice in the sample
            reals = list({r.section.number: r for r in reals}.values())
        secs = tuple(r.section for r in reals)
        events.append((Event(event_id, min(s.start_date for s in secs),
                             max(s.end_date for s in secs), secs), reals))
    return events


def _floors(shared: Path) -> dict[str, dict[System, float]]:
    data = json.loads((shared / "uscf_real" / "member_pages_2021.json").read_text())
    out: dict[str, dict[System, float]] = {}
    for member, systems in data["members"].items():
        for code, value in systems.items():
            if value.get("floor"):
                out.setdefault(member, {})[System(code)] = float(value["floor"])
    return out


def chain(shared: Path, url: str, carry_history: bool, import_floors: bool) -> ChainFigures:
    """Rate every covered real section in order through an office at ``url`` (a fresh
    database) and compare each stored rating with the published one."""
    office = Office(url)
    office.init()
    if import_floors:
        floors = _floors(shared)
        office.import_members([MemberRecord(m) for m in floors])
        for member, systems in floors.items():
            for system, floor in systems.items():
                office.set_floor(member, system, floor, date(1, 1, 1), "member page, June 2021")
    figures = ChainFigures()
    mode = PreRatings.FILE if carry_history else PreRatings.FILE_ONLY
    pending = sorted(_events(load_all(shared)), key=lambda e: (
        min(s.end_date for s in e[0].sections), e[0].id))
    for event, reals in pending:
        try:
            results = office.rate(event, mode)
        except ValueError:
            continue
        for real, result in zip(sorted(reals, key=lambda r: r.section.number),
                                sorted(results, key=lambda r: r.number), strict=True):
            for player in result.players:
                for system, rating in player.ratings.items():
                    pub = real.published.get((player.pair, system))
                    if pub is None or rating.post is None or rating.m == 0 or pub.decimals:
                        continue
                    diff = abs(rounded_rating(rating.post) - pub.post)
                    figures.players += 1
                    figures.exact += diff == 0
                    figures.within1 += diff <= 1
    office.engine.dispose()
    return figures


