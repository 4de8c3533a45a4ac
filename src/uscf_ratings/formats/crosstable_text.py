"""A readable crosstable: pair, name and id, pre -> post per system, and the round cells."""

from __future__ import annotations

from ..core.formulas import published_form as _rating
from ..core.model import Section
from ..core.results import RatingResult, SectionResult


def _change(r: RatingResult) -> str:
    pre = _rating(r.pre, r.pre_games)
    post = _rating(r.post, r.games_after) if r.post is not None else pre
    mark = {"peak": " (floor)", "absolute": " (floor)", "olm": " (OLM floor)",
            "office": " (floor)"}.get(r.floor_applied or "", "")
    return f"{r.system}: {pre} -> {post}{mark}"


def render_section(section: Section, result: SectionResult) -> str:
    systems = "/".join(s.value for s in result.systems)
    title = f"Section {result.number}" + (f" {result.name}" if result.name else "")
    lines = [
        f"{title}  ({systems}, {result.rules.name}, B = {result.rules.bonus_threshold:g}, "
        f"{result.k.value} K, {result.rules.initialization} initialization)",
    ]
    cells = {p.pair: p.results for p in section.players}
    for player in result.players:
        rounds = " ".join(f"{c.code}{c.opponent or '':>3}" for pair in player.pairs
                          for c in cells[pair])
        ratings = "  ".join(_change(r) for r in player.ratings.values())
        name = f"{player.name} ({player.id})" if player.id else player.name
        lines.append(f"{player.pair:>3} {name:<34} {ratings:<44} {rounds}")
    return "\n".join(lines)
