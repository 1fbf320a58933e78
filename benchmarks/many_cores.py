"""The check of ``--jobs 16`` on a machine of 16 cores, in one command: numba warmed, then the
steps of docs/scaling.md ("What is still open") in its order, each within a time budget for
the whole, each step's lines printed as they come, and a summary table at the end.

Run: .venv/bin/python benchmarks/many_cores.py --budget 570 --out many_cores.txt
     .venv/bin/python benchmarks/many_cores.py --quick      # the same steps on small searches

The steps (each a script of ``benchmarks/`` run in a process of its own):

- ``warm``: a few small searches, one of them on threads, so that numba's run-time
  compilation (where nothing is compiled ahead of time) is done before anything is timed;
- ``lscpu``: the machine;
- ``table``: ``occupancy.py`` on ``p4c9n`` worst-count, with the shared table from sets of 0
  and of 6 codes, and with the memos alone: each one's CPU a set against one thread's;
- ``beside``: ``occupancy.py --beside 15``: one thread's CPU a set alone and beside 15 busy
  processes (the machine's part of the extra CPU, with no table);
- ``goal``: ``jobs.py``, ``bc`` worst-count on 16 threads, its one-thread time estimated from
  the 2-core machine's by a reference search: the speed-up and its fraction of N;
- ``private``: ``occupancy.py`` on ``bc`` worst-count, with the table and without, its
  one-thread CPU the goal's estimate.

A step is run only if its planned seconds fit in what is left of ``--budget``; else it is
skipped and says so. A step that runs past the budget is stopped there and says so; the
lines it printed stay (steps run unbuffered). ``--steps`` runs only some. Ctrl-C or SIGTERM
kills the step under way (its whole process group) and ends the check with one line,
``stopped``, exit 130 or 143.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Plan:
    """The searches of one check: the full one, or ``--quick``'s small ones."""

    jobs: int
    goal: list[str]  # jobs.py's arguments, without --jobs
    table: str  # the variant of the ``table`` and ``beside`` steps (worst-count)
    beside: str
    others: int  # processes beside it
    private: str  # the variant of the ``private`` step (worst-count)
    fallback: float  # its one-thread CPU seconds when the goal gave no estimate
    seconds: dict[str, float]  # each step's planned seconds


FULL = Plan(
    jobs=16,
    goal=["--rules", "bc", "--strategy", "optimal-worst-count", "--time-limit", "200",
          "--one-thread", "773", "--calibrate", "8.5",
          "--expect", str(ROOT / "docs" / "trees" / "bc-worst-count.json.gz")],
    table="p4c9n", beside="p4c9n", others=15, private="bc", fallback=1291.0,
    seconds={"warm": 100, "lscpu": 2, "table": 60, "beside": 150, "goal": 245, "private": 280},
)  # fmt: skip
QUICK = Plan(
    jobs=2,
    goal=["--rules", "p4c6n", "--strategy", "optimal-worst-count", "--time-limit", "120",
          "--one-thread", "1.5", "--calibrate", "1.2", "--reference", "p3c6n", "optimal"],
    table="p4c6n", beside="p3c6n", others=1, private="p4c6n", fallback=1.5,
    seconds={"warm": 10, "lscpu": 1, "table": 8, "beside": 8, "goal": 15, "private": 8},
)  # fmt: skip
#: The steps that tell the table's part from the machine's first, so that a slow warm-up
#: leaves ``goal`` (its ``--time-limit`` 200 s, two reference searches, ``tree --compare``)
#: out rather than ``beside``.
STEPS = ("warm", "lscpu", "table", "beside", "goal", "private")


def warm() -> None:
    """Run what numba compiles for the check (``--warm``, in a process of its own)."""
    from bullscows.executors import Threads
    from bullscows.rules import Rules
    from bullscows.search import optimal_tree
    from bullscows.search.worker import prepare

    optimal_tree(Rules.parse("p3c6r"))
    prepare()
    with Threads(2) as team:  # the shared table's and the team's kernels
        optimal_tree(Rules.parse("p4c6n"), "worst-count", executor=team)


