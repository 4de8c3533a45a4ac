"""Norm agreement: the norms we compute against the marks printed on real crosstables.

An MSA crosstable prints each player's norm beside the total (``N:4`` .. ``N:S``, or
nothing); docs/norms.md has the rule. Two computations, both reported:

- **the rule** (``rule``): core.norms over the *published* post-event Regular ratings, in
  every section with marks. It measures the norm rule alone, apart from the ratings.
- **end to end** (``end_to_end``): the norms `rate_section` gives, in the sections the
  engine has rating rules for. It measures what a user gets: our own post-event ratings.

Each player is counted at the level of the published mark ("none": no mark). A player
whose mark differs from ours gets one cause, derived from the section's data:

- `NOT_YET_COMPUTED`: the section shows no mark at all, and US Chess rated it at most
  `NOT_YET_COMPUTED_DAYS` days before its page was saved. US Chess shows norms about a
  week after rating (issue 38). In ../shared/uscf_real the sections rated 1 to 5 days
  before their page was saved show no mark where the rule gives many, and the most
  recently rated section that shows marks was rated 16 days before (tests/fidelity);
- `NONSTANDARD`: the section has a result code the rules do not know (the pages' ``?``),
  read here as an unplayed round: the game US Chess counted is not known;
- `RATINGS_DIFFER` (end to end only): the rule on the published post-event ratings gives
  the published mark, ours do not: the difference is in the ratings (fidelity/report.py);
- `UNEXPLAINED` otherwise, each listed by section and pair.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from ..core.model import System
from ..core.norms import NORM_CODES, norms_by_pair, section_reason
from ..core.results import SectionResult
from ..core.steps import merge_entrants
from .sources import RealSection

NOT_YET_COMPUTED = "norms not yet computed on the page"
NONSTANDARD = "non-standard result code in the section"
RATINGS_DIFFER = "our post-event ratings differ"
UNEXPLAINED = "unexplained"
CAUSES = (NOT_YET_COMPUTED, NONSTANDARD, RATINGS_DIFFER, UNEXPLAINED)
#: "the official pages show norms only a week after rating" (issue 38)
NOT_YET_COMPUTED_DAYS = 7
NONE = "none"  #: the level of a player with no mark
LEVELS = (NONE, *NORM_CODES)


class Difference(NamedTuple):
    """One player whose mark is not the published one."""

    cause: str
    key: str  #: the section (file name)
    pair: int
    published: str  #: a level of `LEVELS`
    ours: str


@dataclass
class NormTally:
    """One computation's agreement, by the level of the published mark."""

    sections: int = 0
    players: Counter[str] = field(default_factory=Counter)
    matched: Counter[str] = field(default_factory=Counter)
    cases: list[Difference] = field(default_factory=list)

    @property
    def differences(self) -> Counter[tuple[str, str, str]]:
        """(cause, published level, our level) -> players."""
        return Counter((d.cause, d.published, d.ours) for d in self.cases)

    @property
    def unexplained(self) -> list[str]:
        return [f"{d.key} pair {d.pair}: published {d.published}, ours {d.ours}"
                for d in self.cases if d.cause == UNEXPLAINED]

    @property
    def total(self) -> int:
        return sum(self.players.values())

    @property
    def total_matched(self) -> int:
        return sum(self.matched.values())

    @property
    def marks(self) -> int:
        """Published marks."""
        return self.total - self.players[NONE]

    @property
    def reproduced(self) -> int:
        """Published marks we give at the same level."""
        return self.total_matched - self.matched[NONE]

    def by_cause(self) -> Counter[str]:
        found: Counter[str] = Counter()
        for (cause, _, _), count in self.differences.items():
            found[cause] += count
        return found


@dataclass
class NormAgreement:
    """Both computations over a folder of real sections."""

    rule: NormTally = field(default_factory=NormTally)
    end_to_end: NormTally = field(default_factory=NormTally)
    #: sections whose source shows no norm (the ratings-API standings): not compared
    without_marks: int = 0

    def add(self, real: RealSection, result: SectionResult | None) -> None:
        """One real section; ``result`` is `rate_section`'s, None where it was not rated."""
        if real.norms is None:
            self.without_marks += 1
            return
        by_rule = rule_norms(real)
        _tally(self.rule, real, by_rule, by_rule)
        if result is not None:
            ours = {pair: p.norm.code if p.norm is not None else None
                    for p in result.players for pair in p.pairs}
            _tally(self.end_to_end, real, ours, by_rule)


