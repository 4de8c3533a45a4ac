"""The web figures: `uscf serve` on the office's database of the synthetic year, driven
over loopback by a bounded load from this process.

- ``web_list_page_ms``: the first page of the rating list, requested alone, one request
  at a time, on a server that does nothing else; the median of ``web_list_runs``, after
  one untimed request. ``web_list_page_first_ms``: the first request for it after the
  server started (the app may make the whole list then, and keep it for the next ones).
- ``web_mix_requests_per_s``, ``web_mix_p50_ms``, ``web_mix_p95_ms`` and
  ``web_mix_ms_by_request``: ``web_clients`` clients (threads of this process, each with
  one keep-alive HTTP/1.1 connection, as a browser keeps one) send the mix of `MIX`, in
  turn, for ``web_seconds``; each run starts new connections. A request is sent only
  when the client's previous one has been answered (a closed loop), so the load is
  bounded by the clients, and by the time: no request is sent after it.

The server is a child process, ``uscf serve --db URL --host 127.0.0.1 --port PORT``
with its default workers (one process per CPU available, at most 8), listening on
loopback only; it is stopped when the figures are done, interrupted or
failed (and, on Linux, when this process dies).

The clients use the standard library's ``http.client``: the lightest client at hand,
since they share the machine's cores with the server they measure. Each request says
``Accept-Encoding: gzip``, as browsers do, and its body is read whole (not unzipped).
"""

from __future__ import annotations

import ctypes
import http.client
import importlib.util
import itertools
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import quote_plus

from .figures import Context, Figure, Year, collector_off, filled_db, uscf_command
from .progress import Stopped

HOST = "127.0.0.1"  #: loopback only: the server listens on it, the clients call it
#: the issue's targets: the first page of the rating list within 50 ms at 100,000
#: members, and the mix at five times the 58 requests a second measured before them
LIST_PAGE_MS, LIST_PAGE_MEMBERS = 50.0, 100_000
MIX_REQUESTS_PER_S = 290.0
HEADERS = {"Accept-Encoding": "gzip", "User-Agent": "uscf-bench"}
REQUEST_TIMEOUT_S = 120.0  #: a request not answered within this fails
UP_TIMEOUT_S = 120.0  #: the server must answer within this of its start
WEB_EXTRA = ("fastapi", "starlette", "uvicorn", "jinja2", "multipart")
#: how many members, events and searches the mix cycles through
CHOSEN = 64


# --- The mix --------------------------------------------------------------------------------


#: The kinds of request of the mix, in the order each client takes them (and each kind
#: once in every ten requests): a name, and its path from the chosen member (``member``,
#: ``search`` a search for its name) and event (``event``) and the list's date (``as_of``).
MIX: tuple[tuple[str, str], ...] = (
    ("home", "/"),
    ("members", "/members?q={search}"),
    ("player", "/players/{member}"),
    ("events", "/events"),
    ("event", "/events/{event}"),
    ("list", "/list?as_of={as_of}"),
    ("api_members", "/api/members?q={search}"),
    ("api_player", "/api/players/{member}"),
    ("api_event", "/api/events/{event}"),
    ("static", "/static/style.css"),
)


def list_path(as_of: date) -> str:
    """The first page of the rating list, as of the year's last day: the page the figures
    time does not depend on the day they run."""
    return f"/list?as_of={as_of.isoformat()}"


def request_plan(year: Year, seed: int) -> list[tuple[str, str]]:
    """The mix, ``CHOSEN`` times over: each time with another member (one who played in
    the year), its name as the search, and another event, all drawn from the seed."""
    rng = random.Random(seed)
    names = {p.id: p.name for e in year.events for s in e.sections for p in s.players}
    members = rng.sample(sorted(names), min(CHOSEN, len(names)))
    events = [e.id for e in rng.sample(year.events, min(CHOSEN, len(year.events)))]
    as_of = last_day(year).isoformat()
    plan = []
    for i in range(CHOSEN):
        member, event = members[i % len(members)], events[i % len(events)]
        values = {"member": member, "event": event, "as_of": as_of,
                  "search": quote_plus(names[member] or member)}
        plan += [(kind, path.format(**values)) for kind, path in MIX]
    return plan


def last_day(year: Year) -> date:
    return max(e.end_date for e in year.events)


