"""`formats.json_stream` writes what ``json.dumps(value, indent=2)`` writes, byte for byte,
with each `Lazy` list made as it is written; `uscf rate --format json` writes through it
the text it wrote as one string (issue 37: memory in proportion to one player, not to
every explanation at once)."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.cli.main import cli
from uscf_ratings.core.model import System
from uscf_ratings.core.pipeline import rate_section
from uscf_ratings.core.settled import settled
from uscf_ratings.formats.detect import read_any
from uscf_ratings.formats.json_stream import PIECE, Lazy, write_json
from uscf_ratings.formats.result_json import results_document

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "formats"

# Strings with every kind of character the encoder escapes: quotes, backslashes, line
# breaks (written \n, so that a line break in the text is always between tokens), NUL,
# non-ASCII; and the mark json_stream puts in a Lazy list's place, as a value and a key.
TEXT = st.one_of(st.text(max_size=12), st.sampled_from(
    ["lazy list: its items go here", '"lazy list: its items go here"', "a\nb", "\\", "\x00"]))
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                   TEXT)
PLAIN = st.recursive(SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=20)


@st.composite
def lazy_values(draw: st.DrawFn, depth: int = 0) -> tuple[Any, Any]:
    """(a value holding Lazy lists as the last value of dicts, the same value with
    plain lists): up to three levels of Lazy lists, some empty."""
    head = draw(st.dictionaries(TEXT, PLAIN, max_size=3))
    if depth == 3 or draw(st.booleans()):
        return head, head
    key = draw(TEXT.filter(lambda k: k not in head))
    items = draw(st.lists(st.one_of(PLAIN.map(lambda v: (v, v)), lazy_values(depth + 1)),
                          max_size=4))
    lazy = {**head, key: Lazy(iter([made for made, _ in items]))}
    plain = {**head, key: [want for _, want in items]}
    return lazy, plain


def written(value: Any) -> str:
    pieces: list[str] = []
    write_json(value, pieces.append)
    return "".join(pieces)


@settings(max_examples=400, deadline=None)
@given(lazy_values())
def test_the_text_is_json_dumps_text(pair: tuple[Any, Any]) -> None:
    lazy, plain = pair
    assert written(lazy) == json.dumps(plain, indent=2)


@settings(max_examples=100, deadline=None)
@given(PLAIN)
def test_a_value_without_lazy_lists_is_json_dumps_text(value: Any) -> None:
    assert written(value) == json.dumps(value, indent=2)


def test_items_are_made_as_they_are_written_in_pieces_of_a_bounded_size() -> None:
    """A list of 2,000 items of 1,000 characters: each item is made only once the text
    before it has been gathered, and each write is under two pieces' size."""
    made: list[int] = []
    writes: list[int] = []

    def items() -> Any:
        for n in range(2000):
            made.append(n)
            yield {"n": n, "text": "x" * 1000}

    def write(text: str) -> None:
        writes.append(len(text))
        assert len(made) * 1000 <= sum(writes) + 2 * PIECE  # not all made before writing

    write_json({"items": Lazy(items())}, write)
    assert len(writes) > 20 and max(writes) < 2 * PIECE


def test_a_lazy_list_not_last_is_refused() -> None:
    with pytest.raises(ValueError, match="last value"):
        written({"a": Lazy([1]), "b": 2})


def _files() -> list[Path]:
    files = [REPO / "examples" / "sample-event.json"]
    if SHARED.is_dir():
        files += sorted(p for p in SHARED.rglob("*") if p.suffix in (".trf", ".trfx", ".sjson"))
        files += sorted(p for p in SHARED.glob("uscf_dbf/*") if p.is_dir())
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
def test_rate_json_is_the_text_json_dumps_gives(path: Path) -> None:
    """`uscf rate --format json` writes, byte for byte, ``json.dumps`` of the result JSON
    (`results_document` of the event as `uscf rate` rates it: its defaults filled in by
    `settled`) with an indent of 2 and a line break, as it did before it wrote a player
    at a time. A file without a date is given one, a file without systems ``--systems R``;
    the only refusals allowed are dates outside the domain (core/domain.py): three files
    of 2005 and 2010, before the rules' coverage, and Vega's birth year 1837."""
    options: list[str] = []
    result = CliRunner().invoke(cli, ["rate", str(path), "--format", "json"])
    for needed, extra in (("gives no date", ["--date", "2024-01-06"]),
                          ("give the systems with --systems", ["--systems", "R"])):
        if needed in result.output:
            options += extra
            result = CliRunner().invoke(cli, ["rate", str(path), "--format", "json",
                                              *options])
    if result.exit_code != 0:
        assert result.exit_code == 1 and "expected a date from" in result.output, result.output
        return
    day = date(2024, 1, 6) if "--date" in options else None
    event = settled(read_any(path, event_date=day,
                             systems=(System.R,) if "--systems" in options else None))
    results = [rate_section(s) for s in event.sections]
    expected = json.dumps(results_document([(event, results)]), indent=2) + "\n"
    assert result.stdout == expected
