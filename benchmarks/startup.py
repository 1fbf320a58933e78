"""Start-up and heuristic trees: what a whole process costs before any work, and the work.

Run: .venv/bin/python benchmarks/startup.py [--repeats 5]

Whole processes, best of ``--repeats`` each (after a warm-up run that writes the bytecode and
numba's cache, as an installed copy has them: the variable PYTHONDONTWRITEBYTECODE is dropped):

* the floor under any command that runs a compiled kernel: Python itself, NumPy, numba, and
  one minimal cached numba function called once (numba readies its compiler's registries on
  the first call, even when the code comes from its cache);
* ``bullscows --help`` and ``bullscows tree --rules bc --strategy H`` for the four heuristics
  (built by the serial builder compiled ahead of time at installation, when it is there: the
  first lines printed say whether the modules compiled ahead of time are in use; without
  them, by numba's compilation);
* the whole-process pairs of ``benchmarks/versus.py`` that start-up weighs on most: the
  ``entropy`` tree of ``p5c10n``, the ``p4c9n`` optimum (a search of about half a second) and
  the ``mm`` optimum (a twentieth of a second), each with an empty cache folder, as there;
  and a process importing what ``bullscows tree --strategy optimal`` imports, and no more (the
  rest of the ``mm`` command's time is its work: the search, the tree written to the cache
  folder and the figures printed).

Then in one process, best of ``--repeats``: the trees of the four heuristics over every ``bc``
secret, and the entropy tree of ``p5c10n`` (30240 codes).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLOOR = """
import numpy as np
from numba import njit

@njit(cache=True)
def total(a):
    return a.sum()

total(np.arange(3))
"""

#: What ``bullscows tree --strategy optimal`` imports before it searches.
OPTIMAL_IMPORTS = """
import bullscows.cli, bullscows.cli.tree, bullscows.outcomes, bullscows.search.optimal
from bullscows._kernels import ahead
ahead.load(ahead.SEARCH)
"""

HEURISTICS = ("minimax", "expected-size", "entropy", "most-parts")


def ahead_of_time() -> list[str]:
    """Whether this copy's modules compiled ahead of time are in use, and why not."""
    try:
        from bullscows._kernels import ahead
    except ImportError:
        return ["none in this version"]
    said = []
    for name in (ahead.TREES, ahead.SEARCH):
        module, why = ahead.load(name)
        said.append(f"{name}: " + ("in use, " if module is not None else "not in use: ") + why)
    return said


def whole(command: list[str], env: dict[str, str], repeats: int) -> tuple[float, float]:
    """The best of ``repeats`` runs of ``command``, after one run to warm up: wall-clock
    seconds, and CPU seconds (user and system, every thread: less at the mercy of other
    processes on a shared machine)."""
    subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
    best, cpu = float("inf"), float("inf")
    for _ in range(repeats):
        shutil.rmtree(env["BULLSCOWS_CACHE"], ignore_errors=True)  # a searched tree is kept
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        cpu = min(cpu, used)
    return best, cpu


def in_process(spec: str, name: str, repeats: int) -> tuple[int, float]:
    """The tree's total and the best time of building it (after a first build)."""
    from bullscows.outcomes import build_tree
    from bullscows.rules import Rules
    from bullscows.strategies import get_strategy

    rules, strategy = Rules.parse(spec), get_strategy(name)
    total = build_tree(rules, strategy).stated
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        build_tree(rules, strategy)
        best = min(best, time.perf_counter() - start)
    assert total is not None
    return total.total, best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, metavar="N")
    args = parser.parse_args(argv)
    python = sys.executable
    bullscows = str(Path(python).with_name("bullscows"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    load = os.getloadavg()[0]
    print("compiled ahead of time:", *ahead_of_time(), sep="\n  ")
    print(f"{os.cpu_count()} cores, load average {load:.1f} at the start; whole processes, best of "
          f"{args.repeats}\n")  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="startup-") as scratch:
        floor = Path(scratch) / "floor.py"
        floor.write_text(FLOOR, encoding="utf-8")
        env["BULLSCOWS_CACHE"] = str(Path(scratch) / "cache")
        rows = [
            ("python -c pass", [python, "-c", "pass"]),
            ("import numpy", [python, "-c", "import numpy"]),
            ("import numpy, numba", [python, "-c", "import numpy, numba"]),
            ("one cached numba function", [python, str(floor)]),
            ("bullscows --help", [bullscows, "--help"]),
            *(
                (
                    f"bullscows tree --rules bc --strategy {name}",
                    [bullscows, "tree", "--rules", "bc", "--strategy", name],
                )
                for name in HEURISTICS
            ),
            (
                "bullscows tree --rules p5c10n --strategy entropy",
                [bullscows, "tree", "--rules", "p5c10n", "--strategy", "entropy"],
            ),
            *(
                (
                    f"bullscows tree --rules {spec} --strategy optimal",
                    [bullscows, "tree", "--rules", spec, "--strategy", "optimal"],
                )
                for spec in ("p4c9n", "mm")
            ),
            ("the imports of `tree --strategy optimal`", [python, "-c", OPTIMAL_IMPORTS]),
        ]
        print("| process | seconds | CPU seconds |\n|---|---|---|")
        for label, command in rows:
            seconds, cpu = whole(command, env, args.repeats)
            print(f"| {label} | {seconds:.3f} | {cpu:.3f} |", flush=True)
    print("\nin one process, best of", args.repeats)
    print("| tree | total | seconds |\n|---|---|---|")
    for spec, name in [("bc", h) for h in HEURISTICS]:
        total, seconds = in_process(spec, name, args.repeats)
        print(f"| {spec} {name} | {total:,} | {seconds:.3f} |", flush=True)
    total, seconds = in_process("p5c10n", "entropy", max(1, args.repeats // 2))
    print(f"| p5c10n entropy | {total:,} | {seconds:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
