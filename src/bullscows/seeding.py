"""Random draws that replay: every draw of a game comes from its seed and the move's number.

A game keeps one seed. The draws of each move (a random strategy's guess, the adversary's
choice between equal replies, the computer's secret) come from a generator made from that seed,
what the draw is for, and how many moves were made before it. So a game rebuilt from its seed
and its history draws exactly what it drew the first time, whatever was undone in between.

>>> MoveRandom(7, "breaker", 2).random() == MoveRandom(7, "breaker", 2).random()
True
>>> MoveRandom(7, "breaker", 2).random() == MoveRandom(7, "breaker", 3).random()
False
>>> MoveRandom(7, "breaker", 5).at(0).random() == MoveRandom(7, "breaker", 0).random()
True
"""

from __future__ import annotations

import random
import re

from bullscows.errors import BullsCowsError
from bullscows.readers import quote, quote_value

#: Seeds drawn for a game that was given none are below this (they fit JSON and every language).
SEED_BOUND = 2**53
#: A seed a person gives is a whole number of at most 18 digits, either sign (a record keeps it).
MAX_SEED = 10**18 - 1
#: What a seed may be, said by every refusal of one.
SEED_HELP = "give a whole number of at most 18 digits, either sign"
_SEED_TEXT = re.compile(r"[+-]?[0-9]{1,18}")


def check_seed(seed: object) -> int:
    """``seed`` if it is a seed a person may give, else the one error every command, page
    and record reader gives.

    >>> check_seed(-7)
    -7
    >>> check_seed(10**18)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: seed 1000000000000000000: give a whole number of at most 18 ...
    """
    if type(seed) is not int or abs(seed) > MAX_SEED:
        raise BullsCowsError(f"seed {quote_value(seed)}: {SEED_HELP}")
    return seed


def read_seed(text: str, what: str = "seed") -> int:
    """The seed written as ``text`` (ASCII digits, a sign allowed), else the words of
    ``check_seed`` about ``what``.

    >>> read_seed(" -7 "), read_seed("+12")
    (-7, 12)
    >>> read_seed("seven", "BULLSCOWS_SEED")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: BULLSCOWS_SEED 'seven': give a whole number of at most 18 ...
    """
    if not _SEED_TEXT.fullmatch(text.strip()):
        raise BullsCowsError(f"{what} {quote(text.strip())}: {SEED_HELP}")
    return int(text)


def new_seed() -> int:
    """A fresh seed for a game that was given none."""
    return random.SystemRandom().randrange(SEED_BOUND)


class MoveRandom(random.Random):
    """The generator of one move: seeded from the game's ``seed``, the draw's ``purpose``
    and the number of moves made before it (``move``)."""

    def __init__(self, seed: int, purpose: str, move: int) -> None:
        super().__init__(f"{seed}:{purpose}:{move}")
        self.game_seed = seed
        self.purpose = purpose
        self.move = move

    def at(self, move: int) -> MoveRandom:
        """A fresh generator of the same game and purpose at move ``move``: a strategy that
        plans at its first move (``cows``) finds its plan again from any later move."""
        return MoveRandom(self.game_seed, self.purpose, move)
