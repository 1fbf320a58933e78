"""``bullscows play``: a person breaks the computer's secret, in a pseudo-terminal.

``play`` builds ``Codemaker(rules, seed=S)`` for ``--seed S``, so its secret is
``seeded_secret(rules, S)``.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest

from bullscows import Rules
from bullscows.sessions import HIDDEN, seeded_secret
from bullscows.standings import ABANDONED

from .conftest import Spawn, all_codes, bulls_cows, narrow, still_possible, words

BC = Rules.parse("bc")
YOUR_GUESS = re.compile(r"\[(\d+)\] Your guess: ")


def secret_of(seed: int, rules: Rules = BC) -> str:
    return seeded_secret(rules, seed).text


def a_wrong_guess(secret: str, rules: Rules) -> str:
    """A valid code that is not the secret and shares something with it."""
    return next(
        code for code in all_codes(rules) if code != secret and sum(bulls_cows(secret, code)) > 0
    )


@pytest.mark.parametrize("seed", [7, 2024])
def test_play_with_hints(spawn: Spawn, seed: int) -> None:
    secret = secret_of(seed)
    wrong = a_wrong_guess(secret, BC)
    game = spawn("play", "--seed", str(seed), "--hint")
    game.expect_text("I have picked a secret: 4 distinct symbols of 0-9.")
    assert game.expect(YOUR_GUESS).group(1) == "1"

    game.send("12")
    game.expect_text("code '12' has 2 symbols; a code has 4, e.g. '0123'")
    assert game.expect(YOUR_GUESS).group(1) == "1"  # asked again, not counted
    game.send("1123")
    game.expect_text("code '1123': '1' appears twice; symbols may not repeat")
    assert game.expect(YOUR_GUESS).group(1) == "1"

    game.send(wrong)
    given = bulls_cows(secret, wrong)
    left = len(narrow(all_codes(BC), wrong, given))
    assert left > 1
    game.expect_text(f"    {words(*given)}  ({left} codes still possible)")
    assert game.expect(YOUR_GUESS).group(1) == "2"

    game.send("history")
    game.expect_text(f"  [1] {wrong}  {words(*given)}")
    assert game.expect(YOUR_GUESS).group(1) == "2"

    game.send(secret)
    game.expect_text("    4 bulls, 0 cows")
    game.expect_text(f"You broke it in 2 guesses: {secret}.")
    assert game.finish() == 0
    assert "Traceback" not in game.transcript
    assert "The secret was" not in game.transcript


def test_play_first_guess_right(spawn: Spawn) -> None:
    secret = secret_of(3)
    game = spawn("play", "--seed", "3", "--hint")
    game.expect(YOUR_GUESS)
    game.send(secret)
    game.expect_text(f"You broke it in 1 guess: {secret}.")
    assert game.finish() == 0
    assert "still possible" not in game.transcript  # no hint once the code is broken


def test_play_quit_reveals_the_secret(terminal: Spawn) -> None:
    mm = Rules.parse("mm")
    secret = secret_of(11, mm)
    game = terminal("play", "--rules", "mm", "--seed", "11", "--reply-style", "pegs")
    game.expect_text("I have picked a secret: 4 symbols of 1-6, repeats allowed.")
    game.expect(YOUR_GUESS)
    guess = "1122" if secret != "1122" else "3344"
    game.send(guess)
    bulls, cows = bulls_cows(secret, guess)
    game.expect_text(f"    {bulls}B{cows}W")
    game.expect(YOUR_GUESS)
    game.send("help")
    game.expect_text("A guess is a code: 4 symbols of 1-6, repeats allowed.")
    game.expect(YOUR_GUESS)
    game.send("quit")
    game.expect_text(f"The secret was {secret}.")
    assert game.finish() == 0
    assert "You broke it" not in game.transcript


def test_play_end_of_input_reveals_the_secret(terminal: Spawn) -> None:
    game = terminal("play", "--seed", "5")
    game.expect(YOUR_GUESS)
    game.send("0123")
    game.expect(YOUR_GUESS)
    game.send_eof()
    game.expect_text(f"The secret was {secret_of(5)}.")
    assert game.finish() == 0


def test_play_given_up_before_a_guess_keeps_the_secret() -> None:
    # It costs nothing: shown, the seed's secret could be won in one guess next time.
    from click.testing import CliRunner

    from bullscows.cli import main

    result = CliRunner().invoke(main, ["play", "--seed", "7"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert secret_of(7) not in result.output and "The secret was" not in result.output
    assert f"{HIDDEN}\n{ABANDONED}\n" in result.output


def test_play_same_seed_same_secret_other_seed_other_secret() -> None:
    # the premise of the tests above, and a guard against a constant "random" secret
    assert secret_of(7) == secret_of(7)
    assert len({secret_of(seed) for seed in range(20)}) > 10


def test_play_ctrl_c_exits_130_without_traceback(terminal: Spawn) -> None:
    game = terminal("play")
    game.expect(YOUR_GUESS)
    game.interrupt()
    assert game.finish() == 130
    assert game.transcript.rstrip().endswith("Interrupted."), game.transcript


def test_play_guess_with_square_brackets_is_just_a_bad_guess(spawn: Spawn) -> None:
    game = spawn("play", "--seed", "1")
    game.expect(YOUR_GUESS)
    game.send("[/bold]")
    game.expect_text("code '[/bold]'")
    game.expect(YOUR_GUESS)
    game.send("quit")
    assert game.finish() == 0


# --- hints ------------------------------------------------------------------------------------

MM = Rules.parse("mm")
HINT = re.compile(r"Try (\S+); it (could|cannot) be the secret")
SPLIT = re.compile(r"Of the (\d+) codes? still possible, its reply would leave at most (\d+) ")


def largest_part(candidates: list[str], guess: str) -> int:
    return max(Counter(bulls_cows(code, guess) for code in candidates).values())


def test_hint_without_the_flag_says_hints_are_off(spawn: Spawn) -> None:
    game = spawn("play", "--seed", "2")
    game.expect(YOUR_GUESS)
    game.send("hint")
    game.expect_text("Hints are off; play with --hint to get them.")
    assert game.expect(YOUR_GUESS).group(1) == "1"
    game.send("quit")
    game.expect_text(HIDDEN)
    assert game.finish() == 0
    assert "Try " not in game.transcript


def test_hints_propose_a_guess_and_explain_the_split(spawn: Spawn) -> None:
    seed = 4
    secret = secret_of(seed, MM)
    assert secret != "1122"
    game = spawn("play", "--rules", "mm", "--seed", str(seed), "--hint", "--reply-style", "words")
    game.expect(YOUR_GUESS)
    game.send("hint")
    game.expect_text("Try 1122; it could be the secret.")  # Knuth's opening
    game.expect_text("Of the 1296 codes still possible, its reply would leave at most 256 ")
    game.expect_text(
        "13 parts: 0 bulls, 0 cows: 256; 0 bulls, 1 cow: 256; 1 bull, 0 cows: 256; 1 bull, 1 cow: "
        "208; 2 bulls, 0 cows: 114; 0 bulls, 2 cows: 96; and 7 more"
    )
    game.expect(YOUR_GUESS)
    game.send("1122")
    given = bulls_cows(secret, "1122")
    left = narrow(all_codes(MM), "1122", given)
    game.expect_text(f"    {words(*given)}  ({len(left)} codes still possible)")

    proposals = []
    for _ in range(2):  # asked twice: the same hint, counted once
        assert game.expect(YOUR_GUESS).group(1) == "2"
        game.send("hint")
        guess, could = game.expect(HINT).groups()
        assert (could == "could") == (guess in left)
        total, most = game.expect(SPLIT).groups()
        assert (int(total), int(most)) == (len(left), largest_part(left, guess))
        proposals.append(guess)
    assert proposals[0] == proposals[1]

    game.expect(YOUR_GUESS)
    game.send(secret)
    game.expect_text(f"You broke it in 2 guesses with 2 hints: {secret}.")
    assert game.finish() == 0


@pytest.mark.parametrize("consistent_only", [False, True])
def test_consistent_only_hints_could_be_the_secret(spawn: Spawn, consistent_only: bool) -> None:
    # After 1122 got 0 bulls, 2 cows, minimax's best split comes from a code that cannot be
    # the secret; restricted to the 256 codes that can, it settles for a larger part.
    secret = secret_of(16, MM)
    flags = ["--consistent-only"] if consistent_only else []
    game = spawn("play", "--rules", "mm", "--hint", "--seed", "16", *flags)
    game.expect(YOUR_GUESS)
    game.send("1122")
    assert bulls_cows(secret, "1122") == (0, 2)
    left = narrow(all_codes(MM), "1122", (0, 2))
    game.expect(YOUR_GUESS)
    game.send("hint")
    guess, could = game.expect(HINT).groups()
    assert could == ("could" if consistent_only else "cannot")
    assert (guess in left) == consistent_only
    total, most = game.expect(SPLIT).groups()
    assert (int(total), int(most)) == (len(left), largest_part(left, guess))
    game.expect(YOUR_GUESS)
    game.send("quit")
    assert game.finish() == 0


def test_an_unknown_or_unfit_strategy_is_a_usage_error(spawn: Spawn) -> None:
    game = spawn("play", "--strategy", "psychic")
    game.expect_text("unknown strategy 'psychic'")
    assert game.finish() == 2
    game = spawn("play", "--rules", "mm", "--hint", "--strategy", "cows")
    game.expect_text("Invalid value for --strategy: cows needs codes without repeated symbols")
    assert game.finish() == 2


# --- the adversary ----------------------------------------------------------------------------

PAIR = re.compile(r"    (\d+) (\d+)\r?\n")


def test_adversary_game_played_to_the_end(spawn: Spawn) -> None:
    game = spawn("play", "--rules", "mm", "--adversary", "--reply-style", "pair", "--seed", "8")
    game.expect_text("I have picked no secret: 4 symbols of 1-6, repeats allowed.")
    candidates = all_codes(MM)
    history: list[tuple[str, tuple[int, int]]] = []
    while True:
        assert game.expect(YOUR_GUESS).group(1) == str(len(history) + 1)
        guess = candidates[0]  # the simplest solver: the first code that fits every reply
        game.send(guess)
        match = game.expect(PAIR)
        given = (int(match.group(1)), int(match.group(2)))
        parts = Counter(bulls_cows(code, guess) for code in candidates)
        history.append((guess, given))
        candidates = narrow(candidates, guess, given)
        if given == (4, 0):
            break
        # the reply kept the largest part the guess could leave
        assert len(candidates) == max(n for reply, n in parts.items() if reply != (4, 0))
        assert len(history) < 15
    assert candidates == [guess] == still_possible(MM, history)
    game.expect_text(f"You broke it in {len(history)} guesses: {guess}.")
    assert game.finish() == 0


def test_adversary_quit_shows_a_secret_that_fits_every_reply(spawn: Spawn) -> None:
    game = spawn("play", "--adversary", "--reply-style", "pair", "--seed", "3")
    history: list[tuple[str, tuple[int, int]]] = []
    for guess in ("0123", "4567", "8901"):
        game.expect(YOUR_GUESS)
        game.send(guess)
        match = game.expect(PAIR)
        history.append((guess, (int(match.group(1)), int(match.group(2)))))
    game.expect(YOUR_GUESS)
    game.send("quit")
    game.expect_text("There was no secret: I never picked one.")
    secret = game.expect(r"A secret that fits every reply I gave: (\S+)\.").group(1)
    assert game.finish() == 0
    assert secret in still_possible(BC, history)


def test_guesses_piped_to_play_name_the_lines_refused() -> None:
    from click.testing import CliRunner

    from bullscows.cli import main

    secret = secret_of(1)
    guess = "0123" if secret != "0123" else "4567"
    result = CliRunner().invoke(main, ["play", "--seed", "1"], input=f"12x4\n{guess}\nquit\n")
    assert result.exit_code == 1  # a line was refused
    assert "line 1: code '12x4': 'x' is not a symbol; symbols are 0-9" in result.output
    assert f"    {words(*bulls_cows(secret, guess))}" in result.output
    assert f"The secret was {secret}." in result.output
    clean = CliRunner().invoke(main, ["play", "--seed", "1"], input=f"{guess}\nquit\n")
    assert clean.exit_code == 0
