"""Ratings-API records built by hand from the OpenAPI schema (recorded/README.md says why
none is real): a member's sections as an event saved by `uscf fetch`, and the member's
norms and awards (NormDto, MemberAwardDto), for `uscf verify`'s norms and titles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uscf_ratings.formats.ratings_api import BUNDLE_MARK

POINTS = {"Win": 1.0, "Loss": 0.0, "Draw": 0.5}
OTHER_SIDE = {"Win": "Loss", "Loss": "Win", "Draw": "Draw"}


def _row(ordinal: int, member: str, pre: float, post: float, cells: list[dict[str, Any]]
         ) -> dict[str, Any]:
    return {"ordinal": ordinal, "memberId": member, "lastName": f"PLAYER{ordinal}",
            "firstName": "A", "score": sum(POINTS[c["outcome"]] for c in cells),
            "roundOutcomes": cells,
            "ratings": [{"ratingSystem": "R", "preRatingDecimal": pre,
                         "postRatingDecimal": post, "postProvisionalGameCount": None}]}


def star(number: int, member: str | None, day: str,
         games: Sequence[tuple[float, float, str] | tuple[float, float, str, int]],
         member_pre: float = 1400.0) -> dict[str, Any]:
    """A Regular Swiss section of one day where ``member`` (ordinal 1) plays each game of
    ``games`` (opponent's pre-event rating, opponent's published post-event rating, the
    member's outcome, and the opponent's ordinal where the member meets one again), each
    opponent playing the member alone. ``member`` None: two others play one game."""
    rows: list[dict[str, Any]] = []
    mine: list[dict[str, Any]] = []
    opponents: dict[int, tuple[float, float, list[dict[str, Any]]]] = {}
    for at, (pre, post, outcome, *again) in enumerate(games, 1):
        ordinal = again[0] if again else len(opponents) + 2
        mine.append({"roundNumber": at, "outcome": outcome, "opponentOrdinal": ordinal})
        opponents.setdefault(ordinal, (pre, post, []))[2].append(
            {"roundNumber": at, "outcome": OTHER_SIDE[outcome], "opponentOrdinal": 1})
    if member is not None:
        rows.append(_row(1, member, member_pre, member_pre, mine))
    else:
        opponents = {1: (1500.0, 1500.0, [{"roundNumber": 1, "outcome": "Draw",
                                           "opponentOrdinal": 2}]),
                     2: (1500.0, 1500.0, [{"roundNumber": 1, "outcome": "Draw",
                                           "opponentOrdinal": 1}])}
    for ordinal, (pre, post, cells) in sorted(opponents.items()):
        rows.append(_row(ordinal, f"4{number:03d}{ordinal:04d}", pre, post, cells))
    return {"section": {"number": number, "name": f"SECTION {number}", "startDate": day,
                        "endDate": day, "ratingSystem": "R", "format": "Swiss"},
            "standings": [{"items": rows, "offset": 0, "pageSize": 100,
                           "hasNextPage": False}]}


def event(event_id: str, sections: list[dict[str, Any]]) -> dict[str, Any]:
    days = [s["section"]["startDate"] for s in sections]
    return {"format": BUNDLE_MARK, "source": "written by hand", "event": {
        "id": event_id, "name": "A HAND-BUILT EVENT", "startDate": min(days),
        "endDate": max(days)}, "sections": sections}


def norm(level: str, status: str, event_id: str, section: int, day: str,
         played: int = 4, **more: Any) -> dict[str, Any]:
    """A NormDto."""
    return {"level": level, "status": status, "score": 4.0, "expected": 2.5,
            "postRating": 1500, "postType": "Established", "games": played,
            "playedGames": played, "sectionNumber": section,
            "event": {"id": event_id, "name": "A HAND-BUILT EVENT", "startDate": day,
                      "endDate": day, "stateCode": "VA"}} | more


def award(kind: str, day: str, event_id: str | None = None, section: int | None = None,
          category: str = "NormsTitle") -> dict[str, Any]:
    """A MemberAwardDto."""
    return {"id": f"01KAWARD{kind.upper()}", "category": category, "type": kind,
            "winCount": None, "ratingSource": "R", "date": day,
            "event": None if event_id is None else {"id": event_id, "name": "A HAND-BUILT "
                                                    "EVENT", "startDate": day,
                                                    "endDate": day, "stateCode": "VA"},
            "sectionNumber": section}


def titles(member: str, norms: list[dict[str, Any]], awards: list[dict[str, Any]],
           page: int = 100) -> dict[str, Any]:
    """What `uscf fetch --member ID --titles` saves: awards in pages of ``page``."""
    pages = [{"items": awards[at:at + page], "offset": at, "pageSize": page,
              "hasNextPage": at + page < len(awards)}
             for at in range(0, max(len(awards), 1), page)]
    return {"format": BUNDLE_MARK, "source": "written by hand", "member": member,
            "member_norms": {"items": norms}, "member_awards": pages}
