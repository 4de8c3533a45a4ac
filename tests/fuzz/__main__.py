"""`python -m tests.fuzz`: the fuzzer at any budget (docs/fuzzing.md).

Prints the table of inputs tried at each door and every distinct violation; with
``--save``, writes each violation's input to tests/fuzz/corpus/ (and its manifest),
where the tests replay it. Exits 1 when it found a violation in no known class
(tests/fuzz/known.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from . import corpus, known
from .doors import BY_NAME
from .engine import run
from .seeds import all_seeds, real_seeds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--budget", type=int, default=20_000, help="inputs to try")
    parser.add_argument("--seed", type=int, default=None,
                        help="the random seed (default: one drawn, and printed)")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long, whatever the budget")
    parser.add_argument("--door", action="append", choices=sorted(BY_NAME),
                        help="run only this door (repeatable)")
    parser.add_argument("--save", action="store_true",
                        help="write each violation's input to tests/fuzz/corpus/")
    parser.add_argument("--replay", action="store_true",
                        help="instead, replay the corpus: each entry's verdict now, and the "
                             "class it is marked with")
    args = parser.parse_args(argv)
    if args.replay:
        return replay()
    seed = args.seed if args.seed is not None else random.randrange(2**32)
    if not real_seeds():
        print("note: ../shared is missing: seeded with the tests' files and ours only",
              file=sys.stderr)
    print(f"seed {seed}, budget {args.budget}", flush=True)
    started = time.monotonic()
    tally = run(all_seeds(), args.budget, seed, only=tuple(args.door) if args.door else None,
                time_limit=args.minutes * 60 if args.minutes else None,
                progress=lambda t: print(f"{t.inputs} inputs, {t.seconds:.0f} s, "
                                         f"{len(t.findings)} distinct violation(s)",
                                         file=sys.stderr, flush=True))
    print(tally.summary())
    if args.save:
        for finding in tally.findings.values():
            entry = corpus.save(finding, known.class_of(finding.verdict))
            print(f"in the corpus: {entry.file}"
                  + (f" (xfail: {entry.xfail})" if entry.xfail else ""))
    print(f"done in {time.monotonic() - started:.0f} s")
    new = [f for f in tally.findings.values() if known.class_of(f.verdict) is None]
    print(f"{len(new)} violation(s) in no known class (tests/fuzz/known.py)")
    return 1 if new else 0


def replay() -> int:
    """Each corpus entry through its door: what it gives now beside its mark. Exits 1
    when an entry with no mark breaks an invariant."""
    import tempfile
    from pathlib import Path

    from .doors import Context, MemoryProbe, Offices
    from .engine import verdict_of

    broken = 0
    with tempfile.TemporaryDirectory() as tmp:
        ctx = Context(Offices(Path(tmp) / "offices"), Path(tmp))
        for entry in corpus.entries():
            ctx.choice, ctx.member = entry.choice, entry.member
            verdict = verdict_of(BY_NAME[entry.door], entry.path.read_bytes(), entry.filename,
                                 ctx, MemoryProbe())
            broken += verdict.violated and not entry.xfail
            now = f"{verdict.status}: {verdict.detail[:100]}" if verdict.violated else "holds"
            print(f"{entry.id}: {now}" + (f" [xfail: {entry.xfail}]" if entry.xfail else ""))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
