"""Compile kernels ahead of time, into extension modules that load without numba
(``_kernels.ahead`` says which and when each is used).

Installing the package runs this (``setup.py``), in a process of its own for each module:

    python -m bullscows.precompile OUTPUT.so

``OUTPUT``'s name says which module: ``_trees_aot`` (a heuristic tree's builders) or
``_search_aot`` (the optimal search's entry points and the serial score and canonical-key
blocks). It compiles each njit function's own Python body with ``numba.pycc``, for the one
signature numba's compilation gives it when the package uses it on small work (so a kernel
whose arguments change is compiled with its new ones), for the CPU it runs on (as numba's
compilation is), with wrappers that release the GIL (as ``nogil=True`` does: the search's
threads run at once). The module also answers ``sources()``: the kernel modules it was
compiled from and a digest of their source (``ahead.source_digest``), by which a module
compiled from kernels since edited is left unused. Any failure (no C compiler, a numba
without ``pycc``) exits non-zero with the reason on stderr; the package then runs numba's
compilation.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bullscows._kernels import ahead


def _tree_kernels() -> dict[str, Any]:
    """A few small trees of every heuristic, built by numba's compilation, on this thread and
    on two: its builders."""
    from bullscows._kernels import drivers, trees
    from bullscows._kernels.tables import HEURISTICS
    from bullscows.knowledge import Knowledge
    from bullscows.rules import Rules
    from bullscows.strategies import get_strategy

    start = Knowledge.start(Rules.parse("mm"))
    for name in HEURISTICS:
        get_strategy(name).subtree(start)
    with drivers.on_threads(2):
        get_strategy("entropy").subtree(start)
    return {
        "build_serial": trees.build_serial,
        "open_parts": trees.open_parts,
        "build_parts": trees.build_parts,
    }


def _search_kernels() -> dict[str, Any]:
    """A small optimal search (a score matrix, canonical keys, every question of the
    search's Python side and the compiled search, its memo grown), by numba's compilation:
    the entry points it called."""
    from bullscows._kernels import canonical, scoring, search_calls, search_dfs, search_queries
    from bullscows._kernels.tables import CTX_EVERYTHING
    from bullscows.rules import Rules
    from bullscows.search import optimal_tree
    from bullscows.search.engine import Search
    from bullscows.universe import universe

    small = Rules.parse("p3c6r")
    optimal_tree(small)
    search = Search(small, "total", None, False)
    search.memo = search_calls.Memo(4)
    every = search.ctx[CTX_EVERYTHING]
    search_calls.solve(search.ctx, search.memo, universe(small).secrets, 9, 10**6, every)
    return {
        "solve": search_dfs.solve,
        "query": search_queries._query,
        "score_block_1": scoring._score_block_1,
        "canonical_block": canonical._canonical_block,
    }


#: Each module: the kernel modules it compiles, and what makes numba compile its functions.
MODULES: dict[str, tuple[list[str], Callable[[], dict[str, Any]]]] = {
    ahead.TREES: (["bullscows._kernels.trees"], _tree_kernels),
    ahead.SEARCH: (
        ["bullscows._kernels.search_queries", "bullscows._kernels.scoring",
         "bullscows._kernels.canonical"],
        _search_kernels,
    ),
}  # fmt: skip


def compile_module(output: Path) -> str:
    """Write the module ``output`` names (a file name with the extension's suffix); what it
    says it was compiled from (``sources()``)."""
    name = next((m for m in MODULES if output.name.startswith(m.rpartition(".")[2] + ".")), None)
    if name is None:
        raise ValueError(f"no module is compiled into {output.name!r}: one of {sorted(MODULES)}")
    os.environ[ahead.NO_AHEAD] = "1"  # every kernel by numba's compilation: its signatures
    kernel_modules, run = MODULES[name]
    for module in kernel_modules:
        importlib.import_module(module)
    modules = sorted(
        m for m in sys.modules if m.startswith("bullscows._kernels.") and not m.endswith("_aot")
    )
    sources = " ".join([*modules, ahead.source_digest(modules)])
    kernels = run()
    with warnings.catch_warnings():  # pycc is pending deprecation: so is this module
        warnings.simplefilter("ignore")
        pycc = importlib.import_module("numba.pycc")
    from numba import types

    cc = pycc.CC(name.rpartition(".")[2])
    cc.output_dir, cc.output_file = str(output.parent), output.name
    cc.target_cpu = "host"
    for export, dispatcher in kernels.items():
        signatures = list(dispatcher.signatures)
        if len(signatures) != 1:
            raise RuntimeError(f"{export} compiled for {len(signatures)} signatures, not 1")
        cc.export(export, signatures[0])(dispatcher.py_func)

    def source() -> str:
        return sources

    cc.export("sources", types.unicode_type())(source)
    _release_the_gil()
    cc.compile()
    return sources


def _release_the_gil() -> None:
    """Have pycc's wrappers release the GIL while the compiled function runs, as numba's
    ``nogil=True`` does (pycc compiles every function with flags of its own making, which
    leave it held): the flags it makes, in this process, say so."""
    compiler: Any = importlib.import_module("numba.pycc.compiler")

    class Releasing(compiler.Flags):  # type: ignore[misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    compiler.Flags = Releasing


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bullscows.precompile OUTPUT", file=sys.stderr)
        return 2
    try:
        sources = compile_module(Path(argv[0]).resolve())
    except Exception as error:
        print(f"{argv[0]} was not compiled ahead of time: {error!r}", file=sys.stderr)
        return 1
    print(f"compiled {argv[0]} from {sources}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
