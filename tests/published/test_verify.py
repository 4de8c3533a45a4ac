"""`uscf verify`: the five real standings of ../shared/recent/raw rated from their
published pre-event ratings and compared with the published post-event ratings
(fidelity/verify.py)."""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.conftest import SHARED, skip_or_fail
from tests.published.conftest import RAW, RECORDED, RecordedApi, made_up_match, rockville
from uscf_ratings.cli.main import cli
from uscf_ratings.core.model import System
from uscf_ratings.fidelity.report import DECIMAL_TOLERANCE
from uscf_ratings.fidelity.sources import load_recent
from uscf_ratings.fidelity.verify import EventCheck, verify
from uscf_ratings.formats.ratings_api import read_records

INDEX = SHARED / "recent" / "index.csv"


def sections() -> list[tuple[Path, date, tuple[System, ...]]]:
    """Each real standings file, with the date and systems recent/index.csv gives it."""
    if not INDEX.exists():
        skip_or_fail(f"the real standings are not here: {INDEX.parent} is missing (a clone "
                     "without ../shared)")
    out = []
    for row in csv.DictReader(INDEX.open()):
        stem = f"{row['event_id']}_s{int(row['section_no']):02d}"
        systems = (System.R, System.Q) if row["rating_sys_code"] == "D" else (System.R,)
        out.append((RAW / f"{stem}_standings.json", date.fromisoformat(row["end_date"]),
                    systems))
    return out


def verified() -> list[EventCheck]:
    return [verify(read_records(path, event_date=day, systems=systems), str(path))
            for path, day, systems in sections()]


def test_every_published_decimal_the_inputs_determine_agrees() -> None:
    """The players that agree to 0.01 are those the fidelity report matches, which reads
    the same sections from a form a third party made of them (recent/sections), and
    each other player is given a cause."""
    checks = [c for e in verified() for c in e.checks]
    matched = set()
    for path in sorted((SHARED / "recent" / "sections").glob("*.json")):
        real = load_recent(path)
        from uscf_ratings.core.pipeline import rate_section

        for player in rate_section(real.section).players:
            for system, rating in player.ratings.items():
                published = real.published.get((player.pair, system))
                if published and rating.post is not None and \
                        abs(rating.post - published.post) <= DECIMAL_TOLERANCE:
                    matched.add((real.section.number, player.id, system))
    agreeing = {(s, c.member, c.system) for e in verified() for section in e.sections
                for s in [section.number] for c in section.checks if c.agrees}
    assert agreeing == matched
    assert len(checks) == 212  # every player with a published post rating, each system
    assert all(c.cause and c.cause != "unexplained" for c in checks if not c.agrees)
    for check in checks:  # "agrees" is the published decimal to 0.01, nothing else
        assert check.agrees == (check.ours is not None
                                and abs(check.ours - check.published) <= DECIMAL_TOLERANCE)


def test_a_players_row_names_its_published_and_our_numbers() -> None:
    """Rockville, pair 1 (20000078): R 1383.58 -> 1403.43 published, to 0.01."""
    rockville_check = verified()[1]
    assert rockville_check.event_id == "202508311982"
    row = next(c for c in rockville_check.checks if c.pair == 1 and c.system is System.R)
    assert (row.pre, row.published, row.agrees) == (1383.58, 1403.43, True)
    assert row.ours is not None and abs(row.ours - 1403.43) <= DECIMAL_TOLERANCE


