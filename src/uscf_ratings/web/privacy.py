"""What the open pages and endpoints may show of a rating: nothing that gives an age away.

Birth dates and contact details are never shown: many members are minors. The office's
tables hold no contact details, and no page or endpoint reads the birth date column. But
the numbers of a rating carry the age too:

* an age-based initial rating is R0 = 50 x age (section 2.3): R0 to one decimal gives the
  age, and with the event's date the birth date, to the day; to whole points, a week. So
  it is **withheld**, with the initial rating that equals it;
* a blended start (2024 and 2025 texts, section 2) weights its sources by
  exp(0.06 (z - 6) D/365.25) with z = (X - P)/350 and P = 50 x age at the source's
  date: P, z, the staleness factor and the weight are **withheld**, and where P came
  from a birth date so is R0: to whole points it left a birth date to 10 days where
  two sources far apart were dated far apart;
* of a player whose start used the birth date, N' and K are withheld too: once N
  exceeds N* (section 3), N' = N* is a function of R0, and K = 800/(N' + m) to two
  decimals gives it back;
* every number of the steps moves with such a start, and faster than the post-event
  ratings do: the player's Step 3 estimate (R0's special formula with N' = 1), each
  opponent's Step 4 (which takes that estimate as the opponent's rating: its E,
  K(S - E), bonus and rating), each Step 5 that takes such a Step 4 rating, and every
  list of opponents' ratings used. Shown to two decimals, an opponent's K(S - E) and
  bonus left the birth date to 1 or 2 days; even to whole points, an opponent's Step 4
  rating left it to 3 days (tests/web/test_privacy_adversary.py). So in a system of a
  section where any player's start used the birth date (`private_start`), the steps'
  numbers are **withheld for every player** of the section (`STEP_SHOWN` stays: which
  formula, N', K), with a note saying why;
* what stays is what US Chess publishes and must be public: every rating (pre, post, R0
  of other starts, floors, peaks, list entries) to **whole points**, half up, and the
  games after the event; N' and S to **two decimals**; and in a section with no start
  from a birth date, the steps too (their ratings to whole points; K, E, K(S - E) and
  the bonus to two decimals), as no number there depends on one. The post-event ratings to whole
  points narrow a junior's birth date by themselves, and the adversary measures how far:
  what the rest of the view adds never leaves fewer than 30 days beyond that
  (docs/web.md, Privacy, has the measured table).

`public_section` applies all of it to one section (whether a player of the section
started from the birth date needs the section); `public_ratings` to a player's ratings
alone.

>>> view = public_rating({"R0": 520.0342, "pre": None, "post": 688.4121, "N": 0,
...     "initial": {"rating": 520.0342, "games": 0, "method": "age",
...     "detail": "age-based rating (section 2.3): age 10.40: 50 x age, within 100..1300",
...     "sources": [{"source": "age", "rating": 520.0342, "games": 0}]}, "steps": []})
>>> view["R0"], view["post"], view["initial"]["rating"]
(None, 688, None)
>>> view["initial"]["detail"]
"age-based rating (section 2.3): from the member's age, which is private (R0 withheld)"
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterable
from typing import Any

from ..core.formulas import round_half_up, rounded_rating
from ..core.initial import AGE_IN_TEXT as AGE_TEXT
from ..core.initial import from_birth_date

AGE_DETAIL = ("age-based rating (section 2.3): from the member's age, which is private "
              "(R0 withheld)")
BLENDED_NOTE = ("; P, z, staleness factors and weights are not shown: they depend on "
                "the member's age")
BLENDED_PRIVATE = ("; R0 (withheld), P, z, staleness factors and weights are not shown: "
                   "they depend on the member's age")
#: What else a start from the birth date withholds of its own player: N' (N* is a
#: function of R0 once N exceeds it) and K = 800/(N' + m), which give R0 back.
OWN_WITHHELD = frozenset({"R0", "N_eff", "K"})
RATING_IN_TEXT = re.compile(r"(\b(?:rating|converted to) )(\d+\.\d+)")
#: Keys whose values are ratings (whole points) and statistics (two decimals).
RATINGS = {"pre", "post", "post_2dp", "R0", "rating", "unfloored", "R0_adjusted", "peak",
           "floor", "absolute", "olm", "office", "floor_lowered_from", "floor_lowered_to"}
FIGURES = {"K", "E", "change", "bonus", "N_eff", "S_adjusted", "S"}
#: What a step still shows in a section where a player started from the birth date:
#: which formula, with which N' and K; none of the numbers an opponent's rating or R0
#: goes into.
STEP_SHOWN = frozenset({"step", "formula", "N_eff", "K", "prior", "bonus_eligible"})
STEPS_WITHHELD = ("the steps' ratings, E, K(S - E), bonus, R0' and S' are withheld: a "
                  "player of this section started from the member's age, which is "
                  "private, and these numbers would give it away")
#: What a blended source shows of its weighting: nothing.
BLENDED_HIDDEN = ("age_rating", "z", "staleness_factor", "weight")


def whole(value: Any) -> Any:
    """A rating to whole points (half up), as published; anything else unchanged."""
    if isinstance(value, float) and math.isfinite(value):
        return rounded_rating(value)
    return value


def two_decimals(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return round_half_up(value, 2)
    return value


def from_age(explanation: dict[str, Any]) -> bool:
    """Whether R0 is 50 x age of a birth date (an age-based start that used one)."""
    initial = explanation.get("initial") or {}
    return initial.get("method") == "age" and private_start(explanation)


def private_start(explanation: dict[str, Any]) -> bool:
    """Whether the player's Step 1 used the birth date (`initial.from_birth_date`): an
    age-based R0 = 50 x age (section 2.3), or a blended start whose weights used
    P = 50 x age at a source's date (2024 and 2025 texts, section 2)."""
    initial = explanation.get("initial") or {}
    return from_birth_date(initial.get("method"), initial.get("rating"),
                           str(initial.get("detail", "")),
                           (s.get("age_rating") for s in initial.get("sources") or []))


