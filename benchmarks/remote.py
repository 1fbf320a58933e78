"""The same search on N threads of this process and on a local Dask cluster of N worker
processes: seconds, sets searched, tasks sent and the workers' CPU seconds, which show the
work of tasks whose answer was no longer wanted (a thread's is stopped at once; a worker
process's is stopped when it hears that its task was cancelled).

Run: .venv/bin/python benchmarks/remote.py                                # bc total, 2 workers
     .venv/bin/python benchmarks/remote.py p4c9n --objective worst-count --repeats 1

Each search runs with an empty memo (a new cluster, new threads); the trees of both must be
the same, node for node.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import Executor, Future
from typing import Any

from bullscows.dask_tasks import DaskTasks
from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree
from bullscows.search.optimal import OBJECTIVES, OptimalResult


class Counted(Executor):
    """An executor that passes tasks on to another and counts them."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.tasks = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.tasks += 1
        return self.inner.submit(fn, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:  # what ``executors.workers`` asks of a pool
        return getattr(self.inner, name)


#: One search's result, the tasks it sent and the CPU seconds it took.
Measured = tuple[OptimalResult, int, float]


def on_threads(rules: Rules, objective: Objective, workers: int) -> Measured:
    """The search on ``workers`` threads: its result, tasks sent and CPU seconds."""
    with Threads(workers) as team:
        counted = Counted(team)
        before = time.process_time()
        result = optimal_tree(rules, objective, executor=counted)
        cpu = time.process_time() - before
    return result, counted.tasks, cpu


def on_cluster(rules: Rules, objective: Objective, workers: int) -> Measured:
    """The search on a new local cluster of ``workers`` processes of one thread each: its
    result, tasks sent and the CPU seconds of the workers and of this process."""
    from dask.distributed import Client, LocalCluster

    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):  # fmt: skip
        optimal_tree(Rules.parse("p3c6r"), executor=DaskTasks(client))  # kernels loaded
        counted = Counted(DaskTasks(client))
        before = sum(client.run(time.process_time).values()) + time.process_time()
        result = optimal_tree(rules, objective, executor=counted)
        time.sleep(0.5)  # a task stopped late ends
        after = sum(client.run(time.process_time).values()) + time.process_time()
    return result, counted.tasks, after - before


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="?", default="bc", help="the variant (default bc)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total")
    parser.add_argument("--workers", type=int, default=2, help="threads, then processes")
    parser.add_argument("--repeats", type=int, default=2, help="runs of each (the best kept)")
    parser.add_argument("--only", choices=("threads", "cluster"), help="run one side alone")
    args = parser.parse_args(argv)
    rules, objective = Rules.parse(args.rules), args.objective
    optimal_tree(Rules.parse("p3c6r"))  # this process's kernels loaded
    print(f"{args.rules} {objective}, {args.workers} workers")
    print(f"  {'where':<22} {'seconds':>8} {'sets':>11} {'tasks':>7} {'CPU s':>7}")
    trees = []
    sides = {"threads": ("threads", on_threads), "cluster": ("Dask worker processes", on_cluster)}
    for side, (name, run) in sides.items():
        if args.only not in (None, side):
            continue
        runs = [run(rules, objective, args.workers) for _ in range(args.repeats)]
        result, tasks, cpu = min(runs, key=lambda one: one[0].seconds)
        trees.append(result.tree)
        print(f"  {name:<22} {result.seconds:>8.2f} {result.nodes:>11,} {tasks:>7,} {cpu:>7.2f}")
    same = all(tree == trees[0] for tree in trees)
    if len(trees) > 1:
        print("  same tree" if same else "  the trees differ")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
