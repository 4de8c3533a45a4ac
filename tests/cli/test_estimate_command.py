"""``uscf estimate``: the web estimator in the terminal. The numbers are worked by hand
from the 2025 text (sections 2.1, 3, 4.2 and 5); that they equal the web page's on the
same inputs is held in tests/web/test_web_estimator_pages.py."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

from uscf_ratings.cli.main import cli

DAY = "2026-08-01"  #: the 2025 rules: B = 10, blended initialization, FIDE by the 2024 formula


def run(*args: str) -> Result:
    return CliRunner().invoke(cli, ["estimate", "--date", DAY, *args])


def test_a_rated_players_step_4_as_worked_by_hand() -> None:
    """1500 (N 40) beats a 1600 and draws a 1500. N* for 1500 is 16.5685 (section 3,
    worked in tests/estimator/test_estimate.py), so N' = 16.5685 and K = 800/(16.5685 + 2)
    = 43.0838. E = 1/(1 + 10^(100/400)) + 1/2 = 0.359935 + 0.5 = 0.8599; K(S - E) =
    43.0838 x (1.5 - 0.859935) = 27.5764; Step 4 = 1527.58 (m = 2: no bonus)."""
    done = run("--rating", "1500", "--games", "40", "--game", "1600:W", "--game", "1500:D")
    assert done.exit_code == 0, done.output
    assert "N, N'      40, 16.5685" in done.output
    assert "K 43.0838, E 0.8599, K(S-E) 27.5764, bonus 0: 1527.58" in done.output
    data = json.loads(run("--rating", "1500", "--games", "40", "--game", "1600:W",
                          "--game", "1500:D", "--json").output)
    step4 = data["parts"][0]["explanation"]["steps"][0]
    assert round(step4["rating"], 2) == 1527.58


def test_a_first_rating_says_the_conversion_and_that_the_age_did_not_count() -> None:
    """FIDE 1500 in 2026: -1073 + 1.5667 x 1500 = 1277.05 (2024 text, section 2.1). The
    only source, so R0 = 1277.05 on N = 5 (FIDE 2000 or lower: Game Factor 5). A
    12-year-old's age-based rating, 50 x 12.5 = 625, is not averaged in."""
    done = run("--unrated", "--age", "12", "--fide", "1500", "--game", "1600:W",
               "--game", "1400:L")
    assert done.exit_code == 0, done.output
    flat = " ".join(done.output.split())
    assert "Your FIDE rating 1500 counts as 1277.05: FIDE conversion -1073 + 1.5667 FIDE" in flat
    assert "your age-based rating is 625.05 (section 2.3). It is not averaged in" in flat
    assert "R0 1277.05" in flat and "N, N' 5, 5" in flat
    assert "FIDE 1500 -> 1277.05, weight 5" in flat


def test_the_peak_given_sets_the_floor() -> None:
    """1520 (N 50) loses four games to 1520s. Without a peak the rating is its own peak:
    floor 1300 (1520 - 200 = 1320, down to the hundred). With a peak of 1790 the floor is
    1500 (1590 down to the hundred, section 5), above Step 5's 1448.24, so it holds."""
    games = [arg for _ in range(4) for arg in ("--game", "1520:L")]
    without = json.loads(run("--rating", "1520", "--games", "50", *games, "--json").output)
    assert without["parts"][0]["explanation"]["floors"]["floor"] == 1300.0
    assert without["parts"][0]["explanation"]["floor_applied"] is None
    done = run("--rating", "1520", "--games", "50", "--peak", "1790", *games)
    assert "floor      1500, the peak floor held the rating" in done.output
    assert "1520.00 -> 1500.00, shown as 1500" in done.output


def test_a_total_score_assumes_the_wins_against_the_lowest_rated() -> None:
    done = run("--rating", "1500", "--score", "1.5", "--game", "1600", "--game", "1400",
               "--game", "1500", "--json")
    assert done.exit_code == 0, done.output
    data = json.loads(done.output)
    assert [g["result"] for g in data["games"]] == ["L", "W", "D"]
    assert data["parts"][0]["other_order_post"] is not None


def test_every_problem_names_its_option() -> None:
    done = run("--rating", "abc", "--peak", "90", "--game", "1600:X", "--game", "1500:W")
    assert done.exit_code == 2
    assert "--rating: 'abc' is not a number" in done.output
    assert "--peak: 90: expected a number from 100" in done.output
    assert "--game 1 (game 1 result): 'X' is not W, D or L" in done.output
    assert "Traceback" not in done.output


def test_a_game_not_in_the_shape_asked_is_refused() -> None:
    done = run("--rating", "1500", "--game", "1600:W:12:3")
    assert done.exit_code == 2
    assert "game 1, '1600:W:12:3': expected RATING:RESULT or RATING:RESULT:N" in done.output


@pytest.mark.parametrize("day", ["1990-01-01", "2999-12-31"])
def test_a_date_the_rules_do_not_cover_is_refused_at_its_option(day: str) -> None:
    """The rules this project covers start on 2013-05-08 (the rules table's first row);
    a section may start up to ten years after their last change (core/domain.py)."""
    done = CliRunner().invoke(cli, ["estimate", "--date", day, "--rating", "1500",
                                    "--game", "1600:W"])
    assert done.exit_code == 2
    assert f"--date: {day}: expected a date from 2013-05-08" in done.output
    assert "Traceback" not in done.output


@pytest.mark.parametrize(("options", "said"), [
    (["--rating", "1500", "--floor", "1800"], "--floor: 1800 is above your rating, 1500"),
    (["--rating", "1500", "--peak", "1800"],
     "--peak: a peak of 1800 gives a floor of 1600 (section 5), above your rating 1500"),
    (["--rating", "nan"], "--rating: 'nan' is not a number"),
    (["--rating", "1500", "--game", "1600:W", "--game", "1500:X"],
     "--game 2 (game 2 result): 'X' is not W, D or L"),
])
def test_what_cannot_be_is_refused(options: list[str], said: str) -> None:
    """A floor above the rating, or a peak whose floor (peak - 200, down to the hundred,
    section 5: 1800 gives 1600) is: a rating is never below its floor. A game's number is
    its place among the games given."""
    done = run(*options, *([] if "--game" in options else ["--game", "1400:L"]))
    assert done.exit_code == 2 and said in done.output, done.output


@pytest.mark.parametrize(("options", "said"), [
    (["--unrated", "--rating", "1500", "--game", "1600:W"], "--rating is not used with --unrated"),
    (["--rating", "1500", "--fide", "1500", "--game", "1600:W"],
     "--fide is not used without --unrated"),
    (["--rating", "1500", "--quick-rating", "1450", "--game", "1600:W"],
     "--quick-rating is not used without --dual"),
    (["--rating", "1500", "--game", "1600/1550:W"], "a Quick rating after the slash is for a "
                                                    "dual-rated event (--dual)"),
    (["--rating", "1500", "--score", "1", "--game", "1600:L", "--game", "1500"],
     "with --score, give the opponent's rating alone"),
    (["--rating", "1500", "--game", "/1500:W"], "expected RATING:RESULT or RATING:RESULT:N"),
    (["--unrated", "--other", "Q:1500", "--other", "B:1600", "--game", "1600:W"],
     "give one other US Chess rating"),
])
def test_an_option_the_estimate_would_not_use_is_refused(options: list[str], said: str) -> None:
    """Nothing given is dropped without a word: an option that does not apply to what
    was asked is a usage error naming it."""
    done = run(*options)
    assert done.exit_code == 2 and said in done.output, done.output
