"""`uscf serve`: the web app (estimator, office pages, JSON API). Needs the `web` extra."""

from __future__ import annotations

import click

from ..web.settings import DEFAULT_MAX_UPLOAD, parse_size


def _size(_ctx: click.Context, _param: click.Parameter, value: str | None) -> int:
    if value is None:
        return DEFAULT_MAX_UPLOAD
    try:
        return parse_size(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


@click.command()
@click.option("--db", "url", envvar="USCF_DB", default=None, metavar="URL",
              help="The office database (sqlite:///path or postgresql://...); also $USCF_DB. "
                   "Without one, only the estimator runs.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface; put TLS in front).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--max-upload", default=None, metavar="SIZE", callback=_size,
              help="Largest request body: bytes, or with K or M (1024-based). Default 2M.")
def serve(url: str | None, host: str, port: int, max_upload: int) -> None:
    """Run the web app: the rating estimator and, with a database, the office's pages
    (members, players with charts, events, the rating list) and its JSON API under /api.

    Writing through the API needs a token: `uscf db token create NAME`.
    """
    try:
        import uvicorn

        from ..web import Settings, create_app
    except ImportError as error:
        raise click.ClickException(f"the web app needs the `web` extra ({error.name} is "
                                   "missing): pip install 'uscf-ratings[web]'") from None
    if url:
        from ..office.db import DatabaseError, check_schema, make_engine

        engine = make_engine(url)
        try:
            with engine.connect() as c:
                check_schema(c)
        except DatabaseError as error:
            raise click.ClickException(f"{url}: {error}") from None
        finally:
            engine.dispose()
    app = create_app(Settings(db_url=url, max_upload=max_upload))
    click.echo(f"uscf-ratings on http://{host}:{port}/"
               + (f" with the office at {url}" if url else " (estimator only: no --db)"))
    uvicorn.run(app, host=host, port=port, log_level="info")
