"""Symmetry classes: fewer guesses to score, and never a different choice."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bullscows import Code, Feedback, Rules
from bullscows.knowledge import Knowledge
from bullscows.outcomes import guess_counts
from bullscows.strategies import get_strategy
from bullscows.strategies import heuristic as heuristic_module
from bullscows.symmetry import (
    _has_symmetry,
    _history_group,
    guess_classes,
    opening_representatives,
)
from bullscows.universe import universe

HEURISTICS = ["minimax", "expected-size", "entropy", "most-parts"]
VARIANTS = ["mm", "bc", "p3c5n", "p4c4r", "bc-nolead", "p3c4r:nolead", "moo3,3,2", "p5c6n"]
#: Guesses wider than the secrets: a symmetry must keep both sets.
WIDE = [
    "bc:guesses=p4c10r",
    "p4c6n:guesses=p4c6r",
    "bc-nolead:guesses=p4c10r",
    "p3c5n:nolead:guesses=p3c5n",
    "p3c4n:allowed=012/0123/123:guesses=p3c4r",
]


def full_choice(knowledge: Knowledge, heuristic: str, consistent_only: bool) -> int:
    """Knuth's rule by brute force: score every code (or every candidate)."""
    u, candidates = knowledge.universe, knowledge.candidates
    guesses = candidates if consistent_only else u.all()
    cost = u.guess_costs(guesses, candidates, heuristic)
    outside = ~np.isin(guesses, candidates)
    return int(guesses[np.lexsort((guesses, outside, cost))[0]])


def random_history(rules: Rules, rng: random.Random, steps: int) -> Knowledge:
    u = universe(rules)
    knowledge = Knowledge.start(rules)
    secret = int(u.secrets[rng.randrange(len(u.secrets))])
    for _ in range(steps):
        guess = rng.randrange(len(u))
        reply = int(u.score_row(guess, np.array([secret]))[0])
        knowledge = knowledge.after(knowledge.code(guess), Feedback.from_index(reply, rules.length))
    return knowledge


@pytest.mark.parametrize("spec", VARIANTS + WIDE)
def test_skipping_equivalent_guesses_changes_no_choice(spec: str) -> None:
    rules = Rules.parse(spec)
    rng = random.Random(spec)
    checked = 0
    for _ in range(12):
        knowledge = random_history(rules, rng, rng.randrange(0, 3))
        if len(knowledge) < 2 or knowledge.is_solved:
            continue
        for name in HEURISTICS:
            for consistent_only in (False, True):
                strategy = get_strategy(name, consistent_only=consistent_only)
                chosen = strategy.choose(knowledge, rng)
                assert chosen == full_choice(knowledge, name, consistent_only), (spec, name)
                checked += 1
    assert checked >= 40


@pytest.mark.parametrize(
    "spec",
    [
        "p3c5n",
        "p3c4r",
        "moo3,3,2",
        "p3c5n:nolead",
        "p3c5n:guesses=p3c5r",
        "p3c5n:nolead:guesses=p3c5r",
    ],
)
@pytest.mark.parametrize("name", HEURISTICS)
def test_whole_trees_are_the_same_without_symmetry(
    spec: str, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules.parse(spec)
    reduced = guess_counts(rules, get_strategy(name))
    monkeypatch.setattr(
        heuristic_module, "guess_classes", lambda rules, guessed: universe(rules).all()
    )
    assert np.array_equal(reduced, guess_counts(rules, get_strategy(name)))


def test_classes_cover_every_code_once_by_its_lowest_member() -> None:
    rules = Rules.parse("mm")
    k = Knowledge.start(rules).after(Code("1122", rules), Feedback(0, 1))
    classes = guess_classes(rules, [Code("1122", rules).index])
    assert len(classes) == 39  # far fewer than the 1296 codes
    u = universe(rules)
    # Every code has the same partition sizes as some class member, and each member is the
    # lowest code giving its own sizes among the codes of its class.
    sizes = u.partition_sizes(u.all(), k.candidates)
    canonical = {tuple(sorted(sizes[i])) for i in classes}
    assert {tuple(sorted(row)) for row in sizes} <= canonical


def test_the_group_of_a_history() -> None:
    mm = Rules.parse("mm")
    # 1122 is fixed by swapping positions 1-2, positions 3-4, and both halves with 1 <-> 2.
    group = _history_group(mm, ((0, 0, 1, 1),))
    assert len(group) == 7  # eight symmetries in all, less the identity
    bc = Rules.parse("bc")
    assert len(_history_group(bc, ((0, 1, 2, 3),))) == 23  # any order, symbols relabelled
    assert _history_group(bc, ((0, 1, 2, 3), (0, 1, 4, 5))) != ()
    # Positions with different allowed symbols are never swapped.
    nolead = Rules.parse("bc-nolead")
    assert all(pi[0] == 0 for pi, _ in _history_group(nolead, ((1, 0, 2, 3),)))


def test_opening_classes() -> None:
    texts = [
        universe(Rules.parse("logik")).text(i)
        for i in opening_representatives(Rules.parse("logik"))
    ]
    assert texts == ["11111", "11112", "11122", "11123", "11223", "11234", "12345"]
    assert opening_representatives(Rules.parse("bc-nolead")) is None


@pytest.mark.parametrize(
    ("spec", "openings"),
    [
        # No leading zero: the last three positions may swap, and 1-9 relabel among themselves.
        ("bc-nolead", ["1023", "1234"]),
        # The first symbol is relabelled 1; then the last two as a set: {0,0}, {0,1}, {0,x},
        # {1,1}, {1,x}, {x,x}, {x,y} (x, y the other two non-zero symbols).
        ("p3c4r:nolead", ["100", "101", "102", "111", "112", "122", "123"]),
        # Positions 1 and 3 allow the same symbols and may swap; 1-3 relabel: a 0 in the middle
        # or not.
        ("p3c4n:allowed=123/0123/123", ["102", "123"]),
    ],
)
def test_opening_classes_of_restricted_positions(spec: str, openings: list[str]) -> None:
    rules = Rules.parse(spec)
    u = universe(rules)
    assert [u.text(i) for i in guess_classes(rules, ())] == openings


def test_a_history_with_too_many_symmetries_leaves_a_longer_one_its_own() -> None:
    # 0123456 is fixed by every order of its positions (5,040 symmetries, more than are
    # collected); after 1023456 as well 239 are left, and they are used.
    rules = Rules.parse("p7c10n")
    first, second = (0, 1, 2, 3, 4, 5, 6), (1, 0, 2, 3, 4, 5, 6)
    assert _history_group(rules, (first,)) is None
    group = _history_group(rules, (first, second))
    assert group is not None and len(group) == 239
    assert _has_symmetry(rules, (first, second))
