"""The office's errors: each says what it refused and where."""

from __future__ import annotations


class DatabaseError(RuntimeError):
    """The database is missing, not initialized, or not at the current schema. Defined
    here, not in office/db.py, so that the CLI can catch it without importing SQLAlchemy."""


class OfficeError(ValueError):
    """An office operation that cannot be done as asked (the message says why)."""


class AdmissionError(OfficeError):
    """A write the office refuses (office/admission.py): ``problems`` are its lines, each
    naming the section, player, member or field and what was expected; every line of the
    message starts with ``subject`` (a file, an event, a member)."""

    def __init__(self, subject: str, problems: list[str] | tuple[str, ...]):
        self.subject = subject
        self.problems = tuple(problems)
        super().__init__("\n".join(f"{subject}: {p}" for p in self.problems))
