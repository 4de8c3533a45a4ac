"""Writing to the office needs a token (``uscf db token create NAME``); reading does not.

A write request carries ``Authorization: Bearer <token>``; without a valid one it gets
401 and a ``WWW-Authenticate`` header, as RFC 6750 asks. Requests do not use cookies, so
a page elsewhere cannot make a browser write on its user's behalf (no CSRF to guard).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..office.db import DatabaseError, check_schema_to_read
from ..office.tokens import token_owner
from .deps import office
from .problems import Issue, Problem, from_office_error

#: auto_error=False: a missing header is answered below with our 401 and message, not
#: FastAPI's 403; the scheme still documents the security requirement in /openapi.json.
bearer = HTTPBearer(auto_error=False, description="a token from `uscf db token create NAME`")


class Unauthorized(Problem):
    def __init__(self, detail: str):
        super().__init__(401, detail, [Issue(detail, "Authorization")])


def writer(request: Request,
           credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> str:
    """The name of the token a write request carries; 401 without a valid one (503 first
    if there is no office to write to)."""
    engine = office(request).engine
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise Unauthorized("writing needs a token: send `Authorization: Bearer <token>` "
                           "(create one with `uscf db token create NAME`)")
    with engine.connect() as c:
        try:
            check_schema_to_read(c)
        except DatabaseError as error:
            raise from_office_error(error) from None
        name = token_owner(c, credentials.credentials)
    if name is None:
        raise Unauthorized("the token is not valid (unknown or revoked)")
    return name


#: A route parameter that requires a valid token and receives its name: ``token: Writer``.
Writer = Annotated[str, Depends(writer)]
