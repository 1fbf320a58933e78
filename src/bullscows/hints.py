"""Hints: a strategy's next guess, and why, in terms of how it splits the codes still possible.

A guess sorts the remaining codes into parts, one per reply it could get; the part that is left
is the one of the reply actually given. A good guess leaves no large part.

>>> from bullscows.strategies import get_strategy
>>> hint = give_hint(Knowledge.start(Rules.parse("mm")), get_strategy("minimax"))
>>> hint.guess, hint.largest, hint.count, hint.is_candidate
(Code('1122', Rules.parse('mm')), 256, 13, True)
>>> hint.parts[:2]
((Feedback(bulls=0, cows=0), 256), (Feedback(bulls=0, cows=1), 256))
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

import numpy as np

from bullscows.codes import Code
from bullscows.feedback import Feedback, counted
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies import Strategy
from bullscows.strategies.heuristic import PartitionHeuristic

#: ``Hint.describe`` lists at most this many parts, largest first, on one line (a paragraph,
#: in a terminal as on a web page).
PARTS_SHOWN = 6


@dataclass(frozen=True, slots=True)
class Hint:
    """A guess and how its replies would split the ``remaining`` codes still possible.

    ``parts`` pairs each reply the guess can get with how many of those codes give it, largest
    part first (equal parts in reply order: fewer bulls, then fewer cows, first).
    """

    guess: Code
    remaining: int
    is_candidate: bool
    parts: tuple[tuple[Feedback, int], ...]
    #: Where the guess came from when not the strategy's own rule (``Strategy.source``: an
    #: optimal strategy's game off its tree), said after the guess.
    source: str | None = None

    @property
    def largest(self) -> int:
        """The most codes any reply could leave."""
        return self.parts[0][1]

    @property
    def count(self) -> int:
        """How many different replies the guess can get (non-empty parts)."""
        return len(self.parts)

    @property
    def expected(self) -> float:
        """How many codes the reply leaves on average, when every remaining code is as likely
        to be the secret: the sum of the squared part sizes over ``remaining``.

        >>> Hint(Code("0123"), 4, True, ((Feedback(0, 2), 3), (Feedback(4, 0), 1))).expected
        2.5
        """
        return sum(n * n for _, n in self.parts) / self.remaining

    def describe(self, style: str = "words") -> list[str]:
        """Lines for a person, replies written in ``style`` (see ``feedback.STYLES``): the
        guess, what its reply would leave, and its largest parts on one line.

        >>> hint = Hint(Code("0123"), 4, False, ((Feedback(0, 1), 3), (Feedback(0, 2), 1)))
        >>> for line in hint.describe("bc"):
        ...     print(line)
        Try 0123; it cannot be the secret itself.
          Of the 4 codes still possible, its reply would leave at most 3 (2.5 on average).
          2 parts: 0B1C: 3; 0B2C: 1
        """
        if self.remaining == 1:
            return [f"Try {self.guess}; it is the only code still possible."]
        outcome = (
            "it could be the secret" if self.is_candidate else "it cannot be the secret itself"
        )
        lines = [
            f"Try {self.guess}; {outcome}.",
            *([f"  ({self.source})"] if self.source else []),
            f"  Of the {counted(self.remaining, 'code')} still possible, its reply would leave "
            f"at most {self.largest} ({self.expected:.1f} on average).",
        ]
        shown = [f"{reply.format(style)}: {n}" for reply, n in self.parts[:PARTS_SHOWN]]
        if self.count > PARTS_SHOWN:
            shown.append(f"and {self.count - PARTS_SHOWN} more")
        lines.append(f"  {counted(self.count, 'part')}: " + "; ".join(shown))
        return lines


def explain_guess(knowledge: Knowledge, guess: Code) -> Hint:
    """How ``guess`` splits the codes ``knowledge`` still allows.

    >>> rules = Rules.parse("bc")
    >>> k = Knowledge.start(rules).after(Code("0123"), Feedback(0, 0))
    >>> hint = explain_guess(k, Code("4567"))
    >>> hint.remaining, hint.largest, hint.parts[0]
    (360, 88, (Feedback(bulls=0, cows=3), 88))
    """
    if knowledge.is_contradictory:
        raise ValueError("no code fits the replies so far; there is nothing to split")
    rules: Rules = knowledge.rules
    sizes = knowledge.universe.partition_sizes(np.array([guess.index]), knowledge.candidates)[0]
    order = sorted(np.flatnonzero(sizes).tolist(), key=lambda r: (-int(sizes[r]), r))
    parts = tuple((Feedback.from_index(r, rules.length), int(sizes[r])) for r in order)
    is_candidate = bool(knowledge.is_candidate[guess.index])
    return Hint(guess, len(knowledge), is_candidate, parts)


def give_hint(
    knowledge: Knowledge,
    strategy: Strategy,
    rng: random.Random | None = None,
    fitting: bool = False,
) -> Hint:
    """The guess ``strategy`` would make next, explained (see ``explain_guess``).

    With ``fitting`` (hard mode) the guess is one of the codes still possible, so that it
    fits every reply so far: the strategy's own guess if it is one, else the guess of its
    consistent-only form, else the possible code whose largest part is smallest.

    >>> from bullscows.strategies import get_strategy
    >>> k = Knowledge.start(Rules.parse("bc")).after(Code("0123"), Feedback(1, 0))
    >>> minimax = get_strategy("minimax")
    >>> give_hint(k, minimax).is_candidate, give_hint(k, minimax, fitting=True).is_candidate
    (False, True)
    """
    rng = rng or random.Random()
    index = strategy.next_guess(knowledge, rng)
    source = strategy.source
    if fitting and not knowledge.is_candidate[index]:
        index, source = _fitting_guess(knowledge, strategy, rng), None
    return replace(explain_guess(knowledge, knowledge.code(index)), source=source)


def _fitting_guess(knowledge: Knowledge, strategy: Strategy, rng: random.Random) -> int:
    """A code still possible to play: the consistent-only heuristic's, else a minimax pick."""
    if isinstance(strategy, PartitionHeuristic) and not strategy.consistent_only:
        index = type(strategy)(consistent_only=True).next_guess(knowledge, rng)
        if knowledge.is_candidate[index]:
            return index
    candidates = knowledge.candidates
    sizes = knowledge.universe.partition_sizes(candidates, candidates)
    return int(candidates[int(np.argmin(sizes.max(axis=1)))])
