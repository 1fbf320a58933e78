"""The server's light requests while it builds wide variants' universes.

Run: python benchmarks/web_builds.py [--players 20] [--games 300] [--workers 1] [--builders 2]
     [--gap 1] [--think 0.05] [--rules mm]

It starts ``bullscows serve --workers N`` over a fresh SQLite file (as ``web_load.py`` does),
plays 100 games of ``--rules`` unmeasured, then runs ``--players`` players of ``--rules`` (each
plays whole games by the server's hints, pausing about ``--think`` s before each request)
while ``--builders`` more clients each start, one after another (``--gap`` s apart), games of
p7c8n:guesses=p7c8r under a fresh alphabet each time (``p7c8n:symbols=ABCDEFGH:guesses=...``,
then ``ABCDEFGI``, ...): a variant no worker has met, so each such game builds its universe
of 2,097,152 codes anew on the request's thread. It prints the p50/p95/max of each kind of
light request, split between those in flight while some universe was being built (a wide
game's request under way) and the others, with their statuses (a hint that waits out the
server's budget is refused, 422, and its game given up), and how long the wide games took.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from bullscows.web.process import serving

if TYPE_CHECKING:
    from web_load import Run

#: Games of the light variant played before the run measured, so that it pays no start-up.
WARM_GAMES = 100
#: The letters the wide games' alphabets are drawn from (8 at a time).
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: The kind under which the wide games' requests are timed.
WIDE = "wide game"

Span = tuple[float, float]


def wide_variants() -> Iterator[str]:
    """p7c8n:guesses=p7c8r under each 8-letter alphabet in turn: variants that differ only in
    their symbols, each a universe of its own.

    >>> next(wide_variants())
    'p7c8n:symbols=ABCDEFGH:guesses=p7c8r:symbols=ABCDEFGH'
    """
    for letters in itertools.combinations(LETTERS, 8):
        symbols = "".join(letters)
        yield f"p7c8n:symbols={symbols}:guesses=p7c8r:symbols={symbols}"


def split(spans: list[tuple[str, float, float]], builds: list[Span]
          ) -> dict[str, tuple[list[float], list[float]]]:  # fmt: skip
    """For each kind of request, the durations of those in flight while a build was (their
    time overlaps a build's), and of the others.

    >>> split([("guess", 0.0, 1.0), ("guess", 2.0, 2.5), ("hint", 3.0, 4.0)], [(0.5, 2.1)])
    {'guess': ([1.0, 0.5], []), 'hint': ([], [1.0])}
    """
    kinds: dict[str, tuple[list[float], list[float]]] = {}
    for kind, start, end in spans:
        during, outside = kinds.setdefault(kind, ([], []))
        overlaps = any(start < stop and end > begin for begin, stop in builds)
        (during if overlaps else outside).append(end - start)
    return kinds


async def player(base: str, rules: str, run: Run, games: list[int], think: float, seed: int
                 ) -> None:  # fmt: skip
    """Games played by hints until ``games`` (a shared count left) is spent, pausing about
    ``think`` seconds before each request; a game whose hint is refused (a 422 when the
    hint waited out its budget) is given up, its status counted."""
    from web_load import Connection

    http, draw = Connection(base), random.Random(seed)

    async def call(kind: str, path: str, body: object = None) -> Any:
        await asyncio.sleep(draw.expovariate(1 / think) if think else 0)
        start = time.perf_counter()
        status, answer = await http.request("POST", path, body)
        run.record(kind, start, time.perf_counter(), status)
        return answer if status < 400 else None

    try:
        while games[0] > 0:
            games[0] -= 1
            made = await call("new game", "/api/games", {"mode": "play", "rules": rules})
            game = f"/api/games/{made['id']}"
            for _ in range(30):
                hint = await call("hint", f"{game}/hint")
                guess = hint and await call("guess", f"{game}/guess",
                                            {"code": hint["hint"]["guess"]})  # fmt: skip
                if not guess or guess["state"]["over"]:
                    break
            run.games += 1
    finally:
        await http.close()


async def builder(base: str, run: Run, variants: Iterator[str], gap: float,
                  stop: asyncio.Event) -> None:  # fmt: skip
    """Wide games started one after another, ``gap`` seconds apart (each a universe built),
    until ``stop``."""
    from web_load import Connection

    http = Connection(base)
    try:
        while not stop.is_set():
            await run.call(http, WIDE, "POST", "/api/games",
                           {"mode": "play", "rules": next(variants)})  # fmt: skip
            await asyncio.sleep(gap)
    finally:
        await http.close()


async def measure(base: str, args: argparse.Namespace, builders: int) -> Run:
    """Players of the light variant, with ``builders`` clients starting wide games besides."""
    from web_load import Run

    run, stop, left, variants = Run(), asyncio.Event(), [args.games], wide_variants()
    tasks = [asyncio.create_task(builder(base, run, variants, args.gap, stop))
             for _ in range(builders)]  # fmt: skip
    start = time.perf_counter()
    await asyncio.gather(*(player(base, args.rules, run, left, args.think, i)
                           for i in range(args.players)))  # fmt: skip
    run.seconds = time.perf_counter() - start
    stop.set()
    await asyncio.gather(*tasks)  # the wide games under way end
    return run


def report(run: Run, args: argparse.Namespace) -> None:
    from web import percentile  # benchmarks/web.py

    wide = run.timings.get(WIDE, [])
    print(f"{args.players} players of {args.rules} (a request every {args.think:g} s each), "
          f"{args.builders} clients starting wide games, --workers {args.workers}: "
          f"{run.games} games in {run.seconds:.1f} s; {len(wide)} wide games "
          f"(p50 {1000 * percentile(wide, 0.5):.0f} ms)")  # fmt: skip
    print(f"{'request':<9} {'while building: n':>17} {'p50':>6} {'p95':>6} {'max':>6}"
          f" {'otherwise: n':>13} {'p50':>6} {'p95':>6} {'max':>6}   (ms)")  # fmt: skip
    builds = [(start, end) for kind, start, end in run.spans if kind == WIDE]
    for kind, (during, outside) in split(run.spans, builds).items():
        if kind == WIDE:
            continue
        cells = []
        statuses = " ".join(f"{code}x{n}" for code, n in sorted(run.statuses[kind].items()))
        for values in (during, outside):
            figures = [percentile(values, f) for f in (0.5, 0.95)] + [max(values, default=0)]
            cells.append(f"{len(values):>6} " + " ".join(f"{1000 * v:6.1f}" for v in figures))
        print(f"{kind:<9} {cells[0]:>38} {cells[1]:>34}   {statuses}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=20, help="light players at once (20)")
    parser.add_argument("--games", type=int, default=300, help="their games in all (300)")
    parser.add_argument("--workers", type=int, default=1, help="server processes (1)")
    parser.add_argument("--builders", type=int, default=2, help="clients starting wide games (2)")
    parser.add_argument("--think", type=float, default=0.05,
                        help="a player's mean pause before a request, s (0.05)")  # fmt: skip
    parser.add_argument("--gap", type=float, default=1.0,
                        help="a builder's pause between wide games, s (1)")  # fmt: skip
    parser.add_argument("--rules", default="mm", help="the light variant (mm)")
    args = parser.parse_args()
    options = ["--workers", str(args.workers), "--games-rate", "100000/minute"]
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(f"sqlite:///{folder}/builds.sqlite3", *options, seconds=120) as base,
    ):
        warm = argparse.Namespace(**{**vars(args), "games": WARM_GAMES})
        asyncio.run(measure(base, warm, 0))
        report(asyncio.run(measure(base, args, args.builders)), args)


if __name__ == "__main__":
    main()
