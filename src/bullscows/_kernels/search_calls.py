"""The compiled optimal search as its Python levels call it, without loading numba when the
module compiled ahead of time at installation is current (``_kernels.ahead``): the search
itself (``solve``), its memo (``Memo``) and every other question they ask of it, each one
compiled entry point (``search_queries``, by the same names). Each releases the GIL, for the
threads of ``search.worker``.

>>> from bullscows.search.options import SearchOptions
>>> from bullscows.search.state import SearchState
>>> from bullscows.rules import Rules
>>> state = SearchState(SearchOptions(Rules.parse("mm")))
>>> every = state.ctx[CTX_EVERYTHING]
>>> solve(state.ctx, state.memo, every[::50], 9, 1000, every), len(state.memo) > 0
(67, True)
>>> best_guess(state.ctx, state.memo, every[::50], 9) >= 0
True
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from bullscows._kernels.ahead import SEARCH, load
from bullscows._kernels.tables import (
    CONTEXT,
    CTX_CAPPED,
    CTX_CAPS,
    CTX_CONSISTENT,
    CTX_EVERYTHING,
    CTX_KEYS,
    CTX_PENALTY,
    CTX_ROWS,
    CTX_SCORES,
    CTX_SHARE_FROM,
    CTX_SHARED,
    CTX_SLOTS,
    CTX_STATS,
    CTX_STOP,
    CTX_TRAFFIC,
    CTX_VALID,
    CTX_WEIGHT,
    CTX_WIN,
    FLIGHT,
    INFEASIBLE,
    MEMO_FULL,
    QUESTIONS,
    STOPPED,
    TRAFFIC,
)

IntArray = npt.NDArray[np.int64]
#: What ``solve`` and the questions read, each item at its place (``tables.CTX_*``;
#: ``search_dfs`` says what each is).
Context = tuple[Any, ...]

#: Slots of a new memo (a power of two: 3.7 MB): the ``p4c9n`` search fills about a third.
MEMO_SLOTS = 1 << 16
#: Integers a memo slot holds (``search_memo.SLOT``).
_SLOT = 7
#: The most slots a memo's table grows to (56 bytes each: 0.94 GiB). A memo that fills it
#: keeps its largest sets (``largest``) and forgets the others, so that a search of hours
#: holds bounded memory, for some sets searched again.
MEMO_MOST = 1 << 24
#: Compiled calls in a row that may give up on a full memo before it is let past its most
#: slots: a call whose own sets do not fit in what the memo keeps would never end.
_TRIES = 8


def new_memo(slots: int = MEMO_SLOTS) -> tuple[IntArray, IntArray, IntArray]:
    """An empty memo's arrays (``search_memo``): its table, its state and its base (none)."""
    table = np.full(slots * _SLOT, -1, dtype=np.int64)
    return table, np.zeros(2, dtype=np.int64), NO_BASE


#: The base of a memo that has none (read-only: no memo writes to its base).
NO_BASE = np.zeros(0, dtype=np.int64)


#: The fewest and most slots of a table the threads of a search share (``shared_table``):
#: 4 MiB and 64 MiB.
SHARED_SLOTS = (1 << 16, 1 << 20)
#: Integers a shared slot holds (``search_memo.SHARED_SLOT``), and two cache lines.
_SHARED_SLOT = 8
_PAIR = 16


def check_shared(table: IntArray) -> None:
    """Refuse a shared table the compiled calls would index out of bounds (they check
    nothing): its length must be 0, or 16 times a power of two (whole buckets) and
    ``FLIGHT`` (the sets in flight, ``search_memo.board``).

    >>> check_shared(np.zeros(24, dtype=np.int64))
    Traceback (most recent call last):
    ...
    ValueError: a shared table of 24 integers: give 0, or 16 times a power of 2, plus 4096
    """
    buckets = (len(table) - FLIGHT) // _PAIR
    if len(table) and (
        len(table) < FLIGHT + _PAIR or len(table) % _PAIR or buckets & (buckets - 1)
    ):
        raise ValueError(
            f"a shared table of {len(table)} integers: give 0, or 16 times a power of 2, "
            f"plus {FLIGHT}"
        )


