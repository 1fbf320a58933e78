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
from bullscows.errors import BullsCowsError
from bullscows.search import optimal_tree
from bullscows.search.deep_bound import DeepBound, deep_bound
from bullscows.search.frontier import root_bound

#: (spec, the proven optimum: the search's, or Slovesnov's for ``bc``, reproduced in
#: docs/results.md and too slow to search again here).
OPTIMA = [("p3c3r", None), ("p3c5r", None), ("p4c4r", None), ("mm", None), ("p4c6n", None),
          ("p3c10n", None), ("p4c7r", None), ("bc", 26274)]  # fmt: skip


@cache
def bound_of(spec: str, levels: int) -> DeepBound:
    """The deep bound of ``spec`` at ``levels``, found once for the tests that read it."""
    return deep_bound(Rules.parse(spec), levels=levels)


@pytest.mark.parametrize(("spec", "known"), OPTIMA)
def test_the_deep_bounds_lie_between_the_root_bound_and_the_optimum(
    spec: str, known: int | None
) -> None:
    rules = Rules.parse(spec)
    optimum = known if known is not None else optimal_tree(rules).total
    lower = root_bound(rules).lower
    for levels in (2, 3) if spec != "bc" else (2,):  # bc's deeper bound: below
        found = bound_of(spec, levels)
        assert lower <= found.lower <= optimum
        exact = [first.deep for first in found.firsts if first.exact]
        assert found.lower == min(exact)
        for first in found.firsts:  # a first guess bounded no further reaches the bound anyway
            assert first.root <= first.deep and first.deep >= found.lower
        lower = found.lower


def test_the_deep_bounds_are_stronger_than_the_root_bound() -> None:
    # The figures docs/results.md quotes: the root, deep and deeper bounds; the deeper bound
    # of mm and p4c7r is their optimum (5,625 and 11,228), bc's is 118 below its 26,274.
    for spec, bounds in [("mm", (5429, 5612, 5625)), ("p4c7r", (10795, 11066, 11228)),
                         ("bc", (24575, 25503, 26156))]:  # fmt: skip
        deep, deeper = bound_of(spec, 2), bound_of(spec, 3)
        assert (deep.root, deep.lower, deeper.lower) == bounds
    assert [(deeper.text(first.guess), first.exact) for first in deeper.firsts] == [("0123", True)]


def test_only_two_or_three_levels() -> None:
    with pytest.raises(BullsCowsError, match="levels 4: the deep bound looks 2 or 3 guesses deep"):
        deep_bound(Rules.parse("mm"), levels=4)


def test_threads_find_the_same_bound_and_report_each_part() -> None:
    seen: list[tuple[int, int, int]] = []
    alone = bound_of("mm", 3)
    shared = deep_bound(Rules.parse("mm"), 2, lambda *told: seen.append(told), levels=3)
    assert shared.lower == alone.lower == 5625
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


def brute_bound(secrets: list[str], guesses: list[str], firsts: list[str], levels: int) -> int:
    """min over first guesses g in ``firsts`` of len(secrets) + the sum over g's non-winning
    parts P of B(P, levels), where B(Q, 0) is the ideal cost of Q (``replies - 1`` children a
    node, levels filled from the top) and B(Q, L) the lowest over every guess that wins or
    splits Q of len(Q) + the sum over its non-winning parts R of B(R, L - 1): the lookahead is
    B(Q, 1), the deep bound's parts B(P, 2), the deeper bound's B(P, 3)."""
    win = (len(secrets[0]), 0)
    replies = {(s, g): _reply(s, g) for s in secrets for g in guesses}
    fan = len(set(replies.values())) - 1

    def split(codes: tuple[str, ...], guess: str) -> list[tuple[str, ...]] | None:
        """The non-winning parts, or None for a guess that neither wins nor splits."""
        parts: dict[tuple[int, int], list[str]] = {}
        for code in codes:
            parts.setdefault(replies[code, guess], []).append(code)
        if len(parts) == 1 and win not in parts:
            return None
        return [tuple(part) for reply, part in parts.items() if reply != win]

    @cache
    def bound(codes: tuple[str, ...], level: int) -> int:
        if level == 0:
            total, size, width, depth = 0, len(codes), 1, 1
            while size > 0:
                here = min(size, width)
                total, size, width, depth = (
                    total + here * depth,
                    size - here,
                    width * fan,
                    depth + 1,
                )
            return total
        costs = [len(codes) + sum(bound(part, level - 1) for part in parts)
                 for guess in guesses if (parts := split(codes, guess)) is not None]  # fmt: skip
        return min(costs)

    everything = tuple(secrets)
    return min(
        len(secrets) + sum(bound(part, levels) for part in split(everything, g) or ())
        for g in firsts
    )


@pytest.mark.parametrize(
    ("spec", "symbols", "length", "repeats", "wider", "bounds"),
    [
        ("p2c5r", "01234", 2, True, False, (79, 81, 81)),
        ("p2c7r", "0123456", 2, True, False, (183, 195, 198)),
        ("p4c4n", "0123", 4, False, False, (80, 85, 86)),
        ("p2c8n:guesses=p2c8r", "01234567", 2, False, True, (216, 230, 238)),
        ("p3c3r", "012", 3, True, False, (73, 73, 73)),
        # every code one class (distinct digits, all relabelled): one first guess suffices
        ("p3c6n", "012345", 3, False, False, (429, 436)),
    ],
)
def test_the_deep_bounds_are_their_definition_by_brute_force(
    spec: str, symbols: str, length: int, repeats: bool, wider: bool, bounds: tuple[int, ...]
) -> None:
    rules = Rules.parse(spec)
    assert rules.symbols == symbols and rules.length == length
    secrets = _codes(symbols, length, repeats)
    guesses = _codes(symbols, length, True) if wider else secrets
    firsts = secrets[:1] if spec == "p3c6n" else guesses
    assert root_bound(rules).lower == bounds[0] == brute_bound(secrets, guesses, firsts, 1)
    for levels, expected in enumerate(bounds[1:], start=2):
        assert deep_bound(rules, levels=levels).lower == expected
        assert brute_bound(secrets, guesses, firsts, levels) == expected


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


def test_tree_bound_deeper_reaches_the_optimum_of_mm() -> None:
    code, stdout, stderr = run("tree", "--rules", "mm", "--strategy", "optimal", "--bound",
                               "deeper")  # fmt: skip
    assert code == 0, stderr
    assert stdout.splitlines()[1] == (
        "  deeper bound (root bound 5,429): 5,625 (4.3403 a secret; proven: no tree costs less)"
    )
    assert stdout.splitlines()[2].split()[-2:] == ["deeper", "bound"]
