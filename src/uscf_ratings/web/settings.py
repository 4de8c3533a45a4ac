"""What an app instance is started with."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_MAX_UPLOAD = 2 * 1024 * 1024  #: 2 MiB: a large rating report zips to far less


@dataclass(frozen=True)
class Settings:
    #: The office database's URL; None runs the estimator alone (no office pages or API).
    db_url: str | None = None
    #: The largest request body accepted, in bytes (uploads, pasted events, API bodies).
    max_upload: int = DEFAULT_MAX_UPLOAD
    #: The most games the estimator takes for one player (a bound on the work per request).
    max_games: int = 100
    #: Rows shown on a page of the member list.
    page_size: int = 50


def parse_size(text: str) -> int:
    """A size as bytes: ``2097152``, ``512K`` or ``2M`` (1024-based, as nginx reads them).

    >>> parse_size("2M"), parse_size("512k"), parse_size("1000")
    (2097152, 524288, 1000)
    """
    text = text.strip().upper().removesuffix("B").removesuffix("I")
    factor = {"K": 1024, "M": 1024 * 1024}.get(text[-1:], 1)
    number = text[:-1] if factor > 1 else text
    try:
        size = int(float(number) * factor)
    except ValueError:
        raise ValueError(f"{text!r} is not a size: write bytes, or a number with K or M") from None
    if size <= 0:
        raise ValueError("the size must be positive")
    return size
