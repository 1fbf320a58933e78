"""The optimal search's kernels compiled ahead of time (``_kernels.ahead``, ``search_calls``)
find the trees numba's compilation finds, after the same sets; they release the GIL; and a
search then loads no numba at all."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np
import pytest

from bullscows import Rules
from bullscows._kernels import ahead, compiled, search_calls
from bullscows._kernels.tables import CTX_EVERYTHING, CTX_STOP, QUESTIONS, STOPPED
from bullscows.search import optimal_tree
from bullscows.search.options import Objective, SearchOptions
from bullscows.search.state import SearchState
from bullscows.universe import universe
from cli.conftest import python

SEARCHES: list[tuple[str, Objective, int | None, bool]] = [
    ("mm", "total", None, False),
    ("mm", "worst-count", None, True),
    ("p3c6n", "total", 5, False),
    ("p4c6n", "worst", None, False),
    ("p3c5r", "total-worst", None, False),
]


@pytest.mark.parametrize("search", SEARCHES, ids=lambda s: "-".join(map(str, s)))
def test_ahead_of_time_and_numba_search_alike(
    search: tuple[str, Objective, int | None, bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, objective, max_depth, consistent_only = search
    rules = Rules.parse(spec)
    assert search_calls.kernels().origin.startswith("ahead of time")
    aot = optimal_tree(rules, objective, max_depth, consistent_only)
    jit = search_calls.kernels(ahead=False)
    assert jit.origin.startswith("numba's compilation")
    monkeypatch.setattr(search_calls, "kernels", lambda: jit)
    numba = optimal_tree(rules, objective, max_depth, consistent_only)
    assert (aot.total, aot.worst, aot.nodes) == (numba.total, numba.worst, numba.nodes)
    assert aot.tree == numba.tree


def test_scores_and_canonical_keys_ahead_of_time_are_numba_s() -> None:
    u = universe(Rules.parse("bc"))
    rows, cols = u.all()[::7], u.all()[3::5]
    expected = np.empty((len(rows), len(cols)), dtype=np.uint8)
    masks = (u._pos[rows], u._sym[rows], u._pos[cols], u._sym[cols])
    compiled.score_matrix(*masks, u.length, expected)
    assert ahead.load(ahead.SEARCH)[0] is not None
    assert np.array_equal(u.score_matrix(rows, cols), expected)
    codes = u.codes.astype(np.int64)
    perms = np.array([[0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0]], dtype=np.int64)
    tables = np.array([np.arange(10), np.arange(10)[::-1], np.roll(np.arange(10), 3)])
    free_group = np.full(10, -1, dtype=np.int64)
    free_group[[7, 8, 9]] = 0
    labels = np.array([[7, 8, 9]], dtype=np.int64)
    args = (codes, perms, tables, free_group, labels, 10)
    assert np.array_equal(ahead.canonical_keys(*args), compiled.canonical_keys(*args))


def test_the_compiled_search_releases_the_gil() -> None:
    """While one thread searches in the module, another runs: it sees the search's counters
    move and tells it to stop, and it stops at once (with the GIL held, the other thread
    could run only once the search had ended: a cost, not ``STOPPED``)."""
    search = SearchState(SearchOptions(Rules.parse("p4c6n")))  # seconds of search
    every = search.ctx[CTX_EVERYTHING]
    answers: list[int] = []

    def run() -> None:
        compiled = search_calls.kernels().solve  # one call: no pause between two
        answers.append(compiled(search.ctx, search.memo.arrays, every, 99, 10**9, every))

    worker = threading.Thread(target=run)
    worker.start()
    while not search.stats[0] and worker.is_alive():
        pass
    search.ctx[CTX_STOP][0] = 1
    worker.join()
    assert answers == [STOPPED]


def test_each_question_is_an_entry_point_of_its_own_that_releases_the_gil() -> None:
    """Every question besides ``solve`` is asked of a compiled function of its own, by name,
    in the module compiled ahead of time and in numba's compilation alike."""
    from bullscows._kernels import search_queries

    module = ahead.load(ahead.SEARCH)[0]
    aot, jit = search_calls.kernels(), search_calls.kernels(ahead=False)
    for question in QUESTIONS:
        numba = getattr(search_queries, question)
        assert numba.targetoptions.get("nogil") is True, question
        assert getattr(jit, question) is numba
        assert getattr(aot, question) is getattr(module, question)


LOADED = """
import sys
from bullscows.cli import main
main({args!r}, standalone_mode=False)
print(sorted(m for m in ("numba", "llvmlite") if m in sys.modules), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["tree", "--rules", "p4c7n", "--strategy", "optimal"],
        ["tree", "--rules", "mm", "--strategy", "optimal-worst", "--jobs", "2"],
    ],
    ids=["one", "jobs"],
)
def test_a_search_loads_no_numba(args: list[str], tmp_path: Path) -> None:
    env = {**os.environ, "BULLSCOWS_CACHE": str(tmp_path)}  # no tree kept from before
    completed = python("-c", LOADED.format(args=args), timeout=300, env=env)
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr.splitlines()[-1] == "[]"
    assert "total" in completed.stdout
