"""The figures: one function per figure (or per few figures measured together).

Every figure is the median of several runs on a synthetic federation generated from a
fixed seed (:mod:`uscf_ratings.synthetic`); a :class:`Figure` records its value, unit,
number of runs, what it was measured on, and its target (and whether that is met).

A player-game is one player's side of one rated game in one rating system
(``Packed.player_games``: a dual-rated game counts in both systems); a game (the office's
figures) is one rated game between two players, counted once.
"""

from __future__ import annotations

import gc
import itertools
import json
import math
import os
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

from uscf_ratings import synthetic
from uscf_ratings.core.model import Event, Result, Section
from uscf_ratings.core.pipeline import rate_section, section_systems
from uscf_ratings.core.rules import rules_for
from uscf_ratings.formats.event_json import write as write_event

from . import peers as peer_libraries
from .progress import Progress, Stopped, ticker

REPO = Path(__file__).resolve().parent.parent
NO_BATCH = "the batch path needs numba and numpy: pip install -e '.[fast]'"


# --- Sizes -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Sizes:
    """How much each figure measures, and how many runs it takes the median of."""

    mode: str
    section_runs: int  #: the 50-player, 5-round section
    scaling_players: tuple[int, ...]  #: section sizes for scaling_section_ms
    scaling_runs: int
    corpus_members: int  #: the in-memory corpus: federation size ...
    corpus_events: int  #: ... and events (1-3 sections each)
    engine_runs: int  #: rate_columns on the laid-out corpus
    pack_runs: int  #: lay_out, and lay_out + rate_columns
    reference_runs: int  #: rate_section over the corpus
    peer_runs: int
    db_games: int  #: the synthetic year rated by `uscf db rate`
    db_runs: int
    rerate_runs: int
    startup_runs: int  #: each of the three start-up commands (`uscf --help`, ...)
    section_players: int = 50
    section_rounds: int = 5
    scaling_rounds: int = 5
    db_segments: int = 4  #: parts of the year timed apart, for scaling_db_games_per_s
    web_clients: int = 8  #: concurrent clients of `uscf serve` in the web mix
    web_seconds: float = 5.0  #: the length of one run of the web mix
    web_runs: int = 3  #: runs of the web mix
    web_list_runs: int = 11  #: requests of the rating list's first page, one at a time

    @property
    def db_members(self) -> int:
        return max(500, self.db_games // 10)


SMOKE = Sizes("smoke", section_runs=1, scaling_players=(10, 50, 120), scaling_runs=1,
              corpus_members=300, corpus_events=6, engine_runs=1, pack_runs=1,
              reference_runs=1, peer_runs=1, db_games=800, db_runs=1, rerate_runs=1,
              startup_runs=1, web_clients=4, web_seconds=1.0, web_runs=1, web_list_runs=3)
DEFAULT = Sizes("default", section_runs=21, scaling_players=(10, 30, 50, 120), scaling_runs=11,
                corpus_members=10_000, corpus_events=250, engine_runs=9, pack_runs=3,
                reference_runs=3, peer_runs=3, db_games=20_000, db_runs=3, rerate_runs=3,
                startup_runs=11)
#: the year's runs take a minute or so each: three give a median, as the others have
FULL = replace(DEFAULT, mode="full", db_games=1_000_000, db_runs=3, rerate_runs=3,
               web_seconds=10.0, web_list_runs=7)
FULL_YEAR_GAMES = 1_000_000  #: the issue's year: 1,000,000 games in about 20,000 sections


def is_full_year(games: int) -> bool:
    """The generator makes whole events, so a full year lands within 1% of the target."""
    return games >= 0.99 * FULL_YEAR_GAMES


# --- Figures ---------------------------------------------------------------------------


Value = float | dict[str, float] | None


@dataclass
class Figure:
    name: str
    value: Value
    unit: str
    runs: int
    measured_on: str
    target: tuple[str, float] | None = None  #: ("<=", 1.0) or (">=", 5e6)
    judged_on: float | None = None  #: when the target is judged on another value (an estimate)
    note: str = ""
    samples: list[float] = field(default_factory=list)  #: the runs' values, in order

    @property
    def met(self) -> bool | None:
        value = self.judged_on if self.judged_on is not None else self.value
        if self.target is None or not isinstance(value, (int, float)):
            return None
        op, limit = self.target
        return bool(value <= limit if op == "<=" else value >= limit)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": _rounded(self.value), "unit": self.unit,
                               "runs": self.runs, "measured_on": self.measured_on}
        if self.target is not None:
            out["target"] = f"{self.target[0]} {self.target[1]:.10g}"
            out["met"] = self.met
            if self.judged_on is not None:
                out["judged_on"] = _rounded(self.judged_on)
        if self.note:
            out["note"] = self.note
        if self.samples:
            out["samples"] = [_rounded(x) for x in self.samples]
        return out


def _rounded(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, float):
        return float(f"{value:.4g}") if abs(value) < 1e4 else round(value)
    return value


def _median(values: Sequence[float]) -> float:
    return statistics.median(values)


@contextmanager
def collector_off() -> Iterator[None]:
    """The garbage collector off for a timed region, as ``timeit`` does, after one
    collection: a collection during the region would time the collector, and one just
    before each call would walk the whole heap (the corpus, the year) and leave the
    caches cold for it."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _times(fn: Callable[[], object], runs: int) -> list[float]:
    """Wall-clock seconds of ``runs`` calls, with the collector off across them (one
    collection first, not one per call: each would leave the caches cold)."""
    out = []
    with collector_off():
        for _ in range(runs):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return out


# --- Counting --------------------------------------------------------------------------


def rated_sides(section: Section) -> int:
    return sum(1 for p in section.players for r in p.results
               if r.played and r.opponent is not None)


def player_games(sections: Sequence[Section]) -> int:
    """One player's side of one rated game, in each system the section is rated in."""
    return sum(rated_sides(s) * len(section_systems(s, rules_for(s.start_date)))
               for s in sections)


def rated_games(sections: Sequence[Section]) -> int:
    """Rated games between two players, each counted once."""
    return sum(rated_sides(s) for s in sections) // 2


# --- The shared material ----------------------------------------------------------------


def columns_path() -> tuple[Callable[..., Any], Callable[..., Any]] | None:
    """lay_out (Python: sections read into columns) and rate_columns (compiled)."""
    try:
        from uscf_ratings.batch.engine import lay_out, rate_columns
    except ImportError:
        return None
    return lay_out, rate_columns


