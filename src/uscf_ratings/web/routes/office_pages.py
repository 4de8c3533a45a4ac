"""The office's pages: members, a player's history with charts, events, the rating list.

Each needs a database (``uscf serve --db URL``); without one they answer 503 saying so.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import Connection

from ...core.model import System
from ...office import queries
from .. import crosstable, reads
from ..chart import history_svg, points_from_history
from ..deps import Reading, app_state
from ..limits import MAX_PAGE, MAX_SEARCH
from ..privacy import whole
from ..problems import Problem

router = APIRouter(include_in_schema=False)


def _render(request: Request, name: str, **context: Any) -> Response:
    return app_state(request).templates.TemplateResponse(request, name, context)


@router.get("/members", response_class=HTMLResponse, name="members")
def members(request: Request, c: Reading, q: str = Query("", max_length=MAX_SEARCH),
            page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
    size = app_state(request).settings.page_size
    rows, total = reads.members(c, q, size, (page - 1) * size)
    return _render(request, "members.html", q=q, rows=rows, total=total, page=page,
                   pages=max(1, -(-total // size)))


@router.get("/players/{member_id}", response_class=HTMLResponse, name="player")
def player(request: Request, member_id: str, c: Reading) -> Response:
    found = reads.player(c, member_id)
    if found is None:
        raise Problem(404, f"member {member_id} is not in the database")
    charts = {system: history_svg(points_from_history(found["history"], system), system,
                                  r["floor"])
              for system, r in found["ratings"].items()}
    return _render(request, "player.html", player=found, charts=charts)


@router.get("/events", response_class=HTMLResponse, name="events")
def events(request: Request, c: Reading, page: int = Query(1, ge=1, le=MAX_PAGE)) -> Response:
    size = app_state(request).settings.page_size
    rows, total = reads.events(c, size, (page - 1) * size)
    return _render(request, "events.html", rows=rows, total=total, page=page,
                   pages=max(1, -(-total // size)))


@router.get("/events/{event_id}", response_class=HTMLResponse, name="event")
def event(request: Request, event_id: str, c: Reading) -> Response:
    found = reads.event(c, event_id)
    if found is None:
        raise Problem(404, f"event {event_id} is not in the database")
    tables = [crosstable.from_office(s) for s in found["sections"]]
    return _render(request, "event.html", event=found, tables=tables)


def _list(c: Connection, as_of: date | None, system: System) -> tuple[date, list[queries.ListEntry]]:
    """The list, each rating to whole points: the public view (see `privacy`)."""
    day = as_of or date.today()
    return day, [replace(e, rating=whole(e.rating)) for e in queries.rating_list(c, day, system)]


@router.get("/list", response_class=HTMLResponse, name="rating_list")
def rating_list(request: Request, c: Reading, as_of: date | None = None,
                system: System = System.R) -> Response:
    day, entries = _list(c, as_of, system)
    return _render(request, "list.html", entries=entries, as_of=day, system=system.value)


@router.get("/list.csv", name="rating_list_csv")
def rating_list_csv(c: Reading, as_of: date | None = None,
                    system: System = System.R) -> Response:
    """The same columns as ``uscf db list --format csv``."""
    day, entries = _list(c, as_of, system)
    name = f"rating-list-{system.value}-{day.isoformat()}.csv"
    return Response(queries.rating_list_csv(entries, decimals=0), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/docs", response_class=HTMLResponse, name="api_docs")
def api_docs(request: Request) -> Response:
    """The API, listed from the app's own OpenAPI description (no CDN-loaded viewer)."""
    document = request.app.openapi()
    operations = [{"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                   "description": op.get("description", ""),
                   "secured": bool(op.get("security"))}
                  for path, item in document["paths"].items() for method, op in item.items()]
    return _render(request, "api.html", operations=operations, info=document["info"])
