"""The lowest total among trees of a fixed opening, for variants whose optimum no search
settles: the first guess fixed (by default the first guess of the lowest root bound,
``search.frontier``), and in each part it leaves the second guess fixed by the root bound's
order (the guess of the part's lowest bound one guess deeper, then the search's order). Each
part two guesses deep is then solved by the optimal search (``search.engine``, its answers
kept in the checkpoint and spread over an executor as any search's tasks are).

A part not solved before the budget runs out gets the tree of ``fallback`` (a heuristic's,
``strategies.part_trees``), so the tree is always whole and its total an upper bound; the
family's lower bound adds the solved parts' costs and the others' bounds. Once every part
is solved, the total is the lowest of every tree of that opening.

>>> from bullscows.strategies.part_trees import heuristic_part
>>> found = opening_tree(Rules.parse("p3c5n"), heuristic_part)
>>> found.opening.text(found.rules), found.total, found.lower, found.solved == found.parts
('012', 196, 196, True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

from bullscows._kernels.tables import INFEASIBLE
from bullscows.rules import Rules
from bullscows.search.checkpoint import Checkpoint, History
from bullscows.search.distribute import TASK_LEVEL, start_workers
from bullscows.search.engine import Search
from bullscows.search.frontier import root_bound
from bullscows.search.optimal import INTERRUPT, check_searchable
from bullscows.search.options import Run, SearchOptions
from bullscows.search.progress import Budget, BudgetSpent, Progress
from bullscows.search.tree import distribution
from bullscows.search.worker import prepare, solve_task
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

#: A part's tree when the search has not solved it: (rules, history, codes) -> (total, tree).
Fallback = Callable[[Rules, History, IndexArray], tuple[int, Node]]


@dataclass(frozen=True, slots=True)
class Opening:
    """The first guess and, for each reply to it that leaves three codes or more, the
    second guess (reply, guess)."""

    first: int
    seconds: tuple[tuple[int, int], ...]

    def text(self, rules: Rules) -> str:
        """The first guess as the game writes it."""
        return universe(rules).text(self.first)


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """A whole tree of the opening and its figures: ``total`` (an upper bound on the lowest
    total of the opening's trees, equal to it when ``solved == parts``), ``lower`` (no tree
    of the opening costs less), the parts two guesses deep of three codes or more solved by
    the search of ``parts``, the sets searched (those of the tasks under way when it stopped
    included, as its progress reports count them: ``Search.sets``), the seconds, why it
    stopped early (``None`` when it did not), and the sets of the parts under way then kept
    beside its checkpoint (``search.kept``)."""

    rules: Rules
    opening: Opening
    tree: Node
    total: int
    lower: int
    solved: int
    parts: int
    distribution: dict[int, int]
    sets: int
    seconds: float
    stopped: str | None
    kept: int = 0


class OpeningInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM, in the console command) while the opening's parts were searched:
    ``found`` is its whole tree so far, as a budget spent gives it. A ``KeyboardInterrupt``,
    so that whatever stops on Ctrl-C stops on it too."""

    def __init__(self, found: OpeningResult) -> None:
        super().__init__(f"the search of the opening stopped at {found.stopped}")
        self.found = found


@dataclass(slots=True)
class _Part:
    """One part two guesses deep: its history and codes, its bound, the fallback's total
    and tree, and the search's answer once it has one (``exact``)."""

    history: History
    codes: IndexArray
    bound: int
    total: int
    tree: Node
    exact: bool = False


def opening_of(tree: Node) -> Opening:
    """The opening of ``tree``: its first guess and the second guess after each reply.

    >>> opening_of(Node(7, {3: Node(9, {1: Node(4)}), 5: Node(2)}))
    Opening(first=7, seconds=((3, 9), (5, 2)))
    """
    seconds = tuple((reply, node.guess) for reply, node in sorted(tree.branches.items()))
    return Opening(tree.guess, seconds)


def best_first(rules: Rules) -> int:
    """The first guess of the lowest root bound (the first of them in the variant's order).

    >>> universe(Rules.parse("mm")).text(best_first(Rules.parse("mm")))
    '1123'
    """
    found = root_bound(rules)
    return next(guess for guess, bound in found.firsts if bound == found.lower)


def opening_tree(
    rules: Rules,
    fallback: Fallback,
    first: int | Opening | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
    budget: Budget | None = None,
) -> OpeningResult:
    """The tree of the opening of ``first`` (``best_first`` if ``None``; an ``Opening``
    fixes second guesses too, the root bound's order the others) whose parts two guesses
    deep are each solved by the optimal search, or given ``fallback``'s tree once
    ``budget`` is spent. ``progress``, ``executor`` and ``checkpoint`` serve the search as
    they serve ``search.optimal_tree`` (a checkpoint of the lowest total serves both).
    Ctrl-C while the parts are searched raises ``OpeningInterrupted`` with the same result
    (every part has its fallback's tree before the search begins)."""
    check_searchable(rules)
    start = time.perf_counter()
    if first is None:
        first = best_first(rules)
    if isinstance(first, int):
        first = Opening(first, ())
    if executor is not None:
        start_workers(executor, prepare)
    # The sets settled inside the parts left unfinished are kept beside it (``search.kept``).
    store = Checkpoint(checkpoint, rules.spec, "total", None, False, keep_sets=True)
    finished = False  # an error before the search's end keeps its sets
    try:
        watched = progress if budget is None else budget.watch(progress)
        task = None if executor is None else solve_task
        search = Search(SearchOptions(rules), Run(watched, start, store, executor, task))
        search.tasks.level = TASK_LEVEL  # the parts two guesses deep are tasks in every variant
        state = search.state
        depth = state.unlimited
        opening, tree, parts = _open(search, first, depth, fallback)
        # What the tree costs besides its parts two guesses deep (their fallbacks' trees in it).
        base = _figures(search, _grafted(tree, parts))[1] - sum(part.total for part in parts)
        stopped: str | None = None
        try:
            _solve(search, parts, depth, base)
            finished = True
        except BudgetSpent as spent:
            stopped = spent.reason
        except KeyboardInterrupt:
            stopped = INTERRUPT
        by_count, total = _figures(search, _grafted(tree, parts))
        lower = total - sum(part.total - part.bound for part in parts if not part.exact)
        store.close(finished)
        found = OpeningResult(
            rules, opening, tree, total, lower, sum(part.exact for part in parts), len(parts),
            by_count, search.sets(), time.perf_counter() - start, stopped, store.kept_written,
        )  # fmt: skip
        if stopped == INTERRUPT:
            raise OpeningInterrupted(found)
        return found
    finally:
        store.close(finished)  # at once, not when its frames are collected


