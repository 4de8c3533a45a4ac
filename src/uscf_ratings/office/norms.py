"""The norms the office stores: each entrant's highest norm in a rated lineup.

The compiled path computes them in the call that rates the lineups
(`batch.engine.rate_lineups_and_norms`); where the extra ``[fast]`` is not installed,
`lineup_norms` gives the same from the lineup's games and the Regular outcomes, through
`core.norms.laid_norms` itself. A match or a foreign event is rated by
`core.pipeline.rate_section`, whose players carry their norm.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from ..core.layout import Lineup
from ..core.norms import NormGames, laid_norms, norm_rules_for
from ..core.pipeline import LineupToRate
from ..core.pipeline import rate_lineups as rate_in_python
from ..core.results import Outcome, SectionResult


def lineup_norms(laid: Lineup, found: Sequence[Outcome], end: date) -> dict[int, str]:
    """Each entrant's norm code by the pair number of its first row (none: not there),
    from the post-event ratings of the outcomes ``found`` in the system norms are earned
    in (`core.norms.laid_norms`, over the lineup's games, as `rate_section` reads them)."""
    rules = norm_rules_for(end)
    if rules is None or rules.system not in laid.systems:
        return {}
    post = {o.pair: o.post for o in found if o.system is rules.system}
    found_norms = laid_norms(NormGames(laid.first, laid.last, laid.opponent, laid.score),
                             laid.pairs, [post.get(pair) for pair in laid.pairs],
                             laid.constants)
    return {pair: norm.code for pair, norm in zip(laid.pairs, found_norms, strict=True)
            if norm.code is not None}


def rate_lineups_and_norms(lineups: Sequence[LineupToRate], earn: Sequence[bool]
                           ) -> tuple[list[tuple[Outcome, ...]], list[dict[int, str]]]:
    """`batch.engine.rate_lineups_and_norms`, run by Python (`core.pipeline.rate_lineups`
    and `lineup_norms`)."""
    found = rate_in_python(lineups)
    return found, [lineup_norms(lineup[0], outcomes, lineup[3]) if wanted else {}
                   for lineup, outcomes, wanted in zip(lineups, found, earn, strict=True)]


def result_norms(result: SectionResult) -> dict[int, str]:
    """The norm codes of a section rated by `core.pipeline.rate_section`, by pair."""
    return {p.pair: p.norm.code for p in result.players
            if p.norm is not None and p.norm.code is not None}
