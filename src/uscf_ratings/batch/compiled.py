"""The core's kernels (core/kernels.py) and the procedure over the record layout
(core/procedure.py), compiled with Numba.

Numba compiles a function together with the functions it calls, looked up in the
function's globals. Each kernel is rebuilt here over a namespace in which the names it
calls are the compiled versions: the arithmetic and the steps stay exactly the ones in
core/, compiled unchanged.
"""

from __future__ import annotations

import types
from typing import Any

import numba

from ..core import kernels, procedure

#: kernel names in dependency order: each may call only the ones before it
KERNEL_ORDER = ("pwe", "we", "n_star", "effective_games", "expected", "standard", "objective",
                "_knots", "_below", "_above", "special_walk", "k_factor", "bonus_eligible",
                "all_wins", "all_losses", "uses_special", "plus_known", "counts_after",
                "peak_before", "peak_after", "absolute_floor", "peak_floor", "olm_floor",
                "lowered", "personal_floors", "olm_after")
PROCEDURE_ORDER = ("_sorted_opponents", "_every_player", "most_games", "prepare", "rate")


def _compile() -> dict[str, Any]:
    compiled: dict[str, Any] = {}
    for module, order in ((kernels, KERNEL_ORDER), (procedure, PROCEDURE_ORDER)):
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
