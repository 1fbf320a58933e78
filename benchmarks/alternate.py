"""A command as a whole process under two versions of the package, run alternately.

Run: .venv/bin/python benchmarks/alternate.py BEFORE_SRC -- tree --rules p4c9n --strategy optimal
     .venv/bin/python benchmarks/alternate.py BEFORE_SRC --repeats 9 -- tree --rules p5c10n \
         --strategy entropy

(everything after ``--`` is the command's arguments).

``BEFORE_SRC`` is the ``src`` folder of another checkout (say ``git worktree add`` of an older
commit): its package is put first on ``PYTHONPATH`` for the "before" runs, this checkout's for
the "after" ones, with the same interpreter. Each run is ``bullscows.cli.main`` in a new
process, as the console script runs it, with an empty cache folder (a searched tree is kept
there: every run searches); the two versions take turns, the first after a warm-up run of each
(bytecode and numba's cache written, as an installed copy has them). Printed for each version:
the best and the median of the wall-clock seconds, of the CPU seconds (user and system, every
thread: less at the mercy of other processes on a shared machine), and the medians of the
seconds spent in the garbage collector (with how many collections) and of the seconds numba
took to load the compiled functions from its cache (every first call after the first, which
also readies numba's compiler; with how many functions in all).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The console script's work, with the collector's time added up (``gc.callbacks``), and
#: the time numba takes to ready each compiled function on its first call (from its cache:
#: the first call also readies numba's compiler, so it is counted apart).
RUN = """
import gc, json, sys, time
spent = [0.0, 0, 0.0]
def watch(phase, info):
    if phase == "start":
        spent[2] = time.perf_counter()
    else:
        spent[0] += time.perf_counter() - spent[2]
        spent[1] += 1
gc.callbacks.append(watch)
loads = []
def load_timed(event, args):  # once numba's dispatcher is defined (not importing it sooner)
    dispatcher = sys.modules.get("numba.core.dispatcher")
    if event != "import" or loads or not hasattr(dispatcher, "Dispatcher"):
        return
    ready = dispatcher.Dispatcher._compile_for_args
    def load(self, *args, **kwargs):
        start = time.perf_counter()
        try:
            return ready(self, *args, **kwargs)
        finally:
            loads.append(time.perf_counter() - start)
    dispatcher.Dispatcher._compile_for_args = load
    loads.append(0.0)  # a mark: patched
sys.addaudithook(load_timed)
from bullscows.cli import main
try:
    main(sys.argv[1:])
finally:
    print(json.dumps([*spent[:2], sum(loads[2:]), len(loads) - 1]), file=sys.stderr)
"""


Run = tuple[float, float, float, int, float, int]


def once(source: Path, arguments: list[str], cache: Path) -> Run:
    """One run of the command with ``source`` first on the path: wall and CPU seconds,
    seconds and collections of the garbage collector, and seconds and count of the compiled
    functions loaded (the seconds after the first)."""
    shutil.rmtree(cache, ignore_errors=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPATH=str(source), BULLSCOWS_CACHE=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", RUN, *arguments],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{source}: {' '.join(arguments)} failed: {done.stderr[-500:]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    collector, collections, loading, loaded = json.loads(done.stderr.strip().splitlines()[-1])
    return wall, cpu, collector, collections, loading, loaded


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="the src folder of the version before")
    parser.add_argument("--repeats", type=int, default=7, help="runs of each version")
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    command = argv[cut + 1 :]
    if not (args.before / "bullscows" / "__init__.py").is_file():
        parser.error(f"{str(args.before)[:200]!r} holds no bullscows package")
    if not command:
        parser.error("give the command after --, as: -- tree --rules p4c9n --strategy optimal")
    sources = {"before": args.before.resolve(), "after": Path(__file__).parents[1] / "src"}
    runs: dict[str, list[Run]] = {name: [] for name in sources}
    with tempfile.TemporaryDirectory(prefix="alternate-") as scratch:
        cache = Path(scratch) / "cache"
        for source in sources.values():
            once(source, command, cache)  # warm-up
        for turn in range(args.repeats):
            names = list(sources) if turn % 2 == 0 else list(reversed(sources))
            for name in names:
                runs[name].append(once(sources[name], command, cache))
    print(f"bullscows {' '.join(command)}: {args.repeats} runs each, alternated")
    print(
        "| version | wall s, best / median | CPU s, best / median | GC s (collections) "
        "| loading s after the first (functions) |"
    )
    print("|---|---|---|---|---|")
    for name, found in runs.items():
        wall, cpu, collector, collections, loading, loaded = zip(*found, strict=True)
        functions = statistics.median(loaded)
        loads = (
            "none (numba not loaded)"
            if functions < 0
            else (f"{statistics.median(loading):.3f} ({functions:.0f})")
        )
        print(
            f"| {name} | {min(wall):.3f} / {statistics.median(wall):.3f} "
            f"| {min(cpu):.3f} / {statistics.median(cpu):.3f} "
            f"| {statistics.median(collector):.3f} ({statistics.median(collections):.0f}) "
            f"| {loads} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
