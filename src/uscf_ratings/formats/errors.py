"""Errors of the file formats: each names the file, the place in it, and what was expected."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Issue:
    where: str  #: a JSON path ("sections[0].players[3].ratings.R.rating"), a line or a record
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message


class Issues:
    """What a reader of the ratings API's JSON found wrong, gathered as it reads so that a
    refusal lists every problem (the readers of ratings_api.py, member_history.py and
    member_titles.py build on it)."""

    def __init__(self) -> None:
        self.issues: list[Issue] = []

    def problem(self, where: str, message: str) -> None:
        self.issues.append(Issue(where, message))


class ParseError(ValueError):
    """A file that could not be read; ``issues`` lists every problem found, not only the first."""

    def __init__(self, source: str, issues: list[Issue]):
        self.source = source
        self.issues = tuple(issues)
        super().__init__("\n".join(f"{source}: {issue}" for issue in issues))
