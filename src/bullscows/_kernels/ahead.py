"""The kernels compiled ahead of time at installation (``_kernels.build``), which load
without numba: ``_trees_aot``, a heuristic tree's serial builder (``tree_build`` calls it), and
``_search_aot``, the optimal search's entry points (``search_calls``) and the serial
blocks of the score matrix and of the canonical keys (called here). When each is used, or left
unused as stale, is in docs/kernels.md.

>>> keys = canonical_keys(np.array([[0, 1], [1, 0]]), np.array([[0, 1], [1, 0]]),
...                       np.array([[0, 1], [0, 1]]), np.array([-1, -1]), np.array([[-1]]), 2)
>>> keys.tolist()
[1, 1]
"""

from __future__ import annotations

import importlib
import os
from functools import cache
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows._kernels import source_digest

#: The modules ``_kernels.build`` compiles.
TREES = "bullscows._kernels._trees_aot"
SEARCH = "bullscows._kernels._search_aot"
#: Set (to anything but "" or "0"), every module compiled ahead of time is left unused.
NO_AHEAD = "BULLSCOWS_NO_AHEAD"
#: Pairs below which a score matrix or canonical keys are computed on the calling thread by
#: ``_search_aot`` (``bc``'s 25M scores take about 30 ms; numba's threads would save some
#: of that, and cost the 0.4 s of loading numba first).
AHEAD_PAIRS = 1 << 26

Masks = npt.NDArray[np.uint64]
Int64s = npt.NDArray[np.int64]


@cache
def load(name: str) -> tuple[ModuleType | None, str]:
    """The module ``name`` compiled ahead of time, or ``None``; and why not (or what it was
    compiled from)."""
    if os.environ.get(NO_AHEAD, "") not in ("", "0"):
        return None, f"not used ({NO_AHEAD} is set)"
    try:
        module = importlib.import_module(name)
    except ImportError as error:
        return None, f"not built ({error})"
    try:
        names, _, digest = module.sources().rpartition(" ")
        current = source_digest(names.split()) == digest
    except (AttributeError, OSError) as error:  # not one this version compiled
        return None, f"not usable ({error})"
    if not current:
        return None, "stale: compiled from kernels since edited (install the package again)"
    return module, f"compiled from {names}"


def contiguous(
    array: npt.NDArray[np.generic], dtype: type[np.generic] = np.int64
) -> npt.NDArray[Any]:
    """``array`` as the compiled modules take it: contiguous, of ``dtype`` (they trust the
    types of their arguments; numba's dispatcher checks them)."""
    return np.ascontiguousarray(array, dtype=dtype)


def score_matrix(
    pos_a: Masks, sym_a: Masks, pos_b: Masks, sym_b: Masks, length: int, out: npt.NDArray[np.uint8]
) -> None:
    """``out[i, j]`` = reply index of code ``i`` of a against code ``j`` of b
    (``scoring.score_matrix``)."""
    search = load(SEARCH)[0]
    one_word = all(m.ndim == 1 or m.shape[1] == 1 for m in (pos_a, sym_a))
    if search is not None and one_word and len(pos_a) * len(pos_b) < AHEAD_PAIRS:
        masks = [contiguous(m.reshape(len(m)), np.uint64) for m in (pos_a, sym_a, pos_b, sym_b)]
        search.score_block_1(*masks, length, out, 0, len(pos_a))
        return
    from bullscows._kernels import compiled

    compiled.score_matrix(pos_a, sym_a, pos_b, sym_b, length, out)


def canonical_keys(
    codes: Int64s, perms: Int64s, tables: Int64s, free_group: Int64s, free_labels: Int64s,
    base: int,
) -> Int64s:  # fmt: skip
    """For each code, the smallest key of its images under a group (``canonical``)."""
    search = load(SEARCH)[0]
    if search is None or len(codes) * len(perms) >= AHEAD_PAIRS:
        from bullscows._kernels import compiled

        return compiled.canonical_keys(codes, perms, tables, free_group, free_labels, base)
    keys = np.empty(len(codes), dtype=np.int64)
    arrays = [contiguous(a) for a in (codes, perms, tables, free_group, free_labels)]
    search.canonical_block(*arrays, base, keys, 0, len(codes))
    return keys


__all__ = [
    "SEARCH", "TREES", "canonical_keys", "contiguous", "load", "score_matrix", "source_digest",
]  # fmt: skip
