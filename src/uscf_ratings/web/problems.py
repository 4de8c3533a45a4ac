"""Turning what goes wrong with a request into a 4xx answer that says what and where.

Every refusal carries ``detail`` (the whole message, as the CLI would print it) and
``issues`` (one entry per problem, with the place it was found where known), so a page
can list them and an API client can show them. The JSON API answers with those as they
are; a page says it in plain words for a visitor (`Problem.title`, `Problem.headline`):
never a bare status code, and no advice meant for the server's operator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.pipeline import RATE_REFUSALS
from ..core.validate import SectionError
from ..estimator.form import FormError
from ..formats.errors import ParseError
from ..office.db import DatabaseError
from ..office.office import OfficeError

#: Input the engine refuses after reading it (`core.pipeline.RATE_REFUSALS`)
RATING_FAILURES = RATE_REFUSALS

#: What a visitor can do about each refusal, in words (the error page says it).
ADVICE = {
    400: "Check the address or what you sent, and try again.",
    401: "Writing needs a token from the office: `uscf db token create NAME`.",
    404: "The address may be mistyped, or what it names is not in this office. Find a "
         "member by name or id, or look through the events.",
    405: "Open the page from a link or its address; a form sends itself the right way.",
    409: "The office's database is busy or holds something that prevents it: try again "
         "in a moment, or correct what is named above.",
    413: "Send a smaller file, or the section alone.",
    422: "Correct what is named above, then try again.",
    503: "This server is not set up for this page: its operator can start it with a "
         "database (`uscf serve --db URL`).",
}

#: The words of a value that cannot be read, by the kind of the check it failed (the
#: codes pydantic gives a request's query and path parameters).
VALIDATION_WORDS = {
    "int_parsing": "should be a whole number", "int_type": "should be a whole number",
    "float_parsing": "should be a number", "float_type": "should be a number",
    "date_parsing": "should be a date as YYYY-MM-DD",
    "date_from_datetime_parsing": "should be a date as YYYY-MM-DD",
    "bool_parsing": "should be yes or no (true or false)", "missing": "is missing",
    "string_pattern_mismatch": "is not in the form expected",
}

#: The form of a parameter given by a pattern, in words (web/limits.py).
PARAMETER_FORMS = {"state": "letters, digits, spaces, dots and hyphens (a state such as FL)"}

#: A page's title for each refusal, in words.
TITLES = {400: "The request could not be read", 401: "Not allowed", 404: "Not found",
          405: "Not a request this address takes",
          409: "Not possible now", 413: "Too large", 422: "Cannot be used",
          503: "Not available on this server"}


@dataclass(frozen=True)
class Issue:
    message: str
    where: str = ""
    field: str = ""  #: the page's form field it is about, where the page shows it


@dataclass(eq=False)  # an exception compares by identity, and stays hashable
class Problem(Exception):
    """A request refused with ``status``; rendered as JSON by the API, as a page otherwise."""

    status: int
    detail: str
    issues: list[Issue] = field(default_factory=list)
    source: str = ""  #: the file or text the issues were found in, where there is one

    def __post_init__(self) -> None:
        super().__init__(self.detail)
        if not self.issues:
            self.issues = [Issue(self.detail)]

    @property
    def title(self) -> str:
        """The refusal in a few words, for a page's title and heading."""
        return TITLES.get(self.status, "Refused")

    @property
    def listed(self) -> bool:
        """Whether a page lists the issues (more than one) rather than saying the one."""
        return len(self.issues) > 1

    def headline(self, subject: str, max_upload: int) -> str:
        """What a page says first, in plain words: "The form has 2 problems:" (or the
        file's name for ``subject``) before the list, else the message itself; a body
        over the limit, without the operator's option (``detail`` keeps it for the API).

        >>> Problem(422, "x", [Issue("a", "rating"), Issue("b", "date")]).headline("The form", 0)
        'The form has 2 problems:'
        >>> Problem(413, "the request body is larger ...").headline("The form", 2 * 1024 * 1024)
        'The file is larger than this server accepts (at most 2 MB).'
        """
        if self.status == 413:
            return f"The file is larger than this server accepts (at most {size_in_words(max_upload)})."
        if self.listed:
            count = len(self.issues)
            return f"{self.source or subject} has {count} problems:"
        return self.detail

    @property
    def advice(self) -> str:
        """What to do about it, in plain words."""
        return ADVICE.get(self.status, "Go back and try again.")

    def to_json(self) -> dict[str, object]:
        return {"detail": self.detail,
                "issues": [{"where": i.where, "message": i.message} for i in self.issues]}


def validation_issue(error: dict[str, Any]) -> Issue:
    """A request's parameter that cannot be read (one of pydantic's errors), in plain
    words: ``page should be a whole number, not 'abc'``; ``where`` stays the parameter's
    place (``query.page``), which API clients read.

    >>> validation_issue({"type": "int_parsing", "loc": ("query", "page"), "input": "abc",
    ...                   "msg": "Input should be a valid integer"}).message
    "page should be a whole number, not 'abc'"
    >>> validation_issue({"type": "less_than_equal", "loc": ("query", "offset"),
    ...                   "input": "2000000000", "ctx": {"le": 1000000000}}).message
    "offset should be at most 1000000000, not '2000000000'"
    """
    place = [str(part) for part in error.get("loc", ())]
    name = place[-1] if place else "the request"
    kind = str(error.get("type", ""))
    limits = error.get("ctx") or {}
    bounds = {"greater_than_equal": "at least {ge}", "less_than_equal": "at most {le}",
              "greater_than": "more than {gt}", "less_than": "less than {lt}",
              "string_too_long": "at most {max_length} characters long",
              "enum": "one of {expected}", "literal_error": "one of {expected}"}
    if kind in bounds:
        said = "should be " + bounds[kind].format(**{k: limits.get(k, "?") for k in (
            "ge", "le", "gt", "lt", "max_length", "expected")})
    elif kind == "string_pattern_mismatch" and name in PARAMETER_FORMS:
        said = f"should be {PARAMETER_FORMS[name]}"
    else:
        said = VALIDATION_WORDS.get(kind, str(error.get("msg", "cannot be used")))
    given = error.get("input")
    shown = "" if kind == "missing" or not isinstance(given, (str, int, float)) \
        else f", not {str(given)[:40]!r}" + ("..." if len(str(given)) > 40 else "")
    return Issue(f"{name} {said}{shown}", ".".join(place))


def from_parse_error(error: ParseError) -> Problem:
    """A file or body that could not be read as an event: 422, every issue listed."""
    return Problem(422, str(error), [Issue(i.message, i.where) for i in error.issues],
                   error.source)


def from_form_error(error: FormError) -> Problem:
    """The estimator's fields that cannot be used: 422, each problem at its field."""
    return Problem(422, str(error), [Issue(i.message, i.where, i.field) for i in error.issues])


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


def size_in_words(size: int) -> str:
    """A number of bytes as a visitor reads it, 1024-based as ``--max-upload`` takes it.

    >>> size_in_words(2 * 1024 * 1024), size_in_words(1536 * 1024), size_in_words(4096), size_in_words(1000)
    ('2 MB', '1.5 MB', '4 KB', '1,000 bytes')
    """
    for unit, factor in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size:,} bytes"
