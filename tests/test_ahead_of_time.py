"""The kernels compiled ahead of time at installation (by ``_kernels.build``): the
heuristic tree's serial builder builds the trees numba's compilation builds, the optimal
search finds the trees it finds, and a small tree or search then loads no numba at all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import bullscows
from bullscows import Rules, score
from bullscows._kernels import ahead, drivers, tree_build, trees
from bullscows._kernels.tables import QUESTIONS
from bullscows.cli import main
from bullscows.knowledge import Knowledge
from bullscows.strategies import get_strategy
from bullscows.tree import load_tree
from cli.conftest import ENV, python

#: The processes run the package these tests import (its kernels and compiled modules), not
#: whichever copy is installed.
HERE = {**ENV, "PYTHONPATH": str(Path(bullscows.__file__).resolve().parents[1])}


@pytest.mark.parametrize(
    ("name", "kernels"),
    [
        (ahead.TREES, ["tree_guess", "trees"]),
        (ahead.SEARCH, ["canonical", "scoring", "search_dfs", "search_memo", "search_queries"]),
    ],
)
def test_the_modules_are_installed(name: str, kernels: list[str]) -> None:
    """Installing the package (``pip install -e .``) compiles them: a failed or stale build
    would otherwise go unnoticed, every tree and search then run by numba's compilation."""
    module, why = ahead.load(name)
    assert module is not None, f"{name} is {why}"
    assert {f"bullscows._kernels.{kernel}" for kernel in kernels} <= set(why.split()), why


def arguments(knowledge: Knowledge, name: str, consistent_only: bool) -> tuple[Any, ...]:
    """What the strategy gives ``tree_build.build`` for the tree below ``knowledge``."""
    given: list[tuple[Any, ...]] = []

    def keep(*args: Any) -> tuple[Any, ...]:
        given.append(args)
        return build(*args)

    build = tree_build.build
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tree_build, "build", keep)
        get_strategy(name, consistent_only=consistent_only).subtree(knowledge)
    (args,) = given
    return args


def refuse(*args: Any) -> None:
    raise AssertionError("numba's compilation ran")


@pytest.mark.parametrize("name", ["minimax", "expected-size", "entropy", "most-parts"])
@pytest.mark.parametrize("spec", ["bc", "mm", "p5c7n", "p3c5n:guesses=p3c5r", "bc-nolead"])
def test_ahead_of_time_and_numba_build_the_same_trees(spec: str, name: str) -> None:
    """On one thread and on several (the parts below the first levels shared out)."""
    start = Knowledge.start(Rules.parse(spec))
    guess = start.code(int(start.candidates[-1]))
    later = start.after(guess, score(start.code(int(start.candidates[0])), guess))
    for knowledge, consistent_only in [(start, False), (start, True), (later, False)]:
        args = arguments(knowledge, name, consistent_only)
        jit = tree_build.build(*args, ahead=False)
        with pytest.MonkeyPatch.context() as patch:  # the compiled module alone, no numba
            for kernel in ("build_serial", "open_parts", "build_parts"):
                patch.setattr(trees, kernel, refuse)
            aot = tree_build.build(*args)
            with drivers.on_threads(2):
                aot_threads = tree_build.build(*args)
            with drivers.on_threads(3):
                three = tree_build.build(*args)
        with drivers.on_threads(2):
            jit_threads = tree_build.build(*args, ahead=False)
        for a, b in [(jit, aot), (jit_threads, aot_threads)]:  # the same rows
            assert len(a) == len(b) == 4
            assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
        # on threads the parts' rows come in another order: the same tree all the same
        assert paths(jit) == paths(aot_threads) == paths(three)
        assert np.array_equal(jit[3], three[3])


def paths(built: tuple[Any, ...]) -> dict[tuple[int, ...], int]:
    """A built tree as the guess at each path of replies from the root."""
    guesses, parents, replies, _ = built
    found: dict[int, tuple[int, ...]] = {}
    for row in np.flatnonzero(guesses >= 0).tolist():  # parents before children
        parent = int(parents[row])
        found[row] = () if parent < 0 else (*found[parent], int(replies[row]))
    return {path: int(guesses[row]) for row, path in found.items()}