@dataclass
class Year:
    """A synthetic year of events, written as event JSON files for `uscf db rate`."""

    events: list[Event]
    files: list[Path]
    games: list[int]  #: rated games per event

    @property
    def total_games(self) -> int:
        return sum(self.games)

    @property
    def sections(self) -> int:
        return sum(len(e.sections) for e in self.events)

    def describe(self, members: int) -> str:
        return (f"a synthetic year: {self.total_games:,} games in {self.sections:,} sections of "
                f"{len(self.events):,} events, {members:,} members")


class Context:
    """What the figures share: the federation, the corpus, the year and a work folder."""

    def __init__(self, sizes: Sizes, seed: int, quiet: bool = False, keep: bool = False):
        self.sizes, self.seed, self.quiet, self.keep = sizes, seed, quiet, keep
        self.workdir = Path(tempfile.mkdtemp(prefix="uscf-bench-"))
        self.engine_first_call_s: float | None = None
        self.office_chain_s: float | None = None  #: `load_office_chain`, once
        self.end_to_end_s: float | None = None  #: median lay_out + rate_columns of the corpus
        self.last_db: str | None = None  #: the database the last `uscf db rate` run filled
        self.timings: dict[str, float] = {}  #: wall time of each figure function

    def progress(self, label: str, total: float, unit: str = "") -> Progress:
        return Progress(label, total, unit, quiet=self.quiet)

    def say(self, text: str) -> None:
        if not self.quiet:
            print(text, file=sys.stderr, flush=True)

    def cleanup(self) -> None:
        if self.keep:
            self.say(f"work folder kept: {self.workdir}")
        else:
            shutil.rmtree(self.workdir, ignore_errors=True)

    @cached_property
    def members(self) -> list[synthetic.Member]:
        return synthetic.federation(self.sizes.corpus_members, self.seed)

    @cached_property
    def corpus(self) -> list[Section]:
        """The in-memory corpus: every section of ``corpus_events`` synthetic events."""
        with ticker(f"generating the corpus ({self.sizes.corpus_events} events)",
                    quiet=self.quiet):
            events = synthetic.events(self.members, self.sizes.corpus_events, self.seed)
        return [s for e in events for s in e.sections]

    @cached_property
    def corpus_player_games(self) -> int:
        return player_games(self.corpus)

    def describe_corpus(self) -> str:
        return (f"{len(self.corpus):,} sections ({self.corpus_player_games:,} player-games) of "
                f"{self.sizes.corpus_events} synthetic events, {self.sizes.corpus_members:,} "
                f"members")

    @cached_property
    def columns(self) -> Any:
        path = columns_path()
        assert path is not None
        with ticker("laying out the corpus", quiet=self.quiet):
            return path[0](self.corpus)

    def load_office_chain(self) -> float:
        """Seconds to load the office's compiled chain in this process (`load_kernels`),
        done once before the figures that rate through the office: a correction is timed
        as an office that has rated before rates it, and the `uscf` processes the figures
        start load Numba's cache rather than compile (where the cache was cold, after a
        change to a kernel, a first run compiled it: seconds more, and hundreds of MB)."""
        if self.office_chain_s is None:
            from uscf_ratings.office.run import load_kernels

            with ticker("loading the office's compiled chain (or compiling it)",
                        quiet=self.quiet):
                start = time.perf_counter()
                load_kernels()
                self.office_chain_s = time.perf_counter() - start
        return self.office_chain_s

    def warm_engine(self) -> None:
        """The first call of the compiled path compiles it (or loads Numba's cache)."""
        path = columns_path()
        if path is None or self.engine_first_call_s is not None:
            return
        lay_out, rate_columns = path
        tiny = one_section(self.members, 10, 3, self.seed)
        start = time.perf_counter()
        rate_columns(lay_out([tiny]))
        self.engine_first_call_s = time.perf_counter() - start

    @cached_property
    def year(self) -> Year:
        """About ``db_games`` games: the number of events is estimated from a pilot of the
        same generator, so the year's dates span the whole year."""
        sizes = self.sizes
        members = synthetic.federation(sizes.db_members, self.seed)
        pilot = synthetic.events(members, 40, self.seed)
        per_event = rated_games([s for e in pilot for s in e.sections]) / len(pilot)
        count = max(sizes.db_segments + 1, round(sizes.db_games / per_event))
        with ticker(f"generating the year ({count:,} events)", quiet=self.quiet):
            events = synthetic.events(members, count, self.seed)
        folder = self.workdir / "year"
        folder.mkdir()
        files, games = [], []
        bar = self.progress("writing the year's event files", len(events), "files")
        for event in events:
            path = folder / f"{event.id}.json"
            write_event(event, path)
            files.append(path)
            games.append(rated_games(event.sections))
            bar.advance()
        bar.close()
        # On disk before any run starts: else the kernel writes the files out while the
        # first run reads them, and that run pays for the writing
        os.sync()
        return Year(events, files, games)


def one_section(members: Sequence[synthetic.Member], players: int, rounds: int,
                seed: int) -> Section:
    """A Swiss section of ``players`` members (Regular, G/90;d30), from the seed."""
    rng = random.Random(seed * 1_000_003 + players * 101 + rounds)
    chosen = rng.sample(list(members), players)
    return synthetic.section(1, chosen, rounds, date(2026, 3, 7), rng, "G/90;d30", False)


def paths_agree(sections: Sequence[Section]) -> bool:
    """The compiled path gives the reference path's post-event ratings (to 1e-9)."""
    path = columns_path()
    if path is None:
        return False
    lay_out, rate_columns = path
    laid = lay_out(sections)
    post = rate_columns(laid)
    row = {key: i for i, key in enumerate(laid.keys)}
    for index, section in enumerate(sections):
        for player in rate_section(section).players:
            for system, rating in player.ratings.items():
                value = post[row[(index, player.pair, system)]]
                if rating.post is None:
                    if not math.isnan(value):
                        return False
                elif abs(value - rating.post) > 1e-9:
                    return False
    return True


# --- One section -------------------------------------------------------------------------


def _section_ms(ctx: Context, section: Section, runs: int) -> tuple[list[float],
                                                                    list[float] | None]:
    """Milliseconds per run of the reference path and of the compiled path (lay_out +
    rate_columns)."""
    rate_section(section)  # warm: the rules' caches, as in a process that rates many
    reference = [t * 1e3 for t in _times(lambda: rate_section(section), runs)]
    path = columns_path()
    if path is None:
        return reference, None
    lay_out, rate_columns = path
    ctx.warm_engine()
    rate_columns(lay_out([section]))
    return reference, [t * 1e3 for t in _times(lambda: rate_columns(lay_out([section])), runs)]


