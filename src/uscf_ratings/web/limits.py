"""What the app accepts of a request, so that an odd one gets a 4xx that says why, never a 500.

* The request body: at most ``uscf serve --max-upload`` bytes, else 413 (`BodyLimit`).
* JSON (API bodies, pasted events): the readers' one rule, `formats.bounds.parse_json`
  (at most 32 levels of nesting, numbers of at most 100 characters), else 400.
* Member searches: at most `MAX_SEARCH` characters (SQLite refuses a LIKE pattern
  past 50,000 bytes; no name or id is near 100), else 422.
* Offsets and page numbers: at most `MAX_OFFSET` and `MAX_PAGE` (SQLite integers are
  64-bit; a 30-digit offset overflowed), else 422.
* An event uploaded to the estimator's page: at most `MAX_PAGE_PLAYERS` players, else 422.

The body limit:

Checked as the body is read, so an oversized upload is refused before it is held in
memory: at once when its Content-Length says too much, else as soon as the bytes received
pass the limit (a chunked body has no Content-Length). The refusal is an HTTPException,
so the app's handlers answer it like any other: JSON under /api, a page elsewhere.
"""

from __future__ import annotations

from fastapi import Query
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..core.domain import STATE_LENGTH

MAX_SEARCH = 100  #: characters of a member search
MAX_OFFSET = 1_000_000_000  #: rows skipped by an API listing
MAX_PAGE = 10_000_000  #: a page number of the member and event lists
#: players of an uploaded event shown on the estimator's page: the page holds every
#: player's row and explanation, about 3.5 KB of HTML and 25 KB of memory a player, so
#: past this a worker would leave the memory ceiling (docs/guarantees.md); the largest
#: sections US Chess rates are near 1,500 players. `uscf rate` rates larger files.
MAX_PAGE_PLAYERS = 5_000
#: a state chosen for the rating list: as long as the members table keeps one
#: (core/domain.py, Member.state), in letters, digits, spaces, dots and hyphens, so that
#: it goes into a page, a link and a file's name as it is
STATE_PATTERN = r"^[A-Za-z0-9 .-]*$"
STATE_QUERY = Query("", max_length=STATE_LENGTH, pattern=STATE_PATTERN,
                    description="a state, as the members list gives it (case ignored)")


def too_large(limit: int) -> HTTPException:
    return HTTPException(413, f"the request body is larger than this server accepts "
                              f"({limit:,} bytes; `uscf serve --max-upload` sets the limit)")


class BodyLimit:
    """ASGI middleware: at most ``limit`` bytes of request body."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        received = 0

        async def limited() -> Message:
            nonlocal received
            if declared is not None and declared.isdigit() and int(declared) > self.limit:
                raise too_large(self.limit)
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise too_large(self.limit)
            return message

        await self.app(scope, limited, send)
