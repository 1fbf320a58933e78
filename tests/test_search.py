"""The branch-and-bound search against a plain brute force, and the published Mastermind optima."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import pytest

from bullscows._kernels import search_calls, search_dfs, search_kernels, tables
from bullscows.errors import SearchError
from bullscows.feedback import reply_count, valid_replies
from bullscows.rules import Rules
from bullscows.search import OptimalResult, engine, optimal_tree, reporting
from bullscows.search.bounds import INFEASIBLE, lower_bounds
from bullscows.search.engine import Candidate, Objective, SearchOptions
from bullscows.search.progress import SearchReport
from bullscows.search.state import SearchState
from bullscows.search.tree import distribution
from bullscows.tree import Node
from bullscows.universe import Universe, universe

TINY = ["moo2,2", "p2c3r", "p2c4n", "p3c3r", "p3c4n", "moo2,3,3", "p4c4n", "p3c5n"]
#: Positions that allow different symbols: fewer symmetries, the first guess's included.
TINY += ["p3c5n:nolead", "p3c4r:nolead", "p3c4n:allowed=123/0123/123"]
#: Variants whose guesses are wider than their secrets (symmetries of both sets at play).
WIDE = ["p3c4n:guesses=p3c4r", "p2c4n:nolead:guesses=p2c4r", "p3c5n:nolead:guesses=p3c5n"]
INFINITE = 10**9


def brute_force(spec: str, depth: int | None, consistent_only: bool) -> int:
    """The least total over every tree, by trying every guess at every node (memoised only)."""
    best = _brute_solver(spec, consistent_only)
    secrets = tuple(universe(Rules.parse(spec)).secrets.tolist())
    return best(secrets, len(secrets) if depth is None else depth)


@cache
def _brute_solver(
    spec: str, consistent_only: bool, penalty: int = 0
) -> Callable[[tuple[int, ...], int], int]:
    """A brute-force solver; ``penalty`` is charged for each secret settled by the last guess
    the budget allows (the cost of the lexicographic objective "worst-count")."""
    rules = Rules.parse(spec)
    u = universe(rules)
    scores = u.score_matrix(u.all(), u.all()).tolist()
    win = rules.length * (rules.length + 1)
    everything = tuple(range(len(u)))

    @cache
    def best(codes: tuple[int, ...], budget: int) -> int:
        """The least total for ``codes`` within ``budget`` guesses (INFINITE if none)."""
        if budget == 0:
            return INFINITE
        if len(codes) == 1:
            return 1 + (penalty if budget == 1 else 0)
        lowest = INFINITE
        for guess in codes if consistent_only else everything:
            parts: dict[int, list[int]] = {}
            for code in codes:
                parts.setdefault(scores[guess][code], []).append(code)
            if len(parts) == 1 and guess not in codes:
                continue  # learns nothing
            cost = len(codes) + sum(
                best(tuple(part), budget - 1) for reply, part in parts.items() if reply != win
            )
            lowest = min(lowest, cost)
        return lowest

    return best


def play(result: OptimalResult) -> dict[int, int]:
    """Play every secret through the tree; check each guess, return {guesses: secrets}."""
    rules = result.rules
    u = universe(rules)
    win = rules.length * (rules.length + 1)
    found: dict[int, int] = {}
    for secret in u.secrets.tolist():
        node: Node = result.tree
        possible = u.secrets
        guesses = 1
        while True:
            guess = node.guess
            if result.consistent_only:
                assert guess in possible
            reply = int(u.score_row(guess, np.array([secret]))[0])
            if reply == win:
                break
            possible = possible[u.score_row(guess, possible) == reply]
            node = node.branches[reply]
            guesses += 1
        found[guesses] = found.get(guesses, 0) + 1
    return dict(sorted(found.items()))


def check(result: OptimalResult) -> None:
    """The figures of a result agree with its tree, made of ``tree.Node`` values as every
    tree is."""
    stack: list[object] = [result.tree]
    while stack:
        node = stack.pop()
        assert type(node) is Node
        stack.extend(node.branches.values())
    distribution = play(result)
    assert distribution == result.distribution
    assert result.total == sum(k * v for k, v in distribution.items())
    assert result.worst == max(distribution)
    assert sum(distribution.values()) == result.rules.size
    if result.max_depth is not None:
        assert result.worst <= result.max_depth


@pytest.mark.parametrize("spec", TINY + WIDE)
def test_total_is_optimal(spec: str) -> None:
    result = optimal_tree(Rules.parse(spec))
    check(result)
    assert result.total == brute_force(spec, None, False)


@pytest.mark.parametrize("spec", TINY + WIDE)
def test_consistent_only_is_optimal(spec: str) -> None:
    result = optimal_tree(Rules.parse(spec), consistent_only=True)
    check(result)
    assert result.total == brute_force(spec, None, True)


@pytest.mark.parametrize("spec", TINY + WIDE)
def test_depth_cap_is_optimal(spec: str) -> None:
    unlimited = optimal_tree(Rules.parse(spec))
    for depth in range(unlimited.worst - 1, unlimited.worst + 1):
        expected = brute_force(spec, depth, False)
        if expected >= INFINITE:
            with pytest.raises(SearchError, match="within"):
                optimal_tree(Rules.parse(spec), max_depth=depth)
            continue
        result = optimal_tree(Rules.parse(spec), max_depth=depth)
        check(result)
        assert result.total == expected


@pytest.mark.parametrize("spec", TINY + WIDE)
def test_worst_under_a_cap_keeps_the_cap(spec: str) -> None:
    shallowest = next(d for d in range(1, 20) if brute_force(spec, d, False) < INFINITE)
    with pytest.raises(SearchError, match="within"):
        optimal_tree(Rules.parse(spec), objective="worst", max_depth=shallowest - 1)
    roomy = optimal_tree(Rules.parse(spec), objective="worst", max_depth=shallowest + 1)
    assert roomy.worst == shallowest


@pytest.mark.parametrize("objective", ["total", "worst"])
def test_a_cap_deeper_than_any_tree_is_no_cap(objective: Objective) -> None:
    rules = Rules.parse("p2c3r")
    capped = optimal_tree(rules, objective, max_depth=100)
    assert capped.tree == optimal_tree(rules, objective).tree


@pytest.mark.parametrize("spec", TINY + WIDE)
def test_worst_then_total(spec: str) -> None:
    result = optimal_tree(Rules.parse(spec), objective="worst")
    check(result)
    shallowest = next(d for d in range(1, 20) if brute_force(spec, d, False) < INFINITE)
    assert result.worst == shallowest
    assert result.total == brute_force(spec, shallowest, False)


@pytest.mark.parametrize("spec", ["p3c4n", "moo2,3,3"])
def test_worst_consistent_only(spec: str) -> None:
    result = optimal_tree(Rules.parse(spec), objective="worst", consistent_only=True)
    check(result)
    shallowest = next(d for d in range(1, 20) if brute_force(spec, d, True) < INFINITE)
    assert (result.worst, result.total) == (shallowest, brute_force(spec, shallowest, True))


def test_worst_can_beat_the_lowest_total_tree() -> None:
    # 4 distinct of 4: the lowest total, 86, is reachable within 5 guesses as well as with 6.
    result = optimal_tree(Rules.parse("p4c4n"), objective="worst")
    check(result)
    assert (result.worst, result.total) == (5, 86)


@pytest.mark.parametrize(("spec", "total"), [("p3c5r", 451), ("p4c3r", 246)])
def test_larger_variants_reach_goddards_optima(spec: str, total: int) -> None:
    # Goddard, "Mastermind Revisited" (2004): 3 pegs x 5 colours 451/125, 4 x 3 246/81.
    result = optimal_tree(Rules.parse(spec))
    check(result)
    assert result.total == total


@pytest.mark.parametrize(
    ("size", "depth"),
    # Four codes a pass and the rest one by one; sums in bytes and 16-bit words up to 255
    # codes (a part of all 255 has 255 ** 2 for its squares), 32-bit ones above.
    [(40, 99), (40, 3), (40, 2), (3, 99), (43, 3), (255, 99), (255, 3), (256, 99), (700, 99),
     (700, 3)],
)  # fmt: skip
def test_guess_bounds_kernel_matches_numpy(size: int, depth: int) -> None:
    rules = Rules.parse("mm")
    u = universe(rules)
    scores = u.score_matrix(u.all(), u.all())
    replies = reply_count(rules)
    table = lower_bounds(replies, rules.size, 6)
    caps = tables.level_caps(replies, 7)
    valid = np.array([r for r in valid_replies(rules) if r != 20], dtype=np.uint8)
    codes = np.sort(np.random.default_rng(size).choice(rules.size, size, replace=False))
    for guesses in (np.arange(0, rules.size, 3, dtype=np.int64), u.all()):
        bounds, squares, solved, largest = search_kernels.guess_bounds(
            scores, guesses, codes, valid, 20, caps, depth
        )
        counts = np.array(
            [np.bincount(scores[g, codes], minlength=rules.reply_slots) for g in guesses]
        )
        won, counts[:, 20] = counts[:, 20].copy(), 0
        expected = len(codes) + table[min(depth, 6)][counts].sum(axis=1)
        expected[expected >= INFEASIBLE] = INFEASIBLE
        useless = (won == 0) & (counts.max(axis=1) == len(codes))
        assert (bounds == np.where(useless, tables.USELESS, expected)).all()
        assert (squares == (counts**2).sum(axis=1)).all()
        assert (solved == won).all()
        assert (largest == counts.max(axis=1)).all()


def _lookahead_inputs(spec: str) -> tuple[Rules, Universe, np.ndarray, np.ndarray, np.ndarray]:
    """A variant's rules, universe, whole score matrix, level capacities and non-winning
    replies, as the lookahead's kernel reads them."""
    rules = Rules.parse(spec)
    u = universe(rules)
    scores = u.score_matrix(u.all(), u.all())
    win = rules.length * (rules.length + 1)
    caps = tables.level_caps(reply_count(rules), covering=rules.size)
    valid = np.array([r for r in valid_replies(rules) if r != win], dtype=np.uint8)
    return rules, u, scores, caps, valid