def rule_norms(real: RealSection) -> dict[int, str | None]:
    """The rule on the published post-event Regular ratings: each pair's norm code (a
    member entered twice: every row gets the member's one norm)."""
    section = real.section
    posts = {pair: pub.post for (pair, system), pub in real.published.items()
             if system is System.R}
    reason = section_reason(section.type, section.online, section.systems or (),
                            section.start_date)
    found = norms_by_pair(section.players, posts, reason)
    return {p.pair: found[e.first.pair].code
            for e in merge_entrants(section.players) for p in e.rows}


def not_yet_computed(real: RealSection) -> bool:
    """The page was saved too soon after rating to show norms: no mark at all, rated at
    most `NOT_YET_COMPUTED_DAYS` days before the page was saved."""
    if real.norms is None or any(real.norms.values()):
        return False
    if real.rated is None or real.saved is None:
        return False
    return 0 <= (real.saved - real.rated).days <= NOT_YET_COMPUTED_DAYS


def cause_of(real: RealSection, published: str | None, by_rule: str | None) -> str:
    """Why our mark differs from the ``published`` one (``by_rule``: the rule's mark on
    the published ratings)."""
    if not_yet_computed(real):
        return NOT_YET_COMPUTED
    if real.nonstandard:
        return NONSTANDARD
    if by_rule == published:
        return RATINGS_DIFFER
    return UNEXPLAINED


def _tally(tally: NormTally, real: RealSection, ours: dict[int, str | None],
           by_rule: dict[int, str | None]) -> None:
    assert real.norms is not None
    tally.sections += 1
    for pair, published in real.norms.items():
        level = published or NONE
        mine = ours.get(pair)
        tally.players[level] += 1
        if mine == published:
            tally.matched[level] += 1
            continue
        tally.cases.append(Difference(cause_of(real, published, by_rule.get(pair)), real.key,
                                      pair, level, mine or NONE))


def _share(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


TITLES = {
    "rule": "(a) The rule on the published post-event ratings",
    "end_to_end": "(b) End to end: the norms rate_section gives",
}


def render_norms(agreement: NormAgreement) -> str:
    """The norms section of `uscf fidelity`."""
    lines = ["Norms: our marks against the published ones (N:4 .. N:S beside the total)"]
    if agreement.without_marks:
        lines.append(f"  {agreement.without_marks} ratings-API sections show no norm: "
                     "not compared")
    for name, tally in (("rule", agreement.rule), ("end_to_end", agreement.end_to_end)):
        lines += ["", f"{TITLES[name]}: {tally.sections} sections",
                  f"  {'level':5} {'players':>7} {'matched':>7} {'share':>7}"]
        for level in LEVELS:
            lines.append(f"  {level:5} {tally.players[level]:7d} {tally.matched[level]:7d} "
                         f"{_share(tally.matched[level], tally.players[level]):6.2f}%")
        lines.append(f"  {'all':5} {tally.total:7d} {tally.total_matched:7d} "
                     f"{_share(tally.total_matched, tally.total):6.2f}%")
        lines.append(f"  Published marks reproduced: {tally.reproduced} of {tally.marks} "
                     f"({_share(tally.reproduced, tally.marks):.2f}%)")
        lines.append("  Differences by cause (published -> ours: players):")
        causes = tally.by_cause()
        for cause in CAUSES:
            if not causes[cause]:
                continue
            kinds = sorted(((p, o, n) for (c, p, o), n in tally.differences.items()
                            if c == cause), key=lambda k: (LEVELS.index(k[0]),
                                                           LEVELS.index(k[1])))
            lines.append(f"  {causes[cause]:6d}  {cause}: " + ", ".join(
                f"{p} -> {o}: {n}" for p, o, n in kinds))
            if cause == UNEXPLAINED:
                lines += [f"            {line}" for line in tally.unexplained]
    return "\n".join(lines)


def norms_to_dict(agreement: NormAgreement) -> dict[str, object]:
    """The norms section of `uscf fidelity --json`."""
    def one(tally: NormTally) -> dict[str, object]:
        return {
            "sections": tally.sections,
            "levels": [{"level": level, "players": tally.players[level],
                        "matched": tally.matched[level]} for level in LEVELS],
            "players": tally.total, "matched": tally.total_matched,
            "marks": tally.marks, "reproduced": tally.reproduced,
            "differences": [{"cause": c, "published": p, "ours": o, "players": n}
                            for (c, p, o), n in sorted(tally.differences.items())],
            "unexplained": tally.unexplained,
        }

    return {"sections_without_marks": agreement.without_marks,
            "rule": one(agreement.rule), "end_to_end": one(agreement.end_to_end)}
