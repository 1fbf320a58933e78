"""SIGTERM stops a command as Ctrl-C does: a long ``bullscows tree`` search run in the
background (Ctrl-C ignored, as a shell's background job has it) and stopped with ``kill``
prints where it stood, keeps its checkpoint, says so and exits 130, on threads or on a
local Dask cluster; a second signal during the wind-down ends the process at once. Every
wait is a poll with a limit of minutes, never a timing."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bullscows.search.checkpoint import Checkpoint
from bullscows.search.kept import sets_path
from bullscows.tree import check_tree, load_tree

from .conftest import (
    BULLSCOWS,
    LIMIT,
    LINUX,
    _default_interrupt,
    console_script,
    ignore_interrupt,
    job,
    private_env,
    workers,
)

#: A search far longer than the test on any machine (p4c9r's optimum is open: hours), whose
#: first parts are answered within seconds of its start.
LONG = ["tree", "--rules", "p4c9r", "--strategy", "optimal", "--jobs", "2"]


def _answers(path: Path) -> int:
    """The answers a checkpoint holds so far (its lines after the header)."""
    return max(0, len(path.read_bytes().splitlines()) - 1) if path.exists() else 0


def _assert_interrupted(process: subprocess.Popen[str], stderr: str, checkpoint: Path) -> None:
    """The search ended as interrupted: exit 130, no traceback, the checkpoint named."""
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    assert stderr.splitlines()[-1] == (
        f"Interrupted; the answers so far are in {checkpoint}: run the same command to resume."
    )


def _poll(ready: Callable[[], bool], process: subprocess.Popen[str], what: str) -> None:
    """Wait until ``ready()``, at most ``LIMIT`` seconds, while the process runs."""
    deadline = time.monotonic() + LIMIT
    while not ready():
        assert process.poll() is None, f"ended before {what}: {process.communicate()}"
        assert time.monotonic() < deadline, f"not {what} within {LIMIT:.0f} s"
        time.sleep(0.2)


def _ignored_then_stopped(
    process: subprocess.Popen[str], checkpoint: Path, ignored: signal.Signals
) -> int:
    """Send ``ignored`` (a signal the job was started ignoring), see the search answer one
    more part after it, then stop it with SIGTERM; the answers seen when it was sent."""
    process.send_signal(ignored)
    seen = _answers(checkpoint)
    _poll(lambda: _answers(checkpoint) > seen, process, f"answering after {ignored.name}")
    process.send_signal(signal.SIGTERM)
    return seen


def test_sigterm_stops_a_background_search_and_keeps_its_checkpoint(tmp_path: Path) -> None:
    checkpoint, out = tmp_path / "p4c9r.ckpt", tmp_path / "p4c9r.json"
    command = [str(BULLSCOWS), *LONG, "--checkpoint", str(checkpoint), "--out", str(out)]
    with job(command, private_env(), ignore_ctrl_c=True) as process:
        _poll(lambda: _answers(checkpoint) >= 1, process, "a part answered")
        # Ctrl-C, ignored by the job's choice: the search goes on answering parts.
        seen = _ignored_then_stopped(process, checkpoint, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=LIMIT)
    _assert_interrupted(process, stderr, checkpoint)
    # Where it stood, as a time limit prints it, and the best tree found (if any) in --out.
    lines = stdout.splitlines()
    assert lines[0] == "p4c9r: 4 symbols of 0-8, repeats allowed (6,561 secrets)", stdout
    assert lines[1].startswith("  optimal stopped at an interrupt (Ctrl-C or SIGTERM), after ")
    assert lines[2].startswith("  lower bound   ") and lines[3].startswith("  upper bound   ")
    if lines[3].endswith("none yet"):
        assert f"No tree found yet: nothing written to {out}" in stderr and not out.exists()
    else:
        found = check_tree(load_tree(out))
        assert found.problems == [] and found.summary is not None
        assert lines[3] == f"  upper bound   {found.summary.total:,} (the best tree found)"
    kept = Checkpoint(checkpoint, "p4c9r", "total", None, False)  # read back, as on resuming
    assert kept.resumed >= seen + 1


def test_sighup_stops_a_search_whose_terminal_closed_and_keeps_its_sets(tmp_path: Path) -> None:
    # The terminal closed (an SSH link lost): the search stops as on Ctrl-C, and the sets
    # settled inside its unfinished parts are kept beside the checkpoint (before, SIGHUP's
    # default ended the process at once and they were lost).
    checkpoint = tmp_path / "p4c9r.ckpt"
    with job([str(BULLSCOWS), *LONG, "--checkpoint", str(checkpoint)], private_env()) as process:
        _poll(lambda: _answers(checkpoint) >= 1, process, "a part answered")
        process.send_signal(signal.SIGHUP)
        stdout, stderr = process.communicate(timeout=LIMIT)
    _assert_interrupted(process, stderr, checkpoint)
    assert "  kept          " in stdout and sets_path(checkpoint).stat().st_size > 0, stdout


def test_a_search_started_with_sighup_ignored_goes_on(tmp_path: Path) -> None:
    # `nohup bullscows tree ...`: SIGHUP ignored at the start stays ignored.
    checkpoint = tmp_path / "p4c9r.ckpt"
    command = [str(BULLSCOWS), *LONG, "--checkpoint", str(checkpoint)]
    with job(command, private_env(), ignore_ctrl_c=True, ignore_hangup=True) as process:
        _poll(lambda: _answers(checkpoint) >= 1, process, "a part answered")
        _ignored_then_stopped(process, checkpoint, signal.SIGHUP)
        _, stderr = process.communicate(timeout=LIMIT)
    _assert_interrupted(process, stderr, checkpoint)


@pytest.fixture
def cluster() -> Iterator[str]:
    """A Dask cluster of two worker processes of one thread each, on this machine only, on
    free ports; closed at the end."""
    pytest.importorskip("dask.distributed")
    from local_cluster import local_cluster

    with local_cluster() as address:
        yield address


def test_sigterm_stops_a_search_on_a_dask_cluster_which_goes_on(
    cluster: str, tmp_path: Path
) -> None:
    # The same search on the cluster's workers: SIGTERM stops it as on threads, its tasks
    # under way stop on their workers, and the cluster takes other work.
    from dask.distributed import Client

    from local_cluster import executing

    checkpoint, out = tmp_path / "p4c9r.ckpt", tmp_path / "p4c9r.json"
    command = [str(BULLSCOWS), "tree", "--rules", "p4c9r", "--strategy", "optimal",
               "--scheduler", cluster, "--checkpoint", str(checkpoint),
               "--out", str(out)]  # fmt: skip
    with job(command, private_env(), ignore_ctrl_c=True) as process:
        _poll(lambda: _answers(checkpoint) >= 1, process, "a part answered")
        seen = _answers(checkpoint)
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=LIMIT)
    _assert_interrupted(process, stderr, checkpoint)
    assert "distributed" not in stderr, stderr  # nor a word of Dask's as its client closes
    lines = stdout.splitlines()
    assert lines[0] == "p4c9r: 4 symbols of 0-8, repeats allowed (6,561 secrets)", stdout
    assert lines[1].startswith("  optimal stopped at an interrupt (Ctrl-C or SIGTERM), after ")
    assert lines[2].startswith("  lower bound   ") and lines[3].startswith("  upper bound   ")
    assert out.exists() != lines[3].endswith("none yet")
    kept = Checkpoint(checkpoint, "p4c9r", "total", None, False)  # read back, as on resuming
    assert kept.resumed >= seen
    client = Client(cluster)
    try:  # its tasks stopped on the workers, which take others
        deadline = time.monotonic() + LIMIT
        while executing(client) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert executing(client) == 0, "the search's tasks ran on"
        assert client.submit(abs, -3).result(timeout=LIMIT) == 3
    finally:
        client.close()


@pytest.mark.skipif(not LINUX, reason="reads the processes from /proc")
def test_sigterm_to_the_whole_job_ends_its_worker_processes_without_a_word() -> None:
    # `kill -- -PGID` (or a service manager) sends SIGTERM to every process of the job: the
    # pool's processes end at once, silently, and the command says it was interrupted. bc5's
    # bench takes minutes: still under way when its pool's processes have taken their tasks.
    command = [str(BULLSCOWS), "bench", "--rules", "bc5", "--strategy", "cows", "--jobs", "2"]
    with job([*command, "--seed", "1"], private_env()) as process:
        deadline = time.monotonic() + LIMIT
        while len(pool := workers(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert len(pool) == 2, "the pool's processes did not start"
        while not all(map(_working, pool)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert all(map(_working, pool)), "the pool's processes did not take their tasks"
        os.killpg(process.pid, signal.SIGTERM)
        out, err = process.communicate(timeout=LIMIT)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "Error" not in err, err
    assert err.splitlines()[-1] == (
        "Interrupted: the bench stopped before its figures were complete."
    )
    assert out == ""
    deadline = time.monotonic() + LIMIT
    while any(Path(f"/proc/{pid}").exists() for pid in pool) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert [pid for pid in pool if Path(f"/proc/{pid}").exists()] == []


def _working(pid: int) -> bool:
    """Whether process ``pid`` has loaded numpy's compiled modules (for a task of the
    bench's: the pool's processes start without them)."""
    try:
        return "numpy" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:  # it ended
        return False


#: Sends this process a signal as it begins to import a module: ``{sent}`` maps each module's
#: name to the signal's (each sent once).
HOOK = """\
import signal, sys

