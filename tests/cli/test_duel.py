"""``bullscows duel``: whole games in a pseudo-terminal.

Every draw of a game comes from its seed (``--seed S``): the computer's secret is
``seeded_secret(rules, S)``, and its guesses are simulated here with a ``Codebreaker`` of the
same seed to know how many it will need.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from bullscows import Rules
from bullscows.sessions import Codebreaker, seeded_secret

from .conftest import MY_GUESS, Session, Spawn, all_codes, bulls_cows, words

BC = Rules.parse("bc")
SEED = 7
YOUR_GUESS = re.compile(r"\[(\d+)\] Your guess: ")
VERDICT = re.compile(
    r"(You win!|I win!|A draw!) You needed (\d+) guess(?:es)?, I needed (\d+) guess(?:es)?\."
)
AUDIT = "What was your secret? I'll check your replies (Enter to skip): "


@dataclass
class Plan:
    theirs: str  # the computer's secret
    mine: str  # the person's secret
    computer_guesses: list[str]  # what the computer will guess against ``mine``


def plan(seed: int, mine: str, rules: Rules = BC) -> Plan:
    theirs = seeded_secret(rules, seed).text
    breaker = Codebreaker(rules, "minimax", seed)
    guesses = []
    while not breaker.solved:
        guess = breaker.suggest().text
        guesses.append(guess)
        bulls, cows = bulls_cows(mine, guess)
        breaker.reply(f"{bulls} {cows}")
    return Plan(theirs, mine, guesses)


def wrong_guesses(theirs: str, count: int) -> list[str]:
    """``count`` different valid codes, none of them the computer's secret."""
    codes = [c for c in all_codes(BC)[::397] if c != theirs]
    return codes[:count]


def play(game: Session, p: Plan, my_guesses: list[str]) -> re.Match[str]:
    """Guess ``my_guesses`` (the last must be the secret) and answer the computer truthfully,
    checking every round number, reply and computer guess. Returns the verdict's match."""
    sent: list[str] = []
    replies = 0
    while True:
        which, match = game.expect_any([YOUR_GUESS, MY_GUESS, VERDICT])
        if which == 2:
            return match
        number = int(match.group(1))
        if which == 0:
            assert number == len(sent) + 1, game.transcript
            guess = my_guesses[len(sent)]
            sent.append(guess)
            game.send(guess)
            game.expect_text(f"    {words(*bulls_cows(p.theirs, guess))}")
            if guess == p.theirs:
                game.expect_text(f"    You broke my code: {p.theirs}.")
        else:
            assert number == replies + 1, game.transcript
            assert match.group(2) == p.computer_guesses[replies], game.transcript
            bulls, cows = bulls_cows(p.mine, match.group(2))
            game.send(f"{bulls} {cows}")
            replies += 1


def test_the_seed_fixes_the_computers_secret() -> None:
    from bullscows.sessions import Duel

    for seed in (SEED, 1, 99):
        duel = Duel(BC, "minimax", seed)
        assert duel.maker.secret.text == seeded_secret(BC, seed).text


@pytest.mark.parametrize(
    ("offset", "verdict"), [(0, "A draw!"), (-1, "You win!"), (1, "I win!")], ids=str
)
def test_whole_duel(spawn: Spawn, offset: int, verdict: str) -> None:
    p = plan(SEED, "9876")
    n = len(p.computer_guesses)
    assert n >= 3, "pick a secret that takes the computer a few guesses"
    mine_needed = n + offset
    my_guesses = [*wrong_guesses(p.theirs, mine_needed - 1), p.theirs]
    game = spawn("duel", "--seed", str(SEED))
    game.expect_text("Duel: 4 distinct symbols of 0-9. I have picked my secret; think of yours.")
    match = play(game, p, my_guesses)
    assert match.group(1) == verdict
    assert (int(match.group(2)), int(match.group(3))) == (mine_needed, n)
    if offset >= 0:  # it broke mine in a round I also played
        assert f"I broke your code: {p.mine}." in game.transcript
    game.expect_text(AUDIT)
    game.send(p.mine)
    game.expect_text("Every reply you gave was right.")
    assert game.finish() == 0


def test_duel_quit_reveals_the_secret(terminal: Spawn) -> None:
    p = plan(SEED, "9876")
    game = terminal("duel", "--seed", str(SEED))
    game.expect(YOUR_GUESS)
    game.send("12")  # not a code: asked again
    game.expect_text("code '12' has 2 symbols")
    assert game.expect(YOUR_GUESS).group(1) == "1"
    game.send("quit")
    game.expect_text(f"Stopped. My secret was {p.theirs}.")
    assert game.finish() == 0


