"""``bullscows play``: a person breaks the computer's secret, in a pseudo-terminal.

``play`` builds ``Codemaker(rules, rng=random.Random(seed))`` and nothing draws from that rng
first, so the secret of ``--seed S`` is ``random_secret(rules, random.Random(S))``.
"""

from __future__ import annotations

import random
import re

import pytest

from bullscows import Rules
from bullscows.sessions import random_secret

from .conftest import Spawn, all_codes, bulls_cows, narrow, words

BC = Rules.parse("bc")
YOUR_GUESS = re.compile(r"\[(\d+)\] Your guess: ")


def secret_of(seed: int, rules: Rules = BC) -> str:
    return random_secret(rules, random.Random(seed)).text


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


def test_play_quit_reveals_the_secret(spawn: Spawn) -> None:
    mm = Rules.parse("mm")
    secret = secret_of(11, mm)
    game = spawn("play", "--rules", "mm", "--seed", "11", "--reply-style", "pegs")
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


def test_play_end_of_input_reveals_the_secret(spawn: Spawn) -> None:
    game = spawn("play", "--seed", "5")
    game.expect(YOUR_GUESS)
    game.child.sendeof()
    game.expect_text(f"The secret was {secret_of(5)}.")
    assert game.finish() == 0


def test_play_same_seed_same_secret_other_seed_other_secret() -> None:
    # the premise of the tests above, and a guard against a constant "random" secret
    assert secret_of(7) == secret_of(7)
    assert len({secret_of(seed) for seed in range(20)}) > 10


def test_play_ctrl_c_exits_130_without_traceback(spawn: Spawn) -> None:
    game = spawn("play")
    game.expect(YOUR_GUESS)
    game.child.sendintr()
    assert game.finish() == 130


def test_play_guess_with_square_brackets_is_just_a_bad_guess(spawn: Spawn) -> None:
    game = spawn("play", "--seed", "1")
    game.expect(YOUR_GUESS)
    game.send("[/bold]")
    game.expect_text("code '[/bold]'", timeout=10)
    game.expect(YOUR_GUESS)
    game.send("quit")
    assert game.finish() == 0
