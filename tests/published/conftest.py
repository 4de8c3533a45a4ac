"""A ratings API on 127.0.0.1 that answers from recorded responses (recorded/README.md):
the tests never touch the network."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.conftest import SHARED, skip_or_fail

RECORDED = Path(__file__).parent / "recorded"
RAW = SHARED / "recent" / "raw"
#: member 12345678's real section history (recent/README.md)
MEMBER_HISTORY = RAW / "member_12345678_sections.json"


def real(path: Path) -> Path:
    """``path``, a file of ../shared; the test is skipped (failed under CI) where this
    clone has no ../shared."""
    if not path.is_file():
        skip_or_fail(f"the real records are not here: {path} is missing (a clone without "
                     "../shared)")
    return path


@dataclass
class RecordedApi:
    """The server's routes: a path (under /api/v1) to the answers it gives, in turn (the
    last again and again); each answer a status, a body and headers. ``seen`` lists the
    requests: (path, query, User-Agent)."""

    url: str = ""
    routes: dict[str, list[tuple[int, bytes, dict[str, str]]]] = field(default_factory=dict)
    seen: list[tuple[str, dict[str, list[str]], str]] = field(default_factory=list)

    def answer(self, path: str, body: bytes | dict[str, object], status: int = 200,
               headers: dict[str, str] | None = None) -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.routes.setdefault(path, []).append((status, data, headers or {}))

    def answer_file(self, path: str, file: Path) -> None:
        self.answer(path, file.read_bytes())

    def standings_pages(self, path: str, pages: list[Path]) -> None:
        """Answer ``path`` by the ``Offset`` of the request: each page at its own."""
        for page in pages:
            offset = json.loads(page.read_text())["offset"]
            self.answer(f"{path}?Offset={offset}", page.read_bytes())


def _handler(api: RecordedApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            parts = urlsplit(self.path)
            query = parse_qs(parts.query)
            path = parts.path.removeprefix("/api/v1")
            api.seen.append((path, query, self.headers.get("User-Agent", "")))
            answers = api.routes.get(f"{path}?Offset={query.get('Offset', ['0'])[0]}") \
                or api.routes.get(path)
            if not answers:
                status, body, headers = 404, b'{"title": "Not Found"}', {}
            else:
                status, body, headers = answers.pop(0) if len(answers) > 1 else answers[0]
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@pytest.fixture
def recorded_api() -> Iterator[RecordedApi]:
    api = RecordedApi()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    api.url = f"http://127.0.0.1:{server.server_address[1]}/api/v1"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield api
    server.shutdown()
    server.server_close()


def made_up_match(api: RecordedApi) -> None:
    """The made-up two-player event 900000000001, its standings in two pages."""
    api.answer_file("/rated-events/900000000001", RECORDED / "event-900000000001.json")
    api.answer_file("/rated-events/900000000001/sections/1",
                    RECORDED / "section-900000000001-1.json")
    api.standings_pages("/rated-events/900000000001/sections/1/standings",
                        sorted(RECORDED.glob("standings-900000000001-1-page*.json")))


def rockville(api: RecordedApi) -> None:
    """The Rockville event: its records written from the schema, its standings real."""
    api.answer_file("/rated-events/202508311982", RECORDED / "event-202508311982.json")
    api.answer_file("/rated-events/202508311982/sections/2",
                    RECORDED / "section-202508311982-2.json")
    api.answer_file("/rated-events/202508311982/sections/2/standings",
                    RAW / "202508311982_s02_standings.json")
