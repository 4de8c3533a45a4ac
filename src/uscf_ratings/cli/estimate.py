"""``uscf estimate``: the web estimator in the terminal, for one player's games.

The options are read into the very fields of the web page's form and checked by the same
function (estimator/form.py), so a value refused on the page is refused here in the same
words, and the same inputs give the same numbers (a test holds the two equal).
"""

from __future__ import annotations

import json
from datetime import date

import click

from ..core.model import System

#: the games ``uscf estimate`` rates at once (the web app's limit is its ``--max-games``)
MAX_GAMES = 1000
#: the form's field names (estimator/form.py) as this command's options
OPTION_OF = {"system": "--system", "date": "--date", "rating": "--rating",
             "N (games)": "--games", "peak rating": "--peak", "floor": "--floor",
             "age group": "--age", "FIDE rating": "--fide", "CFC rating": "--cfc",
             "other US Chess rating": "--other", "other system": "--other",
             "other rating's N": "--other", "Quick rating": "--quick-rating",
             "Quick rating's N": "--quick-games", "total score": "--score", "games": "--game"}
SYSTEMS = [s.value for s in System]


@click.command()
@click.option("--game", "games", multiple=True, metavar="RATING[/QUICK]:RESULT[:N]",
              help="One game: the opponent's rating, your result (W, D or L) and, if known, "
                   "the opponent's N (else 30), such as 1650:W or 1650:D:12. Give it once a "
                   "game. With --score, leave the result out (1650, or 1650::12). In a "
                   "dual-rated event, add the opponent's Quick rating after a slash "
                   "(1650/1600:W) where it differs from his Regular rating.")
@click.option("--rating", default=None, metavar="R",
              help="Your rating in the system (leave it out with --unrated).")
@click.option("--games", "n", default=None, metavar="N",
              help="N, the rated games your rating is based on, if known (else 26, the "
                   "fewest of an established rating).")
@click.option("--peak", default=None, metavar="R",
              help="The highest established rating you have had, if known (else your rating "
                   "is taken as your peak): your peak floor is 200 below it (section 5).")
@click.option("--floor", default=None, metavar="R",
              help="Your floor as US Chess shows it (a prize floor, or one earned), if any.")
@click.option("--unrated", is_flag=True,
              help="You have no rating in the system: your first rating comes from Step 1 "
                   "(--age, --fide, --cfc, --other).")
@click.option("--age", "age_group", default=None, metavar="GROUP",
              help="Unrated: your age in whole years (4 to 25), 'adult' (26 or older) or "
                   "'unknown' (the default); an age of n years counts as n and a half.")
@click.option("--fide", default=None, metavar="R", help="Unrated: your FIDE rating, if any.")
@click.option("--cfc", default=None, metavar="R", help="Unrated: your CFC rating, if any.")
@click.option("--other", multiple=True, metavar="SYSTEM:R[:N]",
              help="Unrated: another US Chess rating of yours, such as Q:1500:20 (one, as "
                   "on the web page).")
@click.option("--score", default=None, metavar="POINTS",
              help="Your total score instead of a result a game, such as 3.5: the estimate "
                   "then assumes your wins came against your lowest-rated opponents.")
@click.option("--system", type=click.Choice(SYSTEMS, case_sensitive=False), default="R",
              show_default=True,
              help="The rating system (R, Q, B: over the board; OR, OQ, OB: online).")
@click.option("--dual", is_flag=True,
              help="A dual-rated event: Regular and Quick at once (give --quick-rating).")
@click.option("--quick-rating", default=None, metavar="R",
              help="Dual-rated: your Quick rating, if you have one.")
@click.option("--quick-games", default=None, metavar="N",
              help="Dual-rated: your Quick rating's N, if known.")
@click.option("--date", "day", default=None, metavar="YYYY-MM-DD",
              help="The event's date, which chooses the rules (default: today).")
@click.option("--json", "as_json", is_flag=True,
              help="The estimate as JSON: each system's rating as `uscf rate --json` explains "
                   "it, the performance ratings, the notes and the norm.")
