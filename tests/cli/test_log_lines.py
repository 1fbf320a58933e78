"""A long run whose stderr is not a terminal (a background run's log) writes a plain line of
its progress every ``--log-every`` seconds: the time of day in UTC, then the words of the
terminal's report. The searches here run for hours; ``--time-limit`` stops them (each line
is due by the search's own clock, so a slow machine writes them too); the bench is stopped
by SIGTERM once two lines came."""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows.cli import main

from .conftest import BULLSCOWS, LIMIT, private_env

#: Standard error a pipe, as in a background run's log.
PIPE = {"TTY_COMPATIBLE": "0", "COLUMNS": "200", "NO_COLOR": "1"}
#: A line of the log: time of day, what searches, where it stands, its seconds.
STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC  "
BOUNDS = (
    r"(lower bound [\d,]+, upper bound (none yet|[\d,]+, gap [\d,]+ \([\d.]+%\))"
    r"|bound (none yet|[\d,]+), best (none yet|[\d,]+))"
)  # the proven bounds, or before the root's search begins those of the first question
SEARCH_LINE = re.compile(
    STAMP + r"optimal on p4c9r(, first guess (?P<first>\d+) of (?P<of>\d+))?: [\d,]+ sets? "
    r"searched, " + BOUNDS + r", (?P<seconds>\d+) s(; [\d,]+ of 6,560 codes settled)?"
)  # fmt: skip
OPENING_LINE = re.compile(
    STAMP + r"opening of p4c9r: [\d,]+ sets? searched, " + BOUNDS
    + r", \d+ s; [\d,]+ of 6,528 codes settled"
)  # fmt: skip

#: The sets a line of the log says were searched.
SETS = re.compile(r"([\d,]+) sets? searched")


def tree(tmp_path: Path, *args: str) -> Result:
    env = {**PIPE, "BULLSCOWS_CACHE": str(tmp_path / "cache")}
    return CliRunner().invoke(main, ["tree", "--rules", "p4c9r", "--strategy", "optimal", *args],
                              env=env)  # fmt: skip


def test_a_search_in_a_log_writes_a_line_every_so_often(tmp_path: Path) -> None:
    result = tree(tmp_path, "--time-limit", "8", "--log-every", "2")
    assert result.exit_code in (3, 4), result.output
    announcement, *lines = result.stderr.splitlines()
    assert announcement.startswith("Searching for the optimal tree of p4c9r")
    assert len(lines) >= 2, result.stderr  # at 2, 4, 6 and 8 s of the search, about
    found = [SEARCH_LINE.fullmatch(line) for line in lines]
    assert all(found), result.stderr
    seconds = [int(match["seconds"]) for match in found if match]
    assert seconds == sorted(set(seconds)) and seconds[0] >= 2, result.stderr
    firsts = [(int(match["first"]), int(match["of"])) for match in found if match and match["of"]]
    assert firsts and all(1 <= first <= of for first, of in firsts), result.stderr
    assert result.stdout.splitlines()[1].startswith("  optimal stopped at the time limit of 8 s")


def test_a_fixed_opening_in_a_log_writes_its_lines_too(tmp_path: Path) -> None:
    result = tree(tmp_path, "--opening", "root-bound", "--time-limit", "5", "--log-every", "0.5")
    assert result.exit_code in (0, 3), result.output
    announcement, *lines = result.stderr.splitlines()
    assert announcement.startswith("Searching every part of a fixed opening of p4c9r")
    assert lines and all(OPENING_LINE.fullmatch(line) for line in lines), result.stderr


def test_a_stopped_opening_counts_the_sets_of_its_tasks_under_way(tmp_path: Path) -> None:
    # Two threads: a budget of sets is spent while tasks are under way, counted live; the
    # summary counts them as the log's lines and the budget do (not only the tasks ended).
    given = ["--opening", "root-bound", "--budget", "30000", "--jobs", "2", "--json"]
    result = tree(tmp_path, *given, "--log-every", "0.2")
    assert result.exit_code == 3, result.output
    found = json.loads(result.stdout)
    assert found["stopped"] == "the budget of 30,000 sets", found
    logged = [int(sets.replace(",", "")) for sets in SETS.findall(result.stderr)]
    assert found["sets"] >= max([30_000, *logged]), (found["sets"], result.stderr)


@pytest.mark.parametrize("given", [["--log-every", "0"], ["--quiet"]], ids=["never", "quiet"])
def test_no_lines_when_told_so(tmp_path: Path, given: list[str]) -> None:
    result = tree(tmp_path, "--time-limit", "3", "--log-every", "1", *given)
    assert result.exit_code in (3, 4), result.output
    assert not re.search(STAMP, result.stderr), result.stderr


@pytest.mark.parametrize("given", ["-1", "soon"])
def test_a_bad_interval_is_refused_in_one_line(given: str) -> None:
    result = CliRunner().invoke(main, ["tree", "--strategy", "optimal", "--log-every", given])
    assert result.exit_code == 2
    error = result.stderr.splitlines()[-1]
    assert error.startswith("Error: Invalid value for '--log-every': ") and given in error


#: A bench of minutes, whose games end in chunks of under a second each.
BENCH = ["bench", "--rules", "bc5", "--strategy", "random-consistent", "--seed", "1"]
BENCH_LINE = re.compile(STAMP + r"random-consistent: [\d,]+ of 30,240 settled, (\d+) s")


def test_a_bench_in_a_log_writes_a_line_every_so_often() -> None:
    process = subprocess.Popen(
        [str(BULLSCOWS), *BENCH, "--log-every", "0.5"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, env=private_env(), start_new_session=True,
    )  # fmt: skip
    assert process.stderr is not None
    err = process.stderr.fileno()
    told = b""
    try:
        deadline = time.monotonic() + LIMIT
        while told.count(b"\n") < 3 and time.monotonic() < deadline:
            if select.select([err], [], [], 1.0)[0]:
                read = os.read(err, 65536)
                if not read:  # it ended
                    break
                told += read
        os.killpg(process.pid, signal.SIGTERM)
        rest = process.communicate(timeout=LIMIT)[1].decode()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    announcement, *logged = told.decode().splitlines()[:3]
    assert announcement.startswith("Playing 1 strategy over all 30,240 secrets of bc5"), told
    assert len(logged) == 2 and all(BENCH_LINE.fullmatch(line) for line in logged), told
    assert process.returncode == 130 and "Traceback" not in rest, rest
