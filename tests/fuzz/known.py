"""The classes of violation that other work fixes at its root, while the fuzzer finds them.

A violation in one of these classes is expected until that work is merged: the corpus
marks its entries ``xfail`` with the class (not strictly), and the budget run of the
tests expects it rather than failing. A violation in no class fails the tests. Today
there is none: every violation fails.
"""

from __future__ import annotations

from .doors import Verdict

#: (class, what matches it: exception names, or words of the message or place). Empty:
#: the classes the first long runs found (JSON depth, number length, zip members, memory,
#: dates, section numbers, integers that fit, finite ratings, stored = rated) are fixed at
#: their root, so every violation fails the tests. Work that fixes a class at its root
#: while the fuzzer already finds it adds the class here until it is merged.
CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = ()


def class_of(verdict: Verdict) -> str | None:
    """The known class of a violation, or None (a violation that fails the tests)."""
    text = " ".join(verdict.signature) + " " + verdict.detail
    for name, words in CLASSES:
        if any(word in text for word in words):
            return name
    return None
