"""How much of an input any door reads: the one ceiling (docs/formats.md, "The ceiling").

*Any input file up to* `MAX_INPUT_BYTES` *(10 MiB), of at most* `MAX_PLAYERS` *players
and* `MAX_RESULTS` *results, is read, checked, rated and written within*
`MEMORY_CEILING_MB` *(400 MB) of memory* by every door: ``uscf rate`` (each output
format), ``uscf convert``, ``uscf db rate`` and ``uscf db import-history``. Member
lists have caps of their own (`MAX_MEMBERS` rows, read and checked one at a time;
`MAX_MEMBER_LIST_BYTES` for a rating supplement), held by ``uscf db import-members`` to
the same ceiling. The web takes uploads of at most 2 MiB (``web.settings``: its
estimator's page shows every player, and is not yet within the ceiling past about
12,000 players). tests/formats/test_bounds_ceiling.py holds each door to it in a child
process, on files at the caps and on adversarial ones.

Why players and results as well as bytes: what rating and storing a file costs grows
with its players (about 3 KB each in the office: a rating's explanation, its lineup, its
stored rows) and its results (about 130 bytes each), and a CSV row of 40 bytes is a
player. Bytes alone bounded nothing: a 1.4 MB CSV of 32,768 players of two rounds took
``uscf db rate`` to 309 MB, and 2 MiB of them would have passed the ceiling.

How the figures were chosen (measured 2026-11, peak resident memory of the process, the
Numba kernels compiled already): a synthetic event JSON at every cap (10.0 MB, 19,456
players of 20 rounds, 389,120 results) takes ``uscf rate --format json`` to 141 MB,
``--format html`` to 198 MB, ``uscf convert`` to CSV to 214 MB and ``uscf db rate`` to
339 MB (about 200 MB of which any ``db rate`` takes: Numba, SQLAlchemy); a CSV crosstable
of 16,384 players of 24 rounds (2.96 MB, 393,216 results) takes ``rate --format json``
to 205 MB and ``db rate`` to 294 MB. The worst door keeps about 60 MB of margin. Before the
output was streamed (`json_stream`), a 9.6 MB event took ``rate --format json`` to 936
MB. A member list of 100,000 rows (7.8 MB) takes ``import-members`` to 255 MB (485 MB
before it was read a line at a time). The first
office command after installing compiles the kernels, once: it took 361 MB and 48 s with
a file of 255 KB.

What keeps memory in proportion to the file, rather than to what the file claims:

* a file over `MAX_INPUT_BYTES` is refused before it is read (`read_input`), and the
  members of an archive count against the same cap as they are unpacked
  (`uscf_ratings.formats.archive`);
* an event of more than `MAX_PLAYERS` players or `MAX_RESULTS` results is refused once
  read, before it is rated (`check_event_size`, in ``common.in_domain``, which every
  reader's output passes), and the CSV crosstable, whose rows are the cheapest, stops at
  the first row past either while it reads;
* JSON nests at most `MAX_JSON_DEPTH` levels and a number has at most `MAX_NUMBER_CHARS`
  characters (`parse_json`): Python's parser fails on deeper nesting with a
  RecursionError, and on an integer of more than 4,300 digits with a ValueError;
* no reader or writer sizes a table by a number read from the file (a round number, a
  record count or a field length in a header): tables are sized by what is present,
  and a format that must hold every round from 1 to the last is refused past
  `MAX_WRITTEN_CELLS` (`positional_rounds`);
* the result JSON is written a player at a time (`json_stream`), not built whole.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..core.model import Event, Section
from .errors import Issue, ParseError

#: The largest input file any door reads, in bytes (10 MiB; the module's text says why).
MAX_INPUT_BYTES = 10 * 1024 * 1024
#: The memory within which a file up to `MAX_INPUT_BYTES` is read, rated and written:
#: peak resident memory of the process, in MB (measured in
#: tests/formats/test_bounds_ceiling.py; docs/formats.md gives the figures).
MEMORY_CEILING_MB = 400
#: Levels of JSON nesting (an event JSON document has at most six; every format's JSON
#: fewer than ten).
MAX_JSON_DEPTH = 32
#: Characters of one JSON number (a rating with decimals has about twenty).
MAX_NUMBER_CHARS = 100
#: Players of one file, every section counted (the largest US Chess events have about
#: 5,500): memory grows by about 3 KB a player in the office (a rating's explanation, its
#: lineup and its stored rows), more than by the bytes that give it.
MAX_PLAYERS = 20_000
#: Results of one file (each game counted once for each player, each bye or forfeit
#: once): about 130 bytes each in the office. 20,000 players of 20 rounds.
MAX_RESULTS = 400_000
#: Members of one member list (a rating supplement, or the project's CSV or JSON list):
#: counted as the rows are read, each checked as it comes, so a list is never held whole.
MAX_MEMBERS = 100_000
#: Bytes of a rating supplement (read a line at a time; its members are capped by
#: `MAX_MEMBERS`, its bytes by this, so that reading it ends).
MAX_MEMBER_LIST_BYTES = 64 * 1024 * 1024
#: Characters of one line of a rating supplement (a line is about 100; one line is held
#: whole while it is read).
MAX_MEMBER_LINE_CHARS = 65_536
#: Round cells a format that holds every round from 1 to the last (TRF, the CSV
#: crosstable's JSON) writes for one section: players times the last round. A section of
#: 2,000 players and 40 rounds needs 80,000; one of `MAX_PLAYERS` and 52 rounds, about a
#: million.
MAX_WRITTEN_CELLS = 1024 * 1024


def too_large(size: int) -> Issue:
    """The issue of a file of ``size`` bytes, over the cap."""
    return Issue("", f"{size:,} bytes: larger than the {MAX_INPUT_BYTES:,} bytes "
                     f"({MAX_INPUT_BYTES // (1024 * 1024)} MiB) any input may have")


def too_many(count: int, what: str, cap: int) -> str:
    """What a file with ``count`` players or results (``what``) over ``cap`` is told."""
    return f"{count:,} {what}: more than the {cap:,} one file may have"


def check_event_size(event: Event, source: str) -> Event:
    """``event`` itself, or a `ParseError` naming ``source`` when it has more than
    `MAX_PLAYERS` players or `MAX_RESULTS` results: what rating and storing it costs
    grows with them, not with the file's bytes (docs/formats.md, "The ceiling")."""
    players = sum(len(s.players) for s in event.sections)
    if players > MAX_PLAYERS:
        raise ParseError(source, [Issue("", too_many(players, "players", MAX_PLAYERS))])
    results = sum(len(p.results) for s in event.sections for p in s.players)
    if results > MAX_RESULTS:
        raise ParseError(source, [Issue("", too_many(results, "results", MAX_RESULTS))])
    return event


