"""Every door is held to the one ceiling (`formats.bounds`, issue 37): any input up to
`MAX_INPUT_BYTES`, `MAX_PLAYERS` and `MAX_RESULTS` is read, checked, rated and written
within `MEMORY_CEILING_MB`, and a member list up to `MAX_MEMBERS` rows is imported within
it; the adversarial inputs (zip bombs of each method whose directory under-states a
member, an encrypted member, JSON nested 100,000 deep, a number of 5,000 digits, a file
over the cap, a CSV with a column ``round1000000000``, a CSV of more players than the cap
in few bytes, a member list of more rows than its cap or a line of a megabyte) are
refused naming the file and place, or read and written in proportion to what they hold.

The largest files are rated at one size in every run (the event JSON at every cap, by
the doors that hold the most of it: ``rate --format json``, ``convert`` and ``db rate``).
The full measurement, each door on each file at the caps (every output format, the CSV
crosstable at the caps, a member list of `MAX_MEMBERS` rows: a few minutes), runs with
``USCF_CEILING_FULL=1``::

    USCF_CEILING_FULL=1 python -m pytest tests/formats/test_bounds_ceiling.py -s

Each door runs in a child process of its own (its Python and imports counted), under
RLIMIT_DATA as a guard (a regression fails instead of taking the machine), and reports
its peak resident memory (``ru_maxrss``). The children run side by side."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tests.formats.zip_bombs import BZIP2, DEFLATE, LZMA, bomb, compressed, zip_of

from uscf_ratings.formats.bounds import (
    MAX_INPUT_BYTES,
    MAX_MEMBER_LINE_CHARS,
    MAX_MEMBERS,
    MAX_PLAYERS,
    MAX_RESULTS,
    MEMORY_CEILING_MB,
)

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "examples" / "sample-event.json"
#: The guard: twice the ceiling of data segment (the heap and private mappings).
GUARD = 2 * MEMORY_CEILING_MB * 1024 * 1024

HUGE_ROUND = """\
# start_date: 2024-01-06
# time_control: G/90;d5
pair,name,rating,games,round1,round1000000000
1,Ann,1500,30,W2,H
2,Bob,1400,30,L1,H
"""

# The child: runs each job of its door in-process (the CLI as from a shell, its output to
# a file; the web through its test client), then prints what each answered (the last
# 2,000 characters of the CLI's output) and its peak memory.
CHILD = textwrap.dedent("""\
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_DATA, (int(sys.argv[1]), int(sys.argv[1])))
    door, jobs = sys.argv[2], json.loads(sys.argv[3])
    answers = []
    if door == "web":
        from fastapi.testclient import TestClient
        from uscf_ratings.web.app import create_app
        from uscf_ratings.web.settings import Settings
        client = TestClient(create_app(Settings()), raise_server_exceptions=False)
        for kind, path in jobs:
            data = open(path, "rb").read()
            if kind == "upload":
                answer = client.post("/estimate/section",
                                     files={"file": (path.rsplit("/", 1)[-1], data)})
            else:
                answer = client.post("/api/rate", content=data)
            answers.append([answer.status_code, answer.text])
    else:  # as a user runs it: its output to a file (click's runner holds it all)
        import os, tempfile
        from uscf_ratings.cli.main import cli
        for args in jobs:
            with tempfile.TemporaryFile() as out:
                saved = os.dup(1), os.dup(2)
                os.dup2(out.fileno(), 1)
                os.dup2(out.fileno(), 2)
                crash = None
                try:
                    cli.main(args, prog_name="uscf")
                    code = 0
                except SystemExit as stop:
                    code = stop.code if isinstance(stop.code, int) else int(stop.code is not None)
                except Exception as error:  # a traceback would reach the user
                    code, crash = 1, repr(error)
                finally:
                    sys.stdout.flush()
                    sys.stderr.flush()
                    os.dup2(saved[0], 1)
                    os.dup2(saved[1], 2)
                    os.close(saved[0])
                    os.close(saved[1])
                size = out.seek(0, 2)
                out.seek(max(0, size - 2000))
                answers.append([code, out.read().decode("utf-8", "replace"), crash])
    # The peak of this process's own memory: VmHWM, which starts again at exec. Linux
    # keeps ru_maxrss across exec, so it gave the forking test process's peak (709 MB
    # late in a whole test run) rather than the command's.
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status
                        if line.startswith("VmHWM:")) / 1024
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"answers": answers, "peak_mb": peak}))
    """)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("adversary")
    files = {
        # 32 MiB of zeros each, the directory saying 1,000 bytes
        "bzip2.zip": bomb(BZIP2, "TDEXPORT.DBF", 32),
        "lzma.ptoz": bomb(LZMA, "Json", 32),
        "deflate.zip": bomb(DEFLATE, "TDEXPORT.DBF", 32),
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "long.json": b'{"event": {"id": "1", "start_date": "2026-01-01", "games": '
                     + b"9" * 5_000 + b"}}",
        "big.json": b"{" + b" " * MAX_INPUT_BYTES + b"}",
        "huge-round.csv": HUGE_ROUND.encode(),
    }
    packed, crc, size = compressed(DEFLATE, [b"secret"])
    files["encrypted.zip"] = zip_of([("TDEXPORT.DBF", DEFLATE, packed, crc, size)], flags=1)
    # players of 2 rounds in 40 bytes a row: MAX_PLAYERS + 1 of them in about 0.9 MB
    files["many.csv"] = dense_csv(MAX_PLAYERS + 4).encode()
    # a member list a row past its cap (7.8 MB), and one line of a megabyte
    files["members.txt"] = supplement(MAX_MEMBERS + 1).encode()
    files["long-line.txt"] = b"12345678\t" + b"x" * (1 << 20) + b"\n"
    paths = {}
    for name, data in files.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


def dense_csv(players: int, rounds: int = 2) -> str:
    """A CSV crosstable of ``players`` (even) meeting pair i XOR r + 1 in round r: the
    most players in the fewest bytes."""
    lines = ["# start_date: 2026-01-03", "# time_control: G/90;d5",
             "pair,id,name,rating,games," + ",".join(f"round{r}" for r in range(1, rounds + 1))]
    for i in range(players):
        cells = [f"{'W' if i < i ^ r else 'L'}{(i ^ r) + 1}" for r in range(1, rounds + 1)]
        lines.append(f"{i + 1},{10_000_000 + i},P{i},{1000 + (i * 37) % 1500},30,"
                     + ",".join(cells))
    return "\n".join(lines) + "\n"


def supplement(members: int) -> str:
    """A rating supplement in the rtglist.txt layout (tab-separated, no header), with a
    regular, a provisional quick and an online rating per member."""
    rows = []
    for i in range(members):
        r = 400 + (i * 37) % 2200
        rows.append(f"{10_000_000 + i}\tLAST{i % 9973}, FIRST{i % 101}\tNY\tUSA\t\tA\t\t\t"
                    f"2026-01-01\t{r}\t{r + 10}P12\t\t{r - 5}\t\t\n")
    return "".join(rows)


def expected_refusals(p: dict[str, Path]) -> dict[str, str]:
    """What each adversarial file is refused with: the file, the place, the reason."""
    return {
        "bzip2.zip": f"{p['bzip2.zip']}: TDEXPORT.DBF: unpacks to more than the 1,000 bytes",
        "lzma.ptoz": f"{p['lzma.ptoz']}: Json: unpacks to more than the 1,000 bytes",
        "deflate.zip": f"{p['deflate.zip']}: TDEXPORT.DBF: unpacks to more than the 1,000 bytes",
        "encrypted.zip": f"{p['encrypted.zip']}: TDEXPORT.DBF: encrypted",
        "deep.json": f"{p['deep.json']}: line 1 column 33: JSON nested more than 32 levels deep",
        # column 60: after '{"event": {"id": "1", "start_date": "2026-01-01", "games": '
        "long.json": f"{p['long.json']}: line 1 column 60: a number of 5,000 characters",
        "big.json": f"{p['big.json']}: {MAX_INPUT_BYTES + 2:,} bytes: larger than the "
                    f"{MAX_INPUT_BYTES:,} bytes",
        # the header is line 3: row MAX_PLAYERS + 1 is on line MAX_PLAYERS + 4
        "many.csv": f"{p['many.csv']}: line {MAX_PLAYERS + 4}: {MAX_PLAYERS + 1:,} rows of "
                    f"players: more than the {MAX_PLAYERS:,} one file may have",
    }


def run_doors(doors: dict[str, tuple[str, list[object]]],
              parallel: int | None = None) -> dict[str, dict[str, object]]:
    """Each door's jobs in a child of its own, ``parallel`` children at a time (all at
    once by default)."""
    found = {}
    names = list(doors)
    step = parallel or len(names)
    for at in range(0, len(names), step):
        children = {name: subprocess.Popen([sys.executable, "-c", CHILD, str(GUARD),
                                            doors[name][0], json.dumps(doors[name][1])],
                                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                           text=True, cwd=REPO)
                    for name in names[at:at + step]}
        for name, child in children.items():
            out, err = child.communicate(timeout=600)
            assert child.returncode == 0, (name, err[-3000:])
            found[name] = json.loads(out)
    return found


def test_every_door_refuses_the_adversary_within_the_ceiling(inputs: dict[str, Path],
                                                             tmp_path: Path) -> None:
    p = {name: str(path) for name, path in inputs.items()}
    refused = expected_refusals(inputs)
    bad = list(refused)
    db = f"sqlite:///{tmp_path / 'office.db'}"
    members = [p[n] for n in ("deep.json", "long.json", "big.json")]
    doors: dict[str, tuple[str, list[object]]] = {
        "rate": ("cli", [["rate", p[n]] for n in bad]
                 + [["rate", p["huge-round.csv"], "--format", f]
                    for f in ("text", "msa", "csv", "html", "json")]),
        "convert": ("cli", [["convert", p["huge-round.csv"], str(tmp_path / "out.csv")],
                            ["convert", p["huge-round.csv"], str(tmp_path / "out.trf")],
                            ["convert", p["huge-round.csv"], str(tmp_path / "out.json"),
                             "--to", "csvjson"]]
                    + [["convert", p[n], str(tmp_path / f"{n}.csv")] for n in bad]),
        "db": ("cli", [["db", "--db", db, "init"]]
               + [["db", "--db", db, "rate", p[n]] for n in bad]
               + [["db", "--db", db, "import-members", m] for m in members]
               + [["db", "--db", db, "import-history", "--member", "12345678", m]
                  for m in members]
               + [["db", "--db", db, "import-members", p[n]]
                  for n in ("members.txt", "long-line.txt")]),
        "web": ("web", [["upload", p[n]] for n in bad]
                + [["api", p[n]] for n in ("deep.json", "long.json")]),
    }
    found = run_doors(doors)
    table = []
    for name, result in found.items():
        peak = float(str(result["peak_mb"]))
        table.append(f"{name}: {peak:.0f} MB")
        assert peak < MEMORY_CEILING_MB, (name, peak)
        for answer in result["answers"]:  # type: ignore[attr-defined]
            assert "Traceback" not in answer[1] and (len(answer) < 3 or answer[2] is None), answer
    rate, convert, db, web = (found[n]["answers"] for n in ("rate", "convert", "db", "web"))
    for (code, output, _), name in zip(rate[:len(bad)], bad, strict=True):  # type: ignore[misc]
        assert code == 1 and output.startswith(f"Error: {refused[name]}"), (name, output)
    # A round numbered 10^9 is outside the domain of a round (core/domain.py: 1 to 1,000),
    # so every door refuses it when the file is read, before any writer could size a table
    # by it; the writers themselves size their tables by the rounds present (test_outputs).
    huge_round = "section 1, player 1: round 1000000000: expected a whole number from 1 to 1000"
    for code, output, _ in rate[len(bad):] + convert[:3]:  # type: ignore[misc]
        assert code == 1 and huge_round in output, output
    for (code, output, _), name in zip(convert[3:], bad, strict=True):  # type: ignore[misc]
        assert code == 1 and refused[name] in output, (name, output)
    for (code, output, _), name in zip(db[1:1 + len(bad)], bad, strict=True):  # type: ignore[misc]
        assert code == 1 and refused[name] in output, (name, output)
    lists = db[1 + len(bad):]
    for (code, output, _), name in zip(lists[:6], ["deep.json", "long.json", "big.json"] * 2,
                                       strict=True):  # type: ignore[misc]
        assert code == 1 and refused[name].split(": ", 1)[1] in output, (name, output)
    # the row past the cap is line MAX_MEMBERS + 1; every row before it was read and checked
    assert lists[6][0] == 1 and f"{p['members.txt']}: line {MAX_MEMBERS + 1}: " \
        f"{MAX_MEMBERS + 1:,} rows of members: more than the {MAX_MEMBERS:,} one file may " \
        "have" in lists[6][1], lists[6]
    assert lists[7][0] == 1 and f"{p['long-line.txt']}: line 1: more than " \
        f"{MAX_MEMBER_LINE_CHARS:,} characters" in lists[7][1], lists[7]
    for (status, text), name in zip(web, bad + ["deep.json", "long.json"], strict=True):  # type: ignore[misc]
        assert status in (400, 413, 422), (name, status, text[:300])
    print("\n".join(table))


def largest_event(players: int = 1024, rounds: int = 20, sections: int = 19
                  ) -> dict[str, object]:
    """An event JSON document: ``sections`` of ``players`` (a power of two), each playing
    every round; in round r, pair i meets pair ((i - 1) XOR r) + 1, which pairs every
    player once per round and never with the same opponent twice. By default it is at
    every cap: 19,456 players, 389,120 results."""
    out = []
    for s in range(sections):
        rows = []
        for i in range(players):
            cells = [f"{'W' if i < i ^ r else 'L'}{(i ^ r) + 1}" for r in range(1, rounds + 1)]
            rows.append({"pair": i + 1, "id": str(10_000_000 + s * players + i),
                         "name": f"Player Number {i:06d}",
                         "ratings": {"R": {"rating": 1000 + (i * 37) % 1500 + 0.25,
                                           "games": 30 + i % 100}},
                         "results": cells})
        out.append({"number": s + 1, "name": f"Section {s + 1}", "time_control": "G/90;d5",
                    "players": rows})
    event: dict[str, object] = {
        "event": {"id": "202601030001", "name": "Largest", "start_date": "2026-01-03",
                  "end_date": "2026-01-04"}, "sections": out}
    return event


def largest_text(size: int, players: int = 1024, rounds: int = 20, sections: int = 19) -> str:
    """`largest_event` as JSON text of just under ``size`` bytes: indented by as many
    spaces as fit, then each name made longer, up to the 200 characters the domain allows
    a name (core/domain.py), to fill what is left."""
    event = largest_event(players, rounds, sections)
    indent = 0
    while len(json.dumps(event, indent=indent + 1)) <= size:
        indent += 1
    longer = (size - len(json.dumps(event, indent=indent))) // (players * sections) - 2
    for section in event["sections"]:  # type: ignore[attr-defined]
        for row in section["players"]:
            row["name"] += " " + "x" * min(longer, 200 - 1 - len(row["name"]))
    return json.dumps(event, indent=indent)


def ceiling_doors(tmp_path: Path, full: bool, warm: str) -> dict[str, tuple[str, list[object]]]:
    """The doors run on the files at the caps: in every run, the three that hold the most
    (the result JSON of every explanation, convert's two copies of the event, the office
    with Numba's kernels); with ``full``, every door and file (a few minutes)."""
    event = tmp_path / "largest.json"
    event.write_text(largest_text(MAX_INPUT_BYTES))
    assert MAX_INPUT_BYTES * 0.95 < event.stat().st_size <= MAX_INPUT_BYTES
    assert 0.95 * MAX_PLAYERS < 19 * 1024 <= MAX_PLAYERS  # the default shape: at the caps
    assert 0.95 * MAX_RESULTS < 19 * 1024 * 20 <= MAX_RESULTS
    db = f"sqlite:///{tmp_path / 'office.db'}"
    doors: dict[str, tuple[str, list[object]]] = {
        "rate": ("cli", [["rate", str(event), "--format", "json"]]),
        "convert": ("cli", [["convert", str(event), str(tmp_path / "out.csv")]]),
        "db": ("cli", [["db", "--db", db, "init"], ["db", "--db", db, "rate", str(event)]]),
    }
    if full:
        crosstable = tmp_path / "largest.csv"  # 16,384 players of 24 rounds: 393,216 results
        crosstable.write_text(dense_csv(16_384, 24))
        members = tmp_path / "members.txt"
        members.write_text(supplement(MAX_MEMBERS))
        other = f"sqlite:///{tmp_path / 'other.db'}"
        doors |= {
            f"rate {fmt}": ("cli", [["rate", str(event), "--format", fmt]])
            for fmt in ("text", "msa", "csv", "html")}
        doors |= {
            "crosstable rate": ("cli", [["rate", str(crosstable), "--format", "json"]]),
            "crosstable convert": ("cli", [["convert", str(crosstable), str(tmp_path / "o.json")]]),
            "crosstable db": ("cli", [["db", "--db", other, "init"],
                               ["db", "--db", other, "rate", str(crosstable)]]),
            "import-members": ("cli", [["db", "--db", warm, "import-members", str(members)]]),
        }
    return doors


def test_the_largest_files_are_rated_within_the_ceiling(tmp_path: Path) -> None:
    """The event JSON at every cap (10 MiB, 19,456 players, 389,120 results) through the
    doors that hold the most of it; with USCF_CEILING_FULL=1, every door and file. The
    office's kernels are compiled first, in a child of its own (once per install: a
    first run took 361 MB for a file of 255 KB), as they are by any run before."""
    warm = f"sqlite:///{tmp_path / 'warm.db'}"
    run_doors({"warm": ("cli", [["db", "--db", warm, "init"],
                                ["db", "--db", warm, "rate", str(SAMPLE)]])})
    full = os.environ.get("USCF_CEILING_FULL") == "1"
    found = run_doors(ceiling_doors(tmp_path, full, warm), parallel=2)
    print("\n".join(f"{name}: {float(str(result['peak_mb'])):.0f} MB"
                    for name, result in found.items()))
    for name, result in found.items():
        answers = result["answers"]
        assert all(a[0] == 0 for a in answers), (name, answers)  # type: ignore[attr-defined]
        assert float(str(result["peak_mb"])) < MEMORY_CEILING_MB, (name, result["peak_mb"])
