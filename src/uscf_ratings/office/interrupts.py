"""Ctrl-C held while a commit is counted, and SIGTERM taken as Ctrl-C: the user is told
exactly what was stored, however the command is stopped.

``uscf db rate`` says, when Ctrl-C stops it, how many events were committed. It counts
the events of each commit from the report that follows the commit. A KeyboardInterrupt
that lands between the database's COMMIT and that count (Python raises it between any
two steps) would leave events stored that the message does not count. `held` defers
SIGINT over that stretch, and raises it once the count is made.

``kill PID`` (SIGTERM, what a service manager or a batch system sends to stop a job)
would otherwise end the command at once, with no message and its temporary folder left
behind; `terminated_as_interrupted` makes it stop as Ctrl-C does: the open transaction
rolled back, the worker processes stopped, the folder removed, and a line saying what the
database holds.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

#: the signals that stop a command, which `held` holds
STOPPING = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def held() -> Iterator[None]:
    """SIGINT (Ctrl-C) and SIGTERM received while the block runs take effect at its end:
    the handler in force before (Python's KeyboardInterrupt for SIGINT, by default) is
    called then, once for each signal received. Where the block ends with an error of
    its own, that error is raised and the signals only noted as received, as the run
    ends anyway. Outside the main thread nothing is held (only the main thread may set
    handlers), nor a signal that is ignored."""
    received: list[int] = []

    def note(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)

    holding = [signum for signum in STOPPING
               if signal.getsignal(signum) not in (signal.SIG_IGN, None)]
    with _handled(holding, note):
        yield
    for came in dict.fromkeys(received):
        signal.raise_signal(came)  # to the handler in force: as if it came now


@contextmanager
def terminated_as_interrupted() -> Iterator[None]:
    """SIGTERM raises KeyboardInterrupt while the block runs (in the main thread only),
    so that the command stops as Ctrl-C stops it; the handler before is put back at its
    end."""

    def interrupt(_signum: int, _frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    with _handled((signal.SIGTERM,), interrupt):
        yield


@contextmanager
def _handled(signums: Sequence[int], handler: Callable[[int, FrameType | None], None]
             ) -> Iterator[None]:
    """``handler`` for ``signums`` while the block runs, the handlers before put back at
    its end; in the main thread only (elsewhere nothing is changed: only the main thread
    may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.getsignal(signum) for signum in signums}
    for signum in signums:
        signal.signal(signum, handler)
    try:
        yield
    finally:
        for signum, before in previous.items():
            signal.signal(signum, before)