def read_input(path: Path | str) -> bytes:
    """A file's bytes, or a `ParseError` naming the file when it is larger than
    `MAX_INPUT_BYTES` (checked before reading, and again while reading: a file can grow,
    and a pipe has no size) or cannot be read."""
    path = Path(path)
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
            if len(data) > MAX_INPUT_BYTES:
                handle.seek(0, 2)
                raise ParseError(str(path), [too_large(max(handle.tell(), len(data)))])
    except OSError as error:
        raise ParseError(str(path), [Issue("", f"cannot be read: "
                                           f"{error.strerror or error}")]) from None
    return data


def check_size(data: bytes, source: str) -> bytes:
    """``data`` itself, or a `ParseError` when it is over `MAX_INPUT_BYTES`."""
    if len(data) > MAX_INPUT_BYTES:
        raise ParseError(source, [too_large(len(data))])
    return data


class _LongNumber(ValueError):
    pass


def _bounded(convert: type[int] | type[float]) -> Any:
    def parse(text: str) -> int | float:
        if len(text) > MAX_NUMBER_CHARS:
            raise _LongNumber(text)
        return convert(text)
    return parse


_parse_int, _parse_float = _bounded(int), _bounded(float)
#: A JSON string, a bracket, or a run of number characters: what `_place` walks.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|[-+0-9.eE]{%d,}' % (MAX_NUMBER_CHARS + 1))
#: Bytes as `_NUMBER_MASK` maps them: a character that can be part of a JSON number is "1".
_NUMBER_MASK = bytes(ord("1") if chr(i) in "-+0123456789.eE" else ord("0") for i in range(256))
_TOO_LONG_NUMBER = b"1" * (MAX_NUMBER_CHARS + 1)
#: Every byte but the brackets, the quotes and the backslash: what `nesting` looks past.
_NOT_STRUCTURE = bytes(i for i in range(256) if chr(i) not in '[]{}"\\')
#: A JSON string (its backslashes escaping the next character).
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)


