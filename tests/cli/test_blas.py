"""The command keeps NumPy's BLAS library to one thread (nothing multiplies matrices), unless
the user chose otherwise: its own threads would only spin on the cores the work needs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: A command run in a new process, then NumPy (already imported by it, or imported now):
#: the variable as the command left it, and the process's threads once at most ``sys.argv[1]``
#: are left or 60 s have passed. A thread the command joined (its progress watcher) may still
#: be listed a moment: Python's ``join`` returns before the system thread has ended.
_SCRIPT = """
import os, sys, time
from bullscows.cli import main
try:
    main(["tree", "--rules", "p2c3n", "--strategy", "minimax"])
except SystemExit:
    pass
import numpy
end = time.monotonic() + 60
while len(os.listdir("/proc/self/task")) > int(sys.argv[1]) and time.monotonic() < end:
    time.sleep(0.01)
print(os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task")))
"""

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="counts the threads in /proc; a single core starts no BLAS thread anyway",
)


def _run(threads: int, **extra: str) -> list[str]:
    """The script's two words, once at most ``threads`` threads are left."""
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(threads)], env={**env, **extra},
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-2:]


def test_a_command_keeps_blas_to_one_thread() -> None:
    assert _run(1) == ["1", "1"]


def test_the_users_choice_is_kept() -> None:
    variable, threads = _run(2, OPENBLAS_NUM_THREADS="2")
    assert variable == "2" and int(threads) >= 2