class Out:
    """Lines printed at once (flushed) and also written to a file, if given."""

    def __init__(self, file: TextIO | None) -> None:
        self.file = file

    def __call__(self, line: str = "") -> None:
        print(line, flush=True)
        if self.file is not None:
            self.file.write(line + "\n")
            self.file.flush()


@dataclass
class Step:
    """One step's lines and how it ended: ``ran`` (to its end), ``skipped`` or ``stopped``
    (at the budget), and its seconds."""

    name: str
    lines: list[str] = field(default_factory=list)
    ended: str = "skipped"
    seconds: float = 0.0
    rc: int = 0


def command_of(name: str, plan: Plan, estimate: float | None) -> list[str]:
    """The command of step ``name`` (``estimate``: the goal's one-thread CPU seconds)."""
    python, occupancy = sys.executable, str(HERE / "occupancy.py")
    worst = ["--objective", "worst-count"]
    jobs = ["--jobs", str(plan.jobs)]
    if name == "warm":
        return [python, str(Path(__file__).resolve()), "--warm"]
    if name == "lscpu":
        return ["lscpu"]
    if name == "goal":
        return [python, str(HERE / "jobs.py"), *plan.goal, *jobs]
    if name == "table":
        return [python, occupancy, plan.table, *worst, *jobs, "--share-from", "0", "6",
                "--private"]  # fmt: skip
    if name == "beside":
        return [python, occupancy, plan.beside, *worst, "--beside", str(plan.others),
                "--repeats", "2"]  # fmt: skip
    one = f"{estimate if estimate is not None else plan.fallback:.1f}"
    return [python, occupancy, plan.private, *worst, *jobs, "--one-thread", one, "--private"]


def run_step(step: Step, command: list[str], left: float, out: Out) -> None:
    """Run ``command``, its lines printed as they come; stopped (its whole process group)
    after ``left`` seconds."""
    if command[0] == "lscpu" and shutil.which("lscpu") is None:
        step.ended, step.lines = "ran", ["lscpu: not on this machine"]
        out("  " + step.lines[0])
        return
    began = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
        cwd=ROOT, start_new_session=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            step.lines.append(line.rstrip("\n"))
            out("  " + step.lines[-1])

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        step.rc = process.wait(timeout=max(0.0, left))
        step.ended = "ran"
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        step.ended = "stopped"
    except BaseException:  # Ctrl-C or SIGTERM: the step (a session of its own) goes too
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise
    reader.join(10.0)
    step.seconds = time.perf_counter() - began


NUMBER = r"([\d,.]+)"


def number(text: str) -> float:
    return float(text.replace(",", ""))


def find(lines: list[str], pattern: str) -> list[tuple[float, ...]]:
    """The numbers of each line matching ``pattern``'s groups, in order."""
    found = []
    for line in lines:
        match = re.search(pattern, line)
        if match:
            found.append(tuple(number(group) for group in match.groups()))
    return found


@dataclass
class Run:
    """One occupancy run's figures: CPU seconds, sets, reads a set (0: no table)."""

    way: str
    cpu: float
    sets: float
    reads: float = 0.0
    estimate: float = 0.0  # the speed-up it suggests on N cores

    def per_set(self) -> float:
        """Microseconds of CPU a set."""
        return 1e6 * self.cpu / max(1.0, self.sets)


