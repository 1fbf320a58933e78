"""Strategies: the registry, the rules each follows, and what they achieve over every secret."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bullscows import Code, Feedback, Rules
from bullscows.errors import BullsCowsError, ContradictionError, StrategyError
from bullscows.figures import distribution
from bullscows.knowledge import Knowledge
from bullscows.outcomes import build_tree, guess_counts
from bullscows.strategies import STRATEGIES, get_strategy
from bullscows.symmetry import opening_representatives
from bullscows.tree import Node
from bullscows.universe import universe


def test_registry_and_unknown_names() -> None:
    assert {"simple", "random-consistent", "minimax"} <= set(STRATEGIES)
    with pytest.raises(StrategyError, match="'knuth'"):
        get_strategy("knuth")


def test_simple_takes_the_first_candidate() -> None:
    rules = Rules.parse("bc")
    k = Knowledge.start(rules).after(Code("0123"), Feedback(0, 0))
    assert get_strategy("simple").next_guess(k, random.Random(0)) == int(k.candidates[0])
    assert k.code(int(k.candidates[0])) == Code("4567")


def test_random_consistent_is_reproducible_and_consistent() -> None:
    rules = Rules.parse("bc")
    k = Knowledge.start(rules).after(Code("0123"), Feedback(1, 1))
    strategy = get_strategy("random-consistent")
    picks = [strategy.next_guess(k, random.Random(seed)) for seed in range(10)]
    assert picks == [strategy.next_guess(k, random.Random(seed)) for seed in range(10)]
    assert set(picks) <= set(k.candidates.tolist()) and len(set(picks)) > 1


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_contradictory_knowledge_is_refused_and_explained(name: str) -> None:
    rules = Rules.parse("p3c5n")
    k = Knowledge.start(rules).after(Code("012", rules), Feedback(0, 0))
    k = k.after(Code("340", rules), Feedback(0, 0))  # every symbol is out: no code fits
    with pytest.raises(ContradictionError, match="no code fits the replies so far") as caught:
        get_strategy(name).next_guess(k, random.Random(0))
    assert caught.value.explanation is not None


def test_minimax_opens_like_knuth() -> None:
    rules = Rules.parse("mm")
    guess = get_strategy("minimax").next_guess(Knowledge.start(rules), random.Random(0))
    assert universe(rules).text(guess) == "1122"


def test_opening_shortcut_changes_nothing() -> None:
    # Scoring only one code per opening class must pick what scoring every code picks.
    for spec in ("mm", "p3c4r", "p3c5n", "p4c3r"):
        rules = Rules.parse(spec)
        u = universe(rules)
        sizes = u.partition_sizes(u.all(), u.all()).max(axis=1)
        full = min(range(len(u)), key=lambda i: (sizes[i], i))
        shortcut = get_strategy("minimax").next_guess(Knowledge.start(rules), random.Random(0))
        assert shortcut == full, spec
        assert full in opening_representatives(rules).tolist()


def test_minimax_on_mastermind_matches_knuth() -> None:
    counts = guess_counts(Rules.parse("mm"), get_strategy("minimax"))
    assert int(counts.sum()) == 5801
    assert distribution(counts) == {1: 1, 2: 6, 3: 62, 4: 533, 5: 694}


def test_minimax_never_needs_more_than_seven_for_bulls_and_cows() -> None:
    counts = guess_counts(Rules.parse("bc"), get_strategy("minimax"))
    assert int(counts.max()) == 7
    assert (counts >= 1).all()


def test_random_strategies_have_no_single_outcome() -> None:
    with pytest.raises(StrategyError):
        guess_counts(Rules.parse("mm"), get_strategy("random-consistent"))


def test_large_variants_narrow_the_guesses_within_the_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bullscows.strategies import heuristic

    rules = Rules.parse("bc")
    k = Knowledge.start(rules).after(Code("0123"), Feedback(0, 1))  # 1440 codes left
    classes = heuristic.guesses_to_score(k)
    assert len(classes) == 20  # one guess per class of equivalent guesses
    monkeypatch.setattr(heuristic, "PAIR_BUDGET", 1440 * 10)
    narrowed = heuristic.guesses_to_score(k)
    assert len(narrowed) == 10 and set(narrowed.tolist()) <= set(k.candidates.tolist())
    guess = get_strategy("minimax").next_guess(k, random.Random(0))
    assert guess in narrowed.tolist()


@pytest.mark.parametrize(
    ("name", "total", "worst"),
    [
        ("minimax", 5801, 5),
        ("expected-size", 5696, 6),
        ("entropy", 5722, 6),
        ("most-parts", 5668, 6),
    ],
)
def test_heuristics_over_every_mastermind_secret(name: str, total: int, worst: int) -> None:
    # Totals of the four heuristics under Knuth's rule, as other solvers of the literature
    # report them for 4 pegs of 6 colours.
    counts = guess_counts(Rules.parse("mm"), get_strategy(name))
    assert (int(counts.sum()), int(counts.max())) == (total, worst)


def test_consistent_only_guesses_are_candidates() -> None:
    # Every guess of the whole tree is a code still possible where it is played (plain
    # entropy plays a code already ruled out at some node, so this can tell them apart).
    rules = Rules.parse("mm")
    strategy = get_strategy("entropy", consistent_only=True)
    plain = build_tree(rules, get_strategy("entropy"))
    assert not all(_candidates_only(plain.root, Knowledge.start(rules)))
    tree = build_tree(rules, strategy)
    assert all(_candidates_only(tree.root, Knowledge.start(rules)))
    counts = guess_counts(rules, strategy)
    assert counts.min() >= 1 and counts.sum() > 5668


def _candidates_only(node: Node, knowledge: Knowledge) -> list[bool]:
    """Whether each guess of the subtree at ``node`` is a candidate where it is played."""
    found = [bool(knowledge.is_candidate[node.guess])]
    for reply, child in node.branches.items():
        after = knowledge.after(knowledge.code(node.guess), Feedback.from_index(reply, 4))
        found += _candidates_only(child, after)
    return found


@pytest.mark.parametrize("name", ["minimax", "expected-size", "entropy", "most-parts"])
def test_perfect_candidate_is_played_at_once(name: str) -> None:
    rules = Rules.parse("bc")
    k = Knowledge.start(rules)
    for guess, reply in [("1863", (0, 2)), ("4758", (0, 3)), ("3841", (1, 2))]:
        k = k.after(Code(guess), Feedback(*reply))
    # Ten codes remain; only the first, 3485, tells all the others apart.
    assert len(k) == 10
    worst = k.universe.partition_sizes(k.candidates, k.candidates).max(axis=1)
    assert worst.tolist()[0] == 1 and min(worst.tolist()[1:]) == 2
    chosen = get_strategy(name).next_guess(k, random.Random(0))
    assert k.code(chosen) == Code("3485")


def test_guess_counts_of_given_secrets() -> None:
    rules, minimax = Rules.parse("mm"), get_strategy("minimax")
    every = guess_counts(rules, minimax)
    given = guess_counts(rules, minimax, np.array([7, 7, 0]))  # one secret twice
    assert given.tolist() == [every[7], every[7], every[0]]
    for wrong in (1296, -1):
        with pytest.raises(BullsCowsError, match=f"secret index {wrong} is no code"):
            guess_counts(rules, minimax, np.array([3, wrong]))
