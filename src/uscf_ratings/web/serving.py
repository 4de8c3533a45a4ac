"""How responses travel: HEAD answered as GET without the body, static files cacheable.

Compression is Starlette's own `GZipMiddleware` (app.py); what is here is what no
middleware of the stack does for us:

- FastAPI routes answer GET only, so a HEAD (link checkers, monitors, `curl -I`) got 405.
  `HeadAsGet` runs the GET and sends its status and headers with no body (RFC 9110,
  section 9.3.2: the same header fields as GET).
- Static files are linked with a digest of their content (``style.css?v=1a2b3c4d``), so a
  browser may keep them for a year: an upgrade that changes a file changes its link.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: for a link that carries the file's digest; a link without one is kept an hour
CACHE_VERSIONED = "public, max-age=31536000, immutable"
CACHE_PLAIN = "public, max-age=3600"
#: files below this size are sent as they are (as `GZipMiddleware`'s minimum_size does)
GZIP_FROM = 1024


class HeadAsGet:
    """ASGI middleware: a HEAD request is served as GET, and the body is left out."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if not message.get("more_body", False):
                    await send({"type": "http.response.body", "body": b""})
                return
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)


class CachedStaticFiles(StaticFiles):
    """The app's CSS, script and icon, with a Cache-Control header; for a client that
    takes gzip, compressed once and kept (the stylesheet comes with a visitor's first
    page, and `GZipMiddleware`, which leaves a response already encoded alone, compressed
    it again for every request). A conditional request still gets its 304."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: each file's gzip body, by its path, modification time and size
        self._gzipped: dict[tuple[str, int, int], bytes] = {}

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        request = Headers(scope=scope)
        if response.status_code == 200 and takes_gzip(request.get("accept-encoding", "")) \
                and stat_result.st_size >= GZIP_FROM:
            # the compressed file is another representation: an ETag of its own (RFC 9110,
            # 8.8.3), which a conditional request may name for its 304
            etag = response.headers["etag"][:-1] + '-gzip"'
            kept = {k: v for k, v in response.headers.items()
                    if k in ("last-modified", "content-type")}
            headers = kept | {"ETag": etag, "Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
            if etag in [tag.strip() for tag in request.get("if-none-match", "").split(",")]:
                response = Response(status_code=304, headers={"ETag": etag,
                                                              "Vary": "Accept-Encoding"})
            else:
                key = (str(full_path), stat_result.st_mtime_ns, stat_result.st_size)
                body = self._gzipped.get(key)
                if body is None:
                    body = self._gzipped[key] = gzip.compress(Path(full_path).read_bytes(),
                                                              mtime=0)
                response = Response(body, headers=headers)
        versioned = b"v=" in scope.get("query_string", b"")
        response.headers["Cache-Control"] = CACHE_VERSIONED if versioned else CACHE_PLAIN
        return response


class WeighedGZip(GZipMiddleware):
    """`GZipMiddleware` for a client whose Accept-Encoding takes gzip (`takes_gzip`):
    Starlette's looks for the word alone, so ``gzip;q=0`` (gzip refused) got gzip."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not takes_gzip(Headers(scope=scope).get(
                "accept-encoding", "")):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def takes_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header takes gzip (RFC 9110, 12.5.3): named, or ``*``,
    with a weight above 0; names in any case.

    >>> takes_gzip("gzip, br"), takes_gzip("GZIP"), takes_gzip("gzip;q=0"), takes_gzip("br")
    (True, True, False, False)
    """
    for item in accept_encoding.lower().split(","):
        name, _, params = item.partition(";")
        if name.strip() in ("gzip", "x-gzip", "*"):
            weight = params.strip().removeprefix("q=")
            try:
                return not params.strip() or float(weight) > 0
            except ValueError:
                return False
    return False


def digests(folder: Path) -> dict[str, str]:
    """Each static file's name and the first 8 hex digits of its SHA-256, read once."""
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()[:8]
            for path in sorted(folder.iterdir()) if path.is_file()}
