"""``bullscows candidates``: a history from arguments, a file or stdin, answered once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows.cli import main


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=input, env={"NO_COLOR": "1"})


def test_an_inconsistent_history_names_the_impossible_reply_and_exits_1() -> None:
    # It exited 0, as for any answer, where analyse exits 1 on the same history: a script
    # could not tell a history no code fits from one it could (without reading the answer).
    result = run("candidates", "7019 1 1", "5873 0 1", "7921 3 1", "--reply-style", "pair")
    assert result.exit_code == 1, result.output
    assert result.stdout.splitlines()[:2] == [
        "Inconsistent: no code fits every reply.",
        "No code can give reply #3 7921 -> 3 1.",
    ]
    assert result.stderr == "Error: no code fits every reply: the history is inconsistent\n"
    analysed = run("analyse", "7019 1 1", "5873 0 1", "7921 3 1")
    assert analysed.exit_code == result.exit_code


def test_stdin_and_file_give_the_same_answer(tmp_path: Path) -> None:
    history = "# a game\n7019 1 1\n\n5873 0 1\n"
    piped = run("candidates", "--limit", "3", input=history)
    assert piped.exit_code == 0, piped.output
    assert piped.stdout.splitlines() == [
        "Undetermined: 222 codes possible.",
        "  0215 0218 0239 ... and 219 more",
    ]
    path = tmp_path / "game.txt"
    path.write_text(history)
    assert run("candidates", "--limit", "3", "--from", str(path)).stdout == piped.stdout


def test_json_answer() -> None:
    result = run("candidates", "--rules", "mm", "--json", "1122 1 1", "3456 0 0", "1213 2 2")
    data = json.loads(result.stdout)
    assert data["status"] == "inconsistent" and data["contradiction"]["steps"]
    assert result.exit_code == 1  # the answer printed all the same
    solved = run("candidates", "--json", "1234 4 0")
    assert solved.exit_code == 0, solved.output
    assert json.loads(solved.stdout) == {
        "rules": "bc", "status": "determined", "count": 1, "codes": ["1234"],
    }  # fmt: skip


def test_bad_input_is_named_and_exits_1(tmp_path: Path) -> None:
    result = run("candidates", "0123 1 1", "12x4 0 0")
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "Error: argument 2: code '12x4': 'x' is not a symbol; symbols are 0-9"
    )
    missing = run("candidates", "--from", str(tmp_path / "none.txt"))
    assert missing.exit_code == 1 and "cannot read file" in missing.stderr
    both = run("candidates", "0123 1 1", "--from", "x.txt")
    assert both.exit_code == 2 and "not both" in both.stderr


@pytest.mark.parametrize("name", ["candidates", "analyse"])
def test_a_history_typed_without_quotes_says_to_quote_each_step(name: str) -> None:
    # 'a guess needs its reply on the same line': there is no line in an argument.
    result = run(name, "7019", "1", "1", "5873", "0", "1")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: argument 1: '7019': a guess and its reply are one argument: quote them "
        'together, e.g. "7019 1 2"\n'
    )