def occupancy_runs(lines: list[str]) -> tuple[Run | None, list[Run]]:
    """One thread's run and each run on threads of an ``occupancy.py`` output."""
    one = None
    runs: list[Run] = []
    way = ""
    for line in lines:
        match = re.search(rf": one thread {NUMBER} s, {NUMBER} s CPU, {NUMBER} sets", line)
        if match:
            one = Run("one thread", number(match[2]), number(match[3]))
        if line.startswith("  with "):
            way = line.strip().removeprefix("with ").rstrip(":")
        match = re.search(rf"--jobs \d+: {NUMBER} s, {NUMBER} s CPU .*?, {NUMBER} sets", line)
        if match:
            runs.append(Run(way, number(match[2]), number(match[3])))
        match = re.search(r"estimated speed-up on \d+ cores: .* = ([\d.]+) \(", line)
        if match and runs:
            runs[-1].estimate = number(match[1])
        match = re.search(rf"shared table: {NUMBER} reads", line)
        if match and runs:
            runs[-1].reads = number(match[1]) / max(1.0, runs[-1].sets)
    return one, runs


def goal_figures(lines: list[str]) -> tuple[float | None, str | None]:
    """The goal's one-thread estimate (CPU seconds) and its run on threads, in words."""
    estimate = find(lines, rf"--jobs +1, estimated: .* = {NUMBER} s")
    ran = [line.strip() for line in lines if re.search(r"--jobs +\d+: .*speed-up", line)]
    stopped = [line.strip() for line in lines if re.search(r"--jobs +\d+: (stopped|exit)", line)]
    said = ran or stopped
    return (estimate[0][0] if estimate else None), (said[0] if said else None)


