"""The types of the kernels compiled ahead of time at installation (``_kernels.build``), one
signature each, written out (the build runs no kernel to learn them): the arrays and tuples
``search_calls.context``, ``search_calls.Memo``, ``tree_build.build`` and ``ahead`` give them,
always of these types (the compiled modules trust them). A test holds them to the types numba's
compilation infers when the package runs the kernels.

>>> str(SIGNATURES[SEARCH]["solve"].return_type)
'int64'
"""

from __future__ import annotations

from typing import Any

from numba import types

from bullscows._kernels.ahead import SEARCH, TREES
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
    QUESTIONS,
    TREE_HISTORY,
    TREE_LOGS,
    TREE_PARAMS,
    TREE_POS,
    TREE_SYM,
    TREE_SYMMETRY,
)

INT = types.int64


def array(dtype: types.Type, ndim: int = 1, readonly: bool = False) -> types.Array:
    """A C-contiguous array (read-only: a table of ``tables`` such as ``log_table``)."""
    return types.Array(dtype, ndim, "C", readonly=readonly)


INTS, INTS_2D = array(INT), array(INT, 2)
MASKS = array(types.uint64)
REPLIES_2D = array(types.uint8, 2)


def by_place(items: dict[int, types.Type]) -> types.Tuple:
    """A tuple type whose item at each place (``tables.CTX_*``, ``TREE_*``) is given."""
    return types.Tuple([items[place] for place in range(len(items))])


#: ``search_calls.context``.
SEARCH_CONTEXT = by_place({
    CTX_SCORES: REPLIES_2D, CTX_CAPS: INTS, CTX_VALID: array(types.uint8), CTX_WIN: INT,
    CTX_KEYS: INTS_2D, CTX_STATS: INTS, CTX_CAPPED: types.boolean,
    CTX_CONSISTENT: types.boolean, CTX_EVERYTHING: INTS, CTX_SLOTS: INT, CTX_WEIGHT: INT,
    CTX_PENALTY: INT, CTX_STOP: INTS, CTX_ROWS: INTS, CTX_SHARED: INTS, CTX_SHARE_FROM: INT,
    CTX_TRAFFIC: INTS,
})  # fmt: skip
assert len(SEARCH_CONTEXT) == CONTEXT
#: ``search_calls.Memo.arrays``: its table, its state and its base.
MEMO = types.UniTuple(INTS, 3)
#: ``tree_build.build``'s context: masks, parameters, logarithms (read-only), history and the
#: symmetry arrays.
TREE_CONTEXT = by_place({
    TREE_POS: MASKS, TREE_SYM: MASKS, TREE_PARAMS: INTS, TREE_LOGS: array(INT, readonly=True),
    TREE_HISTORY: INTS, TREE_SYMMETRY: types.Tuple((INTS_2D, INTS_2D, INTS, INTS_2D)),
})  # fmt: skip
#: A tree as the builders write it: guesses, parents, replies, and the next free row.
TREE = types.UniTuple(INTS, 4)

#: For each module, each exported name: the kernel (module, function) and its signature.
SIGNATURES: dict[str, dict[str, Any]] = {
    TREES: {
        "build_serial": types.none(INTS, TREE_CONTEXT, TREE, INTS),
        "open_parts": INTS_2D(INTS, TREE_CONTEXT, TREE, INTS, INT),
        "build_parts": types.none(INTS, INTS_2D, INTS, INTS, TREE_CONTEXT, TREE, INTS),
    },
    SEARCH: {
        "solve": INT(SEARCH_CONTEXT, MEMO, INTS, INT, INT, INTS),
        # the questions of ``search_queries``
        "guess_order": types.Tuple((INTS, INTS, INT))(SEARCH_CONTEXT, INTS, INTS, INT, INT),
        "parts": types.UniTuple(INTS, 4)(SEARCH_CONTEXT, INTS, INT),
        "ahead": types.Tuple((INTS, INTS, INTS, INTS, INT, INTS))(
            SEARCH_CONTEXT, MEMO, INTS, INT, INT, INT, INT
        ),
        "aheads": INTS(SEARCH_CONTEXT, MEMO, INTS, INTS, INTS, INT, INT),
        "best_guess": INT(SEARCH_CONTEXT, MEMO, INTS, INT),
        "ideal_cost": INT(SEARCH_CONTEXT, INT, INT),
        "perfect": INT(SEARCH_CONTEXT, INTS),
        "bounds": types.UniTuple(INTS, 4)(SEARCH_CONTEXT, INTS, INTS, INT),
        "grow_memo": INTS(MEMO, INT),
        "try_guess": INT(SEARCH_CONTEXT, MEMO, INTS, INT, INT, INT, INTS, INT),
        "score_block_1": types.none(MASKS, MASKS, MASKS, MASKS, INT, REPLIES_2D, INT, INT),
        "canonical_block": types.none(
            INTS_2D, INTS_2D, INTS_2D, INTS, INTS_2D, INT, INTS, INT, INT
        ),
    },
}
#: Where each exported kernel is: (module of ``_kernels``, function).
KERNELS: dict[str, tuple[str, str]] = {
    "build_serial": ("trees", "build_serial"),
    "open_parts": ("trees", "open_parts"),
    "build_parts": ("trees", "build_parts"),
    "solve": ("search_dfs", "solve"),
    **{question: ("search_queries", question) for question in QUESTIONS},
    "try_guess": ("search_split", "try_guess"),
    "score_block_1": ("scoring", "_score_block_1"),
    "canonical_block": ("canonical", "_canonical_block"),
}
