"""A heuristic's whole tree, built by the compiled kernels of ``_kernels.trees``, on one
thread or several by the work's size; without loading numba when it can.

Installing the package compiles ``trees.build_serial`` ahead of time into the extension module
``_trees_aot`` (``bullscows.precompile`` builds it; a build that fails leaves it out, and nothing
else changes). Loading numba and its first cached function costs a process about 0.4 s, more
than the whole tree of ``bc`` takes; the module loads in a millisecond. So a tree small enough
for one thread is built by the module, when it is there and was built from the kernels' source
as it stands (an edited kernel makes it stale: numba's own compilation then runs, until the
package is installed again); a larger tree, or any tree without the module, by numba's.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

#: Work (guesses times candidates at the root) from which a tree is built on several threads.
PARALLEL_WORK = 50_000_000
#: Parts open before the threads start, per thread (several, so that none waits long).
PARTS_PER_THREAD = 8
#: The module ``bullscows.precompile`` compiles at installation.
AHEAD_MODULE = "bullscows._kernels._trees_aot"

Int64s = npt.NDArray[np.int64]


def source_digest(modules: list[str]) -> str:
    """A digest of the source files of ``modules`` (modules of this package), by which a
    compiled module tells whether it was built from the source as it stands."""
    digest = hashlib.sha256()
    for name in modules:
        path = Path(__file__).parent / f"{name.rpartition('.')[2]}.py"
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@cache
def ahead_of_time() -> tuple[ModuleType | None, str]:
    """The ahead-of-time compiled builder, or ``None``; and why not (or which it is).

    Its ``sources()`` names the modules it was compiled from and their ``source_digest``."""
    import importlib

    try:
        module = importlib.import_module(AHEAD_MODULE)
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


def _c(array: npt.NDArray[np.generic], dtype: type[np.generic] = np.int64) -> npt.NDArray[Any]:
    return np.ascontiguousarray(array, dtype=dtype)


def build(
    pos: npt.NDArray[np.uint64], sym: npt.NDArray[np.uint64], candidates: Int64s,
    params: Int64s, logs: Int64s, history: Int64s, symmetry: tuple[Int64s, ...],
    ahead: bool = True,
) -> tuple[Int64s, ...]:  # fmt: skip
    """The tree below ``candidates`` (sorted): each node's guess, parent row (-1 at the root)
    and the reply leading to it, in rows (parents before children; a row of guess -1 is
    unused), and the guesses each code needs (indexed by code). ``ahead=False``: by numba's
    compilation even when the ahead-of-time module would do."""
    order = np.array(candidates, dtype=np.int64)
    size = 2 * len(order)
    guesses = np.full(size, -1, dtype=np.int64)
    tree = (guesses, np.full(size, -1, dtype=np.int64), np.full(size, -1, dtype=np.int64),
            np.zeros(1, dtype=np.int64))  # fmt: skip
    counts = np.zeros(len(pos), dtype=np.int64)
    # The compiled module trusts its arguments' types (numba's dispatcher checks them): the
    # same kinds of arrays always, as when its signature was taken.
    ctx = (_c(pos, np.uint64), _c(sym, np.uint64), _c(params), _c(logs), _c(history),
           tuple(_c(a) for a in symmetry))  # fmt: skip
    compiled = ahead_of_time()[0] if ahead else None
    if len(pos) * len(order) < PARALLEL_WORK and compiled is not None:
        compiled.build_serial(order, ctx, tree, counts)
        return guesses, tree[1], tree[2], counts
    from bullscows._kernels import drivers, trees

    threads = drivers.threads_for(len(pos) * len(order), PARALLEL_WORK)
    if threads > 1:
        trees.build_parallel(order, ctx, tree, counts, threads, PARTS_PER_THREAD * threads)
    else:
        trees.build_serial(order, ctx, tree, counts)
    return guesses, tree[1], tree[2], counts
