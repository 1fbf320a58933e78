"""Hints: a strategy's next guess, with the partition it makes checked by brute force."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from bullscows import Code, Feedback, Rules, score
from bullscows.errors import BullsCowsError
from bullscows.hints import Hint, explain_guess, give_hint
from bullscows.knowledge import Knowledge
from bullscows.sessions import Codemaker
from bullscows.strategies import get_strategy

MM = Rules.parse("mm")
BC = Rules.parse("bc")


def every_code(rules: Rules) -> list[Code]:
    texts = ("".join(p) for p in itertools.product(rules.symbols, repeat=rules.length))
    return [Code(t, rules) for t in texts if rules.repeats or len(set(t)) == len(t)]


def brute_parts(candidates: list[Code], guess: Code) -> Counter[Feedback]:
    return Counter(score(secret, guess) for secret in candidates)


def test_knuths_first_guess_for_mastermind() -> None:
    hint = give_hint(Knowledge.start(MM), get_strategy("minimax"))
    assert hint.guess == Code("1122", MM)
    assert hint.is_candidate
    assert hint.remaining == 1296
    assert hint.largest == 256  # Knuth (1976)
    assert sum(n for _, n in hint.parts) == 1296
    assert dict(hint.parts) == brute_parts(every_code(MM), hint.guess)
    assert [n for _, n in hint.parts] == sorted((n for _, n in hint.parts), reverse=True)
    # the three parts of 256 in reply order
    assert [f for f, n in hint.parts if n == 256] == [
        Feedback(0, 0),
        Feedback(0, 1),
        Feedback(1, 0),
    ]
    assert hint.count == 13
    assert hint.expected == pytest.approx(265_078 / 1296)  # the squared parts summed, over 1296
    lines = hint.describe()
    assert lines[0] == "Try 1122; it could be the secret."
    assert "at most 256" in lines[1] and "1296 codes" in lines[1]
    assert lines[2:] == [
        "  13 parts: 0 bulls, 0 cows: 256; 0 bulls, 1 cow: 256; 1 bull, 0 cows: 256; "
        "1 bull, 1 cow: 208; 2 bulls, 0 cows: 114; 0 bulls, 2 cows: 96; and 7 more",
    ]


@pytest.mark.parametrize("strategy", ["minimax", "simple"])
def test_bc_hint_after_some_history_matches_brute_force(strategy: str) -> None:
    history = [("0123", Feedback(0, 1)), ("4567", Feedback(1, 1))]
    knowledge = Knowledge.start(BC)
    candidates = every_code(BC)
    for text, reply in history:
        knowledge = knowledge.after(Code(text, BC), reply)
        candidates = [c for c in candidates if score(c, Code(text, BC)) == reply]
    hint = give_hint(knowledge, get_strategy(strategy))
    expected = brute_parts(candidates, hint.guess)
    assert hint.remaining == len(candidates)
    assert dict(hint.parts) == expected
    assert hint.largest == max(expected.values())
    assert hint.count == len(expected)
    assert hint.is_candidate == (hint.guess in candidates)
    assert hint.expected == pytest.approx(sum(n * n for n in expected.values()) / len(candidates))


def test_minimax_hint_is_no_worse_than_any_candidate() -> None:
    knowledge = Knowledge.start(BC).after(Code("0123"), Feedback(0, 2))
    hint = give_hint(knowledge, get_strategy("minimax"))
    for code in knowledge.candidate_codes()[::25]:
        assert explain_guess(knowledge, code).largest >= hint.largest


def test_a_guess_that_cannot_be_the_secret() -> None:
    knowledge = Knowledge.start(BC).after(Code("0123"), Feedback(0, 0))
    hint = explain_guess(knowledge, Code("0145"))
    assert not hint.is_candidate
    assert Feedback(4, 0) not in dict(hint.parts)
    assert hint.describe("bc")[0] == "Try 0145; it cannot be the secret itself."


def test_the_last_code() -> None:
    rules = Rules.parse("moo2,2")
    knowledge = Knowledge.start(rules).after(Code("00", rules), Feedback(0, 0))
    hint = give_hint(knowledge, get_strategy("minimax"))
    assert (hint.guess.text, hint.remaining, hint.parts) == ("11", 1, ((Feedback(2, 0), 1),))
    assert hint.expected == 1.0
    assert hint.describe() == ["Try 11; it is the only code still possible."]


def test_consistent_only_hints_are_candidates() -> None:
    strategy = get_strategy("minimax", consistent_only=True)
    knowledge = Knowledge.start(MM).after(Code("1122", MM), Feedback(0, 1))
    assert give_hint(knowledge, strategy).is_candidate


def test_a_game_counts_each_position_once() -> None:
    game = Codemaker(MM, "6543", seed=5, hints="random-consistent")
    first = game.hint()
    assert game.hint() == first  # the same hint again, not a new draw
    assert game.hints_given == 1
    game.guess(first.guess)
    assert game.hint().remaining < first.remaining
    assert game.hints_given == 2
    assert [event.action for event in game.log] == ["hint", "guess", "hint"]


def test_hints_are_off_unless_a_strategy_gives_them() -> None:
    with pytest.raises(BullsCowsError, match="hints are off"):
        Codemaker(MM).hint()


def test_many_parts_are_summarised() -> None:
    parts = tuple((Feedback(0, i), 10 - i) for i in range(8))
    lines = Hint(Code("0123"), sum(n for _, n in parts), False, parts).describe("pair")
    # One line, a paragraph, in a terminal as on a web page.
    assert lines[2:] == ["  8 parts: 0 0: 10; 0 1: 9; 0 2: 8; 0 3: 7; 0 4: 6; 0 5: 5; and 2 more"]


def test_no_hint_for_a_contradiction() -> None:
    knowledge = Knowledge.start(BC).after(Code("0123"), Feedback(4, 0))
    knowledge = knowledge.after(Code("4567"), Feedback(1, 0))
    with pytest.raises(ValueError, match="no code fits"):
        explain_guess(knowledge, Code("0123"))
