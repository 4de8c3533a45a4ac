"""Mutations of a seed: bytes, text, JSON values and zip members.

Each mutation takes a `random.Random` and the seed's bytes (and, for a splice, the bytes
of another seed) and returns new bytes with a short description of what it did, so that
a finding says how its input was made. Everything is drawn from the one generator: a
run is repeated exactly by its seed.
"""

from __future__ import annotations

import io
import json
import random
import re
import struct
import warnings
import zipfile
from collections.abc import Callable
from typing import Any

#: numbers a field must survive: 0, -1, past 64 bits, past any float's integer range,
#: longer than Python's int-to-str limit (4300 digits), the largest float, not a number
EXTREME_NUMBERS = ("0", "-1", str(2**63), str(10**30), "9" * 4301, "1e308", "NaN",
                   "-9223372036854775809", "0.5", "1e-320")
#: dates a field must survive: the last day, before the rules, impossible
EXTREME_DATES = ("9999-12-31", "0001-01-01", "1899-12-31", "2026-02-30", "2025-13-01")
#: characters no name may carry unseen
CONTROL = ("\x00", "\x1b[2J", "\r", "\n", "\t", "\u202e", "\x7f", "\x85", "\ufeff")
#: JSON nested this deep: beyond the recursion limit, and far beyond
DEPTHS = (1_000, 100_000)
#: a placeholder for a bare JSON number of 4301 digits (json.dumps cannot write one)
RAW_DIGITS = "\u0000raw-4301-digits"

NUMBER = re.compile(rb"-?\d+(?:\.\d+)?")
DATE = re.compile(rb"(\d{4})([-/.])(\d{1,2})\2(\d{1,2})")
NAME = re.compile(rb"[A-Za-z]{3,}")

Mutation = Callable[[random.Random, bytes, bytes], tuple[bytes, str]]


def _span(rng: random.Random, size: int) -> tuple[int, int]:
    start = rng.randrange(size + 1)
    length = min(size - start, rng.choice((1, 2, 4, 8, 16, 64, 512)))
    return start, start + length


def flip(rng: random.Random, data: bytes, _other: bytes) -> tuple[bytes, str]:
    if not data:
        return b"\x00", "flip: empty -> one byte"
    out = bytearray(data)
    places = [rng.randrange(len(out)) for _ in range(rng.choice((1, 1, 2, 4)))]
    for at in places:
        out[at] ^= 1 << rng.randrange(8)
    return bytes(out), f"flip bits at {places}"


def insert(rng: random.Random, data: bytes, _other: bytes) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    if data and rng.random() < 0.5:
        start, end = _span(rng, len(data))
        chunk = data[start:end]
    else:
        chunk = bytes(rng.randrange(256) for _ in range(rng.choice((1, 3, 16))))
    return data[:at] + chunk + data[at:], f"insert {len(chunk)} bytes at {at}"


def delete(rng: random.Random, data: bytes, _other: bytes) -> tuple[bytes, str]:
    start, end = _span(rng, len(data))
    return data[:start] + data[end:], f"delete bytes {start}..{end}"


def duplicate(rng: random.Random, data: bytes, _other: bytes) -> tuple[bytes, str]:
    start, end = _span(rng, len(data))
    times = rng.choice((1, 2, 10))
    return data[:end] + data[start:end] * times + data[end:], \
        f"duplicate bytes {start}..{end} x{times}"


