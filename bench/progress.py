"""Progress of long jobs, and what an interruption leaves finished.

On a terminal a job shows a bar that redraws in place; otherwise (a pipe, a log file, CI)
it writes a plain line when it starts, at every quarter and when it ends. Everything goes
to stderr, so that ``--json`` output on stdout stays clean.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO


class Stopped(KeyboardInterrupt):
    """Ctrl-C during a figure, with a word on what was finished and what was not."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class Progress:
    """One job's progress: ``advance`` as work gets done, ``close`` at the end."""

    WIDTH = 28

    def __init__(self, label: str, total: float, unit: str = "", *, quiet: bool = False,
                 stream: TextIO | None = None):
        self.label, self.total, self.unit = label, max(total, 1e-12), unit
        self.stream = stream or sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self.done = 0.0
        self.start = time.perf_counter()
        self._drawn = 0.0
        self._quarter = 0
        if not self.quiet and not self.tty:
            self._line(f"{label}: started ({_amount(total, unit)})")
        self._draw(force=True)

    def advance(self, amount: float = 1.0) -> None:
        self.done += amount
        self._draw()

    def update(self, done: float) -> None:
        self.done = done
        self._draw()

    def close(self, summary: str = "") -> None:
        if self.quiet:
            return
        elapsed = time.perf_counter() - self.start
        text = f"{self.label}: done in {elapsed:.1f} s" + (f" ({summary})" if summary else "")
        if self.tty:
            self.stream.write("\r\033[K")
        self._line(text)

    def _draw(self, force: bool = False) -> None:
        if self.quiet:
            return
        now = time.perf_counter()
        share = min(self.done / self.total, 1.0)
        if self.tty:
            if force or now - self._drawn >= 0.1:
                filled = int(share * self.WIDTH)
                bar = "#" * filled + "-" * (self.WIDTH - filled)
                self.stream.write(f"\r\033[K{self.label} [{bar}] {share:4.0%} "
                                  f"{_amount(self.done, '')}/{_amount(self.total, self.unit)}"
                                  f"  {now - self.start:.1f} s")
                self.stream.flush()
                self._drawn = now
            return
        quarter = int(share * 4)
        if 0 < quarter < 4 and quarter > self._quarter:
            self._quarter = quarter
            self._line(f"{self.label}: {share:.0%} ({_amount(self.done, '')}/"
                       f"{_amount(self.total, self.unit)}, {now - self.start:.1f} s)")

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()


@contextmanager
def ticker(label: str, expected_s: float | None = None, *, quiet: bool = False,
           stream: TextIO | None = None) -> Iterator[None]:
    """For one long call that cannot report progress: the time elapsed, redrawn on a
    terminal twice a second by a thread; plain start and end lines otherwise."""
    out = stream or sys.stderr
    start = time.perf_counter()
    hint = f" (the last run took {expected_s:.1f} s)" if expected_s else ""
    stop = threading.Event()
    thread = None
    if not quiet and out.isatty():
        def draw() -> None:
            while not stop.wait(0.5):
                out.write(f"\r\033[K{label}: {time.perf_counter() - start:.1f} s{hint}")
                out.flush()
        thread = threading.Thread(target=draw, daemon=True)
        thread.start()
    elif not quiet:
        out.write(f"{label}: started{hint}\n")
        out.flush()
    try:
        yield
    finally:
        stop.set()
        if thread is not None:
            thread.join()
            out.write("\r\033[K")
        if not quiet:
            out.write(f"{label}: {time.perf_counter() - start:.1f} s\n")
            out.flush()


def _amount(value: float, unit: str) -> str:
    text = f"{value:,.0f}" if value >= 10 or value == int(value) else f"{value:.1f}"
    return f"{text} {unit}".rstrip()
