"""A section as the MSA crosstable shows it: pair, name and id, total with the norm earned
under it (``N:2``), one cell per round, and pre -> post per rating system.

Both the office's events (`uscf_ratings.office.queries.event`) and sections rated
on the fly feed it the same shape: players with ``pair``, ``id``, ``name``, ``results``
(report cells such as ``"W5"``), ``ratings`` (system -> ``rating_to_dict``) and, where
norms were computed, ``norm`` (the code or None) and ``norm_explanation``
(``result_json.norm_to_dict``), as ``uscf rate --json`` gives them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.model import Event, Player
from ..core.results import SectionResult
from ..formats.outputs import POINTS
from ..formats.result_json import norm_to_dict, rating_to_dict
from ..office.queries import display

FLOOR_MARK = {"absolute": "floor", "peak": "floor", "office": "floor", "olm": "OLM floor"}


@dataclass(frozen=True)
class Cell:
    code: str
    opponent: int | None


@dataclass(frozen=True)
class Change:
    system: str
    pre: str  #: as published: 1850, 1556P14 or "unr."
    post: str
    mark: str | None  #: the floor that held, if one did
    explanation: dict[str, Any]


@dataclass(frozen=True)
class Row:
    pair: int
    id: str
    name: str
    total: float
    cells: tuple[Cell, ...]
    changes: tuple[Change, ...]
    norm: str | None = None  #: the code beside the total (N:4 ... N:S), if one was earned
    #: the test behind it (`result_json.norm_to_dict`); None where norms were not computed
    norm_explanation: dict[str, Any] | None = None

    @property
    def explained(self) -> bool:
        """Whether the row has a "Why these ratings" panel: a rating or a norm to explain."""
        return bool(self.changes) or self.norm_explanation is not None


@dataclass(frozen=True)
class Crosstable:
    number: int
    name: str
    systems: tuple[str, ...]
    rows: tuple[Row, ...]
    facts: str = ""  #: the rule set, B, K and initialization, where known

    @property
    def rounds(self) -> int:
        return max((len(r.cells) for r in self.rows), default=0)


def _shown(value: float | None, games: int | None) -> str:
    return "unr." if value is None else display(value, games if games is not None else 999)


def change(system: str, r: dict[str, Any]) -> Change:
    pre = _shown(r.get("pre"), r.get("pre_games"))
    post = _shown(r.get("post"), r.get("games_after")) if r.get("post") is not None else pre
    return Change(system, pre, post, FLOOR_MARK.get(r.get("floor_applied") or ""), r)


def cell(text: str) -> Cell:
    return Cell(text[0], int(text[1:]) if text[1:] else None)


def row(player: dict[str, Any], systems: tuple[str, ...]) -> Row:
    cells = tuple(cell(c) for c in player["results"])
    ratings = player.get("ratings") or {}
    return Row(player["pair"], player.get("id") or "", player.get("name") or "",
               sum(POINTS.get(c.code, 0.0) for c in cells), cells,
               tuple(change(s, ratings[s]) for s in systems if s in ratings),
               player.get("norm"), player.get("norm_explanation"))


#: a section's type in words (core.model.SectionType)
SECTION_TYPES = {"swiss": "Swiss", "round_robin": "round robin", "match": "individual match",
                 "fide_foreign": "foreign FIDE event"}


def from_office(section: dict[str, Any]) -> Crosstable:
    """A section of `uscf_ratings.office.queries.event` (already made public), with its
    type, time control, dates and rule set."""
    systems = tuple(section["systems"])
    return Crosstable(section["number"], section.get("name", ""), systems,
                      tuple(row(p, systems) for p in section["players"]), office_facts(section))


def office_facts(section: dict[str, Any]) -> str:
    """What MSA shows above a section: "Swiss, G/30;d5, 2026-08-01, rules of 2025-07-26"."""
    start, end = section["start_date"], section["end_date"]
    facts = [SECTION_TYPES.get(section.get("type") or "swiss", str(section.get("type"))),
             section.get("time_control") or "time control not given",
             start if start == end else f"{start} .. {end}", f"rules of {section['rule_set']}"]
    if section.get("k") == "half":
        facts.append("half K")
    return ", ".join(facts)


def _cells(player: Player) -> list[str]:
    return [f"{r.code}{r.opponent if r.opponent is not None else ''}"
            for r in sorted(player.results, key=lambda r: r.round)]


def from_result(event: Event, results: list[SectionResult]) -> list[Crosstable]:
    """Sections rated on the fly (an upload or a pasted event)."""
    tables = []
    for section, result in zip(event.sections, results, strict=True):
        systems = tuple(s.value for s in result.systems)
        players = []
        for p in section.players:
            rated = result.player(p.pair)
            players.append({"pair": p.pair, "id": p.id, "name": p.name, "results": _cells(p),
                            "ratings": {s.value: rating_to_dict(r)
                                        for s, r in rated.ratings.items()},
                            "norm": rated.norm.code if rated.norm else None,
                            "norm_explanation": norm_to_dict(rated.norm)})
        facts = (f"{result.rules.name}, B = {result.rules.bonus_threshold:g}, {result.k.value} K, "
                 f"{result.rules.initialization} initialization")
        tables.append(Crosstable(result.number, result.name, systems,
                                 tuple(row(p, systems) for p in players), facts))
    return tables
