"""The Jinja2 environment of the pages: globals and filters the templates share."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from ..core.formulas import plain, two_decimals
from ..core.model import SYSTEM_NAMES, System
from ..estimator.estimate import AGE_GROUPS
from .links import segment
from .serving import digests
from .settings import Settings

STATIC_DIGESTS = digests(Path(__file__).resolve().parent / "static")


def two_places(value: object) -> str:
    """A rating with two decimals, rounded half up as the terminal and the CSV files
    show it (`formulas.two_decimals`: ratings are kept unrounded); a whole number (the
    office's public view, see `privacy`) as it is; "-" for none."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return "-"
    return str(value) if isinstance(value, int) else two_decimals(value)


def code_spans(text: str) -> Markup:
    """Text with Markdown's `code` spans (the API's descriptions) as <code>, the rest
    escaped.

    >>> str(code_spans("send `Authorization: Bearer <token>`"))
    'send <code>Authorization: Bearer &lt;token&gt;</code>'
    """
    parts = str(escape(text)).split("`")
    return Markup("".join(f"<code>{part}</code>" if i % 2 else part
                          for i, part in enumerate(parts)))


@jinja2.pass_context
def url_for(context: Any, name: str, /, **params: Any) -> str:
    """A route's path, without scheme and host: links keep working behind a proxy that
    does not pass the original host on (Starlette's own url_for gives absolute URLs).

    Starlette finds the route anew for every link, which cost a list page of 50 members
    half its time; the path of each route is worked out once (with a stand-in for each
    parameter) and kept by the app."""
    request = context["request"]
    state = request.app.state
    if not hasattr(state, "link_templates"):
        state.link_templates = {}
    kept: dict[tuple[str, tuple[str, ...]], str] = state.link_templates
    key = (name, tuple(sorted(params)))
    path = kept.get(key)
    if path is None:
        path = kept[key] = str(request.app.url_path_for(
            name, **{k: f"\x00{k}\x00" for k in params}))
    for k, value in params.items():
        text = str(value)
        path = path.replace(f"\x00{k}\x00", quote(text, safe="/") if name == "static"
                            else segment(text))
    path = str(request.scope.get("root_path", "")) + path
    if name == "static":  # the file's digest: the browser keeps it until the file changes
        return f"{path}?v={STATIC_DIGESTS.get(params.get('path', ''), '0')}"
    return path


#: the main navigation: each link's route, its words, the start of the paths of the pages
#: under it (a player under Members), and whether it needs the office's database
NAVIGATION = (("home", "Estimator", None, False), ("members", "Members", "/players/", True),
              ("events", "Events", "/events/", True), ("rating_list", "Rating list", None, True),
              ("title_supplement", "Titles", None, True), ("api_docs", "API", None, False))


@jinja2.pass_context
def navigation(context: Any) -> Markup:
    """The main navigation's links, the page one is on marked: ``aria-current="page"``
    on its own link, ``"true"`` on its section's (a player's page: Members)."""
    request = context["request"]
    here = request.url.path
    # the links' paths, worked out once for the app and its root path (every page has them)
    kept: dict[str, list[tuple[str, str, str | None]]] = getattr(
        request.app.state, "navigation", {})
    root = str(request.scope.get("root_path", ""))
    links = kept.get(root)
    if links is None:
        links = [(url_for(context, name), label, under)
                 for name, label, under, office in NAVIGATION
                 if context["has_database"] or not office]
        request.app.state.navigation = kept | {root: links}
    return Markup("\n    ".join(
        f'<a href="{escape(path)}"'
        + (' aria-current="page"' if here == path else
           ' aria-current="true"' if under and here.startswith(under) else "")
        + f">{label}</a>" for path, label, under in links))


def field_marks(errors: dict[str, str], field: str) -> Markup:
    """A refused form field's attributes: marked invalid and described by its message
    (`field_message`); nothing for a field that passed."""
    if field not in errors:
        return Markup("")
    return Markup(f' aria-invalid="true" aria-describedby="error-{escape(field)}"')


def field_message(errors: dict[str, str], field: str) -> Markup:
    """A refused form field's message, beside it, with the id its field points to."""
    if field not in errors:
        return Markup("")
    return Markup(f'<span class="field-error" id="error-{escape(field)}">'
                  f'{escape(errors[field])}</span>')


def configure(templates: Jinja2Templates, *, has_database: bool, settings: Settings) -> None:
    env = templates.env
    # The templates are the package's files: they change only with the package, so
    # Jinja need not look at their modification time on every page.
    env.auto_reload = False
    env.globals.update(has_database=has_database, max_upload=settings.max_upload,
                       max_games=settings.max_games, systems=[s.value for s in System],
                       age_groups=AGE_GROUPS,
                       system_names={s.value: name for s, name in SYSTEM_NAMES.items()})
    env.globals.update(url_for=url_for, navigation=navigation, field_marks=field_marks,
                       field_message=field_message)
    env.filters.update(r2=two_places, plain=plain, code_spans=code_spans)
    # Undefined names are errors, so that a typo in a template fails its test instead of
    # showing an empty cell.
    env.undefined = jinja2.StrictUndefined
