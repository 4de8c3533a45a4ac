"""A digest of what a section's rating writes, so that a re-rate leaves alone the
sections whose rows come out as they are stored.

A re-rate rates every section from its key on again (office/run.py). After a correction
of the synthetic year's first event, 8,122 of its 20,821 sections (157,819 of 518,052
rows) come out exactly as stored; writing a row costs about 4 microseconds whether it
changed or not (binding its 27 values is most of it, not SQLite's tree), which made
the UPDATE a third of a year's re-rate (docs/performance.md).

A section's digest is a BLAKE2b hash of everything its rows of ``ratings`` and
``rating_match_changes`` are made from (`run._rows`): its key, its members and systems
in row order, every column of the engine's outputs for its rows bit for bit (a float by
its 64 bits, so that -0.0 and 0.0, or two NaNs, are told apart), the games won, drawn
and lost, and the match changes the states carry. The rows are a function of these, so
an equal digest means equal rows. ``sections.rows_digest`` keeps the digest of the rows
stored, written with them; a re-rate that finds the same digest for a section that has
its rows skips them. A section rated from its model (a match, a foreign event: rare)
gets none and is always written. What makes the rows from those values (`ROW_FORMAT`,
the outputs' fields and the table's columns) goes into every digest: a change of it
changes every digest, and the first re-rate after it writes every row.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from datetime import date
from hashlib import blake2b
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: the version of `run._rows`'s making of rows from the engine's outputs: raise it with
#: any change there that a change of the columns' names would not show
ROW_FORMAT = 1
#: the bytes a digest takes (hex: twice as many characters, schema.sections.rows_digest)
SIZE = 16


def format_seed(output_fields: Sequence[str], row_order: Sequence[str]) -> bytes:
    """What every digest starts from: `ROW_FORMAT`, the engine's output columns and the
    columns of a row of ``ratings``, in their orders."""
    text = json.dumps([ROW_FORMAT, list(output_fields), list(row_order)])
    return blake2b(text.encode(), digest_size=SIZE).digest()


def section_identity(event_id: str, number: int, end: date, start: date,
                     systems: Sequence[str], members: Sequence[str]) -> bytes:
    """A section's key, its systems and its members in row order, as bytes that tell
    any two apart (JSON)."""
    return json.dumps([event_id, number, end.isoformat(), start.isoformat(), list(systems),
                       list(members)]).encode()


def section_digests(seed: bytes, columns: Sequence[NDArray[Any]],
                    spans: Sequence[tuple[int, int] | None], identities: Sequence[bytes],
                    carried: Mapping[int, Any]) -> list[str | None]:
    """The digest (hex) of each section of a part, or None where its span is None (a
    section rated from its model). ``columns``: the engine's outputs and the counts of
    games, one value a row each; ``spans``: each section's rows, [start, stop);
    ``carried``: by row, what the engine keeps of a state beyond the outputs (whether
    its N is known, its match changes), for the few rows that have any."""
    matrix = np.column_stack([
        column.view(np.int64) if column.dtype == np.float64 else column.astype(np.int64)
        for column in columns]) if columns else np.zeros((0, 0), np.int64)
    special = sorted(carried)
    out: list[str | None] = []
    for span, identity in zip(spans, identities, strict=True):
        if span is None:
            out.append(None)
            continue
        start, stop = span
        digest = blake2b(seed, digest_size=SIZE)
        digest.update(identity)
        digest.update(matrix[start:stop].data)
        low, high = bisect_left(special, start), bisect_left(special, stop)
        if low < high:  # rows numbered from the section's first: the same in any part
            digest.update(repr([(row - start, carried[row])
                                for row in special[low:high]]).encode())
        out.append(digest.hexdigest())
    return out
