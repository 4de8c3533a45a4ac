"""Our norms against the marks printed on the real crosstables (../shared/uscf_real).

The expected marks are the published ones; the causes of the differences are checked
against the raw section files, read here without the loader.
"""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path

import pytest

from uscf_ratings.core.formulas import rounded_rating
from uscf_ratings.core.model import Player, Result, Section, System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.fidelity.norm_agreement import (
    NONSTANDARD,
    NOT_YET_COMPUTED,
    NOT_YET_COMPUTED_DAYS,
    RATINGS_DIFFER,
    NormAgreement,
    cause_of,
    not_yet_computed,
)
from uscf_ratings.fidelity.report import build_report
from uscf_ratings.fidelity.sources import RealSection, load_all


@pytest.fixture(scope="module")
def agreement(shared: Path) -> NormAgreement:
    return build_report(load_all(shared)).norms


@pytest.fixture(scope="module")
def raw(shared: Path) -> dict[str, dict]:  # type: ignore[type-arg]
    return {p.stem: json.loads(p.read_text())
            for p in (shared / "uscf_real" / "msa_sections").glob("*.json")}


def test_the_issue_target(agreement: NormAgreement) -> None:
    """The rule on the published ratings: at least 99% of the players' marks equal the
    published ones and at least 98% of the published marks reproduced (issue 38), over
    the folder's 6,738 marks and 22,089 players without one."""
    rule = agreement.rule
    assert (rule.marks, rule.total - rule.marks) == (6738, 22089)
    assert rule.total_matched >= 0.99 * rule.total
    assert rule.reproduced >= 0.98 * rule.marks


def test_end_to_end_target(agreement: NormAgreement) -> None:
    """End to end (our own post-event ratings, sections from 2013-05-08): at least 98%
    of the published marks reproduced, and at least 99% of the players' marks equal in
    the sections whose page could already show norms."""
    ours = agreement.end_to_end
    assert ours.sections > 700 and ours.marks > 3000
    assert ours.reproduced >= 0.98 * ours.marks
    too_soon = sum(1 for d in ours.cases if d.cause == NOT_YET_COMPUTED)
    assert ours.total_matched >= 0.99 * (ours.total - too_soon)


def test_recent_sections_show_no_norm(shared: Path, agreement: NormAgreement) -> None:
    """The ratings-API standings have no norm field: they are counted apart, not as
    players without a mark."""
    files = sorted((shared / "recent" / "sections").glob("*.json"))
    for path in files:
        assert "norm" not in path.read_text().lower()
    assert agreement.without_marks == len(files)


def test_not_yet_computed_is_real(agreement: NormAgreement, raw: dict) -> None:  # type: ignore[type-arg]
    """Each section said not yet computed shows no mark at all and was rated at most a
    week before its page was saved; and no section that shows marks was rated so
    recently, so the cause hides no section that could have shown them."""
    def age(data: dict) -> int | None:  # type: ignore[type-arg]
        rated = (data.get("processed") or {}).get("rated")
        if rated is None:
            return None
        return (date.fromisoformat(data["source"]["commit_date"][:10])
                - date.fromisoformat(rated)).days

    keys = {d.key for tally in (agreement.rule, agreement.end_to_end) for d in tally.cases
            if d.cause == NOT_YET_COMPUTED}
    assert keys
    for key in keys:
        data = raw[key]
        assert not any(p.get("norm") for p in data["players"]), key
        days = age(data)
        assert days is not None and 0 <= days <= NOT_YET_COMPUTED_DAYS, key
    with_marks = [days for data in raw.values()
                  if any(p.get("norm") for p in data["players"])
                  and (days := age(data)) is not None]
    assert min(with_marks) > NOT_YET_COMPUTED_DAYS


def test_nonstandard_is_real(agreement: NormAgreement, raw: dict) -> None:  # type: ignore[type-arg]
    """Each difference put on a non-standard code is in a section with a result code
    outside W L D X F H B U."""
    for tally in (agreement.rule, agreement.end_to_end):
        for d in tally.cases:
            if d.cause == NONSTANDARD:
                codes = {r["result"] for p in raw[d.key]["players"] for r in p["results"]}
                assert codes - set("WLDXFHBU"), d


