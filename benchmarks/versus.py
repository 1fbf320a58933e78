"""bullscows side by side with fancidev's C++ ``mastermind-strategy`` (``mmstrat``), in one run.

Run: .venv/bin/python benchmarks/versus.py --mmstrat CHECKOUT          # every pair, once each
     .venv/bin/python benchmarks/versus.py --mmstrat CHECKOUT --only heuristic entropy-p5c10n
     .venv/bin/python benchmarks/versus.py                              # bullscows' side alone

``--mmstrat`` is a local checkout of the public source (it is never a dependency of this
project). The script copies its ``lib`` and ``src`` folders into a temporary folder, mends two
lines that compilers newer than the code reject (``<limits>`` not included by
``Engine.cpp``; an iterator compared with ``> 0`` in ``StrategyTree.cpp``), and builds
``mmstrat`` at ``-O3 -march=native`` with OpenMP; the checkout is left as it is.

Every pair is timed as a whole process on both sides (start-up included; bullscows loads its
cached kernels, which a first warm-up run of each command compiles, and its bytecode, which the
warm-up writes as an installed copy has it: PYTHONDONTWRITEBYTECODE is dropped), alternating which
program goes first from pair to pair, and printed with the ratio bullscows / mmstrat (below 1:
bullscows is faster). bullscows' trees go to a throwaway cache folder, so every optimal run
searches. With ``--repeats N`` every pair is timed N times, the order of the two programs
alternating from one repeat to the next, and each side's best is shown (for the short pairs,
where one run is mostly noise). The heuristic pairs and the small searches (``mm``, ``p4c9n``)
are then timed once more with bullscows building its trees or searching in one process
(start-up left out, best of 3 after a first run; every search starts afresh), against mmstrat's
whole processes above. Last, the floor under any bullscows command: the same Python importing
NumPy and nothing else, as a whole process (best of ``--repeats``, at least 5), beside
mmstrat's ``mm`` optimum when that pair ran.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pair:
    """One line of the table: the same work asked of both programs."""

    name: str
    work: str
    #: Each run of mmstrat's arguments and of bullscows' (several runs: timed together).
    mmstrat: tuple[tuple[str, ...], ...]
    bullscows: tuple[tuple[str, ...], ...]


_HEURISTICS: tuple[tuple[str, str], ...] = (
    ("minmax", "minimax"),
    ("minavg", "expected-size"),
    ("entropy", "entropy"),
)
_HEURISTICS += (("parts", "most-parts"),)

PAIRS: tuple[Pair, ...] = (
    Pair(
        "optimal-bc",
        "`bc` optimum 26274, 1 thread / 1 process",
        (("-r", "bc", "-s", "optimal", "-S"),),
        (("tree", "--rules", "bc", "--strategy", "optimal"),),
    ),
    Pair(
        "optimal-bc-2",
        "`bc` optimum, `-mt 2` / `--jobs 2`",
        (("-r", "bc", "-s", "optimal", "-S", "-mt", "2"),),
        (("tree", "--rules", "bc", "--strategy", "optimal", "--jobs", "2"),),
    ),
    Pair(
        "heuristic",
        "4 heuristic trees over all `bc` secrets, each a whole process",
        tuple(("-r", "bc", "-s", theirs, "-S") for theirs, _ in _HEURISTICS),
        tuple(("tree", "--rules", "bc", "--strategy", ours) for _, ours in _HEURISTICS),
    ),
    Pair(
        "entropy-p5c10n",
        "`entropy` tree of `p5c10n` (30240 codes), whole process",
        (("-r", "p5c10n", "-s", "entropy", "-S"),),
        (("tree", "--rules", "p5c10n", "--strategy", "entropy"),),
    ),
    Pair(
        "optimal-p4c9n",
        "`p4c9n` optimum 14914",
        (("-r", "p4c9n", "-s", "optimal", "-S"),),
        (("tree", "--rules", "p4c9n", "--strategy", "optimal"),),
    ),
    Pair(
        "optimal-mm",
        "`mm` optimum 5625",
        (("-r", "mm", "-s", "optimal", "-S"),),
        (("tree", "--rules", "mm", "--strategy", "optimal"),),
    ),
)


def build_mmstrat(checkout: Path, into: Path) -> Path:
    """Build ``mmstrat`` from the checkout's sources (copied into ``into``); its path."""
    if not (checkout / "lib" / "Engine.cpp").is_file():
        raise SystemExit(
            f"--mmstrat {str(checkout)[:200]!r}: no lib/Engine.cpp there; give a "
            "checkout of fancidev's mastermind-strategy"
        )
    for folder in ("lib", "src"):
        shutil.copytree(checkout / folder, into / folder)
    _mend(into / "lib" / "Engine.cpp", "#include", "#include <limits>\n#include", 1)
    _mend(into / "lib" / "StrategyTree.cpp", "(root > 0)", "(root != 0)", 1)
    binary = into / "mmstrat"
    sources = sorted(str(p) for p in (into / "lib").glob("*.cpp"))
    sources.append(str(into / "src" / "mmstrat.cpp"))
    command = [
        "g++",
        "-O3",
        "-march=native",
        "-std=c++11",
        "-fopenmp",
        "-DNDEBUG",
        "-w",
        f"-I{into / 'lib'}",
        *sources,
        "-o",
        str(binary),
    ]
    print("building mmstrat: g++ -O3 -march=native -std=c++11 -fopenmp -DNDEBUG ...", flush=True)
    subprocess.run(command, check=True)
    return binary


