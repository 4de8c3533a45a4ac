"""Check a section US Chess published against its own numbers (`uscf verify`).

Each section of the records (formats/ratings_api.py) is rated from its published
pre-event ratings, by the rule set of its date, and each player's post-event rating is
compared with the published one. Two decimals are published, the pre-event ratings
rounded to 0.005, so that "agrees" means within `DECIMAL_TOLERANCE` (0.01). For every
other player the likely cause is named, by the fidelity report's own tests
(fidelity/report.py: `likely_cause`): an unrated player's start, a floor, a history or an
N that the records do not publish. What the reading had to assume is said with the
section.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..core.model import System
from ..core.pipeline import rate_section
from ..core.results import SectionResult
from ..core.rules import NoRuleSet
from ..formats.ratings_api import ApiEvent, ApiSection
from .report import DECIMAL_TOLERANCE, likely_cause, near_unrated_players
from .sources import Published, RealSection

#: the cause of a player with no rated game whose published rating moved all the same
MOVED_WITHOUT_GAMES = "no rated game here, yet the published rating moved"


@dataclass(frozen=True)
class PlayerCheck:
    """One player's published post-event rating in one system, against ours."""

    pair: int
    member: str
    name: str
    system: System
    pre: float | None  #: published; None: unrated before the event
    published: float
    ours: float | None  #: None: we give no rating (an unrated player with no game)
    games: int  #: rated games in the section
    cause: str | None  #: why they differ; None where they agree

    @property
    def agrees(self) -> bool:
        return self.cause is None

    @property
    def difference(self) -> float | None:
        return None if self.ours is None else self.ours - self.published


@dataclass(frozen=True)
class SectionCheck:
    number: int
    name: str
    rule_set: str  #: the rule set the section was rated by, or "" if refused
    checks: tuple[PlayerCheck, ...]
    assumed: tuple[str, ...]
    refused: str | None = None  #: why the section could not be rated
    #: our rating of the section (None if refused), for the norms of `verify_titles`
    result: SectionResult | None = field(default=None, compare=False, repr=False)

    @property
    def agreeing(self) -> int:
        return sum(1 for c in self.checks if c.agrees)


@dataclass(frozen=True)
class EventCheck:
    source: str  #: the file read
    event_id: str
    name: str
    sections: tuple[SectionCheck, ...]
    assumed: tuple[str, ...]

    @property
    def checks(self) -> list[PlayerCheck]:
        return [c for s in self.sections for c in s.checks]


def verify(records: ApiEvent, source: str) -> EventCheck:
    """Rate every section of ``records`` and compare with what was published."""
    return EventCheck(source, records.event.id, records.event.name,
                      tuple(_verify_section(s, source) for s in records.sections),
                      records.assumed)


def _verify_section(api: ApiSection, source: str) -> SectionCheck:
    section = api.section
    real = RealSection(f"{source}#{section.number}", "api", section, {
        key: Published(p.post, p.pre, p.pre_games, p.pre is None, 2)
        for key, p in api.published.items()})
    try:
        result = rate_section(section)
    except (NoRuleSet, ValueError) as error:
        return SectionCheck(section.number, section.name, "", (), api.assumed,
                            refused=str(error).splitlines()[0])
    return SectionCheck(section.number, section.name, result.rules.name,
                        tuple(_checks(api, real, result)), api.assumed, result=result)


def _checks(api: ApiSection, real: RealSection, result: SectionResult
            ) -> Iterable[PlayerCheck]:
    near = {system: near_unrated_players(real, system) for system in result.systems}
    for player in result.players:
        for system in result.systems:
            published = api.published.get((player.pair, system))
            rating = player.ratings.get(system)
            if published is None or rating is None:
                continue
            ours = rating.post
            cause: str | None = None
            if ours is None or abs(ours - published.post) > DECIMAL_TOLERANCE:
                if rating.m == 0 or ours is None:
                    cause = MOVED_WITHOUT_GAMES
                else:
                    cause = likely_cause(real, rating, real.published[(player.pair, system)],
                                         None, player.pair, system, near[system])
            yield PlayerCheck(player.pair, published.member, published.name, system,
                              published.pre, published.post, ours, rating.m, cause)


def causes(checks: Iterable[PlayerCheck]) -> Counter[str]:
    """How many ratings differ for each cause."""
    return Counter(c.cause for c in checks if c.cause is not None)


def summary(events: Iterable[EventCheck]) -> str:
    """One line: ratings compared, agreeing, and the causes of the others."""
    checks = [c for e in events for c in e.checks]
    agree = sum(1 for c in checks if c.agrees)
    line = (f"{len(checks)} published rating{'s' if len(checks) != 1 else ''} compared: "
            f"{agree} agree to 0.01")
    differ = causes(checks)
    if differ:
        line += f", {len(checks) - agree} differ (" + "; ".join(
            f"{count} {cause}" for cause, count in differ.most_common()) + ")"
    return line


def to_dict(check: EventCheck) -> dict[str, object]:
    """``check`` as JSON data (``uscf verify --json``)."""
    return {
        "source": check.source, "event": check.event_id, "name": check.name,
        "assumed": list(check.assumed),
        "sections": [{
            "number": s.number, "name": s.name, "rule_set": s.rule_set,
            "assumed": list(s.assumed), "refused": s.refused,
            "players": [{
                "pair": c.pair, "member": c.member, "name": c.name,
                "system": c.system.value, "pre": c.pre, "published": c.published,
                "ours": None if c.ours is None else round(c.ours, 6), "games": c.games,
                "agrees": c.agrees, "cause": c.cause} for c in s.checks],
        } for s in check.sections],
    }
