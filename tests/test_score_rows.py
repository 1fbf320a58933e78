"""The search past ``WHOLE_MATRIX_CODES`` codes: score rows computed when needed
(``search.scores.ScoreRows``) give the trees of the whole matrix, and a variant of 30,240 codes
is searched in memory that grows with its sets, not with the square of its codes."""

from __future__ import annotations

import numpy as np
import pytest

from bullscows._kernels import search_kernels
from bullscows._kernels.tables import INFEASIBLE, level_caps
from bullscows.codes import Code
from bullscows.executors import Threads
from bullscows.feedback import reply_count, valid_replies
from bullscows.rules import Rules
from bullscows.search import scores
from bullscows.search.engine import Search
from bullscows.search.frontier import root_bound
from bullscows.search.optimal import Budget, Objective, SearchStopped, optimal_tree
from bullscows.search.options import SearchOptions
from bullscows.search.state import SearchState
from bullscows.search.tree import distribution, tree_cost
from bullscows.tree.check import check_tree
from bullscows.tree.model import DecisionTree
from bullscows.universe import universe


def rows_always(patch: pytest.MonkeyPatch, block_bytes: int = 0) -> None:
    """Rows when needed for every variant; a block no larger than the set it is readied
    for (``block_bytes`` 0), so that it starts again at almost every set."""
    patch.setattr(scores, "WHOLE_MATRIX_CODES", 0)
    patch.setattr(scores, "BLOCK_BYTES", block_bytes)


