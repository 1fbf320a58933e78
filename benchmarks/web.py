"""The web app under load: N games at once over loopback against the real server.

Run: .venv/bin/python benchmarks/web.py [--games 20] [--rounds 5] [--rules bc] [--url URL]

Without ``--url`` it starts ``bullscows serve`` on 127.0.0.1 and a free port over a fresh
SQLite file, waits for it (kernels warm), and stops it at the end. Each game is played on the
server alone: ``hint`` asks for the hint strategy's guess (minimax), ``guess`` plays it, until
the code is broken; then ``node`` walks the shipped optimal tree of the variant from the root
to the same secret. Every request is timed from the client; the script prints the
latency percentiles of each kind of request, and the requests per second over the whole run.
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from collections import defaultdict

import httpx

from bullscows import Code, Rules, score
from bullscows.web.process import serving


def play(base: str, rules: str, timings: dict[str, list[float]], lock: threading.Lock) -> int:
    """One game played by hints; how many guesses it took."""
    with httpx.Client(base_url=base, timeout=60) as client:

        def call(kind: str, method: str, path: str, **kwargs: object) -> dict[str, object]:
            start = time.perf_counter()
            response = client.request(method, path, **kwargs)  # type: ignore[arg-type]
            elapsed = time.perf_counter() - start
            response.raise_for_status()
            with lock:
                timings[kind].append(elapsed)
            body: dict[str, object] = response.json()
            return body

        game = call("new game", "POST", "/api/games", json={"mode": "play", "rules": rules})
        game_id = game["id"]
        guesses = 0
        state: dict[object, object] = {}
        for guesses in range(1, 30):  # noqa: B007 (the count is returned)
            hint = call("hint", "POST", f"/api/games/{game_id}/hint")["hint"]
            assert isinstance(hint, dict)
            moved = call("guess", "POST", f"/api/games/{game_id}/guess",
                         json={"code": hint["guess"]})  # fmt: skip
            moved_state = moved["state"]
            assert isinstance(moved_state, dict)
            state = moved_state
            if state["over"]:
                break
        secret = Code(str(state["secret"]), Rules.parse(rules))
        path: list[str] = []
        while True:  # the optimal tree's path to the same secret
            node = call(
                "tree node",
                "GET",
                "/api/tree",
                params={"src": f"shipped:{rules}--optimal", "at": "/".join(path)},
            )
            guess = node["node"]["guess"]  # type: ignore[index]
            if guess == secret.text:
                return guesses
            path.append(score(Code(guess, secret.rules), secret).format("pair"))


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (0 for none)."""
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def run(base: str, games: int, rules: str, rounds: int) -> None:
    timings: dict[str, list[float]] = defaultdict(list)
    lock = threading.Lock()
    results: list[int] = []
    errors: list[BaseException] = []

    def one() -> None:
        try:
            for _ in range(rounds):
                results.append(play(base, rules, timings, lock))
        except BaseException as error:  # reported below
            errors.append(error)

    threads = [threading.Thread(target=one) for _ in range(games)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)
    seconds = time.perf_counter() - start
    if errors:
        raise SystemExit(f"{len(errors)} games failed; the first: {errors[0]!r}")
    requests = sum(len(v) for v in timings.values())
    at_once = "1 game" if games == 1 else f"{games} games at once"
    print(f"{at_once} ({rounds} each, one after another) of {rules} over loopback, "
          f"{requests} requests in "
          f"{seconds:.2f} s: {requests / seconds:.0f} requests/s; guesses per game "
          f"{min(results)}-{max(results)}")  # fmt: skip
    print(f"{'request':<10} {'count':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for kind, values in timings.items():
        p50, p90, p99 = (1000 * percentile(values, f) for f in (0.5, 0.9, 0.99))
        print(f"{kind:<10} {len(values):>6} {p50:>8.1f} {p90:>8.1f} {p99:>8.1f} "
              f"{1000 * max(values):>8.1f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games at once (default 20)")
    parser.add_argument("--rounds", type=int, default=5, help="games each plays (default 5)")
    parser.add_argument("--rules", default="bc", choices=["bc", "mm"])
    parser.add_argument("--url", help="a running server (default: start one)")
    args = parser.parse_args()
    if args.url:
        run(args.url, args.games, args.rules, args.rounds)
        return
    with tempfile.TemporaryDirectory() as folder, serving(f"sqlite:///{folder}/b.sqlite3") as base:
        play(base, args.rules, defaultdict(list), threading.Lock())  # warm: kernels, tree
        run(base, args.games, args.rules, args.rounds)


if __name__ == "__main__":
    main()
