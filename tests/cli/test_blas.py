"""The command keeps NumPy's BLAS library to one thread (nothing multiplies matrices), unless
the user chose otherwise: its own threads would only spin on the cores the work needs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

#: A command run in a new process, then NumPy (already imported by it, or imported now):
#: the variable as the command left it, and the process's threads.
_SCRIPT = """
import os
from bullscows.cli import main
try:
    main(["tree", "--rules", "p2c3n", "--strategy", "minimax"])
except SystemExit:
    pass
import numpy
print(os.environ.get("OPENBLAS_NUM_THREADS"), len(os.listdir("/proc/self/task")))
"""

pytestmark = pytest.mark.skipif(
    not os.path.isdir("/proc/self/task") or (os.cpu_count() or 1) < 2,
    reason="counts the threads in /proc; a single core starts no BLAS thread anyway",
)


def _run(**extra: str) -> list[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    done = subprocess.run(
        [sys.executable, "-c", _SCRIPT], env={**env, **extra}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[-2:]


def test_a_command_keeps_blas_to_one_thread() -> None:
    assert _run() == ["1", "1"]


def test_the_users_choice_is_kept() -> None:
    variable, threads = _run(OPENBLAS_NUM_THREADS="2")
    assert variable == "2" and int(threads) >= 2
