"""Every command with guesses wider than the secrets (``--rules bc:guesses=p4c10r``): the
expected figures by brute force (``conftest``), not by the library's knowledge code."""

from __future__ import annotations

import re
from pathlib import Path

from click.testing import CliRunner, Result

from bullscows import Rules
from bullscows.cli import main
from bullscows.sessions import seeded_secret

from .conftest import Spawn, all_codes, bulls_cows, narrow

WIDE = "bc:guesses=p4c10r"
SECRETS = all_codes(Rules.parse("bc"))
YOUR_GUESS = re.compile(r"\[(\d+)\] Your guess: ")


def run(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(
        main, list(args), input=input, env={"COLUMNS": "200", "NO_COLOR": "1"}
    )


def test_play_takes_guesses_that_repeat_a_digit(spawn: Spawn) -> None:
    secret = seeded_secret(Rules.parse(WIDE), 4).text
    assert len(set(secret)) == 4
    game = spawn("play", "--rules", WIDE, "--seed", "4", "--hint")
    game.expect_text(
        "I have picked a secret: 4 distinct symbols of 0-9; guesses: 4 symbols of 0-9, "
        "repeats allowed."
    )
    left = SECRETS
    for guess in ("0000", "1122"):
        game.expect(YOUR_GUESS)
        game.send(guess)
        bulls, cows = bulls_cows(secret, guess)
        left = narrow(left, guess, (bulls, cows))
        game.expect_text(f"{bulls} bull")
        game.expect_text(f"({len(left)} codes still possible)")
    game.expect(YOUR_GUESS)
    game.send("help")
    game.expect_text("A guess is a code: 4 symbols of 0-9, repeats allowed.")
    game.expect(YOUR_GUESS)
    game.send("quit")
    game.expect_text(f"The secret was {secret}.")
    assert game.finish() == 0


def test_solve_plain_breaks_distinct_secrets_with_any_guesses() -> None:
    for secret in ("2745", "9876", "0123"):
        replies: list[str] = []
        for _ in range(10):
            result = run("solve", "--plain", "--rules", WIDE, input="".join(replies))
            guesses = result.stdout.splitlines()
            assert all(re.fullmatch(r"\d{4}", g) for g in guesses), result.output
            if result.exit_code == 0:
                assert guesses[-1] == secret
                break
            assert result.stderr == "Error: input ended before the code was found\n"
            bulls, cows = bulls_cows(secret, guesses[-1])
            replies.append(f"{bulls} {cows}\n")
        else:
            raise AssertionError(f"{secret} not found: {replies}")


def test_assist_takes_repeated_guesses_and_counts_secrets() -> None:
    history = [("0000", (0, 0)), ("1122", (1, 1)), ("3345", (1, 1))]
    lines = "".join(f"{g} {b} {c}\n" for g, (b, c) in history)
    result = run("assist", "--rules", WIDE, input=lines)
    assert result.exit_code == 0, result.output
    assert "Assisting a game of 4 distinct symbols of 0-9; guesses: 4 symbols of 0-9, " in (
        result.output
    )
    assert "5040 codes possible" in result.output.splitlines()[0]
    left = SECRETS
    for guess, reply in history:
        left = narrow(left, guess, reply)
    assert f"> {len(left)} codes possible.\n  {' '.join(left)}\n" in result.output
    assert 1 < len(left) <= 12


def test_a_tree_with_repeated_guesses_is_written_checked_and_played(tmp_path: Path) -> None:
    path = tmp_path / "wide.json"
    spec = "p3c5n:guesses=p3c5r"
    result = run("tree", "--rules", spec, "--strategy", "optimal", "--out", str(path))
    assert result.exit_code == 0, result.output
    assert "p3c5n:guesses=p3c5r: 3 distinct symbols of 0-4; guesses: " in result.stdout
    checked = run("tree", "--check", str(path))
    assert checked.exit_code == 0, checked.output
    assert "a valid tree of optimal on p3c5n:guesses=p3c5r: 60 secrets, total 196" in (
        checked.stdout
    )
    bench = run("bench", "--rules", spec, "--strategy", f"tree:{path}", "--json")
    assert bench.exit_code == 0, bench.output
    assert '"total": 196' in bench.stdout and '"secrets": 60' in bench.stdout
