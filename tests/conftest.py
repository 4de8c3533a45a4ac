"""Shared test helpers: where the real data lives, and skips that fail under CI."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip, saying why; under CI (CI=true) a skip is a failure."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: this test must run here)")
    pytest.skip(reason)


def write_events(folder: Path, count: int, seed: int, members: int = 150,
                 sizes: tuple[int, int] = (4, 20)) -> list[Path]:
    """``count`` synthetic events among ``members`` members, from ``seed``, written to
    ``folder`` as event JSON files named by event id (in date order)."""
    from uscf_ratings.formats.event_json import write
    from uscf_ratings.synthetic import events, federation

    paths = []
    for event in events(federation(members, seed), count, seed, sizes=sizes):
        path = folder / f"{event.id}.json"
        write(event, path)
        paths.append(path)
    return paths


def stored_ratings(url: str) -> dict[tuple[str, int, str, str], float]:
    """Every post-event rating the office database at ``url`` holds, by (event id,
    section, member, system)."""
    from sqlalchemy import select

    from uscf_ratings.office import schema
    from uscf_ratings.office.office import Office

    office = Office(url)
    with office.engine.connect() as c:
        found = {(r.event_id, r.section, r.member_id, r.system): r.post
                 for r in c.execute(select(schema.ratings))}
    office.engine.dispose()
    return found


def another_file_of(path: Path, folder: Path) -> Path:
    """A file of the event of ``path`` (event JSON) that differs from it: the event's name
    changed, written to ``folder``."""
    import json

    data = json.loads(path.read_text())
    data["event"]["name"] = data["event"].get("name", "") + " (as sent again)"
    changed = folder / f"other-{path.name}"
    changed.write_text(json.dumps(data))
    return changed


@pytest.fixture(scope="session")
def shared() -> Path:
    if not (SHARED / "uscf_real" / "msa_sections").is_dir():
        skip_or_fail(f"the real rated sections are not here: {SHARED} is missing "
                     "(they live beside the repository, not in it)")
    return SHARED
