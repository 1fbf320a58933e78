"""The real command, each interactive command fed random lines on stdin: whatever the lines
(text, bytes that are not UTF-8, huge numbers, commands at odd moments), it never prints a
traceback, its lines stay short, and it ends when its input does.

Each command runs a few times by default (a process start is slow);
``BULLSCOWS_FUZZ_RUNS=50 pytest tests/cli/test_fuzz_commands.py`` runs it longer. The examples
are derandomised (the same lines every run, so a failure repeats) and each process gets the
test run's own cache and record of games (``private_env``), never the user's, which other
processes may be writing at the same time.
"""

from __future__ import annotations

import os
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import BULLSCOWS, private_env

RUNS = int(os.environ.get("BULLSCOWS_FUZZ_RUNS", "3"))

#: What a person might type, and what a hostile one might.
WORDS = [
    "0123", "1234", "5678", "1122", "9876", "0 0", "1 2", "4 0", "1B2C", "bcc", "undo", "u",
    "list", "next", "hint", "history", "help", "?", "", "9" * 5000, "0123 " + "9" * 5000,
    "0123 1 2", "1234 0 4", "x" * 3000, "🐮", "\t", "quit",
]  # fmt: skip
line = st.one_of(
    st.sampled_from(WORDS).map(str.encode),
    st.text(max_size=40).map(str.encode),
    st.binary(max_size=40).filter(lambda b: b"\n" not in b and b"\r" not in b),
)
#: The commands with a dialogue, and arguments that keep each game small.
COMMANDS = {
    "play": ["play", "--rules", "p3c5n", "--hint"],
    "play-adversary": ["play", "--rules", "mm", "--adversary"],
    "solve": ["solve", "--rules", "p3c5n"],
    "solve-plain": ["solve", "--rules", "p3c5n", "--plain"],
    "duel": ["duel", "--rules", "p3c5n"],
    "assist": ["assist", "--rules", "mm"],
}


def run(args: list[str], lines: list[bytes], seed: int) -> subprocess.CompletedProcess[bytes]:
    stdin = b"".join(text.replace(b"\n", b" ") + b"\n" for text in lines)
    try:
        return subprocess.run(
            [str(BULLSCOWS), *args, "--seed", str(seed)],
            input=stdin,
            capture_output=True,
            env=private_env(),
            timeout=300,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{args} --seed {seed} fed {lines!r} did not end within 300 s")


@pytest.mark.parametrize("name", sorted(COMMANDS))
@settings(max_examples=RUNS, derandomize=True, suppress_health_check=list(HealthCheck))
@given(lines=st.lists(line, max_size=30), seed=st.integers(-(10**6), 10**6))
def test_random_lines_never_crash_a_command(name: str, lines: list[bytes], seed: int) -> None:
    result = run(COMMANDS[name], lines, seed)
    shown = f"{name} fed {lines!r}:\n{result.stdout.decode(errors='replace')[-3000:]}"
    shown += result.stderr.decode(errors="replace")[-3000:]
    assert b"Traceback" not in result.stdout + result.stderr, shown
    # From a pipe every command ends with 1 when it refused a line (or the replies contradict
    # each other), else with 0 at the end of the input.
    assert result.returncode in (0, 1), shown
    longest = max((len(text) for text in (result.stdout + result.stderr).splitlines()), default=0)
    assert longest < 1000, shown
