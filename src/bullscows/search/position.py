"""The optimum from a position in a game: how many guesses the best play still needs on
average over the codes still possible, with or without a given guess played first.

The search works on the candidates left, with the guesses played so far (so that its symmetry
reduction keeps only the symmetries they leave). It answers quickly for a few hundred
candidates; ``optimal_from`` refuses more (``MAX_POSITION_CODES``).

>>> from bullscows.codes import Code
>>> from bullscows.feedback import Feedback
>>> from bullscows.knowledge import Knowledge
>>> from bullscows.rules import Rules
>>> mm = Rules.parse("mm")
>>> k = Knowledge.start(mm).after(Code("1123", mm), Feedback(1, 1))
>>> best = optimal_from(k)
>>> len(k), best.total, round(best.average, 3)
(230, 798, 3.47)
>>> optimal_from(k, Code("1123", mm)).total > best.total
True
"""

from __future__ import annotations

from dataclasses import dataclass

from bullscows._kernels.tables import INFEASIBLE
from bullscows.codes import Code
from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.search.engine import Search
from bullscows.search.options import SearchOptions
from bullscows.universe import distinct

#: The most candidates a position may have for ``optimal_from`` (larger ones take seconds).
MAX_POSITION_CODES = 400
#: The most codes a variant may have to guess from (the search scores every pair of them).
MAX_POSITION_GUESSES = 5040


@dataclass(frozen=True, slots=True)
class Optimum:
    """The lowest total of guesses over the ``codes`` still possible, counting the next guess
    (and the first guess given, if one was), and its best next guess when none was given."""

    total: int
    codes: int
    guess: int | None

    @property
    def average(self) -> float:
        return self.total / self.codes


def optimal_from(
    knowledge: Knowledge, guess: Code | None = None, search: Search | None = None
) -> Optimum:
    """The optimum from ``knowledge`` (the lowest total, proven by the search), or with
    ``guess`` played first and the best play after it; too large a position is a
    ``BullsCowsError``. Positions of one variant may share a ``search`` (``position_search``):
    its score matrix is built once and its memo serves them all."""
    rules = knowledge.rules
    if not searchable(knowledge):
        raise BullsCowsError(
            f"the optimum from a position of {len(knowledge):,} codes of {rules.describe()} is "
            f"not searched here (at most {MAX_POSITION_CODES:,} codes, of variants of at most "
            f"{MAX_POSITION_GUESSES:,} codes to guess)"
        )
    if knowledge.is_contradictory:
        raise BullsCowsError("no code fits the replies so far: there is no optimum")
    if knowledge.is_solved:  # the game is over: no guess is needed
        return Optimum(0, len(knowledge), None)
    search = search or position_search(rules)
    win = Feedback.win(rules.length).index(rules.length)
    played = tuple((s.guess.index, s.feedback.index(rules.length)) for s in knowledge.history)
    deepest = search.state.unlimited
    if guess is None:
        found = search.solve(knowledge.candidates, deepest, INFEASIBLE, played)
        assert found is not None  # an unlimited depth always admits a tree
        return Optimum(found[0], len(knowledge), found[1].guess)
    replies = search.state.scores[guess.index, knowledge.candidates]
    total = len(knowledge)  # every secret still possible needs this guess
    for reply in distinct(replies).tolist():
        if reply == win:
            continue
        part = knowledge.candidates[replies == reply]
        below = search.solve(part, deepest, INFEASIBLE, (*played, (guess.index, reply)))
        assert below is not None
        total += below[0]
    return Optimum(total, len(knowledge), None)


def searchable(knowledge: Knowledge) -> bool:
    """Whether ``optimal_from`` answers for this position (few codes left, of a variant
    whose guesses the search can score pairwise)."""
    too_many = knowledge.rules.guess_rules.size > MAX_POSITION_GUESSES
    return len(knowledge) <= MAX_POSITION_CODES and not too_many


def position_search(rules: Rules) -> Search:
    """A search for the optima of positions of ``rules`` (lowest total, no cap)."""
    return Search(SearchOptions(rules))
