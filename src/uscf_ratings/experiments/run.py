"""Every variant of an experiment over the same history, each in its own task.

The history is read and laid out once (rerate.laid_out: the office's engine,
batch/history.py), and handed to each worker once (a process pool's initializer, or
Dask's scatter to every worker); a task then re-rates it under one variant (the same
engine's chain, batch/chain.py) and sends back only its scores and last ratings
(rerate.Rerated). Tasks run in local processes by default, or on a Dask cluster given
the address of its scheduler. A task is a pure function of the history and the variant,
so where it runs does not change its numbers.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from ..batch.history import HistoryLayout
from ..core.model import System
from ..core.variants import Variant
from ..office.processes import end_with_parent
from .history import History
from .rerate import Rerated, laid_out, rerate_laid
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
    laid = laid_out(history)
    if scheduler is not None:
        found, where = _on_dask(scheduler, laid, variants, spec.follow, progress)
    else:
        count = max(1, min(workers or os.cpu_count() or 1, len(variants)))
        found = _in_processes(count, laid, variants, spec.follow, progress)
        where = f"{count} local process{'es' if count > 1 else ''}"
    ordered = tuple(found[v.name] for v in variants)
    return Experiment(spec, history, ordered, where, time.perf_counter() - started)


Prepared = HistoryLayout


def rerate_prepared(prepared: Prepared, variant: Variant, follow: System) -> Rerated:
    """One task: the history re-rated under ``variant``."""
    return rerate_laid(prepared, variant, follow)


# --- local processes ----------------------------------------------------------------------

_history: Prepared | None = None


def _keep(history: Prepared, parent: int) -> None:
    """A worker's initializer: the history, once per worker."""
    global _history
    end_with_parent(parent)
    _history = history


def _task(variant: Variant, follow: System) -> Rerated:
    assert _history is not None, "the worker was started without the history"
    return rerate_prepared(_history, variant, follow)


def _in_processes(count: int, history: Prepared, variants: tuple[Variant, ...],
                  follow: System, progress: Progress | None) -> dict[str, Rerated]:
    found: dict[str, Rerated] = {}
    # the objects made so far (the layout's) are left out of the collector's walks while
    # the workers run: a worker forked with them would otherwise walk them at its first
    # collections, and write to every page they lie on, which the fork shares until then
    # (a year's first variant took twice as long); a caller's own freeze is left alone
    ours = gc.get_freeze_count() == 0
    if ours:
        gc.freeze()
    try:
        with ProcessPoolExecutor(count, initializer=_keep,
                                 initargs=(history, os.getpid())) as pool:
            futures = [pool.submit(_task, v, follow) for v in variants]
            for future in as_completed(futures):
                result = future.result()
                found[result.variant.name] = result
                if progress:
                    progress(len(found), len(variants), result.variant.name)
    finally:
        if ours:
            gc.unfreeze()
    return found


# --- a Dask cluster -----------------------------------------------------------------------

def _on_dask(address: str, history: Prepared, variants: tuple[Variant, ...], follow: System,
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
        # once per worker, not per task; hash=False: a key made from the layout's content
        # (Dask's default) costs more than the whole transfer (15 s for the synthetic year)
        shared = client.scatter(history, broadcast=True, hash=False)
        futures = [client.submit(rerate_prepared, shared, v, follow, pure=False)
                   for v in variants]
        for future in dask.as_completed(futures):
            result: Rerated = future.result()
            found[result.variant.name] = result
            if progress:
                progress(len(found), len(variants), result.variant.name)
        workers = len(client.scheduler_info().get("workers", {}))
    return found, f"Dask scheduler {address} ({workers} workers)"