def opening_parts(
    search: Search, given: Opening, depth: int
) -> tuple[Opening, Node, list[tuple[History, IndexArray]]]:
    """The opening's tree down to its parts two guesses deep (those of one or two codes
    settled, the others left out), with its second guesses, and those parts (history,
    codes), in the order of the replies.

    >>> search = Search(SearchOptions(Rules.parse("p3c5n")))
    >>> opening, tree, parts = opening_parts(search, Opening(0, ()), search.state.unlimited)
    >>> len(opening.seconds), len(parts), max(len(codes) for _, codes in parts)
    (6, 8, 4)
    """
    state = search.state
    first, fixed = given.first, dict(given.seconds)
    tree = Node(first)
    seconds = []
    parts: list[tuple[History, IndexArray]] = []
    for reply, codes in state.scores.parts(state.ctx, state.everything, first):
        if len(codes) <= 2:
            tree.branches[reply] = state.rebuild(codes, depth)
            continue
        history: History = ((first, reply),)
        second = fixed.get(reply, -1)
        if second < 0:
            guesses = search.guesses(codes, history)
            child = state.child(depth)
            order = state.scores.order(state.ctx, codes, guesses, child, INFEASIBLE)[0]
            second = int(guesses[order[0]])
        seconds.append((reply, second))
        tree.branches[reply] = node = Node(second)
        for below, part in state.scores.parts(state.ctx, codes, second):
            if len(part) <= 2:
                node.branches[below] = state.rebuild(part, depth)
            else:
                parts.append(((*history, (second, below)), part))
    return Opening(first, tuple(sorted(seconds))), tree, parts


def _open(
    search: Search, given: Opening, depth: int, fallback: Fallback
) -> tuple[Opening, Node, list[_Part]]:
    """``opening_parts``, each part with its bound and the fallback's tree (exact when it
    costs the bound, or when the checkpoint says so)."""
    state = search.state
    opening, tree, found = opening_parts(search, given, depth)
    parts: list[_Part] = []
    for history, part in found:
        total, heuristic = fallback(search.options.rules, history, part)
        guesses = search.guesses(part, history)
        bounds = state.scores.bounds(state.ctx, part, guesses, state.child(depth))[0]
        bound = max(int(bounds.min()), _failed(search, history, depth))
        parts.append(_Part(history, part, min(bound, total), total, heuristic, bound >= total))
    return opening, tree, parts


def _grafted(tree: Node, parts: list[_Part]) -> Node:
    """``tree`` with each part's tree in its place (replacing the one before)."""
    for part in parts:
        (_, reply), (_, below) = part.history
        tree.branches[reply].branches[below] = part.tree
    return tree


def _figures(search: Search, tree: Node) -> tuple[dict[int, int], int]:
    """How many secrets ``tree`` settles in each number of guesses, and its total."""
    state = search.state
    by_count = distribution(state.scores, state.win, tree, state.everything)
    return by_count, sum(guesses * secrets for guesses, secrets in by_count.items())


def _failed(search: Search, history: History, depth: int) -> int:
    """The highest window below which the checkpoint proved no tree of the part."""
    return search.tasks.checkpoint.failed.get((1, history, depth), 0)


def _solve(search: Search, parts: list[_Part], depth: int, base: int) -> None:
    """Ask the search for a tree of each open part cheaper than its fallback's, the
    smallest parts first; the root's figures say how far it is (the tree's lower and upper
    bound, ``base`` being what it costs besides the parts; the codes of the parts solved)."""
    open_ = sorted((p for p in parts if not p.exact), key=lambda p: (len(p.codes), p.history))
    root = search.root
    codes = sum(len(part.codes) for part in parts)

    def tell() -> None:
        root.floor = root.bound = base + sum(part.bound for part in parts)
        root.best = base + sum(part.total for part in parts)
        root.settled = (sum(len(p.codes) for p in parts if p.exact), codes)

    tell()
    answers = search.tasks.round(depth, [(p.history, p.codes, p.total) for p in open_])
    try:
        for part, found in zip(open_, answers, strict=False):
            if found is not None:
                part.total, part.tree = found
            part.bound, part.exact = part.total, True
            tell()
            search.report()
    finally:
        answers.close()


__all__ = [
    "Fallback", "Opening", "OpeningInterrupted", "OpeningResult", "best_first", "opening_of",
    "opening_parts", "opening_tree",
]  # fmt: skip
