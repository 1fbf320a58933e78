"""The server under load: concurrent players each playing whole games over HTTP.

Run: python benchmarks/web_load.py [--players 200] [--games 1000] [--workers 2]
     [--rules mm] [--heavy 4 [--repeats 3]] [--every 1000] [--url URL]

Without ``--url`` it starts ``bullscows serve --workers N`` on 127.0.0.1 and a free port over
a fresh SQLite file, and stops it at the end. Each player (an asyncio task, one keep-alive
HTTP/1.1 connection) starts a game, asks the server's hint and plays it, until the code is
broken, then starts the next, until ``--games`` games are played in all. It prints the moves
per second (hints and guesses), p50/p95/max per kind of request, the peak memory of the
server's processes (all of them, sampled every half second) and their memory at each
``--every`` games (a tenth of them by default), to show whether it grows.

With ``--heavy K`` it runs twice on the one server: without, then with K more clients at the
same time asking, one after another, the heaviest request there is: the analysis of a game
of p7c8n:guesses=p7c8r (2,097,152 guesses against 40,320 secrets) after one guess, which the
server stops at its budget (``--compute-seconds``). ``--repeats N`` makes N such pairs on
the one server, taking turns at going first, prints each pair's guess p95s and their ratio,
and reads the goal on the median ratio (the p95 without heavy clients moves from run to
run: one pair says little).

It ends with a line per goal of docs/server.md that the run shows: the goal, the figure, and
whether it is met. The client is a few lines over asyncio streams, not httpx: it costs the
shared cores a tenth as much per request, so the figures are the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from bullscows.web.process import serving
from web import percentile  # benchmarks/web.py

WIDE = "p7c8n:guesses=p7c8r"
#: The goals: a guess's p95 (ms) with 200 players, moves per second with 2 workers, how much
#: the heavy clients may raise the guesses' p95, how much memory may grow (MiB) over 10,000
#: games after the first thousand.
P95_MS, MOVES_PER_S, HEAVY_RATIO, GROWTH_MIB = 100.0, 500.0, 2.0, 50.0
#: Games played before the runs measured, so that the first pays no start-up.
WARM_GAMES = 200
#: Seconds between runs on the one server (the heavy clients' computations end meanwhile).
PAUSE_S = 2.0


class Connection:
    """One keep-alive HTTP/1.1 connection sending JSON and reading JSON answers."""

    def __init__(self, base: str) -> None:
        self.host, _, port = base.removeprefix("http://").partition(":")
        self.port = int(port or 80)
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        """The status and the JSON of the answer to ``method path`` with ``body`` as JSON."""
        data = b"" if body is None else json.dumps(body).encode()
        for again in (False, True):  # once more if the server closed an idle connection
            if self.streams is None:
                self.streams = await asyncio.open_connection(self.host, self.port)
            reader, writer = self.streams
            writer.write(f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
                         f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
                         "\r\n".encode() + data)  # fmt: skip
            try:
                first = await reader.readline()
            except ConnectionError:
                first = b""
            if first or again:
                break
            await self.close()
        status = int(first.split()[1])
        length, closes = 0, False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
            elif name.strip().lower() == b"connection":
                closes = value.strip().lower() == b"close"
        answer = await reader.readexactly(length)
        if closes:
            await self.close()
        return status, json.loads(answer) if answer else None

    async def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


class Run:
    """The timings of one run, per kind of request, and the memory seen."""

    def __init__(self) -> None:
        self.timings: dict[str, list[float]] = defaultdict(list)
        #: Every request's kind, start and end (``time.perf_counter``).
        self.spans: list[tuple[str, float, float]] = []
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.games = 0
        self.memory: list[tuple[int, int]] = []  # (games played, bytes)
        self.peak = 0
        self.seconds = 0.0
        #: CPU seconds per request: the server's (all its processes, its computations
        #: included), the server's without its computations, and the client's.
        self.cpu = (0.0, 0.0, 0.0)

    async def call(self, http: Connection, kind: str, method: str, path: str,
                   body: object = None) -> Any:  # fmt: skip
        start = time.perf_counter()
        status, answer = await http.request(method, path, body)
        self.record(kind, start, time.perf_counter(), status)
        if kind != "analysis" and status >= 400:
            raise RuntimeError(f"{method} {path}: {status} {answer}")
        return answer

    def record(self, kind: str, start: float, end: float, status: int) -> None:
        """A request of ``kind`` answered ``status``, sent at ``start``, answered at ``end``."""
        self.timings[kind].append(end - start)
        self.spans.append((kind, start, end))
        self.statuses[kind][status] += 1

    @property
    def moves(self) -> int:
        return len(self.timings["hint"]) + len(self.timings["guess"])

    def p95(self, kind: str) -> float:
        """The 95th percentile of ``kind``'s times, in milliseconds."""
        return 1000 * percentile(self.timings[kind], 0.95)


