"""Richardson's solvers: random guessing, brute force, and the cows solver (totals only)."""

from __future__ import annotations

import math
import pickle
import random
from collections.abc import Sequence

import numpy as np
import pytest
from click.testing import CliRunner, Result

from bullscows import Code, Feedback, Rules, score
from bullscows.cli import main
from bullscows.errors import StrategyError
from bullscows.figures import UNSOLVED
from bullscows.knowledge import Knowledge, Step
from bullscows.outcomes import DEFAULT_MAX_GUESSES, guess_counts, play_games
from bullscows.seeding import MoveRandom
from bullscows.sessions import Codebreaker
from bullscows.strategies import STRATEGIES, Strategy, get_strategy
from bullscows.strategies.naive import BruteForce, CowsOnly, RandomGuess
from bullscows.universe import universe

BC, MM, P3C6N = Rules.parse("bc"), Rules.parse("mm"), Rules.parse("p3c6n")
NOLEAD = Rules.parse("bc-nolead")


def secrets_sample(rules: Rules, count: int, seed: int = 1) -> np.ndarray:
    return np.array(sorted(random.Random(seed).sample(range(rules.size), count)), dtype=np.int64)


def play(rules: Rules, strategy_name: str, secret: str, seed: int = 0) -> Codebreaker:
    """A whole game in a ``Codebreaker``, every reply computed with ``score``."""
    breaker = Codebreaker(rules, strategy_name, seed)
    hidden = Code(secret, rules)
    for _ in range(10 * rules.size):
        breaker.reply(score(hidden, breaker.suggest()))
        if breaker.solved:
            return breaker
    raise AssertionError(f"{strategy_name} did not break {secret}")


def test_registered_with_their_limits() -> None:
    assert STRATEGIES["random"] is RandomGuess
    assert STRATEGIES["brute-force"] is BruteForce
    assert STRATEGIES["cows"] is CowsOnly
    for name in ("random", "brute-force"):
        assert get_strategy(name).problem(MM) is None
        assert get_strategy(name).ignores_replies
    assert not get_strategy("cows").ignores_replies
    assert get_strategy("brute-force").deterministic
    assert not get_strategy("random").deterministic and not get_strategy("cows").deterministic
    assert get_strategy("cows").problem(BC) is None
    assert get_strategy("cows").problem(NOLEAD) is None


# --- brute force ------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [BC, MM, NOLEAD], ids=["bc", "mm", "bc-nolead"])
def test_brute_force_needs_index_plus_one(rules: Rules) -> None:
    counts = guess_counts(rules, get_strategy("brute-force"))
    assert counts.tolist() == list(range(1, rules.size + 1))
    some = np.array([7, 3, rules.size - 1])
    assert guess_counts(rules, get_strategy("brute-force"), some).tolist() == [8, 4, rules.size]


def test_brute_force_guesses_in_order_whatever_the_replies() -> None:
    strategy, rng = get_strategy("brute-force"), random.Random(0)
    k = Knowledge.start(BC)
    for number in range(3):
        assert strategy.next_guess(k, rng) == number
        k = k.after(k.code(number), Feedback(0, 0))
    assert BruteForce().sequence(BC, rng, 5030, 100).tolist() == list(range(5030, 5040))


def test_brute_force_refuses_to_go_past_the_last_code() -> None:
    # Only possible with guesses it did not make: the same code over and over.
    rules = Rules.parse("p2c3n")
    k = Knowledge.start(rules)
    for _ in range(rules.size):
        k = k.after(Code("01", rules), Feedback(0, 1))
    with pytest.raises(StrategyError, match="no code left to guess"):
        get_strategy("brute-force").next_guess(k, random.Random(0))


# --- random -----------------------------------------------------------------------------------


def test_random_is_reproducible_from_the_seed() -> None:
    secrets = np.arange(0, MM.size, 7)
    first = play_games(MM, get_strategy("random"), secrets, 1)
    assert first.tolist() == play_games(MM, get_strategy("random"), secrets, 1).tolist()
    assert first.tolist() != play_games(MM, get_strategy("random"), secrets, 2).tolist()
    draws = RandomGuess().sequence(MM, random.Random(5), 0, 10_000)
    assert draws.min() >= 0 and draws.max() < MM.size
    assert draws.tolist() == RandomGuess().sequence(MM, random.Random(5), 0, 10_000).tolist()


