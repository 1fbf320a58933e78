"""The universe of a variant: every code, in the variant's order, as integer arrays.

Codes are rows of alphabet indices sorted lexicographically, which is the variant's order; a
code's index in that order is how the hot paths name it. The universe also holds the bit masks
the compiled kernels score with (see ``_kernels.compiled``).

>>> u = universe(Rules.parse("bc"))
>>> len(u), u.index((0, 1, 2, 3)), u.text(5039)
(5040, 0, '9876')
>>> int(u.score_row(u.index((1, 2, 3, 4)))[u.index((4, 2, 7, 1))])  # 1 bull, 2 cows
7
"""

from __future__ import annotations

import math
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

import numpy as np
import numpy.typing as npt

from bullscows.caching import sized_cache
from bullscows.errors import CodeError, RulesError
from bullscows.rules import ENUMERATION_NEEDED, MAX_CODES, Rules

IndexArray = npt.NDArray[np.int64]
ReplyArray = npt.NDArray[np.uint8]


class Universe:
    """All codes of one variant and the masks that score them.

    The codes are every code that may be guessed (``rules.guess_rules``); ``secrets`` holds the
    indices of those that may be the secret (all of them, unless guesses are wider).

    >>> u = universe(Rules.parse("bc:guesses=p4c10r"))
    >>> len(u), len(u.secrets), u.text(int(u.secrets[0])), u.text(0)
    (10000, 5040, '0123', '0000')
    """

    def __init__(self, rules: Rules) -> None:
        _check_enumerable(rules)
        self.rules = rules
        self.length = rules.length
        self.codes = enumerate_codes(rules.guess_rules)
        self.keys = code_keys(self.codes, len(rules.symbols))
        self.pos_masks, self.sym_masks = build_masks(self.codes, rules.guess_rules)
        # What the kernels take: one-word masks (every classic variant) as flat arrays.
        one_word = self.pos_masks.shape[1] == 1 and self.sym_masks.shape[1] == 1
        self._pos = np.ascontiguousarray(self.pos_masks[:, 0]) if one_word else self.pos_masks
        self._sym = np.ascontiguousarray(self.sym_masks[:, 0]) if one_word else self.sym_masks
        self._all = np.arange(len(self.codes), dtype=np.int64)
        self._all.flags.writeable = False
        self.secrets: IndexArray = self._all
        if rules.guesses is not None:
            self.secrets = self.indices(enumerate_codes(rules.secret_rules))
            self.secrets.flags.writeable = False

    def __len__(self) -> int:
        return len(self.codes)

    def size(self) -> int:
        """The memory its arrays hold, in bytes."""
        arrays = (self.codes, self.keys, self.pos_masks, self.sym_masks, self._all)
        return sum(a.nbytes for a in arrays)

    def __repr__(self) -> str:
        return f"universe({self.rules!r})"

    def index(self, digits: Sequence[int]) -> int:
        """The universe index of the code with these alphabet indices."""
        base = len(self.rules.symbols)
        if any(not 0 <= int(d) < base for d in digits):
            raise CodeError(f"digits {list(digits)}: each must be from 0 to {base - 1}")
        key = 0
        for d in digits:
            key = key * base + int(d)
        i = int(np.searchsorted(self.keys, key))
        if len(digits) != self.length or i >= len(self.keys) or self.keys[i] != key:
            raise CodeError(f"digits {list(digits)} are not a code of {self.rules.describe()}")
        return i

    def indices(self, rows: npt.NDArray[np.integer]) -> IndexArray:
        """Universe indices of many codes (rows of alphabet indices) at once."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, self.length)
        base = len(self.rules.symbols)
        keys = code_keys(rows, base)
        found = np.minimum(np.searchsorted(self.keys, keys), len(self.keys) - 1)
        valid = ((rows >= 0) & (rows < base)).all(axis=1) & (self.keys[found] == keys)
        if not valid.all():
            bad = rows[np.flatnonzero(~valid)[0]].tolist()
            raise CodeError(f"digits {bad} are not a code of {self.rules.describe()}")
        return found.astype(np.int64)

    def text(self, index: int) -> str:
        """The code at ``index`` as text."""
        return "".join(self.rules.symbols[d] for d in self.codes[index])

    def all(self) -> IndexArray:
        """Every index, in order (a shared read-only array): every code a guess may be."""
        return self._all

    def is_secret(self, index: int) -> bool:
        """Whether the code at ``index`` may be the secret."""
        at = int(np.searchsorted(self.secrets, index))
        return at < len(self.secrets) and int(self.secrets[at]) == index

    # --- scoring ------------------------------------------------------------------------
    def score_matrix(
        self, rows: IndexArray, cols: IndexArray, out: ReplyArray | None = None
    ) -> ReplyArray:
        """Reply indices of each code in ``rows`` (as guess) against each code in ``cols``
        (written into ``out`` if given: a C-contiguous array of that shape)."""
        from bullscows._kernels import ahead

        rows, cols = np.asarray(rows), np.asarray(cols)
        if out is None:
            out = np.empty((len(rows), len(cols)), dtype=np.uint8)
        if out.size:
            ahead.score_matrix(
                self._pos[rows], self._sym[rows],
                self._pos[cols], self._sym[cols],
                self.length, out,
            )  # fmt: skip
        return out

    def score_row(self, guess: int, codes: IndexArray | None = None) -> ReplyArray:
        """Reply index of ``guess`` against every code (or against ``codes``)."""
        targets = self.all() if codes is None else np.asarray(codes)
        # Scoring is symmetric; putting the many codes on the rows spreads them over the cores.
        return self.score_matrix(targets, np.array([guess]))[:, 0]

    def partition_sizes(self, guesses: IndexArray, candidates: IndexArray) -> npt.NDArray[np.int64]:
        """``sizes[i, r]``: how many candidates give reply index ``r`` to ``guesses[i]``."""
        from bullscows._kernels import compiled

        guesses, candidates = np.asarray(guesses), np.asarray(candidates)
        if len(guesses) == 0:
            return np.zeros((0, self.rules.reply_slots), dtype=np.int64)
        return compiled.partition_sizes(
            self._pos[guesses], self._sym[guesses],
            self._pos[candidates], self._sym[candidates],
            self.length, self.rules.reply_slots,
        )  # fmt: skip

    def guess_costs(
        self, guesses: IndexArray, candidates: IndexArray, heuristic: str
    ) -> npt.NDArray[np.int64]:
        """The cost of each guess under ``heuristic`` (see ``_kernels.compiled.HEURISTICS``)."""
        from bullscows._kernels import compiled

        guesses, candidates = np.asarray(guesses), np.asarray(candidates)
        if len(guesses) == 0:
            return np.zeros(0, dtype=np.int64)
        # Every index, in order (strictly increasing and as many as the codes): no copy needed.
        every = len(guesses) == len(self.codes) and bool((np.diff(guesses) > 0).all())
        return compiled.guess_costs(
            self._pos if every else self._pos[guesses],
            self._sym if every else self._sym[guesses],
            self._pos[candidates], self._sym[candidates],
            self.length, self.rules.reply_slots, heuristic,
        )  # fmt: skip


#: The universes kept at once hold at most this many bytes (the newest is kept whatever its size).
UNIVERSE_BUDGET = 512 * 2**20


#: How much lower than its caller's a large universe's thread runs (its niceness, on Linux).
BUILD_NICE = 10


@sized_cache(UNIVERSE_BUDGET, Universe.size)
def universe(rules: Rules) -> Universe:
    """The universe of a variant, kept while recently used (see ``UNIVERSE_BUDGET``); one of
    ``COMPILED_CODES`` codes or more is built aside (``built_aside``)."""
    if rules.scoring or rules.guess_rules.size < COMPILED_CODES:
        return Universe(rules)
    return built_aside(rules)


def built_aside(rules: Rules) -> Universe:
    """``Universe(rules)`` built on a thread of its own, ``BUILD_NICE`` lower than the caller
    (Linux: a thread's niceness is its own), while the caller waits: in a server, the requests
    its other threads answer meanwhile go first (the compiled builders let go of Python's lock).

    The thread (and any thread it starts) blocks SIGINT, so that Ctrl-C reaches the caller,
    which stops waiting at once; taken by the builder, it would wait for the build's end.
    """
    done: list[Universe | BaseException] = []

    def build() -> None:
        try:
            if sys.platform == "linux":
                os.nice(BUILD_NICE)
            done.append(Universe(rules))
        except BaseException as error:  # raised in the caller's thread
            done.append(error)

    thread = threading.Thread(target=build, name="bullscows-universe", daemon=True)
    with sigint_blocked():  # the thread inherits the caller's mask
        thread.start()
    thread.join()
    if isinstance(done[0], BaseException):
        raise done[0]
    return done[0]


@contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread (POSIX) while the block runs; a Ctrl-C sent meanwhile
    waits, and is taken once it ends. The threads started meanwhile keep it blocked."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


#: Universes of at least this many codes are built by compiled loops that let go of Python's
#: lock (``_kernels.universe_kernels``): a server answers other requests while one is built.
#: Smaller ones are built with numpy (a few milliseconds), which needs no numba loaded.
COMPILED_CODES = 1 << 16


def enumerate_codes(rules: Rules) -> npt.NDArray[np.uint8]:
    """Every code as a row of alphabet indices, in lexicographic order (a ``RulesError`` for
    a variant too large to enumerate).

    >>> enumerate_codes(Rules.from_radix([2, 2])).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    _check_enumerable(rules)
    allowed = _allowed(rules)
    if rules.size < COMPILED_CODES:
        return _enumerate_numpy(allowed, rules.repeats)
    from bullscows._kernels import universe_kernels

    count = _code_count(allowed, rules.repeats)
    if count is not None and count != rules.size:
        raise AssertionError(
            f"{rules.spec}: its positions allow {count:,} codes, not {rules.size:,}"
        )
    return universe_kernels.enumerate_codes(allowed, rules.repeats, count)


def _check_enumerable(rules: Rules) -> None:
    """Refuse a variant made only to score codes (``Rules.scoring``): too large to enumerate."""
    if rules.scoring:
        codes = "too many" if rules.size < 0 else f"{rules.size:,}"
        raise RulesError(
            f"{rules.describe()} has {codes} codes; at most {MAX_CODES:,} can be enumerated "
            f"in memory: {ENUMERATION_NEEDED}"
        )


def _code_count(allowed: list[npt.NDArray[np.uint8]], repeats: bool) -> int | None:
    """The rows the compiled walk writes for ``allowed``, read from those arrays, so that the
    count it is given cannot be short of them: every choice with repeats, the arrangements of
    one set of distinct symbols without; ``None`` (the walk counts them first) where positions
    allow different symbols and repeats are off.

    >>> digits = np.arange(10, dtype=np.uint8)
    >>> _code_count([digits] * 4, False), _code_count([digits] * 4, True)
    (5040, 10000)
    >>> _code_count([digits[1:], digits, digits, digits], False) is None  # no leading zero
    True
    """
    if repeats:
        return math.prod(len(symbols) for symbols in allowed)
    first = allowed[0]
    if len(np.unique(first)) == len(first) and all(np.array_equal(a, first) for a in allowed):
        return math.perm(len(first), len(allowed))
    return None


def _allowed(rules: Rules) -> list[npt.NDArray[np.uint8]]:
    """The alphabet indices each position allows, in increasing order."""
    return [
        np.array([rules.symbols.index(s) for s in rules.allowed_at(p)], dtype=np.uint8)
        for p in range(rules.length)
    ]


def _enumerate_numpy(allowed: list[npt.NDArray[np.uint8]], repeats: bool) -> npt.NDArray[np.uint8]:
    """``enumerate_codes`` with numpy, one position at a time: each row is extended by every
    allowed symbol (row-major, so the order stays lexicographic) and rows that repeat a symbol
    are dropped."""
    rows = np.zeros((1, 0), dtype=np.uint8)
    used = np.zeros(1, dtype=np.uint64)
    for symbols in allowed:
        parent = np.repeat(np.arange(len(rows)), len(symbols))
        symbol = np.tile(symbols, len(rows))
        bit = np.left_shift(np.uint64(1), symbol.astype(np.uint64))
        if not repeats:
            fresh = (used[parent] & bit) == 0
            parent, symbol, bit = parent[fresh], symbol[fresh], bit[fresh]
        rows = np.column_stack([rows[parent], symbol]).astype(np.uint8)
        used = used[parent] | bit
    return rows


def code_keys(codes: npt.NDArray[np.integer], base: int) -> npt.NDArray[np.int64]:
    """Each code read as a number in base ``base``: increasing in the variant's order."""
    if len(codes) >= COMPILED_CODES and codes.dtype == np.uint8:
        from bullscows._kernels import universe_kernels

        return universe_kernels.code_keys(codes, base)
    return _keys_numpy(codes, base)


def _keys_numpy(codes: npt.NDArray[np.integer], base: int) -> npt.NDArray[np.int64]:
    keys = np.zeros(len(codes), dtype=np.int64)
    for position in range(codes.shape[1]):
        keys = keys * base + codes[:, position]
    return keys


def build_masks(
    codes: npt.NDArray[np.uint8], rules: Rules
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The positional one-hot masks and the per-symbol thermometer masks of every code: bit
    ``position * symbols + symbol`` of the first, bit ``symbol * width + m`` of the second
    for a symbol's ``m``-th occurrence (``width``: the length if symbols repeat, else 1).

    >>> pos, sym = build_masks(np.array([[0, 1], [1, 1]], dtype=np.uint8), Rules.from_radix([2, 2]))
    >>> [bin(int(m)) for m in pos[:, 0]], [bin(int(m)) for m in sym[:, 0]]
    (['0b1001', '0b1010'], ['0b101', '0b1100'])
    """
    k, length = len(rules.symbols), rules.length
    width = length if rules.repeats else 1
    pos_masks = _masks(len(codes), length * k)
    sym_masks = _masks(len(codes), k * width)
    if len(codes) >= COMPILED_CODES:
        from bullscows._kernels import universe_kernels

        universe_kernels.set_masks(codes, k, width, pos_masks, sym_masks)
    else:
        _set_masks_numpy(codes, k, width, pos_masks, sym_masks)
    return pos_masks, sym_masks


def _set_masks_numpy(
    codes: npt.NDArray[np.uint8], k: int, width: int,
    pos_masks: npt.NDArray[np.uint64], sym_masks: npt.NDArray[np.uint64],
) -> None:  # fmt: skip
    """``build_masks``'s bits set with numpy, one position at a time."""
    for position in range(codes.shape[1]):
        column = codes[:, position]
        symbol = column.astype(np.int64)
        _set_bits(pos_masks, symbol + position * k)
        occurrence = np.zeros(len(codes), dtype=np.int64)  # earlier places with this symbol
        if width > 1:  # without repeats no symbol occurs twice: always its first occurrence
            for earlier in range(position):
                occurrence += codes[:, earlier] == column
        _set_bits(sym_masks, symbol * width + occurrence)


def _masks(n: int, total_bits: int) -> npt.NDArray[np.uint64]:
    return np.zeros((n, max(1, -(-total_bits // 64))), dtype=np.uint64)


def _set_bits(masks: npt.NDArray[np.uint64], bits: npt.NDArray[np.int64]) -> None:
    """Set bit ``bits[i]`` of row ``i`` of ``masks`` (its words, lowest first)."""
    one = np.left_shift(np.uint64(1), (bits & 63).astype(np.uint64))
    if masks.shape[1] == 1:
        masks[:, 0] |= one
        return
    word = bits >> 6
    for index in range(masks.shape[1]):
        masks[:, index] |= np.where(word == index, one, np.uint64(0))


def distinct(values: npt.NDArray[np.integer]) -> IndexArray:
    """The distinct values of an array of small non-negative integers (replies, code
    indices), in increasing order: ``np.unique``'s answer, without its loading of
    ``numpy.ma`` (milliseconds of a command's start-up).

    >>> distinct(np.array([5, 0, 5, 2], dtype=np.uint8)).tolist()
    [0, 2, 5]
    """
    return np.flatnonzero(np.bincount(values)) if len(values) else np.empty(0, dtype=np.int64)