def test_ratings_differ_is_real(shared: Path, agreement: NormAgreement) -> None:
    """Each difference put on our post-event ratings: our rounded Regular rating of the
    player or of one of the player's opponents is not the published one."""
    cases = [d for d in agreement.end_to_end.cases if d.cause == RATINGS_DIFFER]
    assert cases
    sections = {r.key: r for r in load_all(shared) if r.key in {d.key for d in cases}}
    for d in cases:
        real = sections[d.key]
        result = rate_section(real.section)
        player = next(p for p in real.section.players if p.pair == d.pair)
        around = {d.pair} | {r.opponent for r in player.results if r.opponent is not None}
        differ = []
        for p in result.players:
            ours = p.ratings.get(System.R)
            pub = real.published.get((p.pair, System.R))
            if set(p.pairs) & around and ours is not None and ours.post is not None \
                    and pub is not None and rounded_rating(ours.post) != pub.post:
                differ.append(p.pair)
        assert differ, d


# --- the causes on sections made by hand -----------------------------------------------

def _real(marks: dict[int, str | None], rated_days_before: int,
          codes: str = "W") -> RealSection:
    saved = date(2021, 6, 29)
    players = tuple(Player(pair, str(10000000 + pair),
                           results=(Result(1, codes, 3 - pair if pair < 3 else None),))
                    for pair in marks)
    section = Section(1, saved - timedelta(30), saved - timedelta(30), players,
                      systems=(System.R,))
    return RealSection("made", "msa", section, {}, marks,
                       frozenset({1}) if codes not in "WLDXFHBU" else frozenset(),
                       saved - timedelta(rated_days_before), saved)


@pytest.mark.parametrize("days", [0, 1, NOT_YET_COMPUTED_DAYS])
def test_a_page_saved_within_a_week_shows_no_norm_yet(days: int) -> None:
    real = _real({1: None, 2: None}, days)
    assert not_yet_computed(real)
    assert cause_of(real, None, "N:4") == NOT_YET_COMPUTED


@pytest.mark.parametrize("marks, days", [
    ({1: "N:4", 2: None}, 1),  # one mark shown: norms were computed
    ({1: None, 2: None}, NOT_YET_COMPUTED_DAYS + 1),  # rated long enough before
    ({1: None, 2: None}, -1),  # rated after the page was saved: no such page
])
def test_a_page_that_could_show_norms(marks: dict[int, str | None], days: int) -> None:
    real = _real(marks, days)
    assert not not_yet_computed(real)
    assert cause_of(real, marks[1], marks[1]) == RATINGS_DIFFER
    assert cause_of(real, marks[1], "N:S") == "unexplained"


def test_no_dates_no_claim() -> None:
    real = replace(_real({1: None, 2: None}, 1), rated=None)
    assert not not_yet_computed(real)


def test_a_question_mark_code() -> None:
    real = _real({1: "N:C", 2: None}, 100, codes="?")
    assert cause_of(real, "N:C", "N:1") == NONSTANDARD


def test_the_command_adds_the_norms_after_the_ratings(shared: Path) -> None:
    """`uscf fidelity` prints the ratings report as before, then the norms; `--json` has
    the ratings keys as before and `norms` last."""
    from click.testing import CliRunner

    from uscf_ratings.cli.main import cli

    text = CliRunner().invoke(cli, ["fidelity", "--shared", str(shared)])
    assert text.exit_code == 0, text.output
    ratings, norms = text.output.split("\nNorms: ", 1)
    assert ratings.startswith("era ") and "\nSections rated: " in ratings
    assert "(a) The rule on the published post-event ratings: 882 sections" in norms
    assert "Published marks reproduced: " in norms
    as_json = CliRunner().invoke(cli, ["fidelity", "--shared", str(shared), "--json"])
    figures = json.loads(as_json.output)
    assert list(figures) == ["rows", "target", "sections_rated", "sections_before_coverage",
                             "refused", "norms"]
    rule = figures["norms"]["rule"]
    assert (rule["marks"], rule["players"]) == (6738, 28827)
    assert sum(level["players"] for level in rule["levels"]) == rule["players"]
