"""``bullscows serve`` stopped by Ctrl-C: one process or several, the same end (exit 0 and one
line, no traceback), as a terminal sends it: SIGINT to every process of the job."""

from __future__ import annotations

import re
import signal
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bullscows.cli.serve import GETTING_READY

from .conftest import (
    LIMIT,
    LINUX,
    command_line,
    console_script,
    ctrl_c,
    descendants,
    ignores_interrupts,
    job,
    private_env,
)


def forkservers(pid: int) -> list[int]:
    """The processes the server's computations fork from, below process ``pid``."""
    return [child for child in descendants(pid) if "forkserver" in command_line(child)]


def catches_sigchld(pid: int) -> bool:
    """Whether process ``pid`` has a handler of SIGCHLD (its SigCgt mask; a forkserver sets
    one once it has loaded its modules)."""
    status = Path(f"/proc/{pid}/status").read_text()
    found = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.M)
    return found is not None and bool(int(found.group(1), 16) & (1 << (signal.SIGCHLD - 1)))


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
    # a SQLAlchemy URL, or (two workers) a plain path, read as the same SQLite file
    file = tmp_path / "games.db"
    database = str(file) if workers > 1 else f"sqlite:///{file}"
    command = [sys.executable, "-c", console_script(), "serve", "--port", "0",
               "--database", database, "--workers", str(workers)]  # fmt: skip
    with job(command, private_env()) as process:
        assert process.stdout is not None
        serving = process.stdout.readline()
        assert serving.startswith("bullscows serving on http://127.0.0.1:"), serving
        assert serving.endswith(f"games kept in sqlite:///{file})\n"), serving
        assert file.is_file()
        port = int(serving.split(":")[2].split("/")[0])
        deadline = time.monotonic() + LIMIT
        while not ready(process.pid, port, workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert ready(process.pid, port, workers), "the server did not start"
        _, err = ctrl_c(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.splitlines() == [GETTING_READY, "", "Server stopped."], err
    assert process.returncode == 0, err


@pytest.mark.skipif(not LINUX, reason="reads the processes from /proc")
def test_ctrl_c_while_the_forkserver_still_loads_prints_no_traceback(tmp_path: Path) -> None:
    """Ctrl-C in the first seconds, while the computations' forkserver still imports the
    library (before it serves: it catches SIGCHLD from then on), stops the server as quietly
    as later."""
    database = f"sqlite:///{tmp_path / 'games.db'}"
    command = [sys.executable, "-c", console_script(), "serve", "--port", "0",
               "--database", database]  # fmt: skip
    with job(command, private_env()) as process:
        assert process.stdout is not None
        assert process.stdout.readline().startswith("bullscows serving on http://127.0.0.1:")
        deadline, loading = time.monotonic() + LIMIT, []
        while not loading and time.monotonic() < deadline:
            loading = [s for s in forkservers(process.pid) if not catches_sigchld(s)]
            time.sleep(0.02)
        assert loading, "no forkserver was seen loading"
        _, err = ctrl_c(process)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert process.returncode == 0, err
