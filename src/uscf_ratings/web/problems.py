"""Turning what goes wrong with a request into a 4xx answer that says what and where.

Every refusal carries ``detail`` (the whole message, as the CLI would print it) and
``issues`` (one entry per problem, with the place it was found where known), so a page
can list them and an API client can show them. The JSON API answers with those as they
are; a page says it in plain words for a visitor (`Problem.title`, `Problem.headline`):
never a bare status code, and no advice meant for the server's operator.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.rules import NoRuleSet
from ..core.timecontrol import TimeControlError
from ..core.validate import SectionError
from ..estimator.form import FormError
from ..formats.errors import ParseError
from ..office.db import DatabaseError
from ..office.office import OfficeError

#: Input the engine refuses after reading it: an invalid section, a date before the rules
#: this project covers, a time control no system covers. ValueError covers the rest of the
#: engine's refusals (a section with neither systems nor a time control).
RATING_FAILURES = (SectionError, NoRuleSet, TimeControlError, ValueError)

#: A page's title for each refusal, in words.
TITLES = {400: "The request could not be read", 401: "Not allowed", 404: "Not found",
          409: "Not possible now", 413: "Too large", 422: "Cannot be used",
          503: "Not available on this server"}


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

    def to_json(self) -> dict[str, object]:
        return {"detail": self.detail,
                "issues": [{"where": i.where, "message": i.message} for i in self.issues]}


def from_parse_error(error: ParseError) -> Problem:
    """A file or body that could not be read as an event: 422, every issue listed."""
    return Problem(422, str(error), [Issue(i.message, i.where) for i in error.issues],
                   error.source)


def from_form_error(error: FormError) -> Problem:
    """The estimator's fields that cannot be used: 422, each problem at its field."""
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


def size_in_words(size: int) -> str:
    """A number of bytes as a visitor reads it, 1024-based as ``--max-upload`` takes it.

    >>> size_in_words(2 * 1024 * 1024), size_in_words(1536 * 1024), size_in_words(4096), size_in_words(1000)
    ('2 MB', '1.5 MB', '4 KB', '1,000 bytes')
    """
    for unit, factor in (("MB", 1024 * 1024), ("KB", 1024)):
        if size >= factor:
            return f"{size / factor:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size:,} bytes"
