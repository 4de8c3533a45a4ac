"""What routes share: the app's settings, its office (if it has a database), templates."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from fastapi import Depends, Request
from fastapi.templating import Jinja2Templates
from sqlalchemy import Connection

from ..office.db import DatabaseError, check_schema_to_read
from ..office.office import Office
from .lists import OfficeReads
from .problems import from_office_error, no_database
from .settings import Settings

HERE = Path(__file__).resolve().parent


@dataclass
class AppState:
    settings: Settings
    office: Office | None
    templates: Jinja2Templates
    kept: OfficeReads = field(default_factory=OfficeReads)  #: reads kept per database state


def app_state(request: Request) -> AppState:
    state: AppState = request.app.state.uscf
    return state


def office(request: Request) -> Office:
    """The office, or a 503 saying the server runs without a database."""
    found = app_state(request).office
    if found is None:
        raise no_database()
    return found


def reading(request: Request) -> Iterator[Connection]:
    """A connection for reading, to a database whose schema is current (else 503)."""
    with office(request).engine.connect() as c:
        try:
            check_schema_to_read(c)
        except DatabaseError as error:
            raise from_office_error(error) from None
        yield c


#: A route parameter that receives a reading connection: ``c: Reading``.
Reading = Annotated[Connection, Depends(reading)]