@pytest.mark.parametrize("spec", ["mm", "bc", "p3c5r"])
def test_lowest_bound_kernel_matches_every_guess_bound(spec: str) -> None:
    """The lookahead's kernel: the lowest bound of ``guess_bounds`` and the first guess of the
    search's order when its parts have at most two codes (and fit the depth), on sets that
    reach both answers (parts of parts, with and without a depth cap, over every code or a
    few)."""
    rules, u, scores, caps, valid = _lookahead_inputs(spec)
    rng = np.random.default_rng(5)
    exact = 0
    for trial in range(160):
        codes = u.all()
        while len(codes) > 3 and (len(codes) > 255 or rng.random() < 0.6):
            replies = scores[rng.integers(rules.size), codes]
            codes = codes[replies == rng.choice(replies)]
        size = int(rng.integers(3, 40))
        if len(codes) > size:
            codes = np.sort(rng.choice(codes, size, replace=False))
        guesses = u.all() if trial % 4 else np.sort(rng.choice(rules.size, 60, replace=False))
        for depth in (len(caps) + 1, 3, 2, 1):
            bounds, squares, solved, largest = search_kernels.guess_bounds(
                scores, guesses, codes, valid, rules.length * (rules.length + 1), caps, depth
            )
            first = min(range(len(guesses)), key=lambda i: (bounds[i], squares[i], -solved[i]))
            settled = largest[first] <= 2 and bounds[first] < INFEASIBLE
            expected = (int(bounds[first]), first if settled else -1)
            rows = search_kernels.identity(scores)
            assert (
                search_kernels.lowest(scores, rows, guesses, codes, valid, caps, depth) == expected
            )
            exact += expected[1] >= 0
    assert exact > 20


