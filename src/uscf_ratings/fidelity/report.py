"""The fidelity report: rate every real section and compare with the published ratings.

Players are grouped by era (the bonus threshold and initialization method in force), by
system, by whether every player of the section had a pre-event rating, and by whether
the player's N is known (provisional, or established under 1930, where N' = N*). Each
player whose rounded rating misses the published one by more than a point (two-decimal
sources: by more than 0.01) gets a likely cause. The norms follow, against the marks the
crosstables print (norm_agreement.py).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from ..core.formulas import n_star, rounded_rating
from ..core.model import KFactor, System
from ..core.pipeline import rate_section
from ..core.results import RatingResult, SectionResult
from ..core.rules import NoRuleSet
from .norm_agreement import NormAgreement, norms_to_dict, render_norms
from .sources import Published, RealSection

ERAS = (
    (date(2013, 5, 8), "2013-05..2015-05 (B 8, 10)"),
    (date(2015, 6, 1), "2015-06..2017-05 (B 12)"),
    (date(2017, 6, 1), "2017-06..2020-05 (B 14)"),
    (date(2020, 6, 1), "2020-06..2022 (B 14, blended)"),
    (date(2023, 2, 1), "2023-02..2024 (B 12)"),
    (date(2025, 1, 1), "2025- (B 10)"),
)
N_KNOWN_BELOW = 1930  #: N*(R) <= 25 below about this pre-event rating
#: Two-decimal sources publish pre-event ratings rounded to 0.005, which moves a post
#: rating by up to about 0.01: "matches to 0.01" allows one unit in the last place.
DECIMAL_TOLERANCE = 0.01 + 1e-9


def era_of(day: date) -> str:
    label = "before 2013-05-08 (not covered)"
    for start, name in ERAS:
        if day >= start:
            label = name
    return label


@dataclass
class Tally:
    players: int = 0
    exact: int = 0
    within1: int = 0
    causes: Counter[str] = field(default_factory=Counter)

    def add(self, exact: bool, within1: bool, cause: str | None) -> None:
        self.players += 1
        self.exact += exact
        self.within1 += within1
        if cause:
            self.causes[cause] += 1

    def share(self, count: int) -> float:
        return 100.0 * count / self.players if self.players else 0.0


@dataclass
class Report:
    rows: dict[tuple[str, str, str, str], Tally] = field(default_factory=lambda: defaultdict(Tally))
    uncovered_sections: int = 0
    refused: list[str] = field(default_factory=list)
    sections: int = 0
    #: the norms against the published marks (norm_agreement.py)
    norms: NormAgreement = field(default_factory=NormAgreement)

    def headline(self) -> Tally:
        """Over-the-board sections of 2017-06..2020-05 with every player rated, players
        whose N is known: the issue's target (at least 96% within 1)."""
        total = Tally()
        for (era, system, section_kind, n_kind), tally in self.rows.items():
            if (era.startswith("2017-06") and not System(system).online
                    and section_kind == "all rated" and n_kind == "N known"):
                total.players += tally.players
                total.exact += tally.exact
                total.within1 += tally.within1
                total.causes.update(tally.causes)
        return total


def build_report(sections: Iterable[RealSection]) -> Report:
    report = Report()
    for real in sections:
        try:
            result = rate_section(real.section)
        except NoRuleSet:
            report.uncovered_sections += 1
            report.norms.add(real, None)
            continue
        except ValueError as error:
            report.refused.append(f"{real.key}: {str(error).splitlines()[0]}")
            report.norms.add(real, None)
            continue
        report.norms.add(real, result)
        report.sections += 1
        _compare(real, result, report)
    return report


