"""Installs bullscows (pyproject.toml says what); this file adds two optional extension modules.

``bullscows._kernels._trees_aot`` (a heuristic tree's serial builder) and
``bullscows._kernels._search_aot`` (the optimal search, the score matrix and the canonical
keys): kernels compiled ahead of time by ``numba.pycc`` (``python -m bullscows._kernels.build``,
in a process of its own for each), so that a small tree or search runs without loading numba.
When one cannot be compiled (no C compiler, a numba without pycc), the installation goes on
without it and the package uses numba's compilation.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = Path(__file__).resolve().parent / "src"
MAIN = "from bullscows._kernels.build import main; sys.exit(main(sys.argv[1:]))"


class AheadOfTime(build_ext):
    """Compiles the module with pycc rather than a C compiler's sources; leaves out a module
    whose compilation fails."""

    def build_extensions(self) -> None:
        for ext in list(self.extensions):
            output = Path(self.get_ext_fullpath(ext.name)).resolve()
            output.parent.mkdir(parents=True, exist_ok=True)
            # The build's own environment drops PYTHONPATH from the path: the source goes in here.
            run = f"import sys; sys.path.insert(0, {str(SOURCE)!r}); {MAIN}"
            completed = subprocess.run(
                [sys.executable, "-c", run, str(output)], capture_output=True, text=True
            )
            print(completed.stdout + completed.stderr, file=sys.stderr)
            if completed.returncode or not output.exists():
                print(f"warning: {ext.name} not compiled; numba's compilation will be used",
                      file=sys.stderr)  # fmt: skip
                self.extensions.remove(ext)


setup(
    ext_modules=[
        Extension(name, sources=[], optional=True)
        for name in ("bullscows._kernels._trees_aot", "bullscows._kernels._search_aot")
    ],
    cmdclass={"build_ext": AheadOfTime},
)
