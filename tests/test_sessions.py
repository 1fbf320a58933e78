"""The UI-free games: codemaker, codebreaker (and assistant), duel."""

from __future__ import annotations

import random

import pytest

from bullscows import Code, Feedback, Rules, score
from bullscows.errors import (
    BullsCowsError,
    CodeError,
    FeedbackError,
    GameOverError,
    NothingToUndoError,
    TurnError,
)
from bullscows.sessions import (
    Adversary,
    Codebreaker,
    Codemaker,
    Duel,
    DuelTurn,
    Status,
    Viewer,
    Winner,
    challenge,
    random_secret,
    seeded_secret,
)

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
    assert Codemaker(rules, seed=7).secret == seeded_secret(rules, 7)
    assert len({Codemaker(rules, seed=seed).secret for seed in range(20)}) > 10


@pytest.mark.parametrize("spec", ["bc", "mm", "moo5,5,5", "bc-nolead"])
def test_codebreaker_breaks_every_sampled_secret(spec: str) -> None:
    rules = Rules.parse(spec)
    rng = random.Random(3)
    for _ in range(5):
        secret = random_secret(rules, rng)
        breaker = Codebreaker(rules, "minimax", rng.randrange(100))
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


def test_a_broken_code_may_be_undone_but_not_a_game_given_up() -> None:
    breaker = Codebreaker(Rules.parse("bc"), "simple")
    breaker.reply("4 0")  # broken: a reply may still be taken back or corrected
    assert breaker.solved and not breaker.correct(1, "0 0").is_solved
    breaker.give_up()
    for move in (breaker.undo, lambda: breaker.correct(1, "0 1"), breaker.suggest):
        with pytest.raises(GameOverError, match="the game is over: it was given up"):
            move()


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
    # minimax breaks 4271 in 6 guesses (0123 1204 ... 0178 4271); the person breaks 2745 on
    # the third, so the person has won once the computer's third reply is in.
    rules = Rules.parse("bc")
    game = Duel(rules, "minimax", 5, secret="2745")
    mine = Code("4271")
    for guess in ("0123", "4567", "2745"):
        assert game.winner() is None
        assert game.awaiting is DuelTurn.GUESS
        game.guess(guess)
        game.reply(score(mine, game.suggest()))
    assert game.winner() is Winner.PERSON and not game.over
    while not game.over:
        assert game.awaiting is DuelTurn.REPLY
        game.reply(score(mine, game.suggest()))
    assert len(game.breaker.history) == 6 and game.breaker.history[-1].guess == mine
    assert game.winner() is Winner.PERSON and game.status is Status.SOLVED


def test_duel_winner_is_known_before_the_end() -> None:
    game = Duel(Rules.parse("bc"), "simple", 1, secret="0123")
    game.guess("0123")
    assert game.winner() is None  # the computer has not guessed yet: it might also win in one
    game.reply("0 0")
    assert game.winner() is Winner.PERSON


def test_duel_draw_and_computer_win() -> None:
    rules = Rules.parse("moo2,2")
    draw = Duel(rules, "simple", 1, secret="00")
    draw.guess("00")
    draw.reply("2 0")  # simple's first guess is 00, and it is the person's code
    assert draw.over and draw.winner() is Winner.DRAW
    lost = Duel(rules, "simple", 1, secret="11")
    lost.guess("00")
    lost.reply("2 0")
    assert lost.winner() is Winner.COMPUTER and not lost.over


def test_duel_refuses_moves_out_of_turn_and_after_the_end() -> None:
    game = Duel(Rules.parse("bc"), "simple", 1, secret="0123")
    with pytest.raises(TurnError, match="waits for your guess"):
        game.reply("0 0")
    game.guess("4567")
    with pytest.raises(TurnError, match="waits for your reply"):
        game.guess("0123")
    assert game.give_up().text == "0123" and game.status is Status.GAVE_UP
    with pytest.raises(GameOverError):
        game.undo()


def test_no_repr_shows_a_secret() -> None:
    rules = Rules.parse("bc")
    for game in (Duel(rules, secret="2745"), Codemaker(rules, "2745")):
        assert "2745" not in repr(game)
        assert "2745" not in repr(game.to_record())


