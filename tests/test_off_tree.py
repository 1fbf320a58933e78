"""Optimal strategies advise games that left their tree: by symmetry, by the position search,
else by a heuristic, and say which answered."""

from __future__ import annotations

import random

from bullscows import Code, Rules
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge
from bullscows.search.position import MAX_POSITION_CODES, optimal_from
from bullscows.strategies import get_strategy
from bullscows.strategies.off_tree import FALLBACK

BC = Rules.parse("bc")


def parts(knowledge: Knowledge, guess: int) -> list[int]:
    """How ``guess`` splits the codes still possible, as sorted part sizes."""
    sizes = knowledge.universe.partition_sizes([guess], knowledge.candidates)[0]
    return sorted(int(n) for n in sizes if n)


def advice(knowledge: Knowledge, name: str = "optimal") -> tuple[int, str | None]:
    strategy = get_strategy(name)
    return strategy.next_guess(knowledge, random.Random(0)), strategy.source


def test_a_game_symmetric_to_the_trees_gets_the_trees_guess_mapped_back() -> None:
    start = Knowledge.start(BC)
    ours = start.after(Code("9876", BC), Feedback(0, 1))  # 0123 relabelled
    theirs = start.after(Code("0123", BC), Feedback(0, 1))
    guess, source = advice(ours)
    tree_guess, on_tree = advice(theirs)
    assert on_tree is None
    assert source == "the optimal tree, by symmetry: this game is one of its own"
    assert ours.code(guess).text == "8012"  # the tree's 1456 with 0123 -> 9876, 456 -> 012
    assert parts(ours, guess) == parts(theirs, tree_guess)
    # Positions permuted too: 1032 is 0123 with the first two and last two swapped.
    swapped = start.after(Code("1032", BC), Feedback(1, 1))
    guess, source = advice(swapped)
    assert source is not None and "by symmetry" in source
    tree_game = start.after(Code("0123", BC), Feedback(1, 1))
    assert parts(swapped, guess) == parts(tree_game, advice(tree_game)[0])


def test_off_the_tree_within_the_bound_the_position_search_answers() -> None:
    k = Knowledge.start(BC).after(Code("0124", BC), Feedback(1, 1))
    k = k.after(Code("5678", BC), Feedback(1, 0))  # the tree plays otherwise after 0124 1 1
    guess, source = advice(k)
    assert len(k) <= MAX_POSITION_CODES
    assert source == (
        "the game left the optimal tree; the position search answered: the lowest total from "
        f"here, proven over the {len(k)} codes left"
    )
    assert guess == optimal_from(k).guess


def test_beyond_the_bound_a_heuristic_answers_and_is_named() -> None:
    mm = Rules.parse("mm")
    k = Knowledge.start(mm).after(Code("1111", mm), Feedback(0, 0))  # not the tree's opening
    guess, source = advice(k, "optimal-worst")
    assert len(k) == 625 > MAX_POSITION_CODES
    assert source == (
        "the game left the optimal-worst tree and 625 codes are left, more than the position "
        f"search takes ({MAX_POSITION_CODES}): {FALLBACK} answered"
    )
    assert guess == get_strategy(FALLBACK).next_guess(k, random.Random(0))
