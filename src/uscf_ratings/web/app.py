"""The app factory: ``create_app(Settings(...))`` gives the ASGI app ``uscf serve`` runs;
``app_from_environment`` gives it to each worker of ``uscf serve --workers N``."""

from __future__ import annotations

import logging
import os
import sys
from importlib.metadata import PackageNotFoundError, version
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from ..office.db import (
    DatabaseError,
    WriterWait,
    check_schema,
    check_url,
    make_engine,
    shown_url,
)
from ..office.errors import first_line
from ..office.office import Office
from ..office.processes import end_with_parent
from . import openapi
from .deps import HERE, AppState
from .headers import SecurityHeaders
from .limits import BodyLimit
from .problems import Problem, validation_issue
from .routes import api, estimator, office_pages
from .serving import CachedStaticFiles, HeadAsGet, WeighedGZip
from .settings import Settings
from .templating import configure

log = logging.getLogger(__name__)

DESCRIPTION = """\
The US Chess rating system, exactly, by the rules of each section's date: an independent,
unofficial implementation, not affiliated with US Chess.

Reading is open. Writing (`POST /api/events`, `PUT /api/events/{id}`) needs a token from
`uscf db token create NAME`, sent as `Authorization: Bearer <token>`. Refusals are 4xx
answers with `detail` (the whole message) and `issues` (each problem and where it is).
"""


def _version() -> str:
    try:
        return version("uscf-ratings")
    except PackageNotFoundError:  # pragma: no cover  (running from a source tree)
        return "0"


#: how long a write request waits while another process writes (a `uscf db rate` of a
#: year, say) before it gets 503, saying so: a client's own timeout is often a minute
WRITE_WAIT_S = 30.0


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    # FastAPI's /docs and /redoc pages load their scripts from a CDN: off. The app's own
    # /docs page lists the API from /openapi.json instead.
    app = FastAPI(title="uscf-ratings", version=_version(), description=DESCRIPTION,
                  docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    templates = Jinja2Templates(directory=HERE / "templates")
    configure(templates, has_database=settings.db_url is not None, settings=settings)
    office = Office(settings.db_url, WriterWait(limit=WRITE_WAIT_S)) if settings.db_url \
        else None
    app.state.uscf = AppState(settings, office, templates)
    app.mount("/static", CachedStaticFiles(directory=HERE / "static"), name="static")
    for module in (estimator, office_pages, api):
        app.include_router(module.router)
    _handle_errors(app, templates)
    app.add_middleware(BodyLimit, limit=settings.max_upload)
    app.add_middleware(SecurityHeaders)
    # pages and JSON compress to about a tenth; below 1 KB it is not worth the bytes
    app.add_middleware(WeighedGZip, minimum_size=1024, compresslevel=6)
    app.add_middleware(HeadAsGet)  # outermost: everything else sees a GET
    openapi.install(app)
    return app


#: The variable that gives a worker the process id of the `uscf serve` that started it.
PARENT_VARIABLE = "USCF_SERVE_PARENT"
#: uvicorn's exit code for a worker that could not start: its parent then stops them all.
STARTUP_FAILURE = 3


def app_from_environment() -> FastAPI:
    """The app of one worker of ``uscf serve --workers N``, from the settings the command
    put in the environment (`Settings.to_environment`); uvicorn calls it in each worker
    (``uscf_ratings.web.app:app_from_environment`` with ``factory=True``).

    The worker ends with its parent (Linux), and refuses to start, with the one line
    ``uscf serve`` itself prints and no traceback, on settings it cannot read or a
    database it cannot serve (the command checks both before it starts any worker: this
    is the database changed in between)."""
    parent = os.environ.get(PARENT_VARIABLE, "")
    if parent.isdigit():
        end_with_parent(int(parent))
    try:
        settings = Settings.from_environment(os.environ)
        if settings.db_url:
            check_database(settings.db_url)
        return create_app(settings)
    except (ValueError, DatabaseError) as error:
        print(f"Error: {error}", file=sys.stderr, flush=True)
    except Exception as error:  # anything else: still one line, never a traceback
        print(f"Error: the web app could not start: {type(error).__name__}: {error}",
              file=sys.stderr, flush=True)
    sys.exit(STARTUP_FAILURE)


def check_database(url: str) -> None:
    """Refuse, with a one-line `DatabaseError` that starts with the URL (without its
    password), a database the app cannot serve: a URL that names none, a SQLite file
    that does not exist, a server that cannot be reached, a schema not created or not
    current. ``uscf serve`` checks before it starts, and each of its workers again."""
    from sqlalchemy.exc import SQLAlchemyError

    shown = shown_url(url)
    try:
        check_url(url, must_exist=True)
        engine = make_engine(url)
        try:
            with engine.connect() as c:
                check_schema(c)
        finally:
            engine.dispose()
    except DatabaseError as error:
        message = str(error)
        raise DatabaseError(message if message.startswith((url, shown, repr(url)))
                            else f"{shown}: {message}") from None
    except ImportError as error:  # the driver: psycopg for PostgreSQL (the postgres extra)
        raise DatabaseError(f"{shown}: cannot use the database: {error.name} is not "
                            "installed") from None
    except SQLAlchemyError as error:
        cause = getattr(error, "orig", None) or error
        raise DatabaseError(f"{shown}: cannot use the database: {first_line(cause)}") from None


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api") or request.url.path.endswith(".json")


def _came_from(request: Request) -> str | None:
    """The page of this site the visitor came from (the Referer's path, where it names
    this host), for an error page's way back; None otherwise (a link elsewhere is never
    offered)."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc != request.url.netloc or not referer.path.startswith("/") \
            or referer.path.startswith("//") or "\\" in referer.path \
            or referer.path == request.url.path:  # a browser reads "/\\x" as "//x"
        return None
    return referer.path + (f"?{referer.query}" if referer.query else "")


def _handle_errors(app: FastAPI, templates: Jinja2Templates) -> None:
    """Every refusal as JSON under /api and as a page elsewhere, with the same message."""

    def answer(request: Request, problem: Problem, allow: str | None = None) -> Response:
        headers = {"WWW-Authenticate": "Bearer"} if problem.status == 401 else \
            {"Allow": allow} if allow else None  # a 405 says what the address takes
        if _wants_json(request):
            return JSONResponse(problem.to_json(), problem.status, headers=headers)
        return templates.TemplateResponse(
            request, "error.html", {"problem": problem, "came_from": _came_from(request)},
            status_code=problem.status, headers=headers)

    @app.exception_handler(Problem)
    async def on_problem(request: Request, error: Exception) -> Response:
        assert isinstance(error, Problem)
        return answer(request, error)

    @app.exception_handler(HTTPException)
    async def on_http(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        detail = str(error.detail)
        if error.status_code == 404 and detail == "Not Found":  # Starlette's, for no route
            detail = f"there is no page at {request.url.path}"
        allowed = (error.headers or {}).get("Allow") if error.status_code == 405 else None
        if allowed and detail == "Method Not Allowed":
            detail = (f"{request.url.path} is not for a {request.method} request: it takes "
                      f"{allowed.replace(', ', ' or ')}")
        return answer(request, Problem(error.status_code, detail), allowed)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        issues = [validation_issue(e) for e in error.errors()]
        detail = "; ".join(i.message for i in issues) or "the request could not be read"
        return answer(request, Problem(422, detail, issues))