def _mend(path: Path, old: str, new: str, count: int) -> None:
    text = path.read_text(encoding="latin-1")
    if old in text:
        path.write_text(text.replace(old, new, count), encoding="latin-1")


def timed(command: list[str], env: dict[str, str], limit: float | None = None) -> float:
    """Seconds one whole process takes (infinite when stopped at ``limit`` seconds); its output
    is discarded (a failure stops the run)."""
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=limit
        )
    except subprocess.TimeoutExpired:
        return math.inf
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.decode()[-500:]}")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mmstrat", type=Path, metavar="PATH", help="a checkout of its source")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=[p.name for p in PAIRS],
        metavar="PAIR",
        help=f"some pairs only: {', '.join(p.name for p in PAIRS)}",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="stop a side's run after SECONDS (shown as '> SECONDS'; the ratio is then a bound)",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=1,
        metavar="N",
        help="time every pair N times, alternating which program goes first; show each best",
    )
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats {args.repeats}: give 1 or more")
    pairs = [p for p in PAIRS if args.only is None or p.name in args.only]
    bullscows = str(Path(sys.executable).with_name("bullscows"))
    with tempfile.TemporaryDirectory(prefix="versus-") as scratch:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["BULLSCOWS_CACHE"] = str(Path(scratch) / "cache")
        mmstrat = None
        if args.mmstrat is None:
            print("no --mmstrat checkout given: timing bullscows' side alone")
        else:
            mmstrat = str(build_mmstrat(args.mmstrat.resolve(), Path(scratch)))
        for pair in pairs:  # a warm-up: compiles and caches the kernels each command uses
            for run in pair.bullscows:
                if "optimal" not in run:
                    timed([bullscows, *run], env)
        timed([bullscows, "tree", "--rules", "p3c6r", "--strategy", "optimal"], env)
        best = f", best of {args.repeats}" if args.repeats > 1 else ""
        print(f"{os.cpu_count()} cores; whole processes{best}; ratio = bullscows / mmstrat\n")
        print("| work | mmstrat | bullscows | ratio | first |\n|---|---|---|---|---|")
        theirs_by_pair: dict[str, float | None] = {}
        fresh = (Path(scratch) / f"cache-{n}" for n in itertools.count())
        for index, pair in enumerate(pairs):
            seconds: dict[str, float] = {}
            first = ""  # who went first in the pair's first repeat (with mmstrat to time)
            for repeat in range(args.repeats):
                ours_first = mmstrat is None or (index + repeat) % 2 == 1
                sides = ["bullscows", "mmstrat"] if ours_first else ["mmstrat", "bullscows"]
                if repeat == 0 and mmstrat is not None:
                    first = sides[0]
                for side in sides:
                    if side == "mmstrat" and mmstrat is not None:
                        took = sum(timed([mmstrat, *r], env, args.timeout) for r in pair.mmstrat)
                    elif side == "bullscows":  # an empty cache folder: every search searches
                        took = sum(
                            timed([bullscows, *r], {**env, "BULLSCOWS_CACHE": str(next(fresh))},
                                  args.timeout)
                            for r in pair.bullscows
                        )  # fmt: skip
                    else:
                        continue
                    seconds[side] = min(took, seconds.get(side, math.inf))
            ours, theirs = seconds["bullscows"], seconds.get("mmstrat")
            theirs_by_pair[pair.name] = theirs
            print(
                f"| {pair.work} | {_shown(theirs, args.timeout)} | {_shown(ours, args.timeout)} "
                f"| {_ratio(ours, theirs, args.timeout)} | {first} |",
                flush=True,
            )
        in_process(pairs, theirs_by_pair, env)
        floor(theirs_by_pair.get("optimal-mm"), max(5, args.repeats), env)
    return 0


