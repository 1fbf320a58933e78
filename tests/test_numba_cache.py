"""numba's cache checks only the source file a function is defined in, not those of the
functions it calls: ``_kernels`` keeps it in a folder named by a digest of every kernel
module, so that editing one never leaves another's cached code running the old version."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import bullscows
from bullscows import _kernels
from bullscows._kernels import build
from cli.conftest import ENV, python

PACKAGE = Path(bullscows.__file__).resolve().parent

#: ``scoring._score_block_1`` calls ``bits.popcount``, defined in another module: 3 has two
#: bits set, so the reply index of a 1-position code against itself is 1 * 2 + 2 = 4.
SCORE = """
import numpy as np
from bullscows._kernels.scoring import _score_block_1
masks, out = np.array([3], np.uint64), np.zeros((1, 1), np.uint8)
_score_block_1(masks, masks, masks, masks, 1, out, 0, 1)
print(int(out[0, 0]), sum(_score_block_1.stats.cache_hits.values()))
"""


@pytest.mark.parametrize("given", [False, True], ids=["in-tree", "NUMBA_CACHE_DIR"])
def test_an_edited_callee_is_compiled_again(tmp_path: Path, given: bool) -> None:
    """After ``bits.py`` alone changes, the unchanged ``scoring.py``'s cached function is not
    loaded: the edited ``popcount`` (here: the value itself) runs."""
    copy = tmp_path / "src" / "bullscows"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    env = {**ENV, "PYTHONPATH": str(copy.parent), "HOME": str(tmp_path)}
    if given:
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")

    def run() -> list[int]:
        completed = python("-c", SCORE, env=env, timeout=300)
        assert completed.returncode == 0, completed.stderr
        return [int(word) for word in completed.stdout.split()]

    assert run()[0] == 4
    assert run() == [4, 1]  # loaded from the cache
    bits = copy / "_kernels" / "bits.py"
    text = bits.read_text()
    assert "builder.ctpop(args[0])" in text  # the line this test edits
    bits.write_text(text.replace("builder.ctpop(args[0])", "args[0]"))
    assert run() == [3 + 3, 0]  # compiled again from the edited callee
    assert run() == [6, 1]
    folders = tmp_path / "numba" if given else copy / "_kernels" / "__pycache__"
    assert len(list(folders.glob(_kernels.PREFIX + "*"))) == 2  # one per state of the sources


def test_the_folder_follows_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Named by the digest of the kernels' sources; inside a ``NUMBA_CACHE_DIR`` of the
    user's (once: a process started by this one inherits the folder already named); in the
    user's cache folder when the package's cannot be written."""
    copy = tmp_path / "_kernels"
    shutil.copytree(PACKAGE / "_kernels", copy, ignore=shutil.ignore_patterns("*.so"))
    monkeypatch.setattr(_kernels, "HERE", copy)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    folder = _kernels.numba_cache()
    assert folder.parent == copy / "__pycache__" and folder.is_dir()
    assert folder.name.startswith(_kernels.PREFIX)
    assert _kernels.numba_cache() == folder
    (copy / "tables.py").write_text((copy / "tables.py").read_text() + "\n")
    edited = _kernels.numba_cache()
    assert edited.parent == folder.parent and edited.name != folder.name
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert _kernels.numba_cache() == tmp_path / "mine" / edited.name
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine" / edited.name))
    assert _kernels.numba_cache() == tmp_path / "mine" / edited.name
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    shutil.rmtree(copy / "__pycache__")
    (copy / "__pycache__").write_text("")  # not a folder, whoever runs the tests
    assert _kernels.numba_cache() == tmp_path / "user" / "bullscows" / edited.name


def test_old_states_unused_for_a_day_are_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new folder clears out the folders of other states of the sources unused for a day,
    and numba's files of old in ``__pycache__`` itself; those used since are kept (a process
    still running the old kernels may write there), and Python's own files."""
    monkeypatch.setattr(_kernels, "HERE", tmp_path)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    (tmp_path / "trees.py").write_text("")
    cache = tmp_path / "__pycache__"
    old, recent = cache / f"{_kernels.PREFIX}old", cache / f"{_kernels.PREFIX}recent"
    for folder in (old, recent):
        (folder / "_kernels_0").mkdir(parents=True)
    kept = ["trees.cpython-311.pyc", "trees.open_parts-9.py311.nbi"]
    aged = [cache / "trees.build_serial-20.py311.nbi", cache / "trees.build_serial-20.py311.1.nbc"]
    for path in [*(cache / name for name in kept), *aged]:
        path.write_text("")
    day = _kernels.KEEP_UNUSED + 60
    for path in (old, old / "_kernels_0", *aged):
        os.utime(path, (path.stat().st_atime - day, path.stat().st_mtime - day))
    folder = _kernels.numba_cache()
    assert sorted(p.name for p in cache.iterdir()) == sorted([folder.name, recent.name, *kept])


def test_the_build_compiles_with_an_empty_cache_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``python -m bullscows._kernels.build`` compiles with an empty numba cache of its own,
    removed after, and leaves the process's setting as it found it."""
    seen: list[tuple[str, list[Path]]] = []

    def compile_module(output: Path) -> str:
        folder = os.environ["NUMBA_CACHE_DIR"]
        seen.append((folder, list(Path(folder).iterdir())))
        return "bullscows._kernels.trees 0"

    monkeypatch.setattr(build, "compile_module", compile_module)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert build.main([str(tmp_path / "_trees_aot.so")]) == 0
    [(folder, files)] = seen
    assert Path(folder).parent == tmp_path and files == []
    assert not Path(folder).exists() and os.environ["NUMBA_CACHE_DIR"] == str(tmp_path / "mine")
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert build.main([str(tmp_path / "_trees_aot.so")]) == 0
    assert "NUMBA_CACHE_DIR" not in os.environ and list(tmp_path.iterdir()) == []