def _lean_ms(section: Section, runs: int) -> list[float] | None:
    """Milliseconds per run of the office's lean path on one section."""
    try:
        from uscf_ratings.batch.engine import rate_outcomes_and_norms
    except ImportError:
        return None
    from uscf_ratings.core.validate import check_section

    def lean() -> None:
        check_section(section)
        rate_outcomes_and_norms(section)

    lean()
    return [t * 1e3 for t in _times(lean, runs)]


def section_figures(ctx: Context) -> list[Figure]:
    """section_ms: one 50-player, 5-round section through Steps 1-5, in-process."""
    sizes = ctx.sizes
    section = one_section(ctx.members, sizes.section_players, sizes.section_rounds, ctx.seed)
    games = player_games([section])
    what = (f"one Swiss section, {sizes.section_players} players, {sizes.section_rounds} "
            f"rounds, {games} player-games (Regular, G/90;d30)")
    reference, batch = _section_ms(ctx, section, sizes.section_runs)
    ref_ms = _median(reference)
    batch_ms = _median(batch) if batch else None
    rate_only = None
    if batch:
        lay_out, rate_columns = columns_path()  # type: ignore[misc]
        laid = lay_out([section])
        rate_only = [t * 1e3 for t in _times(lambda: rate_columns(laid), sizes.section_runs)]
    agree = paths_agree([section]) if batch else None
    lean = _lean_ms(section, sizes.section_runs)
    lean_ms = _median(lean) if lean else None
    timed = {"reference": ref_ms, "batch": batch_ms, "lean": lean_ms}
    faster = min((k for k, v in timed.items() if v is not None), key=lambda k: timed[k] or 0)
    note = "" if agree is None else (
        "both paths give the same post-event ratings (to 1e-9)" if agree
        else "WARNING: the two paths disagree on this section")
    return [
        Figure("section_ms", timed[faster], "ms", sizes.section_runs,
               what, ("<=", 1.0), note=f"the faster exact path: {faster}" + (
                   f"; {note}" if note else "")),
        Figure("section_ms_reference", ref_ms, "ms", sizes.section_runs,
               what + "; rate_section, with explanations", samples=reference),
        Figure("section_ms_batch", batch_ms, "ms", sizes.section_runs,
               what + "; lay_out + rate_columns", samples=batch or [],
               note="" if batch else NO_BATCH),
        Figure("section_ms_lean", lean_ms, "ms", sizes.section_runs,
               what + "; check_section + rate_outcomes_and_norms, the office's path "
               "(post-event ratings, floors, states and norms, no explanations)", samples=lean or [],
               note="" if lean else NO_BATCH),
        Figure("section_ms_batch_rate_only", _median(rate_only) if rate_only else None, "ms",
               sizes.section_runs, what + "; rate_columns alone, on the laid-out section",
               samples=rate_only or [],
               note="the compiled part of section_ms_batch (N', the formula, S, K, the history "
               "and floors, Steps 3-5); the rest is lay_out" if rate_only
               else NO_BATCH),
    ]


def scaling_section_figures(ctx: Context) -> list[Figure]:
    """How the cost of one section grows with its size (rounds fixed)."""
    sizes = ctx.sizes
    reference: dict[str, float] = {}
    batch: dict[str, float] = {}
    games: dict[str, int] = {}
    bar = ctx.progress("scaling: section sizes", len(sizes.scaling_players), "sizes")
    for players in sizes.scaling_players:
        section = one_section(ctx.members, players, sizes.scaling_rounds, ctx.seed)
        games[str(players)] = player_games([section])
        ref_runs, batch_runs = _section_ms(ctx, section, sizes.scaling_runs)
        reference[str(players)] = _median(ref_runs)
        if batch_runs:
            batch[str(players)] = _median(batch_runs)
        bar.advance()
    bar.close()
    faster = {k: min(v, batch.get(k, v)) for k, v in reference.items()}
    what = (f"one Swiss section of each size (players), {sizes.scaling_rounds} rounds, "
            "Regular; player-games by size: " + ", ".join(f"{k}: {v}" for k, v in games.items()))
    return [
        Figure("scaling_section_ms", faster, "ms", sizes.scaling_runs,
               what + "; the faster exact path"),
        Figure("scaling_section_ms_reference", reference, "ms", sizes.scaling_runs,
               what + "; rate_section"),
        Figure("scaling_section_ms_batch", batch or None, "ms", sizes.scaling_runs,
               what + "; lay_out + rate_columns", note="" if batch else NO_BATCH),
    ]


# --- Many sections in memory ----------------------------------------------------------------


def engine_figures(ctx: Context) -> list[Figure]:
    """engine_player_games_per_s: rate_columns on the laid-out corpus, after the first call."""
    sizes = ctx.sizes
    path = columns_path()
    if path is None:
        return [Figure("engine_player_games_per_s", None, "player-games/s", 0, "", (">=", 5e6),
                       note=NO_BATCH),
                Figure("engine_first_call_s", None, "s", 0, "", note=NO_BATCH)]
    _, rate_columns = path
    ctx.warm_engine()
    columns = ctx.columns
    rate_columns(columns)
    times = _times(lambda: rate_columns(columns), sizes.engine_runs)
    games = columns.player_games
    assert games == ctx.corpus_player_games, "the columns' games and player_games() differ"
    threads = _numba_threads()
    return [
        Figure("engine_player_games_per_s", games / _median(times), "player-games/s",
               sizes.engine_runs, ctx.describe_corpus() + f"; rate_columns on {threads} threads",
               (">=", 5e6), samples=[games / t for t in times],
               note="timed, compiled: N', the formula choice, S, K, bonus eligibility, the "
                    "history and the floors (Step 2 and section 5), then Steps 3-5; not timed: "
                    "lay_out (the checks, reading the players into columns, and Step 1's "
                    "initial ratings for unrated players)"),
        Figure("engine_first_call_s", ctx.engine_first_call_s, "s", 1,
               "the first lay_out + rate_columns call of the process (Numba compiles, or loads "
               "its cache)",
               note="excluded from engine_player_games_per_s"),
    ]


