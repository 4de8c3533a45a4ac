"""Rule experiments: a whole history re-rated under variants of the rules, each variant
scored by how well its pre-event ratings predicted the games (docs/researcher.md).

Needs the extra ``[experiments]`` (NumPy, Numba; Dask for a cluster; matplotlib for the
plots)."""

from .history import History, Period, read_history
from .report import awards_table, text_table, write_csv, write_plots
from .run import Experiment, run_experiment
from .spec import Spec, read_spec

__all__ = ["Experiment", "History", "Period", "Spec", "awards_table", "read_history",
           "read_spec", "run_experiment", "text_table", "write_csv", "write_plots"]
