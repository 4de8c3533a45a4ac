"""A director's own output may show every decimal, and says so when it holds an age.

`uscf rate` prints the ratings unrounded, with the explanation of every step: where a
rating started from a member's birth date (an age-based or blended initial rating,
section 2), those numbers give the age away (docs/web.md, Privacy), so each format says
first that the output is not for publishing. Whether a start used the birth date is one
rule (`core.initial.from_birth_date`), the same the office's public view uses.
"""

from __future__ import annotations

import html
import json
from datetime import date, timedelta

from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.conftest import REPO

from uscf_ratings.cli.main import cli
from uscf_ratings.core.initial import initial_rating, uses_birth_date
from uscf_ratings.core.model import Player, Rating, System
from uscf_ratings.core.rules import rules_for
from uscf_ratings.formats.result_json import PRIVATE_NOTICE

SAMPLE = str(REPO / "examples" / "sample-event.json")  # juniors with birth dates
CLUB = str(REPO / "docs" / "examples" / "club-night.json")  # no birth date


def test_every_format_says_it_holds_an_age() -> None:
    for fmt in ("text", "msa", "html", "json"):
        out = CliRunner().invoke(cli, ["rate", SAMPLE, "--format", fmt])
        assert out.exit_code == 0, out.output
        assert out.stdout.count(PRIVATE_NOTICE.split(":")[0] + ":") == 1, fmt
        if fmt == "json":
            document = json.loads(out.stdout)
            assert list(document) == ["private", "events"]
            assert document["private"] == PRIVATE_NOTICE
        elif fmt == "html":
            shown = html.escape(PRIVATE_NOTICE)
            assert f'<body>\n<p class="private"><strong>{shown}</strong></p>' in out.stdout
        else:
            assert out.stdout.startswith(PRIVATE_NOTICE + "\n\n"), fmt
    out = CliRunner().invoke(cli, ["rate", SAMPLE, "--format", "csv"])
    assert out.exit_code == 0
    assert out.stderr.strip() == PRIVATE_NOTICE  # on stderr: the table stays a table
    assert out.stdout.startswith("section,pair,id,name,system,")


def test_an_output_without_a_birth_date_says_nothing() -> None:
    for fmt in ("text", "msa", "html", "json", "csv"):
        out = CliRunner().invoke(cli, ["rate", CLUB, "--format", fmt])
        assert out.exit_code == 0, out.output
        assert "PRIVATE" not in out.stdout + out.stderr, fmt
    assert list(json.loads(CliRunner().invoke(cli, ["rate", CLUB, "--json"]).stdout)) == [
        "events"]


@settings(max_examples=300, deadline=None)
@given(days_old=st.integers(0, 40 * 366), adult=st.sampled_from([None, True, False]),
       blended=st.booleans(), stale=st.integers(0, 3 * 366),
       end=st.dates(date(2014, 1, 1), date(2026, 6, 30)))
def test_a_start_uses_the_birth_date_exactly_when_the_age_counts(
        days_old: int, adult: bool | None, blended: bool, stale: int, end: date) -> None:
    """By the hand formulas of section 2.3 and section 2 (2024 and 2025 texts): an
    age-based start is 50 x age from 3 to 26, and uses the birth date there only; a
    blended start's P_k is the same at the source's date, D_k days before the end."""
    rules = rules_for(end)
    birth = end - timedelta(days=days_old)
    sources = {System.B: Rating(900.0, 8, end - timedelta(days=stale))} if blended else {}
    with_birth = Player(1, "1", birth_date=birth, adult=adult, ratings=sources)
    without = Player(1, "1", adult=adult, ratings=sources)
    started = initial_rating(with_birth, System.R, rules, end)
    assert not uses_birth_date(initial_rating(without, System.R, rules, end))
    if blended and rules.initialization == "blended":
        age_then = (days_old - stale) / 365.25  # P_k is the age at the source's date
        assert started.method == "blended"
        assert uses_birth_date(started) == (3 <= age_then < 26)
    else:
        age = days_old / 365.25
        assert started.method in ("age", "priority")
        assert uses_birth_date(started) == (started.method == "age" and 3 <= age < 26)
