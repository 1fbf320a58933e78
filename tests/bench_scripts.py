"""The scripts of ``benchmarks/`` as modules, for the tests that run them in this process."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def load(name: str) -> ModuleType:
    """The benchmark script ``name`` (``scaling`` for ``benchmarks/scaling.py``), imported with
    its folder on the path while it loads, for the scripts it imports in turn."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))
