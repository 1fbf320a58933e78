"""The server under load: concurrent players each playing whole games over HTTP.

Run: python benchmarks/web_load.py [--players 200] [--games 1000] [--workers 2]
     [--rules mm] [--heavy 4] [--url URL]

Without ``--url`` it starts ``bullscows serve --workers N`` on 127.0.0.1 and a free port over
a fresh SQLite file, and stops it at the end. Each player (an asyncio task, one HTTP
connection) starts a game, asks the server's hint and plays it, until the code is broken,
then starts the next, until ``--games`` games are played in all. It prints the moves per
second (hints and guesses), p50/p95/max per kind of request, and the peak memory of the
server's processes (all of them, sampled every half second), and the memory at each tenth of
the games, to show whether it grows.

With ``--heavy K``, K more clients at the same time ask, one after another, the heaviest
request there is: the analysis of a game of p7c8n:guesses=p7c8r (2,097,152 guesses against
40,320 secrets) after one guess, which the server stops at its budget (``--compute-seconds``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import httpx

from bullscows.web.process import serving

WIDE = "p7c8n:guesses=p7c8r"


class Run:
    """The timings of one run, per kind of request, and the memory seen."""

    def __init__(self) -> None:
        self.timings: dict[str, list[float]] = defaultdict(list)
        self.statuses: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.games = 0
        self.memory: list[int] = []
        self.peak = 0

    async def call(self, client: httpx.AsyncClient, kind: str, method: str, path: str,
                   **kwargs: object) -> httpx.Response:  # fmt: skip
        start = time.perf_counter()
        response = await client.request(method, path, **kwargs)  # type: ignore[arg-type]
        self.timings[kind].append(time.perf_counter() - start)
        self.statuses[kind][response.status_code] += 1
        return response


async def player(base: str, rules: str, run: Run, games: list[int]) -> None:
    """Games played by hints until ``games`` (a shared count left) is spent."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        while games[0] > 0:
            games[0] -= 1
            made = await run.call(client, "new game", "POST", "/api/games",
                                  json={"mode": "play", "rules": rules})  # fmt: skip
            made.raise_for_status()
            game_id = made.json()["id"]
            for _ in range(30):
                hint = await run.call(client, "hint", "POST", f"/api/games/{game_id}/hint")
                hint.raise_for_status()
                guess = await run.call(client, "guess", "POST", f"/api/games/{game_id}/guess",
                                       json={"code": hint.json()["hint"]["guess"]})  # fmt: skip
                guess.raise_for_status()
                if guess.json()["state"]["over"]:
                    break
            run.games += 1


async def heavy(base: str, run: Run, stop: asyncio.Event) -> None:
    """The analysis of a wide game, asked again and again until ``stop``."""
    async with httpx.AsyncClient(base_url=base, timeout=600) as client:
        made = await client.post("/api/games", json={"mode": "play", "rules": WIDE})
        game_id = made.json()["id"]
        await client.post(f"/api/games/{game_id}/guess", json={"code": "1234567"})
        while not stop.is_set():
            await run.call(client, "analysis", "GET", f"/api/games/{game_id}/analysis")


def tree_memory(root: int) -> int:
    """The resident memory of process ``root`` and all its descendants (bytes, Linux)."""
    children: dict[int, list[int]] = defaultdict(list)
    rss: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(entry.name))
        rss[int(entry.name)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


async def sample(pid: int | None, run: Run, total: int, stop: asyncio.Event) -> None:
    tenth = max(1, total // 10)
    while not stop.is_set():
        if pid is not None:
            memory = tree_memory(pid)
            run.peak = max(run.peak, memory)
            if run.games >= tenth * (len(run.memory) + 1):
                run.memory.append(memory)
        await asyncio.sleep(0.5)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def measure(base: str, pid: int | None, players: int, games: int, rules: str,
                  heavies: int) -> Run:  # fmt: skip
    run, stop, left = Run(), asyncio.Event(), [games]
    sampler = asyncio.create_task(sample(pid, run, games, stop))
    hammers = [asyncio.create_task(heavy(base, run, stop)) for _ in range(heavies)]
    start = time.perf_counter()
    await asyncio.gather(*(player(base, rules, run, left) for _ in range(players)))
    seconds = time.perf_counter() - start
    stop.set()
    for task in [sampler, *hammers]:
        task.cancel()
    await asyncio.gather(sampler, *hammers, return_exceptions=True)
    moves = len(run.timings["hint"]) + len(run.timings["guess"])
    print(f"{players} players, {run.games} games of {rules}"
          f"{f', {heavies} heavy clients' if heavies else ''}: {moves} moves in {seconds:.1f} s, "
          f"{moves / seconds:.0f} moves/s")  # fmt: skip
    print(f"{'request':<9} {'count':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>9}  statuses")
    for kind, values in run.timings.items():
        p50, p95 = (1000 * percentile(values, f) for f in (0.5, 0.95))
        statuses = " ".join(f"{code}x{n}" for code, n in sorted(run.statuses[kind].items()))
        print(f"{kind:<9} {len(values):>6} {p50:>8.1f} {p95:>8.1f} {1000 * max(values):>9.1f}"
              f"  {statuses}")  # fmt: skip
    if pid is not None:
        tenths = " ".join(f"{m / 2**20:.0f}" for m in run.memory)
        print(f"server memory: peak {run.peak / 2**20:.0f} MiB; at each tenth of the games "
              f"(MiB): {tenths}")  # fmt: skip
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="players at once (200)")
    parser.add_argument("--games", type=int, default=1000, help="games in all (1000)")
    parser.add_argument("--workers", type=int, default=2, help="server processes (2)")
    parser.add_argument("--rules", default="mm", help="the variant played (mm)")
    parser.add_argument("--heavy", type=int, default=0, help="heavy clients besides (0)")
    parser.add_argument("--compute-seconds", default="10", help="the server's budget (10)")
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()
    if args.url:
        asyncio.run(measure(args.url, None, args.players, args.games, args.rules, args.heavy))
        return
    options = ["--workers", str(args.workers), "--games-rate", "100000/minute",
               "--compute-seconds", args.compute_seconds]  # fmt: skip
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"sqlite:///{folder}/load.sqlite3", *options, seconds=120) as base,
    ):
        pid = server_pid(base)
        asyncio.run(measure(base, pid, min(args.players, 4), 8, args.rules, 0))  # warm
        print()
        asyncio.run(measure(base, pid, args.players, args.games, args.rules, args.heavy))


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
