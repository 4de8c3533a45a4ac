"""The core's kernels (core/kernels.py), the procedure over the record layout
(core/procedure.py) and the norm test (core/norms.py), compiled with Numba.

Numba compiles a function together with the functions it calls, looked up in the
function's globals. Each kernel is rebuilt here over a namespace in which the names it
calls are the compiled versions: the arithmetic and the steps stay exactly the ones in
core/, compiled unchanged.
"""

from __future__ import annotations

import hashlib
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numba

from ..core import blending, constants, kernels, norms, procedure, records

#: kernel names in dependency order: each may call only the ones before it
KERNEL_ORDER = ("pwe", "we", "n_star", "effective_games", "expected", "standard", "objective",
                "_knots", "_below", "_above", "special_walk", "k_factor", "most_meetings",
                "bonus_eligible",
                "all_wins", "all_losses", "uses_special", "plus_known", "counts_after",
                "peak_before", "peak_after", "absolute_floor", "peak_floor", "olm_floor",
                "lowered", "personal_floors", "olm_after")
PROCEDURE_ORDER = ("_sorted_opponents", "_every_player", "most_games", "prepare", "rate")
#: Step 1's blended initialization (the experiments' compiled chain)
BLENDING_ORDER = ("exact_sum", "age_rating", "source_weight", "blended_average")
#: the norm test toward the titles (titles.md), written in the kernels' subset
NORM_ORDER = ("norm_level", "norm_expected_units", "norm_units", "norm_earned",
              "norm_eligibility", "counted_norm_games", "highest_norm")


def drop_stale_caches(sources: Sequence[Path], stamp: Path) -> bool:
    """Remove Numba's cached machine code beside ``sources`` when any of them changed.

    Numba keys a cached function on the file it is defined in alone, so after a change to
    a kernel its callers elsewhere (procedure.py, batch/engine.py) would load machine code
    with the old kernel inlined. ``stamp`` keeps the digest of the sources the cache was
    made from. An installed package whose files cannot be written keeps its cache (its
    sources change only by an upgrade, which replaces every file). Returns whether the
    caches were dropped."""
    try:
        digest = hashlib.sha256(b"".join(path.read_bytes() for path in sources)).hexdigest()
    except OSError:  # sources not readable as files (a zipped install): Numba caches none
        return False
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass  # no stamp yet
    try:
        for folder in {path.parent / "__pycache__" for path in sources}:
            for cached in [*folder.glob("*.nbi"), *folder.glob("*.nbc")]:
                cached.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        return False
    return True


#: every file whose code the compiled functions hold
SOURCES = tuple(Path(module.__file__ or "")
                for module in (blending, constants, kernels, norms, procedure, records)) + (
    Path(__file__), Path(__file__).with_name("engine.py"), Path(__file__).with_name("chain.py"))
drop_stale_caches(SOURCES, Path(__file__).parent / "__pycache__" / "kernels.sha256")


def _compile() -> dict[str, Any]:
    compiled: dict[str, Any] = {}
    for module, order in ((kernels, KERNEL_ORDER), (procedure, PROCEDURE_ORDER),
                          (blending, BLENDING_ORDER), (norms, NORM_ORDER)):
        namespace: dict[str, Any] = dict(vars(module)) | compiled
        for name in order:
            source = getattr(module, name)
            rebuilt = types.FunctionType(source.__code__, namespace, name, source.__defaults__)
            compiled[name] = namespace[name] = numba.njit(cache=True, nogil=True)(rebuilt)
    return compiled


KERNELS = _compile()
prepare = KERNELS["prepare"]
rate = KERNELS["rate"]
most_games = KERNELS["most_games"]
highest_norm = KERNELS["highest_norm"]
norm_eligibility = KERNELS["norm_eligibility"]
most_meetings = KERNELS["most_meetings"]
counted_norm_games = KERNELS["counted_norm_games"]
age_rating = KERNELS["age_rating"]
source_weight = KERNELS["source_weight"]
blended_average = KERNELS["blended_average"]