async def player(
    base: str, rules: str, run: Run, games: list[int], think: float, seed: int
) -> None:
    """Games played by hints until ``games`` (a shared count left) is spent, pausing about
    ``think`` seconds (drawn at random, exponentially, from the player's own ``seed``, so that
    players do not move in step) before each request."""
    http, draw = Connection(base), random.Random(seed)

    async def pause() -> None:
        if think:
            await asyncio.sleep(draw.expovariate(1 / think))

    try:
        while games[0] > 0:
            games[0] -= 1
            await pause()
            made = await run.call(http, "new game", "POST", "/api/games",
                                  {"mode": "play", "rules": rules})  # fmt: skip
            game = f"/api/games/{made['id']}"
            for _ in range(30):
                await pause()
                hint = await run.call(http, "hint", "POST", f"{game}/hint")
                await pause()
                guess = await run.call(http, "guess", "POST", f"{game}/guess",
                                       {"code": hint["hint"]["guess"]})  # fmt: skip
                if guess["state"]["over"]:
                    break
            run.games += 1
    finally:
        await http.close()


async def heavy(base: str, run: Run, stop: asyncio.Event) -> None:
    """The analysis of a wide game, asked again and again until ``stop``."""
    http = Connection(base)
    try:
        _, made = await http.request("POST", "/api/games", {"mode": "play", "rules": WIDE})
        await http.request("POST", f"/api/games/{made['id']}/guess", {"code": "1234567"})
        while not stop.is_set():
            await run.call(http, "analysis", "GET", f"/api/games/{made['id']}/analysis")
    finally:
        await http.close()


