"""``bullscows serve`` stopped by Ctrl-C: one process or several, the same end (exit 0 and one
line, no traceback), as a terminal sends it: SIGINT to every process of the job."""

from __future__ import annotations

import sys
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import (
    LINUX,
    command_line,
    console_script,
    ctrl_c,
    descendants,
    ignores_interrupts,
    job,
    private_env,
)

#: Generous: a server process imports the whole web stack, slowly on a busy machine.
START_SECONDS = 120


def forkservers(pid: int) -> list[int]:
    """The processes the server's computations fork from, below process ``pid``."""
    return [child for child in descendants(pid) if "forkserver" in command_line(child)]


def ready(pid: int, port: int, workers: int) -> bool:
    """Whether the server answers and each of its ``workers`` processes' forkserver has
    loaded its modules (it ignores Ctrl-C from then on, as the server stops it)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as page:
            page.read()
    except OSError:
        return False
    servers = forkservers(pid)
    return len(servers) >= workers and all(ignores_interrupts(server) for server in servers)


@pytest.mark.skipif(not LINUX, reason="reads the processes from /proc")
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_the_server_with_exit_0_however_many_processes(
    workers: int, tmp_path: Path
) -> None:
    database = f"sqlite:///{tmp_path / 'games.db'}"
    command = [sys.executable, "-c", console_script(), "serve", "--port", "0",
               "--database", database, "--workers", str(workers)]  # fmt: skip
    with job(command, private_env()) as process:
        assert process.stdout is not None
        serving = process.stdout.readline()
        assert serving.startswith("bullscows serving on http://127.0.0.1:"), serving
        port = int(serving.split(":")[2].split("/")[0])
        deadline = time.monotonic() + START_SECONDS
        while not ready(process.pid, port, workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert ready(process.pid, port, workers), "the server did not start"
        _, err = ctrl_c(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip() == "Server stopped.", err
    assert process.returncode == 0, err
