"""The JSON bounds every reader's JSON passes (`formats.bounds.parse_json`): at most
`MAX_JSON_DEPTH` levels of nesting and `MAX_NUMBER_CHARS` characters a number, found from
the text's bytes (`nesting`, a mask of number characters), not by walking the parsed value.

The depth is held to a plain recursive count over the parsed value, written here, on any
JSON hypothesis makes, strings with brackets, quotes and escapes included; the number
cap at its edge, with long runs of digits inside strings (which are not numbers)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from uscf_ratings.formats.bounds import MAX_JSON_DEPTH, MAX_NUMBER_CHARS, nesting, parse_json
from uscf_ratings.formats.errors import ParseError

#: strings that look like JSON's structure: brackets, quotes, backslashes, escapes
TRICKY = st.text(alphabet=st.sampled_from(list('[]{}"\\:,ab\n\u00e9\U0001f600')), max_size=8)
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TRICKY, inner, max_size=4),
    max_leaves=40)


def depth(value: Any) -> int:
    """Levels of lists and objects, counted the plain way."""
    if isinstance(value, dict):
        return 1 + max(map(depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(depth, value), default=0)
    return 0


@settings(max_examples=400, deadline=None)
@given(VALUES, st.booleans())
def test_nesting_counts_levels_as_the_parsed_value_has_them(value: Any, ascii_only: bool) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only)
    assert nesting(text.encode("utf-8", "surrogatepass")) == depth(value)
    assert parse_json(text, "f.json") == json.loads(text)


def nested(levels: int, inner: str = "1") -> str:
    return "[" * levels + inner + "]" * levels


@pytest.mark.parametrize("wrap", ['{"a": %s}', "[%s]", "%s"])
def test_depth_at_the_cap_is_read_and_one_past_is_refused(wrap: str) -> None:
    extra = 0 if wrap == "%s" else 1
    at_cap = wrap % nested(MAX_JSON_DEPTH - extra)
    assert nesting(at_cap.encode()) == MAX_JSON_DEPTH
    parse_json(at_cap, "f.json")
    with pytest.raises(ParseError, match=f"nested more than {MAX_JSON_DEPTH} levels"):
        parse_json(wrap % nested(MAX_JSON_DEPTH + 1 - extra), "f.json")


def test_brackets_in_strings_do_not_count() -> None:
    text = json.dumps(["[" * 100, {"k": "{" * 50 + '\\"' + "]" * 7}])
    assert nesting(text.encode()) == 2
    parse_json(text, "f.json")


@pytest.mark.parametrize("number", ["1" * MAX_NUMBER_CHARS,
                                    "-0." + "5" * (MAX_NUMBER_CHARS - 3),
                                    "1e" + "0" * (MAX_NUMBER_CHARS - 2)])
def test_a_number_at_the_cap_is_read(number: str) -> None:
    assert len(number) == MAX_NUMBER_CHARS
    assert parse_json(f'{{"n": {number}}}', "f.json") == {"n": json.loads(number)}


@pytest.mark.parametrize("number", ["1" * (MAX_NUMBER_CHARS + 1),
                                    "-0." + "5" * (MAX_NUMBER_CHARS - 2),
                                    "1E+" + "0" * (MAX_NUMBER_CHARS - 2)])
def test_a_number_one_past_the_cap_is_refused_with_its_place(number: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_json(f'{{"n": {number}}}', "f.json")
    assert str(refused.value) == (f"f.json: line 1 column 7: a number of "
                                  f"{MAX_NUMBER_CHARS + 1} characters; at most "
                                  f"{MAX_NUMBER_CHARS} are read")


def test_long_digit_runs_in_strings_are_text_not_numbers() -> None:
    text = json.dumps({"id": "9" * 5000, "n": 12})
    assert parse_json(text, "f.json") == {"id": "9" * 5000, "n": 12}
