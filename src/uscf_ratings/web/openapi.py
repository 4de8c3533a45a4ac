"""The API's OpenAPI description (``/openapi.json``), with the event JSON schema in it.

Event bodies are read as raw JSON (so that a malformed document gets the same messages as
``uscf rate``), which leaves FastAPI nothing to describe them from. The package's own
JSON Schema (schemas/event.schema.json) is added as the component ``Event``: OpenAPI 3.1
uses JSON Schema 2020-12, so it goes in unchanged but for where its ``$defs`` live.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from ..formats.event_json import schema as event_schema

EVENT_REF = "#/components/schemas/Event"
EVENT_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "An event in the event JSON format (`uscf rate` reads the same).",
        "content": {"application/json": {"schema": {"$ref": EVENT_REF}}},
    }
}


def event_components() -> dict[str, Any]:
    """``Event`` and its ``$defs`` as components, their references pointed there."""
    text = json.dumps(event_schema()).replace('"#/$defs/', '"#/components/schemas/Event_')
    schema = json.loads(text)
    defs = schema.pop("$defs", {})
    for key in ("$schema", "$id"):
        schema.pop(key, None)
    return {"Event": schema} | {f"Event_{name}": value for name, value in defs.items()}


def install(app: FastAPI) -> None:
    """Make ``app.openapi()`` build the description with the event schema in it, once."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(title=app.title, version=app.version,
                                   description=app.description, routes=app.routes)
            document.setdefault("components", {}).setdefault("schemas", {}).update(
                event_components())
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