# --- The client -----------------------------------------------------------------------------


class Client:
    """One keep-alive connection to the server; reconnects when the server closed it."""

    def __init__(self, port: int):
        self.port = port
        self.connection: http.client.HTTPConnection | None = None

    def get(self, path: str) -> tuple[int, int]:
        """GET ``path``: the status and the bytes of the body (as sent: gzipped or not)."""
        for attempt in (1, 2):
            fresh = self.connection is None
            if self.connection is None:
                self.connection = http.client.HTTPConnection(HOST, self.port,
                                                             timeout=REQUEST_TIMEOUT_S)
            try:
                self.connection.request("GET", path, headers=HEADERS)
                response = self.connection.getresponse()
                body = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if fresh or attempt == 2:  # not a kept connection the server had closed
                    raise
                continue
            except (OSError, http.client.HTTPException):
                self.close()
                raise
            if response.will_close:
                self.close()
            return response.status, len(body)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


@dataclass
class Sample:
    kind: str
    status: int  #: 0: no answer (the error says why)
    ms: float
    size: int
    error: str = ""


@dataclass
class LoadRun:
    seconds: float  #: from the clients' start to the last answer
    samples: list[Sample]
    client_cpu_s: float  #: CPU time of this process (the clients) during the run
    server_cpu_s: float | None  #: CPU time of the server during the run

    @property
    def answered(self) -> list[Sample]:
        return [s for s in self.samples if s.status == 200]

    @property
    def failed(self) -> list[Sample]:
        return [s for s in self.samples if s.status != 200]

    @property
    def per_s(self) -> float:
        return len(self.answered) / self.seconds


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile (0.95: the 95th percentile), interpolated between the two
    nearest values (as ``statistics.quantiles`` with the inclusive method)."""
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    place = share * (len(ordered) - 1)
    low = int(place)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (place - low)


def load(port: int, plan: Sequence[tuple[str, str]], clients: int, seconds: float,
         server_pid: int) -> LoadRun:
    """``clients`` threads send the plan's requests in turn (each takes the next one not
    taken) for ``seconds``, then finish the request they are in."""
    taken = itertools.count()  # next() on it is one C call: safe across threads
    outcomes: list[list[Sample]] = [[] for _ in range(clients)]
    finished = [0.0] * clients
    clock: dict[str, float] = {}
    stop = threading.Event()

    def begin() -> None:  # run by one thread when all have reached the barrier
        clock["start"] = time.perf_counter()
        clock["deadline"] = clock["start"] + seconds

    barrier = threading.Barrier(clients, action=begin)

    def work(k: int) -> None:
        client, out = Client(port), outcomes[k]
        try:
            barrier.wait()
            while not stop.is_set() and time.perf_counter() < clock["deadline"]:
                kind, path = plan[next(taken) % len(plan)]
                start = time.perf_counter()
                try:
                    status, size = client.get(path)
                    error = ""
                except (OSError, http.client.HTTPException) as problem:
                    status, size, error = 0, 0, f"{type(problem).__name__}: {problem}"
                out.append(Sample(kind, status, (time.perf_counter() - start) * 1e3, size,
                                  error))
        except threading.BrokenBarrierError:
            return
        finally:
            finished[k] = time.perf_counter()
            client.close()

    threads = [threading.Thread(target=work, args=(k,), daemon=True, name=f"client-{k}")
               for k in range(clients)]
    server_before = server_cpu_s(server_pid)
    cpu_before = time.process_time()
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join(seconds + REQUEST_TIMEOUT_S + 10)
    except KeyboardInterrupt:  # the clients (daemons) end when the server is stopped
        stop.set()
        barrier.abort()
        raise
    if any(thread.is_alive() for thread in threads):  # cannot happen within the timeouts
        stop.set()
        raise RuntimeError("a client did not finish: the server stopped answering")
    client_cpu = time.process_time() - cpu_before
    server_after = server_cpu_s(server_pid)
    server_cpu = (server_after - server_before
                  if server_before is not None and server_after is not None else None)
    return LoadRun(max(finished) - clock["start"],
                   [s for out in outcomes for s in out], client_cpu, server_cpu)


def server_cpu_s(pid: int) -> float | None:
    """User and system CPU seconds so far of a process and of the processes it started
    (uvicorn's workers; their threads included), from /proc; None where /proc cannot say
    (a worker that ended meanwhile is not counted)."""
    stats: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        found = _stat(entry)
        if found is not None:
            stats[int(entry.name)] = found
    if pid not in stats:
        return None
    family, added = {pid}, True
    while added:  # each pass adds the children of those found
        more = {k for k, v in stats.items() if v[0] in family} - family
        family |= more
        added = bool(more)
    return sum(stats[k][1] for k in family) / os.sysconf("SC_CLK_TCK")


def _stat(entry: Path) -> tuple[int, int] | None:
    """The parent's id and the CPU ticks (user and system) of the process of /proc/PID."""
    try:
        fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[1]), int(fields[11]) + int(fields[12])
    except (OSError, ValueError, IndexError):
        return None


