"""``benchmarks/parts.py``: the parts two guesses deep of the root bound's opening, each solved
by a search of its own, at the cost the opening's tree gives it."""

from __future__ import annotations

import itertools
from functools import cache
from types import ModuleType

import pytest

from bench_scripts import load
from bullscows import Rules
from bullscows.search.opening import opening_tree
from bullscows.strategies.part_trees import heuristic_part
from bullscows.universe import universe


@pytest.fixture(scope="module")
def parts() -> ModuleType:
    return load("parts")


def test_each_part_costs_what_the_openings_tree_gives_it(
    parts: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = Rules.parse("p3c5n")
    found = parts.parts(rules)
    assert len(found) == 8 and all(len(codes) >= 3 for _, codes in found)
    assert parts.main(["p3c5n", "--list", "--window", "none", "--part", *map(str, range(8))]) == 0
    out = capsys.readouterr().out.splitlines()
    listed, solved = out[:8], out[8:]
    sizes = [int(line.split(":")[1].split()[0]) for line in listed]
    assert sizes == sorted((len(codes) for _, codes in found), reverse=True)
    costs = [int(line.split("cost ")[1].split(";")[0]) for line in solved]
    u = universe(rules)
    for (_, codes), cost in zip(found, costs, strict=True):
        assert cost == brute_cost(frozenset(u.text(int(c)) for c in codes))
    whole = opening_tree(rules, heuristic_part)
    assert whole.solved == whole.parts == 8 and whole.total == 196


def _reply(secret: str, guess: str) -> tuple[int, int]:
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    return bulls, len(set(secret) & set(guess)) - bulls


@cache
def brute_cost(codes: frozenset[str]) -> int:
    """The lowest total of guesses over ``codes`` (``p3c5n``), every guess tried: the textbook
    reply, nothing of the library's scoring."""
    if len(codes) == 1:
        return 1
    best = None
    for guess in ("".join(p) for p in itertools.permutations("01234", 3)):
        parts: dict[tuple[int, int], set[str]] = {}
        for code in codes:
            if code != guess:
                parts.setdefault(_reply(code, guess), set()).add(code)
        if any(len(part) == len(codes) for part in parts.values()):
            continue  # splits nothing
        cost = len(codes) + sum(brute_cost(frozenset(part)) for part in parts.values())
        best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def test_a_part_out_of_range_is_refused(
    parts: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert parts.main(["p3c5n", "--part", "8"]) == 2
    assert "no part 8: p3c5n has parts 0 to 7" in capsys.readouterr().err
