"""The web app of ``uscf serve``: the estimator, the office's pages and a JSON API.

Pages are rendered on the server (Jinja2); the little JavaScript there is adds and
removes rows of the estimator's form, searches a crosstable's rows and lets a wide table
take the keyboard's focus; every page works without it. Nothing is fetched from outside
the app: its CSS,
JS and charts (server-side SVG) all come from this package. Needs the ``web`` extra.

``create_app`` is imported on first use, so that ``uscf`` (which imports
`settings` for ``uscf serve --help``) runs without the extra installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .settings import Settings

if TYPE_CHECKING:
    from .app import create_app

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
