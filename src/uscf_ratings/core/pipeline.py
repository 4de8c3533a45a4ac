"""Rating a section: the five steps of section 1 of the 2025 text, for each system.

    Step 1  initial ratings for unrated players        (initial.py)
    Step 2  effective games N' = min(N, N*)            (kernels.py)
    Step 3  first estimates for unrated N = 0 players, special formula with N' = 1
    Step 4  intermediate ratings for every player, opponents at pre-event ratings
            (Step 3 for unrated N = 0 opponents, Step 1 for other unrated opponents)
    Step 5  final ratings, opponents at their Step 4 ratings

Each step's rating is raised to 100 if it falls below; personal floors (section 5) then
hold the final rating. For Swiss and round-robin sections the steps are the kernels of
procedure.py over the record layout of layout.py, the same the compiled path runs; this
module adds the explanation around their intermediate values (explanation.py). Matches
(section 7) and foreign FIDE events (section 6) take their own paths in match.py and
foreign.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from . import procedure
from .explanation import explain_group, stored_outcomes
from .foreign import rate_foreign
from .layout import BeforeRow, Columns, Lineup, before_rows, lineup
from .match import rate_match
from .model import SCORE, Rating, Section, SectionType, System
from .norms import NormGames, norm_rules_for, section_norms, section_reason
from .records import Before, Final, Games, Prepared, Trace, columns
from .results import NormResult, Outcome, PlayerResult, RatingResult, SectionResult
from .rules import NoRuleSet, RuleSet, rules_for
from .steps import Entrant, Game, merge_entrants
from .timecontrol import TimeControlError, parse_time_control, systems_for
from .validate import Problem, SectionError, check_section, section_label

#: What `rate_section` may refuse a section for, after it was read: an invalid section,
#: a date before the rules this project covers, a time control no system covers.
#: ValueError covers the rest (a section with neither systems nor a time control).
RATE_REFUSALS = (SectionError, NoRuleSet, TimeControlError, ValueError)
#: the section types rated by the procedure of section 1 (the others: sections 6 and 7)
PROCEDURE_TYPES = (SectionType.SWISS, SectionType.ROUND_ROBIN)
#: what `rate_rows` takes: a lineup, its pre-event ratings and `Before` values (per row)
#: and the section's end date
LineupToRate = tuple[Lineup, Sequence[Rating | None], Sequence[BeforeRow], date]


def rate_section(section: Section, rules: RuleSet | None = None) -> SectionResult:
    """Rate one section in every system it is rated in."""
    check_section(section)
    rules = rules if rules is not None else rules_for(section.start_date)
    systems = section_systems(section, rules)
    entrants = merge_entrants(section.players)
    dual = System.R in systems and System.Q in systems
    per_system: dict[System, list[RatingResult | None]]
    laid_games: NormGames | None = None
    if section.type in PROCEDURE_TYPES:
        laid = lineup(section, rules, systems, entrants)
        per_system, most = rate_lineup(laid, section, rules)
        laid_games = NormGames(laid.first, laid.last, laid.opponent, laid.score, most)
    else:
        games = collect_games(entrants)
        rate = rate_match if section.type is SectionType.MATCH else rate_foreign
        per_system = {s: rate(section, rules, s, entrants, games) for s in systems}
    found = norms_of(section, rules, systems, entrants, per_system, laid_games)
    players = tuple(
        PlayerResult(
            pair=e.first.pair,
            id=e.first.id,
            name=e.first.name,
            ratings={s: r for s in systems if (r := per_system[s][e.position]) is not None},
            pairs=tuple(p.pair for p in e.rows),
            norm=found[e.position],
        )
        for e in entrants
    )
    return SectionResult(section.number, section.name, rules, systems, section.type,
                         section.k, dual, players)


def norms_of(section: Section, rules: RuleSet, systems: Sequence[System],
             entrants: Sequence[Entrant], per_system: dict[System, list[RatingResult | None]],
             games: NormGames | None = None) -> tuple[NormResult, ...]:
    """Every entrant's norm toward the titles (norms.py), from the post-event ratings of
    the system norms are earned in; ``games``: the lineup's games, where it was laid out."""
    reason = section_reason(section.type, section.online, systems, section.start_date)
    norm_rules = norm_rules_for(section.start_date)
    rated = per_system.get(norm_rules.system) if norm_rules is not None else None
    posts = [r.post if r is not None else None for r in rated] if rated is not None \
        else [None] * len(entrants)
    return section_norms(entrants, posts, reason, rules.constants, games)


