"""The app factory: ``create_app(Settings(...))`` gives the ASGI app ``uscf serve`` runs."""

from __future__ import annotations

import logging
from importlib.metadata import PackageNotFoundError, version

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from ..office.office import Office
from . import openapi
from .deps import HERE, AppState
from .headers import SecurityHeaders
from .limits import BodyLimit
from .problems import Issue, Problem
from .routes import api, estimator, office_pages
from .serving import CachedStaticFiles, HeadAsGet
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


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    # FastAPI's /docs and /redoc pages load their scripts from a CDN: off. The app's own
    # /docs page lists the API from /openapi.json instead.
    app = FastAPI(title="uscf-ratings", version=_version(), description=DESCRIPTION,
                  docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    templates = Jinja2Templates(directory=HERE / "templates")
    configure(templates, has_database=settings.db_url is not None, settings=settings)
    app.state.uscf = AppState(settings, Office(settings.db_url) if settings.db_url else None,
                              templates)
    app.mount("/static", CachedStaticFiles(directory=HERE / "static"), name="static")
    for module in (estimator, office_pages, api):
        app.include_router(module.router)
    _handle_errors(app, templates)
    app.add_middleware(BodyLimit, limit=settings.max_upload)
    app.add_middleware(SecurityHeaders)
    # pages and JSON compress to about a tenth; below 1 KB it is not worth the bytes
    app.add_middleware(GZipMiddleware, minimum_size=1024, compresslevel=6)
    app.add_middleware(HeadAsGet)  # outermost: everything else sees a GET
    openapi.install(app)
    return app


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api") or request.url.path.endswith(".json")


def _handle_errors(app: FastAPI, templates: Jinja2Templates) -> None:
    """Every refusal as JSON under /api and as a page elsewhere, with the same message."""

    def answer(request: Request, problem: Problem) -> Response:
        headers = {"WWW-Authenticate": "Bearer"} if problem.status == 401 else None
        if _wants_json(request):
            return JSONResponse(problem.to_json(), problem.status, headers=headers)
        return templates.TemplateResponse(request, "error.html", {"problem": problem},
                                          status_code=problem.status, headers=headers)

    @app.exception_handler(Problem)
    async def on_problem(request: Request, error: Exception) -> Response:
        assert isinstance(error, Problem)
        return answer(request, error)

    @app.exception_handler(HTTPException)
    async def on_http(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        detail = str(error.detail)
        return answer(request, Problem(error.status_code, detail))

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, error: Exception) -> Response:
        assert isinstance(error, RequestValidationError)
        issues = [Issue(e.get("msg", ""), ".".join(str(p) for p in e.get("loc", ())))
                  for e in error.errors()]
        detail = "; ".join(f"{i.where}: {i.message}" for i in issues) or "invalid request"
        return answer(request, Problem(422, detail, issues))