def estimate_command(games: tuple[str, ...], rating: str | None, n: str | None,
                     peak: str | None, floor: str | None, unrated: bool,
                     age_group: str | None, fide: str | None, cfc: str | None,
                     other: tuple[str, ...], score: str | None, system: str, dual: bool,
                     quick_rating: str | None, quick_games: str | None, day: str | None,
                     as_json: bool) -> None:
    """Estimate your new rating from your games, as the web estimator does.

    Your games are rated against opponents who each play only you, by the rules of the
    event's date; the output explains every step (N', K, E, the bonus, the floors) and,
    for a first rating, what each of your other ratings and your age counted for.

    \b
    uscf estimate --rating 1500 --games 40 --game 1600:W --game 1500:D
    uscf estimate --unrated --age 12 --fide 1500 --game 1600:W --game 1400:L
    uscf estimate --rating 1500 --score 1.5 --game 1600 --game 1500 --game 1450
    """
    from ..core.pipeline import RATE_REFUSALS
    from ..estimator.estimate import estimate
    from ..estimator.form import FormError, parse
    from ..estimator.text import render

    _fits(unrated=unrated, dual=dual, score=score, day=day, given={
        "--rating": rating, "--games": n, "--peak": peak, "--floor": floor, "--age": age_group,
        "--fide": fide, "--cfc": cfc, "--other": other[0] if other else None,
        "--quick-rating": quick_rating,
        "--quick-games": quick_games})
    values = {"system": "R+Q" if dual else system.upper(),
              "date": day or date.today().isoformat(),
              "status": "unrated" if unrated else "rated", "rating": rating or "",
              "games": n or "", "peak": peak or "", "floor": floor or "",
              "age_group": (age_group or "unknown").lower(), "fide": fide or "", "cfc": cfc or "",
              "quick_rating": quick_rating or "", "quick_games": quick_games or "",
              "mode": "total" if score is not None else "games", "score": score or ""}
    if dual and system != "R":
        raise click.UsageError("--dual rates Regular and Quick at once: leave --system out")
    if len(other) > 1:
        raise click.BadParameter("give one other US Chess rating (as the web page takes "
                                 "one)", param_hint="--other")
    if other:
        values.update(_other(other[0]))
    lists = _game_columns(games, dual, score is not None)
    try:
        found = estimate(parse(values, lists, MAX_GAMES))
    except FormError as error:
        raise click.UsageError("\n".join(
            f"{_option(issue.where)}: {issue.message}" for issue in error.issues)) from None
    except RATE_REFUSALS as error:
        raise click.ClickException(str(error)) from None
    if as_json:
        click.echo(json.dumps(found.to_json(), indent=2))
    else:
        click.echo(render(found))


def _option(where: str) -> str:
    """The option a form field's problem is about: ``--game 2`` for "game 2 result"."""
    if where.startswith("game ") and where[5:].split(" ")[0].isdigit():
        return f"--game {where[5:].split(' ')[0]} ({where})"
    return OPTION_OF.get(where, where)


def _other(text: str) -> dict[str, str]:
    """--other SYSTEM:R[:N] as the form's other_* fields."""
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise click.BadParameter(f"{text!r}: expected SYSTEM:RATING or SYSTEM:RATING:N, "
                                 "such as Q:1500:20", param_hint="--other")
    return {"other_system": parts[0].strip().upper(), "other_rating": parts[1],
            "other_games": parts[2] if len(parts) == 3 else ""}


def _game_columns(games: tuple[str, ...], dual: bool, total: bool) -> dict[str, list[str]]:
    """Each --game RATING[/QUICK]:RESULT[:N] as a row of the form's game columns; a usage
    error for a game not in that shape, without a rating, with a Quick rating outside a
    dual-rated event, or with a result beside --score."""
    columns: dict[str, list[str]] = {"opp_rating": [], "opp_quick": [], "result": [],
                                     "opp_games": []}
    for number, text in enumerate(games, 1):
        parts = text.split(":")
        regular, slash, quick = parts[0].partition("/")
        wrong = ("expected RATING:RESULT or RATING:RESULT:N, such as 1650:W or 1650:D:12"
                 if len(parts) > 3 or not regular.strip() else
                 "a Quick rating after the slash is for a dual-rated event (--dual)"
                 if slash and not dual else
                 "with --score, give the opponent's rating alone (1650, or 1650::12 with N)"
                 if total and len(parts) > 1 and parts[1].strip() else "")
        if wrong:
            raise click.BadParameter(f"game {number}, {text!r}: {wrong}", param_hint="--game")
        columns["opp_rating"].append(regular)
        columns["opp_quick"].append(quick)
        columns["result"].append(parts[1] if len(parts) > 1 else "")
        columns["opp_games"].append(parts[2] if len(parts) > 2 else "")
    return columns


def _fits(*, unrated: bool, dual: bool, score: str | None, day: str | None,
          given: dict[str, str | None]) -> None:
    """A usage error for an option the estimate would not use: a rated player's with
    --unrated, an unrated player's without it, a Quick rating without --dual."""
    rated_only = ("--rating", "--games", "--peak", "--floor")
    unrated_only = ("--age", "--fide", "--cfc", "--other")
    unused = [(name, "with --unrated" if name in rated_only else "without --unrated"
               if name in unrated_only else "without --dual")
              for name, value in given.items() if value is not None and (
                  (unrated and name in rated_only) or (not unrated and name in unrated_only)
                  or (not dual and name in ("--quick-rating", "--quick-games")))]
    if unused:
        raise click.UsageError("; ".join(f"{name} is not used {why}" for name, why in unused))
    if day is not None and not day.strip():
        raise click.BadParameter("give the date as YYYY-MM-DD, or leave --date out for today",
                                 param_hint="--date")
    if score is not None and not score.strip():
        raise click.BadParameter("give the total score, such as 2.5", param_hint="--score")
