"""Every door is held to the one ceiling (`formats.bounds`, issue 37): any input up to
`MAX_INPUT_BYTES` is read, checked, rated and written within `MEMORY_CEILING_MB`, and
the adversarial inputs (zip bombs of each method whose directory under-states a member,
an encrypted member, JSON nested 100,000 deep, a number of 5,000 digits, a file over the
cap, a CSV with a column ``round1000000000``) are refused naming the file and place, or
read and written in proportion to what they hold.

Each door runs in a child process of its own (its Python and imports counted), under
RLIMIT_DATA as a guard (a regression fails instead of taking the machine), and reports
its peak resident memory (``ru_maxrss``). The children run side by side."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tests.formats.zip_bombs import BZIP2, DEFLATE, LZMA, bomb, compressed, zip_of

from uscf_ratings.formats.bounds import MAX_INPUT_BYTES, MEMORY_CEILING_MB

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

# The child: runs each job of its door in-process (the CLI through click's runner, the
# web through its test client), then prints what each answered and its peak memory.
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
    else:
        from click.testing import CliRunner
        from uscf_ratings.cli.main import cli
        for args in jobs:
            result = CliRunner().invoke(cli, args)
            crash = result.exception if not isinstance(result.exception, SystemExit) else None
            answers.append([result.exit_code, result.output[-2000:],
                            repr(crash) if crash else None])
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
    paths = {}
    for name, data in files.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


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
    }


def run_doors(doors: dict[str, tuple[str, list[object]]]) -> dict[str, dict[str, object]]:
    """Each door's jobs in a child of its own, all children at once."""
    children = {name: subprocess.Popen([sys.executable, "-c", CHILD, str(GUARD), door,
                                        json.dumps(jobs)], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE, text=True, cwd=REPO)
                for name, (door, jobs) in doors.items()}
    found = {}
    for name, child in children.items():
        out, err = child.communicate(timeout=300)
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
                  for m in members]),
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
    for code, output, _ in rate[len(bad):]:  # type: ignore[misc]
        assert code == 0 and output.count("1000000000") <= 2, output  # one column, not 10^9
    assert convert[0][0] == 0 and "round1,round1000000000" in (tmp_path / "out.csv").read_text()
    assert convert[1][0] == 1 and "cannot write section 1 as TRF: its last round is " \
        "1,000,000,000" in convert[1][1]
    assert convert[2][0] == 1 and "as the CSV crosstable's JSON" in convert[2][1]
    for (code, output, _), name in zip(convert[3:], bad, strict=True):  # type: ignore[misc]
        assert code == 1 and refused[name] in output, (name, output)
    for (code, output, _), name in zip(db[1:1 + len(bad)], bad, strict=True):  # type: ignore[misc]
        assert code == 1 and refused[name] in output, (name, output)
    for (code, output, _), name in zip(db[1 + len(bad):], ["deep.json", "long.json", "big.json"] * 2,
                                       strict=True):  # type: ignore[misc]
        assert code == 1 and refused[name].split(": ", 1)[1] in output, (name, output)
    for (status, text), name in zip(web, bad + ["deep.json", "long.json"], strict=True):  # type: ignore[misc]
        assert status in (400, 413, 422), (name, status, text[:300])
    print("\n".join(table))


def largest_event(players: int = 1024, rounds: int = 15, sections: int = 8) -> dict[str, object]:
    """An event JSON document just under the cap: ``sections`` of ``players`` (a power of
    two), each playing every round; in round r, pair i meets pair ((i - 1) XOR r) + 1,
    which pairs every player once per round and never with the same opponent twice."""
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
    return {"event": {"id": "202601030001", "name": "Largest", "start_date": "2026-01-03",
                      "end_date": "2026-01-04"}, "sections": out}


def test_the_largest_file_is_rated_within_the_ceiling(tmp_path: Path) -> None:
    """8,192 players, 61,440 games, 2.0 MB: the doors that hold the most of it at once
    (the JSON of every explanation; the office with Numba's compiler) stay under it."""
    path = tmp_path / "largest.json"
    path.write_text(json.dumps(largest_event()))
    assert MAX_INPUT_BYTES * 0.9 < path.stat().st_size <= MAX_INPUT_BYTES
    db = f"sqlite:///{tmp_path / 'office.db'}"
    found = run_doors({"rate": ("cli", [["rate", str(path), "--format", "json"]]),
                       "db": ("cli", [["db", "--db", db, "init"], ["db", "--db", db, "rate",
                                                                   str(path)]])})
    for name, result in found.items():
        answers = result["answers"]
        assert all(a[0] == 0 for a in answers), (name, answers)  # type: ignore[attr-defined]
        assert float(str(result["peak_mb"])) < MEMORY_CEILING_MB, (name, result["peak_mb"])
        print(f"{name}: {float(str(result['peak_mb'])):.0f} MB")