def test_random_needs_about_as_many_guesses_as_there_are_codes() -> None:
    # Geometric with p = 1/1296: mean 1296, standard deviation about 1296, so over all 1296
    # secrets the mean has a standard error of about 36; the bounds are over 5 of those away.
    counts = play_games(MM, get_strategy("random"), np.arange(MM.size), 1)
    assert (counts != UNSOLVED).all()  # missing 100,000 times in a row: about e**-77
    assert 1100 < counts.mean() < 1500
    assert counts.max() > MM.size  # with replacement, unlike brute force
    assert DEFAULT_MAX_GUESSES == 100_000


def test_random_gives_up_at_the_cap() -> None:
    counts = play_games(BC, get_strategy("random"), np.arange(200), 3, max_guesses=5)
    assert (counts <= 5).all()
    assert (counts == UNSOLVED).sum() >= 190  # each game wins with chance 1 - (5039/5040)**5
    brute = play_games(BC, get_strategy("brute-force"), np.array([3, 20]), None, max_guesses=10)
    assert brute.tolist() == [4, UNSOLVED]


# --- cows -------------------------------------------------------------------------------------


def cows_game(rules: Rules, secret: int, seed: int) -> list[Step]:
    """A cows game driven by hand with ``Knowledge``; its history (the last step wins)."""
    strategy, rng = get_strategy("cows"), random.Random(seed)
    k = Knowledge.start(rules)
    while not k.is_solved:
        guess = k.code(strategy.next_guess(k, rng))
        k = k.after(guess, score(k.code(secret), guess))
    return list(k.history)


@pytest.mark.parametrize(
    ("rules", "secrets"),
    [(P3C6N, np.arange(P3C6N.size)), (NOLEAD, secrets_sample(NOLEAD, 25)), (BC, np.arange(0, 25))],
    ids=["p3c6n", "bc-nolead", "bc"],
)
def test_cows_breaks_every_secret(rules: Rules, secrets: np.ndarray) -> None:
    counts = play_games(rules, get_strategy("cows"), secrets, 1)
    assert (counts != UNSOLVED).all()
    # Each guess is a window of a set of symbols never asked before, or an order not yet tried
    # of the secret's symbols (whose window was one guess already).
    windows, orders = math.comb(len(rules.symbols), rules.length), math.factorial(rules.length)
    assert counts.max() <= windows + orders - 1


def test_cows_never_guesses_a_code_twice_and_plays_only_valid_codes() -> None:
    for secret in secrets_sample(NOLEAD, 5, seed=2):
        history = cows_game(NOLEAD, int(secret), seed=int(secret))
        guesses = [step.guess.text for step in history]
        assert len(set(guesses)) == len(guesses)
        assert all(g[0] != "0" for g in guesses)
        assert guesses[-1] == universe(NOLEAD).text(int(secret))


def test_cows_works_through_the_shared_next_guess_too() -> None:
    # ``Strategy.next_guess`` plays the last candidate at once; the planner never sees that
    # guess, which is the secret whenever the replies are true, so the game ends there.
    strategy, rng = get_strategy("cows"), random.Random(3)
    for secret in secrets_sample(BC, 10, seed=3):
        k = Knowledge.start(BC)
        while not k.is_solved:
            guess = k.code(Strategy.next_guess(strategy, k, rng))
            k = k.after(guess, score(k.code(int(secret)), guess))
        assert k.history[-1].guess.index == secret


def test_cows_survives_pickling_mid_game() -> None:
    breaker = play(BC, "cows", "0369", seed=5)
    history = breaker.history
    copy = pickle.loads(pickle.dumps(breaker.strategy))
    k = Knowledge.from_history(BC, history[:4])
    assert copy.next_guess(k, random.Random()) == history[4].guess.index


def redistributed(feedback: Feedback, length: int) -> Feedback:
    """Another split of the same total into bulls and cows (never all bulls)."""
    total = feedback.bulls + feedback.cows
    bulls = 0 if feedback.bulls else min(1, total)
    return Feedback(bulls, total - bulls)


@pytest.mark.parametrize("secret", [0, 1234, 4321, 5039])
def test_cows_looks_only_at_the_totals(secret: int) -> None:
    history = cows_game(BC, secret, seed=secret)
    changed = [Step(s.guess, redistributed(s.feedback, 4)) for s in history[:-1]]
    assert changed != history[:-1]
    # Knowledge built directly: the altered replies may contradict each other, but the totals
    # are all cows reads, so it must make the same guesses.
    strategy, rng = get_strategy("cows"), random.Random(secret)
    every = universe(BC).all()
    for number, step in enumerate(history):
        k = Knowledge(BC, tuple(changed[:number]), every)
        assert strategy.next_guess(k, rng) == step.guess.index


