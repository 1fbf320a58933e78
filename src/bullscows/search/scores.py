"""The replies a search reads: every code's reply to every guess, as a whole matrix up to
``WHOLE_MATRIX_CODES`` codes (``WholeMatrix``), past it as rows computed when needed
(``ScoreRows``), so that the memory of a search grows with the sets it searches, not with the
square of the codes.

Both give ``table[guess, codes]`` (the replies of ``codes`` to ``guess``), and both prepare
the compiled search's context (``search_calls.context``) for a question about a set of codes:
``ready`` before the compiled search itself (it reads every guess's reply of every code of
the set, and of the sets below it), and ``order``, ``bounds`` and ``parts`` for the Python
levels, whose sets are large and whose guesses are few (one per symmetry class).

>>> rules = Rules.parse("mm")
>>> whole, rows = score_table(rules), ScoreRows(rules)
>>> codes = universe(rules).all()[::100]
>>> bool((whole[7, codes] == rows[7, codes]).all()), int(rows[7, 7]) == int(whole[7, 7])
(True, True)
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows._kernels import search_calls
from bullscows._kernels.search_calls import Context
from bullscows._kernels.tables import CTX_ROWS, CTX_SCORES
from bullscows.rules import Rules
from bullscows.universe import IndexArray, universe

#: Variants of at most this many codes (guesses) are searched with their whole score matrix
#: (``codes ** 2`` bytes: 95 MiB for ``digits``); larger ones with rows computed when needed.
WHOLE_MATRIX_CODES = 10_000
#: A block of rows holds at least this many bytes' worth of rows (kept across the sets of
#: one search), and grows to the largest set the compiled search is asked about.
BLOCK_BYTES = 64 << 20

Parts = list[tuple[int, IndexArray]]


class WholeMatrix:
    """Every code's reply to every guess, in one symmetric matrix (``matrix[guess, code]``)."""

    def __init__(self, matrix: npt.NDArray[np.uint8]) -> None:
        self.matrix = matrix

    def __getitem__(self, key: tuple[Any, Any]) -> Any:
        return self.matrix[key]

    def arrays(self) -> tuple[npt.NDArray[np.uint8], IndexArray | None]:
        """The context's scores and rows (``None``: the identity)."""
        return self.matrix, None

    def ready(self, ctx: Context, codes: IndexArray) -> Context:
        """``ctx``, ready for the compiled search of ``codes``: the matrix holds every row."""
        return ctx

    def order(
        self, ctx: Context, codes: IndexArray, guesses: IndexArray, depth: int, limit: int
    ) -> tuple[IndexArray, IndexArray, int]:
        """``search_calls.guess_order``."""
        return search_calls.guess_order(ctx, codes, guesses, depth, limit)

    def bounds(
        self, ctx: Context, codes: IndexArray, guesses: IndexArray, depth: int
    ) -> tuple[IndexArray, IndexArray, IndexArray, IndexArray]:
        """``search_calls.bounds``."""
        return search_calls.bounds(ctx, codes, guesses, depth)

    def parts(self, ctx: Context, codes: IndexArray, guess: int) -> Parts:
        """``search_calls.parts``."""
        return search_calls.parts(ctx, codes, guess)


