"""The analysis's words: exact figures where they exist, said so; the measure named otherwise."""

from __future__ import annotations

import pytest

from bullscows import analysis
from bullscows.analysis import _why, analyse
from bullscows.codes import Code
from bullscows.feedback import Feedback
from bullscows.hints import explain_guess
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.search import position
from bullscows.search.engine import Search
from bullscows.search.position import Optimum
from bullscows.sessions import Codemaker


def test_a_wrong_guess_with_one_code_left_is_not_the_only_code() -> None:
    game = Codemaker(Rules.parse("p2c3n"), secret="10")
    for guess in ("01", "12", "10"):
        game.guess(guess)
    moves = analyse(game)
    assert moves[1]["codes"] == 1
    assert moves[1]["sentence"] == "one code was left, 10: this guess could not win"
    assert moves[2]["sentence"] == "the only code left"


def test_a_guess_cheaper_than_the_strategys_best_is_called_better() -> None:
    bc = Rules.parse("bc")
    knowledge = Knowledge.start(bc).after(Code("0123", bc), Feedback(0, 1))
    yours = explain_guess(knowledge, Code("4567", bc))
    best = explain_guess(knowledge, Code("1456", bc))
    sentence = _why(yours, best, 4.556, 4.654, "minimax", False, "minimax")
    assert "as good as" not in sentence
    assert sentence.startswith("better than minimax's choice 1456 by 0.10 guesses")
    assert "measured with minimax playing on" in sentence


def test_the_shipped_optimal_tree_gives_exact_figures() -> None:
    bc = Rules.parse("bc")
    game = Codemaker(bc, secret="2745", hints="minimax")
    for guess in ("0123", "0129"):
        game.guess(guess)
    first, second = analyse(game)
    assert first["exact"] and first["by"] == "the optimal tree"
    assert first["cost"] == first["best_cost"] == round(26274 / 5040, 3)  # the tree's total
    assert first["sentence"] == (
        "optimal (exact, by the optimal tree): splits 5,040 codes into 14 parts"
    )
    assert not second["exact"] and second["measure"] == "minimax playing on after your guess"
    assert second["cost"] > second["best_cost"]
    measured = "the best's by the optimal tree, exact; yours with minimax playing on"
    assert measured in second["sentence"]


def test_along_the_shipped_tree_a_small_position_is_not_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # After the tree's 0123 and 1456, 369 codes are left: the tree's subtree is the optimum
    # there (a cheaper one would make a cheaper tree), so the best guess and its cost are the
    # tree's, not a search of the whole position (seconds); a guess off the tree is measured
    # exactly, by searching its own parts.
    bc = Rules.parse("bc")
    game = Codemaker(bc, secret="2745")
    for guess in ("0123", "1456", "0564"):
        game.guess(guess)
    searched: list[Code | None] = []
    real = position.optimal_from

    def watched(
        knowledge: Knowledge, guess: Code | None = None, search: Search | None = None
    ) -> Optimum:
        searched.append(guess)
        return real(knowledge, guess, search)

    monkeypatch.setattr(analysis, "optimal_from", watched)
    third = analyse(game)[2]
    assert searched == [Code("0564", bc)]  # the guess's parts, never the whole position
    assert third["codes"] == 369 and third["exact"] and third["by"] == "the optimal tree"
    knowledge = Knowledge.start(bc).after(Code("0123", bc), Feedback(0, 1))
    knowledge = knowledge.after(Code("1456", bc), Feedback(0, 2))
    assert third["best_cost"] == round(real(knowledge).average, 3)  # the search agrees
    assert third["cost"] == round(real(knowledge, Code("0564", bc)).average, 3)
    assert third["cost"] > third["best_cost"] and "playing on" not in third["sentence"]
