"""`uscf verify` on a member's norms and titles (fidelity/verify_titles.py), over records
built by hand (tests/published/hand_built.py) so that each cause occurs once.

The arithmetic behind each section (titles.md's table, ``E(L, R) = 0.5 + D/400`` for
``0 < D = L - R <= 200``): a member who wins all 4 games against opponents rated R scores
S = 4, and earns a norm at L when 4 - 4 E(L, R) > 1, that is E < 0.75, that is L < R + 100.
An opponent who loses his one game to the member ends below his pre-event rating.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from tests.published.hand_built import award, event, norm, star, titles
from uscf_ratings.cli.main import cli
from uscf_ratings.core.model import System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.fidelity import verify_titles as vt
from uscf_ratings.fidelity.verify import verify
from uscf_ratings.formats.member_titles import read_member_titles
from uscf_ratings.formats.ratings_api import read_records

MEMBER = "30000001"
EVENT = "900000000010"
WINS_1510 = [(1510.0, 1510.0, "Win")] * 4


def sections() -> list[dict[str, Any]]:
    return [
        # 1: 4 wins against 1800s ending below 1800: 1600 < L < 1900, N:1 (our norm);
        #    US Chess's record of it is Deleted
        star(1, MEMBER, "2025-06-01", [(1800.0, 1800.0, "Win")] * 4),
        # 2: 3 games: no norm can be earned (at least 4); US Chess records N:4
        star(2, MEMBER, "2025-06-02", [(1500.0, 1500.0, "Win")] * 3),
        # 3: one opponent met three times (at most 2); US Chess records N:3
        star(3, MEMBER, "2025-06-03", [(1500.0, 1500.0, "Win", 2)] * 3
             + [(1500.0, 1500.0, "Win")]),
        # 4: opponents 1510 ending below 1510: L < 1610 gives 1400, N:3 ours; published
        #    at 1560: L < 1660 gives 1600, N:2, which US Chess records
        star(4, MEMBER, "2025-06-04", [(1510.0, 1560.0, "Win")] * 4),
        # 5: opponents 1517.3 ending near 1500 (asserted below): S - E at 1600 is
        #    1 + (R - 1500)/100, within 4 x 0.5/400 = 0.005 of the margin; published at
        #    1500.25 (N:2 as ours); US Chess records N:3
        star(5, MEMBER, "2025-06-05", [(1517.3, 1500.25, "Win")] * 4),
        # 6 and 7: 1 of 4 against 1500s: S - E at 1200 = 1 - 4 x 0.125 = 0.5, no norm;
        #    US Chess records N:4, from 5 games (6) and from 4 (7)
        star(6, MEMBER, "2025-06-06", [(1500.0, 1500.0, "Win")] + [(1500.0, 1500.0,
                                                                    "Loss")] * 3),
        star(7, MEMBER, "2025-06-07", [(1500.0, 1500.0, "Win")] + [(1500.0, 1500.0,
                                                                    "Loss")] * 3),
        # 8: as 4 with the published ratings ours: N:3, as US Chess records
        star(8, MEMBER, "2025-06-08", WINS_1510),
        # 9: the member does not play; US Chess records a norm in it all the same
        star(9, None, "2025-06-09", []),
    ]


def member_records() -> dict[str, Any]:
    return titles(MEMBER, [
        norm("FirstCategory", "Deleted", EVENT, 1, "2025-06-01"),
        norm("FourthCategory", "Active", EVENT, 2, "2025-06-02", played=3),
        norm("ThirdCategory", "Active", EVENT, 3, "2025-06-03"),
        norm("SecondCategory", "Active", EVENT, 4, "2025-06-04"),
        norm("ThirdCategory", "Active", EVENT, 5, "2025-06-05"),
        norm("FourthCategory", "Active", EVENT, 6, "2025-06-06", played=5),
        norm("FourthCategory", "Active", EVENT, 7, "2025-06-07"),
        norm("ThirdCategory", "Active", EVENT, 8, "2025-06-08"),
        norm("FourthCategory", "Active", EVENT, 9, "2025-06-09"),
        norm("SecondCategory", "Active", "900000000011", 1, "2025-01-10"),
    ], [
        award("FourthCategory", "2024-12-01"),  # before the first section fetched
        award("FirstCategory", "2025-07-01"),  # after: ours has too few norms
        award("GoldenKnight", "2020-01-01", category="RatingsTitle"),
    ], page=2)


def write(folder: Path) -> tuple[Path, Path]:
    events, member = folder / f"{EVENT}.json", folder / f"member-{MEMBER}-titles.json"
    events.write_text(json.dumps(event(EVENT, sections())))
    member.write_text(json.dumps(member_records()))
    return events, member


def compared(folder: Path) -> vt.MemberCheck:
    events, member = write(folder)
    records = read_records(events)
    return vt.verify_member(read_member_titles(member), str(member),
                            vt.fetched_sections([(records, verify(records, str(events)))]))


def test_the_preconditions_of_the_hand_built_sections(tmp_path: Path) -> None:
    """What the comments of `sections` say of our post-event ratings holds."""
    records = read_records(write(tmp_path)[0])
    posts = {s.section.number: [p.ratings[System.R].post for p in
                                rate_section(s.section).players[1:]]
             for s in records.sections}
    assert all(p is not None and p < 1800 for p in posts[1])
    assert all(p is not None and p < 1510 for p in posts[4] + posts[8])
    assert all(p is not None and 1499.5 <= p <= 1500.5 for p in posts[5])


def test_each_cause_of_a_norm_difference_is_named_once(tmp_path: Path) -> None:
    check = compared(tmp_path)
    by_section = {(n.event, n.section): n for n in check.norms}
    expected = {
        (EVENT, 1): ("N:1", "N:1", vt.status_cause("Deleted")),
        (EVENT, 2): ("N:4", None, vt.FEWER_GAMES),
        (EVENT, 3): ("N:3", None, vt.NOT_ELIGIBLE),
        (EVENT, 4): ("N:2", "N:3", vt.OPPONENT_POST),
        (EVENT, 5): ("N:3", "N:2", vt.MARGIN_ROUNDING),
        (EVENT, 6): ("N:4", None, vt.OTHER_GAMES),
        (EVENT, 7): ("N:4", None, vt.UNEXPLAINED),
        (EVENT, 8): ("N:3", "N:3", None),
        (EVENT, 9): ("N:4", None, vt.NOT_IN_SECTION),
        ("900000000011", 1): ("N:2", None, vt.NOT_FETCHED),
    }
    assert {k: (n.theirs, n.ours, n.cause) for k, n in by_section.items()} == expected
    assert "3 rated games here; US Chess counted 3" in by_section[(EVENT, 2)].detail
    assert "met pair 2 3 times" in by_section[(EVENT, 3)].detail
    assert by_section[(EVENT, 4)].detail.startswith("pair ")
    assert "published 1560.00" in by_section[(EVENT, 4)].detail
    assert by_section[(EVENT, 6)].detail == "US Chess counted 5, we counted 4"
    # titles: 4th Category awarded 2024-12-01, before the first section fetched
    # (2025-06-01); 1st Category awarded after it, and ours holds 4 norms (sections 1, 4,
    # 5, 8), not 5, while our norms differ from US Chess's
    assert [(t.key, t.cause) for t in check.titles] == [
        ("FourthCategory", vt.HISTORY_BEFORE), ("FirstCategory", vt.OUR_NORMS_DIFFER)]
    # US Chess's N:2 of a section not fetched counts toward 3rd and 2nd Category, which
    # neither side holds: they cannot be decided; nor can the titles of the ratings
    assert [line.split(":")[0] for line in check.undecided] == [
        "3rd Category", "2nd Category", "National Master", "Original Life Master"]
    assert check.notes == ("awards not computed here (read, not compared): GoldenKnight",)
    # every cause occurs once
    assert set(vt.causes([check]).values()) == {1} and len(vt.causes([check])) == 11


def test_a_title_agrees_and_one_is_not_awarded(tmp_path: Path) -> None:
    """Five sections of 4 wins against 1510s: N:3 each (L < 1610), as US Chess records;
    five N:3 make 3rd Category and count at 4th (titles.md), the rating established (N
    not published: taken as 50). US Chess awards 4th Category at the fifth section and
    not 3rd, though its own norms reach it."""
    member = "30000002"
    days = [f"2025-07-0{d}" for d in range(1, 6)]
    events = tmp_path / "event.json"
    events.write_text(json.dumps(event(EVENT, [star(n, member, day, WINS_1510)
                                               for n, day in enumerate(days, 1)])))
    (tmp_path / "titles.json").write_text(json.dumps(titles(member, [
        norm("ThirdCategory", "Active", EVENT, n, day) for n, day in enumerate(days, 1)],
        [award("FourthCategory", days[-1], EVENT, 5)])))
    records = read_records(events)
    check = vt.verify_member(read_member_titles(tmp_path / "titles.json"), "titles.json",
                             vt.fetched_sections([(records, verify(records, "event"))]))
    assert all(n.agrees and n.ours == "N:3" for n in check.norms) and len(check.norms) == 5
    assert [(t.key, t.cause) for t in check.titles] == [
        ("FourthCategory", None), ("ThirdCategory", vt.NOT_AWARDED)]
    assert check.titles[0].ours is not None and check.titles[0].ours.section == 5


def test_uscf_verify_prints_the_members_norms_and_titles(tmp_path: Path) -> None:
    events, member = write(tmp_path)
    out = CliRunner().invoke(cli, ["verify", str(events), str(member)])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert f"{member}: member {MEMBER}, norms and titles" in lines
    row = next(line for line in lines if line.split()[:2] == [EVENT, "4"])
    assert row.split()[3:6] == ["N:2", "N:3", "differs:"] and vt.OPPONENT_POST in row
    assert any(line.split()[:2] == [EVENT, "1"] and "N:1 Deleted" in line for line in lines)
    assert "title 4th Category: US Chess awarded 2024-12-01; ours not held: differs: " \
           f"{vt.HISTORY_BEFORE}" in out.output
    assert lines[-1].startswith("10 section norm(s) and 2 title(s) compared: 1 and 0 agree (")
    document = json.loads(CliRunner().invoke(cli, ["verify", "--json", str(events),
                                                   str(member)]).output)
    (mine,) = document["members"]
    assert mine["member"] == MEMBER and len(mine["norms"]) == 10
    assert {n["cause"] for n in mine["norms"] if not n["agrees"]} >= {vt.NOT_FETCHED}
    assert [t["title"] for t in mine["titles"]] == ["FourthCategory", "FirstCategory"]
    assert document["members_summary"] == lines[-1]


def test_a_response_alone_needs_its_member(tmp_path: Path) -> None:
    events, _ = write(tmp_path)
    envelope = tmp_path / "norms.json"
    envelope.write_text(json.dumps(member_records()["member_norms"]))
    out = CliRunner().invoke(cli, ["verify", str(events), str(envelope)])
    assert out.exit_code == 1 and "Traceback" not in out.output
    assert "give the member's id (--member)" in out.output
    out = CliRunner().invoke(cli, ["verify", "--member", MEMBER, str(events), str(envelope)])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[-1].startswith("10 section norm(s) and 0 title(s)")
