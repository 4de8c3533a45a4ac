"""Ctrl-C and SIGTERM held over a commit, and SIGTERM taken as Ctrl-C
(office/interrupts.py); the commands that use them: tests/cli/test_db_rate_many.py and
tests/cli/test_db_interrupted.py."""

from __future__ import annotations

import signal
from types import FrameType

import pytest

from uscf_ratings.office.interrupts import held, terminated_as_interrupted


def test_a_signal_held_reaches_the_handler_before_once_the_block_ends() -> None:
    came: list[str] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        came.append(signal.Signals(signum).name)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        with held():
            signal.raise_signal(signal.SIGTERM)
            signal.raise_signal(signal.SIGTERM)
            came.append("the block went on")
        assert came == ["the block went on", "SIGTERM"]  # once, after the block
        assert signal.getsignal(signal.SIGTERM) is handler  # put back
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_ctrl_c_held_is_a_keyboard_interrupt_after_the_block() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt):
        with held():
            signal.raise_signal(signal.SIGINT)
            done.append(True)
    assert done == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_sigterm_is_a_keyboard_interrupt_while_the_command_runs() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt):
        with terminated_as_interrupted():
            signal.raise_signal(signal.SIGTERM)
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_worker_forked_meanwhile_ends_at_once_on_sigterm() -> None:
    """The command's readers and checks are forked while SIGTERM is taken as Ctrl-C; in
    them it ends the process as by default (the kernel's signal when the command ends:
    office/processes.py), rather than raising in the middle of a read."""
    from uscf_ratings.office.prefetch import reader_pool

    with terminated_as_interrupted(), reader_pool(1) as pool:
        assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL  # the command's
        assert pool.submit(signal.getsignal, signal.SIGTERM).result() == signal.SIG_DFL
