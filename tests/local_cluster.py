"""A Dask cluster on this machine for the tests that spread a search over one (importing
this module needs Dask: import it after ``pytest.importorskip("dask.distributed")``)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import dask
from dask import distributed


@contextmanager
def local_cluster() -> Iterator[str]:
    """A cluster of two worker processes of one thread each, listening on 127.0.0.1 on free
    ports, closed at the end; its scheduler's address. Its scheduler steals no tasks: a task
    it gave a worker runs there, however slowly that worker's process goes on a loaded
    machine, and what a test sees under way on a worker stays there."""
    with (
        dask.config.set({"distributed.scheduler.work-stealing": False}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
    ):  # fmt: skip
        yield cluster.scheduler_address


def executing(client: Any) -> int:
    """Tasks under way on the cluster's workers."""
    return sum(client.run(lambda dask_worker: len(dask_worker.state.executing)).values())
