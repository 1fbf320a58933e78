"""Imported once by the process every pooled computation forks from (``compute.PRELOAD``):
the kernels a game uses compiled (or loaded from numba's cache) there, so that no
computation's process pays a compilation of a serial kernel (the parallel ones start
GNU OpenMP, after which a fork terminates the child). ``WARMED`` says it ran."""

from __future__ import annotations

from bullscows._kernels import compiled

compiled.warm_up(parallel=False)  # children fork from here: no OpenMP threads
#: Set once the kernels are warm in this process.
WARMED = True
