"""JSON written piece by piece, byte for byte as ``json.dumps(value, indent=2)`` writes it.

A document of every rating's explanation is about twelve times the size of the file it
came from as dicts, and ``json.dumps`` with an indent holds every piece of its text in a
list before joining them: for a 1 MB event, 12 MB of dicts and 50 MB of pieces at once
(docs/formats.md, "The ceiling"). `write_json` holds one item of a long list at a time
instead: a value may be a `Lazy` list, whose items are made as they are written, and the
text goes out in pieces of about `PIECE` characters.

The text is the same as ``json.dumps``'s because it is ``json.dumps``'s: each container
that holds a `Lazy` list is written by the standard encoder with a mark in the list's
place, and the text around the mark is written around the items; a nested value's text
is the same as at the top, with each line break followed by the indent of its level (a
line break in a JSON text is always between tokens: one inside a string is written
``\\n``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from itertools import chain
from typing import Any

#: characters gathered before each write
PIECE = 1 << 16
#: the indent of each level, as ``json.dumps(..., indent=2)``
INDENT = "  "
#: what stands in a `Lazy` list's place while its container is encoded
_MARK = "lazy list: its items go here"
_NONE = object()


class Lazy:
    """A JSON list whose items are made as they are written (each item a JSON value,
    which may hold a `Lazy` list as its last value)."""

    def __init__(self, items: Iterable[Any]):
        self.items = items


def write_json(value: Any, write: Callable[[str], object]) -> None:
    """Write ``value`` as ``json.dumps(value, indent=2)`` would, with each `Lazy` list in
    it as the list of its items. A `Lazy` list must be the last value of its dict (the
    mark is found from the end of the dict's text)."""
    pieces: list[str] = []
    size = 0

    def gather(text: str) -> None:
        nonlocal size
        pieces.append(text)
        size += len(text)
        if size >= PIECE:
            flush()

    def flush() -> None:
        nonlocal size
        if pieces:
            write("".join(pieces))
            pieces.clear()
            size = 0

    _encode(value, 0, gather)
    flush()


_ENCODER = json.JSONEncoder(indent=2)


def _encode(value: Any, level: int, write: Callable[[str], None]) -> None:
    lazy = _lazy_key(value)
    if lazy is None and not level:  # a whole document: its pieces as they come
        for piece in _ENCODER.iterencode(value):
            write(piece)
        return
    if lazy is None:  # an item of a Lazy list (a player): its text at once, indented once
        write(_at(_ENCODER.encode(value), level))
        return
    items = iter(value[lazy].items)
    first = next(items, _NONE)
    if first is _NONE:  # an empty list, written as json.dumps writes it
        _encode({**value, lazy: []}, level, write)
        return
    text = json.dumps({**value, lazy: [_MARK]}, indent=2)
    before, after = text.rsplit(json.dumps(_MARK), 1)
    write(_at(before, level))
    # a list's items are two levels below its dict: the dict's keys, then the items
    separator = _at(",\n" + INDENT * 2, level)
    for at, item in enumerate(chain([first], items)):
        if at:
            write(separator)
        _encode(item, level + 2, write)
    write(_at(after, level))


def _lazy_key(value: Any) -> str | None:
    """The key of a dict's `Lazy` list (its last value), or None."""
    if not isinstance(value, dict) or not value:
        return None
    keys = list(value)
    for key in keys[:-1]:
        if isinstance(value[key], Lazy):
            raise ValueError(f"a Lazy list must be its dict's last value, not {key!r}'s")
    return keys[-1] if isinstance(value[keys[-1]], Lazy) else None


def _at(text: str, level: int) -> str:
    """A value's text as it is written ``level`` levels down."""
    return text.replace("\n", "\n" + INDENT * level) if level else text
