"""`engine.load` loads the compiled code the office rates with (`office.run.load_kernels`,
which ``uscf db rate`` calls while its files are checked): rating real sections after it
compiles and loads nothing more."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("numba", reason="the compiled path needs the [fast] extra (numba)")

AFTER_LOAD = """
import json
from uscf_ratings.batch import engine
from uscf_ratings.synthetic import events, federation
kernels = (engine._rate_serial, engine._rate_serial_and_norms)
def count():
    return [len(k.overloads) for k in kernels]
assert count() == [0, 0]  # a fresh process: nothing loaded yet
engine.load()
loaded = count()
sections = [s for e in events(federation(200, 5), 12, 5) for s in e.sections
            if s.type in engine.COMPILED_TYPES]
rated = [engine.rate_outcomes_and_norms(s)[0] for s in sections]  # with norms
rated += [engine.rate_outcomes(s) for s in sections]  # without
print(json.dumps([loaded, count(), len(sections), sum(map(len, rated))]))
"""


def test_load_leaves_nothing_to_load_for_the_sections_rated_after_it() -> None:
    out = subprocess.run([sys.executable, "-c", AFTER_LOAD], capture_output=True, text=True,
                         check=True)
    loaded, after, sections, outcomes = json.loads(out.stdout)
    assert loaded == [1, 1] and sections > 0 and outcomes > 0
    assert after == loaded  # the sections were rated by the code `load` loaded