class Signal:
    sent = {sent!r}

    def find_spec(self, name, path=None, target=None):
        if name in self.sent:
            signal.raise_signal(getattr(signal, self.sent.pop(name)))
        return None

sys.meta_path.insert(0, Signal())
"""


#: Sends this process SIGTERM from a finalizer (``__del__``) as it begins to import numpy.
FINALIZER = """\
import signal, sys

class Finalized:
    def __del__(self):
        signal.raise_signal(signal.SIGTERM)  # its handler runs here, in the finalizer

class Hook:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy":
            sys.meta_path.remove(self)
            Finalized()  # dropped at once
        return None

sys.meta_path.insert(0, Hook())
"""


def _signalled(
    sent: dict[str, str], *args: str, ignore_ctrl_c: bool = False
) -> subprocess.CompletedProcess[str]:
    """``bullscows args`` sent a signal as it begins to import each module ``sent`` names
    (module -> signal); Ctrl-C ignored from its start if ``ignore_ctrl_c``, else not (even
    where this suite runs with it ignored)."""
    return _hooked(HOOK.format(sent=sent), *args, ignore_ctrl_c=ignore_ctrl_c)


def _hooked(hook: str, *args: str, ignore_ctrl_c: bool = False) -> subprocess.CompletedProcess[str]:
    """``bullscows args`` run after the Python source ``hook``."""
    source = hook + console_script()
    return subprocess.run(
        [sys.executable, "-c", source, *args], capture_output=True, text=True,
        stdin=subprocess.DEVNULL, env=private_env(), timeout=LIMIT, check=False,
        preexec_fn=ignore_interrupt if ignore_ctrl_c else _default_interrupt,
    )  # fmt: skip


@pytest.mark.parametrize("ignore_ctrl_c", [False, True])
def test_sigterm_at_any_moment_ends_with_one_line_and_130(ignore_ctrl_c: bool) -> None:
    result = _signalled({"numpy": "SIGTERM"}, "play", "--seed", "1", ignore_ctrl_c=ignore_ctrl_c)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == "Interrupted.", result.stderr
    assert result.returncode == 130, result.stderr


def test_sigterm_during_a_finalizer_stops_the_command_all_the_same() -> None:
    # Python loses an exception raised in a finalizer and prints it ("Exception ignored in
    # ... __del__", with a traceback): the stop is made once the finalizer is done instead.
    result = _hooked(FINALIZER, "play", "--seed", "1")
    assert "Traceback" not in result.stderr and "ignored" not in result.stderr, result.stderr
    assert result.stderr.strip() == "Interrupted.", result.stderr
    assert (result.returncode, result.stdout) == (130, ""), result.stderr


def test_a_second_signal_while_a_finalizer_runs_ends_at_once() -> None:
    # The first stop is put off past the finalizer; the second, still inside it, ends the
    # process there (before, it only put the first off again).
    twice = "signal.raise_signal(signal.SIGTERM); signal.raise_signal(signal.SIGTERM)"
    result = _hooked(FINALIZER.replace("signal.raise_signal(signal.SIGTERM)", twice, 1), "play")
    assert result.stderr.strip() == "Stopped at once.", result.stderr
    assert (result.returncode, result.stdout) == (130, ""), result.stderr


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    result = _signalled({"bullscows.cli.info": "SIGINT"}, "score", "1234", "4130",
                        ignore_ctrl_c=True)  # fmt: skip
    assert (result.returncode, result.stdout) == (0, "1 bull, 2 cows\n"), result.stderr


@pytest.mark.parametrize("second", ["SIGTERM", "SIGINT"])
def test_a_second_signal_during_the_wind_down_ends_at_once(second: str) -> None:
    # The first SIGTERM stops the command as it loads; the second comes as the entry point
    # loads what it says that with (bullscows.errors): the process ends there, with its own
    # line alone and no traceback.
    result = _signalled({"bullscows.cli": "SIGTERM", "bullscows.errors": second},
                        "score", "1234", "4130")  # fmt: skip
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip() == "Stopped at once.", result.stderr
    assert result.returncode == 130, result.stderr