def pack_figures(ctx: Context) -> list[Figure]:
    """pack_player_games_per_s (lay_out) and engine_end_to_end_player_games_per_s
    (lay_out + rate_columns)."""
    sizes = ctx.sizes
    path = columns_path()
    if path is None:
        return [Figure(name, None, "player-games/s", 0, "", note=NO_BATCH) for name in
                ("pack_player_games_per_s", "engine_end_to_end_player_games_per_s")]
    lay_out, rate_columns = path
    ctx.warm_engine()
    sections = ctx.corpus
    games = ctx.corpus_player_games
    laying, total = [], []
    bar = ctx.progress("lay_out + rate_columns of the corpus", sizes.pack_runs, "runs")
    for _ in range(sizes.pack_runs):
        with collector_off():
            start = time.perf_counter()
            columns = lay_out(sections)
            laid_at = time.perf_counter()
            rate_columns(columns)
            done = time.perf_counter()
        laying.append(laid_at - start)
        total.append(done - start)
        bar.advance()
    bar.close()
    ctx.end_to_end_s = _median(total)
    return [
        Figure("pack_player_games_per_s", games / _median(laying), "player-games/s",
               sizes.pack_runs, ctx.describe_corpus() + "; lay_out (Python: the checks, "
               "reading the players into columns, Step 1 for unrated players)",
               samples=[games / t for t in laying]),
        Figure("engine_end_to_end_player_games_per_s", games / ctx.end_to_end_s,
               "player-games/s", sizes.pack_runs,
               ctx.describe_corpus() + "; lay_out + rate_columns", samples=[games / t for t in total]),
    ]


def reference_figure(ctx: Context) -> list[Figure]:
    """reference_player_games_per_s: rate_section over the corpus, with explanations."""
    sizes = ctx.sizes
    sections = ctx.corpus
    games = ctx.corpus_player_games
    times = []
    bar = ctx.progress(f"reference path ({sizes.reference_runs} runs)",
                       sizes.reference_runs * len(sections), "sections")
    for _ in range(sizes.reference_runs):
        with collector_off():
            start = time.perf_counter()
            for i, section in enumerate(sections):
                rate_section(section)
                if i % 16 == 15:
                    bar.advance(16)
            times.append(time.perf_counter() - start)
        bar.update(len(times) * len(sections))
    bar.close()
    return [Figure("reference_player_games_per_s", games / _median(times), "player-games/s",
                   sizes.reference_runs, ctx.describe_corpus() + "; rate_section, one process",
                   samples=[games / t for t in times])]


# --- Peers -----------------------------------------------------------------------------------


def peer_figures(ctx: Context) -> list[Figure]:
    """peer_ratio_<library>: our batch path's player-games per second over the peer's, on the
    same games, measured in turn in the same run."""
    sizes = ctx.sizes
    path = columns_path()
    names = [p.name for p in peer_libraries.PEERS]
    if path is None:
        return [Figure(f"peer_ratio_{n}", None, "x", 0, "", (">=", 10.0), note=NO_BATCH)
                for n in names]
    _, rate_columns = path
    ctx.warm_engine()
    columns = ctx.columns
    games = peer_libraries.peer_games(ctx.corpus, columns)
    assert games.player_games == columns.player_games
    figures, theirs_per_s, end_to_end = [], {}, {}
    for peer in peer_libraries.PEERS:
        reason = peer_libraries.missing(peer.name)
        if reason:
            figures.append(Figure(f"peer_ratio_{peer.name}", None, "x", 0, "", (">=", 10.0),
                                  note=reason))
            continue
        prepared = peer.prepare(games)
        ours, theirs = [], []
        bar = ctx.progress(f"peer {peer.name}", sizes.peer_runs, "runs")
        for _ in range(sizes.peer_runs):
            ours += _times(lambda: rate_columns(columns), 1)
            state = peer.setup(prepared)
            with collector_off():
                start = time.perf_counter()
                rated = peer.rate(state)
                theirs.append(time.perf_counter() - start)
            assert rated == games.player_games, (peer.name, rated, games.player_games)
            bar.advance()
        bar.close()
        per_s = games.player_games / _median(theirs)
        theirs_per_s[peer.name] = per_s
        if ctx.end_to_end_s:
            end_to_end[peer.name] = games.player_games / ctx.end_to_end_s / per_s
        figures.append(Figure(
            f"peer_ratio_{peer.name}", _median(theirs) / _median(ours), "x", sizes.peer_runs,
            ctx.describe_corpus() + f"; ours: rate_columns; theirs: {peer.calls}", (">=", 10.0),
            samples=[t / o for o, t in zip(ours, theirs, strict=True)],
            note=f"{peer.name} {peer_libraries.version(peer.name)} computes a different, "
                 f"simpler formula: {peer.formula}"))
    figures.append(Figure(
        "peer_player_games_per_s", theirs_per_s or None, "player-games/s", sizes.peer_runs,
        ctx.describe_corpus() + "; each library's update calls only (inputs built beforehand)"))
    figures.append(Figure(
        "peer_ratio_end_to_end", end_to_end or None, "x", sizes.peer_runs,
        "as peer_ratio_*, with our lay_out + rate_columns (Steps 1-5 from Section objects) "
        "against the peers' update calls", note="for information; no target"))
    return figures


def _numba_threads() -> int | None:
    try:
        import numba
    except ImportError:
        return None
    return int(numba.get_num_threads())


# --- The office -----------------------------------------------------------------------------


def uscf_command() -> list[str]:
    """The `uscf` console script of this interpreter, else the same entry point via -c."""
    script = Path(sys.executable).parent / "uscf"
    if script.is_file():
        return [str(script)]
    code = "import sys; from uscf_ratings.cli.main import cli; sys.argv[0] = 'uscf'; cli()"
    return [sys.executable, "-c", code]


@dataclass
class DbRun:
    seconds: float
    peak_mb: float
    finished: list[float]  #: seconds from the start at which each event's line was printed
    #: CPU time (user and system) of the command and of the worker processes it started
    #: and waited for (its readers, its checks): what wait4 reports of the child
    cpu_s: float = 0.0


def _db_rate(ctx: Context, url: str, year: Year, label: str, options: Sequence[str] = ()
             ) -> DbRun:
    """``uscf db --db URL rate OPTIONS FILES...`` in a child process, timed from start to
    exit.

    Progress comes from the command's own lines ("rated S000012 ..."), one per event as its
    transaction commits. On Ctrl-C the child (which gets the signal too, or is sent it) rolls
    back the events it had not committed, and `Stopped` says how far it got."""
    command = [*uscf_command(), "db", "--db", url, "rate", *options, *map(str, year.files)]
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    ctx.say(f"{label}: events are reported as they commit, and nothing commits before "
            f"all {len(year.files):,} files are checked")
    games_by = list(itertools.accumulate(year.games))  #: games in the first i + 1 events
    finished: list[float] = []
    # The collector off while the child runs: this process holds the year's events, and
    # a collection over them would take a core from the child it measures
    with tempfile.TemporaryFile("w+") as errors, collector_off():
        bar = ctx.progress(label, year.total_games, "games")  # after collector_off's collection
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True,
                                 env=env, cwd=ctx.workdir)
        assert child.stdout is not None
        peak_kib, peak_read = 0, -1.0
        try:
            for line in child.stdout:
                if line.startswith(("rated ", "corrected ")):
                    now = time.perf_counter() - start
                    finished.append(now)
                    if now - peak_read >= PEAK_EVERY_S:  # a high-water mark: it only grows
                        peak_kib, peak_read = max(peak_kib, _peak_kib(child.pid)), now
                    bar.update(games_by[len(finished) - 1])
            peak_kib = max(peak_kib, _peak_kib(child.pid))  # gone if the child has exited
            _, status, usage = os.wait4(child.pid, 0)
            seconds = time.perf_counter() - start
        except KeyboardInterrupt:
            _stop(child)
            done = len(finished) + sum(1 for line in child.stdout if line.startswith("rated "))
            raise Stopped(
                f"`uscf db rate` stopped after {done} of {len(year.events)} events "
                f"({sum(year.games[:done]):,} games) were committed; the events it had not "
                "committed were rolled back, so the database holds whole events only"
            ) from None
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stdout.close()
        if child.returncode != 0:
            errors.seek(0)
            raise RuntimeError(f"uscf db rate exited {child.returncode}:\n{errors.read()[-3000:]}")
    bar.close(f"{year.total_games / seconds:,.0f} games/s")
    return DbRun(seconds, (peak_kib or usage.ru_maxrss) / 1024, finished,
                 usage.ru_utime + usage.ru_stime)


