"""The optimal search on a local Dask cluster of worker processes: the command sends its
parts to them by the scheduler's address, and the tree it writes is the proven optimum; a
task whose answer is no longer wanted stops on its worker."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bullscows._kernels.tables import INFEASIBLE
from bullscows.cli import main
from bullscows.dask_tasks import DaskTasks
from bullscows.executors import workers
from bullscows.rules import Rules
from bullscows.search import distribute
from bullscows.search.worker import solve_task
from bullscows.universe import universe

distributed = pytest.importorskip("dask.distributed")
from local_cluster import executing, local_cluster  # noqa: E402 (needs Dask)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A cluster of two worker processes of one thread each, on this machine only."""
    with local_cluster() as address:
        yield address


def test_the_search_on_two_worker_processes_proves_the_optimum(
    scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "p4c6n.json"
    before = _computed(scheduler, "solve_task")
    widths: list[int] = []  # how many tasks the search keeps under way on the cluster

    def counted(executor: Any) -> int:
        widths.append(workers(executor))
        return widths[-1]

    monkeypatch.setattr(distribute, "workers", counted)
    runner = CliRunner()
    built = runner.invoke(
        main,
        ["tree", "--rules", "p4c6n", "--strategy", "optimal", "--scheduler", scheduler,
         "--out", str(out), "--json"],
        env={"BULLSCOWS_CACHE": str(tmp_path / "cache")},
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    # The search's parts were computed on the cluster (which of its two workers took each is
    # the scheduler's choice: on a loaded machine one may take them all).
    assert _computed(scheduler, "solve_task") > before
    assert 2 in widths  # a task for each of the two worker processes at once
    checked = runner.invoke(main, ["tree", "--check", str(out), "--json"])
    assert checked.exit_code == 0, checked.output
    report = json.loads(checked.output)
    assert report["valid"]
    # p4c6n (360 codes): the lowest total, as a search in this process alone proves it.
    alone = runner.invoke(
        main,
        ["tree", "--rules", "p4c6n", "--strategy", "optimal", "--json"],
        env={"BULLSCOWS_CACHE": str(tmp_path / "alone")},
    )
    assert alone.exit_code == 0, alone.output
    assert report["summary"]["total"] == json.loads(alone.output)["total"]


def test_the_address_of_a_worker_is_refused_as_no_scheduler(scheduler: str) -> None:
    client = distributed.Client(scheduler)
    try:
        worker = next(iter(client.scheduler_info()["workers"]))
    finally:
        client.close()
    result = CliRunner().invoke(
        main, ["tree", "--rules", "p3c5n", "--strategy", "optimal", "--scheduler", worker]
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[-1] == (
        f"Error: scheduler {worker!r}: what answers there is no Dask scheduler; give "
        "tcp://HOST:PORT of a running Dask scheduler, e.g. tcp://127.0.0.1:8786"
    )


def test_a_cancelled_task_stops_on_its_worker_process(scheduler: str) -> None:
    # A search of several minutes on one worker: cancelling its future (as the search does
    # with a task whose answer is no longer wanted) stops it there within seconds.
    bc = Rules.parse("bc")
    client = distributed.Client(scheduler)
    try:
        executor = DaskTasks(client)
        assert workers(executor) == 2
        assert executor.submit(abs, -2).result() == 2
        with pytest.raises(ZeroDivisionError):
            executor.submit(divmod, 1, 0).result()
        every = universe(bc).secrets
        future = executor.submit(
            solve_task, bc, "worst-count", None, False, 1, (), every, 7, INFEASIBLE
        )
        assert _wait_for(lambda: executing(client) == 1), "the task did not start"
        assert future.cancel()
        assert _wait_for(lambda: executing(client) == 0), "the task ran on"
    finally:
        client.close()


#: A budget of sets far below p5c6r's search (7,776 codes, its tasks the parts one guess deep:
#: the first two search about 160,000 and over 200,000 sets, and the whole search hours).
BUDGET = 20_000


def test_a_budget_of_sets_counts_the_tasks_under_way_on_the_cluster(
    scheduler: str, tmp_path: Path
) -> None:
    # The workers tell the sets of their tasks under way as they grow: the search stops at
    # its budget while its first tasks are under way (no answer in the checkpoint yet), not
    # once the first ends (8 times the budget).
    checkpoint = tmp_path / "p5c6r.ckpt"
    stopped = CliRunner().invoke(
        main,
        ["tree", "--rules", "p5c6r", "--strategy", "optimal", "--scheduler", scheduler,
         "--budget", str(BUDGET), "--checkpoint", str(checkpoint), "--json", "--quiet"],
        env={"BULLSCOWS_CACHE": str(tmp_path / "cache")},
    )  # fmt: skip
    assert stopped.exit_code in (3, 4), stopped.output
    stood = json.loads(stopped.stdout)
    assert stood["stopped"] == f"the budget of {BUDGET:,} sets"
    assert BUDGET <= stood["sets"] < 5 * BUDGET, stood
    assert checkpoint.read_bytes().count(b"\n") == 1  # its header alone: no task ended
    client = distributed.Client(scheduler)
    try:  # the cluster goes on: its workers stopped the tasks, and take others
        assert _wait_for(lambda: executing(client) == 0), "the tasks ran on"
        assert client.submit(abs, -3).result() == 3
    finally:
        client.close()


#: The longest wait for what a worker should do (start a task, stop it): minutes, for a
#: machine loaded many times over; a poll, so a passing test waits no longer than it must.
LIMIT = 300.0


def _computed(scheduler: str, name: str) -> int:
    """How many tasks of the function ``name`` the cluster has computed so far (the
    scheduler counts each task that reached its workers' memory)."""
    client = distributed.Client(scheduler)
    try:
        counts = client.run_on_scheduler(
            lambda dask_scheduler: {
                prefix: tasks.state_counts["memory"]
                for prefix, tasks in dask_scheduler.task_prefixes.items()
            }
        )
    finally:
        client.close()
    return int(counts.get(name, 0))


def _wait_for(condition: Callable[[], bool], seconds: float = LIMIT) -> bool:
    """Whether ``condition`` held within ``seconds``."""
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True