def rate_lineup(laid: Lineup, section: Section, rules: RuleSet
                ) -> tuple[dict[System, list[RatingResult | None]], Sequence[int]]:
    """Steps 1 to 5 and the floors, with their explanation, for every player of a Swiss
    or round-robin section in each of its systems; and each entrant's most games against
    one opponent, as the bonus test counted them (the norms read them too)."""
    rows, initials = before_rows(laid, laid.ratings, {}, rules, section.end_date)
    before, games, prepared, steps, final = _run(laid, rows)
    rated = {system: explain_group(g, laid, initials, before, games, prepared, steps, final,
                                   section.end_date)
             for g, system in enumerate(laid.systems)}
    # an entrant's games are the same in each system: the first group's rows say it
    return rated, [prepared.most[e] for e in range(laid.size)]


def rate_rows(laid: Lineup, ratings: Sequence[Rating | None], rows: Sequence[BeforeRow],
              end: date) -> tuple[Outcome, ...]:
    """A lineup rated from the pre-event ``ratings`` (per row, with their `Before` values
    ``rows``), without explanations: what the ratings office stores. batch.engine.outcomes
    is the same, compiled."""
    _, games, _, _, final = _run(laid, rows)
    return stored_outcomes(laid, ratings, games, final, end)


def _run(laid: Lineup, rows: Sequence[BeforeRow]
         ) -> tuple[Before, Games, Prepared, tuple[Trace, Trace, Trace], Final]:
    """The procedure's kernels over the lineup's records, as Python lists."""
    gathered = Columns()
    gathered.add(laid, rows)
    terms, before, games = gathered.records()
    size = len(rows)
    prepared = columns(Prepared, size)
    steps = (columns(Trace, size, float("nan")), columns(Trace, size, float("nan")),
             columns(Trace, size, float("nan")))
    final = columns(Final, size)
    for g in range(len(laid.systems)):
        procedure.prepare(g, terms, before, games, prepared, final, laid.constants)
        room = procedure.most_games(g, terms, games)
        procedure.rate(g, terms, before, games, prepared, *steps, final, [0.0] * room,
                       [0.0] * (2 * room + 2), laid.constants)
    return before, games, prepared, steps, final


def section_systems(section: Section, rules: RuleSet) -> tuple[System, ...]:
    """The systems given in the input, else those of the time control (footnote 1)."""
    if section.systems:
        return section.systems
    if section.type is SectionType.FIDE_FOREIGN:
        return (System.R,)
    if section.time_control is None:
        raise SectionError([Problem(section_label(section), None, None,
                                    "neither the rating systems nor a time control is given: "
                                    "name the systems (R, Q, B, OR, OQ, OB) or the time control")])
    return systems_for(parse_time_control(section.time_control), section.online, rules)


def collect_games(entrants: Sequence[Entrant]) -> tuple[tuple[Game, ...], ...]:
    """Each entrant's rated games (W, L, D), from its own rows: the opponent's entrant
    index and the score."""
    index = {p.pair: e.position for e in entrants for p in e.rows}
    return tuple(
        tuple(Game(index[r.opponent], SCORE[r.code]) for p in e.rows for r in p.results
              if r.code in SCORE and r.opponent is not None)
        for e in entrants)