@pytest.mark.parametrize(
    ("spec", "objective", "consistent_only"),
    [
        ("mm", "total", False),  # the compiled search one guess into the game
        ("p3c6n", "total", False),  # two levels in Python, the tasks two guesses deep
        ("p3c5r", "worst-count", False),  # a depth cap, a penalty, a search of weight 0
        ("p3c4n", "total-worst", False),
        ("p4c4r", "total", True),  # guesses among the codes still possible
    ],
)
def test_rows_give_the_trees_of_the_whole_matrix(
    spec: str, objective: Objective, consistent_only: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules.parse(spec)
    whole = optimal_tree(rules, objective, consistent_only=consistent_only)
    rows_always(monkeypatch)
    options = SearchOptions(rules, objective, None, consistent_only)
    assert isinstance(SearchState(options).scores, scores.ScoreRows)
    found = optimal_tree(rules, objective, consistent_only=consistent_only)
    assert found.tree == whole.tree
    assert (found.total, found.worst, found.nodes) == (whole.total, whole.worst, whole.nodes)


def test_rows_on_threads_give_the_tree_of_the_whole_matrix(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules.parse("p4c7n")  # tasks of 30 codes and more, two guesses deep
    whole = optimal_tree(rules)
    rows_always(monkeypatch, block_bytes=1 << 16)  # a block kept across a few sets
    with Threads(2) as team:
        found = optimal_tree(rules, executor=team)
    assert found.tree == whole.tree and found.total == whole.total


def test_a_block_holds_the_rows_of_the_sets_it_was_readied_for() -> None:
    rules = Rules.parse("mm")
    table = scores.ScoreRows(rules)
    u = universe(rules)
    search = SearchState(SearchOptions(rules))
    ctx = search.ctx
    first, second = u.all()[:300], u.all()[300:400]
    ctx = table.ready(ctx, first)
    assert table.scored == 300 and len(table.matrix) >= 300
    ctx = table.ready(ctx, first[::3])  # held already: nothing scored
    assert table.scored == 300
    ctx = table.ready(ctx, second)
    held = table.where[second]
    assert (held >= 0).all()
    whole = scores.score_matrix(rules)
    assert (table.matrix[held] == whole[second]).all()
    assert (table[5, second] == whole[5, second]).all()
    assert table[5, 9] == whole[5, 9]
    for narrow in (False, True):
        if narrow:
            table.where[:] = -1  # the block forgotten: the parts come from a narrow block
        mine = table.parts(ctx, second, 5)
        theirs = search.scores.parts(search.ctx, second, 5)
        assert [r for r, _ in mine] == [r for r, _ in theirs]
        assert all((a == b).all() for (_, a), (_, b) in zip(mine, theirs, strict=True))


def test_an_optimum_past_ten_thousand_codes_with_rows_when_needed() -> None:
    """A position of ``bc5`` (30,240 codes to guess from, past the whole matrix): its
    optimal tree over the codes left, every code played down it; the block holds the rows
    of those codes only."""
    rules = Rules.parse("bc5")
    u = universe(rules)
    search = Search(SearchOptions(rules))
    state = search.state
    assert isinstance(state.scores, scores.ScoreRows)
    secret = Code("97531", rules).index
    codes, played = u.all(), ()
    for text in ("01234", "56789", "15062", "27483"):
        guess = Code(text, rules).index
        replies = u.score_row(guess, codes)
        reply = int(u.score_row(guess, np.array([secret]))[0])
        codes, played = codes[replies == reply], (*played, (guess, reply))
    assert 30 <= len(codes) <= 400
    found = search.solve(codes, state.unlimited, INFEASIBLE, played)
    assert found is not None
    cost, tree = found
    assert tree_cost(state.scores, state.win, tree, codes, state.unlimited) == cost
    by_count = distribution(state.scores, state.win, tree, codes)
    assert sum(by_count.values()) == len(codes)
    assert sum(g * n for g, n in by_count.items()) == cost
    assert len(codes) * 2 - 1 <= cost  # no tree beats one that wins every code at once
    assert state.scores.matrix.nbytes <= max(scores.BLOCK_BYTES, len(codes) * len(universe(rules)))


def test_bc5_is_searched_within_a_budget_from_its_root_bound() -> None:
    rules = Rules.parse("bc5")
    with pytest.raises(SearchStopped) as stopped:
        optimal_tree(rules, budget=Budget(sets=40))
    standing = stopped.value.standing
    assert "budget of 40 sets" in standing.reason
    assert standing.lower is not None and standing.lower >= root_bound(rules).lower


def test_a_tree_found_with_rows_when_needed_passes_the_checker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules.parse("p4c6r")
    rows_always(monkeypatch, block_bytes=1 << 20)
    result = optimal_tree(rules)
    report = check_tree(DecisionTree(rules, "any", "optimal", result.tree))
    assert report.valid and report.summary is not None
    assert report.summary.total == result.total


def test_the_kernels_read_a_block_of_rows_as_the_whole_matrix() -> None:
    """``guess_bounds`` and ``perfect_candidate`` over a block holding only the codes' rows,
    in another order, give what they give over the whole matrix."""
    rules = Rules.parse("mm")
    u = universe(rules)
    whole = scores.score_matrix(rules)
    win = rules.length * (rules.length + 1)
    valid = np.array([r for r in valid_replies(rules) if r != win], dtype=np.uint8)
    caps = level_caps(reply_count(rules), covering=rules.size)
    rng = np.random.default_rng(29)
    for size in (3, 9, 40, 300):
        codes = np.sort(rng.choice(rules.size, size, replace=False))
        held = rng.permutation(codes)  # the block's rows, in the order they were scored
        block = u.score_matrix(held, u.all())
        rows = np.full(rules.size, -1, dtype=np.int64)
        rows[held] = np.arange(size)
        for guesses in (u.all(), np.sort(rng.choice(rules.size, 50, replace=False))):
            expected = search_kernels.guess_bounds(whole, guesses, codes, valid, win, caps, 6)
            found = search_kernels.guess_bounds(
                block, guesses, codes, valid, win, caps, 6, rows=rows
            )
            assert all((a == b).all() for a, b in zip(found, expected, strict=True))
        slots = rules.reply_slots
        assert search_kernels.perfect_candidate(
            block, codes, slots, rows
        ) == search_kernels.perfect_candidate(whole, codes, slots)
