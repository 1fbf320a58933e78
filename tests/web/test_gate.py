"""The server's long computations share one gate across its processes: at most ``places`` run
at once (the others wait, up to their budget, or are refused at once when too many wait),
and each is paused while a request is being answered, by this process or another, and
resumed when none is, with the time paused not counted against its budget (up to
``PATIENCE`` times it). A client that leaves still stops a paused computation, and a
process that died answering a request pauses nothing."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
import httpx
import pytest

from bullscows.web import compute
from bullscows.web import gate as gates
from bullscows.web.compute import PATIENCE, Busy, Gone, Pool, TooLarge
from bullscows.web.gate import Gate

from .conftest import server, wide_game


def spin(seconds: float) -> str:
    """``seconds`` of this process's own CPU time (time paused does not count)."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))
    return "done"


def until(path: Path) -> str:
    """Asleep (using no CPU) until ``path`` exists: a computation that ends when the test
    says."""
    while not path.exists():
        time.sleep(0.02)
    return "done"


#: The longest wait for a call to end: its pooled process runs in Linux's idle class, where a
#: second of CPU takes half a minute on a loaded 2-core machine.
ENDS = 600


def state(pid: int) -> str:
    """The state Linux gives process ``pid``: R running, S sleeping, T stopped, ..."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def wait_for(condition: Callable[[], Any], seconds: float = 300) -> Any:
    """``condition()`` once it holds (true), polled for at most ``seconds``: at once on a
    quiet machine, minutes on a loaded one."""
    end = time.monotonic() + seconds
    while not (found := condition()):
        assert time.monotonic() < end, "the condition never held"
        time.sleep(0.02)
    return found


class Call(threading.Thread):
    """``pool.call(client, 1, function, *args)`` on a thread of its own: its result or error,
    and when it ended."""

    def __init__(self, pool: Pool, function: Callable[..., Any], *args: Any) -> None:
        super().__init__(daemon=True)
        self.pool, self.function, self.args = pool, function, args
        self.result: Any = None
        self.ended = 0.0
        self.start()

    def run(self) -> None:
        try:
            self.result = self.pool.call(None, 1, self.function, *self.args, command="x")
        except Exception as error:
            self.result = error
        self.ended = time.monotonic()


@pytest.fixture
def gate(database: str) -> Iterator[Gate]:
    """A gate on the database, as another process of the server holds it."""
    other = Gate(database, 1)
    yield other
    other.close()


def test_places_leave_a_core_to_the_moves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One fewer than the cores the process may use, bounded by a container's CPU quota."""
    cpus = len(os.sched_getaffinity(0))
    quota = tmp_path / "cpu.max"
    monkeypatch.setattr(gates, "CPU_MAX", quota)
    assert gates.cores() == cpus  # no control group's quota
    quota.write_text("max 100000\n")
    assert gates.cores() == cpus
    quota.write_text("150000 100000\n")  # one and a half cores: two, the second shared
    assert gates.cores() == min(cpus, 2)
    assert gates.default_places() == max(1, min(cpus, 2) - 1)
    quota.write_text("50000 100000\n")
    assert gates.cores() == 1 and gates.default_places() == 1


def test_with_one_place_a_second_computation_waits_for_the_first(
    database: str, tmp_path: Path
) -> None:
    # The first spun 1 s of CPU in Linux's idle class within 60 s: beside two busy loops it
    # ran out of time (TooLarge). It now runs until the test lets it end, within a budget
    # (wall time, that of the first and of the second's wait) no loaded machine reaches.
    pool = Pool(size=1, seconds=ENDS, inline_work=0, database=database)
    go = tmp_path / "go"
    first = Call(pool, until, go)
    wait_for(pool.gate.computing)
    second = Call(pool, spin, 0.0)
    wait_for(lambda: pool.gate.waiting == 1)
    assert len(pool.gate.computing()) == 1  # the second waits while the first runs
    assert first.is_alive() and second.is_alive()
    go.touch()
    first.join(ENDS), second.join(ENDS)
    assert (first.result, second.result) == ("done", "done")
    assert first.ended <= second.ended
    assert pool.counts == {"running": 0, "started": 2, "stopped": 0}


