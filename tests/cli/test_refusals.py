"""A piped game names each line it refuses once, on standard error, where a script looks,
and ends with exit code 1; the transcript on standard output goes on without it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Code, Rules, score
from bullscows.cli import main
from bullscows.sessions import Codebreaker, seeded_secret

BC = Rules.parse("bc")


def piped(args: list[str], lines: list[str], tmp_path: Path) -> Result:
    """``bullscows ARGS`` with ``lines`` piped in, keeping its games in a record of its own:
    a warning that the test run's shared record could not take one (busy, say) would be a
    second line on stderr."""
    record = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return CliRunner().invoke(main, args, input="".join(f"{line}\n" for line in lines),
                              env={"COLUMNS": "300", "BULLSCOWS_DATABASE": record})  # fmt: skip


@pytest.mark.parametrize(
    ("args", "lines", "error"),
    [
        (["play", "--seed", "1"], ["12", "quit"], "Error: line 1: code '12' has 2 symbols"),
        (["duel", "--seed", "1"], ["0123", "lots", "quit"], "Error: line 2: cannot read reply"),
        (["solve", "--seed", "1"], ["lots", "quit"], "Error: line 1: cannot read reply 'lots'"),
        (["assist", "--seed", "1"], ["70x9 1 1", "quit"], "Error: line 1: '70x9 1 1': code '70x9'"),
    ],
)
def test_a_refused_line_goes_to_stderr(
    args: list[str], lines: list[str], error: str, tmp_path: Path
) -> None:
    result = piped(args, lines, tmp_path)
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    [line] = lines
    assert line.startswith(error)
    # Every command alike: said once, on stderr; the transcript's prompt line is ended.
    assert line.removeprefix("Error: ") not in result.stdout
    assert "Error" not in result.stdout
    assert re.search(r"(?m)(: |> )$", result.stdout)  # the prompt of the refused line


def test_contradicting_replies_from_a_script_are_named_on_stderr() -> None:
    result = CliRunner().invoke(main, ["solve", "--seed", "1"], input="0 0\n0 0\n0 0\n4 0\n")
    assert result.exit_code == 1
    assert result.stderr == "Error: line 2 makes the replies contradict each other.\n"
    assert "makes the replies contradict" not in result.stdout
    assert "Your replies contradict each other: no code fits them all." in result.stdout


def test_a_fix_that_contradicts_from_a_script_ends_the_run_too() -> None:
    # Like a reply: a line that makes the replies contradict each other is named, explained
    # and ends the run (the 'undo' after it is never read).
    lines = "0 0\n0 4\nfix 1 0 4\nundo\nquit\n"
    result = CliRunner().invoke(main, ["solve", "--seed", "1"], input=lines)
    assert result.exit_code == 1
    assert "line 3 makes the replies contradict each other." in result.stderr
    assert "#1 0123: 0 bulls, 0 cows is now 0 bulls, 4 cows" in result.stdout
    assert "took back" not in result.stdout
    lines = "0123\n0 0\n4567\n0 4\nfix 1 0 4\nquit\n"  # a duel, at its guess prompt too
    result = CliRunner().invoke(main, ["duel", "--seed", "1"], input=lines)
    assert result.exit_code == 1 and "line 5 makes the replies" in result.stderr


def test_play_with_hard_mode_and_a_guess_limit() -> None:
    secret = seeded_secret(BC, 1)
    reply = score(secret, Code("1389", BC))
    fits = Codebreaker(BC).record("1389", reply).candidate_codes(2)
    wrong = next(code.text for code in fits if code != secret)
    misfit = next(
        c for c in ("4567", "1234", "0123") if score(Code(c, BC), Code("1389", BC)) != reply
    )
    result = CliRunner().invoke(
        main, ["play", "--seed", "1", "--hard", "--max-guesses", "2"],
        input=f"1389\n{misfit}\n{wrong}\n", env={"COLUMNS": "300"},
    )  # fmt: skip
    assert result.exit_code == 1  # the misfit was refused
    assert f"line 2: hard mode: {misfit} does not fit reply #1 1389" in result.stderr
    assert "Hard mode: every guess must fit every reply so far." in result.stdout
    assert "You have 2 guesses." in result.stdout
    assert "No guesses left: you have used all 2." in result.stdout
    assert f"The secret was {secret}." in result.stdout
    one = CliRunner().invoke(main, ["play", "--seed", "1", "--max-guesses", "1"], input="1389\n")
    assert "No guesses left: you have used your one guess." in one.stdout  # not 'all 1'


@pytest.mark.parametrize(
    ("args", "lines", "error"),
    [
        (["solve", "--seed", "1"], ["0 1", "fix 1 9 9", "quit"],
         "Error: line 2: 'fix 1 9 9': reply '9 9': 9 bulls and 9 cows make 18"),
        (["solve", "--seed", "1"], ["0 1", "fix 1 lots", "quit"],
         "Error: line 2: 'fix 1 lots': cannot read reply 'lots'"),
        (["solve", "--seed", "1"], ["0 1", "fix 3 0 0", "quit"],
         "Error: line 2: 'fix 3 0 0': there is no reply #3 to correct"),
        (["assist"], ["0123 0 1", "fix 2 1 1", "quit"],
         "Error: line 2: 'fix 2 1 1': there is no reply #2 to correct"),
        (["duel", "--seed", "1"], ["0123", "0 1", "fix 1 5 0", "quit"],
         "Error: line 3: 'fix 1 5 0': reply '5 0'"),
    ],
)  # fmt: skip
def test_a_fix_that_cannot_be_made_from_a_script_is_a_refused_line(
    args: list[str], lines: list[str], error: str, tmp_path: Path
) -> None:
    # It was only warned about, on standard output, and the run ended with exit code 0: a
    # script's replies were then not what it said, and nothing told it so.
    result = piped(args, lines, tmp_path)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith(error), line


@pytest.mark.parametrize("word", ["quit", "Q", "give up"])
def test_a_word_that_quits_skips_the_check_of_the_secret(word: str, tmp_path: Path) -> None:
    # 'quit' was read as a code ("'q' is not a symbol") and the question asked again.
    result = piped(["solve"], ["4 0", word], tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    assert result.stdout.count("What was your secret?") == 1  # not asked again


def test_a_secret_that_is_no_code_is_a_refused_line(tmp_path: Path) -> None:
    # It was said on standard output, and the run ended with exit code 0.
    result = piped(["solve"], ["4 0", "12", "0123"], tmp_path)
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        "Error: line 2: code '12' has 2 symbols; a code has 4, e.g. '0123'; type your secret, "
        "or Enter to skip\n"
    )
    assert result.stdout.endswith("Every reply you gave was right.\n")


@pytest.mark.parametrize(
    ("args", "typed", "meant"),
    [
        (["play", "--seed", "1"], "hsitory", "history"),
        (["play", "--seed", "1"], "qiut", "quit"),
        (["solve", "--seed", "1"], "udno", "undo"),
        (["assist"], "lsit", "list"),
        (["duel", "--seed", "1"], "hlep", "help"),
    ],
)
def test_a_misspelt_command_says_which_was_meant(
    args: list[str], typed: str, meant: str, tmp_path: Path
) -> None:
    # It was refused as a code or a reply that cannot be read, and nothing more.
    result = piped(args, [typed, "quit"], tmp_path)
    assert result.exit_code == 1, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: line 1: ") and line.endswith(f" (did you mean {meant!r}?)")


def test_a_code_that_cannot_be_read_gets_no_suggestion(tmp_path: Path) -> None:
    result = piped(["play", "--seed", "1"], ["12x4", "quit"], tmp_path)
    assert result.stderr == "Error: line 1: code '12x4': 'x' is not a symbol; symbols are 0-9\n"