def test_cows_undo_gives_the_same_guesses() -> None:
    breaker = play(BC, "cows", "2745", seed=4)
    history = breaker.history
    assert len(history) > 5
    prefixes = list(range(1, len(history)))
    random.Random(0).shuffle(prefixes)
    for number in prefixes:  # in any order: the planner is rebuilt from the seed when needed
        k = Knowledge.from_history(BC, history[:number])
        rng = MoveRandom(breaker.seed, "breaker", number)
        assert breaker.strategy.next_guess(k, rng) == history[number].guess.index
    # Undo in the session, then the same replies: the same game again.
    for _ in range(3):
        breaker.undo()
    hidden = Code("2745", BC)
    while not breaker.solved:
        breaker.reply(score(hidden, breaker.suggest()))
    assert breaker.history == history


def test_cows_continues_only_its_own_games() -> None:
    breaker = Codebreaker(BC, "cows", 0)
    first = breaker.suggest()
    other = "9876" if first.text != "9876" else "6789"
    breaker.record(other, "0 1")
    with pytest.raises(StrategyError, match="only continue a game of its own guesses"):
        breaker.suggest()
    breaker.undo()
    assert breaker.suggest() == first
    # A fresh strategy has no seed for a game already under way.
    k = Knowledge.start(BC).after(first, Feedback(0, 1))
    with pytest.raises(StrategyError, match="only continue a game of its own guesses"):
        get_strategy("cows").next_guess(k, random.Random(0))


def test_cows_refuses_repeats() -> None:
    message = "cows needs codes without repeated symbols"
    problem = get_strategy("cows").problem(MM)
    assert problem is not None and message in problem and MM.describe() in problem
    with pytest.raises(StrategyError, match=message):
        get_strategy("cows").next_guess(Knowledge.start(MM), random.Random(0))
    with pytest.raises(StrategyError, match=message):
        Codebreaker(MM, "cows").suggest()


# --- sessions and the command line ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "rules", "secret"),
    [
        ("random", Rules.parse("p2c4n"), "31"),
        ("brute-force", Rules.parse("p2c4n"), "31"),
        ("cows", BC, "2745"),
        ("cows", NOLEAD, "1098"),
    ],
)
def test_codebreaker_plays_them(name: str, rules: Rules, secret: str) -> None:
    breaker = play(rules, name, secret)
    assert breaker.history[-1].guess.text == secret
    if name == "brute-force":
        assert len(breaker.history) == Code(secret, rules).index + 1


def solve_plain(args: Sequence[str], rules: Rules, secret: str) -> tuple[Result, list[str]]:
    """A whole ``solve --plain`` game: each run gets the replies to the previous run's guesses
    and prints one more guess (the input must be known before a run starts)."""
    replies: list[str] = []
    hidden = Code(secret, rules)
    for _ in range(200):
        text = "".join(f"{r}\n" for r in replies)
        result = CliRunner().invoke(main, ["solve", "--plain", *args], input=text)
        guesses = result.stdout.splitlines()
        if result.exit_code == 0:
            return result, guesses
        assert result.stderr == "Error: input ended before the code was found\n", result.output
        assert len(guesses) == len(replies) + 1
        feedback = score(hidden, Code(guesses[-1], rules))
        replies.append(f"{feedback.bulls} {feedback.cows}")
    raise AssertionError(f"no end after {len(replies)} replies")


@pytest.mark.parametrize(
    ("args", "rules", "secret"),
    [
        (["--strategy", "cows", "--seed", "7"], BC, "2745"),
        (["--strategy", "cows", "--seed", "1", "--rules", "p3c6n"], P3C6N, "504"),
        (["--strategy", "brute-force", "--rules", "p2c4n"], Rules.parse("p2c4n"), "21"),
        (["--strategy", "random", "--seed", "3", "--rules", "p2c3n"], Rules.parse("p2c3n"), "20"),
    ],
)
def test_solve_plain_with_each(args: list[str], rules: Rules, secret: str) -> None:
    result, guesses = solve_plain(args, rules, secret)
    assert result.stderr == ""
    assert guesses[-1] == secret
    if "cows" in args:
        assert len(set(guesses)) == len(guesses)


def test_solve_plain_cows_refuses_mastermind() -> None:
    result = CliRunner().invoke(main, ["solve", "--plain", "--strategy", "cows", "--rules", "mm"])
    assert result.exit_code == 2  # a strategy unfit for the variant is a usage error
    assert "cows needs codes without repeated symbols" in result.stderr
    assert "Traceback" not in result.output
