"""The estimator's pages: one player's games (an estimate), or a whole section (exact)."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from .. import crosstable
from ..deps import app_state
from ..estimator import estimate
from ..estimator_form import parse
from ..problems import Problem
from ..rating import rate_event
from ..uploads import event_from_json_text, event_from_upload
from .forms import read_form, split, upload

# The routes are async to read their forms; reading files and rating run in the thread
# pool, so that a large section does not hold up the server's other requests.
router = APIRouter(include_in_schema=False)
BLANK_ROWS = 4  #: empty game rows on a new form (the page's script adds more)


def _page(request: Request, status: int = 200, **context: Any) -> Response:
    defaults: dict[str, Any] = {"values": {"date": date.today().isoformat(), "system": "R",
                                           "status": "rated"},
                                "rows": [{} for _ in range(BLANK_ROWS)], "estimate": None,
                                "estimate_problem": None, "section_problem": None,
                                "tables": None, "event": None, "pasted": ""}
    return app_state(request).templates.TemplateResponse(
        request, "estimator.html", defaults | context, status_code=status)


@router.get("/", response_class=HTMLResponse, name="home")
def home(request: Request) -> Response:
    return _page(request)


@router.post("/estimate", response_class=HTMLResponse, name="estimate")
async def post_estimate(request: Request) -> Response:
    values, lists = split(await read_form(request))
    # The rows only show the form again. strict=False: a hand-written request may send the
    # three columns with unequal lengths (a browser never does); `parse` reads the missing
    # cells as empty and says what is wrong, so refusing here would only turn that into a 500.
    rows = [{"opp_rating": r, "opp_games": g, "result": s}
            for r, g, s in zip(lists.get("opp_rating", []), lists.get("opp_games", []),
                               lists.get("result", []), strict=False)]
    rows += [{} for _ in range(max(0, BLANK_ROWS - len(rows)))]
    max_games = app_state(request).settings.max_games
    try:
        found = await run_in_threadpool(lambda: estimate(parse(values, lists, max_games)))
    except Problem as problem:
        return _page(request, problem.status, values=values, rows=rows, estimate_problem=problem)
    return _page(request, values=values, rows=rows, estimate=found)


@router.post("/estimate/section", response_class=HTMLResponse, name="estimate_section")
async def post_section(request: Request) -> Response:
    form = await read_form(request)
    values, _ = split(form)
    try:
        sent = upload(form, "file")
        if sent is not None:
            event = await run_in_threadpool(event_from_upload, sent.file,
                                            sent.filename or "upload")
        elif values.get("event_json", "").strip():
            event = await run_in_threadpool(event_from_json_text, values["event_json"],
                                            "pasted event JSON")
        else:
            raise Problem(400, "choose a file to upload, or paste an event JSON document")
        tables = await run_in_threadpool(lambda: crosstable.from_result(event, rate_event(event)))
    except Problem as problem:
        return _page(request, problem.status, section_problem=problem,
                     pasted=values.get("event_json", ""))
    return _page(request, tables=tables, event=event, pasted=values.get("event_json", ""))
