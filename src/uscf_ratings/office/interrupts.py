"""Ctrl-C held while a commit is counted: the user is told exactly what was stored.

``uscf db rate`` says, when Ctrl-C stops it, how many events were committed. It counts
the events of each commit from the report that follows the commit. A KeyboardInterrupt
that lands between the database's COMMIT and that count (Python raises it between any
two steps) would leave events stored that the message does not count. `held` defers
SIGINT over that stretch, and raises it once the count is made.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


@contextmanager
def held() -> Iterator[None]:
    """SIGINT received while the block runs takes effect at its end: the handler in
    force before (Python's KeyboardInterrupt, by default) is called then, once. Where
    the block ends with an error of its own, that error is raised and the signal only
    noted as received, as the run ends anyway. Outside the main thread, or where
    SIGINT is ignored, nothing is held (only the main thread may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if previous in (signal.SIG_IGN, None):
        yield
        return
    received: list[int] = []

    def note(signum: int, _frame: FrameType | None) -> None:
        received.append(signum)

    signal.signal(signal.SIGINT, note)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        signal.raise_signal(signal.SIGINT)  # to the handler in force: as if it came now
