"""`uscf serve`: the web app (estimator, office pages, JSON API). Needs the `web` extra."""

from __future__ import annotations

import os
import socket

import click

from ..web.settings import DEFAULT_MAX_UPLOAD, VARIABLES, Settings, parse_size

#: the most workers started without --workers, however many CPUs there are: the pages
#: are short requests, and each worker keeps its own copy of what the app keeps
MAX_DEFAULT_WORKERS = 8
#: what uvicorn imports in each worker (with factory=True, it calls it)
WORKER_APP = "uscf_ratings.web.app:app_from_environment"


def default_workers() -> int:
    """One worker per CPU this process may run on, at most `MAX_DEFAULT_WORKERS`."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_DEFAULT_WORKERS))


def _size(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int:
    if value is None:
        return DEFAULT_MAX_UPLOAD
    try:
        return parse_size(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


def _check_database(url: str) -> None:
    """Refuse, in one line, a database the app cannot serve (`web.app.check_database`)."""
    from ..office.errors import DatabaseError
    from ..web.app import check_database

    try:
        check_database(url)
    except DatabaseError as error:
        raise click.ClickException(str(error)) from None


@click.command()
@click.option("--db", "url", envvar="USCF_DB", default=None, metavar="URL",
              help="The office database (sqlite:///path or postgresql://...); also $USCF_DB. "
                   "Without one, only the estimator runs.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface; put TLS in front).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (checked before the server announces itself).")
@click.option("--max-upload", default=None, metavar="SIZE", callback=_size,
              help="Largest request body: bytes, or with K or M (1024-based). Default 2M.")
@click.option("--workers", default=None, metavar="N", type=click.IntRange(1, 64),
              help="Processes that answer requests, each on a core of its own, sharing the "
                   f"port. Default: one per CPU available, at most {MAX_DEFAULT_WORKERS}. 1: "
                   "a single process.")
@click.option("--access-log/--no-access-log", default=True,
              help="Print a line per request answered (the default), or only the server's "
                   "start, stop and errors.")
def serve(url: str | None, host: str, port: int, max_upload: int, workers: int | None,
          access_log: bool) -> None:
    """Run the web app: the rating estimator and, with a database, the office's pages
    (members, players with charts, events, the rating list) and its JSON API under /api.

    Writing through the API needs a token: `uscf db token create NAME`.
    """
    try:
        import uvicorn

        from ..web import create_app
    except ImportError as error:
        raise click.ClickException(f"the web app needs the `web` extra ({error.name} is "
                                   "missing): pip install 'uscf-ratings[web]'") from None
    if url:
        _check_database(url)
    settings = Settings(db_url=url or None, max_upload=max_upload)
    workers = workers or default_workers()
    check_port(host, port)
    click.echo(f"uscf-ratings on http://{host}:{port}/"
               + (f" with the office at {_shown(url)}" if url else " (estimator only: no --db)")
               + (f", {workers} workers" if workers > 1 else ""))
    if workers == 1:
        uvicorn.run(create_app(settings), host=host, port=port, log_level="info",
                    access_log=access_log)
        return
    _pass_to_workers(settings)
    # uvicorn binds the port here, starts the workers (each builds its app with
    # WORKER_APP), restarts one that dies, and on SIGINT or SIGTERM stops them all
    # before it returns
    uvicorn.run(WORKER_APP, factory=True, workers=workers, host=host, port=port,
                log_level="info", access_log=access_log)
    if url:  # a worker that could not use the database stopped them all: say why
        _check_database(url)


def check_port(host: str, port: int) -> None:
    """Refuse, before anything is announced, an address the server could not listen on:
    a port another program holds, a host that is not this machine's. The socket is
    opened as uvicorn opens it (SO_REUSEADDR) and closed at once."""
    if port == 0:  # any free port: nothing to check
        return
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {error.strerror or error}; another program may "
            "be using the port: choose another with --port") from None


def _shown(url: str) -> str:
    from ..office.db import shown_url

    return shown_url(url)


def _pass_to_workers(settings: Settings) -> None:
    """Put the settings in this process's environment, which the workers inherit."""
    from ..web.app import PARENT_VARIABLE

    for variable in VARIABLES.values():
        os.environ.pop(variable, None)
    os.environ.update(settings.to_environment())
    os.environ[PARENT_VARIABLE] = str(os.getpid())