def tree_usage(root: int) -> tuple[int, float, float]:
    """The resident memory (bytes) of process ``root`` and all its descendants, the CPU time
    (seconds) they and their ended children used, and the CPU time those of them not at
    niceness 19 (not computations) used themselves (Linux)."""
    children: dict[int, list[int]] = defaultdict(list)
    usage: dict[int, tuple[int, float, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(entry.name))
        cpu = sum(int(f) for f in fields[11:15]) / tick  # utime stime cutime cstime
        own = 0.0 if int(fields[16]) >= 19 else sum(int(f) for f in fields[11:13]) / tick
        usage[int(entry.name)] = (int(fields[21]) * os.sysconf("SC_PAGE_SIZE"), cpu, own)
    memory, cpu, own, stack = 0, 0.0, 0.0, [root]
    while stack:
        pid = stack.pop()
        found = usage.get(pid, (0, 0.0, 0.0))
        memory, cpu, own = memory + found[0], cpu + found[1], own + found[2]
        stack.extend(children.get(pid, []))
    return memory, cpu, own


def _cpu(pid: int | None) -> tuple[float, float]:
    """The server's CPU time so far: all of it, and without its computations."""
    return (0.0, 0.0) if pid is None else tree_usage(pid)[1:]


async def sample(pid: int | None, run: Run, every: int, stop: asyncio.Event) -> None:
    """The server's memory every half second: its peak, and its size at each ``every``
    games."""
    while not stop.is_set():
        if pid is not None:
            memory = tree_usage(pid)[0]
            run.peak = max(run.peak, memory)
            if run.games >= every * (len(run.memory) + 1):
                run.memory.append((run.games, memory))
        await asyncio.sleep(0.5)


async def measure(base: str, pid: int | None, players: int, games: int, rules: str,
                  heavies: int = 0, every: int = 0, think: float = 0.0) -> Run:  # fmt: skip
    """One run: ``games`` games by ``players`` players thinking ``think`` seconds before each
    request (and ``heavies`` heavy clients)."""
    run, stop, left = Run(), asyncio.Event(), [games]
    sampler = asyncio.create_task(sample(pid, run, every or max(1, games // 10), stop))
    hammers = [asyncio.create_task(heavy(base, run, stop)) for _ in range(heavies)]
    start, mine, theirs = time.perf_counter(), time.process_time(), _cpu(pid)
    await asyncio.gather(*(player(base, rules, run, left, think, i) for i in range(players)))
    run.seconds = time.perf_counter() - start
    requests = sum(len(values) for values in run.timings.values())
    now = _cpu(pid)
    run.cpu = ((now[0] - theirs[0]) / requests, (now[1] - theirs[1]) / requests,
               (time.process_time() - mine) / requests)  # fmt: skip
    if pid is not None and run.memory and run.memory[-1][0] < run.games:
        run.memory.append((run.games, tree_usage(pid)[0]))  # and at the end
    stop.set()
    for task in [sampler, *hammers]:
        task.cancel()
    await asyncio.gather(sampler, *hammers, return_exceptions=True)
    report(run, players, rules, heavies, pid is not None, think)
    return run


def report(run: Run, players: int, rules: str, heavies: int, memory: bool, think: float
           ) -> None:  # fmt: skip
    pace = f" thinking {think:g} s a request" if think else ""
    print(f"{players} players{pace}, {run.games} games of {rules}"
          f"{f', {heavies} heavy clients' if heavies else ''}: {run.moves} moves in "
          f"{run.seconds:.1f} s, {run.moves / run.seconds:.0f} moves/s")  # fmt: skip
    print(f"{'request':<9} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>9}  statuses")
    for kind, values in run.timings.items():
        p50, p95 = (1000 * percentile(values, f) for f in (0.5, 0.95))
        statuses = " ".join(f"{code}x{n}" for code, n in sorted(run.statuses[kind].items()))
        print(f"{kind:<9} {len(values):>6} {p50:>8.1f} {p95:>8.1f} {1000 * max(values):>9.1f}"
              f"  {statuses}")  # fmt: skip
    if memory:
        print(f"CPU per request: server {1000 * run.cpu[0]:.2f} ms (without its "
              f"computations {1000 * run.cpu[1]:.2f} ms), this client "
              f"{1000 * run.cpu[2]:.2f} ms")  # fmt: skip
        seen = " ".join(f"{games}:{size / 2**20:.0f}" for games, size in run.memory)
        print(f"server memory: peak {run.peak / 2**20:.0f} MiB; after games played (MiB): {seen}")


def goals(run: Run, players: int, workers: int, pairs: list[tuple[Run, Run]], think: float
          ) -> list[str]:  # fmt: skip
    """A line per goal the runs show: the goal, the figure, met or not (moves per second
    only when the players do not pause: then the server is saturated). ``pairs``: the runs
    without and with heavy clients, read by their medians."""
    lines, calms = [], [calm for calm, _ in pairs] or [run]

    def goal(text: str, figure: str, met: bool) -> None:
        lines.append(f"goal: {text}: {figure}: {'met' if met else 'NOT met'}")

    load = "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())
    if players >= 200:
        p95 = statistics.median(calm.p95("guess") for calm in calms)
        pace = f" (a request every {think:g} s each)" if think else " (no pause)"
        median = f" (median of {len(calms)})" if len(calms) > 1 else ""
        goal(f"{players} concurrent games{pace}, guess p95 <= {P95_MS:g} ms{median}",
             f"{p95:.1f} ms", p95 <= P95_MS)  # fmt: skip
    if workers == 2 and not think:
        rate = statistics.median(calm.moves / calm.seconds for calm in calms)
        goal(f">= {MOVES_PER_S:g} moves/s with --workers 2", f"{rate:.0f} moves/s",
             rate >= MOVES_PER_S)  # fmt: skip
    if pairs:
        ratios = [ratio(pair) for pair in pairs]
        middle = statistics.median(ratios)
        seen = "; ".join(f"{c.p95('guess'):.1f} -> {h.p95('guess'):.1f} ms" for c, h in pairs)
        each = ", ".join(f"{r:.2f}" for r in ratios)
        text = f"heavy clients raise guess p95 at most {HEAVY_RATIO:g}x (median of {len(pairs)})"
        goal(text, f"{middle:.2f}x ({seen}: {each})", middle <= HEAVY_RATIO)
    if run.games >= 10_000 and len(run.memory) >= 2:
        (first, low), (last, high) = run.memory[0], run.memory[-1]
        growth = (high - low) / 2**20
        goal(f"memory flat over {run.games:,} games (grows <= {GROWTH_MIB:g} MiB after the "
             f"first {first:,})", f"{low / 2**20:.0f} MiB at {first:,} games, "
             f"{high / 2**20:.0f} MiB at {last:,}", growth <= GROWTH_MIB)  # fmt: skip
    return [*lines, f"({load}; {os.cpu_count()} cores, client included)"]


def ratio(pair: tuple[Run, Run]) -> float:
    """How many times the heavy clients raised the guesses' p95: with / without."""
    calm, loaded = pair
    return loaded.p95("guess") / calm.p95("guess")


def pairs_of(base: str, pid: int | None, args: argparse.Namespace) -> list[tuple[Run, Run]]:
    """``args.repeats`` runs without and with ``args.heavy`` heavy clients, taking turns at
    going first (without, in the first), each pair printed with its ratio."""
    pairs = []
    for repeat in range(args.repeats):
        if repeat:
            time.sleep(PAUSE_S)  # the last pair's computations stopped, its games written
        runs: dict[bool, Run] = {}
        for loaded in (False, True) if repeat % 2 == 0 else (True, False):
            if runs:
                time.sleep(PAUSE_S)  # the last run's computations stopped, its games written
            runs[loaded] = asyncio.run(measure(
                base, pid, args.players, args.games, args.rules, args.heavy if loaded else 0,
                args.every, args.think))  # fmt: skip
            print()
        pair = (runs[False], runs[True])
        pairs.append(pair)
        print(f"pair {repeat + 1} of {args.repeats}: guess p95 {pair[0].p95('guess'):.1f} ms "
              f"without, {pair[1].p95('guess'):.1f} ms with {args.heavy} heavy clients: "
              f"{ratio(pair):.2f}x\n")  # fmt: skip
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="players at once (200)")
    parser.add_argument("--games", type=int, default=1000, help="games in all (1000)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (2)")
    parser.add_argument("--rules", default="mm", help="the variant played (mm)")
    parser.add_argument("--heavy", type=int, default=0, help="heavy clients besides (0)")
    parser.add_argument("--repeats", type=int, default=1,
                        help="pairs of runs without and with the heavy clients (1)")  # fmt: skip
    parser.add_argument("--think", type=float, default=0.0,
                        help="a player's mean pause before each request, seconds (0)")  # fmt: skip
    parser.add_argument("--every", type=int, default=0, help="memory every N games (tenths)")
    parser.add_argument("--compute-seconds", default="10", help="the server's budget (10)")
    parser.add_argument("--durability", default="process", help="the server's (process)")
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()
    if args.url:
        asyncio.run(measure(args.url, None, args.players, args.games, args.rules, args.heavy,
                            think=args.think))  # fmt: skip
        return
    options = ["--workers", str(args.workers), "--games-rate", "100000/minute", "--durability",
               args.durability, "--compute-seconds", args.compute_seconds]  # fmt: skip
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"sqlite:///{folder}/load.sqlite3", *options, seconds=120) as base,
    ):
        pid = server_pid(base)
        asyncio.run(measure(base, pid, min(args.players, 32), WARM_GAMES, args.rules))
        print()
        if args.heavy:
            pairs = pairs_of(base, pid, args)
            run = pairs[-1][1]
        else:
            pairs = []
            run = asyncio.run(measure(base, pid, args.players, args.games, args.rules,
                                      every=args.every, think=args.think))  # fmt: skip
            print()
        print("\n".join(goals(run, args.players, args.workers, pairs, args.think)))


def server_pid(base: str) -> int | None:
    """The process listening at ``base`` (its ``serve`` command), read from /proc."""
    port = int(base.rsplit(":", 1)[1])
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve" in command and str(port).encode() in command:
                return int(entry.name)
    return None


if __name__ == "__main__":
    main()
