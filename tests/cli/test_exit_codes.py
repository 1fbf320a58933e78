"""The table of exit codes (``docs/reference/exit-codes.md``) against the commands: each row's
example ends with the row's code."""

from __future__ import annotations

import re
import shlex
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows.cli import COMMANDS, main

from .conftest import LIMIT, LINUX, Spawn, console_script, ctrl_c, job, private_env
from .test_serve_stop import ready

PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "exit-codes.md"
#: What an example says after its command line when Ctrl-C stops it.
CTRL_C = ", then Ctrl-C"


def rows() -> list[tuple[str, int, str]]:
    """Each row of the page's table: the commands it is about, its exit code, its example."""
    found = []
    for line in PAGE.read_text().splitlines():
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 4 and cells[1].isdigit():
            found.append((cells[0], int(cells[1]), cells[3].replace("\\|", "|")))
    return found


def test_the_table_has_a_row_per_code_and_command_it_names() -> None:
    named = {(about, code) for about, code, _ in rows()}
    assert len(named) == len(rows()), "a row given twice"
    assert {("every command", code) for code in (0, 1, 2, 130)} <= named
    codes = {code for _, code, _ in rows()}
    assert codes == {0, 1, 2, 3, 4, 130}


@pytest.mark.parametrize(
    ("example", "code"),
    [(example, code) for _, code, example in rows() if not example.endswith(CTRL_C)],
)
def test_each_example_ends_with_its_code(
    example: str, code: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    line = example.strip("`")
    piped = None
    if line.startswith("printf "):
        printf, _, line = line.partition(" | ")
        piped = shlex.split(printf)[1].replace("\\n", "\n")
    program, *args = shlex.split(line)
    assert program == "bullscows", example
    result = CliRunner().invoke(main, args, input=piped, env={"NO_COLOR": "1"})
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    if code not in (0, 3, 4):  # 3 and 4 print what the search found, on stdout
        assert result.stderr.strip(), "no reason given on standard error"


def test_ctrl_c_at_a_prompt_exits_130(terminal: Spawn) -> None:
    [example] = [e for _, code, e in rows() if e.endswith(CTRL_C) and code == 130]
    game = terminal(*shlex.split(example.removesuffix(CTRL_C).strip("`"))[1:])
    game.expect_text("Your guess: ")
    game.interrupt()
    game.expect_text("Interrupted.")
    assert game.finish() == 130


@pytest.mark.skipif(not LINUX, reason="reads the processes from /proc")
def test_ctrl_c_stops_a_server_with_exit_0(tmp_path: Path) -> None:
    [example] = [e for about, _, e in rows() if about == "`serve`" and e.endswith(CTRL_C)]
    args = shlex.split(example.removesuffix(CTRL_C).strip("`"))[1:]
    database = f"sqlite:///{tmp_path / 'games.db'}"
    command = [sys.executable, "-c", console_script(), *args, "--database", database]
    with job(command, private_env()) as process:
        assert process.stdout is not None
        serving = process.stdout.readline()
        port = int(serving.split(":")[2].split("/")[0])
        deadline = time.monotonic() + LIMIT
        while not ready(process.pid, port, 1) and time.monotonic() < deadline:
            time.sleep(0.2)
        _, err = ctrl_c(process)
    assert process.returncode == 0, err
    assert err.splitlines()[-1] == "Server stopped.", err


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_exits_2_on_an_unknown_option_and_0_on_help(name: str) -> None:
    # The rows "every command" hold for each.
    wrong = CliRunner().invoke(main, [name, "--no-such-option"])
    assert wrong.exit_code == 2 and "No such option" in wrong.stderr, wrong.output
    assert CliRunner().invoke(main, [name, "--help"]).exit_code == 0