def test_uscf_verify_prints_each_row_a_summary_and_what_was_assumed() -> None:
    path, day, systems = sections()[4]  # the ACC ladder
    out = CliRunner().invoke(cli, ["verify", "--date", day.isoformat(), "--systems",
                                   ",".join(s.value for s in systems), "--member",
                                   "20000031", str(path)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert any("assumed: N is not published for" in line for line in lines)
    assert any(line.strip().startswith("85  20000031") and "differs by" in line
               and "an opponent's earlier games were all wins" in line for line in lines)
    assert lines[-1].startswith("116 published ratings compared: 82 agree to 0.01, 34 differ")


def test_uscf_verify_json_holds_every_comparison() -> None:
    path, day, systems = sections()[2]
    out = CliRunner().invoke(cli, ["verify", "--json", "--date", day.isoformat(),
                                   "--systems", "R", str(path)])
    document = json.loads(out.output)
    players = document["events"][0]["sections"][0]["players"]
    assert len(players) == 10 and {p["system"] for p in players} == {"R"}
    assert all(set(p) >= {"pair", "member", "pre", "published", "ours", "agrees", "cause"}
               for p in players)


def test_a_standings_page_alone_says_what_it_needs() -> None:
    path = sections()[0][0]
    out = CliRunner().invoke(cli, ["verify", str(path)])
    assert out.exit_code == 1
    assert "give the date with --date" in out.output and "--systems" in out.output
    assert "Traceback" not in out.output


def test_verify_an_event_id_downloads_it_first(recorded_api: RecordedApi) -> None:
    """The Rockville event by its id: the records written from the schema give the date
    and systems (D: R and Q), and the comparison is that of the standings file."""
    sections()
    rockville(recorded_api)
    out = CliRunner().invoke(cli, ["verify", "--api", recorded_api.url, "202508311982"])
    assert out.exit_code == 0, out.output
    assert "event 202508311982 (ROCKVILLE ACTION TOURNAMENT)" in out.output
    assert out.output.splitlines()[-1] == "40 published ratings compared: 40 agree to 0.01"


def test_the_made_up_match_agrees_with_its_hand_worked_ratings(
        recorded_api: RecordedApi) -> None:
    """recorded/README.md works 1521.28 and 1478.72 out by hand (Steps 4 and 5)."""
    made_up_match(recorded_api)
    out = CliRunner().invoke(cli, ["verify", "--json", "--api", recorded_api.url,
                                   "900000000001"])
    players = json.loads(out.output)["events"][0]["sections"][0]["players"]
    assert [(p["published"], p["agrees"]) for p in players] == [(1521.28, True),
                                                               (1478.72, True)]
    assert (RECORDED / "README.md").exists()


def test_a_member_not_in_a_section_is_said_to_be_absent(recorded_api: RecordedApi) -> None:
    made_up_match(recorded_api)
    out = CliRunner().invoke(cli, ["verify", "--api", recorded_api.url, "900000000001",
                                   "--member", "99999999"])
    assert out.exit_code == 0, out.output
    assert "    member 99999999 did not play in this section" in out.output.splitlines()


@pytest.mark.parametrize("source", ["123", "no-such-file.json"])
def test_an_unknown_source_is_one_line(recorded_api: RecordedApi, source: str) -> None:
    out = CliRunner().invoke(cli, ["verify", "--api", recorded_api.url, source])
    assert out.exit_code == 1 and len(out.output.splitlines()) == 1
    assert ("not found (404)" if source == "123" else "no such file") in out.output


def test_systems_a_page_publishes_no_rating_in_are_refused_naming_them() -> None:
    """Every combination of systems on each real page: accepted exactly when the page
    publishes a rating in each (recent/index.csv: D is R and Q, else R); refused
    otherwise, naming the systems it lacks and no other."""
    from itertools import combinations

    from uscf_ratings.formats.errors import ParseError

    tried = refused = 0
    for path, day, has in sections():
        for size in range(1, len(System) + 1):
            for given in combinations(System, size):
                tried += 1
                lacking = [s.value for s in given if s not in has]
                if not lacking:
                    assert read_records(path, event_date=day, systems=given).sections
                    continue
                with pytest.raises(ParseError) as refusal:
                    read_records(path, event_date=day, systems=given)
                refused += 1
                named = str(refusal.value).split("--systems names ")[1].split(", but")[0]
                assert named.split(", ") == lacking, str(refusal.value)
    # 63 combinations of the six systems on each of 5 pages; accepted: R on the 3 pages
    # rated R alone, R, Q and R,Q on the 2 dual-rated ones
    assert sum(s == (System.R, System.Q) for _, _, s in sections()) == 2
    assert (tried, refused) == (5 * 63, 5 * 63 - 3 * 1 - 2 * 3)


def test_uscf_verify_refuses_r_and_q_on_an_r_only_page() -> None:
    path, day, systems = sections()[2]
    assert systems == (System.R,)
    out = CliRunner().invoke(cli, ["verify", "--date", day.isoformat(), "--systems", "R,Q",
                                   str(path)])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "--systems names Q, but the standings page publishes no rating in it" in out.output