def _initial(initial: dict[str, Any], age_based: bool, private: bool) -> None:
    method = initial.get("method")
    detail = str(initial.get("detail", ""))
    if age_based:
        initial["rating"] = None
        initial["detail"] = AGE_DETAIL
        for source in initial.get("sources") or []:
            source["rating"] = None
        return
    if method == "age":  # 750 or 1300: say why without the age
        if "under 3" in detail:
            detail = AGE_TEXT.sub("age", detail)
        else:
            detail = AGE_TEXT.sub("age 26 or more", detail, count=1)
    if method == "blended":
        names = ", ".join(f"{s.get('source')} {whole(s.get('rating'))}"
                          for s in initial.get("sources") or [])
        note = BLENDED_PRIVATE if private else BLENDED_NOTE
        detail = f"weighted average of {names} (2025 text, section 2){note}"
        for source in initial.get("sources") or []:
            for key in BLENDED_HIDDEN:
                source.pop(key, None)
    initial["detail"] = RATING_IN_TEXT.sub(lambda m: m.group(1) + str(whole(float(m.group(2)))),
                                           detail)
    initial["rating"] = None if private else whole(initial.get("rating"))
    for source in initial.get("sources") or []:
        source["rating"] = whole(source.get("rating"))


def _numbers(node: Any) -> Any:
    """Ratings to whole points and figures to two decimals, everywhere in ``node``."""
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key in RATINGS:
                out[key] = whole(value)
            elif key in FIGURES:
                out[key] = two_decimals(value)
            elif key == "opponents":
                out[key] = [whole(o) for o in value]
            else:
                out[key] = _numbers(value)
        return out
    if isinstance(node, list):
        return [_numbers(item) for item in node]
    return node


