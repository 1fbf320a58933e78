"""The adversary: a codemaker without a secret whose every reply keeps the most codes possible.

Each fact is checked by brute force with ``bullscows.score``, not with the universe's kernels.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows import Code, Feedback, Rules, score
from bullscows.errors import BullsCowsError, GameOverError
from bullscows.sessions import Adversary, Codebreaker


def every_code(rules: Rules) -> list[Code]:
    columns = [rules.allowed_at(i) for i in range(rules.length)]
    texts = ("".join(p) for p in itertools.product(*columns))
    return [Code(t, rules) for t in texts if rules.repeats or len(set(t)) == len(t)]


def play_out(game: Adversary, strategy: str, seed: int, limit: int = 20) -> None:
    """Guess with a library codebreaker until the adversary gives in."""
    breaker = Codebreaker(game.rules, strategy, seed)
    while not game.solved:
        assert len(game.history) < limit, game.history
        breaker.reply(game.guess(breaker.suggest()))


def check_greedy(rules: Rules, game: Adversary) -> None:
    """Every reply left the largest part of the codes then possible (all bulls only at the end)."""
    candidates = every_code(rules)
    for step in game.history:
        parts = Counter(score(secret, step.guess) for secret in candidates)
        left = [c for c in candidates if score(c, step.guess) == step.feedback]
        win = Feedback.win(rules.length)
        if step.feedback == win:
            assert candidates == [step.guess]
        else:
            assert len(left) == max(n for f, n in parts.items() if f != win)
        candidates = left


@pytest.mark.parametrize(("spec", "strategy"), [("moo2,2", "simple"), ("mm", "simple"),
                                                ("mm", "minimax"), ("bc", "minimax")])  # fmt: skip
def test_games_end_and_every_reply_fits_the_secret(spec: str, strategy: str) -> None:
    rules = Rules.parse(spec)
    game = Adversary(rules, 1)
    play_out(game, strategy, seed=1)
    assert game.history[-1].feedback == Feedback.win(rules.length)
    assert game.secret == game.history[-1].guess
    for step in game.history:
        assert score(game.history[-1].guess, step.guess) == step.feedback
    check_greedy(rules, game)
    with pytest.raises(GameOverError, match="already broken"):
        game.guess(game.history[-1].guess)


def test_the_adversary_is_harder_than_a_random_secret() -> None:
    # minimax breaks any Mastermind code in at most 5 guesses; greedy replies reach that bound
    rules = Rules.parse("mm")
    lengths = set()
    for seed in range(3):
        game = Adversary(rules, seed)
        play_out(game, "minimax", seed)
        lengths.add(len(game.history))
    assert lengths == {5}


def test_first_reply_to_1122_is_one_of_the_three_parts_of_256() -> None:
    rules = Rules.parse("mm")
    replies = {Adversary(rules, seed).guess("1122") for seed in range(30)}
    assert replies == {Feedback(0, 0), Feedback(0, 1), Feedback(1, 0)}


def test_seeded_ties_are_reproducible() -> None:
    rules = Rules.parse("mm")
    guesses = ["1122", "1344", "3526", "1462"]

    def replies(seed: int) -> list[Feedback]:
        game = Adversary(rules, seed)
        return [game.guess(g) for g in guesses if not game.solved]

    assert replies(7) == replies(7)
    assert len({tuple(replies(seed)) for seed in range(10)}) > 1


def test_a_quit_reveals_a_secret_that_fits_and_binds_the_adversary() -> None:
    rules = Rules.parse("bc")
    game = Adversary(rules, 3)
    for guess in ("0123", "4567", "8901"):
        game.guess(guess)
    assert game.secret is None  # reading it commits to nothing
    secret = game.commit()
    assert not game.solved and secret == game.commit() == game.secret  # bound once
    assert all(score(secret, step.guess) == step.feedback for step in game.history)
    # from now on it answers like a codemaker hiding that code
    for guess in ("2345", secret.text):
        assert game.guess(guess) == score(secret, Code(guess, rules))
    assert game.solved and game.secret == secret


def test_a_bad_guess_is_refused_and_not_recorded() -> None:
    game = Adversary(Rules.parse("bc"), 0)
    with pytest.raises(BullsCowsError):
        game.guess("1123")
    assert game.history == () and game.remaining == 5040


@settings(max_examples=25)
@given(
    spec=st.sampled_from(["moo3,3", "p3c4n", "p3c3r:nolead"]),
    seed=st.integers(0, 2**16),
    picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=6),
)
def test_any_guesses_get_consistent_greedy_replies(spec: str, seed: int, picks: list[int]) -> None:
    rules = Rules.parse(spec)
    codes = every_code(rules)
    game = Adversary(rules, seed)
    for pick in picks:
        if game.solved:
            break
        game.guess(codes[pick % len(codes)])
    check_greedy(rules, game)
    secret = game.secret if game.solved else game.give_up()
    assert secret is not None
    assert all(score(secret, step.guess) == step.feedback for step in game.history)