#: how often `_db_rate` reads the child's peak memory as its lines come in
PEAK_EVERY_S = 0.05


def _peak_kib(pid: int) -> int:
    """The process's peak resident memory (VmHWM, KiB), 0 where /proc cannot say.

    Not ru_maxrss: Linux carries the parent's peak into a forked child across exec, so a
    child of this (large) process would report at least this process's size."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _stop(child: subprocess.Popen[str]) -> None:
    """Let the child finish its rollback (sending it SIGINT if the terminal did not), then
    reap it; a second Ctrl-C meanwhile is ignored."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.kill(child.pid, signal.SIGINT)  # not reaped yet: the pid is still the child's
        deadline = time.monotonic() + 120
        while True:
            pid, status = os.waitpid(child.pid, os.WNOHANG)
            if pid:
                child.returncode = os.waitstatus_to_exitcode(status)
                return
            if time.monotonic() > deadline:
                os.kill(child.pid, signal.SIGKILL)
                child.returncode = os.waitstatus_to_exitcode(os.waitpid(child.pid, 0)[1])
                return
            time.sleep(0.05)
    finally:
        signal.signal(signal.SIGINT, previous)


#: `uscf db rate` reports a group of events when it commits: their lines come together
#: (microseconds apart), and a gap longer than this between two lines ends a group
COMMIT_GAP_S = 0.01


def _segments(year: Year, run: DbRun, parts: int) -> dict[str, float]:
    """Games per second in up to ``parts`` consecutive parts of the year, keyed by the
    games already in the database when the part began, from a run with --check-first.
    Events are reported when their group commits, so parts begin and end at commits; the
    first group is left out: its time includes the process's start and the reading of
    every file."""
    done = run.finished
    commits = [i for i in range(len(done))
               if i + 1 == len(done) or done[i + 1] - done[i] > COMMIT_GAP_S]
    picks = sorted({commits[round(k * (len(commits) - 1) / parts)] for k in range(parts + 1)})
    out = {}
    for lo, hi in itertools.pairwise(picks):  # the events after lo, up to hi
        seconds = done[hi] - done[lo]
        games = sum(year.games[lo + 1:hi + 1])
        out[str(sum(year.games[:lo + 1]))] = games / seconds if seconds > 0 else math.nan
    return out


#: issue 39's targets for the office on the full year
DB_GAMES_PER_S = 100_000.0
DB_GAMES_PER_S_POSTGRESQL = 50_000.0
DB_PEAK_MB = 400.0
RERATE_YEAR_S = 5.0
#: the PostgreSQL database the office's figure rates into (emptied first: its public
#: schema is dropped), e.g. postgresql://uscf:uscf@127.0.0.1:5432/uscf_bench
POSTGRES_VARIABLE = "USCF_BENCH_POSTGRES"