class ScoreRows(WholeMatrix):
    """The replies of a variant too large for its whole matrix: the rows of the codes the
    compiled search is asked about, in a block (``ready``), and for the Python levels the
    replies of a set to the few guesses asked about, scored for each question.

    The block keeps the rows of the sets it was readied for until a set needs more room,
    then starts again: the window of a part asked again costs no scoring.
    """

    def __init__(self, rules: Rules) -> None:
        self.universe = universe(rules)
        size = len(self.universe)
        self.where = np.full(size, -1, dtype=np.int64)  # the block's row of each code, or -1
        self.spare = np.zeros(size, dtype=np.int64)  # the rows of ``narrow``'s blocks
        self.filled = 0
        self.scored = 0  # rows scored into the block so far
        super().__init__(np.empty((0, size), dtype=np.uint8))

    def __getitem__(self, key: tuple[Any, Any]) -> Any:
        guess, codes = key
        if np.ndim(codes) == 0:
            return self.universe.score_matrix(np.array([codes]), np.array([guess]))[0, 0]
        at = self.where[codes]
        if len(at) and at.min() >= 0:
            return self.matrix[at, guess]
        return self.universe.score_row(int(guess), codes)

    def arrays(self) -> tuple[npt.NDArray[np.uint8], IndexArray | None]:
        return self.matrix, self.where

    def ready(self, ctx: Context, codes: IndexArray) -> Context:
        """``ctx`` with a block holding the row of each of ``codes``: the sets below them are
        subsets, so the compiled search of ``codes`` reads no other row."""
        missing = codes[self.where[codes] < 0]
        if len(missing) == 0:
            return ctx
        if self.filled + len(missing) > len(self.matrix):
            self.where[:] = -1
            self.filled = 0
            missing = codes
            if len(codes) > len(self.matrix):
                least = BLOCK_BYTES // max(len(self.universe), 1)
                rows = max(len(codes), least, 2 * len(self.matrix))
                self.matrix = np.empty((0, 0), dtype=np.uint8)  # let the old block go first
                self.matrix = np.empty((rows, len(self.universe)), dtype=np.uint8)
        start, stop = self.filled, self.filled + len(missing)
        self.universe.score_matrix(missing, self.universe.all(), out=self.matrix[start:stop])
        self.where[missing] = np.arange(start, stop)
        self.filled = stop
        self.scored += len(missing)
        return with_scores(ctx, self.matrix, self.where)

    def narrow(self, ctx: Context, codes: IndexArray, guesses: IndexArray) -> Context:
        """A context whose scores hold ``codes``' replies to ``guesses`` alone (column ``i``
        for ``guesses[i]``): ask it about the guesses ``0 .. len(guesses) - 1``."""
        self.spare[codes] = np.arange(len(codes))
        return with_scores(ctx, self.universe.score_matrix(codes, guesses), self.spare)

    def order(
        self, ctx: Context, codes: IndexArray, guesses: IndexArray, depth: int, limit: int
    ) -> tuple[IndexArray, IndexArray, int]:
        local = np.arange(len(guesses), dtype=np.int64)
        narrow = self.narrow(ctx, codes, guesses)
        return search_calls.guess_order(narrow, codes, local, depth, limit)

    def bounds(
        self, ctx: Context, codes: IndexArray, guesses: IndexArray, depth: int
    ) -> tuple[IndexArray, IndexArray, IndexArray, IndexArray]:
        local = np.arange(len(guesses), dtype=np.int64)
        return search_calls.bounds(self.narrow(ctx, codes, guesses), codes, local, depth)

    def parts(self, ctx: Context, codes: IndexArray, guess: int) -> Parts:
        at = self.where[codes]
        if len(at) and at.min() >= 0:  # the block holds them: the set was searched
            return search_calls.parts(with_scores(ctx, self.matrix, self.where), codes, guess)
        narrow = self.narrow(ctx, codes, np.array([guess], dtype=np.int64))
        return search_calls.parts(narrow, codes, 0)


def with_scores(ctx: Context, scores: npt.NDArray[np.uint8], rows: IndexArray) -> Context:
    """``ctx`` reading ``scores[rows[code]]`` for each code's replies."""
    items = list(ctx)
    items[CTX_SCORES], items[CTX_ROWS] = scores, rows
    return tuple(items)


def score_table(rules: Rules) -> WholeMatrix:
    """The replies a search of ``rules`` reads: the whole matrix (shared by the searches of
    this process while one holds it) up to ``WHOLE_MATRIX_CODES`` codes, else a block of
    rows of its own (each search, thus each worker thread, has one)."""
    if len(universe(rules)) > WHOLE_MATRIX_CODES:
        return ScoreRows(rules)
    return WholeMatrix(score_matrix(rules))


#: The score matrix of each variant some search of this process holds (its threads share it).
_SCORES: weakref.WeakValueDictionary[Rules, npt.NDArray[np.uint8]]
_SCORES = weakref.WeakValueDictionary()


def score_matrix(rules: Rules) -> npt.NDArray[np.uint8]:
    """Every code's reply to every guess, computed once while a search of ``rules`` holds it:
    the searches of a search's tasks on threads of its process (``search.worker``) share it.

    >>> held = score_matrix(Rules.parse("mm"))
    >>> held is score_matrix(Rules.parse("mm"))
    True
    """
    scores = _SCORES.get(rules)
    if scores is None:
        u = universe(rules)
        scores = u.score_matrix(u.all(), u.all())
        _SCORES[rules] = scores
    return scores
