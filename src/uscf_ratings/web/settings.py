"""What an app instance is started with."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: 2 MiB: the web's own cap, under the one of any input (`formats.bounds.MAX_INPUT_BYTES`),
#: and also the highest allowed: the estimator's page shows every player of a file, and a
#: file of 19,456 players took a worker to 534 MB (docs/web.md, "Limits").
DEFAULT_MAX_UPLOAD = 2 * 1024 * 1024


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

    def to_environment(self) -> dict[str, str]:
        """The settings as environment variables (`VARIABLES`), as `uscf serve` hands them
        to its workers: each is a new interpreter that builds its own app from them. A
        setting without a value (no database) has no variable."""
        values = {name: getattr(self, name) for name in VARIABLES}
        return {VARIABLES[name]: str(value) for name, value in values.items()
                if value is not None}

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> Settings:
        """The settings that `to_environment` gave; a variable unset or empty leaves the
        default. A number that is not one, or not positive, is a `ValueError` naming
        the variable.

        >>> settings = Settings("sqlite:///office.db", max_upload=4096)
        >>> settings.to_environment()["USCF_MAX_UPLOAD"]
        '4096'
        >>> Settings.from_environment(settings.to_environment()) == settings
        True
        >>> Settings.from_environment({"USCF_PAGE_SIZE": "0"})
        Traceback (most recent call last):
        ValueError: $USCF_PAGE_SIZE='0': expected a positive whole number
        """
        values: dict[str, Any] = {}
        for name, variable in VARIABLES.items():
            text = environ.get(variable, "").strip()
            if not text:
                continue
            if name == "db_url":
                values[name] = text
                continue
            try:
                number = parse_size(text) if name == "max_upload" else int(text)
            except ValueError:
                number = 0
            if number <= 0:
                raise ValueError(f"${variable}={text!r}: expected a positive whole number"
                                 + (" (or with K or M)" if name == "max_upload" else ""))
            values[name] = number
        return cls(**values)


#: The environment variable of each setting, for the workers of `uscf serve --workers N`
#: (USCF_DB is also the database every `uscf db` command uses by default).
VARIABLES = {"db_url": "USCF_DB", "max_upload": "USCF_MAX_UPLOAD",
             "max_games": "USCF_MAX_GAMES", "page_size": "USCF_PAGE_SIZE"}


def parse_size(text: str) -> int:
    """A size as bytes: ``2097152``, ``512K`` or ``2M`` (1024-based, as nginx reads them),
    at most `DEFAULT_MAX_UPLOAD` (which is under `formats.bounds.MAX_INPUT_BYTES`).

    >>> parse_size("2M"), parse_size("512k"), parse_size("1000")
    (2097152, 524288, 1000)
    >>> parse_size("3M")
    Traceback (most recent call last):
    ValueError: '3M' is more than 2M, the largest upload the web takes
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
    if size > DEFAULT_MAX_UPLOAD:  # the web's pages are held to the ceiling up to it
        raise ValueError(f"{text!r} is more than {DEFAULT_MAX_UPLOAD // (1024 * 1024)}M, the "
                         "largest upload the web takes")
    return size