def _compare(real: RealSection, result: SectionResult, report: Report) -> None:
    era = era_of(real.section.start_date)
    near_unrated = {system: near_unrated_players(real, system) for system in result.systems}
    unrated_any = {system: bool(near) for system, near in near_unrated.items()}
    alternative: SectionResult | None = None
    for player in result.players:
        for system, rating in player.ratings.items():
            pub = real.published.get((player.pair, system))
            # a player with no rated game keeps the pre-event rating: nothing to compare
            if pub is None or rating.post is None or rating.m == 0:
                continue
            diff = _difference(rating, pub)
            exact = diff <= (DECIMAL_TOLERANCE if pub.decimals else 0)
            within1 = diff <= (DECIMAL_TOLERANCE if pub.decimals else 1)
            cause = None
            if not within1 or (pub.decimals and not exact):
                if alternative is None and real.section.online:
                    alternative = _with_other_k(real)
                cause = likely_cause(real, rating, pub, alternative, player.pair, system,
                                     near_unrated[system])
            kind = "with unrated" if unrated_any[system] else "all rated"
            n_known = pub.pre_games is not None or (
                pub.pre is not None and n_star(float(pub.pre)) <= 25)
            report.rows[(era, system.value, kind, "N known" if n_known else "N unknown")].add(
                exact, within1, cause)


def near_unrated_players(real: RealSection, system: System) -> set[int]:
    """Pairs within two games of a player unrated in ``system``: Step 4 ratings of their
    opponents, or their own, rest on a start that the crosstable does not show."""
    games = {p.pair: {r.opponent for r in p.results if r.played and r.opponent is not None}
             for p in real.section.players}
    near = {p.pair for p in real.section.players if system not in p.ratings and games[p.pair]}
    for _ in range(2):
        near |= {o for q in near for o in games[q]}
    return near


def _difference(rating: RatingResult, pub: Published) -> float:
    assert rating.post is not None
    if pub.decimals:
        return abs(rating.post - pub.post)
    return abs(rounded_rating(rating.post) - pub.post)


def _with_other_k(real: RealSection) -> SectionResult | None:
    other = KFactor.FULL if real.section.k is KFactor.HALF else KFactor.HALF
    from dataclasses import replace

    try:
        return rate_section(replace(real.section, k=other))
    except ValueError:
        return None


def is_floor_level(value: float) -> bool:
    """A published rating that sits exactly on a floor: 1200..2200 in hundreds (peak,
    prize and OLM floors) or 101..150 (the absolute floor)."""
    return (value % 100 == 0 and 1200 <= value <= 2200) or (value.is_integer() and 100 < value <= 150)


def history_probe(real: RealSection, pair: int, system: System, pub: Published) -> str | None:
    """Re-rate with the player's earlier games all wins, then all losses: a provisional
    player's history is not on the crosstable, and section 4.1's priors change the result.
    Returns the history that reproduces the published rating, if one does."""
    if pub.pre_games is None:
        return None
    return _history_reproducing(real, pair, pair, system, pub)


def opponent_history_probe(real: RealSection, pair: int, system: System, pub: Published
                           ) -> str | None:
    """The same for each provisional opponent of ``pair``: Step 5 rates a player against
    the opponents' Step 4 ratings (2025 text, section 1), which rest on their histories.
    Returns "an opponent's earlier games were all wins" (or losses) where that history of
    one opponent reproduces ``pair``'s published rating."""
    player = next(p for p in real.section.players if p.pair == pair)
    opponents = sorted({r.opponent for r in player.results
                        if r.played and r.opponent is not None})
    for opponent in opponents:
        history = _history_reproducing(real, opponent, pair, system, pub)
        if history is not None:
            return f"an opponent's earlier games were {history}"
    return None


def _history_reproducing(real: RealSection, changed: int, pair: int, system: System,
                         pub: Published) -> str | None:
    """Which history of ``changed`` (all wins, all losses), a provisional player's,
    makes ``pair``'s rating the published ``pub``, if one does."""
    from dataclasses import replace

    players = list(real.section.players)
    index = next(i for i, p in enumerate(players) if p.pair == changed)
    rating = players[index].ratings.get(system)
    if rating is None or not rating.games or rating.established:
        return None
    for name, (wins, draws, losses) in (("all wins", (rating.games, 0, 0)),
                                        ("all losses", (0, 0, rating.games))):
        ratings = dict(players[index].ratings)
        ratings[system] = replace(rating, wins=wins, draws=draws, losses=losses)
        trial = list(players)
        trial[index] = replace(players[index], ratings=ratings)
        try:
            result = rate_section(replace(real.section, players=tuple(trial)))
        except ValueError:
            return None
        other = result.player(pair).ratings.get(system)
        if other is not None and other.post is not None and _difference(other, pub) <= (
                DECIMAL_TOLERANCE if pub.decimals else 0):
            return name
    return None


