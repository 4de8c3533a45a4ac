"""A re-rate leaves alone the sections whose rows come out as stored (office/digest.py),
and the database is still exactly what rating the history afresh gives."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from alembic import command
from sqlalchemy import select, text
from tests.office.conftest import year
from tests.office.test_bulk import flipped

from uscf_ratings.batch.chain import Outputs, _outputs
from uscf_ratings.core.model import Event
from uscf_ratings.office import schema
from uscf_ratings.office.db import _alembic_config, writing
from uscf_ratings.office.digest import format_seed, section_digests, section_identity
from uscf_ratings.office.office import Office
from uscf_ratings.office.store import ROW_ORDER
from uscf_ratings.office.stored_rated import rerate_everything


def apart(events: list[Event]) -> list[Event]:
    """``events`` with other event ids and member ids (30000xxx made 40000xxx): players
    who never meet those of the same events unchanged."""
    def player(p: Any) -> Any:
        return replace(p, id="4" + p.id[1:]) if p.id else p
    return [replace(e, id="T" + e.id[1:], sections=tuple(
        replace(s, players=tuple(player(p) for p in s.players)) for s in e.sections))
        for e in events]


def history() -> tuple[list[Event], list[Event]]:
    """Two groups of events over the same dates whose players never meet."""
    return year(8), apart(year(8, seed=9))


def table(office: Office, name: str) -> list[tuple[Any, ...]]:
    with office.engine.connect() as c:
        return sorted(tuple(r) for r in c.execute(select(schema.metadata.tables[name])))


def everything(office: Office) -> dict[str, list[tuple[Any, ...]]]:
    return {name: table(office, name) for name in ("ratings", "rating_match_changes",
                                                   "sections")}


def digests(office: Office) -> list[str | None]:
    with office.engine.connect() as c:
        return list(c.execute(select(schema.sections.c.rows_digest)).scalars())


def test_a_correction_writes_only_the_sections_it_changes(tmp_path: Path) -> None:
    """The events of the other group are not written (their rows are as stored), the
    later events of the corrected one are, and the database equals the corrected
    history rated afresh, every column and digest alike. SQLite, which counts what is
    written with a trigger."""
    ours, theirs = history()
    office = Office(f"sqlite:///{tmp_path / 'office.db'}")
    office.init()
    office.rate_many(sorted(ours + theirs, key=lambda e: (e.end_date, e.id)))
    with writing(office.engine) as c:
        c.execute(text("CREATE TABLE written (event_id TEXT)"))
        for verb, row in (("UPDATE", "new"), ("INSERT", "new"), ("DELETE", "old")):
            c.execute(text(f"CREATE TRIGGER written_{verb.lower()} AFTER {verb} ON ratings "
                           f"BEGIN INSERT INTO written VALUES ({row}.event_id); END"))
    office.correct(ours[0].id, flipped(ours[0]))
    with office.engine.connect() as c:
        written = set(c.execute(text("SELECT DISTINCT event_id FROM written")).scalars())
    assert written & {e.id for e in ours[1:]}  # what followed the correction changed
    assert not written & {e.id for e in theirs}

    fresh = Office(f"sqlite:///{tmp_path / 'fresh.db'}")
    fresh.init()
    fresh.rate_many(sorted([flipped(ours[0]), *ours[1:], *theirs],
                           key=lambda e: (e.end_date, e.id)))
    with writing(office.engine) as c:
        for verb in ("update", "insert", "delete"):
            c.execute(text(f"DROP TRIGGER written_{verb}"))
        c.execute(text("DROP TABLE written"))
    assert everything(office) == everything(fresh)


def test_a_correction_and_back_equals_the_history_rated_afresh(office: Office,
                                                               tmp_path: Path) -> None:
    """On both databases: corrected, then corrected back (the second re-rate finds most
    sections as the first stored them), the database is the one rating the history gave."""
    ours, theirs = history()
    events = sorted(ours + theirs, key=lambda e: (e.end_date, e.id))
    office.rate_many(events)
    before = everything(office)
    assert all(digests(office))  # every section has its digest
    office.correct(ours[0].id, flipped(ours[0]))
    assert everything(office)["ratings"] != before["ratings"]
    office.correct(ours[0].id, ours[0])
    assert everything(office) == before


def test_rerate_everything_writes_every_row_even_with_its_digest(tmp_path: Path) -> None:
    """The check that the stored rows are what a re-rate gives (stored_rated.py) writes
    the rows themselves: a row changed behind the office's back is rated again, where a
    correction trusts the digest stored with it."""
    office = Office(f"sqlite:///{tmp_path / 'office.db'}")
    office.init()
    events = year(4)
    office.rate_many(events)
    before = table(office, "ratings")
    with writing(office.engine) as c:
        c.execute(text("UPDATE ratings SET post = post + 1 WHERE event_id = :e"),
                  {"e": events[-1].id})
    tampered = table(office, "ratings")
    office.correct(events[0].id, events[0])  # the same event: every digest as stored
    assert table(office, "ratings") == tampered
    assert rerate_everything(office) == sum(len(e.sections) for e in events)
    assert table(office, "ratings") == before


def test_0011_up_and_down_and_a_section_without_digest_is_written(tmp_path: Path) -> None:
    """Downgraded, the columns go and every row stays; upgraded again, the sections have
    their lineups (made from the event JSON, as stored) and no digest, and the next
    re-rate writes their rows (the same) and their digests."""
    office = Office(f"sqlite:///{tmp_path / 'office.db'}")
    office.init()
    events = year(4)
    office.rate_many(events)
    before = everything(office)
    with writing(office.engine) as c:
        command.downgrade(_alembic_config(c), "0010")
    assert table(office, "ratings") == before["ratings"]
    with office.engine.connect() as c:
        assert "rows_digest" not in {col[1] for col in c.execute(
            text("PRAGMA table_info(sections)"))}
    office.init()  # upgraded again: the lineups made again from the event JSON
    assert not any(digests(office))
    assert table(office, "ratings") == before["ratings"]
    office.correct(events[0].id, events[0])
    assert everything(office) == before


OUTPUT_FIELDS = Outputs._fields


def columns(rows: int, seed: int) -> list[np.ndarray]:
    """Outputs of ``rows`` rows (each field of its type) and the games won, drawn, lost."""
    rng = np.random.default_rng(seed)
    made: list[np.ndarray] = []
    for empty in _outputs(rows):  # the engine's own outputs, for their types
        if empty.dtype == np.float64:
            made.append(rng.normal(1500, 300, rows))
        elif empty.dtype == np.bool_:
            made.append(rng.integers(0, 2, rows).astype(np.bool_))
        else:
            made.append(rng.integers(-1, 40, rows))
    return made + [rng.integers(0, 9, rows) for _ in range(3)]


@pytest.mark.parametrize("seed", range(3))
def test_every_value_of_a_section_s_rows_changes_its_digest_alone(seed: int) -> None:
    """Each column of each row of a section (a float's last bit; -0.0 against 0.0), its
    members, systems and key, and its states' match changes: any one changed changes
    that section's digest, and the other sections' stay."""
    seed_bytes = format_seed(OUTPUT_FIELDS, ROW_ORDER)
    spans = [(0, 6), (6, 10), None, (10, 16)]
    ids = [section_identity("E1", n, *_days(), ["R"], ["30000001", "30000002", ""])
           for n in range(4)]
    base = columns(16, seed)
    carried = {7: (False, ())}

    def digests(cols: list[np.ndarray], idents: list[bytes] = ids,
                extra: dict[int, Any] = carried) -> list[str | None]:
        return section_digests(seed_bytes, cols, spans, idents, extra)

    first = digests(base)
    assert first[2] is None and len(set(first)) == 4
    assert digests([c.copy() for c in base]) == first  # made again: the same
    for at in range(len(base)):
        for row in (0, 5, 6, 15):
            changed = [c.copy() for c in base]
            column = changed[at]
            if column.dtype == np.float64:
                column[row] = np.nextafter(column[row], np.inf)  # its last bit
            elif column.dtype == np.bool_:
                column[row] = not column[row]
            else:
                column[row] += 1
            after = digests(changed)
            section = 0 if row < 6 else 1 if row < 10 else 3
            assert [a != b for a, b in zip(after, first, strict=True)] == [
                i == section for i in range(4)], (at, row)
    zero = [c.copy() for c in base]
    zero[0][1] = 0.0
    minus = [c.copy() for c in base]
    minus[0][1] = -0.0
    assert digests(zero)[0] != digests(minus)[0]
    other = list(ids)
    other[1] = section_identity("E1", 1, *_days(), ["R"], ["30000001", "30000003", ""])
    assert digests(base, other)[1] != first[1] and digests(base, other)[0] == first[0]
    assert digests(base, extra={7: (True, ())})[1] != first[1]
    assert digests(base, extra={})[1] != first[1]
    assert format_seed(OUTPUT_FIELDS, ROW_ORDER[1:]) != seed_bytes


def _days() -> tuple[Any, Any]:
    from datetime import date
    return date(2026, 1, 3), date(2026, 1, 2)
