"""The pool of computations: one on the request's own thread is stopped at its time too (and
the thread is left clean), and a pooled one starts warm: its process forks from one that
compiled the kernels already, so the computation compiles nothing; and it runs in Linux's
idle scheduling class, after every move."""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

from bullscows._kernels import compiled
from bullscows.web.common import shown_of
from bullscows.web.compute import Pool, TooLarge
from bullscows.web.games import Setup, new_game


def spin(seconds: float) -> str:
    """Python work (no sleep in C) for ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))
    return "done"


def test_an_inline_computation_is_stopped_at_its_time() -> None:
    # A second: a thread of a loaded machine may wait a tenth of one for a core.
    pool = Pool(size=1, seconds=1, inline_work=10**9)
    start = time.monotonic()
    with pytest.raises(TooLarge, match=r"it gives one request 1 s; run it yourself with: x$"):
        pool.call(None, 1, spin, 600.0, command="x")
    assert time.monotonic() - start < 300  # stopped, not run to its end
    assert pool.counts == {"running": 0, "started": 0, "stopped": 1}
    assert pool.call(None, 1, spin, 0.05, command="x") == "done"  # in time: answered
    time.sleep(0.4)  # and nothing raised in this thread afterwards
    with pool.timed("x"):
        spin(0.05)


KERNELS = ["_score_block_1", "_partition_block_1", "_pairwise_block_1", "_canonical_block"]


def signatures() -> dict[str, int]:
    """How many signatures each kernel ``compiled.warm_up`` compiles has in this process."""
    return {name: len(getattr(compiled, name).signatures) for name in KERNELS}


def warm_then_work(record: str) -> tuple[dict[str, int], dict[str, int]]:
    """In a pooled process: the kernels' signatures at its start, and after a game's state
    (a hint's split of the codes) is computed."""
    before = signatures()
    shown_of(record, "solve")
    return before, signatures()


def test_a_pooled_computation_starts_warm() -> None:
    pool = Pool(size=1, seconds=120, inline_work=0)  # everything in a process
    pool.warm()
    record = new_game(Setup(mode="solve", rules="p3c7r")).to_record().dumps()
    before, after = pool.call(None, 1, warm_then_work, record, command="x")
    assert all(count >= 1 for count in before.values()), before
    assert after == before  # nothing compiled for the computation itself
    assert pool.call(None, 1, os.sched_getscheduler, 0, command="x") == os.SCHED_IDLE
    assert pool.counts == {"running": 0, "started": 2, "stopped": 0}


def test_the_watchdog_leaves_other_threads_alone() -> None:
    import threading

    pool = Pool(size=1, seconds=1, inline_work=10**9)
    results: dict[str, Any] = {}

    def quick() -> None:  # within its second, however the threads take turns
        results["quick"] = pool.call(None, 1, spin, 0.3, command="x")

    def slow() -> None:
        try:
            pool.call(None, 1, spin, 600.0, command="x")
        except TooLarge:
            results["slow"] = "stopped"

    threads = [threading.Thread(target=quick), threading.Thread(target=slow)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)  # the slow one stopped at its second, or it would run 10 minutes
    assert results == {"quick": "done", "slow": "stopped"}
