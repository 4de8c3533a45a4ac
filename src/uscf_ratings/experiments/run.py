"""Every variant of an experiment over the same history, each in its own task.

The history is read once and handed to each worker once (a process pool's initializer,
or Dask's scatter to every worker); a task then re-rates it under one variant and sends
back only its scores and last ratings (chain.Rerated). Tasks run in local processes by
default, or on a Dask cluster given the address of its scheduler. A task is a pure
function of the history and the variant, so where it runs does not change its numbers.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ..core.model import System
from ..core.variants import Variant
from ..office.processes import end_with_parent
from .chain import Rerated, rerate
from .history import History
from .spec import Spec

#: how long to try to reach a Dask scheduler before saying it cannot be reached
CONNECT_TIMEOUT_S = 10

#: called after each variant: (variants done, variants in all, the variant's name)
Progress = Callable[[int, int, str], None]


class SchedulerError(RuntimeError):
    """The Dask cluster could not be reached or used: the message says which address."""


@dataclass(frozen=True)
class Experiment:
    """An experiment's results: one `Rerated` per variant, in the spec's order."""

    spec: Spec
    history: History
    results: tuple[Rerated, ...]
    where: str  #: "2 local processes" or "Dask scheduler tcp://..."
    seconds: float

    @property
    def baseline(self) -> Rerated:
        return next(r for r in self.results if r.variant.name == self.spec.baseline)


def run_experiment(spec: Spec, history: History, *, scheduler: str | None = None,
                   workers: int | None = None, progress: Progress | None = None
                   ) -> Experiment:
    """Re-rate ``history`` under each variant of ``spec`` and score it."""
    started = time.perf_counter()
    variants = spec.variants
    if scheduler is not None:
        found, where = _on_dask(scheduler, history, variants, spec.follow, progress)
    else:
        count = max(1, min(workers or os.cpu_count() or 1, len(variants)))
        found = _in_processes(count, history, variants, spec.follow, progress)
        where = f"{count} local process{'es' if count > 1 else ''}"
    ordered = tuple(found[v.name] for v in variants)
    return Experiment(spec, history, ordered, where, time.perf_counter() - started)


# --- local processes ----------------------------------------------------------------------

_history: History | None = None


def _keep(history: History, parent: int) -> None:
    """A worker's initializer: the history, once per worker."""
    global _history
    end_with_parent(parent)
    _history = history


def _task(variant: Variant, follow: System) -> Rerated:
    assert _history is not None, "the worker was started without the history"
    return rerate(_history, variant, follow)


def _in_processes(count: int, history: History, variants: tuple[Variant, ...],
                  follow: System, progress: Progress | None) -> dict[str, Rerated]:
    found: dict[str, Rerated] = {}
    with ProcessPoolExecutor(count, initializer=_keep, initargs=(history, os.getpid())) as pool:
        futures = [pool.submit(_task, v, follow) for v in variants]
        for future in as_completed(futures):
            result = future.result()
            found[result.variant.name] = result
            if progress:
                progress(len(found), len(variants), result.variant.name)
    return found


# --- a Dask cluster -----------------------------------------------------------------------

def _scattered_task(history: History, variant: Variant, follow: System) -> Rerated:
    return rerate(history, variant, follow)


def _on_dask(address: str, history: History, variants: tuple[Variant, ...], follow: System,
             progress: Progress | None) -> tuple[dict[str, Rerated], str]:
    try:
        from dask import distributed as imported
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'uscf-ratings[experiments]'"
                             ) from None
    dask: Any = imported  # Dask's functions carry no annotations
    try:
        client = dask.Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError) as error:
        raise SchedulerError(f"no Dask scheduler at {address}: {error}") from None
    found: dict[str, Rerated] = {}
    with client:
        shared = client.scatter(history, broadcast=True)  # once per worker, not per task
        futures = [client.submit(_scattered_task, shared, v, follow, pure=False)
                   for v in variants]
        for future in dask.as_completed(futures):
            result: Rerated = future.result()
            found[result.variant.name] = result
            if progress:
                progress(len(found), len(variants), result.variant.name)
        workers = len(client.scheduler_info().get("workers", {}))
    return found, f"Dask scheduler {address} ({workers} workers)"
