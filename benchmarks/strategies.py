"""Speed of the heuristic strategies (the figures docs/explanation/performance.md quotes).

Run: .venv/bin/python benchmarks/strategies.py

* whole process: ``bullscows bench --rules R --strategy S`` from start to exit, best of three
  (Python's start-up, imports and loading the cached kernels included);
* one move on 6 distinct digits of 10 (151200 codes): the first move, and the second after the
  reply that leaves the most codes, each heuristic in a fresh process so no cache helps;
* where the time goes in a tree (the compiled kernels against the rest);
* how a tree's time grows with the number of codes.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bullscows.outcomes import guess_counts
from bullscows.rules import Rules
from bullscows.strategies import get_strategy
from bullscows.universe import Universe, universe

BIN = Path(sys.executable).parent
HEURISTICS = ["minimax", "expected-size", "entropy", "most-parts"]
MOVE = """
import sys, time, numpy as np
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies import get_strategy
strategy, knowledge = get_strategy(sys.argv[1]), Knowledge.start(Rules.parse("p6c10n"))
knowledge.universe.score_row(0)  # build the universe and load the kernels first
start = time.perf_counter()
first = strategy.next_guess(knowledge, None)
one = time.perf_counter() - start
sizes = np.bincount(knowledge.universe.score_row(first), minlength=49)
after = knowledge.after(knowledge.code(first), Feedback.from_index(int(sizes.argmax()), 6))
start = time.perf_counter()
strategy.next_guess(after, None)
print(one, time.perf_counter() - start, len(after))
"""


def whole_process(spec: str, strategy: str) -> float:
    command = [str(BIN / "bullscows"), "bench", "--rules", spec, "--strategy", strategy, "--json"]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def whole_processes() -> None:
    print("whole process, bullscows bench --rules R --strategy S (best of 3):")
    for spec, names in (("mm", HEURISTICS), ("bc", HEURISTICS), ("p5c10n", ["entropy"])):
        for name in names:
            print(f"  {spec:<7} {name:<14} {whole_process(spec, name):6.2f} s")


def single_moves() -> None:
    print("one move on p6c10n (151200 codes), each in a fresh process:")
    for name in HEURISTICS:
        out = subprocess.run(
            [sys.executable, "-c", MOVE, name], check=True, capture_output=True, text=True
        ).stdout.split()
        first, second, left = float(out[0]), float(out[1]), int(out[2])
        print(f"  {name:<14} move 1 {first:6.3f} s, move 2 ({left} codes left) {second:6.3f} s")


def where_the_time_goes(spec: str, name: str) -> tuple[float, float]:
    """Seconds of a whole tree, and of those the seconds inside ``Universe`` scoring calls and
    the compiled tree builder."""
    rules = Rules.parse(spec)
    universe(rules).score_row(0)
    spent = [0.0]
    methods = {m: getattr(Universe, m) for m in ("guess_costs", "partition_sizes", "score_matrix")}

    def timed(method: Callable[..., Any]) -> Callable[..., Any]:
        def run(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return method(*args, **kwargs)
            finally:
                spent[0] += time.perf_counter() - start

        return run

    from bullscows._kernels import tree_build

    for attribute, method in methods.items():
        setattr(Universe, attribute, timed(method))
    build = tree_build.build  # a heuristic's whole tree, in one compiled pass
    tree_build.build = timed(build)
    try:
        start = time.perf_counter()
        guess_counts(rules, get_strategy(name))
        total = time.perf_counter() - start
    finally:
        for attribute, method in methods.items():
            setattr(Universe, attribute, method)
        tree_build.build = build
    return total, spent[0]


def profile_and_scaling() -> None:
    print("a whole entropy tree in one process (universe built beforehand):")
    print(f"  {'variant':<8} {'codes':>7} {'seconds':>8} {'in kernels':>11}")
    for spec in ("p4c6n", "p4c8n", "bc", "p5c8n", "p5c9n", "p5c10n"):
        total, kernels = where_the_time_goes(spec, "entropy")
        size = Rules.parse(spec).size
        print(f"  {spec:<8} {size:>7} {total:>8.2f} {kernels / total:>10.0%}")


if __name__ == "__main__":
    whole_processes()
    single_moves()
    profile_and_scaling()
