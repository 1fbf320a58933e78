"""``bullscows solve``: the computer breaks a secret that only the test knows.

``--plain`` runs in-process; the interactive game runs in a pseudo-terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from click.testing import CliRunner, Result

from bullscows import Code, Rules, score
from bullscows.cli import main

from .conftest import (
    MY_GUESS,
    Session,
    Spawn,
    all_codes,
    bulls_cows,
    is_code,
    narrow,
    reply,
    words,
)

BC = Rules.parse("bc")
FOUND = re.compile(r"I found it in (\d+) guess(?:es)?: (\S+)\.")
AUDIT = "What was your secret? I'll check your replies (Enter to skip): "
CHOICES = re.compile(r"    (\d+) choices left")
ONE_CHOICE = re.compile(r"    one choice left; it must be (\S+)")


def emptying_reply(candidates: Sequence[str], guess: str, length: int) -> tuple[int, int] | None:
    """A reply that can occur in general but leaves no candidate (a contradiction), if any.

    Replies without all bulls are tried, fewest bulls and cows first.
    """
    for bulls in range(length):
        for cows in range(length + 1 - bulls):
            if (bulls, cows) != (length - 1, 1) and not narrow(candidates, guess, (bulls, cows)):
                return bulls, cows
    return None


# --- --plain, in-process ----------------------------------------------------------------------


def run_plain(args: Sequence[str], replies: Sequence[str]) -> Result:
    text = "".join(f"{r}\n" for r in replies)
    return CliRunner().invoke(main, ["solve", "--plain", *args], input=text)


def guesses_of(result: Result, rules: Rules) -> list[str]:
    lines = result.stdout.splitlines()
    for line in lines:
        assert is_code(line, rules), f"stdout line {line!r} is not a code"
    return lines


def solve_plain(args: Sequence[str], rules: Rules, secret: str) -> tuple[Result, list[str]]:
    """Play a whole ``solve --plain`` game against ``secret``.

    The replies have to be known before a run starts, so each run is given the replies to the
    guesses of the previous one: it prints one more guess and stops when the input ends.
    """
    replies: list[str] = []
    previous: list[str] = []
    for _ in range(12):
        result = run_plain(args, replies)
        guesses = guesses_of(result, rules)
        if result.exit_code == 0:  # the last reply was all bulls
            assert guesses == previous, result.output
            return result, guesses
        assert len(guesses) == len(replies) + 1, result.output
        assert guesses[:-1] == previous  # the same replies get the same guesses
        assert result.exit_code == 1
        assert result.stderr == "Error: input ended before the code was found\n"
        bulls, cows = reply(secret, guesses[-1], rules)
        replies.append(f"{bulls} {cows}")
        previous = guesses
    raise AssertionError(f"no end after {len(replies)} replies: {replies}")


@pytest.mark.parametrize("secret", ["2745", "9876", "0123", "5039"])
def test_plain_breaks_bulls_and_cows(secret: str) -> None:
    result, guesses = solve_plain(["--seed", "1"], BC, secret)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert guesses[-1] == secret
    assert secret not in guesses[:-1]
    assert len(guesses) <= 8


@pytest.mark.parametrize("secret", ["1122", "6543", "3632", "1111", "6666"])
def test_plain_breaks_mastermind_within_five(secret: str) -> None:
    # Knuth 1976: his minimax strategy needs at most 5 guesses for any 4x6 secret
    mm = Rules.parse("mm")
    result, guesses = solve_plain(["--rules", "mm"], mm, secret)
    assert result.exit_code == 0
    assert guesses[-1] == secret
    assert len(guesses) <= 5
    assert guesses[0] == "1122"  # Knuth's first guess, the lowest code of the best ones


def test_plain_breaks_a_radix_variant() -> None:
    moo = Rules.parse("moo5,5,5")
    result, guesses = solve_plain(["--radix", "5,5,5"], moo, "123")
    assert result.exit_code == 0
    assert guesses[-1] == "123"


def test_plain_reads_replies_in_other_notations() -> None:
    # the same game as '0 1', '0 2', ... but in letters; the guesses must not change
    _, expected = solve_plain([], BC, "2745")
    letters = []
    for guess in expected:
        bulls, cows = bulls_cows("2745", guess)
        letters.append("b" * bulls + "c" * cows or "-")
    result = run_plain([], letters)
    assert result.exit_code == 0, result.output
    assert guesses_of(result, BC) == expected


def test_plain_input_ending_early_exits_1() -> None:
    result = run_plain([], [])
    assert result.exit_code == 1
    assert len(guesses_of(result, BC)) == 1
    assert result.stderr == "Error: input ended before the code was found\n"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("xyz", "cannot read reply 'xyz'"),
        ("9 9", "9 bulls and 9 cows make 18, but a code has 4"),
        ("", "cannot read reply ''"),
    ],
)
def test_plain_bad_reply_exits_1(text: str, reason: str) -> None:
    result = run_plain([], ["0 1", text, "0 0"])
    assert result.exit_code == 1
    assert len(guesses_of(result, BC)) == 2
    [line] = result.stderr.splitlines()
    assert line.startswith("Error: line 2: ")
    assert reason in line
    assert "Traceback" not in result.output


def test_a_badly_formed_fix_piped_is_a_refused_line_and_changes_nothing() -> None:
    result = CliRunner().invoke(main, ["solve"], input="fix 1\n0 1\nfix 2\nquit\n")
    assert result.exit_code == 1, result.output  # a line no command can be read from
    assert (
        "Error: line 1: cannot read fix command 'fix 1': write 'fix N REPLY', N a reply "
        "number (none given yet) and REPLY in any notation"
    ) in result.stderr
    assert "line 3: cannot read fix command 'fix 2': write 'fix N REPLY', N a reply " in (
        result.stderr
    )
    assert result.output.count("1440 choices left") == 1
    assert "Traceback" not in result.output


def test_plain_reply_no_secret_can_give_is_a_contradiction_naming_the_line() -> None:
    result = run_plain([], ["0 1", "3 1", "0 0"])
    assert result.exit_code == 1
    g1, g2 = guesses_of(result, BC)
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "Error: line 2 makes the replies contradict each other: no code fits them all."
    )
    assert lines[1] == f"No code can give reply #2 {g2} -> 3 bulls, 1 cow."
    left = narrow(all_codes(BC), g1, (0, 1))
    fixes = {reply(code, g2, BC) for code in left}
    assert lines[2].startswith(f"  If #2 {g2} was not 3 bulls, 1 cow, it could be: ")
    assert f"2 bulls, 1 cow ({len(narrow(left, g2, (2, 1)))} codes left)" in lines[2]
    assert (2, 1) in fixes


def test_replies_piped_to_the_game_name_refused_lines_and_impossible_ones() -> None:
    # Not --plain, but replies from a pipe: a bad line is named and refused alone (the next
    # line answers the same guess); a reply no secret can give ends the game with exit 1.
    result = CliRunner().invoke(main, ["solve"], input="0 1\nxx\n3 1\n0 0\n")
    assert result.exit_code == 1
    assert "line 2: cannot read reply 'xx'" in result.output
    assert "line 3 makes the replies contradict each other." in result.stderr
    assert result.stderr.count("line 2: cannot read reply 'xx'") == 1  # said once, on stderr
    assert "line 2:" not in result.stdout
    assert re.search(r"No code can give reply #2 \d{4} -> 3 bulls, 1 cow\.", result.output)
    assert "Traceback" not in result.output


@pytest.mark.parametrize("style", ["words", "bc"])
def test_plain_contradiction_exits_1_with_the_reason_on_stderr(style: str) -> None:
    first = run_plain([], ["0 0"])
    g1, g2 = guesses_of(first, BC)
    wrong = emptying_reply(narrow(all_codes(BC), g1, (0, 0)), g2, 4)
    assert wrong is not None
    result = run_plain(["--reply-style", style], ["0 0", f"{wrong[0]} {wrong[1]}", "0 0"])
    assert result.exit_code == 1
    assert guesses_of(result, BC) == [g1, g2]  # nothing but guesses on stdout
    lines = result.stderr.splitlines()
    assert lines[0] == (
        "Error: line 2 makes the replies contradict each other: no code fits them all."
    )
    said = "0 bulls, 0 cows" if style == "words" else "0B0C"
    assert f"#1 {g1} -> {said}" in lines[1] or f"#2 {g2}" in lines[1]
    assert any(line.startswith(f"  If #2 {g2} was not ") for line in lines[2:])


def test_plain_win_reply_that_contradicts_earlier_replies_exits_1() -> None:
    moo = Rules.parse("moo5,5,5")
    first = run_plain(["--radix", "5,5,5"], ["0 2"])
    g1, g2 = guesses_of(first, moo)
    if g2 in narrow(all_codes(moo), g1, (0, 2)):
        pytest.skip(f"{g2} fits the first reply, so '3 0' to it is no contradiction")
    result = run_plain(["--radix", "5,5,5"], ["0 2", "3 0"])
    assert result.exit_code == 1
    assert "contradict" in result.stderr


# --- the interactive game ---------------------------------------------------------------------


def answer_until_found(
    game: Session, rules: Rules, secret: str, done: int = 0
) -> list[tuple[str, tuple[int, int]]]:
    """Reply to every guess as ``secret`` would, checking each 'choices left' line by brute force.

    ``done`` replies were already given (truthfully). Returns the (guess, reply) pairs that
    this call gave.
    """
    history: list[tuple[str, tuple[int, int]]] = []
    candidates = all_codes(rules) if done == 0 else []
    while True:
        which, match = game.expect_any([MY_GUESS, FOUND])
        if which == 1:
            assert int(match.group(1)) == done + len(history)
            assert match.group(2) == history[-1][0]
            return history
        number, guess = int(match.group(1)), match.group(2)
        assert number == done + len(history) + 1
        assert is_code(guess, rules)
        given = reply(secret, guess, rules)
        game.send(f"{given[0]} {given[1]}")
        history.append((guess, given))
        if given[0] == rules.length:
            continue
        which, match = game.expect_any([CHOICES, ONE_CHOICE])
        if done:  # the earlier history is not known here: no count to check
            continue
        candidates = narrow(candidates, guess, given)
        if len(candidates) == 1:
            assert which == 1, game.transcript
            assert match.group(1) == candidates[0] == secret
        else:
            assert which == 0, game.transcript
            assert int(match.group(1)) == len(candidates)


@pytest.mark.parametrize("secret", ["9876", "4271"])
def test_interactive_truthful_game(spawn: Spawn, secret: str) -> None:
    game = spawn("solve")
    game.expect_text("Think of a secret: 4 distinct symbols of 0-9. I will guess it.")
    history = answer_until_found(game, BC, secret)
    assert history[-1] == (secret, (4, 0))
    assert "one choice left; it must be " + secret in game.transcript  # this secret's path
    game.expect_text(AUDIT)
    game.send(secret)
    game.expect_text("Every reply you gave was right.")
    assert game.finish() == 0


def test_interactive_contradiction_then_undo(terminal: Spawn) -> None:
    secret = "9876"
    game = terminal("solve")
    candidates = all_codes(BC)
    # truthful replies until a guess has a reply that leaves no code at all; give that one
    for number in range(1, 8):
        match = game.expect(MY_GUESS)
        assert match.group(1) == str(number)
        guess = match.group(2)
        wrong = emptying_reply(candidates, guess, 4)
        if wrong is not None:
            break
        true = reply(secret, guess, BC)
        game.send(f"{true[0]} {true[1]}")
        candidates = narrow(candidates, guess, true)
    else:
        raise AssertionError("no chance to contradict")
    assert number >= 2  # a single reply that can occur never contradicts by itself
    game.send(f"{wrong[0]} {wrong[1]}")
    game.expect_text("Your replies contradict each other: no code fits them all.")
    game.expect_text(f"If #{number} {guess} was not {words(*wrong)}, it could be: ")
    game.expect_text(
        "Type 'undo', a corrected reply to your last guess, 'fix N REPLY' replaces reply #N, "
        "or 'quit': "
    )
    game.send("undo")
    game.expect_text(f"took back {guess} -> {words(*wrong)}")
    match = game.expect(MY_GUESS)
    assert (match.group(1), match.group(2)) == (str(number), guess)  # asked again
    true = reply(secret, guess, BC)
    game.send(f"{true[0]} {true[1]}")
    if true[0] != 4:
        game.expect_any([CHOICES, ONE_CHOICE])
    rest = answer_until_found(game, BC, secret, done=number)
    total = number + len(rest)
    # the reply taken back is not counted
    assert f"I found it in {total} guesses: {secret}." in game.transcript
    game.expect_text(AUDIT)
    game.send("")  # Enter skips the audit
    assert game.finish() == 0
    assert "Every reply you gave was right." not in game.transcript


def test_interactive_audit_names_the_wrong_replies(spawn: Spawn) -> None:
    secret, believed = "2745", "2754"  # the person misremembers the secret
    game = spawn("solve", "--reply-style", "bc")
    history = answer_until_found(game, BC, believed)
    assert history[-1][0] == believed
    game.expect_text(AUDIT)
    game.send("27")  # not a code: asked again
    game.expect_text("code '27' has 2 symbols")
    game.expect_text(AUDIT)
    game.send(secret)
    mistakes = [
        (number, guess, given, bulls_cows(secret, guess))
        for number, (guess, given) in enumerate(history, 1)
        if bulls_cows(secret, guess) != given
    ]
    assert mistakes  # at least the last reply, 4 bulls for 2754
    for number, guess, given, true in mistakes:
        said = f"{given[0]}B{given[1]}C"
        gives = f"{true[0]}B{true[1]}C"
        game.expect_text(f"#{number} {guess}: you said {said}, but {secret} gives {gives}")
    assert game.finish() == 0
    assert "Every reply you gave was right." not in game.transcript
    named = re.findall(r"#(\d+) \S+: you said", game.transcript)
    assert [int(n) for n in named] == [m[0] for m in mistakes]


def test_interactive_undo_first_bad_reply_help_and_quit(spawn: Spawn) -> None:
    game = spawn("solve")
    first = game.expect(MY_GUESS).group(2)
    game.send("undo")
    game.expect_text("nothing to undo: no reply has been given yet")
    match = game.expect(MY_GUESS)
    assert (match.group(1), match.group(2)) == ("1", first)
    game.send("9 9")
    game.expect_text("reply '9 9': 9 bulls and 9 cows make 18, but a code has 4")
    match = game.expect(MY_GUESS)
    assert (match.group(1), match.group(2)) == ("1", first)
    game.send("help")
    game.expect_text("Replies are written bulls first")
    game.expect(MY_GUESS)
    game.send("0 1")
    game.expect_text(f"{len(narrow(all_codes(BC), first, (0, 1)))} choices left")
    match = game.expect(MY_GUESS)
    assert match.group(1) == "2"
    game.send("quit")
    game.expect_text("Stopped.")
    assert game.finish() == 0
    assert "I found it" not in game.transcript


def test_interactive_end_of_input_stops(terminal: Spawn) -> None:
    game = terminal("solve", "--rules", "mm")
    game.expect_text("Think of a secret: 4 symbols of 1-6, repeats allowed.")
    game.expect(MY_GUESS)
    game.send_eof()
    game.expect_text("Stopped.")
    assert game.finish() == 0


def test_interactive_unknown_strategy_is_a_usage_error(spawn: Spawn) -> None:
    game = spawn("solve", "--strategy", "clairvoyant")
    game.expect_text("unknown strategy 'clairvoyant'")
    assert game.finish() == 2


def test_consistent_only_and_unfit_strategies() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "--plain", "--rules", "mm", "--strategy", "cows"])
    assert result.exit_code == 2
    assert "cows needs codes without repeated symbols" in result.output
    secret = Code("3456", Rules.parse("mm"))
    replies = []
    guesses: list[str] = []
    # Drive a consistent-only entropy game: every guess after the first must fit the replies.
    for _ in range(8):
        result = runner.invoke(
            main,
            ["solve", "--plain", "--rules", "mm", "--strategy", "entropy", "--consistent-only"],
            input="".join(r + "\n" for r in replies),
        )
        guesses = result.stdout.split()
        last = Code(guesses[-1], Rules.parse("mm"))
        reply = score(secret, last)
        if reply.bulls == 4:
            break
        replies.append(f"{reply.bulls} {reply.cows}")
    assert guesses[-1] == "3456"
    for i, guess in enumerate(guesses[1:], 1):
        code = Code(guess, Rules.parse("mm"))
        for earlier, reply in zip(guesses[:i], replies[:i], strict=True):
            got = score(code, Code(earlier, Rules.parse("mm")))
            assert f"{got.bulls} {got.cows}" == reply
