"""``bullscows assist``: help with a game played elsewhere.

Most tests run in-process with the whole input given at once; the output is cut at the
``> `` prompts, so the n-th piece is the answer to the n-th input line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Rules
from bullscows.cli import main

from .conftest import Spawn, all_codes, is_code, narrow, still_possible

BC = Rules.parse("bc")
ULISP_GAME = [("1389", (0, 0)), ("1234", (0, 2)), ("1759", (1, 1)), ("1785", (2, 0))]
SUGGESTION = re.compile(r"^Suggested guess: (\S+)$", re.MULTILINE)


def assist(args: Sequence[str], lines: Sequence[str]) -> tuple[Result, list[str]]:
    """Run ``assist ARGS`` on ``lines``; the result and the answer to each line."""
    result = CliRunner().invoke(
        main,
        ["assist", *args],
        input="".join(f"{line}\n" for line in lines),
        env={"COLUMNS": "200", "LINES": "50", "NO_COLOR": "1"},
    )
    assert "Traceback" not in result.output
    banner, *answers = re.split(r"(?m)^> ", result.stdout)
    assert banner.startswith("Assisting a game of ")
    return result, answers


def run_assist(*args: str, input: str) -> Result:
    return CliRunner().invoke(
        main, ["assist", *args], input=input, env={"COLUMNS": "200", "NO_COLOR": "1"}
    )


def check_status(answer: str, rules: Rules, history: Sequence[tuple[str, tuple[int, int]]]) -> None:
    """The answer after a consistent entry: the count, the listing when short, a suggestion."""
    left = still_possible(rules, history)
    assert len(left) > 1
    assert f"{len(left)} codes possible." in answer.splitlines()
    listing = [line for line in answer.splitlines() if re.match(r"  \S", line)]
    if len(left) <= 12:
        assert listing == ["  " + " ".join(left)]
    else:
        assert listing == []
    suggestions = SUGGESTION.findall(answer)
    assert len(suggestions) == 1
    assert is_code(suggestions[0], rules)


def test_ulisp_sample_game() -> None:
    lines = [f"{g} {b} {c}" for g, (b, c) in ULISP_GAME] + ["2745 4 0", "quit"]
    result, answers = assist([], lines)
    assert result.exit_code == 0
    assert "5040 codes possible" in result.output.split("\n> ")[0]
    assert len(answers) == len(lines)
    for n in range(1, len(ULISP_GAME) + 1):
        check_status(answers[n - 1], BC, ULISP_GAME[:n])
    assert "  2745 4725" in answers[3]  # the two codes left before the last guess
    assert answers[4].strip() == "Solved in 5 guesses: 2745."
    assert answers[5].strip() == ""  # quit says nothing more


def test_ulisp_game_in_other_notations_with_list() -> None:
    lines = ["1389 -", "1234 2c", "list", "1759 1B1C", "1785 bb", "next", "quit"]
    result, answers = assist([], lines)
    assert result.exit_code == 0
    check_status(answers[0], BC, ULISP_GAME[:1])
    check_status(answers[1], BC, ULISP_GAME[:2])
    # 'list' shows every code still possible, however many
    assert answers[2].split() == still_possible(BC, ULISP_GAME[:2])
    check_status(answers[3], BC, ULISP_GAME[:3])
    check_status(answers[4], BC, ULISP_GAME)
    assert SUGGESTION.findall(answers[5]) == SUGGESTION.findall(answers[4])


def test_list_shows_a_screenful_and_list_all_every_code() -> None:
    result, answers = assist([], ["list", "list all", "quit"])
    assert result.exit_code == 0
    rows = answers[0].splitlines()
    assert len(rows) == 20  # a screenful of 19 rows of codes, then how many more
    assert rows[-1] == "  ... and 4,679 more: 'list all' shows them all"
    assert answers[1].split() == all_codes(BC)


@pytest.mark.parametrize("alone", ["12x4", "1123", "2", "1263"])
def test_a_script_line_without_a_reply_is_refused_alone(alone: str) -> None:
    # The line after it is an entry of its own, never taken as a reply.
    result, answers = assist([], [alone, "1263 1 2", "8103 2 1", "quit"])
    assert result.exit_code == 1
    assert answers[0] == "\n"  # refused on stderr alone
    assert result.stderr.startswith("Error: line 1: ")
    assert "Reply to" not in result.output
    history = [("1263", (1, 2)), ("8103", (2, 1))]
    check_status(answers[1], BC, history[:1])
    check_status(answers[2], BC, history)
    assert "4 codes possible." in answers[2]


def test_an_impossible_reply_in_a_script_names_the_line_and_ends_it() -> None:
    history = ["7019 1 1", "5873 0 1", "7921 3 1", "3412 1 1", "1745 0 0", "0574 0 1"]
    result, answers = assist([], [*history, "0629 0 3"])
    assert result.exit_code == 1
    assert len(answers) == 3  # nothing is read after the line that cannot be true
    assert result.stderr == "Error: line 3 makes the replies contradict each other.\n"
    lines = answers[2].splitlines()
    assert lines[0] == ""  # the prompt's line, ended
    assert lines[2] == "No code can give reply #3 7921 -> 3 bulls, 1 cow."
    assert lines[3].startswith("  If #3 7921 was not 3 bulls, 1 cow, it could be: ")
    assert "must be" not in result.output


def test_undo_and_quit() -> None:
    lines = [
        "undo",  # nothing yet
        "1389 0 0",
        "1234 0 2",
        "undo",
        "undo",
        "",  # Enter asks for a suggestion
        "quit",
        "1234 0 0",  # never read
    ]
    result, answers = assist([], lines)
    assert result.exit_code == 0
    assert len(answers) == 7
    assert "nothing to undo: no reply has been given yet" in answers[0]
    check_status(answers[1], BC, ULISP_GAME[:1])
    check_status(answers[2], BC, ULISP_GAME[:2])
    assert "took back 1234 -> 0 bulls, 2 cows" in answers[3]
    check_status(answers[3], BC, ULISP_GAME[:1])
    assert "took back 1389 -> 0 bulls, 0 cows" in answers[4]
    assert "5040 codes possible." in answers[4]
    assert len(SUGGESTION.findall(answers[5])) == 1
    assert answers[6].strip() == ""


def test_a_contradiction_in_a_script_names_the_line_and_ends_it() -> None:
    result, answers = assist([], ["1389 0 0", "1389 0 1", "undo", "1234 0 0"])
    assert result.exit_code == 1
    assert len(answers) == 2  # the lines after the contradiction are not read
    assert result.stderr == "Error: line 2 makes the replies contradict each other.\n"
    contradiction = answers[1].splitlines()
    assert contradiction[0] == ""  # the prompt's line, ended
    assert contradiction[1] == "Your replies contradict each other: no code fits them all."
    assert contradiction[2] == (
        "These replies cannot all be true: #1 1389 -> 0 bulls, 0 cows; #2 1389 -> 0 bulls, 1 cow."
    )
    assert "Suggested guess" not in answers[1]


def test_contradiction_offers_the_replies_that_would_fix_it() -> None:
    result, answers = assist(["--reply-style", "pair"], ["1389 0 0", "1234 0 0", "5670 0 0"])
    assert result.exit_code == 1
    assert (
        narrow(narrow(narrow(all_codes(BC), "1389", (0, 0)), "1234", (0, 0)), "5670", (0, 0)) == []
    )
    text = answers[2]
    assert "Your replies contradict each other" in text
    assert "#3 5670 -> 0 0" in text
    assert re.search(r"If #3 5670 was not 0 0, it could be: .*\(\d+ codes? left\)", text)


@pytest.mark.parametrize(
    ("line", "reason"),
    [
        ("9999 0 0", "code '9999': '9' appears 4 times; symbols may not repeat"),
        ("1234 5 0", "reply '5 0': 5 bulls and 0 cows make 5, but a code has 4"),
        ("123 0 0", "code '123' has 3 symbols"),
        ("1234 oops", "cannot read reply 'oops'"),
    ],
)
def test_bad_entries_are_explained_and_ignored(line: str, reason: str) -> None:
    result, answers = assist([], [line, "list all", "quit"])
    assert result.exit_code == 1  # a script had a line refused
    assert answers[0] == "\n"
    assert result.stderr.startswith("Error: line 1: ") and reason in result.stderr
    assert len(answers[1].split()) == 5040  # nothing was recorded: every code is listed


def test_a_refused_script_line_is_said_once_on_stderr_quoting_it() -> None:
    result, answers = assist([], ["hello world", "0123 9 9", "0123 1 2", "quit"])
    assert result.exit_code == 1
    assert answers[:2] == ["\n", "\n"]  # the transcript keeps one line per line read
    assert "hello" not in result.stdout and "9 9" not in result.stdout
    assert result.stderr.splitlines() == [
        "Error: line 1: 'hello world': code 'hello' has 5 symbols; a code has 4, e.g. '0123'",
        "Error: line 2: '0123 9 9': reply '9 9': 9 bulls and 9 cows make 18, but a code has 4",
    ]
    assert result.output.count("'hello world'") == 1
    long, _ = assist([], ["0123 " + "9" * 5000 + " 0", "quit"])
    [line] = long.stderr.splitlines()  # the line and the reply quoted short
    assert line.startswith("Error: line 1: '0123 999") and len(line) < 300, line


def test_help_lists_the_notations() -> None:
    _, answers = assist([], ["help", "quit"])
    assert "Enter 'GUESS REPLY', e.g. '0123 1 2'." in answers[0]
    assert "'1B2C'" in answers[0]


def test_end_of_input_ends_quietly() -> None:
    result, answers = assist([], ["1389 0 0"])
    assert result.exit_code == 0
    assert len(answers) == 2


def test_j_moo_5_5_5() -> None:
    # moo 5 5 5, secret 1 2 3: 3 3 0 -> c, 4 1 3 -> bc, 2 4 3 -> bc
    moo = Rules.parse("moo5,5,5")
    result, answers = assist(["--radix", "5,5,5"], ["330 c", "413 bc", "243 bc", "quit"])
    assert result.exit_code == 0
    assert "125 codes possible" in result.output.splitlines()[0]
    assert "30 codes possible." in answers[0]
    check_status(answers[0], moo, [("330", (0, 1))])
    assert "4 codes possible." in answers[1]
    check_status(answers[1], moo, [("330", (0, 1)), ("413", (1, 1))])
    assert "123" in answers[1].split()
    assert answers[2].strip() == "One code left: it must be 123."


def test_j_moo_2_2() -> None:
    # moo 2 2, secret 0 1: 0 0 -> b (2 left), 1 0 -> cc (it must be 0 1)
    result, answers = assist(["--radix", "2,2"], ["00 b", "10 cc", "quit"])
    assert result.exit_code == 0
    assert "4 codes possible" in result.output.splitlines()[0]
    assert "2 codes possible." in answers[0]
    assert "  01 10" in answers[0].splitlines()
    assert answers[1].strip() == "One code left: it must be 01."


def test_j_moo_also_as_a_rules_spec() -> None:
    _, answers = assist(["--rules", "moo5,5,5"], ["330 c", "413 bc", "243 bc", "quit"])
    assert answers[2].strip() == "One code left: it must be 123."


def test_win_that_contradicts_the_history_is_not_solved() -> None:
    # 1234 got 0 bulls, 2 cows: it cannot be the secret
    _, answers = assist([], ["1389 0 0", "1234 0 2", "1234 4 0", "quit"])
    assert "Solved" not in answers[2]
    assert "contradict" in answers[2]


def test_interactive_session(terminal: Spawn) -> None:
    game = terminal("assist", "--radix", "5,5,5")
    game.expect_text("Assisting a game of 3 symbols of 0-4, repeats allowed: 125 codes possible.")
    game.expect_text("> ")
    game.send("330 c")
    game.expect_text("30 codes possible.")
    game.expect(r"Suggested guess: (\S+)")
    game.expect_text("> ")
    game.send("413 bc")
    game.expect_text("4 codes possible.")
    game.expect_text("  014 123 243 401")
    game.expect_text("> ")
    game.send("243 cc")  # a mistake: no code fits
    game.expect_text("Your replies contradict each other: no code fits them all.")
    game.expect_text("Type 'undo' to take back the last entry.")
    game.expect_text("> ")
    game.send("undo")
    game.expect_text("took back 243 -> 0B2W")  # pegs: codes may repeat a symbol
    game.expect_text("4 codes possible.")
    game.expect_text("> ")
    game.send("243 bc")
    game.expect_text("One code left: it must be 123.")
    game.expect_text("> ")
    game.send("quit")
    assert game.finish() == 0


def test_interactive_lines_are_refused_alone_and_a_missing_reply_is_asked(spawn: Spawn) -> None:
    game = spawn("assist")
    game.expect_text("> ")
    game.send("12x4")  # not a code: refused at once, no reply asked
    game.expect_text("code '12x4': 'x' is not a symbol; symbols are 0-9")
    game.expect_text("> ")
    game.send("7921 3 1")  # no secret gives it: refused, the prompt comes back
    game.expect_text("3 bulls and 1 cow cannot happen")
    game.expect_text("> ")
    game.send("1263")  # a guess alone: its reply is asked, again until it can be read
    game.expect_text("Reply to 1263: ")
    game.send("3 1")
    game.expect_text("3 bulls and 1 cow cannot happen")
    game.expect_text("Reply to 1263: ")
    game.send("1 2")
    game.expect_text("216 codes possible.")
    game.expect_text("> ")
    game.send("8103")
    game.expect_text("Reply to 8103: ")
    game.send("")  # no reply: nothing recorded
    game.expect_text("No reply: 8103 is not recorded.")
    game.expect_text("> ")
    game.send("8103 2 1")
    game.expect_text("  0123 2183 6183 8613")
    game.expect_text("> ")
    game.send("quit")
    assert game.finish() == 0


def test_a_whole_history_from_a_file(tmp_path: Path) -> None:
    history = tmp_path / "game.txt"
    history.write_text("# played on paper\n7019 1 1\n5873 0 1\n")
    result = run_assist("--from", str(history), input="2013 1 1\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"Read 2 guesses and their replies from {history}.\n222 codes possible." in out
    assert "50 codes possible." in out


def test_an_inconsistent_history_from_stdin_ends_with_exit_1(tmp_path: Path) -> None:
    pasted = "7019 1 1\n5873 0 1\n7921 3 1\n3412 1 1\n"
    result = run_assist("--from", "-", "--reply-style", "pair", input=pasted)
    assert result.exit_code == 1
    assert "Read 4 guesses and their replies from standard input." in result.stdout
    assert "No code can give reply #3 7921 -> 3 1." in result.output
    assert "must be" not in result.output
    bad = tmp_path / "bad.txt"
    bad.write_text("7019 1 1\n70x9 0 0\n")
    refused = run_assist("--from", str(bad), input="")
    assert refused.exit_code == 1
    reason = "code '70x9': 'x' is not a symbol; symbols are 0-9"
    assert refused.stderr == f"Error: file '{bad}', line 2: {reason}\n"
    assert refused.stdout == ""  # refused before anything is announced (or searched)
    broken = tmp_path / "c.txt"  # a line that reads but cannot be recorded
    broken.write_text("# game\n0123 4 0\n4567 0 0\n")
    refused = run_assist("--from", str(broken), input="")
    assert refused.exit_code == 1
    reason = "4567 comes after the code was broken by 0123"
    assert refused.stderr == f"Error: file '{broken}', line 3: {reason}\n"
    assert refused.stdout == ""
    piped = run_assist("--from", "-", input="7019 1 1\n")
    assert "Read 1 guess and its reply from standard input." in piped.stdout
    piped = run_assist("--from", "-", input="7019 1 1\n12 0 0\n")
    assert piped.stderr.startswith("Error: standard input, line 2: code '12' has 2 symbols")


def test_a_history_file_that_cannot_be_read_is_said_first(tmp_path: Path) -> None:
    missing = tmp_path / "game.txt"
    result = CliRunner().invoke(main, ["assist", "--from", str(missing)])
    assert result.exit_code == 1
    assert result.stdout == ""  # not even the game's announcement: nothing was assisted
    assert result.stderr == f"Error: cannot read file {str(missing)!r}: No such file or directory\n"


def test_the_reply_prompt_of_a_guess_typed_alone_has_a_way_out(spawn: Spawn) -> None:
    # A newcomer at 'Reply to 0123:' typed commands and the whole line again: each refusal
    # says how to leave, 'undo' records nothing, a fix is applied, and the guess typed again
    # is left out.
    game = spawn("assist", "--seed", "1")
    game.expect_text("> ")
    game.send("0123")
    game.expect_text("Reply to 0123: ")
    game.send("history")
    game.expect_text("cannot read reply 'history'")
    game.expect_text("; Enter alone, 'undo' or 'quit' records no reply")
    game.expect_text("Reply to 0123: ")
    game.send("4567 0 1")  # the next line of the game: it said "'4567' is too large for a count"
    game.expect_text(
        "reply '4567 0 1': '4567' is too large for a count of bulls or cows; '4567 0 1' is "
        "another guess and its reply: first the reply to 0123; Enter alone, 'undo' or 'quit' "
        "records no reply"
    )
    game.expect_text("Reply to 0123: ")
    game.send("undo")
    game.expect_text("No reply: 0123 is not recorded.")
    game.expect_text("> ")
    game.send("0123")
    game.expect_text("Reply to 0123: ")
    game.send("0123 1 2")  # the whole line, as at the first prompt
    game.expect_text("216 codes possible.")
    game.expect_text("> ")
    game.send("4567")
    game.expect_text("Reply to 4567: ")
    game.send("4567 cow")
    game.expect_text("> ")
    game.send("5678")
    game.expect_text("Reply to 5678: ")
    game.send("fix 2 0 2")  # a fix typed here is applied, as at '>': the guess is dropped
    game.expect_text("No reply: 5678 is not recorded.")
    game.expect_text("#2 4567: 0 bulls, 1 cow is now 0 bulls, 2 cows")
    game.expect_text("> ")
    game.send("history")
    game.expect_text("[2] 4567  0 bulls, 2 cows")
    game.send("quit")
    assert game.finish() == 0


def test_a_game_solved_in_one_guess_says_guess() -> None:
    result = CliRunner().invoke(main, ["assist"], input="0123 4 0\n")
    assert "Solved in 1 guess: 0123." in result.output, result.output


def test_the_guess_typed_again_is_left_out_in_any_spelling(spawn: Spawn) -> None:
    game = spawn("assist", "--rules", "mm-colours", "--seed", "1")
    game.expect_text("> ")
    game.send("rgby")
    game.expect_text("Reply to RGBY: ")
    game.send("rgby 1 2")  # the code as typed, not as the game spells it
    game.expect_text("codes possible.")
    game.expect_text("> ")
    game.send("history")
    game.expect_text("[1] RGBY  1B2W")
    game.send("quit")
    assert game.finish() == 0
