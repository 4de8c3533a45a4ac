"""A readable crosstable: pair, name and id, the total with the norm earned beside it
(``2.5 N:4``, as MSA prints it; core/norms.py), pre -> post per system, and the round cells."""

from __future__ import annotations

from ..core.formulas import published_form as _rating
from ..core.model import Section
from ..core.results import PlayerResult, RatingResult, SectionResult
from .outputs import FLOOR_MARK, norm_code, total


def rating_change(system: str, pre: float | None, pre_games: int | None, post: float | None,
                  games_after: int | None, floor_applied: str | None) -> str:
    """``R: 1456P12 -> 1470P16 (floor)``: pre -> post as crosstables show them (P and N
    while provisional, "unr." for none), and the mark of a floor that held the rating.
    `uscf rate` and `uscf db event` print a rating alike."""
    before = _rating(pre, pre_games)
    after = _rating(post, games_after) if post is not None else before
    return f"{system}: {before} -> {after}{FLOOR_MARK.get(floor_applied or '', '')}"


def event_heading(event_id: str, name: str, start: object, end: object) -> str:
    """An event's first line: ``Club Night  (202608010001, 2026-08-01 .. 2026-08-01)``;
    without a name, the id and the dates alone."""
    return f"{name}  ({event_id}, {start} .. {end})" if name else f"{event_id}  ({start} .. {end})"


def _change(r: RatingResult) -> str:
    return rating_change(r.system.value, r.pre, r.pre_games, r.post, r.games_after,
                         r.floor_applied)


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
        lines.append(f"{player.pair:>3} {name:<34} {_total(section, player):>4.1f} "
                     f"{norm_code(player):<3} {ratings:<44} {rounds}".rstrip())
    return "\n".join(lines)


def _total(section: Section, player: PlayerResult) -> float:
    """The points of every row of the player (a member entered twice is one line)."""
    return sum(total(p) for p in section.players if p.pair in (player.pairs or (player.pair,)))
