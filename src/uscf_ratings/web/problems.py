"""Turning what goes wrong with a request into a 4xx answer that says what and where.

Every refusal carries ``detail`` (the whole message, as the CLI would print it) and
``issues`` (one entry per problem, with the place it was found where known), so a page
can list them and an API client can show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.rules import NoRuleSet
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError
from ..formats.errors import ParseError
from ..office.db import DatabaseError
from ..office.office import OfficeError

#: Input the engine refuses after reading it: an invalid section, a date before the rules
#: this project covers, a time control no system covers. ValueError covers the rest of the
#: engine's refusals (a section with neither systems nor a time control).
RATING_FAILURES = (SectionError, NoRuleSet, TimeControlError, ValueError)


@dataclass(frozen=True)
class Issue:
    message: str
    where: str = ""


@dataclass(eq=False)  # an exception compares by identity, and stays hashable
class Problem(Exception):
    """A request refused with ``status``; rendered as JSON by the API, as a page otherwise."""

    status: int
    detail: str
    issues: list[Issue] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.detail)
        if not self.issues:
            self.issues = [Issue(self.detail)]

    def to_json(self) -> dict[str, object]:
        return {"detail": self.detail,
                "issues": [{"where": i.where, "message": i.message} for i in self.issues]}


def from_parse_error(error: ParseError) -> Problem:
    """A file or body that could not be read as an event: 422, every issue listed."""
    return Problem(422, str(error), [Issue(i.message, i.where) for i in error.issues])


def from_rating_error(error: Exception, source: str = "") -> Problem:
    """A section the engine cannot rate (SectionError lists every reason): 422."""
    prefix = f"{source}: " if source else ""
    if isinstance(error, SectionError):
        return Problem(422, prefix + str(error), [Issue(str(p)) for p in error.problems])
    return Problem(422, prefix + str(error))


def from_office_error(error: OfficeError | DatabaseError) -> Problem:
    """An office that cannot do what was asked (409: the state of the database is why),
    or a database that is missing its schema (503: the server needs setting up)."""
    status = 503 if isinstance(error, DatabaseError) else 409
    return Problem(status, str(error))


def no_database() -> Problem:
    return Problem(503, "this server runs without a database: start it with "
                        "`uscf serve --db URL` (or set USCF_DB) for the office's pages and API")
