"""The quick schema check (jsonschema-rs, extra [fast]) accepts no document that
fastjsonschema rejects, so the event files accepted are the ones accepted without it.

The documents are synthetic events and the repository's own event files, each valid,
and a thousand variants of them with one value changed at a random place: another
type, a number out of range, a string that breaks a pattern or ends in a newline, a
property too many, a required one missing, a list emptied or doubled.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import fastjsonschema
import pytest
from tests.conftest import REPO, skip_or_fail

from uscf_ratings.formats import event_json
from uscf_ratings.formats.event_json import event_to_json, schema_problems
from uscf_ratings.synthetic import events, federation

REPLACEMENTS: list[Any] = [
    None, True, False, 0, -1, 1, 1.5, 99, 100, 3500, 3501, 1e9, float("nan"), "", "x",
    "W8\n", "2026-01-01\n", "Q5", "2026-1-1", "2026-02-30", "W", "X", "H", "R", "Z9",
    [], ["W2"], ["R", "R"], {}, {"rating": 1500}, "1500",
]


@pytest.fixture(autouse=True)
def needs_jsonschema_rs() -> None:
    if event_json._quickly_valid() is None:
        skip_or_fail("the quick check needs the extra [fast] (jsonschema-rs)")


def valid_documents() -> list[Any]:
    docs = [event_to_json(e) for e in events(federation(300, 9), 12, 9, sizes=(4, 12))]
    for path in sorted((REPO / "examples").rglob("*.json")) + sorted(
            (REPO / "docs" / "examples").rglob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict) and "event" in doc and not schema_problems(doc):
            docs.append(doc)
    return docs


def places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside ``doc``."""
    found = [path]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += places(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            found += places(value, (*path, i))
    return found


def variant(doc: Any, rng: random.Random) -> Any:
    """``doc`` with one change at a random place."""
    out = copy.deepcopy(doc)
    path = rng.choice(places(out)[1:])
    parent = out
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    change = rng.random()
    if change < 0.7:
        parent[last] = copy.deepcopy(rng.choice(REPLACEMENTS))
    elif change < 0.8 and isinstance(parent, dict):
        del parent[last]
    elif change < 0.9 and isinstance(parent, dict):
        parent["unexpected"] = 1
    elif isinstance(parent[last], list):
        parent[last] = parent[last] * 2
    else:
        parent[last] = [parent[last]]
    return out


def test_the_quick_check_is_never_more_lenient_than_fastjsonschema() -> None:
    quick = event_json._quickly_valid()
    assert quick is not None
    full = fastjsonschema.compile(copy.deepcopy(event_json.schema()), use_default=False)

    def accepted(doc: Any) -> bool:
        try:
            full(copy.deepcopy(doc))
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    def accepted_before(doc: Any) -> bool:
        """schema_problems without the quick check: fastjsonschema, and jsonschema for
        the problems of a file it rejects (the two differ at a corner or two: NaN as a
        rating passes jsonschema's minimum, for one)."""
        return accepted(doc) or not any(event_json._validator().iter_errors(doc))

    rng = random.Random(2026)
    docs = valid_documents()
    assert len(docs) > 12 and all(quick(d) for d in docs)
    rejected_by_both = 0
    for _ in range(1200):
        doc = variant(rng.choice(docs), rng)
        if quick(doc):
            assert accepted(doc), doc
        else:
            rejected_by_both += not accepted(doc)
        assert (schema_problems(doc) == []) == accepted_before(doc)
    assert rejected_by_both > 400  # the variants do break the schema, in many ways


def test_a_document_the_quick_check_doubts_is_decided_as_before() -> None:
    """A cell ending in a newline: Python's regular expressions (fastjsonschema's)
    accept it where jsonschema-rs's do not, so the file is accepted, as it was."""
    doc = event_to_json(events(federation(40, 2), 1, 2, sizes=(4, 6))[0])
    doc["sections"][0]["players"][0]["results"][0] += "\n"
    assert event_json._quickly_valid()(doc) is False  # type: ignore[misc]
    assert schema_problems(doc) == []

