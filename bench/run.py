"""The benchmark suite's command line: ``python -m bench`` (or ``python bench/run.py``).

Prints a table of the figures; with ``--json`` prints one JSON object instead (the table
goes to stderr), with the date, the machine, the seed, the sizes and runs, and each
figure next to its target. Progress goes to stderr. Ctrl-C stops the suite, reports the
figures finished and exits 130; the office's transactions leave no half-rated event.

    python -m bench                  the default sizes (a few minutes on 2 cores)
    python -m bench --smoke          tiny sizes, one run each: checks that all works
    python -m bench --full           the office and the web app on the issue's year of
                                     1,000,000 games (100,000 members)
    python -m bench --json --profile --save bench/results/latest.json
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import math
import os
import platform
import subprocess
import sys
import time
from dataclasses import asdict, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # python bench/run.py: make the package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    __package__ = "bench"

from bench import figures as f
from bench.peers import PACKAGES
from bench.profiling import profiles
from bench.progress import Stopped

SCHEMA = 1
LIBRARIES = ("uscf-ratings", "numba", "llvmlite", "numpy", "SQLAlchemy", "alembic",
             "fastjsonschema", "jsonschema", "fastapi", "starlette", "uvicorn", "h11",
             "httptools", "uvloop", "Jinja2", *PACKAGES)
NOTE_PEERS = ("The peers compute different, simpler formulas (no Step 1-3 initial ratings, "
              "no special formula, no floors, no explanations); a ratio compares speed "
              "only.")

NOTE_GAMES = ("A player-game is one player's side of one rated game in one rating system "
              "(Packed.player_games); a game is one rated game between two players, counted "
              "once.")
NOTE_RUNS = "Each figure is the median of its runs (`runs`); `samples` lists them in order."
NOTE_TIMES = ("Times are wall-clock (time.perf_counter), with the garbage collector off while "
              "a run is timed, after one collection, as timeit does; in-process figures are "
              "measured warm (after one untimed call).")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="The benchmarks of uscf-ratings on a synthetic federation (fixed seed): "
                    "a table, or JSON with --json. See docs/performance.md.",
        epilog="examples:\n" + __doc__.split("\n\n")[2])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--smoke", action="store_true",
                      help="tiny sizes, one run each: checks that everything works")
    size.add_argument("--full", action="store_true",
                      help="the office and web figures on a year of 1,000,000 games, the "
                           "median of 3 runs each (about 9 minutes on 2 cores)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object on stdout (the table goes to stderr)")
    parser.add_argument("--save", type=Path, metavar="FILE", help="also write the JSON to FILE")
    parser.add_argument("--profile", action="store_true",
                        help="profile the reference path, lay_out and the office (cProfile) and "
                             "print where the time goes")
    parser.add_argument("--seed", type=int, default=1, help="the synthetic federation's seed")
    parser.add_argument("--only", metavar="GROUPS",
                        help="comma-separated groups to run: " + ",".join(
                            name for name, _ in f.GROUPS))
    parser.add_argument("--db-games", type=int, metavar="N",
                        help="the office's year: about N games (default 20,000; 800 --smoke)")
    parser.add_argument("--runs", type=int, metavar="N",
                        help="take the median of N runs for every figure")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    parser.add_argument("--keep", action="store_true",
                        help="keep the work folder (event files, databases)")
    args = parser.parse_args(argv)
    if args.only:
        unknown = set(args.only.split(",")) - {name for name, _ in f.GROUPS}
        if unknown:
            parser.error(f"unknown group(s): {', '.join(sorted(unknown))}")
    return args


def sizes_for(args: argparse.Namespace) -> f.Sizes:
    sizes = f.SMOKE if args.smoke else f.FULL if args.full else f.DEFAULT
    if args.db_games:
        sizes = replace(sizes, db_games=args.db_games)
    if args.runs:
        sizes = replace(sizes, **{k: args.runs for k in asdict(sizes) if k.endswith("_runs")})
    return sizes


# --- The machine -------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    cpu = _proc_field("/proc/cpuinfo", "model name")
    memory = _proc_field("/proc/meminfo", "MemTotal")
    info: dict[str, Any] = {
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu_model": cpu,
        "cpu_count": os.cpu_count(),
        "cpus_available": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
        else os.cpu_count(),
        "memory": memory,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "libraries": {name: _version(name) for name in LIBRARIES},
    }
    try:
        import numba

        info["numba_threads"] = numba.get_num_threads()
        info["numba_threading_layer"] = numba.threading_layer()  # type: ignore[attr-defined]
    except (ImportError, ValueError):  # ValueError: no parallel region has run yet
        pass
    commit = _git_commit()
    if commit:
        info["commit"] = commit
        info["commit_note"] = "HEAD when measured; the working tree may hold changes not in it"
    return info


def _proc_field(path: str, key: str) -> str | None:
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return line.split(":", 1)[1].strip()
    except OSError:
        return None
    return None


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _git_commit() -> str | None:
    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=f.REPO, capture_output=True,
                             text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


# --- Running ---------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> tuple[dict[str, Any], list[f.Figure]]:
    sizes = sizes_for(args)
    ctx = f.Context(sizes, args.seed, quiet=args.quiet, keep=args.keep)
    wanted = args.only.split(",") if args.only else [name for name, _ in f.GROUPS]
    results: list[f.Figure] = []
    interrupted: str | None = None
    profile: dict[str, Any] | None = None
    started = time.perf_counter()
    load_before = [round(x, 2) for x in os.getloadavg()]
    current = ""
    try:
        for name, function in f.GROUPS:
            if name not in wanted:
                continue
            current = name
            ctx.say(f"== {name}")
            begun = time.perf_counter()
            results.extend(function(ctx))
            ctx.timings[name] = round(time.perf_counter() - begun, 2)
        if args.profile:
            current = "profile"
            ctx.say("== profile")
            profile = profiles(ctx)
    except KeyboardInterrupt as stop:
        detail = stop.detail if isinstance(stop, Stopped) else ""
        interrupted = f"interrupted (Ctrl-C) during {current}" + (f": {detail}" if detail else "")
        ctx.say(interrupted)
    finally:
        ctx.cleanup()
    report = {
        "schema": SCHEMA,
        "command": "python -m bench " + " ".join(sys.argv[1:]) if sys.argv[1:] else
        "python -m bench",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "mode": sizes.mode,
        "complete": interrupted is None,
        "machine": machine() | {"load_average_before": load_before,
                                "load_average_note": "1, 5 and 15 minutes (os.getloadavg)"},
        "seed": args.seed,
        "sizes": asdict(sizes) | {"db_members": sizes.db_members},
        "runs": {x.name: x.runs for x in results},
        "figures": {x.name: x.to_json() for x in results},
        "targets": {x.name: x.met for x in results if x.target is not None},
        "notes": [
            NOTE_PEERS,
            NOTE_GAMES,
            NOTE_RUNS,
            NOTE_TIMES,
        ],
        "seconds": {"total": round(time.perf_counter() - started, 1)} | ctx.timings,
    }
    if interrupted:
        report["interrupted"] = interrupted
        done = {x.name for x in results}
        report["not_measured"] = [name for name, _ in f.GROUPS
                                  if name in wanted and not any(n in done for n in _names(name))]
    if profile is not None:
        report["profile"] = profile
    return report, results


def _names(group: str) -> list[str]:
    """The figure-name prefixes a group produces (to list the groups not measured)."""
    return {"section": ["section_ms"], "scaling": ["scaling_section_ms"],
            "engine": ["engine_player_games_per_s"], "pack": ["pack_player_games_per_s"],
            "reference": ["reference_player_games_per_s"], "peers": ["peer_player_games_per_s"],
            "db": ["db_games_per_s"], "rerate": ["rerate_year_s"], "late": ["late_tenth_s"],
            "experiment": ["experiment_100_variants_s"],
            "startup": ["startup_help_ratio"], "web": ["web_list_page_ms"]}[group]


# --- The table -------------------------------------------------------------------------------


def _number(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"


def show(value: Any, unit: str) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_number(v)}" for k, v in value.items()) + f" {unit}"
    return f"{_number(value)} {unit}"


def table(report: dict[str, Any], results: list[f.Figure]) -> str:
    m = report["machine"]
    head = f"uscf-ratings benchmarks, {report['date']}, mode {report['mode']}, seed {report['seed']}"
    lines = [
        head,
        f"machine: {m['cpu_model']} x {m['cpu_count']} CPUs, {m['python']}, {m['platform']}",
        "",
    ]
    rows = [("figure", "value", "target", "met", "runs")]
    for x in results:
        target = f"{x.target[0]} {_number(x.target[1])}" if x.target else ""
        met = {True: "yes", False: "NO", None: ""}[x.met]
        if x.judged_on is not None and x.met is not None:
            met += " (est.)"
        rows.append((x.name, show(x.value, x.unit), target, met, str(x.runs)))
    short = [r for r in rows if len(r[1]) <= 40]  # long values (scaling) overflow their column
    widths = [max(len(r[i]) for r in (rows if i != 1 else short)) for i in range(5)]
    for r in rows:
        lines.append("  ".join([r[0].ljust(widths[0]), r[1].ljust(widths[1]),
                                r[2].ljust(widths[2]), r[3].ljust(widths[3]), r[4]]).rstrip())
    lines.append("")
    lines.append("measured on:")
    for x in results:
        if x.measured_on:
            lines.append(f"  {x.name}: {x.measured_on}" + (f" [{x.note}]" if x.note else ""))
    lines += ["", NOTE_PEERS,
              f"Each figure is the median of its runs. Total {report['seconds']['total']} s."]
    if "interrupted" in report:
        lines += ["", report["interrupted"].upper()[:1] + report["interrupted"][1:],
                  "not measured: " + ", ".join(report["not_measured"])]
    if "profile" in report:
        for name, p in report["profile"].items():
            lines += ["", f"profile: {name}: {p['what']} ({p['total_s']} s under cProfile)",
                      "  where the time goes (cumulative share; calls nest, so shares overlap):"]
            lines += [f"    {r['share']:6.1%}  {r['what']}" for r in p["where"]]
            lines += ["  top functions by own time:"]
            lines += [f"    {r['share_tottime']:6.1%}  {r['function']}" for r in p["by_tottime"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    report, results = run(args)
    text = table(report, results)
    if args.json:
        print(json.dumps(report, indent=2, default=str))
        print(text, file=sys.stderr)
    else:
        print(text)
    if args.save:
        args.save.parent.mkdir(parents=True, exist_ok=True)
        args.save.write_text(json.dumps(report, indent=2, default=str) + "\n")
    return 0 if report["complete"] else 130


if __name__ == "__main__":
    raise SystemExit(main())
