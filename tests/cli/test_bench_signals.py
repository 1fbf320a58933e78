"""``bullscows bench`` as a process: Ctrl-C with a pool of processes, and its progress bars
in a terminal (the point of both is the terminal, so they run the real console script)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pexpect
import pytest

from .conftest import (
    BULLSCOWS,
    ENV,
    LIMIT,
    LINUX,
    ctrl_c,
    ignores_interrupts,
    job,
    workers,
)

#: The environment of the commands run, with the path to this source where one is set.
RUN_ENV = {**ENV, **{k: v for k, v in os.environ.items() if k == "PYTHONPATH"}}


@pytest.mark.skipif(not LINUX, reason="reads the processes from /proc")
def test_ctrl_c_with_processes_stops_them_with_one_line() -> None:
    # bc5's bench takes minutes (bc's, 15 s on a loaded 2-core machine): under way a
    # second after its pool started on any machine.
    command = [str(BULLSCOWS), "bench", "--rules", "bc5", "--strategy", "cows", "--jobs", "2"]
    with job([*command, "--seed", "1"], RUN_ENV) as process:
        deadline = time.monotonic() + LIMIT
        while len(pool := workers(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(pool) == 2, "the pool's processes did not start"
        # The terminal sends Ctrl-C to every process of the job: only the command answers.
        assert all(ignores_interrupts(pid) for pid in pool)
        time.sleep(1)
        out, err = ctrl_c(process)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.splitlines()[-1] == (
        "Interrupted: the bench stopped before its figures were complete."
    )
    assert out == ""
    deadline = time.monotonic() + LIMIT  # stopped too: at once, or soon on a loaded machine
    while (left := [pid for pid in pool if Path(f"/proc/{pid}").exists()]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.1)
    assert left == []


def test_progress_bars_with_the_time_left_in_a_terminal() -> None:
    env = {**RUN_ENV, "TERM": "xterm"}  # a terminal that redraws (rich draws no bar on 'dumb')
    child = pexpect.spawn(
        str(BULLSCOWS), ["bench", "--rules", "bc", "--strategy", "random-consistent"],
        env=env, encoding="utf-8", timeout=LIMIT, dimensions=(50, 200),
    )  # fmt: skip
    try:
        child.expect(r"Playing 1 strategy over all 5,040 secrets of bc")
        # The bar: its label, done of total, time spent and the time left at its pace.
        left = r"(\d:\d\d:\d\d left|estimate unknown)"
        child.expect(r"random-consistent\s+\S*\s+\d+/5040 \d:\d\d:\d\d " + left)
        child.expect(r"random-consistent\s+27,")  # then the table
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
