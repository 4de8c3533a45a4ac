"""The core's kernels (core/kernels.py), compiled with Numba.

Numba compiles a function together with the functions it calls, looked up in the
function's globals. The kernels call each other through the module ``kernels``, so each
is rebuilt here over a namespace in which those names are the compiled versions: the
arithmetic stays exactly the one in core/kernels.py.
"""

from __future__ import annotations

import types
from typing import Any

import numba

from ..core import kernels

#: kernel names in dependency order: each may call only the ones before it
ORDER = ("pwe", "we", "n_star", "expected", "objective", "_knots", "_below", "_above",
         "special_walk", "k_factor", "bonus_eligible", "plus_known", "peak_before",
         "peak_after", "absolute_floor", "peak_floor", "olm_floor", "lowered")


def _compile() -> dict[str, Any]:
    namespace: dict[str, Any] = dict(vars(kernels))
    compiled: dict[str, Any] = {}
    for name in ORDER:
        source = getattr(kernels, name)
        rebuilt = types.FunctionType(source.__code__, namespace, name, source.__defaults__)
        compiled[name] = numba.njit(cache=True, nogil=True)(rebuilt)
        namespace[name] = compiled[name]
    return compiled


KERNELS = _compile()
pwe = KERNELS["pwe"]
we = KERNELS["we"]
n_star = KERNELS["n_star"]
expected = KERNELS["expected"]
special_walk = KERNELS["special_walk"]
k_factor = KERNELS["k_factor"]
bonus_eligible = KERNELS["bonus_eligible"]
plus_known = KERNELS["plus_known"]
peak_before = KERNELS["peak_before"]
peak_after = KERNELS["peak_after"]
absolute_floor = KERNELS["absolute_floor"]
peak_floor = KERNELS["peak_floor"]
olm_floor = KERNELS["olm_floor"]
lowered = KERNELS["lowered"]