def db_figures(ctx: Context) -> list[Figure]:
    """db_games_per_s, db_peak_mb and scaling_db_games_per_s: `uscf db rate` of a year;
    db_games_per_s_postgresql, the same into PostgreSQL where $USCF_BENCH_POSTGRES names
    a database."""
    from uscf_ratings.office.office import Office

    sizes = ctx.sizes
    year = ctx.year
    ctx.load_office_chain()  # compiled and cached before the first run
    runs: list[DbRun] = []
    for run in range(sizes.db_runs):
        path = ctx.workdir / f"office-{run}.db"
        url = f"sqlite:///{path}"
        Office(url).init()
        runs.append(_db_rate(ctx, url, year, f"uscf db rate, run {run + 1}/{sizes.db_runs}"))
        if ctx.last_db:
            _remove_sqlite(ctx.last_db)
        ctx.last_db = url
    games = year.total_games
    what = year.describe(sizes.db_members) + " (event JSON files), into a fresh SQLite database"
    # The default run rates while it checks, and commits nothing until every file has
    # passed: its commits cannot show the rate by database size. A run that checks first,
    # in a few more groups than parts, can.
    group = max(1, games // (sizes.db_segments + 2))
    scaling_runs = []
    for run in range(sizes.db_runs):
        url = f"sqlite:///{ctx.workdir / f'office-scaling-{run}.db'}"
        Office(url).init()
        scaling_runs.append(_db_rate(ctx, url, year, f"uscf db rate --check-first, run "
                                     f"{run + 1}/{sizes.db_runs}",
                                     ("--check-first", "--commit-every", str(group))))
        _remove_sqlite(url)
    parts = [_segments(year, r, sizes.db_segments) for r in scaling_runs]
    scaling = {k: _median([p[k] for p in parts]) for k in parts[0]
               if all(k in p for p in parts)}  # parts begin at commits, the same each run
    size_note = "" if is_full_year(games) else (
        f"measured on {games:,} games, not the issue's {FULL_YEAR_GAMES:,} "
        "(python -m bench --full for that)")
    postgres = os.environ.get(POSTGRES_VARIABLE, "")
    on_postgres: list[DbRun] = []
    for run in range(sizes.db_runs if postgres else 0):
        _empty_postgres(postgres)
        Office(postgres).init()
        on_postgres.append(_db_rate(ctx, postgres, year, f"uscf db rate into PostgreSQL, "
                                    f"run {run + 1}/{sizes.db_runs}"))
    pg_figure = Figure(
        "db_games_per_s_postgresql",
        games / _median([r.seconds for r in on_postgres]) if on_postgres else None,
        "games/s", len(on_postgres), what.replace("a fresh SQLite database",
                                                  "an empty PostgreSQL database (loopback)"),
        (">=", DB_GAMES_PER_S_POSTGRESQL), samples=[games / r.seconds for r in on_postgres],
        note=size_note if on_postgres else f"not measured: set {POSTGRES_VARIABLE} to a "
        "PostgreSQL database the benchmark may empty")
    return [
        pg_figure,
        Figure("db_games_per_s", games / _median([r.seconds for r in runs]), "games/s",
               sizes.db_runs, what + "; `uscf db rate FILES`, process start to exit",
               (">=", DB_GAMES_PER_S), samples=[games / r.seconds for r in runs],
               note=size_note),
        Figure("db_peak_mb", _median([r.peak_mb for r in runs]), "MB", sizes.db_runs,
               "peak resident memory (VmHWM) of the `uscf db rate` process",
               ("<=", DB_PEAK_MB),
               note="the first pass keeps each file's sort key and warnings, and writes "
                    "its event laid out, with its text, to a temporary file (one for "
                    "each task of 8 files) that the rating loop reads it from just before "
                    "rating it",
               samples=[r.peak_mb for r in runs]),
        Figure("scaling_db_games_per_s", scaling, "games/s", sizes.db_runs,
               f"`uscf db rate --check-first --commit-every {group}` of the same year, in "
               f"up to {sizes.db_segments} parts between commits, keyed by the games "
               "already in the database when the part began (the first group of events "
               "left out)",
               note="" if len(scaling) == sizes.db_segments else
               f"{len(scaling)} part(s): the year was committed in too few groups for "
               f"{sizes.db_segments}"),
    ]


def _empty_postgres(url: str) -> None:
    """Drop and make again the public schema of the PostgreSQL database at ``url``."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as c:
        c.execute(text("DROP SCHEMA public CASCADE"))
        c.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def _copy_sqlite(url: str, to: str) -> None:
    """A copy of a SQLite database, by SQLite's backup (its WAL included)."""
    with closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as source, \
            closing(sqlite3.connect(to.removeprefix("sqlite:///"))) as copy:
        source.backup(copy)


def _db_withdraw(ctx: Context, url: str, event_id: str, label: str) -> float:
    """``uscf db --db URL withdraw EVENT`` in a child process: seconds from start to exit."""
    with ticker(label, None, quiet=ctx.quiet):
        start = time.perf_counter()
        done = subprocess.run([*uscf_command(), "db", "--db", url, "withdraw", event_id],
                              capture_output=True, text=True, cwd=ctx.workdir)
        seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"uscf db withdraw exited {done.returncode}:\n{done.stderr[-3000:]}")
    return seconds


def _remove_sqlite(url: str) -> None:
    path = url.removeprefix("sqlite:///")
    for suffix in ("", "-wal", "-shm"):
        Path(path + suffix).unlink(missing_ok=True)


def filled_db(ctx: Context, why: str) -> str:
    """The database the last `uscf db rate` run of the office figures filled with the
    year; if they did not run, a fresh one filled now."""
    from uscf_ratings.office.office import Office

    if ctx.last_db is None:
        url = f"sqlite:///{ctx.workdir / 'office-filled.db'}"
        Office(url).init()
        _db_rate(ctx, url, ctx.year, f"uscf db rate ({why})")
        ctx.last_db = url
    return ctx.last_db


def flip_first_game(event: Event) -> Event:
    """The event with the first decisive game of its first section reversed (a correction)."""
    section = event.sections[0]
    players = {p.pair: p for p in section.players}
    flipped = {"W": "L", "L": "W"}

    def swap(player: Any, rnd: int) -> Any:
        return replace(player, results=tuple(
            Result(r.round, flipped[r.code], r.opponent) if r.round == rnd else r
            for r in player.results))

    for player in section.players:
        for result in player.results:
            if result.code in flipped and result.opponent is not None:
                players[player.pair] = swap(player, result.round)
                players[result.opponent] = swap(players[result.opponent], result.round)
                fixed = replace(section, players=tuple(players[p.pair] for p in section.players))
                return replace(event, sections=(fixed, *event.sections[1:]))
    raise ValueError(f"event {event.id}: no decisive game in its first section")


def rerate_figures(ctx: Context) -> list[Figure]:
    """rerate_year_s: correct the year's first event; everything after it is re-rated."""
    from uscf_ratings.office.office import Office

    sizes = ctx.sizes
    year = ctx.year
    office = Office(filled_db(ctx, "to have a year to correct"))
    loaded = ctx.load_office_chain()  # not timed: once a process, as its imports
    first = year.events[0]
    versions = (flip_first_game(first), first)
    times: list[float] = []
    for run in range(sizes.rerate_runs):
        label = f"correcting {first.id}: re-rating the year, run {run + 1}/{sizes.rerate_runs}"
        try:
            with ticker(label, times[-1] if times else None, quiet=ctx.quiet):
                start = time.perf_counter()
                office.correct(first.id, versions[run % 2])
                times.append(time.perf_counter() - start)
        except KeyboardInterrupt:
            raise Stopped(f"the correction of {first.id} was interrupted in run {run + 1} and "
                          "rolled back (Office.correct is one transaction)") from None
    office.engine.dispose()
    games = year.total_games
    value = _median(times)
    estimate = value * FULL_YEAR_GAMES / games
    full = is_full_year(games)
    return [
        Figure("rerate_year_s", value, "s", sizes.rerate_runs,
               year.describe(sizes.db_members) + f"; Office.correct of the first event "
               f"re-rates all {year.sections:,} sections", ("<=", RERATE_YEAR_S),
               judged_on=None if full else estimate, samples=times,
               note=f"the office's compiled chain was loaded before, in {loaded:.2f} s"
               + ("" if full else f"; the target is for a year of {FULL_YEAR_GAMES:,} games: "
                  f"judged on the linear estimate for it, {estimate:,.0f} s")),
        Figure("rerate_year_s_full_estimate", estimate, "s", sizes.rerate_runs,
               f"rerate_year_s scaled linearly to {FULL_YEAR_GAMES:,} games",
               note="measured, not estimated" if full else (
                   "an estimate, not a measurement: re-rating time is taken as linear in the "
                   "games re-rated")),
    ]


# --- Rule experiments --------------------------------------------------------------------


#: the issue's target: 100 variants of the rules over the year, in all, on 2 cores
EXPERIMENT_VARIANTS = 100
EXPERIMENT_S = 60.0
#: and one variant laid out already, in one process (issue 39)
EXPERIMENT_VARIANT_S = 1.0
#: variants per run of the Dask speed-up (one worker, then two): the issue's 100, for a
#: speed-up of that workload (with a handful, the layout and the transfer to each worker,
#: which do not shrink with more workers, would make most of the time)
DASK_VARIANTS = EXPERIMENT_VARIANTS


