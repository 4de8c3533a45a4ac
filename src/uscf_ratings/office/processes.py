"""The project's worker processes end with the command that started them.

`uscf db rate` checks files and reads stored events in pools of processes
(office/file_checks.py, office/prefetch.py), and `uscf serve` runs the web app's workers.
A command ended by Ctrl-C shuts its pools down itself; one ended by SIGKILL (an out of
memory killer, ``kill -9``) cannot, and its workers, blocked on a pipe nobody writes to,
would live on, reparented to init. On Linux each worker asks the kernel to send it
SIGTERM when its parent ends (``prctl(PR_SET_PDEATHSIG)``), however the parent ends.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

#: prctl's option that names the signal a process gets when its parent ends
_PR_SET_PDEATHSIG = 1


def end_with_parent(parent: int) -> None:
    """Have this process sent SIGTERM when the process ``parent`` (the one that started
    it) ends, and end now if it has ended already (it could end before the request
    below is made). Linux only; elsewhere it does nothing.

    The kernel watches the thread that started the process: the pools of this project
    are started from the command's main thread, which ends only with the command."""
    if not sys.platform.startswith("linux"):
        return
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM))
    if os.getppid() != parent:  # the parent ended before the request
        sys.exit(0)
