"""The estimator's HTML form, read into an `estimator.EstimateInput`.

Every field is checked and every problem reported at once, each named by its field, so
the page can show them beside the form the person filled in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import TypeVar

from ..core.model import System
from .estimator import AGE_GROUPS, DEFAULT_OPPONENT_GAMES, EstimateInput, Game, OtherRating
from .problems import Issue, Problem

T = TypeVar("T", int, float)  #: what a numeric field is read as
MAX_RATING = 3500.0
RESULTS = ("W", "D", "L")


class Form:
    """A submitted form: single values and lists of values (a list per game column)."""

    def __init__(self, values: Mapping[str, str], lists: Mapping[str, list[str]]):
        self.values = values
        self.lists = lists
        self.issues: list[Issue] = []

    def text(self, name: str) -> str:
        return (self.values.get(name) or "").strip()

    def number(self, name: str, label: str, convert: Callable[[str], T], low: float, high: float,
               text: str | None = None) -> T | None:
        raw = self.text(name) if text is None else text.strip()
        if not raw:
            return None
        try:
            value = convert(raw)
        except ValueError:
            self.issues.append(Issue(f"{raw!r} is not a number", label))
            return None
        if not low <= float(value) <= high:
            self.issues.append(Issue(f"{raw} is outside {low:g}..{high:g}", label))
            return None
        return value


def _rating(form: Form, name: str, label: str, text: str | None = None) -> float | None:
    return form.number(name, label, float, 1, MAX_RATING, text)


def parse(values: Mapping[str, str], lists: Mapping[str, list[str]], max_games: int) -> EstimateInput:
    form = Form(values, lists)
    system = form.text("system") or "R"
    if system not in {s.value for s in System}:
        form.issues.append(Issue(f"{system!r} is not a rating system", "system"))
        system = "R"
    try:
        day = date.fromisoformat(form.text("date")) if form.text("date") else date.today()
    except ValueError:
        form.issues.append(Issue(f"{form.text('date')!r} is not a date as YYYY-MM-DD", "date"))
        day = date.today()
    rating = games = None
    others: list[OtherRating] = []
    age_group = form.text("age_group") or "unknown"
    if form.text("status") != "unrated":
        rating = _rating(form, "rating", "rating")
        games = form.number("games", "N (games)", int, 1, 100_000)
        if rating is None or games is None:
            form.issues.append(Issue("give the rating and N, or choose unrated", "rating"))
    else:
        if age_group not in AGE_GROUPS:
            form.issues.append(Issue(f"{age_group!r} is not an age group", "age group"))
        other = form.text("other_system")
        other_rating = _rating(form, "other_rating", "other US Chess rating")
        if other and other_rating is not None:
            if other not in {s.value for s in System}:
                form.issues.append(Issue(f"{other!r} is not a rating system", "other system"))
            else:
                other_games = form.number("other_games", "other rating's N", int, 1, 100_000)
                others.append(OtherRating(other, other_rating, other_games or 1))
        for source, field in (("FIDE", "fide"), ("CFC", "cfc")):
            value = _rating(form, field, f"{source} rating")
            if value is not None:
                others.append(OtherRating(source, value))
    played = _games(form, max_games)
    if form.issues:
        raise Problem(422, f"the form has {len(form.issues)} problem(s): "
                      + "; ".join(f"{i.where}: {i.message}" for i in form.issues), form.issues)
    return EstimateInput(System(system), day, rating, games, age_group, tuple(others), played)


def _games(form: Form, max_games: int) -> tuple[Game, ...]:
    ratings = form.lists.get("opp_rating", [])
    counts = form.lists.get("opp_games", [])
    results = form.lists.get("result", [])
    games: list[Game] = []
    for i, raw in enumerate(ratings):
        if not raw.strip():
            continue  # an empty row of the form
        label = f"game {len(games) + 1}"
        rating = _rating(form, "", f"{label} opponent's rating", raw)
        n = form.number("", f"{label} opponent's N", int, 1, 100_000,
                        counts[i] if i < len(counts) else "")
        result = (results[i] if i < len(results) else "").strip().upper()
        if result not in RESULTS:
            form.issues.append(Issue(f"{result!r} is not W, D or L", f"{label} result"))
        elif rating is not None:
            games.append(Game(rating, result, n or DEFAULT_OPPONENT_GAMES))
    if not games and not any(i.where.startswith("game") for i in form.issues):
        form.issues.append(Issue("enter at least one game: the opponent's rating and the result",
                                 "games"))
    if len(games) > max_games:
        form.issues.append(Issue(f"{len(games)} games: this server takes at most {max_games}",
                                 "games"))
    return tuple(games)