# --- The server -----------------------------------------------------------------------------


class ServeError(Exception):
    """`uscf serve` did not start, or stopped answering: the figures are not measured."""


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path
    started_s: float = 0.0  #: seconds from the start of the process to its first answer

    def tail(self, lines: int = 15) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def _parent_death_signal() -> Callable[[], None] | None:
    """On Linux, a function for ``preexec_fn`` that has the child sent SIGTERM when this
    process dies (prctl PR_SET_PDEATHSIG): a server is never left running, even if the
    benchmark is killed. The C function is found here, before the fork."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None

    def arm() -> None:
        prctl(1, int(signal.SIGTERM))  # 1: PR_SET_PDEATHSIG

    return arm


@contextmanager
def serving(ctx: Context, url: str) -> Iterator[Server]:
    """`uscf serve --db URL` on 127.0.0.1 and a free port, once it answers; stopped at
    the end, whatever happens."""
    port = free_port()
    log_path = ctx.workdir / f"serve-{port}.log"
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    env.pop("USCF_DB", None)
    command = [*uscf_command(), "serve", "--db", url, "--host", HOST, "--port", str(port)]
    with open(log_path, "wb") as log:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log,
                                   stderr=subprocess.STDOUT, env=env, cwd=ctx.workdir,
                                   preexec_fn=_parent_death_signal())
    server = Server(process, port, log_path)
    try:
        _wait_until_up(server)
        server.started_s = time.perf_counter() - start
        yield server
    finally:
        stop_server(process)


def _wait_until_up(server: Server) -> None:
    deadline = time.monotonic() + UP_TIMEOUT_S
    client = Client(server.port)
    try:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise ServeError(f"uscf serve exited with {server.process.returncode}:\n"
                                 f"{server.tail()}")
            try:
                status, _ = client.get("/")
            except (OSError, http.client.HTTPException):
                time.sleep(0.1)
                continue
            if status == 200:
                return
            raise ServeError(f"uscf serve answered GET / with {status}:\n{server.tail()}")
    finally:
        client.close()
    raise ServeError(f"uscf serve did not answer within {UP_TIMEOUT_S:g} s:\n{server.tail()}")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM (uvicorn shuts down cleanly), then SIGKILL after 10 s; reaped either way.
    A Ctrl-C meanwhile does not leave it running."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    finally:
        signal.signal(signal.SIGINT, previous)


# --- The figures ----------------------------------------------------------------------------


def missing_web_extra() -> str | None:
    absent = [name for name in WEB_EXTRA if importlib.util.find_spec(name) is None]
    if absent:
        return (f"the web app needs the `web` extra ({', '.join(absent)} missing): "
                "pip install -e '.[web]'")
    return None


def not_measured(reason: str) -> list[Figure]:
    """The web figures, each without a value, saying why."""
    return [Figure("web_list_page_ms", None, "ms", 0, "", ("<=", LIST_PAGE_MS), note=reason),
            Figure("web_list_page_first_ms", None, "ms", 0, "", note=reason),
            Figure("web_mix_requests_per_s", None, "requests/s", 0, "",
                   (">=", MIX_REQUESTS_PER_S), note=reason),
            Figure("web_mix_p50_ms", None, "ms", 0, "", note=reason),
            Figure("web_mix_p95_ms", None, "ms", 0, "", note=reason),
            Figure("web_mix_ms_by_request", None, "ms", 0, "", note=reason)]


def list_members(url: str, as_of: date) -> int:
    """The members on the rating list (Regular) as of ``as_of``: the office's own query,
    the one the page shows the first rows of."""
    from uscf_ratings.core.model import System
    from uscf_ratings.office import queries
    from uscf_ratings.office.office import Office

    office = Office(url)
    try:
        with office.engine.connect() as c:
            return len(queries.rating_list(c, as_of, System.R))
    finally:
        office.engine.dispose()


def web_figures(ctx: Context) -> list[Figure]:
    """web_list_page_ms and web_mix_*: `uscf serve` on the year's database, over
    loopback."""
    reason = missing_web_extra()
    if reason:
        return not_measured(reason)
    url = filled_db(ctx, "a database for the web app")
    year = ctx.year
    as_of = last_day(year)
    members = list_members(url, as_of)
    plan = request_plan(year, ctx.seed)
    try:
        with serving(ctx, url) as server:
            ctx.say(f"uscf serve answers on {HOST}:{server.port} "
                    f"({server.started_s:.1f} s after its start)")
            return _measure(ctx, server, plan, as_of, members)
    except ServeError as error:
        ctx.say(f"the web figures are not measured: {error}")
        return not_measured(f"not measured: {error}".splitlines()[0])
    except KeyboardInterrupt:
        raise Stopped("the web figures were interrupted; the server was stopped") from None


def _measure(ctx: Context, server: Server, plan: list[tuple[str, str]], as_of: date,
             members: int) -> list[Figure]:
    sizes = ctx.sizes
    client = Client(server.port)
    page = list_path(as_of)
    try:
        # the first request for the list, before any other: it may make what the later
        # ones read (the app may keep the list it made)
        start = time.perf_counter()
        first_status, _ = client.get(page)
        first_ms = (time.perf_counter() - start) * 1e3
        for kind, path in plan[:len(MIX)]:  # warm: each kind once (templates, the caches)
            status, _ = client.get(path)
            if status != 200:
                ctx.say(f"warning: GET {path} ({kind}) answered {status}")
        status, size = client.get(page)
        times = []
        bar = ctx.progress("the rating list's first page, alone", sizes.web_list_runs,
                           "requests")
        with collector_off():
            for _ in range(sizes.web_list_runs):
                start = time.perf_counter()
                status, size = client.get(page)
                times.append((time.perf_counter() - start) * 1e3)
                if status != 200:
                    break
                bar.advance()
        bar.close()
    except (OSError, http.client.HTTPException) as error:
        raise ServeError(f"{type(error).__name__}: {error}\n{server.tail()}") from None
    finally:
        client.close()
    runs: list[LoadRun] = []
    bar = ctx.progress(f"the mix: {sizes.web_clients} clients, {sizes.web_seconds:g} s a run",
                       sizes.web_runs, "runs")
    for _ in range(sizes.web_runs):
        with collector_off():
            try:
                runs.append(load(server.port, plan, sizes.web_clients, sizes.web_seconds,
                                 server.process.pid))
            except RuntimeError as error:
                raise ServeError(f"{error}\n{server.tail()}") from None
        bar.advance()
        if server.process.poll() is not None:
            raise ServeError(f"uscf serve exited with {server.process.returncode} during the "
                             f"mix:\n{server.tail()}")
    bar.close(f"{statistics.median(r.per_s for r in runs):,.0f} requests/s")
    first = Figure("web_list_page_first_ms", first_ms if first_status == 200 else None, "ms", 1,
                   f"GET {page}, the first request for the list after the server started "
                   "(before any other request but GET /)", samples=[first_ms],
                   note="for information; no target: the page's time when the server has "
                        "nothing kept for it" if first_status == 200 else
                        f"answered {first_status}: not measured")
    return [_list_figure(ctx, page, status, size, times, members), first,
            *_mix_figures(ctx, server, runs, members)]


def _list_figure(ctx: Context, page: str, status: int, size: int, times: list[float],
                 members: int) -> Figure:
    sizes = ctx.sizes
    what = (f"GET {page} (the first page of the Regular list), one request at a time on one "
            f"keep-alive connection, nothing else running, after one untimed request; "
            f"{members:,} members on the list ({ctx.year.describe(sizes.db_members)})")
    if status != 200:
        return Figure("web_list_page_ms", None, "ms", len(times), what, ("<=", LIST_PAGE_MS),
                      note=f"GET {page} answered {status}: not measured")
    federation = sizes.db_members
    at = ("" if federation >= LIST_PAGE_MEMBERS else
          f"measured on a federation of {federation:,} members ({members:,} on the list), "
          f"not the issue's {LIST_PAGE_MEMBERS:,} (python -m bench --full for that); ")
    return Figure("web_list_page_ms", statistics.median(times), "ms", len(times), what,
                  ("<=", LIST_PAGE_MS), samples=times,
                  note=f"{at}{size / 1024:,.1f} KiB on the wire (gzip asked for); request "
                       "sent to last byte read, over loopback")


def _mix_figures(ctx: Context, server: Server, runs: list[LoadRun], members: int
                 ) -> list[Figure]:
    sizes = ctx.sizes
    what = (f"`uscf serve` (uvicorn, {_workers()}) on {HOST}, with "
            f"{ctx.year.describe(sizes.db_members)} in SQLite ({members:,} on the list); "
            f"{sizes.web_clients} clients (threads of the benchmark's process on the same "
            f"machine, a keep-alive connection each, gzip asked for), each sending its next "
            f"request when the last is answered, for {sizes.web_seconds:g} s a run; the mix, "
            f"in turn: " + ", ".join(path.split("?")[0] for _, path in MIX) +
            " (the /list and /members pages: their first page)")
    per_s = [r.per_s for r in runs]
    p50 = [percentile([s.ms for s in r.answered], 0.5) for r in runs if r.answered]
    p95 = [percentile([s.ms for s in r.answered], 0.95) for r in runs if r.answered]
    by_kind: dict[str, float] = {}
    for kind, _ in MIX:
        medians = [statistics.median(x) for r in runs
                   if (x := [s.ms for s in r.answered if s.kind == kind])]
        if medians:
            by_kind[kind] = statistics.median(medians)
    failed = [s for r in runs for s in r.failed]
    sent = sum(len(r.samples) for r in runs)
    load_note = _cpu_note(runs)
    failures = ""
    if failed:
        counts: dict[str, int] = {}
        for s in failed:
            key = f"{s.kind} {s.status or s.error.split(':')[0]}"
            counts[key] = counts.get(key, 0) + 1
        failures = (f"; {len(failed):,} of {sent:,} requests FAILED ("
                    + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items()))
                    + "), left out of every figure")
        ctx.say("warning: " + failures[2:])
    per_request = (f"{sent:,} requests in {len(runs)} run(s)" + failures)
    return [
        Figure("web_mix_requests_per_s", statistics.median(per_s), "requests/s", len(runs),
               what, (">=", MIX_REQUESTS_PER_S), samples=per_s,
               note=f"answers (200) per second, from the clients' start to the last answer; "
                    f"{per_request}; {load_note}"),
        Figure("web_mix_p50_ms", statistics.median(p50) if p50 else None, "ms", len(runs),
               "the median latency of the mix's requests under that load (request sent to "
               "last byte read)", samples=p50, note="for information; no target"),
        Figure("web_mix_p95_ms", statistics.median(p95) if p95 else None, "ms", len(runs),
               "the 95th percentile of the same latencies", samples=p95,
               note="for information; no target"),
        Figure("web_mix_ms_by_request", by_kind or None, "ms", len(runs),
               "the median latency of each kind of request of the mix, under that load",
               note="for information: where the mix's time goes"),
    ]


def _workers() -> str:
    """The server's workers: `uscf serve` starts one per CPU available by default."""
    from uscf_ratings.cli.serve import default_workers

    workers = default_workers()
    return f"{workers} worker processes (the default)" if workers > 1 else "one process"


def _cpu_note(runs: list[LoadRun]) -> str:
    """How busy the server and the clients kept the machine's cores."""
    seconds = sum(r.seconds for r in runs)
    parts = [f"the clients used {sum(r.client_cpu_s for r in runs) / seconds:.0%} of a core"]
    if all(r.server_cpu_s is not None for r in runs):
        busy = sum(r.server_cpu_s or 0.0 for r in runs) / seconds
        parts.insert(0, f"the server (its processes together) used {busy:.0%} of a core")
    return ", ".join(parts) + f" (of {os.cpu_count()})"

