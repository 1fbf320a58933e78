"""A memo's most slots: past them it keeps its largest sets and forgets the others, and the
search it serves still finds the optimum (some sets searched again)."""

from __future__ import annotations

import pytest

from bench_scripts import load
from bullscows._kernels import search_calls, search_memo
from bullscows._kernels.search_calls import Memo
from bullscows.rules import Rules
from bullscows.search import optimal_tree
from bullscows.search.bounds import INFEASIBLE
from bullscows.search.engine import SearchOptions
from bullscows.search.state import SearchState
from bullscows.search.tree import tree_cost
from bullscows.universe import universe


def test_a_full_memo_at_its_most_slots_keeps_its_largest_quarter() -> None:
    memo = Memo(64, most=64)
    for i in range(1, 34):  # 33 sets: past half full
        search_memo.store(memo.arrays, (i, i, 3), (10 * i if i % 2 else -1, 0, 10 * i, 0))
    assert memo.crowded()
    memo.grow()
    assert memo.slots == 64 and len(memo) == 16 and memo.forgotten == 17
    held = [i for i in range(1, 34) if search_memo.entry(memo.arrays, (i, i, 3))[2] > 0]
    assert held == list(range(18, 34))  # the highest costs and floors, known or not
    assert search_memo.entry(memo.arrays, (20, 20, 3)) == (-1, 0, 200, 0)
    assert not memo.crowded()


def test_a_memo_grows_up_to_its_most_slots_and_no_further() -> None:
    memo = Memo(16, most=64)
    for i in range(1, 10):
        search_memo.store(memo.arrays, (i, 1, 2), (i, 0, i, 0))
    memo.grow()
    assert memo.slots == 64 and len(memo) == 9 and memo.forgotten == 0
    assert Memo(16).most == search_calls.MEMO_MOST == 1 << 24


def test_a_search_whose_memos_forget_sets_finds_the_same_optimum(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules.parse("p4c7n")
    roomy = optimal_tree(rules)
    memos: list[Memo] = []

    class Recorded(Memo):
        def __init__(self, slots: int = search_calls.MEMO_SLOTS) -> None:
            super().__init__(16, most=1 << 10)
            memos.append(self)

    monkeypatch.setattr(search_calls, "Memo", Recorded)
    small = optimal_tree(rules)
    assert sum(memo.forgotten for memo in memos) > 0
    assert small.total == roomy.total
    assert small.nodes > roomy.nodes  # sets forgotten, searched again
    state = SearchState(SearchOptions(rules))
    codes = universe(rules).all()
    assert tree_cost(state.scores, state.win, small.tree, codes, state.unlimited) == small.total


def test_a_call_that_cannot_fit_in_what_the_memo_keeps_lets_it_past_its_most() -> None:
    rules = Rules.parse("p3c6n")
    codes = universe(rules).all()
    costs = []
    for memo in (Memo(), Memo(4, most=4)):
        search = SearchState(SearchOptions(rules, "total", None))
        search.memo = memo
        costs.append(search.solve(codes, search.unlimited, INFEASIBLE, codes))
    assert costs[0] == costs[1]
    assert memo.slots > 4  # let past its most while the call needed it
    memo.grow()
    assert memo.slots == 4 and len(memo) == 1  # and brought back after


def test_the_benchmark_finds_one_optimum_with_every_memo_size(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rows = load("memo_most").main(["mm", "--most", "0", "10"])
    assert [row["total"] for row in rows] == [5625, 5625]
    assert rows[0]["forgotten"] == 0 < rows[1]["forgotten"]
    assert rows[1]["peak"] == 1024 and rows[1]["sets"] > rows[0]["sets"] == 1734
    assert "| 1,024 | 5,625 | 6 |" in capsys.readouterr().out
