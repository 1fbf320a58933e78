"""Scoring kernels over integer arrays.

This package holds the only modules of the project that import numba (``compiled`` gathers
the scoring kernels, ``trees`` a heuristic's tree builders, ``search_dfs`` the optimal search,
``search_memo`` its memo, ``search_queries`` the other questions its Python levels ask and
``universe_kernels`` a large universe's arrays);
``reference`` is their pure-Python twin, the definition the tests hold the compiled kernels
to. ``build``, run at installation, compiles the tree builders and the search ahead of time
for the types ``signatures`` writes out, and ``ahead`` loads those modules without numba:
``tables``, ``tree_build``, ``search_calls`` and ``ahead`` load no numba, so that a heuristic
tree of codes held in one word and every search need none. Import ``compiled`` only where a
command needs it, so that ``bullscows --help`` stays fast.

numba's cache checks only the source file a function is defined in, not those of the
functions it calls: importing this package points numba's cache at a folder named by a digest
of every module here (``numba_cache``), so that an edited kernel leaves no stale code cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import time
from pathlib import Path

# Numba colours its error messages with colorama when that is installed, and colorama swaps
# sys.stdout and sys.stderr for the whole process meanwhile: a kernel compiled on another
# thread (``compiled.warm_up`` while a game starts) would then leave a command writing to a
# stream it had replaced. Every numba import goes through this package; numba reads this once.
os.environ["NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"] = "1"

HERE = Path(__file__).resolve().parent
#: The prefix of a folder of numba's cache for one state of the kernels' sources.
PREFIX = "bullscows-"
#: Another state's folder unused this long (seconds) is removed when a new one is made.
KEEP_UNUSED = 24 * 3600


def source_digest(modules: list[str]) -> str:
    """A digest of the source files of ``modules`` (modules of this package), by which a
    compiled module tells whether it was built from the source as it stands."""
    digest = hashlib.sha256()
    for name in modules:
        path = HERE / f"{name.rpartition('.')[2]}.py"
        digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def numba_cache() -> Path:
    """The folder numba caches the kernels in: one per state of this package's sources, under
    ``$NUMBA_CACHE_DIR`` when set, else this package's ``__pycache__`` when writable, else
    the user's cache folder (or the temporary one)."""
    modules = sorted(f"{__name__}.{path.stem}" for path in HERE.glob("*.py"))
    name = PREFIX + source_digest(modules)[:16]
    given = os.environ.get("NUMBA_CACHE_DIR", "")
    if given:  # a process this one started inherits the folder already named
        return Path(given) if Path(given).name == name else Path(given) / name
    if _writable(HERE / "__pycache__" / name):
        return HERE / "__pycache__" / name
    import tempfile  # not loaded otherwise, as shutil below (a few ms)

    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bullscows"
    for base in (user, Path(tempfile.gettempdir())):
        if _writable(base / name):
            return base / name
    return HERE / "__pycache__" / name  # numba falls back to its own folders


def _writable(folder: Path) -> bool:
    """Whether ``folder`` is (or was just made) a writable folder; a new one clears out what
    other states of the sources left beside it unused for ``KEEP_UNUSED``: their folders, and
    the files numba kept in ``__pycache__`` itself before this folder was named."""
    if folder.is_dir():
        return os.access(folder, os.W_OK)
    try:
        folder.mkdir(parents=True)
    except OSError:
        return False
    import shutil

    for pattern in (PREFIX + "*", "*.nbi", "*.nbc"):
        for other in folder.parent.glob(pattern):
            if other != folder and time.time() - _last_used(other) > KEEP_UNUSED:
                if other.is_dir():
                    shutil.rmtree(other, ignore_errors=True)
                else:
                    other.unlink(missing_ok=True)
    return True


def _last_used(path: Path) -> float:
    """When numba last wrote ``path`` (a folder's files lie one folder down)."""
    try:
        return max(entry.stat().st_mtime for entry in (path, *path.glob("*")))
    except OSError:
        return time.time()


def use_numba_cache(folder: str) -> None:
    """Have numba cache the functions defined from now on in ``folder`` ("": numba's own
    folders); numba reads it when imported, or takes it at once if it already is."""
    if folder:
        os.environ["NUMBA_CACHE_DIR"] = folder
    else:
        os.environ.pop("NUMBA_CACHE_DIR", None)
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = folder  # type: ignore[attr-defined]


with contextlib.suppress(OSError):  # sources that cannot be read: numba's own folders
    use_numba_cache(str(numba_cache()))
