"""The estimator's fields, read into an `EstimateInput`: the web page's form and the
options of ``uscf estimate`` both come here, so that both check every field alike.

Every field is checked and every problem reported at once, each named by its field
(`FormError`), so the page can show them beside the form the person filled in and the
terminal can name the option.

The fields: ``system`` (a system's code, or `DUAL` for Regular and Quick at once),
``date``, ``status`` (rated or unrated), ``rating`` and ``games`` (N, optional),
``peak`` and ``floor`` (a rated player's, optional), ``quick_rating`` and
``quick_games`` (a dual-rated event), the unrated player's
``age_group``, ``fide``, ``cfc`` and ``other_*``; ``mode`` (``games``: a result per game;
``total``: a total ``score``), and one list per game column: ``opp_rating``,
``opp_games``, ``opp_quick`` and ``result``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import TypeVar

from ..core.domain import FIELDS
from ..core.floors import peak_floor
from ..core.model import System
from .estimate import AGE_GROUPS, DEFAULT_OPPONENT_GAMES, EstimateInput, Game, OtherRating

T = TypeVar("T", int, float)  #: what a numeric field is read as
MAX_N = 100_000
RESULTS = ("W", "D", "L")
DUAL = "R+Q"  #: the ``system`` of a dual-rated event: Regular and Quick at once
CODES = {s.value for s in System}


@dataclass(frozen=True)
class Issue:
    """One field's problem: what is wrong, and the field (as the page labels it)."""

    message: str
    where: str = ""
    #: the field's name in the page's form (``rating``; a game's cell as ``opp_rating-2``,
    #: its row counted from 0), where the page shows the message; "" for the whole form
    field: str = ""


class FormError(ValueError):
    """The fields that could not be used, every one of them (`issues`)."""

    def __init__(self, issues: list[Issue]):
        count = len(issues)
        super().__init__(f"the form has {count} problem{'' if count == 1 else 's'}: "
                         + "; ".join(f"{i.where}: {i.message}" for i in issues))
        self.issues = issues


class Form:
    """A submitted form: single values and lists of values (a list per game column)."""

    def __init__(self, values: Mapping[str, str], lists: Mapping[str, list[str]]):
        self.values = values
        self.lists = lists
        self.issues: list[Issue] = []

    def text(self, name: str) -> str:
        return (self.values.get(name) or "").strip()

    def cell(self, name: str, i: int) -> str:
        """Row ``i`` of game column ``name``; empty where the column is short."""
        column = self.lists.get(name, [])
        return column[i] if i < len(column) else ""

    def number(self, name: str, label: str, convert: Callable[[str], T], low: float, high: float,
               text: str | None = None) -> T | None:
        raw = self.text(name) if text is None else text.strip()
        if not raw:
            return None
        try:
            value = convert(raw)
        except ValueError:
            value = None
        if value is None or not math.isfinite(value):  # "nan" and "inf" convert
            self.issues.append(Issue(f"{raw!r} is not a number", label, name))
            return None
        if not low <= float(value) <= high:
            self.issues.append(Issue(f"{raw} is outside {low:g}..{high:g}", label, name))
            return None
        return value

    def rating(self, name: str, label: str, text: str | None = None,
               domain: str = "Rating.rating") -> float | None:
        """A rating typed in, in the domain of the field ``domain`` (core/domain.py): the
        words an event file's rating out of range gets."""
        value = self.number(name, label, float, -math.inf, math.inf, text)
        if value is None:
            return None
        problem = FIELDS[domain].problem("", value)
        if problem is not None:
            self.issues.append(Issue(problem, label, name))
            return None
        return value

    def games(self, name: str, label: str, text: str | None = None) -> int | None:
        return self.number(name, label, int, 1, MAX_N, text)


def parse(values: Mapping[str, str], lists: Mapping[str, list[str]], max_games: int) -> EstimateInput:
    """The fields (``values``: one value a name; ``lists``: a list a game column) as an
    `EstimateInput`; a `FormError` naming every field that cannot be used."""
    form = Form(values, lists)
    system, dual = _system(form)
    day = _day(form)
    rating = peak = floor = None
    games = None
    others: tuple[OtherRating, ...] = ()
    age_group = form.text("age_group") or "unknown"
    if form.text("status") != "unrated":
        rating = form.rating("rating", "rating")
        games = form.games("games", "N (games)")
        if rating is None and not any(i.where == "rating" for i in form.issues):
            form.issues.append(Issue("give your rating (N too, if you know it), or say that "
                                     "you are unrated", "rating", "rating"))
        peak = form.rating("peak", "peak rating", domain="Rating.peak")
        floor = form.rating("floor", "floor", domain="Rating.floor")
        if rating is not None:
            _floors_below(form, rating, peak, floor)
    else:
        if age_group not in AGE_GROUPS:
            form.issues.append(Issue(f"{age_group!r} is not an age group: give an age from 4 "
                                     "to 25, adult or unknown", "age group", "age_group"))
        others = _others(form, dual)
    quick = form.rating("quick_rating", "Quick rating") if dual else None
    quick_games = form.games("quick_games", "Quick rating's N") if dual else None
    played = _games(form, max_games, dual, total=form.text("mode") == "total")
    total = _total(form, len(played)) if form.text("mode") == "total" else None
    if form.issues:
        raise FormError(form.issues)
    return EstimateInput(System(system), day, rating, games, age_group, others, played,
                         dual=dual, quick_rating=quick, quick_games=quick_games, total=total,
                         peak=peak, floor=floor)