def floor(mm: float | None, repeats: int, env: dict[str, str]) -> None:
    """The same Python importing NumPy and nothing else, as a whole process (best of
    ``repeats``): what any bullscows command costs before its own code, beside mmstrat's whole
    ``mm`` optimum when that pair ran."""
    seconds = min(timed([sys.executable, "-c", "import numpy"], env) for _ in range(repeats))
    share = ""
    if mm is not None and not math.isinf(mm):
        share = f"; {seconds / mm:.2f} of mmstrat's `mm` optimum"
    print(f"\nPython importing NumPy, nothing else: {seconds:.3f} s (best of {repeats}){share}")


#: Times the trees of the given (rules, strategy) runs in one process: best of 3, summed. The
#: optimal strategy's trees are searched (``optimal_tree``: the tree store is not read).
_IN_PROCESS = """
import sys, time
from bullscows.outcomes import build_tree
from bullscows.rules import Rules
from bullscows.search.optimal import optimal_tree
from bullscows.strategies import get_strategy
total = 0.0
for spec, name in zip(sys.argv[1::2], sys.argv[2::2]):
    rules = Rules.parse(spec)
    if name == "optimal":
        work = lambda: optimal_tree(rules, "total")
    else:
        strategy = get_strategy(name)
        work = lambda: build_tree(rules, strategy)
    work()
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    total += best
print(total)
"""
#: The optimal searches short enough to time in one process too.
_SMALL_SEARCHES = ("optimal-mm", "optimal-p4c9n")


def in_process(pairs: list[Pair], theirs: dict[str, float | None], env: dict[str, str]) -> None:
    """The heuristic pairs' trees built, and the small searches made, in one bullscows
    process, against mmstrat's whole processes."""
    chosen = [
        p
        for p in pairs
        if p.name in _SMALL_SEARCHES or all("optimal" not in r for r in p.bullscows)
    ]
    if not chosen:
        return
    print("\n| work | bullscows in one process | ratio to mmstrat's whole processes |")
    print("|---|---|---|")
    for pair in chosen:
        trees = [arg for run in pair.bullscows for arg in (run[2], run[4])]
        done = subprocess.run(
            [sys.executable, "-c", _IN_PROCESS, *trees],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        ours, whole = float(done.stdout), theirs.get(pair.name)
        ratio = "" if whole is None else f"{ours / whole:.2f}"
        print(f"| {pair.work} | {ours:.3f} s | {ratio} |", flush=True)


def _shown(seconds: float | None, limit: float | None) -> str:
    """A table cell of seconds: empty when not run, ``> limit`` when stopped."""
    if seconds is None:
        return ""
    return f"> {limit:g} s" if math.isinf(seconds) else f"{seconds:.2f} s"


def _ratio(ours: float, theirs: float | None, limit: float | None) -> str:
    """bullscows / mmstrat, or a bound on it when one side was stopped at ``limit``."""
    if theirs is None or (math.isinf(ours) and math.isinf(theirs)):
        return ""
    if math.isinf(theirs):
        return f"< {ours / (limit or 1):.2f}"
    if math.isinf(ours):
        return f"> {(limit or 1) / theirs:.2f}"
    return f"{ours / theirs:.2f}"


if __name__ == "__main__":
    sys.exit(main())