def parse_json(text: str, source: str) -> Any:
    """Parse JSON text, or raise a `ParseError` naming ``source`` and the line and column:
    invalid JSON, nesting deeper than `MAX_JSON_DEPTH`, or a number longer than
    `MAX_NUMBER_CHARS` (each refused before Python's parser fails on it)."""
    # A number can be too long only where the text has a run of number characters that
    # long: without one, Python's own conversions are used, as the bounded ones cost a
    # call of Python for every number (a quarter of reading an event file)
    raw = text.encode("utf-8", "surrogatepass")
    bounded = _TOO_LONG_NUMBER in raw.translate(_NUMBER_MASK)
    try:
        data = json.loads(text, parse_int=_parse_int, parse_float=_parse_float) if bounded \
            else json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(source, [Issue(f"line {error.lineno} column {error.colno}",
                                        f"not valid JSON: {error.msg}")]) from None
    except (RecursionError, _LongNumber):
        raise ParseError(source, [_place(text)]) from None
    if nesting(raw) > MAX_JSON_DEPTH:
        raise ParseError(source, [_place(text)])
    return data


def _place(text: str) -> Issue:
    """Where the text first nests too deep or holds too long a number (strings skipped)."""
    depth = 0
    for token in _TOKEN.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return Issue(_line_column(text, token.start()),
                             f"JSON nested more than {MAX_JSON_DEPTH} levels deep")
        elif mark in "]}":
            depth -= 1
        elif not mark.startswith('"'):
            return Issue(_line_column(text, token.start()),
                         f"a number of {len(mark):,} characters; at most "
                         f"{MAX_NUMBER_CHARS} are read")
    return Issue("", f"JSON nested more than {MAX_JSON_DEPTH} levels deep, or a number "
                     f"of more than {MAX_NUMBER_CHARS} characters")


def _line_column(text: str, offset: int) -> str:
    line = text.count("\n", 0, offset) + 1
    return f"line {line} column {offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def nesting(raw: bytes) -> int:
    """How deeply lists and objects nest in valid JSON (its UTF-8 bytes; a scalar is 0),
    counted up to `MAX_JSON_DEPTH` + 1. With its strings taken out, its brackets are well
    nested; each pass takes out the pairs that hold nothing, all at once (those it
    empties wait for the next pass), so the passes needed are the depth."""
    marks = raw.translate(None, _NOT_STRUCTURE)
    if b"\\" in marks:  # an escape: the strings are found by their grammar
        marks = _STRING.sub(b"", raw).translate(None, _NOT_STRUCTURE)
    else:  # every quote ends or begins a string: most hold no bracket, and go at once
        marks = marks.replace(b'""', b"")
        if b'"' in marks:
            marks = _STRING.sub(b"", marks)
    depth = 0
    while marks and depth <= MAX_JSON_DEPTH:
        marks = marks.replace(b"[]", b".").replace(b"{}", b".").replace(b".", b"")
        depth += 1
    return depth


def positional_rounds(section: Section, fmt: str) -> int:
    """The last round of ``section``, for a format (named ``fmt``) that writes a cell for
    every round from 1 to it; a `ValueError` naming the section when that is more than
    `MAX_WRITTEN_CELLS` cells (a file's ``round1000000000`` would be a billion cells per
    player: the output is never sized by the largest number alone)."""
    last = max((r.round for p in section.players for r in p.results), default=0)
    cells = last * len(section.players)
    if cells > MAX_WRITTEN_CELLS:
        raise ValueError(f"cannot write section {section.number} as {fmt}: its last round is "
                         f"{last:,}, and {fmt} holds every round from 1 to the last: "
                         f"{cells:,} cells for {len(section.players):,} players, more than the "
                         f"{MAX_WRITTEN_CELLS:,} written")
    return last
