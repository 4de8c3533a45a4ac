"""The classes of violation that other parts of issue 37 fix at their root.

A violation in one of these classes is expected until that part is merged: the corpus
marks its entries ``xfail`` with the class (not strictly), and the budget run of the
tests expects it rather than failing. Each class names its part; the lead removes a class
here once its part is in, and the tests then hold the fuzzer to it. A violation in no
class fails the tests: it is this part's to fix (in the readers, formats/*.py).
"""

from __future__ import annotations

from .doors import MEMORY, Verdict

#: (class, what matches it: exception names, or words of the message or place)
CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bounds (wt-bounds): JSON nesting depth", ("RecursionError",)),
    ("bounds (wt-bounds): number length", ("integer string conversion",)),
    ("bounds (wt-bounds): zip members (caps on bytes produced, methods, encryption)",
     ("BadZipFile", "zlib.error", "LZMAError", "EOFError", "is encrypted",
      "compression method", "Invalid data stream", "zipfile.py", "bz2.py", "lzma.py")),
)
MEMORY_CLASS = "bounds (wt-bounds): the memory ceiling"
#: The classes of the parts merged since are gone: domain (wt-domain: dates within the
#: rules' coverage, section numbers, integers that fit, finite ratings) and order
#: (wt-order: stored = rated). A violation of theirs now fails the tests.


def class_of(verdict: Verdict) -> str | None:
    """The class of a violation another part owns, or None (this part's to fix)."""
    if verdict.status == MEMORY:
        return MEMORY_CLASS
    text = " ".join(verdict.signature) + " " + verdict.detail
    for name, words in CLASSES:
        if any(word in text for word in words):
            return name
    return None