def _candidates_floor(scores: np.ndarray, codes: np.ndarray, caps: np.ndarray, valid: int) -> int:
    """``search_kernels.candidates_floor`` by its definition: the least of each candidate's
    bound one guess deeper (each part's ideal cost, none too deep) and of a guess that cannot
    win with every reply a part of its own."""
    n = len(codes)
    floors = [3 * n - min(n, valid)]
    for guess in codes:
        sizes = np.unique(scores[guess, codes[codes != guess]], return_counts=True)[1]
        extra = [max(int(c) - cap, 0) for c in sizes for cap in caps[2:] if cap < n]
        floors.append(n + sum(2 * int(c) - 1 for c in sizes) + sum(extra))
    return min(floors)


@pytest.mark.parametrize("spec", ["mm", "p3c5r"])
def test_lookahead_counts_only_guesses_whose_floor_may_be_lowest(spec: str) -> None:
    """``lowest``'s two ways to each guess's key: every guess counted, or only those whose
    floor (three per code, less a part per reply it gets and two if it may win) is at most
    the lowest key: the same keys where both count, the others above the lowest, and
    each floor at most its key."""
    rules, u, scores, caps, valid = _lookahead_inputs(spec)
    rng = np.random.default_rng(11)
    few = 0
    for trial in range(40):
        codes = np.sort(rng.choice(rules.size, int(rng.integers(3, 60)), replace=False))
        subset = np.sort(rng.choice(rules.size, rules.size // 3, replace=False))
        guesses = u.all() if trial % 2 else subset
        top, limit = search_kernels._levels(caps, 99, len(codes))
        every = search_kernels._all_keys(scores, guesses, codes, valid, caps, top, limit)
        floors = search_kernels._floors(scores, guesses, codes, valid)
        assert (2 * floors.astype(np.int64) <= every).all()
        keys = search_kernels._few_keys(scores, guesses, codes, valid, caps, top, limit)
        if len(keys):
            few += 1
            counted = keys != search_kernels._SPLITS_NOTHING
            assert (keys[counted] == every[counted]).all()
            assert keys.min() == every.min() and (every[~counted] > every.min()).all()
    assert few > 20


@pytest.mark.parametrize("spec", ["p3c4n", "p2c5r", "p3c5r"])
def test_known_bound_before_a_lookahead_is_a_lower_bound(spec: str) -> None:
    """The bound a guess's part is charged before any lookahead: what the memo knows, else
    the larger of the ideal and the candidates' floor (each candidate's bound one guess
    deeper, else three per code less a part per reply): never above the lookahead, so never
    above the optimum; above the ideal for some sets, wider than the second level too, and
    the lookahead itself for some."""
    rules = Rules.parse(spec)
    best = _brute_solver(spec, False)
    search = engine.Search(SearchOptions(rules)).state
    depth = search.unlimited
    valid = len(search.ctx[tables.CTX_VALID])
    rng = np.random.default_rng(7)
    raised = wide = tight = 0
    for _ in range(60):
        size = int(rng.integers(3, 9 if rules.size <= 30 else 26))
        codes = np.sort(rng.choice(rules.size, size, replace=False))
        own = search.ideal(len(codes), depth)
        bound, looked = search_dfs._known(search.ctx, search.memo.arrays, codes, depth, own)
        floor = _candidates_floor(search.scores.matrix, codes, search.caps, valid)
        assert not looked and bound == max(own, floor)
        ahead = search_dfs.lookahead(
            search.ctx, search.memo.arrays, codes, depth, universe(rules).all()
        )
        assert own <= bound <= ahead
        if len(codes) <= 10:
            assert ahead <= best(tuple(codes.tolist()), len(codes))
        raised += bound > own
        wide += bound > own and len(codes) > search.caps[2]
        tight += own < bound == ahead
        assert search_dfs._known(search.ctx, search.memo.arrays, codes, depth, own) == (ahead, True)
    assert raised and tight
    assert wide or rules.size <= 30


@pytest.mark.parametrize("spec", ["p3c4n", "p3c3r", "p2c4r"])
@pytest.mark.parametrize("slots", [search_calls.MEMO_SLOTS, 4])
def test_compiled_search_matches_brute_force_on_random_sets(spec: str, slots: int) -> None:
    """The compiled depth-first search, on sets no game reaches, with and without a cap; with
    a memo of the usual size, and with one so small that it fills and grows again and again
    (the search gives up under way, and is asked again)."""
    rules = Rules.parse(spec)
    rng = np.random.default_rng(11)
    best = _brute_solver(spec, False)
    for cap in (None, 2, 3, 4):
        search = SearchState(SearchOptions(rules, "total", cap))
        search.memo = search_calls.Memo(slots)
        depth = search.unlimited if cap is None else cap
        for _ in range(12):
            codes = np.sort(rng.choice(rules.size, int(rng.integers(3, 14)), replace=False))
            expected = best(tuple(codes.tolist()), len(codes) if cap is None else cap)
            cost = search_calls.solve(
                search.ctx, search.memo, codes, depth, INFEASIBLE, universe(rules).all()
            )
            assert cost == (tables.FAIL if expected >= INFINITE else expected)
            if cost != tables.FAIL:
                tree = search.rebuild(codes, depth)
                by_count = distribution(search.scores, search.win, tree, codes)
                assert sum(k * v for k, v in by_count.items()) == cost
                assert cap is None or max(by_count) <= cap
        if slots == 4:
            assert search.memo.slots > 4 and 4 * len(search.memo) <= 3 * search.memo.slots


def test_perfect_candidate_kernel() -> None:
    rules = Rules.parse("mm")
    u = universe(rules)
    scores = u.score_matrix(u.all(), u.all())
    codes = np.array([u.index((0, 0, 0, 0)), u.index((0, 0, 0, 1)), u.index((0, 0, 1, 1))])
    # 0000 answers 3 bulls to 0001 and 2 bulls to 0011: it tells them apart.
    assert search_kernels.perfect_candidate(scores, codes, rules.reply_slots) == 0
    # Each of 0001, 0010, 0100, 1000 gets 2 bulls 2 cows from the other three: none is perfect.
    alike = np.array([u.index(d) for d in [(0, 0, 0, 1), (0, 0, 1, 0), (0, 1, 0, 0), (1, 0, 0, 0)]])
    assert search_kernels.perfect_candidate(scores, np.sort(alike), rules.reply_slots) == -1
    rng = np.random.default_rng(3)
    for size in range(3, 12):
        codes = np.sort(rng.choice(rules.size, size, replace=False))
        block = scores[np.ix_(codes, codes)]
        perfect = [i for i in range(size) if len(set(block[i].tolist())) == size]
        expected = perfect[0] if perfect else -1
        assert search_kernels.perfect_candidate(scores, codes, rules.reply_slots) == expected


def test_progress_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    seen: list[SearchReport] = []
    result = optimal_tree(Rules.parse("p3c5n"), progress=seen.append)
    assert seen
    nodes = [report.nodes for report in seen]
    assert nodes == sorted(nodes)
    assert all(report.seconds >= 0 for report in seen)
    bounds = [report.bound for report in seen if report.bound is not None]
    assert bounds and max(bounds) <= result.total
    assert seen[-1].best == result.total


def test_bad_arguments_raise_search_errors() -> None:
    rules = Rules.parse("p2c3r")
    with pytest.raises(SearchError, match="objective"):
        optimal_tree(rules, objective="average")  # type: ignore[arg-type]
    with pytest.raises(SearchError, match="max_depth"):
        optimal_tree(rules, max_depth=0)
    with pytest.raises(SearchError, match="within 2 guesses"):
        optimal_tree(Rules.parse("p3c4n"), max_depth=2)
    with pytest.raises(SearchError, match="codes"):
        optimal_tree(Rules.parse("p4c17r"))  # past MAX_SEARCH_CODES


def test_mastermind_lowest_total_is_koyama_lai() -> None:
    result = optimal_tree(Rules.parse("mm"))
    check(result)
    assert (result.total, result.worst) == (5625, 6)


def test_mastermind_within_five_guesses_is_koyama_lai() -> None:
    # Knuth: 5 guesses always suffice and 4 do not; the lowest total within 5 is 5626.
    result = optimal_tree(Rules.parse("mm"), objective="worst")
    check(result)
    assert (result.worst, result.total) == (5, 5626)


@pytest.mark.parametrize(
    ("spec", "objective"),
    [("mm", "total"), ("mm", "worst"), ("p3c6r", "total"), ("p3c8n", "total")],
)
def test_the_tree_does_not_depend_on_the_order_guesses_are_explored_in(
    spec: str, objective: Objective, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Among guesses of equal cost the first of the canonical order wins, however the search
    # came to try them: the same tree whether the most promising guess is tried first or last.
    rules = Rules.parse(spec)
    usual = optimal_tree(rules, objective)
    explored: list[int] = []

    def backwards(
        candidates: list[Candidate],
    ) -> list[Candidate]:
        explored.append(len(candidates))
        return sorted(candidates, key=lambda candidate: (-candidate[0], -candidate[1]))

    monkeypatch.setattr(engine.Search, "exploration", staticmethod(backwards))
    reversed_ = optimal_tree(rules, objective)
    assert max(explored) > 1
    assert reversed_.tree == usual.tree
    assert (reversed_.total, reversed_.worst) == (usual.total, usual.worst)


@pytest.mark.parametrize("spec", ["mm", "p4c6n", "p3c10n", "p3c6r"])
def test_one_or_two_levels_in_python_find_the_same_optimum(
    spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The compiled search starts one or two guesses into the game (engine.python_levels picks
    # by the variant); both give the optimum, and a tree of it.
    rules = Rules.parse(spec)
    picked = optimal_tree(rules, "total")
    for levels in (1, 2):
        monkeypatch.setattr(engine, "python_levels", lambda _, levels=levels: levels)
        other = optimal_tree(rules, "total")
        assert other.total == picked.total
        u = universe(rules)
        played = distribution(u.score_matrix(u.all(), u.all()), rules.length * (rules.length + 1),
                              other.tree, u.secrets)  # fmt: skip
        assert sum(guesses * secrets for guesses, secrets in played.items()) == picked.total
    monkeypatch.undo()
    assert engine.python_levels(Rules.parse("mm")) == 1  # 6 colours: two guesses use all
    assert engine.python_levels(Rules.parse("p4c8r")) == 2
