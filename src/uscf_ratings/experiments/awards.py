"""The norms and titles a variant awards over a history.

Norms are counted by level, every player's highest norm in every section (core/norms.py,
from the post-event Regular ratings the variant gives). Titles are counted by title,
the members holding each at the end of the history: each member's Regular sections, in
rating order, go through `core.titles.titles_held` (the titles of `title_status`) with
the variant's constants (five norms by default, National Master at 2200). The chain
(batch/chain.py) keeps each rated Regular row, and rerate.py makes them `TitleEvent`
values; this module turns them into the report's numbers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..core.constants import Constants
from ..core.norms import NORM_CODES
from ..core.titles import TITLE_NAMES, TitleEvent, titles_held

#: every title, in the report's order: the norms titles from the lowest, then the others
TITLE_KEYS: tuple[str, ...] = tuple(TITLE_NAMES)
#: each title's short name, for a table's header
TITLE_SHORT: dict[str, str] = dict(zip(TITLE_KEYS, (
    "4th Cat.", "3rd Cat.", "2nd Cat.", "1st Cat.", "CM", "LM", "SLM", "NM", "OLM"),
    strict=True))


@dataclass(frozen=True)
class Awards:
    """Norms by level (in `NORM_CODES` order) and members holding each title (in
    `TITLE_KEYS` order)."""

    norms: tuple[int, ...] = (0,) * len(NORM_CODES)
    titles: tuple[int, ...] = (0,) * len(TITLE_KEYS)

    def norms_by_code(self) -> dict[str, int]:
        return dict(zip(NORM_CODES, self.norms, strict=True))

    def titles_by_key(self) -> dict[str, int]:
        return dict(zip(TITLE_KEYS, self.titles, strict=True))


def awards_of(norm_levels: Sequence[int], events: Mapping[str, Sequence[TitleEvent]],
              c: Constants) -> Awards:
    """``norm_levels``: the level index of every norm earned (0 = N:4); ``events``: each
    member's Regular sections in rating order."""
    by_level = Counter(norm_levels)
    held: Counter[str] = Counter()
    for member_events in events.values():
        if not could_hold(member_events, c):
            continue
        for title in titles_held(member_events, c):
            held[title.key] += 1
    return Awards(tuple(by_level[i] for i in range(len(NORM_CODES))),
                  tuple(held[key] for key in TITLE_KEYS))


def could_hold(events: Sequence[TitleEvent], c: Constants) -> bool:
    """Whether ``events`` can give any title (with nothing earned before): at least
    ``title_norms`` norms (each counts at the lowest level) and an established rating
    (every norms title needs one), an established rating of ``national_master`` or more,
    or the OLM flag. Members without one hold none, and a history of 100,000 members need
    not go through `titles_held` one by one."""
    norms = sum(1 for e in events if e.norm is not None)
    established = any(e.established and e.rating is not None for e in events)
    return (norms >= c.title_norms and established) or any(
        e.olm or (e.established and e.rating is not None and e.rating >= c.national_master)
        for e in events)
