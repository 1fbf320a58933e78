"""The search against the published optimal expected guesses of small Mastermind variants.

Goddard, "Mastermind Revisited", J. Combin. Math. Combin. Comput. 51 (2004): r(n, k), the
optimal average number of guesses for n pegs and k colours (repeats allowed), to three
decimals; quoted in the table of the blog post "Mastermind - Five Questions Do Suffice". Every
variant has fewer than 1,000 codes, so three decimals fix the total. The consistent-only
optima (every guess a code still possible) are the supermastermind site's (optimal_strategy
page): Mastermind 5660, 3 pegs x 5 colours 455/125. ``benchmarks/published.py`` times these
and the larger ones (Ville 2013's 4 pegs x 7 colours, Slovesnov's Bulls & Cows figures).
"""

from __future__ import annotations

import pytest

from bullscows.rules import Rules
from bullscows.search import optimal_tree

#: Goddard's r(pegs, colours).
GODDARD = {
    (2, 2): 2.000, (3, 2): 2.250, (4, 2): 2.750, (5, 2): 3.031, (6, 2): 3.500, (7, 2): 3.875,
    (2, 3): 2.333, (3, 3): 2.704, (4, 3): 3.037, (5, 3): 3.358,
    (2, 4): 2.813, (3, 4): 3.219, (4, 4): 3.535,
    (2, 5): 3.240, (3, 5): 3.608, (4, 5): 3.941,
}  # fmt: skip


@pytest.mark.parametrize(("pegs", "colours"), sorted(GODDARD))
def test_goddards_table(pegs: int, colours: int) -> None:
    result = optimal_tree(Rules.parse(f"p{pegs}c{colours}r"))
    assert result.rules.size == colours**pegs
    # Within half a unit of the third decimal (45/16 = 2.8125 is printed 2.813).
    assert abs(result.total / result.rules.size - GODDARD[pegs, colours]) <= 0.0005 + 1e-12


@pytest.mark.parametrize(("spec", "total", "worst"), [("p3c5r", 455, 5), ("mm", 5660, 6)])
def test_consistent_only_optima(spec: str, total: int, worst: int) -> None:
    result = optimal_tree(Rules.parse(spec), consistent_only=True)
    assert (result.total, result.worst) == (total, worst)
