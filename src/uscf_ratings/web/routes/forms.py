"""Reading a submitted form within the app's upload limit."""

from __future__ import annotations

from fastapi import Request
from starlette.datastructures import FormData, UploadFile

from ..deps import app_state


async def read_form(request: Request) -> FormData:
    """The form, each part up to the upload limit (Starlette's default is 1 MiB a part,
    which would refuse a pasted event that the limit allows)."""
    limit = app_state(request).settings.max_upload
    return await request.form(max_files=2, max_fields=2000, max_part_size=limit)


def split(form: FormData) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Text fields as single values (the last one given) and as lists (for game rows)."""
    values: dict[str, str] = {}
    lists: dict[str, list[str]] = {}
    for key, value in form.multi_items():
        if isinstance(value, str):
            values[key] = value
            lists.setdefault(key, []).append(value)
    return values, lists


def upload(form: FormData, name: str) -> UploadFile | None:
    """The file sent in field ``name``, if one was chosen."""
    value = form.get(name)
    return value if isinstance(value, UploadFile) and value.filename else None