def test_a_computation_waiting_past_its_budget_or_past_the_queue_is_refused(
    database: str, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool = Pool(size=1, seconds=20, inline_work=0, database=database)  # far past any delay
    gate.enter()  # a request being answered: the first computation is paused meanwhile
    first = Call(pool, os.getpid)
    [(pid, _)] = wait_for(pool.gate.computing)
    monkeypatch.setattr(compute, "WAITING", 1)
    second = Call(pool, spin, 0.0)
    wait_for(lambda: pool.gate.waiting == 1)
    with pytest.raises(Busy, match=r"^the server is busy with 1 other long computation; .*: x$"):
        pool.call(None, 1, spin, 0.0, command="x")  # a third: refused at once
    # at once: before the second, asked before it, has waited its budget (20 s) for the place
    assert second.is_alive()
    second.join(ENDS)
    assert isinstance(second.result, Busy)  # it waited its budget for the place
    gate.leave()
    first.join(ENDS)
    assert first.result == pid  # it ran in its own process, and answered


def test_a_paused_computation_resumes_and_its_pause_is_not_counted(
    database: str, gate: Gate
) -> None:
    """Given 3 s, a computation paused for 4 s by a request of another process is answered
    once that request is: the budget counts the time it ran."""
    pool = Pool(size=1, seconds=3, inline_work=0, database=database)
    gate.enter()
    start = time.monotonic()
    call = Call(pool, os.getpid)
    [(pid, paused)] = wait_for(pool.gate.computing)
    assert paused
    wait_for(lambda: state(pid) == "T")  # stopped
    time.sleep(4)
    assert call.is_alive() and state(pid) == "T"
    gate.leave()
    call.join(ENDS)
    assert call.result == pid  # it ran in its own process, and answered
    assert call.ended - start > 4
    assert pool.counts == {"running": 0, "started": 1, "stopped": 0}


def test_a_computation_paused_too_long_is_stopped(database: str, gate: Gate) -> None:
    pool = Pool(size=1, seconds=0.5, inline_work=0, database=database)
    gate.enter()
    start = time.monotonic()
    with pytest.raises(TooLarge, match=r"it gives one request 0\.5 s; run it yourself with: x"):
        pool.call(None, 1, spin, 0.1, command="x")
    # it waited its patience (not stopped at once), and was stopped (not left paused)
    assert PATIENCE * 0.5 <= time.monotonic() - start < 300
    gate.leave()
    assert pool.gate.computing() == []


def test_a_client_that_leaves_stops_its_paused_computation(database: str, gate: Gate) -> None:
    pool = Pool(size=1, seconds=60, inline_work=0, database=database)
    seen: set[int] = set()

    class Leaving:
        """A client that leaves half a second after it asked."""

        def __init__(self) -> None:
            self.at = time.monotonic() + 0.5

        async def is_disconnected(self) -> bool:
            seen.update(pid for pid, _ in pool.gate.computing())
            return time.monotonic() > self.at

    def call() -> Any:
        return pool.call(Leaving(), 1, spin, 30.0, command="x")

    gate.enter()
    with pytest.raises(Gone):
        anyio.run(anyio.to_thread.run_sync, call)
    gate.leave()
    [pid] = seen
    wait_for(lambda: not Path(f"/proc/{pid}").exists() or state(pid) == "Z")
    assert pool.counts == {"running": 0, "started": 1, "stopped": 1}


ANSWERING = """
import sys, time
from bullscows.web.gate import Gate
gate = Gate(sys.argv[1], 1)
gate.enter()  # a request being answered, never done
print("answering", flush=True)
time.sleep(600)
"""


def test_a_request_of_another_process_pauses_and_its_death_resumes(database: str) -> None:
    """Another process of the server answering a request pauses this process's computation;
    killed (``kill -9``) while answering it, it pauses nothing more."""
    pool = Pool(size=1, seconds=60, inline_work=0, database=database)
    other = subprocess.Popen([sys.executable, "-c", ANSWERING, database], stdout=subprocess.PIPE)
    try:
        assert other.stdout is not None and other.stdout.readline() == b"answering\n"
        assert pool.gate.busy() == 1
        call = Call(pool, os.getpid)
        [(pid, _)] = wait_for(pool.gate.computing)
        wait_for(lambda: state(pid) == "T")
        time.sleep(0.5)
        assert call.is_alive()
    finally:
        other.kill()
        other.wait()
    call.join(ENDS)
    assert call.result == pid
    assert pool.gate.busy() == 0


def test_the_server_s_workers_run_one_computation_at_a_time(tmp_path: Path) -> None:
    """``--workers 2 --pool 1``: three analyses of the wide variant asked at once never run
    two computations at the same time, across both workers; each is stopped at its budget
    (422) or refused after waiting as long (503)."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    options = ("--workers", "2", "--pool", "1", "--compute-seconds", "2")
    with server(database, *options) as base:
        game_id = wide_game(database)
        watching = Gate(database, 1)
        statuses: list[int] = []

        def analysis() -> None:
            with httpx.Client(base_url=base, timeout=ENDS) as own:  # 60 s timed out, loaded
                statuses.append(own.get(f"/api/games/{game_id}/analysis").status_code)

        threads = [threading.Thread(target=analysis) for _ in range(3)]
        for thread in threads:
            thread.start()
        most = 0
        while any(thread.is_alive() for thread in threads):
            most = max(most, len(watching.computing()))
            time.sleep(0.02)
        watching.close()
    assert most == 1
    assert len(statuses) == 3, statuses  # each answered (a thread that raised adds none)
    assert sorted(statuses)[0] == 422 and set(statuses) <= {422, 503}, statuses
