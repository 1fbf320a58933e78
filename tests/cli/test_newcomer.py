"""The command line as a newcomer meets it: every ``--help`` example is a command that runs,
a bad option value is one line that quotes it, and the end of input ends a game without
another question."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from bullscows.cli import COMMANDS, main
from bullscows.cli.streams import TYPE_HISTORY

from .conftest import MY_GUESS, Spawn

#: Plain output, lines never wrapped.
ENV = {"COLUMNS": "200", "NO_COLOR": "1"}


def command(name: str) -> click.Command:
    found = main.get_command(click.Context(main), name)
    assert found is not None
    return found


def examples(name: str) -> list[str]:
    """The example command lines of ``bullscows NAME --help``, without their comments (after
    two spaces or an arrow) and without a shell's redirection."""
    text = CliRunner().invoke(main, [name, "--help"], env=ENV).stdout
    lines = [line.strip() for line in text.split("Options:")[0].splitlines()]
    shown = [re.split(r"\s{2,}|\s+->\s+|\s+<\s+", line)[0] for line in lines]
    return [line for line in shown if line.startswith("bullscows ")]


def run(line: str, input: str = "") -> Result:
    return CliRunner().invoke(main, shlex.split(line)[1:], input=input, env=ENV)


def test_bullscows_typed_alone_welcomes_with_the_commands_to_start_with() -> None:
    # It was click's help on standard error, and exit 2: an error as a newcomer's first step.
    result = CliRunner().invoke(main, [], env=ENV)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0].startswith("bullscows: ") and len(lines) <= 12, lines
    named = [line.split()[1] for line in lines if line.startswith("  bullscows ")]
    assert 3 <= len(named) <= 4 and "play" in named and set(named) <= set(COMMANDS), named
    for name in named:
        assert run(f"bullscows {name} --help").exit_code == 0
    assert lines[-1].startswith("bullscows --help ")
    assert run("bullscows --help").stdout.startswith("Usage: ")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_help_example_is_a_command_line_its_command_accepts(name: str) -> None:
    shown = examples(name)
    assert shown, f"bullscows {name} --help shows no example"
    for line in shown:
        other, *args = shlex.split(line)[1:]
        with command(other).make_context(other, args, resilient_parsing=False):
            pass  # a usage error (an unknown option, a bad value) raises here


def test_the_game_the_analyse_help_shows_is_a_game_someone_played() -> None:
    # It was not: 0123 got '0 2' from a secret of 7492, and every move after 7412 was
    # weighed against no code at all.
    [line] = [line for line in examples("analyse") if '"' in line]
    result = run(line)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith(": 4 of 4 moves analysed"), lines
    assert lines[-1].startswith("4. 7492  4 bulls, 0 cows  2 codes -> 1: optimal"), lines
    assert "No code fits" not in result.output


def test_the_tree_help_examples_run_in_order_in_an_empty_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each file an example reads was written by one above it; those of mm run (in seconds),
    # the searches of larger variants (minutes to hours) are left out.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BULLSCOWS_CACHE", str(tmp_path / "cache"))
    ran = 0
    for line in examples("tree"):
        if "--rules " in line and "--rules mm " not in line:
            continue
        result = run(line, input="quit\n")
        assert result.exit_code == 0, (line, result.output)
        assert "Traceback" not in result.output
        ran += 1
    assert ran >= 10
    assert {"mm-minimax.json", "mm-minimax.txt", "mm-optimal.json.gz"} <= {
        path.name for path in tmp_path.iterdir()
    }


@pytest.mark.parametrize(
    ("name", "meant"),
    [("plya", "Did you mean 'play'?"), ("analyze", "Did you mean 'analyse'?"),
     ("xyz", "Commands: play, solve, duel, assist, candidates, analyse, record, score, rules, ")],
)  # fmt: skip
def test_a_mistyped_command_says_which_was_meant(name: str, meant: str) -> None:
    result = run(f"bullscows {name}")
    assert result.exit_code == 2
    assert one_error_line(result).startswith(f"Error: No such command {name!r}. {meant}")