def test_a_stale_or_missing_module_leaves_the_trees_to_numba(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A module compiled from kernels since edited is not used, and the trees are the same."""
    args = arguments(Knowledge.start(Rules.parse("mm")), "entropy", False)
    expected = tree_build.build(*args)
    ahead.load.cache_clear()
    monkeypatch.setattr(ahead, "source_digest", lambda modules: "edited since")
    try:
        module, why = ahead.load(ahead.TREES)
        assert module is None and why.startswith("stale")
        ran: list[int] = []
        serial = trees.build_serial
        monkeypatch.setattr(trees, "build_serial", lambda *a: ran.append(1) or serial(*a))
        for a, b in zip(expected, tree_build.build(*args), strict=True):
            assert np.array_equal(a, b)
        assert ran == [1]
        ahead.load.cache_clear()  # a module that is not one compiled here
        module, why = ahead.load("bullscows._kernels.tables")
        assert module is None and why.startswith("not usable")
        ahead.load.cache_clear()
        monkeypatch.setenv(ahead.NO_AHEAD, "1")
        assert ahead.load(ahead.TREES) == (None, f"not used ({ahead.NO_AHEAD} is set)")
    finally:
        ahead.load.cache_clear()


MISSING = """
import sys
sys.modules["bullscows._kernels._trees_aot"] = None  # as if it could not be compiled
from bullscows.cli import main
main({args!r}, standalone_mode=False)
from bullscows._kernels import trees
from bullscows._kernels import ahead
print(ahead.load(ahead.TREES)[1], bool(trees.build_serial.signatures), file=sys.stderr)
"""

COMMANDS = [
    ["tree", "--rules", "bc", "--strategy", "entropy"],
    ["tree", "--rules", "mm", "--strategy", "minimax", "--consistent-only"],
    ["tree", "--rules", "p4c9n", "--strategy", "expected-size", "--format", "text", "--depth", "2"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[2])
def test_without_the_module_a_command_prints_the_same(
    args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """In a process where the module cannot be imported, numba's compilation builds the
    tree, and the command prints what it prints with the module."""
    assert main(args, standalone_mode=False) in (None, 0)
    expected = capsys.readouterr().out
    completed = python("-c", MISSING.format(args=args), env=HERE, timeout=300)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout == expected
    assert completed.stderr.splitlines()[-1].startswith("not built (import of ")
    assert completed.stderr.split()[-1] == "True"


LOADED = """
import sys
from bullscows.cli import main
main({args!r}, standalone_mode=False)
print(sorted(m for m in ("numba", "llvmlite") if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize("args", COMMANDS, ids=lambda args: args[2])
def test_a_small_heuristic_tree_loads_no_numba(args: list[str]) -> None:
    completed = python("-c", LOADED.format(args=args), env=HERE, timeout=300)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr.splitlines()[-1] == "[]"
    assert "total" in completed.stdout or "\n" in completed.stdout


WITHOUT_PYCC = """
import sys
sys.modules["numba.pycc"] = None  # a numba without pycc
from bullscows._kernels.build import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_build_that_cannot_compile_says_why(tmp_path: Path) -> None:
    """``setup.py`` goes on without the module when this fails (exit 1 and the reason)."""
    output = tmp_path / "_trees_aot.so"
    completed = python("-c", WITHOUT_PYCC, str(output), env=HERE, timeout=300)
    assert completed.returncode == 1
    assert f"{output} was not compiled ahead of time: " in completed.stderr
    assert "numba.pycc" in completed.stderr and not output.exists()
    other = str(tmp_path / "_other.so")
    unknown = python("-m", "bullscows._kernels.build", other, env=HERE, timeout=300)
    assert unknown.returncode == 1 and "no module is compiled into '_other.so'" in unknown.stderr


SEARCH_RUN = """
import sys
{missing}
from bullscows.cli import main
main({args!r}, standalone_mode=False)
from bullscows._kernels import search_calls
print(search_calls.kernels().origin, file=sys.stderr)
"""
#: As if ``_search_aot`` could not be compiled (or numba had no ``pycc``).
SEARCH_MISSING = 'sys.modules["bullscows._kernels._search_aot"] = None'


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "--rules", "p4c7n", "--strategy", "optimal"],
        ["tree", "--rules", "p3c8n", "--strategy", "optimal-worst", "--jobs", "2"],
    ],
    ids=["one", "jobs"],
)
def test_without_the_search_module_the_search_finds_the_same_tree(
    args: list[str], tmp_path: Path
) -> None:
    """Without ``_search_aot`` (no C compiler at installation, or a numba without ``pycc``,
    which numba deprecates) numba compiles the search at run time: the same tree."""
    trees = []
    for missing in ("", SEARCH_MISSING):
        out = tmp_path / f"{bool(missing)}.json"
        env = {**HERE, "BULLSCOWS_CACHE": str(tmp_path / f"cache-{bool(missing)}")}
        script = SEARCH_RUN.format(missing=missing, args=[*args, "--out", str(out)])
        completed = python("-c", script, env=env, timeout=600)
        assert completed.returncode == 0, completed.stderr
        origin = completed.stderr.splitlines()[-1]
        assert origin.startswith("numba's compilation (module not built" if missing else "ahead")
        trees.append(load_tree(out).root)
    assert trees[0] == trees[1]


INFERRED = """
import os
os.environ["BULLSCOWS_NO_AHEAD"] = "1"  # every kernel by numba's compilation
import importlib
from bullscows import Rules
from bullscows._kernels import drivers, search_calls
from bullscows._kernels.signatures import KERNELS, SIGNATURES
from bullscows._kernels.tables import CTX_EVERYTHING, HEURISTICS
from bullscows.knowledge import Knowledge
from bullscows.search import optimal_tree
from bullscows.search.engine import Search
from bullscows.search.options import SearchOptions
from bullscows.search.split import Split
from bullscows.search.state import SearchState
from bullscows.strategies import get_strategy
from bullscows.universe import universe

start = Knowledge.start(Rules.parse("mm"))
for name in HEURISTICS:  # a tree of each heuristic, on one thread and on two
    get_strategy(name).subtree(start)
with drivers.on_threads(2):
    get_strategy("entropy").subtree(start)
small = Rules.parse("p3c6r")
optimal_tree(small)  # every question of the search, and a memo grown
search = SearchState(SearchOptions(small))
search.memo = search_calls.Memo(4)
every = search.ctx[CTX_EVERYTHING]
search_calls.solve(search.ctx, search.memo, universe(small).secrets, 9, 10**6, every)
shared = Search(SearchOptions(small))
shared.state.memo = search_calls.Memo(4)
Split(shared, universe(small).secrets, 9, 10**6, ((0, 1), (1, 1))).solve()  # try_guess
for module in SIGNATURES.values():
    for export, declared in module.items():
        name, function = KERNELS[export]
        kernel = getattr(importlib.import_module("bullscows._kernels." + name), function)
        inferred = [kernel.overloads[args].signature for args in kernel.signatures]
        print(export, inferred == [declared])
"""


def test_the_signatures_written_out_are_those_numba_infers() -> None:
    """The modules trust their arguments' types: the signatures ``_kernels.build`` compiles
    (``_kernels.signatures``) are the ones numba's compilation gives the kernels as the
    package calls them, return types included."""
    completed = python("-c", INFERRED, env=HERE, timeout=600)
    assert completed.returncode == 0, completed.stderr
    exports = ["build_serial", "open_parts", "build_parts", "solve", *QUESTIONS, "try_guess",
               "score_block_1", "canonical_block"]  # fmt: skip
    assert completed.stdout.split() == [word for export in exports for word in (export, "True")]
