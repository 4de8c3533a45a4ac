"""An office database as a release stored it, for the tests of its migrations.

`fill` rates a small history into an office through its public operations: a synthetic
year, two individual matches between the same two members (so that a state carries two
match changes, section 7), a member whose file gives a rating without N (the state
carries ``games_known`` false), and a floor set by hand, which re-rates the sections
after it. ``office-0009.json`` beside this file is what `fill` left in a database of
schema 0009 (commit d4f3734, before the states were columns): every table's rows, made
by ``python -m tests.office.filled_before OUT.json`` run on that commit. The tests load
it at revision 0009, migrate it and compare it with a database that `fill` fills now.
"""

from __future__ import annotations

import json
import sys
from datetime import date, datetime
from pathlib import Path
from typing import Any

from uscf_ratings.core.model import Event, Player, Rating, Result, Section, SectionType, System
from uscf_ratings.synthetic import events as synthetic_events
from uscf_ratings.synthetic import federation

DUMP = Path(__file__).with_name("office-0009.json")
#: the floor set by hand: member, system, floor, from
FLOOR = ("30000003", System.R, 1200.0, date(2026, 2, 1))
#: tables in the order their foreign keys allow them to be filled
TABLES = ("members", "baselines", "published_history", "member_titles", "member_norms",
          "floors", "events", "sections", "ratings", "audit")


def _match(number: int, day: date) -> Event:
    """An individual match of four games between members 39000001 and 39000002."""
    codes = ("W", "D", "L", "W") if number == 1 else ("D", "W", "D", "D")
    flipped = {"W": "L", "L": "W", "D": "D"}
    a = Player(1, "39000001", "Match Player A", ratings={System.R: Rating(1800.0, 40)},
               results=tuple(Result(r, code, 2) for r, code in enumerate(codes, 1)))
    b = Player(2, "39000002", "Match Player B", ratings={System.R: Rating(1750.0, 60)},
               results=tuple(Result(r, flipped[code], 1) for r, code in enumerate(codes, 1)))
    section = Section(1, day, day, (a, b), type=SectionType.MATCH, systems=(System.R,))
    return Event(f"M{number}", day, day, (section,), f"Match {number}")


def _assumed_n(day: date) -> Event:
    """A round robin of four new members; the file gives one of them a rating without N."""
    ratings = (Rating(1400.0, 10, games_known=False), Rating(1350.0, 30),
               Rating(1500.0, 12), Rating(1450.0, 80))
    scores = ((None, "W", "D", "L"), ("L", None, "W", "D"), ("D", "L", None, "W"),
              ("W", "D", "L", None))
    rounds = ((1, 0, 3, 2), (2, 3, 0, 1), (3, 2, 1, 0))  #: each player's opponent, by round
    players = tuple(
        Player(i + 1, f"3800000{i + 1}", f"Round Robin {i + 1}", ratings={System.R: ratings[i]},
               results=tuple(Result(r, scores[i][opponents[i]], opponents[i] + 1)
                             for r, opponents in enumerate(rounds, 1)))
        for i in range(4))
    section = Section(1, day, day, players, type=SectionType.ROUND_ROBIN, systems=(System.R,))
    return Event("RR1", day, day, (section,), "Round robin")


def history() -> list[Event]:
    """The events `fill` rates, in the order it gives them."""
    year = synthetic_events(federation(60, 7), 8, 7, sizes=(4, 16))
    return [*year, _match(1, date(2026, 1, 20)), _assumed_n(date(2026, 1, 25)),
            _match(2, date(2026, 3, 1))]


def fill(office: Any) -> None:
    """Rate `history` into ``office``, then set `FLOOR` (which re-rates)."""
    office.rate_many(history())
    member, system, floor, effective = FLOOR
    office.set_floor(member, system, floor, effective, "a prize floor")


def dump(office: Any) -> dict[str, Any]:
    """Every row of `TABLES`, dates and times as ISO text, by table."""
    from sqlalchemy import text

    out: dict[str, Any] = {}
    with office.engine.connect() as c:
        revision = c.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        for table in TABLES:
            result = c.execute(text(f"SELECT * FROM {table}"))
            out[table] = {"columns": list(result.keys()),
                          "rows": [[_plain(v) for v in row] for row in result]}
    return {"revision": revision, "tables": out}


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date | datetime) else value


def main(out: str) -> None:
    import tempfile

    from uscf_ratings.office.office import Office

    with tempfile.TemporaryDirectory() as folder:
        office = Office(f"sqlite:///{folder}/office.db")
        office.init()
        fill(office)
        Path(out).write_text(json.dumps(dump(office), indent=0) + "\n")
        office.engine.dispose()


if __name__ == "__main__":
    main(sys.argv[1])