def shared_table(codes: int) -> IntArray:
    """An empty table for the threads of a search of ``codes`` codes to share
    (``search_memo.publish``): 128 slots a code, a power of two within ``SHARED_SLOTS``,
    then ``FLIGHT`` integers for the sets in flight (its pages are the system's zeros until
    written).

    >>> table = shared_table(5040)
    >>> (len(shared_table(120)) - FLIGHT) // 8, (len(table) - FLIGHT) // 8, table.ctypes.data % 128
    (65536, 1048576, 0)
    """
    low, high = SHARED_SLOTS
    slots = min(max(low, 1 << (128 * codes - 1).bit_length()), high)
    # each slot in one cache line, each bucket in two; the sets in flight from a pair's first
    return counters(slots * _SHARED_SLOT + FLIGHT)


def counters(count: int) -> IntArray:
    """``count`` integers set to 0, in cache lines of their own from a pair's first (128
    bytes, which processors often fetch together): a thread's counters, written as it
    searches, share no line with another thread's.

    >>> found = counters(3)
    >>> found.tolist(), found.ctypes.data % 128
    ([0, 0, 0], 0)
    """
    words = -(-count // _PAIR) * _PAIR  # whole pairs of lines of 8 integers
    raw = np.zeros(words + _PAIR, dtype=np.int64)
    skip = (-raw.ctypes.data % (8 * _PAIR)) // 8
    return raw[skip : skip + count]


class Memo:
    """A search's memo: the arrays the compiled search reads and writes (``arrays``), replaced
    by larger ones as it fills (``grow``), up to ``most`` slots; past that, by a table of
    its largest sets (``forgotten`` counts the others).

    >>> memo = Memo(16)
    >>> len(memo), memo.slots, memo.most == MEMO_MOST
    (0, 16, True)
    """

    def __init__(self, slots: int = MEMO_SLOTS, most: int | None = None) -> None:
        self.most = MEMO_MOST if most is None else most
        self.arrays = new_memo(min(slots, self.most))
        #: The sets it forgot to stay within ``most`` slots.
        self.forgotten = 0

    def __len__(self) -> int:
        """The sets it holds."""
        return int(self.arrays[1][0])

    @property
    def slots(self) -> int:
        return len(self.arrays[0]) // _SLOT

    def crowded(self) -> bool:
        """Whether it is half full or dropped a set (the compiled search's test)."""
        return bool(self.arrays[1][1]) or 2 * len(self) > self.slots

    def grow(self, stuck: bool = False) -> None:
        """Move its sets to a table at most a quarter full, of at most ``most`` slots; a
        table of ``most`` slots or more keeps its largest quarter (``largest``) in a table
        of ``most``. ``stuck``: a compiled call gave up again and again, so let the table
        past ``most`` (the next grow brings it back)."""
        slots = self.slots
        while 4 * len(self) > slots:
            slots *= 2
        table, held = self.arrays[0], len(self)
        if slots > self.most and not stuck and self.slots < self.most:
            slots = self.most
        elif slots > self.most and not stuck:
            rows = table.reshape(-1, _SLOT)
            kept = largest(rows[rows[:, 2] >= 0], self.most // 4)
            self.forgotten += held - len(kept)
            table, held, slots = np.ascontiguousarray(kept).reshape(-1), len(kept), self.most
        grown = kernels().grow_memo((table, self.arrays[1], self.arrays[2]), slots)
        self.arrays = (grown, np.array([held, 0], dtype=np.int64), self.arrays[2])

    def rest_on(self, base: IntArray) -> None:
        """Fall back on ``base`` (``base_table``) for the sets its table lacks."""
        self.arrays = (self.arrays[0], self.arrays[1], base)


def largest(rows: IntArray, most: int) -> IntArray:
    """The ``most`` of ``rows`` (memo slots, one a row) whose sets cost most to search again:
    those of the highest cost, or floor where no cost is known (a set's cost is at least
    its codes).

    >>> largest(np.array([[1, 1, 2, 9, 0, 9, 0], [2, 2, 2, -1, -1, 30, 0],
    ...                   [3, 3, 2, 5, 1, 5, 0]]), 2)[:, 0].tolist()
    [2, 1]
    """
    if len(rows) <= most:
        return rows
    size = np.maximum(rows[:, 3], rows[:, 5])
    chosen = np.argpartition(-size, most - 1)[:most]
    return rows[chosen[np.argsort(-size[chosen], kind="stable")]]


#: SplitMix64's increment (the golden ratio's fraction times 2**64).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)


def code_keys(size: int, seed: int = 2024) -> IntArray:
    """Two pseudo-random 64-bit keys per code, for hashing sets: SplitMix64's outputs from
    ``seed`` (reproducible, and without loading ``numpy.random``).

    >>> keys = code_keys(1296)
    >>> keys.shape, len(set(keys.ravel().tolist()))
    ((2, 1296), 2592)
    """
    with np.errstate(over="ignore"):  # arithmetic modulo 2**64
        z = np.uint64(seed) + np.arange(1, 2 * size + 1, dtype=np.uint64) * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return z.view(np.int64).reshape(2, size)


class Kernels(NamedTuple):
    """The compiled entry points (``search_dfs.solve``, the questions of ``search_queries``,
    each by its name, and ``search_split.try_guess``), and where they come from."""

    solve: Any
    guess_order: Any
    parts: Any
    ahead: Any
    aheads: Any
    best_guess: Any
    ideal_cost: Any
    perfect: Any
    bounds: Any
    grow_memo: Any
    try_guess: Any
    origin: str


@cache
def kernels(ahead: bool = True) -> Kernels:
    """The module compiled ahead of time when it is current, else numba's compilation;
    ``ahead=False``: numba's compilation even when the module would do."""
    module, why = load(SEARCH) if ahead else (None, "not asked for")
    if module is not None:
        questions = {question: getattr(module, question) for question in QUESTIONS}
        return Kernels(
            solve=module.solve, **questions, try_guess=module.try_guess,
            origin=f"ahead of time ({why})",
        )  # fmt: skip
    from bullscows._kernels import search_dfs, search_queries, search_split

    questions = {question: getattr(search_queries, question) for question in QUESTIONS}
    origin = f"numba's compilation (module {why})"
    return Kernels(
        solve=search_dfs.solve, **questions, try_guess=search_split.try_guess, origin=origin
    )


def context(
    scores: npt.NDArray[np.uint8], caps: IntArray, valid: npt.NDArray[np.uint8], win: int,
    keys: IntArray, stats: IntArray, capped: bool, consistent: bool, everything: IntArray,
    slots: int, weight: int, penalty: int, stop: IntArray, rows: IntArray | None = None,
    shared: IntArray | None = None, share_from: int = 0, traffic: IntArray | None = None,
) -> Context:  # fmt: skip
    """What every call of the compiled search reads (``search_dfs`` says what each is), of
    the types it was compiled for (the module compiled ahead of time trusts them). The
    arrays it writes (``stats``, ``stop``) must be given as they are (they are not copied).
    Code ``c``'s replies are ``scores[rows[c]]``; without ``rows``, ``scores`` is the whole,
    symmetric matrix (``search_kernels.row``). ``shared`` is the table the threads of a
    search share (``shared_table``; written, not copied), none by default; only sets of
    ``share_from`` codes or more go there, and ``traffic`` (``counters(TRAFFIC)``) counts the
    reads and writes (``tables.TRAFFIC_*``)."""
    shared = np.zeros(0, dtype=np.int64) if shared is None else shared
    traffic = counters(TRAFFIC) if traffic is None else traffic
    for written in (stats, stop, shared, traffic):
        if _array(written) is not written:
            raise ValueError(
                "the search's counters, stop flag and shared table are writeable int64 arrays"
            )
    check_shared(shared)
    items = {
        CTX_SCORES: _array(scores, np.uint8), CTX_CAPS: _array(caps),
        CTX_VALID: _array(valid, np.uint8), CTX_WIN: int(win), CTX_KEYS: _array(keys),
        CTX_STATS: stats, CTX_CAPPED: bool(capped), CTX_CONSISTENT: bool(consistent),
        CTX_EVERYTHING: _array(everything), CTX_SLOTS: int(slots), CTX_WEIGHT: int(weight),
        CTX_PENALTY: int(penalty), CTX_STOP: stop,
        CTX_ROWS: _array(np.empty(0) if rows is None else rows), CTX_SHARED: shared,
        CTX_SHARE_FROM: int(share_from), CTX_TRAFFIC: traffic,
    }  # fmt: skip
    return tuple(items[place] for place in range(CONTEXT))


def _array(values: npt.NDArray[Any], dtype: type[np.generic] = np.int64) -> npt.NDArray[Any]:
    """``values`` as every compiled call takes them: contiguous and writeable, of ``dtype`` (so
    that numba's compilation gives each kernel one signature, the one compiled ahead of time,
    which trusts the types it is given)."""
    if values.dtype == dtype and values.flags.c_contiguous and values.flags.writeable:
        return values
    return np.array(values, dtype=dtype)


def solve(
    ctx: Context, memo: Memo, codes: IntArray, depth: int, limit: int, guesses: IntArray
) -> int:
    """The optimal cost of ``codes`` within ``depth`` guesses if below ``limit``, else
    ``FAIL`` (then no tree costs less than ``limit``), or ``STOPPED``; ``guesses`` are the
    guesses worth trying at ``codes`` (``search_dfs.solve``). The memo grows as it needs."""
    compiled = kernels().solve
    codes, guesses = _array(codes), _array(guesses)
    tries = 0
    while True:
        cost = int(compiled(ctx, memo.arrays, codes, int(depth), int(limit), guesses))
        if cost != MEMO_FULL:
            return cost
        tries += 1
        memo.grow(stuck=tries > _TRIES)


def best_guess(ctx: Context, memo: Memo, codes: IntArray, depth: int) -> int:
    """The best guess the memo holds for a set ``solve`` settled (-1 if none)."""
    return int(kernels().best_guess(ctx, memo.arrays, _array(codes), int(depth)))


def ahead(
    ctx: Context, memo: Memo, codes: IntArray, guess: int, bound: int, depth: int
) -> tuple[int, list[tuple[int, IntArray]], list[int]]:
    """The bound of ``guess`` at ``codes`` one guess deeper (``bound`` charged each part its
    ideal; now each part is charged its ``lookahead`` within ``depth``), its parts as
    ``parts`` gives them, and each part's bound; no parts when one cannot fit within
    ``depth`` (the bound is then ``INFEASIBLE`` or more)."""
    ordered, starts, sizes, owns, total, replies = kernels().ahead(
        ctx, memo.arrays, _array(codes), int(guess), int(bound), int(depth), INFEASIBLE
    )
    if memo.crowded():
        memo.grow()
    if total >= INFEASIBLE:
        return int(total), [], []
    return int(total), _split(ordered, starts, sizes, replies), owns.tolist()


def aheads(
    ctx: Context, memo: Memo, codes: IntArray, guesses: IntArray, bounds: IntArray, depth: int,
    limit: int,
) -> IntArray:  # fmt: skip
    """``ahead``'s bound of each of ``guesses`` at ``codes`` in turn (``bounds`` their own),
    in one compiled call; ``limit`` or more once a guess cannot beat ``limit``, and -1 for a
    guess that splits the codes as one before it does; ``STOPPED`` for the guesses left
    once the context's stop flag is set (``stopped``)."""
    totals: IntArray = kernels().aheads(
        ctx, memo.arrays, _array(codes), _array(guesses), _array(bounds), int(depth), int(limit)
    )
    if memo.crowded():
        memo.grow()
    return totals


def stopped(totals: IntArray) -> bool:
    """Whether ``aheads`` stopped before the last of its guesses (told to stop).

    >>> stopped(np.array([5, -1, STOPPED])), stopped(np.array([5, -1]))
    (True, False)
    """
    return bool(len(totals)) and int(totals[-1]) == STOPPED


def guess_order(
    ctx: Context, codes: IntArray, guesses: IntArray, depth: int, limit: int
) -> tuple[IntArray, IntArray, int]:
    """``solve``'s order of the ``guesses`` at ``codes`` whose bound within ``depth`` is below
    ``limit`` (indices into ``guesses``), every guess's bound, and the first guess's index if
    its bound is its exact cost (else -1)."""
    order, found, exact = kernels().guess_order(
        ctx, _array(codes), _array(guesses), int(depth), int(limit)
    )
    return order, found, int(exact)


def parts(ctx: Context, codes: IntArray, guess: int) -> list[tuple[int, IntArray]]:
    """``codes`` split by reply to ``guess``: (reply, part) pairs, the winning reply left out."""
    return _split(*kernels().parts(ctx, _array(codes), int(guess)))


def _split(
    ordered: IntArray, starts: IntArray, sizes: IntArray, replies: IntArray
) -> list[tuple[int, IntArray]]:
    """The (reply, part) pairs of codes in parts (``ordered``), each part's start and size."""
    return [
        (int(r), ordered[s : s + z])
        for r, s, z in zip(replies.tolist(), starts.tolist(), sizes.tolist(), strict=True)
    ]


def ideal_cost(ctx: Context, n: int, depth: int) -> int:
    """``search_dfs.ideal`` with the search's level capacities, weight and penalty."""
    return int(kernels().ideal_cost(ctx, int(n), int(depth)))


def perfect(ctx: Context, codes: IntArray) -> int:
    """The position in ``codes`` of the first code whose replies to all of them differ, or -1
    (``search_kernels.perfect_candidate``)."""
    return int(kernels().perfect(ctx, _array(codes)))


def bounds(
    ctx: Context, codes: IntArray, guesses: IntArray, depth: int
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """``search_kernels.guess_bounds`` with the search's replies, level capacities, weight and
    penalty."""
    found, squares, solved, largest = kernels().bounds(
        ctx, _array(codes), _array(guesses), int(depth)
    )
    return found, squares, solved, largest


def try_guess(
    ctx: Context, memo: Memo, codes: IntArray, depth: int, guess: int, bound: int,
    incumbent: IntArray, rank: int,
) -> int:  # fmt: skip
    """The cost of the best tree of ``codes`` within ``depth`` whose first guess is
    ``guess`` if it beats ``incumbent``, else ``FAIL``, or ``STOPPED``
    (``search_split.try_guess``); every part of a tree found is in the memo, which grows as
    it needs."""
    compiled = kernels().try_guess
    codes = _array(codes)
    tries = 0
    while True:
        cost = int(compiled(ctx, memo.arrays, codes, int(depth), int(guess), int(bound),
                            incumbent, int(rank)))  # fmt: skip
        if cost != MEMO_FULL and not memo.arrays[1][1]:
            if memo.crowded():
                memo.grow()
            return cost
        tries += 1
        memo.grow(stuck=tries > _TRIES)


__all__ = [
    "MEMO_MOST", "NO_BASE", "Memo", "ahead", "aheads", "best_guess", "bounds", "check_shared",
    "code_keys", "context", "guess_order", "ideal_cost", "kernels", "largest", "parts",
    "perfect", "shared_table", "solve", "stopped", "try_guess",
]  # fmt: skip
