"""The optimal search on a local Dask cluster of worker processes: the command spreads its
parts over them by the scheduler's address, and the tree it writes is the proven optimum."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows.cli import main

distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A cluster of two worker processes of one thread each, on this machine only."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster.scheduler_address


def test_the_search_on_two_worker_processes_proves_the_optimum(
    scheduler: str, tmp_path: Path
) -> None:
    out = tmp_path / "p4c6n.json"
    runner = CliRunner()
    built = runner.invoke(
        main,
        ["tree", "--rules", "p4c6n", "--strategy", "optimal", "--scheduler", scheduler,
         "--out", str(out), "--json"],
        env={"BULLSCOWS_CACHE": str(tmp_path / "cache")},
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    client = distributed.Client(scheduler)
    try:
        # Both worker processes took part: each ran tasks of the search.
        ran = client.run(lambda dask_worker: dask_worker.state.executed_count)
    finally:
        client.close()
    assert len(ran) == 2 and all(count > 0 for count in ran.values())
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
