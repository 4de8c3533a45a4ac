"""Titles in the office: a member's titles and norms on a date from the stored Regular
results (office/titles.py, core/titles.py), and the title supplement. The events are
built by hand so that each norm is worked out by hand below. On SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from datetime import date

from sqlalchemy import select

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, System
from uscf_ratings.office import schema
from uscf_ratings.office.office import Office
from uscf_ratings.office.titles import member_title_status, supplement_csv, title_supplement

X = "12345678"  #: the member whose titles are followed
DAYS = [date(2024, 3, d) for d in (2, 9, 16, 23, 30)] + [date(2024, 4, 6)]


def wins(n: int, games: int, opponents_rating: float) -> Event:
    """Event ``n``: X (unrated before event 0) beats ``games`` members rated
    ``opponents_rating`` over 100 games, each met once, one a round."""
    day = DAYS[n]
    x = Player(1, X, "Member, X", results=tuple(Result(k, "W", k + 1)
                                                for k in range(1, games + 1)))
    others = tuple(Player(k + 1, f"2{n}00000{k}", f"Opponent {n}-{k}",
                          ratings={System.R: Rating(opponents_rating, 100)},
                          results=(Result(k, "L", 1),)) for k in range(1, games + 1))
    return Event(f"E{n}", day, day, (Section(1, day, day, (x, *others), time_control="G/90"),))


def history(office: Office) -> None:
    """Events 0-3: four wins against members rated 2000 (100 games). Each opponent loses
    one game, at most K (about 27 at 100 games) points, so its post-event rating is in
    [1973, 2000], within (1800, 2100]:
      at 2000 (Candidate Master), D = 2000 - Ri is in [0, 27]: E = 0.5 + D/400 < 0.6 a
      game, E < 2.4, and S - E = 4 - E > 1: earned;
      at 2200, D is in [200, 227]: E >= 0.75 a game (1 above 200), E >= 3, S - E <= 1:
      not earned.
    So N:C in each. Event 4: four wins against members rated 2200: the same reasoning 200
    points up gives N:M (Life Master), which also counts at 2000 and below: five norms
    at every level up to Candidate Master. X has played 20 games, a provisional rating
    (25 games or fewer): every title waits for an established rating, Candidate Master
    for one of 2000. Event 5: six more wins against members rated 2000 (N:C again, as
    in events 0-3): 26 games, established, and X's rating is above 2000 (checked:
    26 wins against members rated 2000 and more), so 4th Category to Candidate Master
    are earned there."""
    for n in range(4):
        office.rate(wins(n, 4, 2000))
    office.rate(wins(4, 4, 2200))
    office.rate(wins(5, 6, 2000))


def test_titles_over_several_events_with_a_higher_norm_and_a_title_waiting(
        office: Office) -> None:
    history(office)
    with office.engine.connect() as c:
        after_four = member_title_status(c, X, DAYS[3])
        after_five = member_title_status(c, X, DAYS[4])
        today = member_title_status(c, X)
        post = c.execute(select(schema.ratings.c.post).where(
            schema.ratings.c.member_id == X, schema.ratings.c.event_id == "E5")).scalar_one()
    assert post > 2000
    progress = {p.code: p for p in after_four.progress}
    # four N:C norms: four at every level up to 2000, none above, no title yet
    assert [progress[code].norms for code in ("N:4", "N:1", "N:C", "N:M")] == [4, 4, 4, 0]
    assert after_four.titles == ()
    # the fifth norm is N:M: five at 2000 and below, one at 2200; X is provisional
    progress = {p.code: p for p in after_five.progress}
    assert [p.norms for p in after_five.progress] == [5, 5, 5, 5, 5, 1, 0]
    assert [e.event for e in progress["N:C"].earned] == ["E0", "E1", "E2", "E3", "E4"]
    assert [e.code for e in progress["N:C"].earned] == ["N:C"] * 4 + ["N:M"]
    assert after_five.titles == ()
    assert progress["N:1"].waiting == "waiting for an established rating"
    assert progress["N:C"].waiting == "waiting for an established rating of 2000"
    assert progress["N:M"].waiting is None  # one norm: no title to wait for
    # established at event 5, above 2000: 4th Category to Candidate Master earned there
    norms_titles = {t.key: t for t in today.titles if t.category == "NormsTitle"}
    assert set(norms_titles) == {"FourthCategory", "ThirdCategory", "SecondCategory",
                                 "FirstCategory", "CandidateMaster"}
    assert all((t.event, t.date) == ("E5", DAYS[5]) for t in norms_titles.values())
    assert [p.norms for p in today.progress] == [6, 6, 6, 6, 6, 1, 0]
    # National Master: the first established rating of 2200 or more, if X's is
    assert today.holds("NationalMaster") == (post >= 2200)


def test_the_title_supplement_lists_titles_and_norms_in_progress(office: Office) -> None:
    """As of event 4's day, X is the one member with a title or a norm (the opponents
    earn none: they lost their one game, and none is rated 2200 after); the CSV row has
    no title yet, the norms toward each level (a higher norm counted below) and what
    each title waits for. As of event 5's day, the five titles with their date."""
    history(office)
    with office.engine.connect() as c:
        entries = title_supplement(c, DAYS[4])
        later = title_supplement(c, DAYS[5])
        before = title_supplement(c, date(2024, 3, 1))
    assert before == []
    rows = list(csv.DictReader(io.StringIO(supplement_csv(entries))))
    assert len(rows) == 1
    row = rows[0]
    assert (row["id"], row["name"], row["titles"]) == (X, "Member, X", "")
    assert [row[code] for code in ("N:4", "N:3", "N:2", "N:1", "N:C", "N:M", "N:S")] == \
        ["5", "5", "5", "5", "5", "1", "0"]
    assert row["waiting"] == "; ".join(
        [f"{name}: waiting for an established rating" for name in
         ("4th Category", "3rd Category", "2nd Category", "1st Category")]
        + ["Candidate Master: waiting for an established rating of 2000"])
    row = next(csv.DictReader(io.StringIO(supplement_csv(later))))
    assert row["titles"].startswith("; ".join(f"{name} 2024-04-06" for name in (
        "4th Category", "3rd Category", "2nd Category", "1st Category", "Candidate Master")))
    assert row["waiting"] == ""