def experiment_figures(ctx: Context) -> list[Figure]:
    """experiment_100_variants_s: `run_experiment` of 100 variants (B from 8 to 17 by K's
    numerator from 710 to 800) over the synthetic year, in local processes, one per core:
    laying the history out, the tasks and the scores, in all (the events are in memory:
    reading the files is `uscf db rate`'s figure). experiment_variant_s: one variant in
    this process, the median of the runs. experiment_dask_speedup: the same variants on a
    local Dask cluster of one worker, then of two."""
    from uscf_ratings.core.model import System
    from uscf_ratings.core.variants import Variant
    from uscf_ratings.experiments.history import Period, history_of
    from uscf_ratings.experiments.run import laid_out, rerate_prepared, run_experiment
    from uscf_ratings.experiments.spec import Spec

    year = ctx.year
    history = history_of(year.events, "the synthetic year")
    grid = tuple(Variant(f"B {b}, K {k}", {"bonus_threshold": b, "k_numerator": k})
                 for b in range(8, 18) for k in range(710, 810, 10))
    assert len(grid) == EXPERIMENT_VARIANTS

    def spec(variants: tuple[Variant, ...]) -> Spec:
        return Spec("bench", None, Period(), variants, variants[0].name, System.R)

    with ticker("compiling the chain (or loading Numba's cache)", quiet=ctx.quiet):
        tiny = history_of(year.events[:3], "three events")
        rerate_prepared(laid_out(tiny), grid[0], System.R)
    with ticker("laying the year out", quiet=ctx.quiet):
        laid = laid_out(history)
    runs = ctx.sizes.rerate_runs
    one = _times(lambda: rerate_prepared(laid, grid[1], System.R), runs)
    workers = os.cpu_count() or 1
    with ticker(f"{EXPERIMENT_VARIANTS} variants on {workers} processes", quiet=ctx.quiet):
        start = time.perf_counter()
        run_experiment(spec(grid), history, workers=workers)
        total = time.perf_counter() - start
    speedup, dask_note = _dask_speedup(ctx, spec(grid[:DASK_VARIANTS]), history)
    games = year.total_games
    full = is_full_year(games)
    estimate = total * FULL_YEAR_GAMES / games
    described = year.describe(ctx.sizes.db_members)
    return [
        Figure("experiment_100_variants_s", total, "s", 1,
               f"{described}; {EXPERIMENT_VARIANTS} variants in local processes, one per "
               f"core ({workers}), the layout included", ("<=", EXPERIMENT_S),
               judged_on=None if full else estimate,
               note=f"{total / EXPERIMENT_VARIANTS:.2f} s a variant in all" + (
                   "" if full else f"; judged on the linear estimate for "
                   f"{FULL_YEAR_GAMES:,} games, {estimate:,.0f} s")),
        Figure("experiment_variant_s", _median(one), "s", runs,
               f"{described}; one variant laid out already, in one process",
               ("<=", EXPERIMENT_VARIANT_S),
               judged_on=None if full else _median(one) * FULL_YEAR_GAMES / games,
               samples=one),
        Figure("experiment_dask_speedup", speedup, "x", 1,
               f"{described}; {DASK_VARIANTS} variants on a local Dask cluster of one "
               "worker process, then of two", note=dask_note),
    ]


def _dask_speedup(ctx: Context, spec: Any, history: Any) -> tuple[float | None, str]:
    try:
        from dask.distributed import LocalCluster
    except ImportError:
        return None, "Dask is not installed: pip install -e '.[experiments]'"
    from uscf_ratings.experiments.run import run_experiment

    seconds = []
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, \
                ticker(f"{len(spec.variants)} variants on {workers} Dask worker(s)",
                       quiet=ctx.quiet):
            start = time.perf_counter()
            run_experiment(spec, history, scheduler=cluster.scheduler_address)
            seconds.append(time.perf_counter() - start)
    return seconds[0] / seconds[1], f"{seconds[0]:.1f} s on one worker, {seconds[1]:.1f} s on two"


# --- Late events --------------------------------------------------------------------------


#: the issue's target: a tenth of the year given late costs at most one re-rate of it
LATE_TENTH_S = 8.0
#: and 500 events dated before 500 stored at most twice the 1,000 in date order
LATE_HALF_RATIO = 2.0


def _part(year: Year, indexes: Sequence[int]) -> Year:
    return Year([year.events[i] for i in indexes], [year.files[i] for i in indexes],
                [year.games[i] for i in indexes])