def test_codes_and_replies_of_the_wrong_kind_are_refused() -> None:
    breaker = Codebreaker(Rules.parse("bc"))
    with pytest.raises(CodeError, match="belongs to"):
        breaker.record(Code("1122", Rules.parse("mm")), "0 0")
    with pytest.raises(FeedbackError):
        breaker.record("0123", Feedback(5, 0))
    with pytest.raises(FeedbackError, match="not int"):
        breaker.record("0123", 12)  # type: ignore[arg-type]


def test_correct_any_earlier_reply() -> None:
    rules = Rules.parse("bc")
    breaker = Codebreaker(rules, "simple")
    for guess, reply in [("1389", "0 0"), ("1234", "0 3"), ("1759", "1 1"), ("1785", "2 0")]:
        breaker.record(guess, reply)
    assert breaker.status is Status.CONTRADICTORY  # 1234 -> 0 2 was typed as 0 3
    explained = breaker.contradiction
    assert explained is not None
    breaker.correct(2, "0 2")
    assert breaker.status is Status.PLAYING and breaker.remaining == 2
    assert [s.guess.text for s in breaker.history] == ["1389", "1234", "1759", "1785"]
    assert Code("2745") in breaker.knowledge.candidate_codes()
    with pytest.raises(NothingToUndoError, match="no reply #5"):
        breaker.correct(5, "0 0")
    with pytest.raises(FeedbackError, match="cannot be all bulls"):
        breaker.correct(1, "4 0")
    assert [e.action for e in breaker.log] == ["record"] * 4 + ["correct"]


def test_giving_up_ends_a_game() -> None:
    rules = Rules.parse("bc")
    maker = Codemaker(rules, "2745")
    maker.guess("0123")
    assert maker.give_up().text == "2745" and maker.status is Status.GAVE_UP
    with pytest.raises(GameOverError):
        maker.guess("2745")
    breaker = Codebreaker(rules)
    breaker.give_up()
    with pytest.raises(GameOverError):
        breaker.reply("0 0")


def test_each_refusal_of_a_challenge_says_its_own_reason_once() -> None:
    """A game still played, or no game against my secret, is not finished; a game given up
    before its first guess is finished, but keeps its secret: each refusal says its reason."""
    rules = Rules.parse("bc")
    playing, unstarted = Codemaker(rules, "2745"), Codemaker(rules, "2745")
    unstarted.give_up()
    refusals = []
    for game in (playing, Codebreaker(rules), unstarted):
        with pytest.raises(BullsCowsError) as refused:
            challenge(game)
        refusals.append(str(refused.value))
    unfinished = "only a finished game against my secret can be a challenge"
    assert refusals[0] == refusals[1] == unfinished
    assert refusals[2] == (
        "a game given up before its first guess cannot be a challenge: its secret stays "
        "hidden, so that it can be played again"
    )


class _Named(Viewer[str]):
    """A viewer that names the method each game called (``sessions.Viewer``)."""

    def maker(self, game: Codemaker | Adversary) -> str:
        return f"maker {game.kind}"

    def breaker(self, game: Codebreaker) -> str:
        return f"breaker {game.kind}"

    def duel(self, game: Duel) -> str:
        return f"duel {game.kind}"


def test_each_game_is_shown_by_its_kind_of_view() -> None:
    rules = Rules.parse("bc")
    games = [Codemaker(rules, seed=1), Adversary(rules, seed=1), Codebreaker(rules, seed=1),
             Duel(rules, seed=1)]  # fmt: skip
    assert [game.shown_by(_Named()) for game in games] == [
        "maker codemaker", "maker adversary", "breaker codebreaker", "duel duel",
    ]  # fmt: skip


def test_read_game_keeps_a_contradiction_and_refuses_a_guess_after_the_break() -> None:
    from bullscows.sessions.breaking import read_game

    rules = Rules.parse("bc")
    kept = read_game(["0123 1 1", "", "0123 3 1"], rules)  # contradictions are the game's
    assert [(str(step.guess), step.feedback) for step in kept] == [
        ("0123", Feedback(1, 1)),
        ("0123", Feedback(3, 1)),
    ]
    with pytest.raises(GameOverError, match=r"^argument 2: 4567 comes after .* by 0123$"):
        read_game(["0123 4 0", "4567 0 0"], rules, "argument")
