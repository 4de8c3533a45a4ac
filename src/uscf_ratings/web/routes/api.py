"""The JSON API under /api, described at /openapi.json.

Rating without storing (``POST /api/rate``) answers with exactly the JSON of
``uscf rate --json``. Reading the office is open; writing to it needs a token (see
`auth`). What the office returns passes through `privacy`.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ...core.model import Event, System
from ...core.results import SectionResult
from ...formats.result_json import event_to_dict
from ...office import titles
from ...office.db import DatabaseError
from ...office.defaults import PreRatings
from ...office.office import Office, OfficeError
from .. import reads
from ..auth import Writer
from ..deps import Reading, app_state, office
from ..limits import MAX_OFFSET, MAX_SEARCH, STATE_QUERY
from ..links import segment
from ..openapi import EVENT_BODY
from ..privacy import public_section
from ..problems import RATING_FAILURES, Problem, from_office_error, from_rating_error
from ..rating import rate_document
from ..uploads import event_from_json_text

router = APIRouter(prefix="/api", tags=["api"])

REFUSALS: dict[int | str, dict[str, Any]] = {
    400: {"description": "The body is not JSON (or not UTF-8, or empty)."},
    413: {"description": "The body is larger than the server accepts."},
    422: {"description": "The event is not valid: every problem, with where it is."},
}
RATED = {"description": "The same JSON as `uscf rate --json`: `{\"events\": [...]}`."}


# Routes that take an event are async to read the body; checking it, rating and writing
# run in the thread pool, so that a long re-rating does not hold up other requests.


async def _event(request: Request) -> Event:
    return await run_in_threadpool(event_from_json_text, await request.body(), "request body")


@router.post("/rate", summary="Rate an event without storing it",
             responses={200: RATED, **REFUSALS}, openapi_extra=EVENT_BODY)
async def rate(request: Request) -> dict[str, Any]:
    """Rate every section of the event in the body by the rules of its date, exactly as
    `uscf rate --json` does: the pre-event ratings are the ones the body gives."""
    return await run_in_threadpool(rate_document, await _event(request))


@router.get("/players/{member_id:path}", summary="A member's ratings, floors and history")
def player(member_id: str, c: Reading) -> dict[str, Any]:
    """Current ratings per system (with the published form, such as 1582P14), the floor,
    and every rated event. Birth dates and contact details are never returned."""
    found = reads.player(c, member_id)
    if found is None:
        raise Problem(404, f"member {member_id} is not in the database")
    return found


@router.get("/events/{event_id:path}", summary="A rated event: crosstable and explanations")
def event(request: Request, event_id: str, c: Reading) -> dict[str, Any]:
    found = app_state(request).kept.event(c, event_id, lambda: reads.event(c, event_id))
    if found is None:
        raise Problem(404, f"event {event_id} is not in the database")
    return found


@router.get("/members", summary="Search members by id or name")
def members(request: Request, c: Reading, q: str = Query("", max_length=MAX_SEARCH),
            limit: int = Query(50, ge=1, le=500),
            offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> dict[str, Any]:
    rows, total = reads.members(c, app_state(request).kept, q, limit, offset)
    return {"total": total, "members": [
        {"id": r.id, "name": r.name, "state": r.state, "ratings": r.ratings} for r in rows]}


@router.get("/list", summary="The rating list as of a date")
def rating_list(request: Request, c: Reading, as_of: date, system: System = System.R,
                q: str = Query("", max_length=MAX_SEARCH),
                state: str = STATE_QUERY,
                limit: int | None = Query(None, ge=1, le=MAX_OFFSET),
                offset: int = Query(0, ge=0, le=MAX_OFFSET)) -> list[dict[str, Any]]:
    """Each member's rating after the last event ending on or before `as_of`, highest
    first: the entries of `uscf db list --format json`, the rating to whole points, and
    each member's place in the whole list (`rank`). `q` keeps the members whose id starts
    with it or whose name contains it; `state` the members of that state (as the members
    list gives it, case ignored); `limit` and `offset` give a part of the list (by default
    all of it)."""
    found = app_state(request).kept.page(c, as_of, system, q, MAX_OFFSET if limit is None else limit,
                                         offset, state.strip().upper())
    return [{"rank": r.rank, "id": r.entry.id, "name": r.entry.name, "rating": r.entry.rating,
             "display": r.entry.display, "games": r.entry.games,
             "as_of": r.entry.as_of.isoformat() if r.entry.as_of else None}
            for r in found.rows]


@router.get("/titles", summary="The title supplement as of a date")
def title_supplement(c: Reading, as_of: date) -> list[dict[str, Any]]:
    """Every member who holds a title or has a norm toward one on `as_of`: the titles
    held (AwardType key, name, date, event) and the norms toward each level, with the
    events that earned them, as `uscf db player --json` gives them (office/titles.py)."""
    return [{"id": e.id, "name": e.name} | titles.status_to_dict(e.status)
            for e in titles.title_supplement(c, as_of)]


def _exists(the_office: Office, event_id: str) -> bool:
    with the_office.engine.connect() as c:  # the token check has checked the schema
        return reads.event_exists(c, event_id)


def _stored(event: Event, results: list[SectionResult]) -> dict[str, Any]:
    """What a write answers: the ratings as rated in the office (pre-event ratings from
    the database), in the public view of everything read from the office: a token lets
    its holder write, not read what the office keeps private (`uscf db event` on the
    office's machine shows every decimal)."""
    document = event_to_dict(event, results)
    document["sections"] = [public_section(s) for s in document["sections"]]
    return {"events": [document]}


@router.post("/events", summary="Submit an event to the office (needs a token)",
             status_code=201, responses={201: RATED, 401: {"description": "No valid token."},
                                         409: {"description": "The event is already rated, or "
                                                "its games under another id."},
                                         **REFUSALS}, openapi_extra=EVENT_BODY)
async def submit(request: Request, token: Writer, different_event: bool = False
                 ) -> JSONResponse:
    """Store and rate the event, and re-rate every later section (`uscf db rate FILE`).
    An event already in the office is refused with 409: correct it with PUT. So is an
    event whose dates, players and games are those of an event stored under another id,
    naming it, unless ``different_event=true`` says it is another event."""
    event = await _event(request)
    try:
        results = await run_in_threadpool(office(request).rate, event, PreRatings.DATABASE,
                                          different_event)
    except (OfficeError, DatabaseError) as error:
        raise from_office_error(error) from None
    except RATING_FAILURES as error:
        raise from_rating_error(error, event.id) from None
    return JSONResponse(_stored(event, results), status_code=201,
                        headers={"Location": f"/api/events/{segment(event.id)}"})


@router.put("/events/{event_id:path}", summary="Correct a rated event (needs a token)",
            responses={200: RATED, 401: {"description": "No valid token."},
                       404: {"description": "No such event."}, **REFUSALS},
            openapi_extra=EVENT_BODY)
async def correct(event_id: str, request: Request, token: Writer,
                  force_id: bool = False, different_event: bool = False) -> dict[str, Any]:
    """Replace the event by the corrected one in the body and re-rate what follows
    (`uscf db correct EVENT_ID FILE`). A body whose event id differs from the path's is
    refused (422) unless ``force_id=true`` says to store it under the path's id."""
    event = await _event(request)
    the_office = office(request)
    if not await run_in_threadpool(_exists, the_office, event_id):
        raise Problem(404, f"event {event_id} is not in the database; submit it with POST /api/events")
    try:
        corrected = await run_in_threadpool(the_office.correct, event_id, event, force_id,
                                            different_event)
    except (OfficeError, DatabaseError) as error:
        raise from_office_error(error) from None
    except RATING_FAILURES as error:
        raise from_rating_error(error, event_id) from None
    stored = _stored(event, corrected.results)
    stored["events"][0]["id"] = event_id
    stored["rerated"] = corrected.rerated
    return stored