def late_figures(ctx: Context) -> list[Figure]:
    """late_tenth_s: the year with every tenth event held back, then those events given
    as a second `uscf db rate`; late_half_ratio: the year's first 1,000 events, the
    later 500 first and then the earlier 500, against the 1,000 in date order."""
    from uscf_ratings.office.office import Office

    sizes, year = ctx.sizes, ctx.year
    ctx.load_office_chain()  # compiled and cached before the first run
    order = sorted(range(len(year.events)), key=lambda i: year.events[i].end_date)
    held = order[5::10]  # every tenth, spread over the year
    kept = sorted(set(order) - set(held))
    first_s, late_s, rerate_s, late_cpu_s = [], [], [], []
    first_event = year.events[order[0]].id  # kept: the first of the year by date
    for run in range(sizes.rerate_runs):
        url = f"sqlite:///{ctx.workdir / f'office-late-{run}.db'}"
        Office(url).init()
        first_s.append(_db_rate(ctx, url, _part(year, kept), f"the year less a tenth, run "
                                f"{run + 1}/{sizes.rerate_runs}").seconds)
        copy = f"sqlite:///{ctx.workdir / f'office-late-{run}-copy.db'}"
        _copy_sqlite(url, copy)
        rerate_s.append(_db_withdraw(ctx, copy, first_event, f"one re-rate of the nine "
                                     f"tenths, run {run + 1}/{sizes.rerate_runs}"))
        _remove_sqlite(copy)
        late = _db_rate(ctx, url, _part(year, held), f"the tenth held back, given late, run "
                        f"{run + 1}/{sizes.rerate_runs}")
        late_s.append(late.seconds)
        late_cpu_s.append(late.cpu_s)
        _remove_sqlite(url)
    games = year.total_games
    value = _median(late_s)
    estimate = value * FULL_YEAR_GAMES / games
    full = is_full_year(games)
    thousand = order[:1000]
    earlier, later = thousand[:len(thousand) // 2], thousand[len(thousand) // 2:]
    in_order_s, reversed_s = [], []
    for run in range(sizes.rerate_runs):
        url = f"sqlite:///{ctx.workdir / f'office-half-{run}.db'}"
        Office(url).init()
        in_order_s.append(_db_rate(ctx, url, _part(year, thousand),
                                   f"{len(thousand):,} events in date order").seconds)
        _remove_sqlite(url)
        Office(url).init()
        reversed_s.append(
            _db_rate(ctx, url, _part(year, later), f"the later {len(later):,}").seconds
            + _db_rate(ctx, url, _part(year, earlier),
                       f"then the earlier {len(earlier):,}").seconds)
        _remove_sqlite(url)
    ratio = _median(reversed_s) / _median(in_order_s)
    return [
        Figure("late_tenth_s", value, "s", sizes.rerate_runs,
               year.describe(sizes.db_members) + f"; `uscf db rate` of the {len(held):,} "
               "events held back (every tenth by date, spread over the year) into the "
               f"database holding the other {len(kept):,}, process start to exit",
               ("<=", LATE_TENTH_S), judged_on=None if full else estimate, samples=late_s,
               note=(f"the other nine tenths took {_median(first_s):,.1f} s (median); the "
                     f"late batch used {_median(late_cpu_s):,.1f} s of CPU time (median; the "
                     f"command and its workers, on {os.cpu_count()} cores); "
                     + ("" if full else f"the target is for a year of {FULL_YEAR_GAMES:,} "
                        f"games: judged on the linear estimate for it, {estimate:,.1f} s"))),
        Figure("late_tenth_rerates", _median(late_s) / _median(rerate_s), "x",
               sizes.rerate_runs,
               f"late_tenth_s against one re-rate of the same database through the CLI: "
               f"`uscf db withdraw` of the year's first event ({first_event}) from a copy "
               "of the database holding the nine tenths, which rates every later section "
               "again, process start to exit (the machine's speed, which varies from day "
               "to day, divides out)",
               samples=[late / one for late, one in zip(late_s, rerate_s, strict=True)],
               note=f"{_median(late_s):,.1f} s against {_median(rerate_s):,.1f} s (medians); "
                    "the late batch also checks, stores and rates its own events"),
        Figure("late_half_ratio", ratio, "x", sizes.rerate_runs,
               f"the year's first {len(thousand):,} events by date: `uscf db rate` of the "
               f"later {len(later):,}, then of the earlier {len(earlier):,}, against one "
               f"`uscf db rate` of all {len(thousand):,} in date order (two processes "
               "against one)", ("<=", LATE_HALF_RATIO),
               samples=[r / o for r, o in zip(reversed_s, in_order_s, strict=True)],
               note=f"{_median(reversed_s):,.1f} s against {_median(in_order_s):,.1f} s "
                    "(medians)"),
    ]


# --- Start-up ------------------------------------------------------------------------------


SAMPLE_EVENT = REPO / "examples" / "sample-event.json"
#: the baseline: an interpreter that imports the CLI's one necessary library
IMPORT_CLICK = "import click"


def startup_commands() -> dict[str, list[str]]:
    """The three commands timed, each run by this interpreter: the baseline, `uscf
    --help`, and `uscf rate` of the bundled sample event."""
    script = Path(sys.executable).parent / "uscf"
    uscf = [sys.executable, str(script)] if script.is_file() else uscf_command()
    return {"click": [sys.executable, "-c", IMPORT_CLICK],
            "help": [*uscf, "--help"],
            "rate": [*uscf, "rate", str(SAMPLE_EVENT)]}


def _run_once(command: list[str]) -> float:
    """Seconds from start to exit of ``command``; its output is discarded, and a failure
    (which would time an error message) stops the figure."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          cwd=REPO, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {done.returncode}: "
                           f"{done.stderr.decode(errors='replace')[-2000:]}")
    return seconds


def startup_figures(ctx: Context) -> list[Figure]:
    """startup_help_ratio and startup_rate_ratio: `uscf --help` and `uscf rate` of the
    sample event, from process start to exit, each as a ratio to ``python -c "import
    click"`` (the least a click command costs on this machine).

    The three commands run in turn in each round, after one untimed round (the
    files in the page cache, the bytecode written), so that the machine's slow spells
    fall on all three alike; a run's ratio is taken within its round, and each ratio
    figure is the median of the rounds' ratios."""
    runs = ctx.sizes.startup_runs
    commands = startup_commands()
    times: dict[str, list[float]] = {name: [] for name in commands}
    for command in commands.values():
        _run_once(command)
    bar = ctx.progress("start-up: click, uscf --help, uscf rate", runs, "rounds")
    with collector_off():
        for _ in range(runs):
            for name, command in commands.items():
                times[name].append(_run_once(command))
            bar.advance()
    bar.close()
    ratios = {name: [t / base for t, base in zip(times[name], times["click"], strict=True)]
              for name in ("help", "rate")}
    baseline = f'python -c "{IMPORT_CLICK}"'
    sections = json.loads(SAMPLE_EVENT.read_text())["sections"]
    sample = (f"{len(sections)} sections, {sum(len(x['players']) for x in sections)} "
              "players")
    what = {"help": "uscf --help",
            "rate": f"uscf rate {SAMPLE_EVENT.relative_to(REPO)} ({sample})"}
    out = [Figure(f"startup_{name}_ratio", _median(ratios[name]), "x", runs,
                  f"{what[name]}, start to exit, over {baseline} run just before it",
                  ("<=", limit), samples=ratios[name])
           for name, limit in (("help", 3.0), ("rate", 6.0))]
    out += [Figure(f"startup_{name}_ms", _median([t * 1e3 for t in times[name]]), "ms", runs,
                   label + ", start to exit", note="for information; no target",
                   samples=[t * 1e3 for t in times[name]])
            for name, label in (("click", baseline), ("help", what["help"]),
                                ("rate", what["rate"]))]
    return out


# --- The web app ----------------------------------------------------------------------------


def web_figures(ctx: Context) -> list[Figure]:
    """web_list_page_ms and web_mix_*: `uscf serve` on the year's database (bench/web.py)."""
    from .web import web_figures as measure

    return measure(ctx)


#: The figure functions, in the order they run: (group name, function).
GROUPS: tuple[tuple[str, Callable[[Context], list[Figure]]], ...] = (
    ("section", section_figures),
    ("scaling", scaling_section_figures),
    ("engine", engine_figures),
    ("pack", pack_figures),
    ("reference", reference_figure),
    ("peers", peer_figures),
    ("db", db_figures),
    ("rerate", rerate_figures),
    ("late", late_figures),
    ("experiment", experiment_figures),
    ("startup", startup_figures),
    ("web", web_figures),
)
