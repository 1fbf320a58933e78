"""The optimal search on a local Dask cluster of worker processes, and what would limit it on
a cluster of 64 or 256 workers: the scheduler's task rate, its round trip, or the results
sent back.

Run: .venv/bin/python benchmarks/cluster.py                       # p4c9n on 2 processes
     .venv/bin/python benchmarks/cluster.py bc --workers 2 --predict 64 256

It measures, on this machine:
- the scheduler's rate: trivial tasks sent through the executor the search uses, per second,
  and the round trip of one task (sent, run, answered);
- the search on the cluster: its seconds, its tasks, and the bytes of their answers;
- the same search recorded on one thread (``scaling.py``): its tasks' CPU seconds and rounds.

The prediction for N workers is the larger of: a perfect scheduler's seconds with today's
tasks (``scaling.py``), plus one round trip for each round on the longest chain of rounds;
the tasks over the scheduler's rate; and the answers' bytes over the link (``--link``,
bytes a second). It names which one is the limit.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from concurrent.futures import Executor, Future
from typing import Any

from scaling import PartKey, Recording, predict, search, structure

from bullscows.dask_tasks import DaskTasks
from bullscows.rules import Rules
from bullscows.search import Objective, optimal_tree
from bullscows.search.optimal import OBJECTIVES


class Measured(Executor):
    """An executor that passes tasks on to another and adds up the bytes of their answers."""

    def __init__(self, inner: Executor) -> None:
        self.inner = inner
        self.tasks = 0
        self.answer_bytes = 0
        self._max_workers = getattr(inner, "_max_workers", None)

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = self.inner.submit(fn, *args, **kwargs)
        self.tasks += 1
        future.add_done_callback(self._count)
        return future

    def _count(self, future: Future[Any]) -> None:
        if not future.cancelled() and future.exception() is None:
            self.answer_bytes += len(pickle.dumps(future.result()))

    def __getattr__(self, name: str) -> Any:  # what ``executors.workers`` asks of a pool
        return getattr(self.inner, name)


def scheduler_rate(executor: Executor, count: int) -> tuple[float, float]:
    """Trivial tasks a second through ``executor`` (all sent, then awaited) and the median
    round trip of one task alone."""
    for future in [executor.submit(abs, -n) for n in range(20)]:  # the workers warmed up
        future.result()
    began = time.perf_counter()
    futures = [executor.submit(abs, -n) for n in range(count)]
    for future in futures:
        future.result()
    rate = count / (time.perf_counter() - began)
    trips = []
    for n in range(31):
        began = time.perf_counter()
        executor.submit(abs, -n).result()
        trips.append(time.perf_counter() - began)
    return rate, sorted(trips)[len(trips) // 2]


def rounds_on_longest_chain(recording: Recording) -> int:
    """Rounds answered one after another on the longest path of the search's order."""
    rounds, held = structure(recording)

    def chain(part: PartKey) -> int:
        return sum(1 + max(map(chain, held[number].parts), default=0) for number in rounds[part])

    root: PartKey = ((), -1)
    return chain(root) if root in rounds else 0


def main(argv: list[str] | None = None) -> int:
    from dask.distributed import Client, LocalCluster

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="?", default="p4c9n", help="the variant (default p4c9n)")
    parser.add_argument("--objective", choices=OBJECTIVES, default="total")
    parser.add_argument("--workers", type=int, default=2, help="local worker processes")
    parser.add_argument("--predict", type=int, nargs="+", default=[64, 256])
    parser.add_argument("--link", type=float, default=100e6, help="bytes a second (100 MB/s)")
    parser.add_argument("--trivial", type=int, default=2000, help="tasks to time the rate")
    args = parser.parse_args(argv)
    objective: Objective = args.objective
    optimal_tree(Rules.parse("p3c6r"))  # load the compiled kernels
    recorded = search(args.rules, objective, 1)
    with (
        LocalCluster(  # type: ignore[no-untyped-call]
            n_workers=args.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        Client(cluster) as client,  # type: ignore[no-untyped-call]
    ):  # fmt: skip
        executor = DaskTasks(client)
        rate, trip = scheduler_rate(executor, args.trivial)
        optimal_tree(Rules.parse("p3c6r"), executor=executor)  # workers load their kernels
        measured = Measured(executor)
        began = time.perf_counter()
        result = optimal_tree(Rules.parse(args.rules), objective, executor=measured)
        seconds = time.perf_counter() - began
    print(
        f"scheduler: {rate:,.0f} trivial tasks a second, round trip {trip * 1000:.1f} ms "
        f"({args.workers} local worker processes)"
    )
    print(
        f"{args.rules} {objective}: total {result.total:,} in {seconds:.2f} s on the cluster, "
        f"{measured.tasks:,} tasks, answers {measured.answer_bytes / 1e6:.2f} MB "
        f"({measured.answer_bytes / max(1, measured.tasks):,.0f} bytes each)"
    )
    print(
        f"  recorded on one thread: {len(recorded.tasks):,} tasks, "
        f"{recorded.task_seconds:.2f} s CPU, serial {recorded.serial:.2f} s"
    )
    chain = rounds_on_longest_chain(recorded)
    print(f"  {'workers':>8} {'scheduling s':>13} {'task rate s':>12} {'answers s':>10}  limit")
    for workers in args.predict:
        limits = {
            "the tasks (scheduling)": predict(recorded, workers) + chain * trip,
            "the scheduler's task rate": measured.tasks / rate,
            "the answers sent back": measured.answer_bytes / args.link,
        }
        worst = max(limits, key=limits.__getitem__)
        a, b, c = limits.values()
        print(f"  {workers:>8} {a:>13.2f} {b:>12.2f} {c:>10.3f}  {worst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
