"""The norm codes of our crosstables on real sections: those US Chess published beside the
total on its MSA pages (../shared/uscf_real/msa_sections, the ``norm`` field).

The sample: every section that is Regular over the board, complete, and ends from 2017 on
and before June 2021: 291 sections, 5,252 players, rated in about 4 seconds. The pages
were saved at the end of June 2021, and US Chess adds norms some time after rating: 12
of the 13 such sections of June 2021 carry no mark at all, so that month is left out.

Our crosstable counts the opponents' post-event ratings that WE compute. Where those are
the published ones (to the whole point the pages show) and the core reproduces a
player's published mark from the published post ratings, the crosstable must print the
published mark: that is each writer's check. Elsewhere a rating a point off can move a
norm across the margin, so there only the share is held (measured on the sample: see
`AGREEING_SHARE`; 5,241 of the 5,252 players, 99.8%).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from uscf_ratings.core.formulas import rounded_rating
from uscf_ratings.core.model import Event, System
from uscf_ratings.core.norms import norms_by_pair, section_reason
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.results import SectionResult
from uscf_ratings.core.validate import SectionError
from uscf_ratings.fidelity.sources import RealSection, load_msa
from uscf_ratings.formats import outputs

#: the least share of the sections the engine rates (a match whose player's N the page
#: does not show, taken as 50, can be refused: a match needs an established rating)
RATED_SHARE = 0.99
#: the least share of the sample's players whose printed code is the published one
AGREEING_SHARE = 0.99


def sample(shared: Path) -> list[tuple[RealSection, dict[int, str | None]]]:
    chosen = []
    for path in sorted((shared / "uscf_real" / "msa_sections").glob("*.json")):
        data = json.loads(path.read_text())
        if not ("2017-01-01" <= (data.get("end_date") or "") < "2021-06-01"
                and data["rating_systems"][0] == "R" and data["complete"]):
            continue
        chosen.append((path, data))
    return [(load_msa(path), {p["pair_no"]: p["norm"] for p in data["players"]})
            for path, data in chosen]


def printed(event: Event, result: SectionResult) -> dict[str, dict[int, str | None]]:
    """The code each writer prints for each pair: CSV, MSA text, JSON."""
    rows = csv.DictReader(io.StringIO(outputs.render_csv(event, [result])))
    by_csv = {int(r["pair"]): r["norm"] or None for r in rows}
    by_text: dict[int, str | None] = {}
    for line in outputs.render_text(event, [result]).splitlines():
        if line[:4].strip().isdigit() and line[4] == " ":  # "   6 Name  ID   3.0 N:2 W   2"
            pair = int(line[:4])
            found = [word for word in line.split() if word.startswith("N:")]
            by_text[pair] = found[0] if found else None
    document = json.loads(outputs.render_json(event, [result]))
    by_json = {pair: p["norm"] for p in document["sections"][0]["players"]
               for pair in p["pairs"]}
    return {"csv": by_csv, "text": by_text, "json": by_json}


def test_the_crosstables_print_the_published_norms(shared: Path) -> None:
    checked = agreeing = players = refused = 0
    chosen = sample(shared)
    for real, published in chosen:
        section = real.section
        event = Event(real.key, section.start_date, section.end_date, (section,))
        try:
            result = rate_section(section)
        except SectionError:
            refused += 1
            continue
        codes = printed(event, result)
        assert codes["csv"] == codes["text"] == codes["json"], real.key
        ours = codes["csv"]
        assert set(ours) == set(published), real.key
        # the marks the core reproduces from the published post ratings
        posts = {pair: p.post for (pair, system), p in real.published.items()
                 if system is System.R}
        reason = section_reason(section.type, section.online, section.systems,
                                section.start_date)
        reproduced = {pair for pair, norm in norms_by_pair(section.players, posts, reason).items()
                      if norm.code == published[pair]}
        # the pairs whose post rating we compute as published, to the whole point
        same_post = {pair for p in result.players for pair in p.pairs
                     if System.R in p.ratings and p.ratings[System.R].post is not None
                     and (p.pair, System.R) in real.published
                     and rounded_rating(p.ratings[System.R].post)
                     == real.published[(p.pair, System.R)].post}
        for player in section.players:
            players += 1
            agreeing += ours[player.pair] == published[player.pair]
            entrant = result.player(player.pair)
            rows = [p for p in section.players if p.pair in entrant.pairs]
            opponents = {r.opponent for p in rows for r in p.results
                         if r.code in "WLD" and r.opponent is not None}
            if entrant.pair in reproduced and opponents <= same_post:
                checked += 1
                assert ours[player.pair] == published[player.pair], (real.key, player.pair)
    print(f"{len(chosen)} sections ({refused} refused), {players} players: {checked} checked "
          f"exactly, {agreeing} print the published code")
    assert refused <= (1 - RATED_SHARE) * len(chosen)
    assert checked >= players // 5, (checked, players)
    assert agreeing >= AGREEING_SHARE * players, (agreeing, players)


@pytest.fixture(scope="module")
def shared_sample(shared: Path) -> list[tuple[RealSection, dict[int, str | None]]]:
    return sample(shared)


def test_the_sample_holds_norms_at_several_levels(
        shared_sample: list[tuple[RealSection, dict[int, str | None]]]) -> None:
    """A check that cannot pass on empty codes: the sample has published marks of at least
    four levels, and players without one."""
    marks = [code for _, published in shared_sample for code in published.values()]
    assert len({m for m in marks if m}) >= 4 and None in marks
