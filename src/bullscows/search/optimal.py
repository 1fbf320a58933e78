"""Exhaustive branch-and-bound search for an optimal decision tree.

The cost of a tree is the total number of guesses over every secret. ``optimal_tree`` finds the
tree of lowest total (``"total"``), of lowest worst case then total (``"worst"``), or under the
lexicographic objectives ``"worst-count"`` and ``"total-worst"``. The first levels are searched
in Python (``search.engine``), the rest compiled (``_kernels.search_dfs``), the parts below as
tasks (``search.distribute``). The algorithm (bounds, narrow windows, symmetry, lookaheads) is
described in docs/explanation/search.md.

>>> result = optimal_tree(Rules.parse("moo2,2"))
>>> result.total, result.worst, result.distribution
(8, 3, {1: 1, 2: 2, 3: 1})
>>> lexical = optimal_tree(Rules.parse("p3c3r"), "worst-count")
>>> lexical.worst, lexical.distribution[lexical.worst], lexical.total
(4, 1, 73)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path

from bullscows._kernels.tables import INFEASIBLE
from bullscows.errors import SearchError
from bullscows.executors import Threads
from bullscows.feedback import counted
from bullscows.rules import Rules
from bullscows.search.checkpoint import Checkpoint
from bullscows.search.distribute import start_workers
from bullscows.search.engine import Search
from bullscows.search.frontier import root_bound
from bullscows.search.options import PENALTY_DEPTH, Objective, Run, SearchOptions
from bullscows.search.progress import (
    Budget,
    BudgetSpent,
    Costs,
    Progress,
    SearchInterrupted,
    SearchReport,
    SearchStopped,
    Standing,
)
from bullscows.search.tree import distribution
from bullscows.search.worker import prepare, solve_task
from bullscows.tree.model import Node
from bullscows.universe import universe

#: Why a search stopped by Ctrl-C (or SIGTERM) stopped, as its standing says it.
INTERRUPT = "an interrupt (Ctrl-C or SIGTERM)"
#: Every objective, as ``optimal_tree`` takes it.
OBJECTIVES: tuple[Objective, ...] = ("total", "worst", "worst-count", "total-worst")

__all__ = [
    "INTERRUPT", "OBJECTIVES", "Budget", "Objective", "OptimalResult", "Progress",
    "SearchInterrupted", "SearchReport", "SearchStopped", "check_searchable", "optimal_tree",
]  # fmt: skip

#: The largest universe searched: past ``search.scores.WHOLE_MATRIX_CODES`` codes the search
#: holds the rows of the sets it searches, as many as the largest part one guess deep
#: (``p6c9n``, 60,480 codes: 16,290 rows of 60,480 replies, about 1 GB, on each worker).
MAX_SEARCH_CODES = 65_536


@dataclass(frozen=True, slots=True)
class OptimalResult:
    """An optimal tree and its figures: ``distribution`` maps guesses needed to secrets."""

    rules: Rules
    objective: Objective
    max_depth: int | None
    consistent_only: bool
    total: int
    worst: int
    distribution: dict[int, int]
    nodes: int
    seconds: float
    tree: Node = field(repr=False)


def optimal_tree(
    rules: Rules,
    objective: Objective = "total",
    max_depth: int | None = None,
    consistent_only: bool = False,
    progress: Progress | None = None,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
    budget: Budget | None = None,
) -> OptimalResult:
    """The tree with the lowest total (``"total"``); or the lowest worst case and then the
    lowest total (``"worst"``); or the lowest worst case, then the fewest secrets needing it,
    then the lowest total (``"worst-count"``); or the lowest total and then the lowest worst
    case (``"total-worst"``); with no secret needing more than ``max_depth`` guesses.

    With ``consistent_only`` every guess must be a code still possible. The parts two guesses
    deep run on ``executor`` if given (``search.distribute``), and their answers are kept in
    the file ``checkpoint`` if given, from which a search resumes. Raises ``SearchError`` when
    no tree fits within ``max_depth``, ``BullsCowsError`` for a checkpoint of another search
    (or one that cannot be read or written), and ``SearchStopped`` (with the proven lower
    bound, the best tree found and its cost) when ``budget`` is spent first; so does a
    ``progress`` callback that raises ``BudgetSpent``. With a ``budget``, the lowest total of
    a variant past the search's limit stops at once with the root bound of
    ``search.frontier``. Ctrl-C once the search is under way raises ``SearchInterrupted``
    (a ``KeyboardInterrupt``), with the same bounds.
    """
    if objective not in OBJECTIVES:
        raise SearchError(f"objective {str(objective)[:40]!r}: use one of {', '.join(OBJECTIVES)}")
    if max_depth is not None and max_depth < 1:
        raise SearchError(f"max_depth {max_depth}: a tree needs at least 1 guess")
    if budget is None or objective != "total" or max_depth or consistent_only:
        check_searchable(rules)
    elif rules.guess_rules.size > MAX_SEARCH_CODES:
        raise SearchStopped(beyond_limit(rules))
    if budget is not None:
        progress = budget.watch(progress)
    start = time.perf_counter()
    if executor is not None:
        start_workers(executor, prepare)
    # The sets settled inside the parts left unfinished are kept beside it, unless the
    # parts are searched on a cluster's processes.
    kept = executor is None or isinstance(executor, Threads)
    store = Checkpoint(checkpoint, rules.spec, objective, max_depth, consistent_only, kept)
    task = None if executor is None else solve_task
    run = Run(progress, start, store, executor, task)

    def search_for(goal: Objective, weight: int = 1) -> Search:
        return Search(SearchOptions(rules, goal, max_depth, consistent_only, weight), run)

    # The total objective searches without a cap (unless given one); the others under one.
    search = search_for("total" if objective == "total-worst" else objective)
    running: list[Search] = []  # the searches so far: the last one's root is the standing
    finished = False
    try:
        found = _run(rules, objective, max_depth, search, search_for, running, start)
        finished = True
        return found
    except BudgetSpent as spent:
        raise SearchStopped(_standing(spent.reason, running, start, store)) from None
    except KeyboardInterrupt:
        if not running:  # stopped before the search began: nothing to say
            raise
        raise SearchInterrupted(_standing(INTERRUPT, running, start, store)) from None
    finally:
        store.close(finished)  # its lock ends with the search, not when its frames are collected


def check_searchable(rules: Rules) -> None:
    """Refuse (``SearchError``) a variant with more codes to guess than the search handles.

    >>> check_searchable(Rules.parse("p6c9r"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.SearchError: 6 symbols of 0-8, ... 531,441 codes to guess; the search ...
    """
    if rules.guess_rules.size > MAX_SEARCH_CODES:
        raise SearchError(
            f"{rules.describe()} has {rules.guess_rules.size:,} codes to guess; the search "
            f"handles at most {MAX_SEARCH_CODES:,}: give a smaller variant"
        )


def beyond_limit(rules: Rules) -> Standing:
    """Where a bounded search of the lowest total of a variant past the search's limit
    stands before it starts: the bound it would start from (``search.frontier``)."""
    start = time.perf_counter()
    lower = root_bound(rules).lower
    reason = f"its limit of {MAX_SEARCH_CODES:,} codes (the root bound alone)"
    return Standing(reason, 0, time.perf_counter() - start, lower, None, None, Costs())


def _standing(reason: str, running: list[Search], start: float, store: Checkpoint) -> Standing:
    """Where the searches stood when the budget ran out: the bounds of the search of
    the objective, once it is running (not while only asking which cap fits), and the sets
    kept beside ``store``, closed now (``search.kept``)."""
    store.close()
    nodes = running[-1].sets() if running else 0  # each search's prior holds those before it
    seconds = time.perf_counter() - start
    main = next((search for search in running if search.options.weight), None)
    if main is None:
        costs = running[-1].root.costs
        return Standing(reason, nodes, seconds, None, None, None, costs, store.kept_written)
    root = main.root
    return Standing(
        reason, nodes, seconds, root.lower(), root.best, root.tree, root.costs, store.kept_written
    )


def _run(
    rules: Rules,
    objective: Objective,
    max_depth: int | None,
    search: Search,
    search_for: Callable[..., Search],
    running: list[Search],
    start: float,
) -> OptimalResult:
    """``optimal_tree``'s searches, each appended to ``running`` as it starts."""
    everything = universe(rules).secrets
    consistent_only = search.options.consistent_only
    nodes = 0
    # No tree needs more guesses than there are codes (each guess rules one out at least).
    unlimited = search.state.unlimited
    deepest = unlimited if max_depth is None else min(max_depth, unlimited)
    depth: int | None = deepest
    if objective != "total":
        # The shallowest cap that admits any tree: asked of a search where every tree costs 0.
        fits = search_for(objective, weight=0)
        running.append(fits)
        caps = range(search.state.shallowest(len(everything)), deepest + 1)
        depth = next((d for d in caps if fits.solve(everything, d, 1, ())), None)
        nodes = fits.nodes
    if objective == "total-worst":
        shallowest = depth
        depth = deepest
    elif objective == "worst-count" and depth is not None and depth >= PENALTY_DEPTH:
        raise SearchError(f"worst-count handles worst cases below {PENALTY_DEPTH} guesses")
    search.reporting.prior = nodes
    running.append(search)
    found = None if depth is None else search.solve(everything, depth, INFEASIBLE, ())
    if found is None:
        within = counted(deepest, "guess")
        raise SearchError(f"no tree settles {rules.describe()} within {within}")
    tree = found[1]
    scores, win = search.state.scores, search.state.win
    by_count = distribution(scores, win, tree, everything)
    if objective == "total-worst" and shallowest is not None:
        # A tree of the same total under a lower cap, the lowest first.
        lowest = sum(guesses * secrets for guesses, secrets in by_count.items())
        capped = search_for(objective)
        capped.reporting.prior = nodes + search.nodes
        running.append(capped)
        for cap in range(shallowest, max(by_count)):
            better = capped.solve(everything, cap, lowest + 1, ())
            if better is not None:
                tree = better[1]
                by_count = distribution(scores, win, tree, everything)
                break
        nodes += capped.nodes
    return OptimalResult(
        rules, objective, max_depth, consistent_only,
        total=sum(guesses * secrets for guesses, secrets in by_count.items()),
        worst=max(by_count), distribution=by_count, nodes=nodes + search.nodes,
        seconds=time.perf_counter() - start, tree=tree,
    )  # fmt: skip
