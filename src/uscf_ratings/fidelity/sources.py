"""Read the real rated sections used as ground truth into the core model.

Two layouts: the MSA crosstables of ``shared/uscf_real/msa_sections`` (rounded ratings,
1992-2021) and the ratings-API standings of ``shared/recent/sections`` (two decimals,
2025-2026). Each section comes with the published post-event ratings to compare with.

What a crosstable does not show is filled in as follows, and the report says which
players it touches: N of an established player is unknown and taken as 50, so that
N' = N* (exact when N* <= 25, that is for pre-event ratings under about 1930); history
counts are unknown; an unrated player's start is computed from what the crosstable shows
(ratings in the section's other systems), which is often less than the office knew.

The MSA crosstables also print each player's norm mark beside the total (``N:4`` ..
``N:S``); `RealSection.norms` keeps it by pair, with the day the section was rated and
the day its page was saved (a page shows norms only some days after rating). The
ratings-API standings carry no norm: their `norms` is None.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..core.model import KFactor, Player, Rating, Result, Section, SectionType, System

UNKNOWN_ESTABLISHED_GAMES = 50
#: the result codes of the rules; the MSA pages also print ``?`` (read as unplayed)
KNOWN_CODES = frozenset("WLDXFHBU")
ONLINE_FULL_K_FROM = date(2020, 6, 1)


@dataclass(frozen=True)
class Published:
    """A published post-event rating of one player in one system."""

    post: float
    pre: float | None
    pre_games: int | None  #: the P number; None for established or unrated players
    unrated: bool
    decimals: int  #: 0 for MSA crosstables, 2 for ratings-API standings


@dataclass(frozen=True)
class RealSection:
    key: str  #: file name without .json
    source: str  #: "msa" or "recent"
    section: Section
    published: dict[tuple[int, System], Published] = field(default_factory=dict)
    #: the norm mark printed beside each pair's total ("N:4" .. "N:S", or None for no
    #: mark); None when the source shows no norms at all (the ratings-API standings)
    norms: dict[int, str | None] | None = None
    #: pairs with a result code the rules do not know (the MSA pages' ``?``), read as
    #: an unplayed round
    nonstandard: frozenset[int] = frozenset()
    rated: date | None = None  #: the day US Chess rated the section (processed.rated)
    saved: date | None = None  #: the day the page was saved (source.commit_date)


def k_for(online: bool, start: date, policy: str) -> KFactor:
    """Which K a real section was rated with. The pages do not say; online sections
    before June 2020 match only with half K (the 2004 page), later ones mostly with full K.
    ``policy`` is "era" (that rule), "full" or "half"."""
    if policy == "full":
        return KFactor.FULL
    if policy == "half":
        return KFactor.HALF
    return KFactor.HALF if online and start < ONLINE_FULL_K_FROM else KFactor.FULL


def load_msa(path: Path, k_policy: str = "era") -> RealSection:
    data = json.loads(path.read_text())
    end = date.fromisoformat(data["end_date"]) if data.get("end_date") else date(2015, 6, 1)
    dates = re.findall(r"\d{4}-\d\d-\d\d", data.get("section_dates") or "")
    start = date.fromisoformat(dates[0]) if dates else end
    systems = tuple(System(s) for s in data["rating_systems"])
    online = systems[0].online
    kind = SectionType.SWISS
    if data["tnmt_type_code"] == "M" and data["num_players"] == 2:
        kind = SectionType.MATCH
    elif data.get("column_layout") == "opponent_columns":
        kind = SectionType.ROUND_ROBIN
    players = []
    published: dict[tuple[int, System], Published] = {}
    norms: dict[int, str | None] = {}
    nonstandard: set[int] = set()
    for p in data["players"]:
        norms[p["pair_no"]] = p.get("norm")
        if any(c["result"] not in KNOWN_CODES for c in p["results"]):
            nonstandard.add(p["pair_no"])
        ratings = {}
        for code, r in (p.get("ratings") or {}).items():
            system = System(code)
            if r.get("pre_rating") is not None and not r.get("pre_unrated"):
                games = r.get("pre_provisional_games") or UNKNOWN_ESTABLISHED_GAMES
                ratings[system] = Rating(float(r["pre_rating"]), games)
            if r.get("post_rating") is not None:
                published[(p["pair_no"], system)] = Published(
                    float(r["post_rating"]), r.get("pre_rating"),
                    r.get("pre_provisional_games"), bool(r.get("pre_unrated")), 0)
        results = tuple(
            Result(c["round"], c["result"] if c["result"] in KNOWN_CODES else "U",
                   c.get("opponent_pair_no"))
            for c in p["results"]
        )
        players.append(Player(p["pair_no"], p.get("id") or "", p.get("name") or "",
                              ratings=ratings, results=results))
    section = Section(
        number=data.get("section_no") or 1, name=data.get("section_name") or "",
        start_date=start, end_date=end, players=tuple(players),
        time_control=data.get("time_control"), online=online, type=kind, systems=systems,
        k=k_for(online, start, k_policy),
    )
    processed = data.get("processed") or {}
    saved = str((data.get("source") or {}).get("commit_date") or "")[:10]
    return RealSection(path.stem, "msa", section, published, norms, frozenset(nonstandard),
                       date.fromisoformat(processed["rated"]) if processed.get("rated") else None,
                       date.fromisoformat(saved) if saved else None)


_CELL = re.compile(r"^([WLDXFHBU])(\d*)$")


def load_recent(path: Path, k_policy: str = "era") -> RealSection:
    data = json.loads(path.read_text())
    start, end = date.fromisoformat(data["start_date"]), date.fromisoformat(data["end_date"])
    systems = tuple(System(s) for s in data["rating_systems"])
    players = []
    published: dict[tuple[int, System], Published] = {}
    for p in data["players"]:
        ratings = {}
        for code, r in p["ratings"].items():
            system = System(code)
            if r.get("pre") is not None and not r.get("pre_unrated"):
                games = r.get("pre_provisional_games") or UNKNOWN_ESTABLISHED_GAMES
                ratings[system] = Rating(float(r["pre"]), games)
            if r.get("post") is not None:
                published[(p["pair"], system)] = Published(
                    float(r["post"]), r.get("pre"), r.get("pre_provisional_games"),
                    bool(r.get("pre_unrated")), 2)
        results = []
        for rnd, cell in enumerate(p["results"], start=1):
            match = _CELL.match(cell)
            if match is None:
                raise ValueError(f"{path}: pair {p['pair']} round {rnd}: cell {cell!r}")
            results.append(Result(rnd, match[1], int(match[2]) if match[2] else None))
        players.append(Player(p["pair"], p.get("id") or "", ratings=ratings,
                              results=tuple(results)))
    section = Section(
        number=data["section_no"], name=data.get("section_name") or "", start_date=start,
        end_date=end, players=tuple(players), online=systems[0].online, systems=systems,
        k=k_for(systems[0].online, start, k_policy),
    )
    return RealSection(path.stem, "recent", section, published)


def load_all(shared: Path, k_policy: str = "era") -> list[RealSection]:
    """Every real section under ``shared`` (the folder holding uscf_real and recent)."""
    found = [load_msa(p, k_policy) for p in sorted((shared / "uscf_real" / "msa_sections").glob("*.json"))]
    found += [load_recent(p, k_policy) for p in sorted((shared / "recent" / "sections").glob("*.json"))]
    return found