def splice(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    cut, other_cut = rng.randrange(len(data) + 1), rng.randrange(len(other) + 1)
    return data[:cut] + other[other_cut:], f"splice at {cut} with another seed from {other_cut}"


def _replace_match(rng: random.Random, data: bytes, pattern: re.Pattern[bytes],
                   make: Callable[[re.Match[bytes]], bytes]) -> tuple[bytes, str] | None:
    found = list(pattern.finditer(data[:200_000]))
    if not found:
        return None
    match = rng.choice(found)
    new = make(match)
    if len(new) < len(match.group()) and rng.random() < 0.5:  # keep fixed columns
        new = new.rjust(len(match.group()))
    return data[:match.start()] + new + data[match.end():], \
        f"{match.group()[:20]!r} at {match.start()} -> {new[:20]!r}" + \
        (f"...({len(new)} bytes)" if len(new) > 20 else "")


def number(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    done = _replace_match(rng, data, NUMBER,
                          lambda _m: rng.choice(EXTREME_NUMBERS).encode())
    return done if done else flip(rng, data, other)


def day(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    def make(m: re.Match[bytes]) -> bytes:
        year, month, dd = rng.choice(EXTREME_DATES).split("-")
        return sep_join(m.group(2), year, month, dd)

    done = _replace_match(rng, data, DATE, make)
    return done if done else number(rng, data, other)


def sep_join(sep: bytes, year: str, month: str, dd: str) -> bytes:
    return sep.join(part.encode() for part in (year, month, dd))


def control(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    found = list(NAME.finditer(data[:200_000]))
    if not found:
        return insert(rng, data, other)
    match = rng.choice(found)
    at = rng.randrange(match.start(), match.end() + 1)
    char = rng.choice(CONTROL)
    text = json.dumps(char)[1:-1].encode() if _is_json(data) and rng.random() < 0.5 \
        else char.encode()
    return data[:at] + text + data[at:], f"control {char!r} in a name at {at}"


def _is_json(data: bytes) -> bool:
    return data.lstrip()[:1] in (b"{", b"[")


# --- JSON: a value anywhere in the tree ---------------------------------------------------

def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node[:50]):
            out += _paths(value, (*path, index))
    return out


def _extreme_value(rng: random.Random, old: Any) -> tuple[Any, str]:
    choice = rng.randrange(8)
    if choice == 0:
        return rng.choice((0, -1, 2**63, 10**30, 99999, -(2**63) - 1)), "int"
    if choice == 1:
        return rng.choice((1e308, float("nan"), float("inf"), -0.0, 0.5)), "float"
    if choice == 2:
        return rng.choice(EXTREME_DATES), "date"
    if choice == 3:
        return (str(old) if old is not None else "x") + rng.choice(CONTROL), "control"
    if choice == 4:
        return rng.choice((None, "", [], {}, True, "x" * 5000)), "type"
    if choice == 5:
        return RAW_DIGITS if rng.random() < 0.5 else "9" * 4301, "4301 digits"
    if choice == 6 and isinstance(old, str):
        return old[::-1], "reversed"
    return rng.choice(("1", "W2", "1500P4", "-", "0000")), "text"


def json_value(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    try:
        tree = json.loads(data)
    except (ValueError, RecursionError):
        return number(rng, data, other)
    paths = _paths(tree)[1:]
    if not paths:
        return number(rng, data, other)
    shallow = [p for p in paths if len(p) <= 2]  # whole sections, players, the event
    path = rng.choice(shallow if shallow and rng.random() < 0.3 else paths)
    parent = tree
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    action = rng.randrange(4)
    if action == 0 and isinstance(parent, list):  # e.g. two sections of one number
        parent.insert(last, json.loads(json.dumps(parent[last])))
        how = "duplicated"
    elif action == 1:
        del parent[last]
        how = "deleted"
    else:
        parent[last], kind = _extreme_value(rng, parent[last])
        how = f"set ({kind})"
    text = json.dumps(tree, indent=1 if rng.random() < 0.5 else None)
    text = text.replace(json.dumps(RAW_DIGITS), "9" * 4301)
    return text.encode(), f"json {'.'.join(map(str, path))[:80]} {how}"


def deep(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    depth = rng.choice(DEPTHS)
    nested = b"[" * depth + b"]" * depth
    found = list(re.finditer(rb":\s*(\d+|\"[^\"\\]*\")", data[:200_000]))
    if not found or rng.random() < 0.2:
        return nested, f"JSON nested {depth} deep (alone)"
    match = rng.choice(found)
    return data[:match.start(1)] + nested + data[match.end(1):], \
        f"JSON nested {depth} deep at {match.start(1)}"


# --- zips ---------------------------------------------------------------------------------

LOCAL = b"PK\x03\x04"
CENTRAL = b"PK\x01\x02"


#: a member is read up to this many bytes to be mutated (a seed may be a bomb)
MEMBER_CAP = 1_000_000


def _capped(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    with archive.open(info) as member:
        return member.read(MEMBER_CAP)


def zip_member(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """A member of the zip mutated (as text or bytes) and the zip written again: the
    tables inside are reached, not only the zip's checksums."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [(i, _capped(archive, i)) for i in archive.infolist()[:10]]
    except Exception:  # a zip our mutations broke already: mutate its bytes
        return flip(rng, data, other)
    if not members:
        return flip(rng, data, other)
    index = rng.randrange(len(members))
    info, content = members[index]
    new, how = rng.choice(BYTES_AND_TEXT)(rng, content, other)
    out = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")  # a name twice is what we mean
        for i, (each, body) in enumerate(members):
            archive.writestr(each.filename, new if i == index else body)
            if rng.random() < 0.05:
                archive.writestr(each.filename, body)  # the member twice
    return out.getvalue(), f"zip member {info.filename}: {how}"


def zip_header(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """A field of a local or central header changed: the sizes, the method, the flags
    (bit 0: encrypted)."""
    heads = [m.start() for m in re.finditer(re.escape(LOCAL) + b"|" + re.escape(CENTRAL),
                                            data)]
    if not heads:
        return flip(rng, data, other)
    at = rng.choice(heads)
    local = data[at:at + 4] == LOCAL
    # offsets of (flags, method, compressed size, uncompressed size) in each header
    fields = {"flags": (6, 8), "method": (8, 10), "compressed": (18, 20),
              "uncompressed": (22, 24)} if local else \
        {"flags": (8, 10), "method": (10, 12), "compressed": (20, 22), "uncompressed": (24, 26)}
    name = rng.choice(sorted(fields))
    offset = at + fields[name][0]
    if name == "flags":
        value, size = struct.unpack_from("<H", data, offset)[0] | rng.choice((1, 8, 64)), 2
    elif name == "method":
        value, size = rng.choice((0, 8, 12, 14, 93, 99, 65535)), 2
    else:
        value, size = rng.choice((0, 1, 100, 0xFFFFFFFF, 2**31)), 4
    if offset + size > len(data):
        return flip(rng, data, other)
    packed = struct.pack("<H" if size == 2 else "<I", value)
    where = "local" if local else "central"
    return data[:offset] + packed + data[offset + size:], f"zip {where} header at {at}: {name} = {value}"


def zip_recompressed(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """The members compressed with bzip2 or LZMA, and a member much larger than its
    directory says (what a bomb does)."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [(i.filename, _capped(archive, i)) for i in archive.infolist()[:10]]
    except Exception:
        return flip(rng, data, other)
    method = rng.choice((zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA, zipfile.ZIP_STORED))
    grow = rng.choice((1, 200)) if sum(len(b) for _n, b in members) < 20_000 else 1
    out = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(out, "w", method) as archive:
        warnings.simplefilter("ignore")  # a name twice is what the seed holds
        for name, body in members:
            archive.writestr(name, body * grow)
    return out.getvalue(), f"zip recompressed (method {method}), members x{grow}"


BYTES_AND_TEXT: tuple[Mutation, ...] = (flip, insert, delete, duplicate, number, number,
                                        day, control)
JSON_ONLY: tuple[Mutation, ...] = (json_value, json_value, json_value, deep)
ZIP_ONLY: tuple[Mutation, ...] = (zip_member, zip_member, zip_member, zip_header,
                                  zip_recompressed)


def mutations_for(data: bytes) -> tuple[Mutation, ...]:
    if data[:4] == LOCAL:
        return ZIP_ONLY + (flip, delete, splice)
    if _is_json(data):
        return BYTES_AND_TEXT + JSON_ONLY + (splice,)
    return BYTES_AND_TEXT + (splice,)


def mutate(rng: random.Random, data: bytes, other: bytes) -> tuple[bytes, str]:
    """One to three mutations, one after the other; the data and what was done."""
    hows = []
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        operator = rng.choice(mutations_for(data))
        data, how = operator(rng, data, other)
        hows.append(how)
        if len(data) > 12_000_000:  # beyond the ceiling's 10 MB of input
            data = data[:12_000_000]
    return data, "; ".join(hows)
