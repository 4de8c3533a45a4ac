"""Where the time goes: cProfile of the reference path, of ``lay_out`` and of the office
(``python -m bench --profile``), summarized as shares of each job.

The shares are cumulative (a function and everything it calls), so they overlap; the
``LANDMARKS`` pick the functions that say where the time goes in each job.
"""

from __future__ import annotations

import cProfile
import os
import pstats
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from uscf_ratings.core.pipeline import rate_section

from .figures import REPO, Context, columns_path

#: Functions whose cumulative share says where the time goes, per profile: (label, file
#: path suffix, function name). Missing ones (renamed, moved) are left out of the report.
LANDMARKS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "reference": (
        ("check_section: the section's consistency checks", "core/validate.py", "check_section"),
        ("lineup: entrants, games and terms", "core/layout.py", "lineup"),
        ("before_rows: pre-event values, Step 1", "core/layout.py", "before_rows"),
        ("prepare: N', the formula, S, K, history and floors", "core/procedure.py", "prepare"),
        ("rate: Steps 3-5 and the floors", "core/procedure.py", "rate"),
        ("special_walk: the special formula", "core/kernels.py", "special_walk"),
        ("standard: the standard formula", "core/kernels.py", "standard"),
        ("explain_group: the explanation of each result", "core/explanation.py",
         "explain_group"),
        ("dataclasses.replace (results and states)", "dataclasses.py", "replace"),
    ),
    "pack": (
        ("check_section: the section's consistency checks", "core/validate.py", "check_section"),
        ("section_systems: systems of the time control", "core/pipeline.py", "section_systems"),
        ("merge_entrants: rows grouped by member", "core/pipeline.py", "merge_entrants"),
        ("lineup: entrants, games and terms", "core/layout.py", "lineup"),
        ("before_rows: pre-event values, Step 1", "core/layout.py", "before_rows"),
        ("initial_rating: Step 1 for unrated players", "core/initial.py", "initial_rating"),
        ("arrays: the lists as arrays", "batch/engine.py", "arrays"),
    ),
    "office": (
        ("read_checked: each file read and checked", "office/checked_file.py",
         "read_checked"),
        ("schema_problems: the schema check (jsonschema-rs)", "formats/event_json.py",
         "schema_problems"),
        ("event_from_dict: JSON to the model", "formats/event_json.py", "event_from_dict"),
        ("check_section: the sections' consistency", "core/validate.py", "check_section"),
        ("read_event: each laid-out event loaded from the spool, with its text",
         "office/spool.py", "read_event"),
        ("_store_event: the event and its sections stored", "office/office.py", "_store_event"),
        ("RatingRun._load: members first seen, their latest states", "office/run.py", "_load"),
        ("RatingRun._lineup_to_rate: the database's states, Step 1", "office/run.py",
         "_lineup_to_rate"),
        ("lineup: each section's entrants, games and terms", "core/layout.py", "lineup"),
        ("rate_lineups: compiled Steps 2-5 of sections side by side, the states after",
         "batch/engine.py", "rate_lineups"),
        ("outcome_rows: results to rows, states to columns", "office/store.py", "outcome_rows"),
        ("write_outcomes: result rows written through the driver", "office/store.py",
         "write_outcomes"),
        ("state_json: each state after the event as JSON", "office/store.py", "state_json"),
        ("SQLAlchemy Connection.execute (all SQL)", "sqlalchemy/engine/base.py", "execute"),
    ),
}


def profiles(ctx: Context, top: int = 12) -> dict[str, Any]:
    """cProfile of the reference path and of lay_out on a quarter of the corpus, and of
    `uscf db rate` (run in-process, through the CLI's own code) on part of the year."""
    from uscf_ratings.cli.main import cli
    from uscf_ratings.office.file_checks import POOL_FROM
    from uscf_ratings.office.office import Office

    sections = ctx.corpus[: max(3, len(ctx.corpus) // 4)]
    jobs: list[tuple[str, str, Callable[[], object]]] = [
        ("reference", f"rate_section over {len(sections)} sections of the corpus",
         lambda: [rate_section(s) for s in sections])]
    path = columns_path()
    if path is not None:
        lay_out = path[0]
        jobs.append(("pack", f"lay_out of the same {len(sections)} sections",
                     lambda: lay_out(sections)))
    # fewer files than the CLI's pool starts for, so that the reading is profiled too
    count = max(3, min(POOL_FROM - 1, len(ctx.year.events) // 4))
    files = [str(p) for p in ctx.year.files[:count]]
    url = f"sqlite:///{ctx.workdir / 'office-profile.db'}"
    Office(url).init()
    what = (f"`uscf db rate` of the year's first {count} events "
            f"({sum(ctx.year.games[:count]):,} games), in-process")
    jobs.append(("office", what,
                 lambda: cli.main(["db", "--db", url, "rate", *files], prog_name="uscf",
                                  standalone_mode=False)))
    out: dict[str, Any] = {}
    for name, what, job in jobs:
        profiler = cProfile.Profile()
        with open(os.devnull, "w") as quiet, _stdout(quiet):
            profiler.enable()
            job()
            profiler.disable()
        out[name] = _summary(profiler, what, top, LANDMARKS.get(name, ()))
    return out


class _stdout:
    """Send stdout elsewhere for a while (the CLI's lines, during a profile)."""

    def __init__(self, stream: Any):
        self.stream = stream

    def __enter__(self) -> None:
        self.saved, sys.stdout = sys.stdout, self.stream

    def __exit__(self, *exc: object) -> None:
        sys.stdout = self.saved


def _summary(profiler: cProfile.Profile, what: str, top: int,
             landmarks: Sequence[tuple[str, str, str]]) -> dict[str, Any]:
    """The top functions by own time and by cumulative time, as shares of the whole job
    (the bench's own wrappers left out)."""
    stats = pstats.Stats(profiler)
    entries = stats.stats  # type: ignore[attr-defined]
    total = max(v[3] for v in entries.values())  # the job's root: everything under it
    here = str(Path(__file__).resolve().parent)
    mine = {k: v for k, v in entries.items() if not k[0].startswith(here)}

    def name(key: tuple[str, int, str]) -> str:
        path, line, function = key
        for root in (str(REPO / "src") + os.sep, str(Path(os.__file__).parent) + os.sep):
            path = path.removeprefix(root)
        path = path.split("site-packages" + os.sep)[-1]
        return f"{path}:{line}({function})" if line else function

    def rows(index: int) -> list[dict[str, Any]]:
        ranked = sorted(mine.items(), key=lambda kv: kv[1][index], reverse=True)[:top]
        return [{"function": name(k), "calls": v[1], "tottime_s": round(v[2], 4),
                 "cumtime_s": round(v[3], 4), "share_tottime": round(v[2] / total, 3),
                 "share_cumtime": round(v[3] / total, 3)} for k, v in ranked]

    where = []
    for label, suffix, function in landmarks:
        found = [v for k, v in mine.items() if k[0].endswith(suffix) and k[2] == function]
        if found:
            where.append({"what": label, "calls": sum(v[1] for v in found),
                          "cumtime_s": round(sum(v[3] for v in found), 4),
                          "share": round(sum(v[3] for v in found) / total, 3)})
    return {"what": what, "total_s": round(total, 3), "where": where, "by_tottime": rows(2),
            "by_cumtime": rows(3)}
