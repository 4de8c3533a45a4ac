"""The estimator's pages: one player's games (an estimate), or a whole section (exact);
and the glossary its explanations link to."""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ...estimator.estimate import (
    ASSUMED_GAMES,
    DEFAULT_OPPONENT_GAMES,
    Estimate,
    estimate,
)
from ...estimator.form import DUAL, FormError, parse
from ...fidelity.verify import summary
from .. import crosstable
from ..deps import app_state
from ..limits import MAX_PAGE_PLAYERS
from ..problems import RATING_FAILURES, Problem, from_form_error, from_rating_error
from ..rating import rate_event
from ..uploads import Uploaded, event_from_json_text, filled, read_upload, supplied_from
from .forms import read_form, split, upload

# The routes are async to read their forms; reading files and rating run in the thread
# pool, so that a large section does not hold up the server's other requests.
router = APIRouter(include_in_schema=False)
BLANK_ROWS = 4  #: empty game rows on a new form (the page's script adds more)
COLUMNS = ("opp_rating", "opp_games", "opp_quick", "result")  #: a game row's fields


def _page(request: Request, status: int = 200, **context: Any) -> Response:
    defaults: dict[str, Any] = {"values": {"date": date.today().isoformat(), "system": "R",
                                           "status": "rated", "mode": "games"},
                                "rows": [{} for _ in range(BLANK_ROWS)], "estimate": None,
                                "estimate_problem": None, "section_problem": None,
                                "tables": None, "event": None, "uploaded": None, "section_values": {},
                                "pasted": "", "dual": DUAL, "assumed_games": ASSUMED_GAMES,
                                "opponent_games": DEFAULT_OPPONENT_GAMES,
                                "published_summary": "", "field_errors": {}}
    return app_state(request).templates.TemplateResponse(
        request, "estimator.html", defaults | context, status_code=status)


@router.get("/", response_class=HTMLResponse, name="home")
def home(request: Request) -> Response:
    return _page(request)


@router.get("/glossary", response_class=HTMLResponse, name="glossary")
def glossary(request: Request) -> Response:
    """N, N', K, E, S, m, R0, the bonus, the floor and the two formulas, in words."""
    return app_state(request).templates.TemplateResponse(
        request, "glossary.html", {"assumed_games": ASSUMED_GAMES})


@router.post("/estimate", response_class=HTMLResponse, name="estimate")
async def post_estimate(request: Request) -> Response:
    values, lists = split(await read_form(request))
    # The rows only show the form again. strict=False: a hand-written request may send the
    # columns with unequal lengths (a browser never does); `parse` reads the missing
    # cells as empty and says what is wrong, so refusing here would only turn that into a 500.
    longest = max((len(lists.get(c, [])) for c in COLUMNS), default=0)
    rows = [{c: lists[c][i] for c in COLUMNS if i < len(lists.get(c, []))} for i in range(longest)]
    rows += [{} for _ in range(max(0, BLANK_ROWS - len(rows)))]
    max_games = app_state(request).settings.max_games
    try:
        found = await run_in_threadpool(lambda: _estimate(values, lists, max_games))
    except Problem as problem:
        return _page(request, problem.status, values=values, rows=rows, estimate_problem=problem,
                     field_errors={i.field: i.message for i in problem.issues if i.field})
    return _page(request, values=values, rows=rows, estimate=found)


def _estimate(values: dict[str, str], lists: dict[str, list[str]], max_games: int) -> Estimate:
    """The form's estimate; a `Problem` (422) where a field or the engine refuses it."""
    try:
        inp = parse(values, lists, max_games)
    except FormError as error:
        raise from_form_error(error) from None
    try:
        return estimate(inp)
    except RATING_FAILURES as error:
        raise from_rating_error(error) from None


@router.post("/estimate/section", response_class=HTMLResponse, name="estimate_section")
async def post_section(request: Request) -> Response:
    values: dict[str, str] = {}
    try:
        form = await read_form(request)
        values, _ = split(form)
        supplied = supplied_from(values)
        sent = upload(form, "file")
        uploaded: Uploaded
        if sent is not None:
            uploaded = await run_in_threadpool(read_upload, sent.file, sent.filename or "upload",
                                               supplied)
        elif values.get("event_json", "").strip():
            event = await run_in_threadpool(event_from_json_text, values["event_json"],
                                            "pasted event JSON")
            uploaded = filled(event, supplied)
        else:
            raise Problem(400, "choose a file to upload, or paste an event JSON document")
        players = sum(len(s.players) for s in uploaded.event.sections)
        if players > MAX_PAGE_PLAYERS:
            raise Problem(422, f"the event has {players:,} players; this page shows at most "
                               f"{MAX_PAGE_PLAYERS:,}: rate it with `uscf rate` instead")
        tables = await run_in_threadpool(
            lambda: crosstable.from_result(uploaded.event, rate_event(uploaded.event)))
    except HTTPException as refused:  # a body over the limit: say so beside the form
        problem = Problem(refused.status_code, str(refused.detail))
        return _page(request, problem.status, section_problem=problem)
    except Problem as problem:
        return _page(request, problem.status, section_problem=problem, section_values=values,
                     pasted=values.get("event_json", ""))
    return _page(request, tables=tables, event=uploaded.event, uploaded=uploaded,
                 section_values=values, pasted=values.get("event_json", ""),
                 published_summary=summary([uploaded.published]) if uploaded.published
                 else "")
