"""The UI-free games: codemaker, codebreaker (and assistant), duel."""

from __future__ import annotations

import random

import pytest

from bullscows import Code, Feedback, Rules, score
from bullscows.errors import BullsCowsError, CodeError, FeedbackError
from bullscows.sessions import Codebreaker, Codemaker, Duel, random_secret

DIGITS = Rules.parse("digits")


def test_ulisp_duel_transcript_scores() -> None:
    # The computer's code was 8217, the player's 1234 (4 digits, repeats allowed).
    maker = Codemaker(DIGITS, "8217")
    replies = [
        maker.guess(g).format("digits") for g in ("1234", "5678", "3456", "1782", "7218", "8217")
    ]
    assert replies == ["11", "02", "00", "04", "22", "40"]
    assert maker.solved
    player = Code("1234", DIGITS)
    theirs = [
        score(player, Code(g, DIGITS)).format("digits") for g in ("2396", "3002", "4123", "1234")
    ]
    assert theirs == ["02", "02", "04", "40"]


def test_codemaker_rejects_bad_guesses_and_keeps_its_history() -> None:
    maker = Codemaker(Rules.parse("bc"), "2745")
    with pytest.raises(CodeError):
        maker.guess("1123")
    assert maker.history == ()
    maker.guess("2745")
    with pytest.raises(BullsCowsError, match="already broken"):
        maker.guess("0123")


def test_random_secret_is_seeded() -> None:
    rules = Rules.parse("bc")
    assert random_secret(rules, random.Random(7)) == random_secret(rules, random.Random(7))
    assert Codemaker(rules, rng=random.Random(7)).secret == random_secret(rules, random.Random(7))


@pytest.mark.parametrize("spec", ["bc", "mm", "moo5,5,5", "bc-nolead"])
def test_codebreaker_breaks_every_sampled_secret(spec: str) -> None:
    rules = Rules.parse(spec)
    rng = random.Random(3)
    for _ in range(5):
        secret = random_secret(rules, rng)
        breaker = Codebreaker(rules, "minimax", rng)
        while not breaker.solved:
            breaker.reply(score(secret, breaker.suggest()))
        assert breaker.history[-1].guess == secret
        assert breaker.audit(secret) == []


def test_codebreaker_undo_and_contradiction() -> None:
    rules = Rules.parse("bc")
    breaker = Codebreaker(rules)
    with pytest.raises(BullsCowsError, match="nothing to undo"):
        breaker.undo()
    first = breaker.suggest()
    breaker.reply("0 0")
    breaker.record(first, "4 0")
    assert breaker.contradiction is not None and breaker.remaining == 0
    with pytest.raises(BullsCowsError):
        breaker.suggest()
    step = breaker.undo()
    assert step.feedback == Feedback(4, 0) and breaker.contradiction is None
    assert breaker.suggest() != first


def test_codebreaker_checks_replies() -> None:
    breaker = Codebreaker(Rules.parse("bc"))
    with pytest.raises(FeedbackError):
        breaker.reply("3 1")
    with pytest.raises(FeedbackError):
        breaker.reply("3 bulls 2 cows")
    assert breaker.history == ()


def test_assistant_records_any_guess() -> None:
    rules = Rules.parse("bc")
    assistant = Codebreaker(rules, "simple")
    for guess, reply in [("1389", "0 0"), ("1234", "0 2"), ("1759", "1 1"), ("1785", "2 0")]:
        assistant.record(guess, reply)
    assert Code("2745") in assistant.knowledge.candidate_codes()
    assert assistant.suggest() in assistant.knowledge.candidate_codes()


def test_duel_plays_to_the_end_and_names_the_winner() -> None:
    rules = Rules.parse("bc")
    game = Duel(rules, "minimax", random.Random(5), secret="2745")
    mine = Code("4271")
    for guess in ("0123", "4567", "2745"):
        assert game.winner() is None
        game.maker.guess(guess)
        if not game.breaker.solved:
            game.breaker.reply(score(mine, game.breaker.suggest()))
    while not game.over:
        game.breaker.reply(score(mine, game.breaker.suggest()))
    expected = len(game.breaker.history)
    assert game.winner() == ("you" if expected > 3 else "draw" if expected == 3 else "computer")


def test_duel_winner_is_known_before_the_end() -> None:
    game = Duel(Rules.parse("bc"), "simple", random.Random(1), secret="0123")
    game.maker.guess("0123")
    assert game.winner() is None  # the computer has not guessed yet: it might also win in one
    game.breaker.reply("0 0")
    assert game.winner() == "you"
