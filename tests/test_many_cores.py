"""``benchmarks/many_cores.py``: the check of ``--jobs 16`` in one command, run here on small
searches (``--quick``) on two threads; its budget, its summary and its file."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from bench_scripts import BENCHMARKS, load


@pytest.fixture(scope="module")
def many_cores() -> ModuleType:
    return load("many_cores")


def rows_of(out: str) -> dict[str, str]:
    """The summary table's rows, by label."""
    summary = out.split("\nsummary (", 1)[1].splitlines()[1:]
    assert summary[:2] == ["| figure | value |", "|---|---|"]
    return {row.split(" | ")[0][2:]: row.split(" | ")[1].rstrip(" |") for row in summary[2:]}


def numbers(text: str) -> list[float]:
    return [float(n.replace(",", "")) for n in re.findall(r"\d[\d,]*\.?\d*", text)]


def test_the_quick_check_runs_every_step_and_sums_them_up(
    many_cores: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "check.txt"
    assert many_cores.main(["--quick", "--budget", "1800", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert out.read_text() == printed  # every line, also in the file
    for step in many_cores.STEPS:
        assert re.search(rf"^== {step}: [\d.]+ s, exit 0$", printed, re.M), step
    rows = rows_of(printed)
    assert re.fullmatch(r"[\d.]+ s", rows["numba warmed"])
    machine = rows["machine (lscpu)"]  # where lscpu is missing, the step says so
    assert "CPU(s): " in machine or machine == "no figure (lscpu ended with exit 0)"
    # the goal: the speed-up over N, and the same tree as --jobs 1's
    speed, fraction = numbers(rows["goal: speed-up at 2 (fraction of N)"])
    assert fraction == pytest.approx(speed / 2, abs=0.01)
    assert rows["goal: 2 threads"].endswith("same tree")
    one_thread = numbers(rows["goal: one thread, estimated CPU s"])[0]
    assert f"--one-thread {one_thread:.1f} --private" in printed  # the private step used it
    # the table's runs: CPU a set is CPU over sets, against one thread's
    ways = ["a shared table, sets from 0 codes", "a shared table, sets from 6 codes",
            "memos alone"]  # fmt: skip
    for way in ways:
        per_set, ratio, one, cpu, sets, *reads = numbers(rows[f"p4c6n CPU a set, 2 threads, {way}"])
        assert per_set == pytest.approx(1e6 * cpu / sets, rel=0.01)
        assert ratio == pytest.approx(per_set / one, abs=0.01)
        assert bool(reads) == ("table" in way)  # reads of the table only where there is one
    beside = rows["p3c6n CPU a set alone and beside 1 busy"]
    pairs = re.findall(r"([\d.]+) and ([\d.]+) us: ([\d.]+)", beside)
    assert len(pairs) == 2  # --repeats 2
    for alone, near, ratio in pairs:
        assert float(ratio) == pytest.approx(float(near) / float(alone), abs=0.02)
    for way in ("a shared table", "memos alone"):
        row = rows[f"p4c6n worst-count, 2 threads, {way}"]
        estimate, fraction = numbers(row.split("estimated speed-up ")[1])
        assert fraction == pytest.approx(estimate / 2, abs=0.01)


def test_a_step_that_does_not_fit_is_skipped_and_said_so(
    many_cores: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert many_cores.main(["--quick", "--budget", "3", "--steps", "goal", "beside"]) == 0
    printed = capsys.readouterr().out
    assert "== goal: skipped: planned 15 s, " in printed
    assert "== beside: skipped: planned 8 s, " in printed
    rows = rows_of(printed)
    assert rows["goal: speed-up at 2 (fraction of N)"] == "not run (goal skipped)"
    assert rows["p3c6n CPU a set alone and beside 1 busy"] == "not run (beside skipped)"
    assert rows["numba warmed"] == "not run (warm skipped)"  # not asked for


def test_a_step_past_the_budget_is_stopped_and_keeps_its_lines(
    many_cores: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a step that says a line (not flushed: to a pipe, only unbuffered output gets through),
    # then would wait 10 minutes: stopped at a budget of 30 s
    slow = [sys.executable, "-c", "import time; print('begun'); time.sleep(600)"]
    monkeypatch.setattr(many_cores, "command_of", lambda *_: slow)
    monkeypatch.setitem(many_cores.QUICK.seconds, "table", 0.1)
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # the check sets it for its steps
    assert many_cores.main(["--quick", "--budget", "30", "--steps", "table"]) == 0
    printed = capsys.readouterr().out
    assert "\n  begun\n" in printed
    assert re.search(r"^== table: stopped at the budget after [\d.]+ s", printed, re.M)
    assert (
        rows_of(printed)["p4c6n CPU a set on 2 threads"]
        == "no figure (table stopped at the budget)"
    )


def test_a_budget_of_no_seconds_is_refused(
    many_cores: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        many_cores.main(["--budget", "0"])
    assert "--budget 0: give the seconds for the whole check, as 570" in capsys.readouterr().err


#: The check on one step that writes its process id to a file (argv[1]), then would wait 10
#: minutes, as its own process.
STOPPED = f"""
import sys
sys.path.insert(0, {str(BENCHMARKS)!r})
import many_cores
code = "import os, sys, time; open(sys.argv[1] + '~', 'w').write(str(os.getpid())); "
code += "os.replace(sys.argv[1] + '~', sys.argv[1]); time.sleep(600)"
many_cores.command_of = lambda *_: [sys.executable, "-c", code, sys.argv[1]]
many_cores.QUICK.seconds["table"] = 0.1
sys.exit(many_cores.main(["--quick", "--budget", "300", "--steps", "table"]))
"""


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.parametrize(("stop", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_or_sigterm_kills_the_step_and_says_stopped(
    tmp_path: Path, stop: signal.Signals, code: int
) -> None:
    said = tmp_path / "pid"
    check = subprocess.Popen(
        [sys.executable, "-c", STOPPED, str(said)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        limit = time.monotonic() + 180
        while not said.exists() and check.poll() is None and time.monotonic() < limit:
            time.sleep(0.1)
        assert said.exists(), check.communicate()
        step = int(said.read_text())
        check.send_signal(stop)
        printed, errors = check.communicate(timeout=180)
    finally:
        if check.poll() is None:
            os.killpg(check.pid, signal.SIGKILL)
            check.wait()
    assert check.returncode == code
    assert printed.splitlines()[-1] == "stopped"
    assert errors == ""  # no traceback
    limit = time.monotonic() + 60
    while not gone(step) and time.monotonic() < limit:
        time.sleep(0.1)
    assert gone(step)  # the step's process too
