"""The office's errors: each says what it refused and where."""

from __future__ import annotations

#: how a message says to go on after a failure (office/failures.py)
RUN_AGAIN = "run the same command again"
#: what `uscf db rate` adds to `RUN_AGAIN`: a run given again goes on where it stopped
SKIPPED = "(events stored already as given are skipped)"


def first_line(error: BaseException) -> str:
    """An error's message as one line, for a one-line message (its type if it has none)."""
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


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


class WriterBusy(DatabaseError):
    """Another process held the office's write lock longer than the writer was to wait
    (`db.WriterWait.limit`); nothing was written."""


class DatabaseFailure(DatabaseError):
    """The database failed while in use (office/failures.py): ``what`` happened, in a
    user's words with the driver's own message, and ``advice``, how to go on. Every
    change is one transaction, so a command that failed changed nothing, as its message
    says; a run of many events (``uscf db rate``) commits whole events in groups, and
    says itself what it committed before the failure."""

    def __init__(self, what: str, advice: str):
        self.what, self.advice = what, advice
        super().__init__(f"{what}: nothing was changed; {advice}")


#: what a user says to store an event whose content another event holds: the CLI's
#: option and the web API's query parameter
DIFFERENT_EVENT_OPTION = "--different-event"
DIFFERENT_EVENT_PARAMETER = "different_event=true"


class DuplicateEvent(OfficeError):
    """An event whose content (dates, players, games: office/fingerprint.py) is stored
    already under another id, ``stored``; nothing was stored."""

    def __init__(self, event_id: str, stored: str):
        self.event_id, self.stored = event_id, stored
        super().__init__(
            f"event {event_id} holds the same games as event {stored}, which is stored "
            f"(the same dates, players and results, round by round): a report is rated "
            f"once. If it is another event, give {DIFFERENT_EVENT_OPTION} (in the web API, "
            f"{DIFFERENT_EVENT_PARAMETER}); to replace {stored} by this file, use "
            f"`uscf db correct {stored} FILE`")