def likely_cause(real: RealSection, rating: RatingResult, pub: Published,
                 alternative: SectionResult | None, pair: int, system: System,
                 near_unrated: set[int]) -> str:
    """Why a published rating differs from ours, as far as one crosstable can tell."""
    assert rating.post is not None
    if rating.pre is None:
        return "unrated: start not published"
    if pub.post > rating.post and is_floor_level(pub.post):
        return "held at a floor not on the crosstable"
    if pub.pre is not None and abs(pub.post - float(pub.pre)) < 1e-9 and rating.m:
        return "published post equals pre: games not rated for this player"
    if alternative is not None:
        other = alternative.player(pair).ratings.get(system)
        if other is not None and other.post is not None and _difference(other, pub) <= (
                DECIMAL_TOLERANCE if pub.decimals else 1):
            return "rated with the other K (half/full) than the era rule says"
    if pair in near_unrated:
        return "within two games of an unrated player whose start is not published"
    history = history_probe(real, pair, system, pub)
    if history is not None:
        return f"earlier games were {history} (history not on the crosstable)"
    opponent = opponent_history_probe(real, pair, system, pub)
    if opponent is not None:
        return f"{opponent} (history not on the crosstable)"
    if pub.pre is not None and pub.pre_games is None and float(pub.pre) >= N_KNOWN_BELOW:
        return "established above 1930: N unknown"
    return "unexplained"


def render(report: Report) -> str:
    lines = [f"{'era':32} {'sys':3} {'section':13} {'N':9} {'players':>7} {'exact':>6} "
             f"{'within1':>7}"]
    for key in sorted(report.rows):
        tally = report.rows[key]
        era, system, kind, n_kind = key
        lines.append(f"{era:32} {system:3} {kind:13} {n_kind:9} {tally.players:7d} "
                     f"{tally.share(tally.exact):5.1f}% {tally.share(tally.within1):6.1f}%")
    head = report.headline()
    lines += ["", "Target (OTB, 2017-06..2020-05, all players rated, N known): "
              f"{head.players} players, {head.share(head.exact):.1f}% exact, "
              f"{head.share(head.within1):.1f}% within 1"]
    causes: Counter[str] = Counter()
    for tally in report.rows.values():
        causes.update(tally.causes)
    lines += ["", "Residuals by likely cause (all rows):"]
    lines += [f"  {count:6d}  {cause}" for cause, count in causes.most_common()]
    lines += ["", f"Sections rated: {report.sections}; before coverage: "
              f"{report.uncovered_sections}; refused: {len(report.refused)}"]
    lines += [f"  refused {line}" for line in report.refused]
    if report.norms.rule.sections or report.norms.without_marks:
        lines += ["", render_norms(report.norms)]
    return "\n".join(lines)


def report_to_dict(report: Report) -> dict[str, object]:
    head = report.headline()
    return {
        "rows": [
            {"era": era, "system": system, "section": kind, "n": n_kind,
             "players": t.players, "exact": t.exact, "within1": t.within1,
             "causes": dict(t.causes)}
            for (era, system, kind, n_kind), t in sorted(report.rows.items())
        ],
        "target": {"players": head.players, "exact_share": head.share(head.exact),
                   "within1_share": head.share(head.within1)},
        "sections_rated": report.sections,
        "sections_before_coverage": report.uncovered_sections,
        "refused": report.refused,
        "norms": norms_to_dict(report.norms),
    }
