"""Norms toward the US Chess titles: the highest norm each player earns in a section.

The rule (../shared/spec/titles.md, "A norm in one section", after "The US Chess Title
System", February 2016): against one opponent, a player at level L is expected to score

    E(L, Ri) = 0                 if D <= -400       D = L - Ri
               0.5 + D/800       if -400 < D <= 0
               0.5 + D/400       if 0 < D <= 200
               1                 if D > 200

and earns a norm at level L when the score S exceeds the sum of those expectations by more
than 1 point. The crosstable shows the highest level earned (``N:4`` ... ``N:S``).

The points titles.md leaves open were settled by the 6,738 norm marks of the 882 real
sections in ../shared/uscf_real (docs/norms.md has the table of every choice and how many
marks it reproduces):

- each opponent counts with the **post-event** Regular rating (pre-event: 89.0% of the marks
  reproduced; post-event: 99.99%), which also gives an unrated opponent a rating;
- a member entered more than once is one player, with the games of every entry;
- **at least 4 rated games** played (not rounds); no opponent met more than twice;
- unplayed rounds (byes, forfeits) count neither way: no margin is added for them;
- the comparison is strict: S - E > 1 (S - E >= 1 gives 30 marks that were not published).

A game counts only against an opponent who has a post-event Regular rating. The numbers are
`Constants` fields (norm_*), so that a variant of the rules may change them.

The arithmetic (`norm_units`, `norm_expected_units`, `highest_norm`) is written in the subset
of Python the kernels use (kernels.py), over plain numbers, so that a compiled path can run
these same functions. Expected scores are summed in units of 1/(2 x 400), in which every
term is a whole number for whole ratings: ``S - E > 1`` is then decided exactly, never by a
rounding error of 0.1 + 0.2.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import partial
from typing import NamedTuple

from .constants import DOCUMENTED, Constants
from .kernels import most_meetings
from .model import SCORE, Player, SectionType, System
from .records import Column
from .results import NORM_LEVELS, LevelCheck, NormResult
from .rules import RuleChange
from .steps import Entrant, merge_entrants

NORM_CODES: tuple[str, ...] = tuple(level.code for level in NORM_LEVELS)
#: how many levels there are (a plain number, for the compiled path)
LEVEL_COUNT = 7


@dataclass(frozen=True)
class NormRules:
    """Which sections earn norms, from a date on (a table, as the rating rules are)."""

    effective: date
    #: the system whose sections earn norms, with its post-event ratings
    system: System
    #: over-the-board only ("norms can be earned only in US Chess events in which the
    #: regular rating system applies"); foreign FIDE events are not US Chess events
    section_types: frozenset[SectionType]
    source: str


#: US Chess shows norms computed back to events of 1991 (titles.md, "A norm in one section")
NORM_RULE_SETS: tuple[NormRules, ...] = (
    NormRules(date(1991, 1, 1), System.R,
              frozenset({SectionType.SWISS, SectionType.ROUND_ROBIN, SectionType.MATCH}),
              "The US Chess Title System (February 2016), as gathered in titles.md"),
)


TITLES = "titles.md, 'A norm in one section'"

#: The norm rules as rows of the rules table (docs/rules.md): what each rests on, and for
#: the points titles.md leaves open, how many published marks each reading reproduces.
NORM_RULE_ROWS: tuple[RuleChange, ...] = (
    RuleChange(date(1991, 1, 1), "norms", None,
               "Norms at seven levels, N:4 (1200) to N:S (2400), in Regular over-the-board "
               "sections of US Chess events", TITLES,
               "US Chess shows norms computed back to events of 1991", status="inferred",
               note="The date of the earliest events US Chess shows norms for; online, "
                    "Quick-only, Blitz and foreign FIDE sections earn none (no published mark "
                    "in any of them)."),
    RuleChange(date(1991, 1, 1), "norm_table_below", 400.0,
               "Expected score E(L, Ri) = 0 below D = -400, 0.5 + D/800 to 0, 0.5 + D/400 to "
               "200, then 1 (D = L - Ri)", TITLES,
               "0 if D <= -400; 0.5 + D/800 if -400 < D <= 0; 0.5 + D/400 if 0 < D <= 200; 1 "
               "if D > 200"),
    RuleChange(date(1991, 1, 1), "norm_margin", 1.0,
               "A norm needs S - E > 1, strictly", TITLES,
               "A norm at level L is earned when the player's score exceeds the sum of those "
               "expected scores by more than 1 point.", status="data",
               note="S - E >= 1 reproduces 6,707 of 6,738 marks and gives 30 that were not "
                    "published; the strict test reproduces 6,737."),
    RuleChange(date(1991, 1, 1), "-", None,
               "Opponents count with their post-event Regular rating", TITLES,
               "a US Chess administrator wrote 'pre-tournament'; patbarron/norm's README says "
               "post-tournament ratings", status="data",
               note="Post-event ratings reproduce 6,737 of 6,738 marks, pre-event ratings "
                    "5,995. An unrated opponent thus counts with the rating the event gave."),
    RuleChange(date(1991, 1, 1), "norm_min_games", 4.0,
               "At least 4 rated games played; no opponent met more than twice", TITLES,
               "at least 4 games; no opponent met more than twice", status="data",
               note="Games, not rounds: counting unplayed rounds, or 3 games, gives a mark "
                    "to 156 and 469 players who have none; 5 games loses 1,238 marks; at "
                    "most one meeting loses 14."),
    RuleChange(date(1991, 1, 1), "-", None,
               "Unplayed rounds count neither way; a member entered twice is one player",
               TITLES, "patbarron/norm adds 1 to the margin per unplayed game and allows at "
               "most one; whether US Chess does the same is not known", status="data",
               note="Adding 1 per unplayed round reproduces 6,026 marks; without, 6,737. Each "
                    "entry of a re-entered member on its own: 6,629."),
    RuleChange(date(1991, 1, 1), "title_norms", 5.0,
               "Five norms at a level or above earn its title; Candidate Master and above "
               "also need an established rating at the level", "titles.md, 'Titles'",
               "A title needs 5 norms at its level; a norm at a higher level also counts at "
               "every lower level."),
)


def norm_rules_for(day: date) -> NormRules | None:
    """The norm rules for a section starting on ``day``; None before norms were computed.

    >>> norm_rules_for(date(2019, 3, 2)).system
    <System.R: 'R'>
    >>> norm_rules_for(date(1990, 12, 31)) is None
    True
    """
    chosen = None
    for rules in NORM_RULE_SETS:
        if rules.effective <= day:
            chosen = rules
    return chosen


# --- the arithmetic: plain numbers, the kernels' subset of Python -------------------------

def norm_level(index: int, c: Constants) -> float:
    """The rating of level ``index`` (0 = 4th Category)."""
    return c.norm_lowest_level + index * c.norm_level_step


def norm_expected_units(level: float, opponent: float, c: Constants) -> float:
    """E(L, Ri) of the table, in units of 1/(2 x norm_table_below): 0 to 800 by default.

    >>> [norm_expected_units(1600, r, DOCUMENTED) for r in (2000, 1800, 1600, 1500, 1400)]
    [0.0, 200.0, 400.0, 600.0, 800.0]
    """
    d = level - opponent
    if d <= -c.norm_table_below:
        return 0.0
    if d <= 0.0:
        return c.norm_table_below + d
    if d <= c.norm_table_above:
        return c.norm_table_below + d * c.norm_table_below / c.norm_table_above
    return 2.0 * c.norm_table_below


def norm_units(level: float, opponents: Sequence[float], m: int, c: Constants) -> float:
    """The expected score at ``level`` against the first ``m`` of ``opponents`` (sorted
    ascending, so the sum is taken in one order), in the units of `norm_expected_units`."""
    total = 0.0
    for i in range(m):
        total += norm_expected_units(level, opponents[i], c)
    return total


def norm_earned(score: float, units: float, c: Constants) -> bool:
    """S - E > margin, with E in units: 2 x 400 x (S - margin) > E x 800 (exact for whole
    ratings, as S and the margin are multiples of a half)."""
    return 2.0 * c.norm_table_below * (score - c.norm_margin) > units


#: `norm_eligibility`'s answers
NORM_ELIGIBLE, NORM_FEW_GAMES, NORM_MET_TOO_OFTEN = 0, 1, 2


def norm_eligibility(played: int, most: int, c: Constants) -> int:
    """Whether a player's ``played`` rated games, at most ``most`` against one opponent
    (kernels.most_meetings, which the rating's bonus test counts too), may earn a norm: at
    least `norm_min_games` games and no opponent met more than `norm_max_meetings` times."""
    if played < c.norm_min_games:
        return NORM_FEW_GAMES
    if most > c.norm_max_meetings:
        return NORM_MET_TOO_OFTEN
    return NORM_ELIGIBLE


def counted_norm_games(opponents: Sequence[int], scores: Sequence[float], start: int,
                       end: int, posts: Sequence[float], base: int,
                       ratings: Column[float]) -> tuple[int, float]:
    """The games of ``start:end`` a norm counts: those against an opponent with a
    post-event rating (``posts[base + opponent]``, NaN for none). Their ratings go to
    ``ratings[:m]``; returns m and the score over them."""
    m = 0
    total = 0.0
    for i in range(start, end):
        rating = posts[base + opponents[i]]
        if rating == rating:  # not NaN
            ratings[m] = rating
            total += scores[i]
            m += 1
    return m, total


def highest_norm(opponents: Sequence[float], m: int, score: float, c: Constants) -> int:
    """The index of the highest level earned (0 = 4th Category), or -1 for none. The
    expected score grows with the level, so the levels earned are the lowest ones: the
    test goes up from the lowest and stops at the first level not earned."""
    best = -1
    for index in range(LEVEL_COUNT):
        if not norm_earned(score, norm_units(norm_level(index, c), opponents, m, c), c):
            break
        best = index
    return best


# --- one player's norm, with its explanation ----------------------------------------------

def not_eligible(reason: str) -> NormResult:
    return NormResult(None, False, reason)


def section_reason(section_type: SectionType, online: bool, systems: Sequence[System],
                   start: date) -> str | None:
    """Why no player of a section can earn a norm, or None when they can."""
    rules = norm_rules_for(start)
    if rules is None:
        return f"norms are computed for events from {NORM_RULE_SETS[0].effective.year} on"
    if online:
        return "norms are earned over the board only, not in an online section"
    if rules.system not in systems:
        return f"norms are earned only in sections rated in the Regular system ({rules.system.value})"
    if section_type not in rules.section_types:
        return "norms are earned only in US Chess events, not in a foreign FIDE event"
    return None


def level_checks(opponents: tuple[float, ...], score: float, c: Constants
                 ) -> tuple[LevelCheck, ...]:
    """The test at every level against ``opponents`` (their post-event ratings, sorted):
    E, S - E and whether it exceeds the margin, as `highest_norm` decides it."""
    unit = 2.0 * c.norm_table_below
    checks = []
    for index, level in enumerate(NORM_LEVELS):
        units = norm_units(norm_level(index, c), opponents, len(opponents), c)
        checks.append(LevelCheck(level.code, level.title, norm_level(index, c), units / unit,
                                 score - units / unit, norm_earned(score, units, c)))
    return tuple(checks)


_new = object.__new__
_set = object.__setattr__


def player_norm(games: Sequence[tuple[int, float]], posts: Sequence[float | None],
                labels: Sequence[str], c: Constants = DOCUMENTED) -> NormResult:
    """The norm of one player from the player's rated ``games`` (opponent's index, score)
    and every player's post-event Regular rating ``posts`` (None: no rating); ``labels``
    name the opponents in a reason."""
    against = [opponent for opponent, _ in games]
    return _norm_of(against, [score for _, score in games], 0, len(games),
                    most_meetings(against, 0, len(games)),
                    [math.nan if r is None else float(r) for r in posts], labels, c)


def _norm_of(opponent: Sequence[int], score: Sequence[float], start: int, end: int,
             most: int, posts: Sequence[float], labels: Sequence[str], c: Constants
             ) -> NormResult:
    """`player_norm` of the games ``start:end`` of the laid-out ``opponent`` (entrant
    indexes) and ``score``, at most ``most`` against one opponent, the post-event ratings
    as floats (NaN: none)."""
    played = end - start
    status = norm_eligibility(played, most, c)
    if status == NORM_FEW_GAMES:
        return not_eligible(f"{played} rated game{'s' if played != 1 else ''}; a norm "
                            f"needs at least {c.norm_min_games:g}")
    if status == NORM_MET_TOO_OFTEN:
        often, times = Counter(opponent[start:end]).most_common(1)[0]
        return not_eligible(f"met {labels[often]} {times} times; a norm allows at most "
                            f"{c.norm_max_meetings:g} games with one opponent")
    counted = [0.0] * played
    m, total = counted_norm_games(opponent, score, start, end, posts, 0, counted)
    opponents = tuple(sorted(counted[:m]))
    best = highest_norm(opponents, m, total, c)
    skipped = played - m
    reason = f"{m} games against opponents with a post-event rating"
    if skipped:
        reason += f" ({skipped} against an opponent without one not counted)"
    made: NormResult = _new(NormResult)  # NormResult(...), its fields set at once
    _set(made, "__dict__", {"code": NORM_CODES[best] if best >= 0 else None,
                            "eligible": True, "reason": reason, "score": total, "games": m,
                            "needed": c.norm_margin,
                            "explain": partial(level_checks, opponents, total, c)})
    return made


class NormGames(NamedTuple):
    """A section's rated games laid out as core/layout.py lays them out: entrant e's games
    are ``first[e]:last[e]`` of ``opponent`` (the opponent's entrant index) and ``score``."""

    first: Sequence[int]
    last: Sequence[int]
    opponent: Sequence[int]
    score: Sequence[float]
    #: per entrant, the most games against one opponent, where the rating counted them
    #: (`records.Prepared.most`); else counted here
    most: Sequence[int] | None = None


def norm_games(entrants: Sequence[Entrant]) -> NormGames:
    """Each entrant's rated games (W, L, D), from all of its rows (a member entered twice
    earns one norm from all its games), laid out as `NormGames`."""
    index = {p.pair: e.position for e in entrants for p in e.rows}
    first: list[int] = []
    last: list[int] = []
    opponent: list[int] = []
    score: list[float] = []
    for e in entrants:
        first.append(len(opponent))
        for p in e.rows:
            for r in p.results:
                if r.code in SCORE and r.opponent in index:
                    opponent.append(index[r.opponent])
                    score.append(SCORE[r.code])
        last.append(len(opponent))
    return NormGames(first, last, opponent, score)


def section_norms(entrants: Sequence[Entrant], posts: Sequence[float | None],
                  reason: str | None, c: Constants = DOCUMENTED,
                  games: NormGames | None = None) -> tuple[NormResult, ...]:
    """The norm of every entrant of a section, from every entrant's post-event Regular
    rating ``posts``; ``reason`` (`section_reason`) when none can earn one. ``games``: the
    section's games as its lineup lays them out, where the caller has it."""
    if reason is not None:
        ineligible = not_eligible(reason)
        return tuple(ineligible for _ in entrants)
    return laid_norms(norm_games(entrants) if games is None else games,
                      [e.first.pair for e in entrants], posts, c)


def laid_norms(laid: NormGames, pairs: Sequence[int], posts: Sequence[float | None],
               c: Constants = DOCUMENTED) -> tuple[NormResult, ...]:
    """The norm of every entrant of a section whose games are laid out (``laid``), named
    by the pair number of its first row (``pairs``), from every entrant's post-event
    Regular rating ``posts``."""
    most = laid.most if laid.most is not None else [
        most_meetings(laid.opponent, laid.first[e], laid.last[e]) for e in range(len(pairs))]
    labels = [f"pair {pair}" for pair in pairs]
    floats = [math.nan if r is None else float(r) for r in posts]
    return tuple(_norm_of(laid.opponent, laid.score, laid.first[e], laid.last[e], most[e],
                          floats, labels, c) for e in range(len(pairs)))


def norms_by_pair(players: Sequence[Player], posts: Mapping[int, float],
                  reason: str | None, c: Constants = DOCUMENTED) -> dict[int, NormResult]:
    """`section_norms` for a section's ``players`` with post-event Regular ratings given by
    pair number (what the ratings office holds), keyed by the pair number of each
    entrant's first row."""
    entrants = merge_entrants(players)
    post_list = [next((posts[p.pair] for p in e.rows if p.pair in posts), None)
                 for e in entrants]
    found = section_norms(entrants, post_list, reason, c)
    return {e.first.pair: norm for e, norm in zip(entrants, found, strict=True)}
