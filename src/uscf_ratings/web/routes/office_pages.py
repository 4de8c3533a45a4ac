"""The office's pages: members, a player's history with charts and titles, events, the
rating list, the title supplement.

Each needs a database (``uscf serve --db URL``); without one they answer 503 saying so.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from ...core.model import SYSTEM_NAMES, System
from ...core.norms import NORM_CODES
from ...office import queries, titles
from .. import crosstable, downloads, reads
from ..chart import WIDTHS, history_svg, points_from_history
from ..deps import Reading, app_state
from ..limits import MAX_PAGE, MAX_SEARCH, STATE_PATTERN, STATE_QUERY
from ..problems import Issue, Problem

router = APIRouter(include_in_schema=False)


def _render(request: Request, name: str, **context: Any) -> Response:
    return app_state(request).templates.TemplateResponse(request, name, context)


@router.get("/members", response_class=HTMLResponse, name="members")
def members(request: Request, c: Reading, q: str = Query("", max_length=MAX_SEARCH),
            page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
    size = app_state(request).settings.page_size
    rows, total = reads.members(c, app_state(request).kept, q, size, (page - 1) * size)
    return _render(request, "members.html", q=q, rows=rows, total=total, page=page,
                   pages=max(1, -(-total // size)))


#: ``?download=csv`` or ``json`` on an event's page and a member's: the page as a file
DOWNLOAD = Query("", description="csv or json: the public view as a file to download")
#: what ``?download=`` takes ("": the page itself)
Download = Literal["", "csv", "json"]


@router.get("/players/{member_id:path}", response_class=HTMLResponse, name="player")
def player(request: Request, member_id: str, c: Reading, download: Download = DOWNLOAD) -> Response:
    found = reads.player(c, member_id)
    if found is None:
        raise Problem(404, f"member {member_id} is not in the database")
    if download:
        return downloads.download(download, f"member-{found['id']}-history", found,
                                  downloads.history_csv(found) if download == "csv" else None)
    charts = {}
    for system, r in found["ratings"].items():
        points = points_from_history(found["history"], system)
        name = SYSTEM_NAMES[System(system)]
        charts[system] = [history_svg(points, name, r["floor"], width) for width in WIDTHS]
    return _render(request, "player.html", player=found, charts=charts)


@router.get("/events", response_class=HTMLResponse, name="events")
def events(request: Request, c: Reading, q: str = Query("", max_length=MAX_SEARCH),
           since: str = Query("", max_length=10), until: str = Query("", max_length=10),
           state: str = Query("", max_length=MAX_SEARCH),
           page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
    size = app_state(request).settings.page_size
    first, last = _day(since, "From"), _day(until, "To")
    rows, total = reads.events(c, size, (page - 1) * size, q, first, last, state)
    return _render(request, "events.html", rows=rows, total=total, page=page, q=q,
                   since=first, until=last, state=state.strip().upper(),
                   states=queries.event_states(c), pages=max(1, -(-total // size)))


def _day(text: str, field: str) -> date | None:
    """A date field of a search form: empty is no date (a browser sends an empty field)."""
    if not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise Problem(422, f"{field}: {text!r} is not a date; write it as YYYY-MM-DD",
                      [Issue(f"{text!r} is not a date; write it as YYYY-MM-DD", field)]) from None


@router.get("/events/{event_id:path}", response_class=HTMLResponse, name="event")
def event(request: Request, event_id: str, c: Reading, download: Download = DOWNLOAD) -> Response:
    state = app_state(request)
    if download:
        found = state.kept.event(c, event_id, lambda: reads.event(c, event_id))
        if found is None:
            raise Problem(404, f"event {event_id} is not in the database")
        return downloads.download(download, f"event-{event_id}", found,
                                  downloads.event_csv(found) if download == "csv" else None)

    def render() -> str | None:
        found = state.kept.event(c, event_id, lambda: reads.event(c, event_id))
        if found is None:
            return None
        tables = [crosstable.from_office(s) for s in found["sections"]]
        return state.templates.get_template("event.html").render(
            request=request, event=found, tables=tables)

    # the page depends on the request only through the root path its links start with
    page = state.kept.event_page(c, (event_id, str(request.scope.get("root_path", ""))),
                                 render)
    if page is None:
        raise Problem(404, f"event {event_id} is not in the database")
    return HTMLResponse(page)


@router.get("/list", response_class=HTMLResponse, name="rating_list")
def rating_list(request: Request, c: Reading, as_of: date | None = None,
                system: System = System.R, q: str = Query("", max_length=MAX_SEARCH),
                state: str = STATE_QUERY,
                page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
    app = app_state(request)
    size = app.settings.page_size
    day = as_of or date.today()
    where = state.strip().upper()
    found = app.kept.page(c, day, system, q, size, (page - 1) * size, where)
    return _render(request, "list.html", rows=found.rows, total=found.total,
                   everyone=found.size, as_of=day, system=system.value, q=q, page=page,
                   state=where, states=[(code, count) for code, count in app.kept.states(c)
                                        if re.fullmatch(STATE_PATTERN, code)],
                   pages=max(1, -(-found.total // size)))


@router.get("/list.csv", name="rating_list_csv")
def rating_list_csv(request: Request, c: Reading, as_of: date | None = None,
                    system: System = System.R, state: str = STATE_QUERY) -> Response:
    """The same columns as ``uscf db list --format csv``, ratings to whole points; the
    members of ``state`` alone, if given."""
    day = as_of or date.today()
    where = state.strip().upper()
    entries = [r.entry for r in app_state(request).kept.ranked(c, day, system, where).rows]
    name = f"rating-list-{system.value}-{where + '-' if where else ''}{day.isoformat()}.csv"
    return Response(queries.rating_list_csv(entries, decimals=0), media_type="text/csv; charset=utf-8",
                    headers=downloads.attachment(name))


@router.get("/titles", response_class=HTMLResponse, name="title_supplement")
def title_supplement(request: Request, c: Reading, as_of: date | None = None) -> Response:
    """Members with their titles and norms in progress on a day (office/titles.py)."""
    day = as_of or date.today()
    return _render(request, "titles.html", rows=titles.title_supplement(c, day), as_of=day,
                   codes=NORM_CODES, supplement_row=titles.supplement_row)


@router.get("/titles.csv", name="title_supplement_csv")
def title_supplement_csv(c: Reading, as_of: date | None = None) -> Response:
    """The same columns as ``uscf db title-supplement --csv``."""
    day = as_of or date.today()
    name = f"title-supplement-{day.isoformat()}.csv"
    return Response(titles.supplement_csv(titles.title_supplement(c, day)),
                    media_type="text/csv; charset=utf-8",
                    headers=downloads.attachment(name))


@router.get("/docs", response_class=HTMLResponse, name="api_docs")
def api_docs(request: Request) -> Response:
    """The API, listed from the app's own OpenAPI description (no CDN-loaded viewer)."""
    document = request.app.openapi()
    operations = [{"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                   "description": op.get("description", ""),
                   "secured": bool(op.get("security"))}
                  for path, item in document["paths"].items() for method, op in item.items()]
    return _render(request, "api.html", operations=operations, info=document["info"])