def test_shell_completion_after_an_unknown_command_offers_the_commands() -> None:
    from click.shell_completion import ShellComplete

    complete = ShellComplete(main, {}, "bullscows", "_BULLSCOWS_COMPLETE")
    offered = [item.value for item in complete.get_completions(["plya"], "")]
    assert offered == list(COMMANDS)


def test_the_max_depth_option_reads_as_a_sentence() -> None:
    text = " ".join(CliRunner().invoke(main, ["play", "--help"], env=ENV).stdout.split())
    assert "--max-depth D With an optimal strategy: no secret may need more than D" in text


# --- bad option values: one line, quoting the value, non-zero ------------------------------------


def one_error_line(result: Result) -> str:
    assert "Traceback" not in result.output
    [line] = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    return line


@pytest.mark.parametrize("option", ["--games-rate", "--uploads-rate"])
def test_a_bad_rate_is_a_usage_error_naming_the_option(option: str) -> None:
    result = run(f"bullscows serve {option} fast")
    assert result.exit_code == 2
    assert one_error_line(result) == (
        f"Error: Invalid value for '{option}': 'fast': give a rate such as '60/minute' (per "
        "second, minute, hour or day)"
    )


def test_a_card_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    where = tmp_path / "missing" / "card.json"
    result = run(f"bullscows card --rules bc --out {where}")
    assert result.exit_code == 1
    assert one_error_line(result) == (
        f"Error: cannot write the card to '{where}': No such file or directory"
    )


def test_an_unknown_strategy_to_analyse_is_a_usage_error() -> None:
    result = run('bullscows analyse --strategy clairvoyant "0123 0 2"')
    assert result.exit_code == 2
    assert "Invalid value for --strategy: unknown strategy 'clairvoyant'" in one_error_line(result)


def test_the_last_game_without_a_guess_says_so(tmp_path: Path) -> None:
    played = run("bullscows play --seed 1", input="0123\nundo\nquit\n")  # kept: a guess made
    assert played.exit_code == 0 and "Kept in your record" in played.stdout
    result = run("bullscows analyse --last")
    assert result.exit_code == 1
    assert one_error_line(result) == (
        "Error: no guess to analyse: your last game has none (given up before a first guess, "
        "or with every guess taken back)"
    )


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("bullscows play --seed x", "Invalid value for '--seed': 'x' is not a valid integer."),
        ("bullscows tree --time-limit soon",
         "Invalid value for '--time-limit': 'soon' is not a valid number."),
        ("bullscows tree --time-limit nan",
         "Invalid value for '--time-limit': 'nan' is not a number."),
        ("bullscows serve --port http",
         "Invalid value for '--port': 'http' is not a valid integer."),
        ("bullscows bench --sample 0", "Invalid value for '--sample': 0 is not in the range x>=1."),
    ],
)  # fmt: skip
def test_a_word_where_a_number_goes_is_called_a_word(line: str, said: str) -> None:
    # click calls such options "integer range" and "float range": not what a person types
    result = run(line)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: {said}"


def test_help_calls_the_numbers_numbers() -> None:
    text = run("bullscows play --help").stdout
    assert "--seed INTEGER " in text and "RANGE" not in text


# --- the end of input ------------------------------------------------------------------------


def test_end_of_input_at_a_contradiction_asks_nothing_more(spawn: Spawn) -> None:
    game = spawn("solve", "--seed", "1")
    for _ in range(2):
        game.expect(MY_GUESS)
        game.send("0 0")
    game.expect_text("or 'quit': ")
    game.send_eof()
    game.expect_text("Stopped.")
    assert game.finish() == 0
    assert "What was your secret?" not in game.transcript


def test_ctrl_d_at_the_reply_to_a_guess_ends_assist(terminal: Spawn) -> None:
    # At a terminal the input can go on after Ctrl-D; the program takes it as the end.
    game = terminal("assist")
    game.expect_text("> ")
    game.send("0123")
    game.expect_text("Reply to 0123: ")
    game.send_eof()
    game.expect_text("No reply: 0123 is not recorded.")
    assert game.finish() == 0