def summary(steps: dict[str, Step], plan: Plan) -> list[str]:
    """The summary table's rows (markdown)."""
    rows = ["| figure | value |", "|---|---|"]

    def add(label: str, value: str) -> None:
        rows.append(f"| {label} | {value} |")

    def absent(name: str) -> str:
        step = steps.get(name)
        if step is None or step.ended == "skipped":
            return f"not run ({name} skipped)"
        if step.ended == "stopped":
            return f"no figure ({name} stopped at the budget)"
        return f"no figure ({name} ended with exit {step.rc})"

    warmed = steps.get("warm")
    add("numba warmed", f"{warmed.seconds:.1f} s" if warmed and warmed.ended == "ran"
        else absent("warm"))  # fmt: skip
    cpu = steps.get("lscpu")
    model = [re.sub(r":\s+", ": ", line.strip()) for line in (cpu.lines if cpu else [])
             if re.match(r"(Model name|CPU\(s\)|Thread\(s\) per core):", line)]  # fmt: skip
    add("machine (lscpu)", "; ".join(model) or absent("lscpu"))
    estimate, said = goal_figures(steps["goal"].lines if "goal" in steps else [])
    add("goal: one thread, estimated CPU s", f"{estimate:.1f}" if estimate else absent("goal"))
    speed = re.search(r"speed-up +([\d.]+) \(([\d.]+) N\)", said or "")
    said = re.sub(r"\s+", " ", said) if said else None
    add(f"goal: {plan.jobs} threads", said.split(": ", 1)[1] if said else absent("goal"))
    add(f"goal: speed-up at {plan.jobs} (fraction of N)",
        f"{speed[1]} ({speed[2]} N)" if speed else absent("goal"))  # fmt: skip
    one, runs = occupancy_runs(steps["table"].lines if "table" in steps else [])
    extra = None
    for run in runs if one else []:
        assert one is not None
        ratio = run.per_set() / one.per_set()
        extra = ratio if extra is None else extra
        reads = f", {run.reads:.1f} reads a set" if run.reads else ""
        add(f"{plan.table} CPU a set, {plan.jobs} threads, {run.way}",
            f"{run.per_set():.2f} us ({ratio:.2f} x one thread's {one.per_set():.2f} us); "
            f"{run.cpu:.2f} s CPU, {run.sets:,.0f} sets{reads}")  # fmt: skip
    if not runs:
        add(f"{plan.table} CPU a set on {plan.jobs} threads", absent("table"))
    pair = rf"alone: .* {NUMBER} us a set; beside .* {NUMBER} us a set \(([\d.]+) x alone\)"
    pairs = find(steps["beside"].lines if "beside" in steps else [], pair)
    if pairs:
        mean = sum(p[2] for p in pairs) / len(pairs)
        text = "; ".join(f"{p[0]:.2f} and {p[1]:.2f} us: {p[2]:.2f}" for p in pairs)
        share = ""
        if extra is not None and extra > 1.0:
            share = (f"; the machine's share of the table run's extra CPU a set: "
                     f"{max(0.0, mean - 1.0) / (extra - 1.0):.0%}")  # fmt: skip
        add(f"{plan.beside} CPU a set alone and beside {plan.others} busy", text + share)
    else:
        add(f"{plan.beside} CPU a set alone and beside {plan.others} busy", absent("beside"))
    _, private = occupancy_runs(steps["private"].lines if "private" in steps else [])
    for run in private:
        add(f"{plan.private} worst-count, {plan.jobs} threads, {run.way}",
            f"{run.cpu:.2f} s CPU, {run.sets:,.0f} sets, {run.per_set():.2f} us a set; "
            f"estimated speed-up {run.estimate:.2f} "
            f"({run.estimate / plan.jobs:.2f} N)")  # fmt: skip
    if not private:
        add(f"{plan.private} worst-count, {plan.jobs} threads", absent("private"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=570.0, metavar="SECONDS",
                        help="seconds for the whole check (default 570)")  # fmt: skip
    parser.add_argument("--out", type=Path, help="also write every line to this file")
    parser.add_argument("--quick", action="store_true", help="the same steps on small searches")
    parser.add_argument("--steps", nargs="+", choices=STEPS, default=list(STEPS),
                        help="only these steps, in the page's order")  # fmt: skip
    parser.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.warm:
        warm()
        return 0
    if args.budget <= 0:
        parser.error(f"--budget {args.budget:g}: give the seconds for the whole check, as 570")
    plan = QUICK if args.quick else FULL
    file = args.out.open("w") if args.out else None
    out = Out(file)
    before = signal.signal(signal.SIGTERM, terminate)
    try:
        check(plan, args.budget, [s for s in STEPS if s in args.steps], out)
    except (KeyboardInterrupt, Terminated) as stop:
        out("stopped")
        return 143 if isinstance(stop, Terminated) else 130
    finally:
        signal.signal(signal.SIGTERM, before)
        if file is not None:
            file.close()
    return 0


class Terminated(BaseException):
    """SIGTERM, raised like Ctrl-C's ``KeyboardInterrupt``."""


def terminate(signum: int, frame: object) -> None:
    """SIGTERM's handler: stop the check as Ctrl-C does."""
    raise Terminated


def check(plan: Plan, budget: float, names: list[str], out: Out) -> None:
    """Run the steps ``names`` of ``plan`` within ``budget`` seconds, then the summary."""
    began = time.perf_counter()
    steps: dict[str, Step] = {}
    left: Callable[[], float] = lambda: budget - (time.perf_counter() - began)  # noqa: E731
    out(f"many_cores: {len(names)} steps, budget {budget:g} s, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs")  # fmt: skip
    for name in names:
        step = steps[name] = Step(name)
        planned = plan.seconds[name]
        if planned > left():
            out(f"== {name}: skipped: planned {planned:g} s, {left():.0f} s of the budget left")
            continue
        estimate, _ = goal_figures(steps["goal"].lines if "goal" in steps else [])
        command = command_of(name, plan, estimate)
        shown = " ".join(Path(c).name if c.startswith(str(ROOT)) else c for c in command)
        out(f"== {name} (planned {planned:g} s, {left():.0f} s left): {shown}")
        run_step(step, command, left(), out)
        if step.ended == "stopped":
            out(f"== {name}: stopped at the budget after {step.seconds:.1f} s: its lines above "
                "are what it finished")  # fmt: skip
        else:
            out(f"== {name}: {step.seconds:.1f} s, exit {step.rc}")
    out()
    out(f"summary ({time.perf_counter() - began:.0f} s of {budget:g}):")
    for row in summary(steps, plan):
        out(row)


if __name__ == "__main__":
    sys.exit(main())
