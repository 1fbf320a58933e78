"""numba kernels: score codes held as bit masks, two popcounts a pair (see ``bits``).

The kernels live in ``scoring`` (reply matrices), ``partitions`` (part sizes and heuristic
costs), ``canonical`` (keys under symmetries), on ``bits`` (masks and popcounts) and
``drivers`` (serial or parallel runs); this module gathers what the rest of the project calls
and compiles it all ahead of a game (``warm_up``).
"""

from __future__ import annotations

import numpy as np

from bullscows._kernels import universe_kernels
from bullscows._kernels.bits import counter
from bullscows._kernels.canonical import _canonical_block, _canonical_parallel, canonical_keys
from bullscows._kernels.partitions import (
    PAIRWISE_MAX,
    _pairwise_block_1,
    _pairwise_parallel_1,
    _partition_block_1,
    _partition_parallel_1,
    guess_costs,
    partition_sizes,
)
from bullscows._kernels.scoring import _score_block_1, _score_parallel_1, score_matrix
from bullscows._kernels.tables import HEURISTICS, log_table, nlogn_table

__all__ = [
    "HEURISTICS",
    "PAIRWISE_MAX",
    "canonical_keys",
    "guess_costs",
    "log_table",
    "nlogn_table",
    "partition_sizes",
    "score_matrix",
    "warm_up",
]


def warm_up(parallel: bool = True) -> None:
    """Compile every kernel a game uses (or load it from numba's cache) on tiny inputs;
    the parallel ones too unless ``parallel`` is false (a process that others fork from
    must not start GNU OpenMP's threads: a child forked after that is terminated).

    The first run on a machine compiles for a few seconds; interactive commands call this in
    the background while a person reads the first prompt, so no move waits for it.
    """
    masks = np.array([1, 2, 4], dtype=np.uint64)
    out = np.zeros((3, 3), dtype=np.uint8)
    _score_block_1(masks, masks, masks, masks, 1, out, 0, 3)
    if parallel:
        _score_parallel_1(masks, masks, masks, masks, 1, out, 2, counter(), 2)
    sizes, costs = np.zeros((3, 4), dtype=np.int64), np.zeros(3, dtype=np.int64)
    table, logs = nlogn_table(3), log_table(3)
    _partition_block_1(masks, masks, masks, masks, 1, 4, 0, table, sizes, costs, 0, 3)
    if parallel:
        _partition_parallel_1(
            masks, masks, masks, masks, 1, 4, 0, table, sizes, costs, 2, counter(), 2
        )
    _pairwise_block_1(masks, masks, masks, masks, 1, 0, logs, costs, 0, 3)
    if parallel:
        _pairwise_parallel_1(masks, masks, masks, masks, 1, 0, logs, costs, 2, counter(), 2)
    universe_kernels.warm_up()
    codes = np.zeros((3, 1), dtype=np.int64)
    group = np.zeros((1, 1), dtype=np.int64)
    keys = np.zeros(3, dtype=np.int64)
    free = np.full(1, -1, dtype=np.int64)
    _canonical_block(codes, group, group, free, group, 1, keys, 0, 3)
    if parallel:
        _canonical_parallel(codes, group, group, free, group, 1, keys, 2, counter(), 2)