def _system(form: Form) -> tuple[str, bool]:
    """The system's code, and whether the event is dual-rated (Regular and Quick)."""
    system = form.text("system") or "R"
    if system == DUAL:
        return "R", True
    if system not in CODES:
        form.issues.append(Issue(f"{system!r} is not a rating system", "system", "system"))
        return "R", False
    return system, False


def _day(form: Form) -> date:
    """The event's date, within the rules' coverage (the domain of an event's start date,
    core/domain.py); today where none is given."""
    try:
        day = date.fromisoformat(form.text("date")) if form.text("date") else date.today()
    except ValueError:
        form.issues.append(Issue(f"{form.text('date')!r} is not a date as YYYY-MM-DD", "date", "date"))
        return date.today()
    problem = FIELDS["Event.start_date"].problem("", day)
    if problem is not None:
        form.issues.append(Issue(problem, "date", "date"))
    return day


def _floors_below(form: Form, rating: float, peak: float | None, floor: float | None) -> None:
    """A peak and a floor that fit the rating: the peak is the highest rating the player
    has had, and no rating is below its floor (section 5), the peak's floor included."""
    if peak is not None and peak < rating:
        form.issues.append(Issue(f"{peak:g} is below your rating, {rating:g}: the peak is "
                                 "the highest rating you have had", "peak rating", "peak"))
    elif peak is not None and (from_peak := peak_floor(peak)) is not None and from_peak > rating:
        form.issues.append(Issue(
            f"a peak of {peak:g} gives a floor of {from_peak:g} (section 5), above your rating "
            f"{rating:g}: a rating is never below its floor; check the peak", "peak rating",
            "peak"))
    if floor is not None and floor > rating:
        form.issues.append(Issue(f"{floor:g} is above your rating, {rating:g}: a rating is never "
                                 "below its floor (section 5)", "floor", "floor"))


def _others(form: Form, dual: bool) -> tuple[OtherRating, ...]:
    """An unrated player's other ratings: another US Chess rating, FIDE, CFC (Step 1)."""
    others = []
    other = form.text("other_system")
    other_rating = form.rating("other_rating", "other US Chess rating")
    if other and other_rating is not None:
        if other not in CODES:
            form.issues.append(Issue(f"{other!r} is not a rating system", "other system",
                                     "other_system"))
        elif dual and other == System.Q.value:
            form.issues.append(Issue("in a dual-rated event, give your Quick rating in its "
                                     "own field", "other system", "other_system"))
        else:
            other_games = form.games("other_games", "other rating's N")
            others.append(OtherRating(other, other_rating, other_games or 1))
    for source, field in (("FIDE", "fide"), ("CFC", "cfc")):
        value = form.rating(field, f"{source} rating", domain=f"{source.title()}Rating.rating")
        if value is not None:
            others.append(OtherRating(source, value))
    return tuple(others)


def _games(form: Form, max_games: int, dual: bool, total: bool) -> tuple[Game, ...]:
    """One game a row with an opponent's rating; in the total-score mode, without results."""
    games: list[Game] = []
    number = 0  #: the game's number among the rows that hold one
    for i, raw in enumerate(form.lists.get("opp_rating", [])):
        if not raw.strip():
            continue  # an empty row of the form
        number += 1
        label = f"game {number}"
        rating = form.rating(f"opp_rating-{i}", f"{label} opponent's rating", raw)
        n = form.games(f"opp_games-{i}", f"{label} opponent's N", form.cell("opp_games", i))
        quick = form.rating(f"opp_quick-{i}", f"{label} opponent's Quick rating",
                            form.cell("opp_quick", i)) if dual else None
        result = "" if total else form.cell("result", i).strip().upper()
        if not total and result not in RESULTS:
            form.issues.append(Issue(f"{result!r} is not W, D or L", f"{label} result",
                                     f"result-{i}"))
        elif rating is not None:
            games.append(Game(rating, result, n or DEFAULT_OPPONENT_GAMES, quick))
    if not games and not any(i.where.startswith("game") for i in form.issues):
        form.issues.append(Issue("enter at least one game: the opponent's rating"
                                 + ("" if total else " and the result"), "games", "opp_rating-0"))
    if number > max_games:
        form.issues.append(Issue(f"{number} games: at most {max_games} are estimated at once",
                                 "games"))
    return tuple(games)


def _total(form: Form, games: int) -> float | None:
    """The total score: from 0 to the number of games, in halves."""
    score = form.number("score", "total score", float, 0, MAX_N)
    if score is None:
        if not any(i.where == "total score" for i in form.issues):
            form.issues.append(Issue("give your total score, such as 3.5", "total score", "score"))
    elif score * 2 != int(score * 2):
        form.issues.append(Issue(f"{score:g} is not a whole or half point", "total score", "score"))
    elif games and score > games:
        form.issues.append(Issue(f"{score:g} points in {games} games: at most {games}",
                                 "total score", "score"))
    else:
        return score
    return None
