"""The rounds that settle one guess's parts (``Settling``: ``engine.Search._settle`` asks
them), and the same rounds played ahead, for the guesses still to come at a set, against
the answers already known (``rounds_ahead``): what idle workers can search early
(``distribute.PartTasks.ahead``).

>>> import numpy as np
>>> codes = np.arange(3, dtype=np.int64)
>>> settling = Settling([(3, 0, codes), (3, 1, codes)], [4, 4], 7, 9, 20, ())
>>> [window for _, _, window in settling.asked()]  # each part's bound and half the slack
[9, 9]
>>> settling.hear(0, (8, Node(1))), settling.hear(1, None), settling.next_pass()
(True, True, True)
>>> [window for _, _, window in settling.asked()], settling.total  # part 1 open
([11], 18)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from bullscows.search.checkpoint import Found, History
from bullscows.search.distribute import LATER, Request
from bullscows.tree.model import Node
from bullscows.universe import IndexArray

#: A part of a guess: its size, its reply and its codes.
Part = tuple[int, int, IndexArray]
#: A guess at a set: its bound one guess deeper, its rank in the canonical order, the guess,
#: its parts and each part's bound.
Candidate = tuple[int, int, int, list[Part], list[int]]


class Ahead(Protocol):
    """What ``rounds_ahead`` asks of the tasks (``distribute.PartTasks``)."""

    def known(self, request: Request) -> Any:
        """A task's answer if known, else ``...``; a small part's, else ``LATER``."""

    def solve(self, request: Request) -> Found:
        """A small part's answer, solved now."""


class Settling:
    """The parts of ``guess`` at the set ``history`` leads to (bounds ``owns``, summing with
    the guess's own cost to ``total``), settled in rounds if together they cost less than
    ``limit``: each round asks every open part for a tree costing just what its bound
    allows plus an even share of the slack (``asked``); a part that has none gets a higher
    bound instead (``hear``), and is asked again in the next round (``next_pass``)."""

    def __init__(
        self,
        parts: list[Part],
        owns: list[int],
        guess: int,
        total: int,
        limit: int,
        history: History,
    ) -> None:
        self.parts, self.owns, self.guess = parts, list(owns), guess
        self.total, self.limit, self.history = total, limit, history
        self.pending = list(range(len(parts)))  # the parts open in this round, in order
        self.still: list[int] = []  # those still open after it
        self.share = 0
        self.branches: dict[int, Node] = {}

    def asked(self) -> list[Request]:
        """This round's requests, one for each open part."""
        self.share = share = max(1, (self.limit - self.total) // len(self.pending))
        step = self.history, self.guess
        return [((*step[0], (step[1], self.parts[p][1])), self.parts[p][2], self.owns[p] + share)
                for p in self.pending]  # fmt: skip

    def hear(self, p: int, found: Found) -> bool:
        """Part ``p``'s answer to this round; ``False`` once the parts cost at least the
        limit (the guess is refuted)."""
        if found is None:
            self.total += self.share
            self.owns[p] += self.share
            self.still.append(p)
        else:
            self.total += found[0] - self.owns[p]
            self.owns[p] = found[0]
            self.branches[self.parts[p][1]] = found[1]
        return self.total < self.limit

    def next_pass(self) -> bool:
        """On to the next round; ``False`` when every part is settled."""
        self.pending, self.still = self.still, []
        return bool(self.pending)

    def tree(self) -> tuple[int, Node]:
        """The cost and tree, once every part is settled."""
        return self.total, Node(self.guess, dict(sorted(self.branches.items())))


def window(best: int, rank: int, best_rank: int) -> int:
    """The window a guess of ``rank`` is settled with while the best tree found costs
    ``best`` and came from the guess of ``best_rank``: a guess ranked before it may tie it.

    >>> window(100, 3, 5), window(100, 7, 5)
    (101, 100)
    """
    return best + 1 if rank < best_rank else best


def rounds_ahead(
    explored: list[Candidate],
    history: History,
    best: int,
    best_rank: int,
    tasks: Ahead,
) -> Iterator[Request]:
    """The requests that ``engine.Search._branch`` will ask, should the best stay ``best``,
    of rank ``best_rank``, as it settles
    the guesses ``explored`` one after another at the set ``history`` leads to: each
    guess's rounds played with the answers ``tasks`` knows, up to the first round with a
    task not known, whose such tasks are given. A small part is solved (``tasks.solve``)
    once the tasks of its round are known, as the round reaches it."""
    for total, rank, guess, parts, owns in explored:
        reach = window(best, rank, best_rank)
        if total >= reach:
            continue
        settling = Settling(parts, owns, guess, total, reach, history)
        while True:
            asked = settling.asked()
            answers = [tasks.known(request) for request in asked]
            if any(answer is ... for answer in answers):
                yield from (request for request, a in zip(asked, answers, strict=True) if a is ...)
                break
            heard = zip(settling.pending, asked, answers, strict=True)
            cheaper = all(
                settling.hear(p, tasks.solve(request) if answer is LATER else answer)
                for p, request, answer in heard
            )
            if not cheaper or not settling.next_pass():
                break


__all__ = ["Ahead", "Candidate", "Part", "Settling", "rounds_ahead"]
