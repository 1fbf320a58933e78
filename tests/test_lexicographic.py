"""The lexicographic objectives of the optimal search against a plain brute force, and the
published figure they reproduce (Slovesnov's fewest Mastermind secrets needing 5 guesses)."""

from __future__ import annotations

import pytest

from bullscows.errors import SearchError
from bullscows.rules import Rules
from bullscows.search import optimal_tree
from bullscows.universe import universe
from test_search import TINY, WIDE, _brute_solver, brute_force, check

INFINITE = 10**9
#: Outweighs every total of the tiny variants, so a cost counts secrets at the cap first.
PENALTY = 10**5


def shallowest(spec: str, consistent_only: bool) -> int:
    return next(d for d in range(1, 30) if brute_force(spec, d, consistent_only) < INFINITE)


@pytest.mark.parametrize("spec", TINY + WIDE)
@pytest.mark.parametrize("consistent_only", [False, True])
def test_worst_then_fewest_at_worst_then_total(spec: str, consistent_only: bool) -> None:
    result = optimal_tree(Rules.parse(spec), "worst-count", consistent_only=consistent_only)
    check(result)
    worst = shallowest(spec, consistent_only)
    secrets = tuple(universe(Rules.parse(spec)).secrets.tolist())
    cost = _brute_solver(spec, consistent_only, PENALTY)(secrets, worst)
    assert (result.worst, result.distribution[worst], result.total) == (
        worst, cost // PENALTY, cost % PENALTY,
    )  # fmt: skip


@pytest.mark.parametrize("spec", TINY + WIDE)
def test_total_then_worst(spec: str) -> None:
    result = optimal_tree(Rules.parse(spec), "total-worst")
    check(result)
    lowest = brute_force(spec, None, False)
    worst = next(d for d in range(1, 30) if brute_force(spec, d, False) == lowest)
    assert (result.total, result.worst) == (lowest, worst)


def test_a_depth_cap_bounds_the_lexicographic_objectives() -> None:
    for objective in ("worst-count", "total-worst"):
        result = optimal_tree(Rules.parse("p4c4n"), objective, max_depth=5)  # type: ignore[arg-type]
        check(result)
        assert result.worst <= 5
    with pytest.raises(SearchError, match="within 2 guesses"):
        optimal_tree(Rules.parse("p3c4n"), "total-worst", max_depth=2)


def test_mastermind_fewest_secrets_at_five_guesses_is_slovesnovs() -> None:
    # Slovesnov's Mastermind results (the "crush" objective): within 5 guesses, 539 secrets need all
    # 5; the lowest worst case alone (Koyama and Lai's 5626) leaves 545 at 5.
    result = optimal_tree(Rules.parse("mm"), "worst-count")
    check(result)
    assert (result.worst, result.distribution[5]) == (5, 539)
    assert result.total == 5627


def test_mastermind_lowest_total_then_worst() -> None:
    # The lowest total, 5625, needs 6 guesses for 2 secrets: no tree of that total fits 5.
    result = optimal_tree(Rules.parse("mm"), "total-worst")
    check(result)
    assert (result.total, result.worst, result.distribution[6]) == (5625, 6, 2)