def test_duel_stop_at_a_reply_prompt(spawn: Spawn) -> None:
    p = plan(SEED, "9876")
    game = spawn("duel", "--seed", str(SEED))
    game.expect(YOUR_GUESS)
    game.send(wrong_guesses(p.theirs, 1)[0])
    assert game.expect(MY_GUESS).group(2) == p.computer_guesses[0]
    game.send("undo")
    game.expect_text("nothing to undo")
    game.expect(MY_GUESS)
    game.send("quit")
    game.expect_text(f"Stopped. My secret was {p.theirs}.")
    assert game.finish() == 0


def test_duel_person_wins_by_two_or_more(spawn: Spawn) -> None:
    p = plan(SEED, "9876")
    assert len(p.computer_guesses) >= 3
    game = spawn("duel", "--seed", str(SEED))
    match = play(game, p, [p.theirs])  # broken at once
    assert match.group(1) == "You win!"
    game.expect_text(AUDIT)
    game.send("")
    assert game.finish() == 0


def test_duel_rounds_go_on_after_the_computer_wins(spawn: Spawn) -> None:
    p = plan(SEED, "9876")
    n = len(p.computer_guesses)
    my_guesses = [*wrong_guesses(p.theirs, n + 1), p.theirs]
    game = spawn("duel", "--seed", str(SEED))
    match = play(game, p, my_guesses)  # checks that the prompts count 1, 2, ..., n + 2
    assert match.group(1) == "I win!"
    assert game.transcript.count("I broke your code") == 1


def test_duel_verdict_grammar_for_one_guess(spawn: Spawn) -> None:
    p = plan(SEED, "0123")
    assert p.computer_guesses == ["0123"]  # the computer's first guess is my secret
    game = spawn("duel", "--seed", str(SEED))
    match = play(game, p, [p.theirs])
    assert match.group(1) == "A draw!"
    game.expect_text(AUDIT)
    assert "You needed 1 guess, I needed 1 guess." in game.transcript


def test_a_piped_duel_names_the_lines_it_refuses_and_ends_at_a_contradiction() -> None:
    from click.testing import CliRunner

    from bullscows.cli import main

    secret = seeded_secret(BC, SEED).text
    guess = "0123" if secret != "0123" else "4567"
    lines = ["12x4", guess, "xx", "3 1", "0 0"]
    result = CliRunner().invoke(main, ["duel", "--seed", str(SEED)], input="\n".join(lines))
    assert result.exit_code == 1
    assert "line 1: code '12x4': 'x' is not a symbol" in result.output
    assert f"    {words(*bulls_cows(secret, guess))}" in result.output
    assert "line 3: cannot read reply 'xx'" in result.output
    assert "line 4 makes the replies contradict each other." in result.stderr
    assert "line 1:" not in result.stdout and "line 3:" not in result.stdout  # once: on stderr
    assert "No code can give reply #1 0123 -> 3 bulls, 1 cow." in result.output


def test_history_and_help_at_the_guess_prompt(spawn: Spawn) -> None:
    # 'history' was read as a guess ("code 'history' has 7 symbols"), and 'help' told how
    # to write a reply at the prompt for a guess.
    game = spawn("duel", "--seed", str(SEED))
    game.expect(YOUR_GUESS)
    game.send("help")
    game.expect_text(  # undo and fix were taken at the guess prompt, and not named there
        "A guess is a code: 4 distinct symbols of 0-9. Commands: history, undo (takes back "
        "your last reply), 'fix N REPLY' replaces reply #N, quit."
    )
    game.send("0123")
    game.expect(MY_GUESS)
    game.send("0 1")
    game.expect(YOUR_GUESS)
    game.send("history")
    reply = words(*bulls_cows(seeded_secret(BC, SEED).text, "0123"))
    game.expect_text(f"  [1] 0123  {reply}")
    game.send("fix 1 0 2")
    game.expect_text("    #1 0123: 0 bulls, 1 cow is now 0 bulls, 2 cows")
    game.expect(YOUR_GUESS)
    game.send("undo")
    game.expect_text("    took back 0123 -> 0 bulls, 2 cows")
    game.expect(MY_GUESS)
    game.send("quit")
    assert game.finish() == 0
    assert "has 7 symbols" not in game.transcript
