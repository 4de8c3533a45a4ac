"""API tokens: who may write to the office through the web app (``uscf serve``).

A token is shown once, when it is created, and only its hash is stored: a copy of the
database (a backup, a leaked file) gives no one the right to write.

SHA-256 without salt or stretching is enough here, unlike for passwords: a token is 32
random bytes from `secrets` (256 bits), so there is no dictionary to try and no
point in slowing a guess down; a salt would only stop the lookup by hash that checking
a token needs.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, delete, insert, select

from . import schema as t
from .db import check_schema, writing
from .store import audit, now

TOKEN_BYTES = 32  #: 256 bits of randomness: 43 URL-safe characters
MAX_NAME = 64  #: the width of tokens.name


class TokenError(ValueError):
    """A token that cannot be created or revoked as asked (the message says why)."""


@dataclass(frozen=True)
class TokenInfo:
    name: str
    created_at: datetime


def token_hash(token: str) -> str:
    """The stored form of a token (hex SHA-256; see the module docstring for why)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_token(engine: Engine, name: str) -> str:
    """Create a token called ``name`` and return it; only its hash is kept."""
    name = name.strip()
    if not name or len(name) > MAX_NAME:
        raise TokenError(f"a token name has 1 to {MAX_NAME} characters")
    token = secrets.token_urlsafe(TOKEN_BYTES)
    with writing(engine) as c:
        check_schema(c)
        if c.execute(select(t.tokens.c.name).where(t.tokens.c.name == name)).first():
            raise TokenError(f"a token called {name!r} already exists; revoke it first "
                             f"(`uscf db token revoke {name}`)")
        c.execute(insert(t.tokens).values(name=name, hash=token_hash(token), created_at=now()))
        audit(c, "token_create", {"name": name})
    return token


def revoke_token(engine: Engine, name: str) -> None:
    with writing(engine) as c:
        check_schema(c)
        if c.execute(delete(t.tokens).where(t.tokens.c.name == name)).rowcount == 0:
            raise TokenError(f"there is no token called {name!r}")
        audit(c, "token_revoke", {"name": name})


def list_tokens(engine: Engine) -> list[TokenInfo]:
    with engine.connect() as c:
        check_schema(c)
        rows = c.execute(select(t.tokens.c.name, t.tokens.c.created_at).order_by(t.tokens.c.name))
        return [TokenInfo(r.name, r.created_at) for r in rows]


def token_owner(connection: Connection, token: str) -> str | None:
    """The name of the token, or None if it is not a valid token.

    The lookup is by hash, so the time it takes says nothing about how much of a guess
    was right: no constant-time comparison is needed.
    """
    if not token:
        return None
    row = connection.execute(select(t.tokens.c.name)
                             .where(t.tokens.c.hash == token_hash(token))).first()
    return None if row is None else str(row.name)
