"""Compile kernels ahead of time, into extension modules that load without numba
(``_kernels.ahead`` says which and when each is used).

Installing the package runs this (``setup.py``), in a process of its own for each module:

    python -m bullscows._kernels.build OUTPUT.so

where ``OUTPUT`` is ``_trees_aot`` or ``_search_aot``. Any failure exits non-zero with the
reason on stderr; how the build works is in docs/kernels.md. It compiles with an empty numba
cache of its own, removed after, so that no function compiled before (from other sources, or
by another numba) is built into the module.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

from bullscows._kernels import ahead, use_numba_cache


def compile_module(output: Path) -> str:
    """Write the module ``output`` names (a file name with the extension's suffix); what it
    says it was compiled from (``sources()``). Numba's cache is the one set when the kernels
    were first imported (``main`` sets an empty one)."""
    from bullscows._kernels.signatures import KERNELS, SIGNATURES

    found = (m for m in SIGNATURES if output.name.startswith(m.rpartition(".")[2] + "."))
    name = next(found, None)
    if name is None:
        raise ValueError(f"no module is compiled into {output.name!r}: one of {sorted(SIGNATURES)}")
    kernels = {
        export: getattr(importlib.import_module(f"bullscows._kernels.{module}"), function)
        for export, (module, function) in KERNELS.items()
        if export in SIGNATURES[name]
    }
    modules = sorted(
        m for m in sys.modules if m.startswith("bullscows._kernels.") and not m.endswith("_aot")
    )
    sources = " ".join([*modules, ahead.source_digest(modules)])
    with warnings.catch_warnings():  # pycc is pending deprecation: so is this module
        warnings.simplefilter("ignore")
        pycc = importlib.import_module("numba.pycc")
    from numba import types

    cc = pycc.CC(name.rpartition(".")[2])
    cc.output_dir, cc.output_file = str(output.parent), output.name
    cc.target_cpu = "host"
    for export, dispatcher in kernels.items():
        cc.export(export, SIGNATURES[name][export])(dispatcher.py_func)

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
        print("usage: python -m bullscows._kernels.build OUTPUT", file=sys.stderr)
        return 2
    given = os.environ.get("NUMBA_CACHE_DIR", "")
    try:
        with tempfile.TemporaryDirectory(prefix="bullscows-build-") as cache:
            use_numba_cache(cache)  # before numba is imported
            sources = compile_module(Path(argv[0]).resolve())
    except Exception as error:
        print(f"{argv[0]} was not compiled ahead of time: {error!r}", file=sys.stderr)
        return 1
    finally:
        use_numba_cache(given)
    print(f"compiled {argv[0]} from {sources}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