def test_a_history_typed_at_a_terminal_is_asked_for(terminal: Spawn) -> None:
    game = terminal("candidates")
    game.expect_text(TYPE_HISTORY)
    game.send("0123 0 0")
    game.send_eof()
    game.expect_text("Undetermined: 360 codes possible.")
    assert game.finish() == 0


def test_a_depth_no_tree_reaches_counts_its_guesses_in_words() -> None:
    # 'within 1 guesses' read as a typo; the error names the depth as a person would.
    result = run("bullscows solve --rules mm --strategy optimal --max-depth 1")
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("repeats allowed within 1 guess"), result.stderr


@pytest.mark.parametrize("args", [["help"], ["help", "play"], ["help", "tree"]])
def test_help_as_a_word_shows_the_help(args: list[str]) -> None:
    # 'bullscows help' was 'No such command'; it is --help, and 'help play' is 'play --help'.
    result = CliRunner().invoke(main, args, env=ENV)
    assert result.exit_code == 0, result.output
    wanted = CliRunner().invoke(main, [*args[1:], "--help"], env=ENV)
    assert result.stdout == wanted.stdout


def test_help_of_no_command_says_which_it_may_have_meant() -> None:
    result = CliRunner().invoke(main, ["help", "plya"], env=ENV)
    assert result.exit_code == 2
    assert "No such command 'plya'. Did you mean 'play'?" in result.stderr


def test_the_help_of_no_command_says_how_to_start_and_what_a_reply_is() -> None:
    result = CliRunner().invoke(main, ["--help"], env=ENV)
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "New here? `bullscows play` starts a game" in text
    assert "bulls (right symbol, right place) and cows (right symbol, elsewhere)" in text
    start = run("bullscows play", input="quit\n")
    assert start.exit_code == 0, start.output
    assert "4 distinct symbols of 0-9" in start.output


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_command_says_what_it_does_first(name: str) -> None:
    # candidates asked a question ("Is the secret determined, ...?") where the others say
    # what they do.
    short = COMMANDS[name][2]
    first = run(f"bullscows {name} --help").stdout.split("\n\n")[1].strip()
    for line in (short, first):
        assert line[0].isupper() and line.endswith("."), line


# --- the game's prompt ---------------------------------------------------------------------


@pytest.mark.parametrize(("name", "said"), [("play", "no guess has been made yet"),
                                            ("solve", "no reply has been given yet")])  # fmt: skip
def test_undo_before_any_move_suggests_no_other_word(name: str, said: str) -> None:
    # 'nothing to undo: ... (did you mean 'undo'?)': the refused command was offered as the
    # command meant.
    result = run(f"bullscows {name} --seed 1", input="undo\nquit\n")
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.output.splitlines() if "nothing to undo" in line]
    assert line.endswith(f"nothing to undo: {said}"), line


@pytest.mark.parametrize("name", ["play", "duel"])
def test_a_guess_typed_with_a_reply_is_told_the_game_replies(name: str) -> None:
    # As assist takes it: 'code '0123 1 2' has 6 symbols' left the newcomer to guess why.
    result = run(f"bullscows {name} --seed 1", input="0123 1B2C\n0123 x\nquit\n")
    assert result.exit_code == 1, result.output
    assert result.stderr.splitlines()[:2] == [
        "Error: line 1: code '0123 1B2C' has 8 symbols; a code has 4, e.g. '0123'; type only "
        "your guess: the game gives its reply",
        "Error: line 2: code '0123 x' has 5 symbols; a code has 4, e.g. '0123'",
    ]


@pytest.mark.parametrize("name", ["play", "solve", "duel", "assist"])
def test_every_game_help_names_help_at_the_prompt(name: str) -> None:
    # 'help' at a game's prompt says what it takes; no --help said that it could be typed.
    text = " ".join(run(f"bullscows {name} --help").stdout.split())
    assert "'help' " in text, text
    game = run(f"bullscows {name} --seed 1", input="help\nquit\n")
    assert game.exit_code == 0, game.output
    assert "Commands: " in game.stdout or "Replies are written" in game.stdout
