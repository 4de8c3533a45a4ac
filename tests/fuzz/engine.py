"""The fuzzing loop: seeds mutated, each input through its doors, the verdicts counted,
and every input that breaks an invariant kept (minimised where that is cheap).

One engine serves both budgets: the tests run it with a fixed seed and a small budget
(`tests/fuzz/test_fuzz.py`); `python -m tests.fuzz` runs it with any seed and budget
(docs/fuzzing.md). The same seed and budget give the same inputs.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import doors
from .mutate import mutate
from .seeds import HISTORY, HISTORY_MEMBER, Seed


@dataclass
class Finding:
    """An input that broke an invariant: the first for its signature."""

    verdict: doors.Verdict
    seed: str  #: the seed's name
    how: str  #: the mutations that made it
    filename: str
    data: bytes
    member: str | None = None
    choice: int = 0


@dataclass
class Tally:
    """What a run tried: by (door, format) the count of each status, and the placed
    refusals."""

    counts: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    findings: dict[tuple[str, ...], Finding] = field(default_factory=dict)
    repeats: Counter[tuple[str, ...]] = field(default_factory=Counter)
    inputs: int = 0
    seconds: float = 0.0
    peak_growth: int = 0  #: the largest growth of memory one door made
    #: time spent at each door
    door_seconds: dict[str, float] = field(default_factory=dict)

    def add(self, fmt: str, verdict: doors.Verdict) -> None:
        self.counts[(verdict.door, fmt, verdict.status)] += 1
        if verdict.status == doors.REFUSED and verdict.placed:
            self.counts[(verdict.door, fmt, "placed")] += 1

    def table(self) -> str:
        """The counts as a Markdown table, a row by door and format."""
        statuses = (doors.ACCEPTED, doors.REFUSED, "placed", *doors.VIOLATIONS)
        rows = sorted({(d, f) for d, f, _s in self.counts})
        lines = ["| door | format | tried | " + " | ".join(statuses) + " |",
                 "|---|---|---:|" + "---:|" * len(statuses)]
        for door, fmt in rows:
            row = [self.counts[(door, fmt, s)] for s in statuses]
            tried = sum(self.counts[(door, fmt, s)] for s in (doors.ACCEPTED, doors.REFUSED,
                                                               *doors.VIOLATIONS))
            lines.append(f"| {door} | {fmt} | {tried} | " + " | ".join(map(str, row)) + " |")
        return "\n".join(lines)

    def summary(self) -> str:
        found = "\n".join(f"- {f.verdict.status} x{self.repeats[k]}: {f.verdict.detail[:160]} "
                          f"(seed {f.seed}; {f.how[:120]})" for k, f in self.findings.items())
        spent = ", ".join(f"{door} {s:.1f} s" for door, s in sorted(
            self.door_seconds.items(), key=lambda item: -item[1]))
        return (f"{self.inputs} inputs in {self.seconds:.1f} s ({spent}); the largest growth of memory "
                f"at one door {self.peak_growth / 2**20:.0f} MB (ceiling "
                f"{doors.MEMORY_CEILING / 2**20:.0f} MB)\n\n{self.table()}\n\n"
                f"{len(self.findings)} distinct violation(s)" + (f":\n{found}" if found else ""))


def format_of(seed: Seed) -> str:
    """The format a seed is in, for the table: by its name."""
    if seed.family != "event":
        return seed.family
    for kind in ("trf", "sjson", "dbf", "wintd", "csvjson", "csv", "pgn", "api", "json"):
        if f"/{kind}/" in f"/{seed.name}/" or seed.name.endswith(f"/{kind}"):
            return kind
    suffix = seed.suffix.lstrip(".")
    return {"zip": "dbf", "ptoz": "wintd", "trfx": "trf", "bk": "sjson"}.get(suffix, suffix)


def run(seeds: list[Seed], budget: int, seed: int, *, folder: Path | None = None,
        time_limit: float | None = None, minimise: bool = True,
        only: tuple[str, ...] | None = None, offices: doors.Offices | None = None,
        progress: Callable[[Tally], None] | None = None) -> Tally:
    """``budget`` inputs made from ``seeds`` by `random.Random(seed)`; each goes through
    its family's every-input doors and one of the others in turn. ``only``: door names
    (`doors.BY_NAME`) to run, the others skipped. Stops early after ``time_limit``
    seconds. ``offices``: the offices to copy for each input, where the caller has made
    them (else made here). ``progress`` is called every 1,000 inputs."""
    rng = random.Random(seed)
    tally = Tally()
    probe = doors.MemoryProbe()
    start = time.monotonic()
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        work = Path(tmp)
        ctx = doors.Context(offices or doors.Offices(work / "offices"), work / "scratch")
        ctx.scratch.mkdir()
        turn: Counter[str] = Counter()
        for index in range(budget):
            if time_limit is not None and time.monotonic() - start > time_limit:
                break
            base = rng.choice(seeds)
            family = [s for s in seeds if s.family == base.family]
            data, how = mutate(rng, base.data, rng.choice(family).data)
            ctx.choice = rng.randrange(1000)
            ctx.member = HISTORY_MEMBER if base.family == HISTORY and "_sections" in \
                base.filename else None
            path = work / "input" / base.filename
            path.parent.mkdir(exist_ok=True)
            path.write_bytes(data)
            chosen = list(doors.ALWAYS[base.family])
            others = doors.IN_TURN[base.family]
            chosen.append(others[turn[base.family] % len(others)])
            turn[base.family] += 1
            fmt = format_of(base)
            for door in chosen:
                if only and _name(door) not in only:
                    continue
                began = time.monotonic()
                verdict = doors.run_door(door, path, ctx, probe)
                tally.door_seconds[verdict.door] = tally.door_seconds.get(verdict.door, 0.0) \
                    + time.monotonic() - began
                tally.peak_growth = max(tally.peak_growth, probe.growth)
                tally.add(fmt, verdict)
                if verdict.violated:
                    tally.repeats[verdict.signature] += 1
                    if verdict.signature not in tally.findings:
                        kept = shrink(door, data, base.filename, ctx, probe,
                                      verdict.signature) if minimise else data
                        tally.findings[verdict.signature] = Finding(
                            verdict, base.name, how, base.filename, kept, ctx.member,
                            ctx.choice)
            tally.inputs = index + 1
            if progress is not None and tally.inputs % 1000 == 0:
                tally.seconds = time.monotonic() - start
                progress(tally)
    tally.seconds = time.monotonic() - start
    return tally


def _name(door: doors.Door) -> str:
    return next(name for name, d in doors.BY_NAME.items() if d is door)


def verdict_of(door: doors.Door, data: bytes, filename: str, ctx: doors.Context,
               probe: doors.MemoryProbe) -> doors.Verdict:
    path = ctx.scratch / "replay" / filename
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    return doors.run_door(door, path, ctx, probe)


def shrink(door: doors.Door, data: bytes, filename: str, ctx: doors.Context,
           probe: doors.MemoryProbe, signature: tuple[str, ...], seconds: float = 5.0
           ) -> bytes:
    """A smaller input with the same signature: chunks cut away while it still breaks
    the invariant the same way, for at most ``seconds`` (a zip is kept whole: cuts only
    break its checksums; so is a nest too deep, whose depth is what it tests)."""
    if data[:2] == b"PK" or len(data) > 2_000_000 or "RecursionError" in signature:
        return data  # cut, a nest ends where the stack of this process did: kept whole
    end = time.monotonic() + seconds
    chunk = max(len(data) // 2, 1)
    while chunk >= 1 and time.monotonic() < end:
        at, cut = 0, False
        while at < len(data) and time.monotonic() < end:
            candidate = data[:at] + data[at + chunk:]
            if candidate and verdict_of(door, candidate, filename, ctx,
                                        probe).signature == signature:
                data, cut = candidate, True
            else:
                at += chunk
        if not cut:
            chunk //= 2
    return data
