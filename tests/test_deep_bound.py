"""The deep lower bound of ``search.deep_bound``: at least the root bound, never above the
proven optimum, and on tiny variants the figure its definition gives when every guess is
tried by brute force (the textbook reply, nothing of the library's scoring or symmetry)."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows.cli import main
from bullscows.search import optimal_tree
from bullscows.search.deep_bound import deep_bound
from bullscows.search.frontier import root_bound

#: (spec, the proven optimum: the search's, or Slovesnov's for ``bc``, reproduced in
#: docs/results.md and too slow to search again here).
OPTIMA = [("p3c3r", None), ("p3c5r", None), ("p4c4r", None), ("mm", None), ("p4c6n", None),
          ("p3c10n", None), ("p4c7r", None), ("bc", 26274)]  # fmt: skip


@pytest.mark.parametrize(("spec", "known"), OPTIMA)
def test_the_deep_bound_lies_between_the_root_bound_and_the_optimum(
    spec: str, known: int | None
) -> None:
    rules = Rules.parse(spec)
    found = deep_bound(rules)
    optimum = known if known is not None else optimal_tree(rules).total
    assert found.root == root_bound(rules).lower
    assert found.root <= found.lower <= optimum
    exact = [first.deep for first in found.firsts if first.exact]
    assert found.lower == min(exact)
    for first in found.firsts:  # a first guess bounded no further reaches the bound anyway
        assert first.root <= first.deep and first.deep >= found.lower


def test_the_deep_bound_is_stronger_than_the_root_bound() -> None:
    # The figures docs/results.md quotes: mm 5,429 -> 5,612 (optimum 5,625), bc 24,575 ->
    # 25,503 (optimum 26,274).
    assert (deep_bound(Rules.parse("mm")).root, deep_bound(Rules.parse("mm")).lower) == (
        5429, 5612,
    )  # fmt: skip
    found = deep_bound(Rules.parse("bc"))
    assert (found.root, found.lower) == (24575, 25503)
    assert [(found.text(first.guess), first.exact) for first in found.firsts] == [("0123", True)]


def test_threads_find_the_same_bound_and_report_each_part() -> None:
    rules = Rules.parse("p4c7r")
    seen: list[tuple[int, int, int]] = []
    alone = deep_bound(rules)
    shared = deep_bound(rules, jobs=2, progress=lambda *told: seen.append(told))
    assert shared.lower == alone.lower == 11066
    assert [first.deep for first in shared.firsts if first.exact] == [
        first.deep for first in alone.firsts if first.exact
    ]
    assert seen and all(1 <= done <= parts for _, done, parts in seen)


# --- brute force: every guess at every level, by the definition -----------------------------


def _reply(secret: str, guess: str) -> tuple[int, int]:
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    return bulls, sum((Counter(secret) & Counter(guess)).values()) - bulls


def _codes(symbols: str, length: int, repeats: bool) -> list[str]:
    return ["".join(c) for c in itertools.product(symbols, repeat=length)
            if repeats or len(set(c)) == length]  # fmt: skip


def brute_deep_bound(secrets: list[str], guesses: list[str], firsts: list[str]) -> int:
    """min over first guesses g in ``firsts`` of len(secrets) + sum over g's non-winning parts
    P of min over useful h of [len(P) + sum over h's non-winning parts Q of LA(Q)], LA(Q) =
    min over useful k of len(Q) + the ideal cost of each part k leaves (``replies - 1``
    children a node, levels filled from the top)."""
    win = (len(secrets[0]), 0)
    replies = {(s, g): _reply(s, g) for s in secrets for g in guesses}
    fan = len(set(replies.values())) - 1

    def ideal(size: int) -> int:
        total, width, level = 0, 1, 1
        while size > 0:
            here = min(size, width)
            total, size, width, level = total + here * level, size - here, width * fan, level + 1
        return total

    def split(codes: tuple[str, ...], guess: str) -> list[tuple[str, ...]] | None:
        """The non-winning parts, or None for a guess that neither wins nor splits."""
        parts: dict[tuple[int, int], list[str]] = {}
        for code in codes:
            parts.setdefault(replies[code, guess], []).append(code)
        if len(parts) == 1 and win not in parts:
            return None
        return [tuple(part) for reply, part in parts.items() if reply != win]

    @cache
    def lookahead(codes: tuple[str, ...]) -> int:
        costs = [len(codes) + sum(ideal(len(q)) for q in parts)
                 for k in guesses if (parts := split(codes, k)) is not None]  # fmt: skip
        return min(costs)

    def deep(codes: tuple[str, ...]) -> int:
        costs = [len(codes) + sum(lookahead(q) for q in parts)
                 for h in guesses if (parts := split(codes, h)) is not None]  # fmt: skip
        return min(costs)

    everything = tuple(secrets)
    return min(len(secrets) + sum(deep(p) for p in split(everything, g) or ()) for g in firsts)


@pytest.mark.parametrize(
    ("spec", "symbols", "length", "repeats", "wider", "root", "deep"),
    [
        ("p2c5r", "01234", 2, True, False, 79, 81),
        ("p2c6r", "012345", 2, True, False, 124, 132),
        ("p2c6n", "012345", 2, False, False, 99, 103),
        ("p2c6n:guesses=p2c6r", "012345", 2, False, True, 99, 103),
        ("p3c3r", "012", 3, True, False, 73, 73),
        ("p3c4n:guesses=p3c4r", "0123", 3, False, True, 69, 69),
        # every code one class (distinct digits, all relabelled): one first guess suffices
        ("p3c6n", "012345", 3, False, False, 429, 436),
    ],
)
def test_the_deep_bound_is_its_definition_by_brute_force(
    spec: str, symbols: str, length: int, repeats: bool, wider: bool, root: int, deep: int
) -> None:
    rules = Rules.parse(spec)
    assert rules.symbols == symbols and rules.length == length
    secrets = _codes(symbols, length, repeats)
    guesses = _codes(symbols, length, True) if wider else secrets
    firsts = secrets[:1] if spec == "p3c6n" else guesses
    found = deep_bound(rules)
    assert (found.root, found.lower) == (root, deep)
    assert brute_deep_bound(secrets, guesses, firsts) == deep


# --- the command -------------------------------------------------------------------------------


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
    return result.exit_code, result.stdout, result.stderr


def test_tree_bound_prints_the_deep_bound_and_each_first_guess() -> None:
    code, stdout, stderr = run("tree", "--rules", "mm", "--strategy", "optimal", "--bound", "deep",
                               "--jobs", "2")  # fmt: skip
    assert code == 0, stderr
    lines = stdout.splitlines()
    assert lines[1] == (
        "  deep bound (root bound 5,429): 5,612 (4.3302 a secret; proven: no tree costs less)"
    )
    assert lines[2].split() == ["first", "guess", "root", "bound", "deep", "bound"]
    assert lines[3].split() == ["1123", "5,429", "5,612"]
    assert lines[4].split()[:4] == ["1234", "5,477", "at", "least"]
    assert lines[7].startswith("  1111") and "not bounded deeper" in lines[7]
    assert lines[8].startswith("  time ")


def test_tree_bound_root_prints_the_root_bound() -> None:
    code, stdout, stderr = run("tree", "--rules", "logik", "--strategy", "optimal", "--bound",
                               "root")  # fmt: skip
    assert code == 0, stderr
    assert "  root bound: 167,045 (5.0978 a secret; proven: no tree costs less)" in stdout
    assert "  11234           167,045" in stdout.splitlines()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--strategy", "optimal-worst"], "--bound goes with --strategy optimal"),
        (["--strategy", "entropy"], "--bound goes with --strategy optimal"),
        (["--strategy", "optimal", "--out", "x.json"], "--bound prints a bound, not a tree"),
        (["--strategy", "optimal", "--time-limit", "5"], "--bound prints a bound, not a tree"),
    ],
)
def test_tree_bound_is_refused_with_what_it_does_not_go_with(
    extra: list[str], message: str
) -> None:
    code, _, stderr = run("tree", "--rules", "mm", "--bound", "deep", *extra)
    assert code == 2 and message in stderr
