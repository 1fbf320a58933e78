"""The optimum from a position, held to the shipped optimal Mastermind tree (total 5625).

The shipped tree is optimal as a whole, so each part under its first guess (1123) is played
optimally by its subtree: the search from that position must find the subtree's total.
"""

from __future__ import annotations

import pytest

from bullscows import Code, Feedback, Rules
from bullscows.errors import BullsCowsError
from bullscows.knowledge import Knowledge
from bullscows.outcomes import guess_counts
from bullscows.search.position import optimal_from
from bullscows.strategies import get_strategy

MM = Rules.parse("mm")


@pytest.mark.parametrize("reply", [(1, 1), (0, 2), (2, 0), (1, 2), (0, 3), (4, 0)])
def test_the_optimum_of_each_part_is_the_shipped_subtree(reply: tuple[int, int]) -> None:
    knowledge = Knowledge.start(MM).after(Code("1123", MM), Feedback(*reply))
    counts = guess_counts(MM, get_strategy("optimal"), knowledge.candidates)
    assert optimal_from(knowledge).total == int(counts.sum()) - len(counts)


def test_a_guess_played_first_costs_at_least_the_optimum() -> None:
    knowledge = Knowledge.start(MM).after(Code("1123", MM), Feedback(0, 3))
    best = optimal_from(knowledge)
    assert best.guess is not None
    assert optimal_from(knowledge, Code.of_index(best.guess, MM)).total == best.total
    assert optimal_from(knowledge, Code("6666", MM)).total > best.total


def test_large_or_contradictory_positions_are_refused() -> None:
    with pytest.raises(BullsCowsError, match="not searched here"):
        optimal_from(Knowledge.start(MM))
    k = Knowledge.start(MM).after(Code("1123", MM), Feedback(4, 0))
    with pytest.raises(BullsCowsError, match="no code fits"):
        optimal_from(k.after(Code("1123", MM), Feedback(0, 0)))
