"""A heuristic's tree built in one compiled pass is the tree its moves make one by one."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bullscows import Code, Feedback, Rules
from bullscows._kernels import drivers, tree_build
from bullscows.knowledge import Knowledge
from bullscows.outcomes import build_tree, guess_counts, walk
from bullscows.strategies import get_strategy
from bullscows.strategies.heuristic import PartitionHeuristic
from bullscows.tree import DecisionTree
from bullscows.universe import universe
from variants import variant_with_limits

HEURISTICS = ["minimax", "expected-size", "entropy", "most-parts"]


def move_by_move(rules: Rules, name: str, consistent_only: bool = False) -> DecisionTree:
    """The tree as the strategy's moves make it, with the compiled pass turned off."""
    strategy = get_strategy(name, consistent_only=consistent_only)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PartitionHeuristic, "subtree", lambda self, knowledge: None)
        return build_tree(rules, strategy)


@pytest.mark.parametrize("name", HEURISTICS)
@pytest.mark.parametrize(
    "spec",
    ["mm", "p3c6n", "p3c5r", "p3c5n:guesses=p3c5r", "moo3,4,5,6"],
)
def test_the_compiled_tree_is_the_tree_of_the_moves(spec: str, name: str) -> None:
    rules = Rules.parse(spec)
    for consistent_only in (False, True):
        compiled = build_tree(rules, get_strategy(name, consistent_only=consistent_only))
        assert compiled == move_by_move(rules, name, consistent_only)
        assert compiled.stated == compiled.summary()


def test_positions_barring_symbols_keep_their_own_symmetries() -> None:
    # No leading zero: the first position has symbols of its own, so neither positions nor
    # symbols mix freely, and only the symmetries that respect it may group guesses.
    rules = Rules.parse("p3c6n").with_no_leading()
    for name in HEURISTICS:
        assert build_tree(rules, get_strategy(name)) == move_by_move(rules, name)


@settings(max_examples=30)
@given(st.data(), st.sampled_from(HEURISTICS), st.booleans())
def test_compiled_trees_of_random_variants(data: st.DataObject, name: str, only: bool) -> None:
    length = data.draw(st.integers(1, 4))
    symbols = "abcdef"[: data.draw(st.integers(max(1, length), 6))]
    repeats = data.draw(st.booleans())
    rules = variant_with_limits(data.draw, length, symbols, repeats)
    assume(rules.size <= 400)
    compiled = build_tree(rules, get_strategy(name, consistent_only=only))
    assert compiled == move_by_move(rules, name, only)


def _nodes_with_dead_symbols(tree: DecisionTree) -> int:
    """Nodes of 16 candidates or more that two symbols of no candidate leave (dead)."""
    u = universe(tree.rules)
    found = 0
    stack = [(tree.root, u.secrets)]
    while stack:
        node, codes = stack.pop()
        dead = len(tree.rules.symbols) - len(np.unique(u.codes[codes]))
        found += len(codes) >= 16 and dead >= 2
        replies = u.score_row(node.guess, codes)
        stack.extend((child, codes[replies == r]) for r, child in node.branches.items())
    return found


@pytest.mark.parametrize("name", HEURISTICS)
@pytest.mark.parametrize("spec", ["p3c10n", "p4c8n", "p3c10n:nolead"])
def test_guesses_that_differ_by_dead_symbols_are_scored_once(spec: str, name: str) -> None:
    # Nodes whose candidates leave two symbols or more unused score one guess per class of
    # guesses that differ only by those symbols (within the symbols allowed at the same
    # positions): the tree is still the one the moves make.
    rules = Rules.parse(spec)
    compiled = build_tree(rules, get_strategy(name))
    assert _nodes_with_dead_symbols(compiled) > 0
    assert compiled == move_by_move(rules, name)


def test_a_walk_from_a_position_counts_as_the_moves_do() -> None:
    rules = Rules.parse("bc")
    start = Knowledge.start(rules).after(Code("0123"), Feedback(0, 2))
    strategy = get_strategy("entropy")
    counts = walk(start, strategy, start.candidates, 2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PartitionHeuristic, "subtree", lambda self, knowledge: None)
        assert counts.tolist() == walk(start, strategy, start.candidates, 2).tolist()
    # and each count is that of a game played move by move
    rng = random.Random(0)
    for at in (0, 500, len(start) - 1):
        k, guesses = start, 2
        secret = int(start.candidates[at])
        while (guess := strategy.next_guess(k, rng)) != secret:
            reply = k.universe.score_row(guess, start.candidates[at : at + 1])[0]
            k = k.after(k.code(guess), Feedback.from_index(int(reply), 4))
            guesses += 1
        assert counts[at] == guesses


def test_threads_taking_parts_in_turn_build_the_same_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Rules.parse("mm")
    serial = build_tree(rules, get_strategy("entropy"))
    monkeypatch.setattr(tree_build, "PARALLEL_WORK", 0)
    monkeypatch.setattr(drivers, "cores", lambda: 2)
    assert build_tree(rules, get_strategy("entropy")) == serial
    counts = guess_counts(rules, get_strategy("most-parts"))
    assert int(counts.sum()) == 5668


@pytest.mark.parametrize(("spec", "reply"), [("mm", 5), ("p3c6n", 1)])
def test_a_parts_tree_is_the_tree_its_moves_make(spec: str, reply: int) -> None:
    from bullscows.strategies.part_trees import heuristic_part

    rules = Rules.parse(spec)
    u = universe(rules)
    part = u.secrets[u.score_row(0, u.secrets) == reply]
    fast = heuristic_part(rules, ((0, reply),), part)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PartitionHeuristic, "subtree", lambda self, knowledge: None)
        assert heuristic_part(rules, ((0, reply),), part) == fast
