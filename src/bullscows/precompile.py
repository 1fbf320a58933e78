"""Compile a heuristic tree's serial builder (``trees.build_serial``) ahead of time, into an
extension module that loads without numba (``_kernels.tree_build`` says when it is used).

Installing the package runs this (``setup.py``), in a process of its own:

    python -m bullscows.precompile OUTPUT.so

It compiles the njit function's own Python body with ``numba.pycc``, for the signature numba's
compilation gives it when a few small trees are built the way the package builds them (so a
kernel whose arguments change is compiled with its new ones), for the CPU it runs on (as
numba's compilation is). The module also answers ``sources()``: the kernel modules it was
compiled from and a digest of their source (``tree_build.source_digest``), by which a module
compiled from kernels since edited is left unused. Any failure (no C compiler, a numba without
``pycc``) exits non-zero with the reason on stderr; the package then runs numba's compilation.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path

from bullscows._kernels import tree_build


def compile_builder(output: Path) -> str:
    """Write the module to ``output`` (a file name with the extension's suffix); what it
    says it was compiled from (``sources()``)."""
    before = set(sys.modules)
    trees = importlib.import_module("bullscows._kernels.trees")
    modules = sorted(
        name
        for name in sys.modules
        if name.startswith("bullscows._kernels.") and name not in before
    )
    sources = " ".join([*modules, tree_build.source_digest(modules)])
    signatures = _signatures(trees.build_serial)
    if len(signatures) != 1:
        raise RuntimeError(f"trees.build_serial compiled for {len(signatures)} signatures, not 1")
    with warnings.catch_warnings():  # pycc is pending deprecation: so is this module
        warnings.simplefilter("ignore")
        pycc = importlib.import_module("numba.pycc")
    from numba import types

    cc = pycc.CC(tree_build.AHEAD_MODULE.rpartition(".")[2])
    cc.output_dir, cc.output_file = str(output.parent), output.name
    cc.target_cpu = "host"
    cc.export("build_serial", signatures[0])(trees.build_serial.py_func)

    def source() -> str:
        return sources

    cc.export("sources", types.unicode_type())(source)
    cc.compile()
    return sources


def _signatures(builder: object) -> list[object]:
    """The signatures numba's compilation gives ``builder`` when the package builds small
    trees of every heuristic, by numba's compilation alone."""
    from bullscows._kernels.tables import HEURISTICS
    from bullscows.knowledge import Knowledge
    from bullscows.rules import Rules
    from bullscows.strategies import get_strategy

    def jit_only() -> tuple[None, str]:
        return None, "compiling it"

    tree_build.ahead_of_time = jit_only  # type: ignore[assignment]
    start = Knowledge.start(Rules.parse("mm"))
    for name in HEURISTICS:
        get_strategy(name).subtree(start)
    return list(builder.signatures)  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bullscows.precompile OUTPUT", file=sys.stderr)
        return 2
    try:
        sources = compile_builder(Path(argv[0]).resolve())
    except Exception as error:
        print(f"the ahead-of-time tree builder was not compiled: {error!r}", file=sys.stderr)
        return 1
    print(f"compiled {argv[0]} from {sources}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