def _withhold_steps(steps: list[dict[str, Any]], own: bool) -> None:
    """Every number of the steps that an opponent's rating or R0 goes into: withheld;
    ``own``: the player's own start used the birth date (`OWN_WITHHELD` too)."""
    for step in steps:
        for key in step:
            if key == "opponents":
                step[key] = [None] * len(step[key])
            elif key not in STEP_SHOWN or (own and key in OWN_WITHHELD):
                step[key] = None


def public_rating(explanation: dict[str, Any], private_section: bool = False
                  ) -> dict[str, Any]:
    """One rating explanation (``rating_to_dict``'s shape) as the public may see it.
    ``private_section``: a player of the section started from the birth date in this
    system (see `public_section`); the player's own such start counts too."""
    out = copy.deepcopy(explanation)
    age_based = from_age(out)
    own = private_start(out)
    private = private_section or own
    if out.get("initial"):
        _initial(out["initial"], age_based, own)
    if own:
        for key in OWN_WITHHELD & out.keys():
            out[key] = None
    if "post_2dp" in out:  # shown as the post-event rating is, not rounded twice
        out["post_2dp"] = out.get("post")
    notes = [AGE_TEXT.sub("age", note) for note in out.get("notes") or []]
    if private and out.get("steps"):
        _withhold_steps(out["steps"], own)
        notes.append(STEPS_WITHHELD)
    out["notes"] = notes
    initial = out.pop("initial", None)
    shown: dict[str, Any] = _numbers(out)
    shown["initial"] = initial
    return shown


def public_ratings(ratings: dict[str, dict[str, Any]], private: Iterable[str] = ()
                   ) -> dict[str, dict[str, Any]]:
    """A player's ratings by system; ``private``: the systems in which a player of the
    section started from the birth date."""
    withheld = set(private)
    return {system: public_rating(r, system in withheld) for system, r in ratings.items()}


def private_systems(players: Iterable[dict[str, Any]]) -> set[str]:
    """The systems of a section in which some player's start used the birth date."""
    return {system for p in players for system, r in (p.get("ratings") or {}).items()
            if private_start(r)}


def public_section(section: dict[str, Any]) -> dict[str, Any]:
    """A section (players with ``ratings``: system -> explanation) with every player's
    ratings made public; in a system where a player started from the birth date, the
    steps' numbers withheld for every player of the section."""
    players = section.get("players") or []
    private = private_systems(players)
    out = dict(section)
    out["players"] = [p | {"ratings": public_ratings(p.get("ratings") or {}, private)}
                      | public_norm(p, NORM_SYSTEM in private) for p in players]
    return out


#: the system whose post-event ratings a norm counts (core/norms.py)
NORM_SYSTEM = "R"
NORM_WITHHELD = ("E and S - E are not shown: they count an opponent's post-event rating "
                 "that started from a member's age")


def public_norm(player: dict[str, Any], private: bool) -> dict[str, Any]:
    """A player's ``norm_explanation`` made public; {} when the player has none. The code,
    the levels earned, S and the games stay: US Chess publishes the code beside the
    total. E sums the table's terms of the opponents' unrounded post-event ratings, and
    moves with a junior's start as the steps do: where a player's Regular start used the
    birth date (``private``), E and S - E are withheld for every player, as the steps'
    numbers are, with a note; elsewhere they are shown to two decimals, as the steps' E."""
    norm = player.get("norm_explanation")
    if not norm:
        return {}
    levels = [level | ({"expected": None, "margin": None} if private else
                       {"expected": two_decimals(level["expected"]),
                        "margin": two_decimals(level["margin"])})
              for level in norm.get("levels") or []]
    return {"norm_explanation": norm | {"levels": levels}
            | ({"withheld": NORM_WITHHELD} if private else {})}


def public_player(found: dict[str, Any]) -> dict[str, Any]:
    """`queries.player` made public: ratings, peaks and history to whole points."""
    out = copy.deepcopy(found)
    for r in out["ratings"].values():
        r["rating"], r["peak"] = whole(r["rating"]), whole(r["peak"])
    for h in out["history"]:
        h["pre"], h["post"] = whole(h["pre"]), whole(h["post"])
    return out
