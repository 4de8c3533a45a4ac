"""Download what US Chess publishes through its ratings API, politely, into files that
the readers take (formats/ratings_api.py): ``uscf fetch``.

The public API (``https://ratings-api.uschess.org/api/v1``, described by
shared/spec/uschess-ratings-api-openapi.json) needs no key for what is read here:

* an event: ``/rated-events/{id}`` (its record and its sections), then for each
  section ``/rated-events/{id}/sections/{n}`` and its standings,
  ``/rated-events/{id}/sections/{n}/standings``, page by page (``Offset``, ``Size``);
* a member's rated sections: ``/members/{id}/sections``, page by page;
* a member's norms and awards (titles): ``/members/{id}/norms`` (one response) and
  ``/members/{id}/awards``, page by page (formats/member_titles.py reads them).

Politely: one request at a time, each with a timeout (`TIMEOUT_S`), a User-Agent that
names the project, and a request that fails for a reason that may pass (no connection,
a timeout, 429 or 5xx) tried again after a growing pause (`RETRY_PAUSES_S`, or the
``Retry-After`` the server asks for, up to `MAX_PAUSE_S`). Any other failure ends the
download with one line (`FetchError`). Each response is kept exactly as it came, inside
one file a download (`BUNDLE_MARK`), so that what is read later is what was published.

The HTTP client is httpx2 (the ``fetch`` extra): ``pip install 'uscf-ratings[fetch]'``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from .ratings_api import BUNDLE_MARK

if TYPE_CHECKING:
    import httpx2

BASE_URL = "https://ratings-api.uschess.org/api/v1"
TIMEOUT_S = 30.0
#: the pauses before the second, third and fourth tries of a request
RETRY_PAUSES_S = (2.0, 8.0, 30.0)
MAX_PAUSE_S = 120.0
#: rows asked for a page
PAGE_SIZE = 100


class FetchError(Exception):
    """A download that failed: one line, saying what was asked and what came back."""


def user_agent() -> str:
    try:
        ours = version("uscf-ratings")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        ours = "unknown"
    return f"uscf-ratings/{ours} (the US Chess rating system, open source; one request " \
           "at a time)"


class RatingsApi:
    """The API at ``base_url``, one request at a time. ``client``: an httpx2 client of
    one's own (the tests give one that answers from recorded responses); ``sleep``:
    how to pause between tries."""

    def __init__(self, base_url: str = BASE_URL, client: httpx2.Client | None = None,
                 sleep: Callable[[float], None] = time.sleep,
                 said: Callable[[str], None] = lambda _line: None):
        if client is None:
            try:
                import httpx2
            except ImportError:
                raise FetchError("downloading needs the HTTP client httpx2: pip install "
                                 "'uscf-ratings[fetch]'") from None
            client = httpx2.Client(timeout=TIMEOUT_S, follow_redirects=True)
        self._client = client
        self._base = base_url.rstrip("/")
        self._sleep = sleep
        self._said = said  #: told of each pause before a try again

    def close(self) -> None:
        self._client.close()

    def event(self, event_id: str) -> dict[str, Any]:
        """The event ``event_id``: its record, and each section's record and standings,
        as the file `uscf fetch` writes (formats/ratings_api.py reads it)."""
        _check_id(event_id, "event")
        path = f"/rated-events/{event_id}"
        record = self.get(path)
        sections = []
        for at, section in enumerate(_items_of(record.get("sections"), f"{path}: sections")):
            number = section.get("number")
            if not isinstance(number, int):
                raise FetchError(f"{self._base}{path}: sections[{at}] has no number")
            sections.append({
                "section": self.get(f"{path}/sections/{number}"),
                "standings": self.pages(f"{path}/sections/{number}/standings"),
            })
        return {"format": BUNDLE_MARK, "source": f"{self._base}{path}", "event": record,
                "sections": sections}

    def member_sections(self, member_id: str) -> dict[str, Any]:
        """Every rated section of member ``member_id``, as the file `uscf fetch
        --member` writes (``uscf db import-history`` reads it)."""
        _check_id(member_id, "member")
        path = f"/members/{member_id}/sections"
        return {"format": BUNDLE_MARK, "source": f"{self._base}{path}",
                "member": member_id, "member_sections": self.pages(path)}

    def member_titles(self, member_id: str) -> dict[str, Any]:
        """The norms and awards of member ``member_id``, as the file `uscf fetch --member
        ID --titles` writes (formats/member_titles.py reads it, `uscf verify` compares
        it)."""
        _check_id(member_id, "member")
        path = f"/members/{member_id}"
        return {"format": BUNDLE_MARK, "source": f"{self._base}{path}",
                "member": member_id, "member_norms": self.get(f"{path}/norms"),
                "member_awards": self.pages(f"{path}/awards")}

    def pages(self, path: str) -> list[dict[str, Any]]:
        """Every page of a paged list, in order."""
        pages: list[dict[str, Any]] = []
        offset = 0
        while True:
            page = self.get(path, {"Offset": offset, "Size": PAGE_SIZE})
            items = _items_of(page.get("items"), f"{path} (offset {offset}): items")
            pages.append(page)
            if not page.get("hasNextPage") or not items:
                return pages
            offset += len(items)

    def get(self, path: str, params: dict[str, int] | None = None) -> dict[str, Any]:
        """One JSON object from ``path``, tried again as the module says."""
        import httpx2

        url = f"{self._base}{path}"
        pauses = list(RETRY_PAUSES_S)
        while True:
            try:
                response = self._client.get(url, params=params,
                                            headers={"User-Agent": user_agent(),
                                                     "Accept": "application/json"})
            except httpx2.TransportError as error:  # no connection, a timeout
                if not pauses:
                    raise FetchError(f"{url}: {_reason(error)} ({len(RETRY_PAUSES_S) + 1} "
                                     "tries)") from None
                self._pause(pauses.pop(0), f"{url}: {_reason(error)}")
                continue
            if response.status_code == 429 or response.status_code >= 500:
                if not pauses:
                    raise FetchError(f"{url}: the server answered {response.status_code} "
                                     f"{response.reason_phrase} "
                                     f"({len(RETRY_PAUSES_S) + 1} tries)")
                self._pause(_retry_after(response, pauses.pop(0)),
                            f"{url}: the server answered {response.status_code}")
                continue
            if response.status_code == 404:
                raise FetchError(f"{url}: not found (404): US Chess publishes no such record")
            if response.status_code != 200:
                raise FetchError(f"{url}: the server answered {response.status_code} "
                                 f"{response.reason_phrase}")
            try:
                data = json.loads(response.content)
            except ValueError:
                raise FetchError(f"{url}: the answer is not JSON") from None
            if not isinstance(data, dict):
                raise FetchError(f"{url}: expected a JSON object")
            return data

    def _pause(self, seconds: float, why: str) -> None:
        self._said(f"{why}; trying again in {seconds:g} s")
        self._sleep(seconds)


def _check_id(value: str, what: str) -> None:
    if not value.isascii() or not value.isdigit():
        raise FetchError(f"{value!r}: expected a US Chess {what} id (digits only)")


def _items_of(value: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise FetchError(f"{where}: expected a list of records")
    return value


def _retry_after(response: httpx2.Response, default: float) -> float:
    """The pause the server asks for (``Retry-After`` in seconds), within `MAX_PAUSE_S`."""
    try:
        asked = float(response.headers.get("Retry-After", ""))
    except ValueError:
        return default
    return min(max(asked, 0.0), MAX_PAUSE_S)


def _reason(error: Exception) -> str:
    import httpx2

    if isinstance(error, httpx2.TimeoutException):
        return f"no answer within {TIMEOUT_S:g} s"
    return f"could not connect ({str(error).splitlines()[0] if str(error) else type(error).__name__})"
