"""One optimal-tree search (``search.optimal`` explains the algorithm): the first two levels
of the branch and bound, run here in Python where the symmetry classes are, over three
collaborators: the compiled search's state (``search.state``: score matrix, memo, counters),
which settles the deeper sets; the tasks (``search.distribute``), the parts two guesses deep,
which ``search.worker.solve_task`` answers wherever they are sent; and the reports of its
progress (``search.reporting``, as ``search.progress`` describes).

>>> search = Search(SearchOptions(Rules.parse("p3c4n")))
>>> cost, tree = search.solve(search.state.everything, 9, 10**6, ())
>>> cost, search.root.best == cost, search.nodes > 0
(72, True, True)
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from bullscows._kernels import search_calls
from bullscows._kernels.tables import FAIL, STOPPED
from bullscows.executors import TaskStopped, Threads
from bullscows.rules import Rules
from bullscows.search import kept
from bullscows.search.checkpoint import Checkpoint, History
from bullscows.search.distribute import PartTasks
from bullscows.search.options import Objective, Run, SearchOptions, python_levels
from bullscows.search.progress import Costs
from bullscows.search.reporting import Reporting, Root
from bullscows.search.settle import Candidate, Settling, rounds_ahead, window
from bullscows.search.state import SearchState, shared_table
from bullscows.search.watch import Watch
from bullscows.symmetry import guess_classes
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

T = TypeVar("T")


class Search:
    """One search for the trees ``options`` ranks, part of the run ``run``."""

    def __init__(self, options: SearchOptions, run: Run | None = None) -> None:
        run = run or Run()
        self.options = options
        # The threads of a team share one table of the sets they settle (``search.state``).
        team = run.executor
        shared = shared_table(options, team) if isinstance(team, Threads) else None
        self.state = SearchState(options, run.stop, shared)
        if kept.adopt(self.state.memo, options):  # the sets a stopped run kept, if any
            self.state.apart()
        self.levels = python_levels(options.rules)
        self.reporting = Reporting(run.progress, run.start, self.state.penalty, options.weight > 0)
        # Its own thread's long compiled calls watched (``search.watch``): a search reporting
        # progress, or one the person at the keyboard may interrupt.
        main = threading.current_thread() is threading.main_thread()
        watched = run.progress is not None or main
        self.watch = Watch(self.state.stop, self.report) if watched else None
        # A tree read back may search a part again (``SearchState._again``): watched too.
        self.state.watched = lambda call: self._watched(call, _stopped)
        self.tasks = PartTasks(
            run.checkpoint or _checkpoint(options), options.weight, run.executor,
            run.task or _no_task, options.task_options(), run.local or self._solve_here,
            self._count_far,
            self.levels, self.state.trust,
        )  # fmt: skip
        self.guesses = Guesses(options.rules, options.consistent_only)
        # What the Python levels know of their sets (keyed by codes and depth): exact
        # (cost, tree)s, proven floors, and the sets looked ahead at.
        self.exact: dict[tuple[bytes, int], tuple[int, Node]] = {}
        self.floor: dict[tuple[bytes, int], int] = {}
        self.looked: set[tuple[bytes, int]] = set()

    @property
    def root(self) -> Root:
        """Where the search of every code stands (its bounds, the best tree found)."""
        return self.reporting.root

    @property
    def nodes(self) -> int:
        """Sets whose guesses were scored, here and in the compiled search, and by tasks
        elsewhere."""
        return self.reporting.own + self.state.sets + self.reporting.far

    def sets(self) -> int:
        """The sets searched so far by the run this search belongs to (``Reporting.sets``)."""
        return self.reporting.sets(self.nodes, self.tasks.in_flight())

    def _solve_here(
        self, history: History, codes: IndexArray, depth: int, limit: int
    ) -> tuple[int, Node] | None:
        return self.solve(codes, depth, limit, history)

    def solve(
        self, codes: IndexArray, depth: int, limit: int, history: History
    ) -> tuple[int, Node] | None:
        """The optimal (cost, tree) for ``codes`` within ``depth`` guesses if it costs less
        than ``limit``, else ``None`` (then no tree costs less than ``limit``)."""
        if not codes.flags.writeable:  # as the parts are: one compiled variant of each kernel
            codes = codes.copy()
        n = len(codes)
        cost = self.state.ideal(n, depth)
        if cost >= limit:
            return None
        if n <= 2:  # one code costs 1, two cost 3 (and any penalty): exactly their bound
            return cost, self.state.rebuild(codes, depth)
        if len(history) >= self.levels:
            return self._compiled(codes, depth, limit, history)
        if not history:
            root = self.root
            root.floor = cost
            root.costs = Costs(self.state.penalty, depth if self.state.capped else None)
        key = (codes.tobytes(), depth)
        known = self.exact.get(key)
        if known is not None:
            return known if known[0] < limit else None
        if self.floor.get(key, 0) >= limit:
            return None
        self.count_node()
        found = self.state.perfect(codes, depth)
        if found is None:
            found = self._branch(codes, depth, limit, history)
        if found is None:
            self.floor[key] = limit
        else:
            self.exact[key] = found
        return found

    def count_node(self) -> None:
        """One more set whose guesses were scored; report progress every so often."""
        self.reporting.own += 1
        self.report()

    def report(self) -> None:
        """Tell the progress callback, if any, how far the search is, if it is time to."""
        if self.reporting.due(self.sets):
            checkpoint = self.tasks.checkpoint
            self.reporting.report(self.sets(), checkpoint.resumed, checkpoint.sets_read)

    def _count_far(self, nodes: int) -> None:
        self.reporting.far += nodes
        self.report()

    def _compiled(
        self, codes: IndexArray, depth: int, limit: int, history: History
    ) -> tuple[int, Node] | None:
        """``solve`` for a set deep enough to search in compiled code (``search_dfs``)."""
        guesses = self.guesses(codes, history)
        cost = self._watched(lambda: self.state.solve(codes, depth, limit, guesses), _stopped)
        if cost == FAIL:
            return None
        return int(cost), self.state.rebuild(codes, depth)

    def _watched(self, call: Callable[[], T], stopped: Callable[[T], bool]) -> T:
        """``call()``, one long compiled call, watched (progress, limits and Ctrl-C while it
        runs; made again after a Ctrl-C that raised nothing); ``TaskStopped`` once its
        answer is ``stopped`` (its stop flag was set)."""
        while True:
            if self.watch is None:
                answer = call()
                break
            with self.watch:
                answer = call()
            if not stopped(answer) or not self.watch.resume():
                break
        self.report()
        if stopped(answer):
            raise TaskStopped("told to stop")
        return answer

    def _branch(
        self, codes: IndexArray, depth: int, limit: int, history: History
    ) -> tuple[int, Node] | None:
        state = self.state
        child = state.child(depth)
        guesses = self.guesses(codes, history)
        # The compiled search's order: lowest bound, most even split, may win (``_order``).
        order, bounds, exact = state.scores.order(state.ctx, codes, guesses, child, limit)
        if exact >= 0:  # parts of one or two codes: the lowest bound is the cost, optimal
            return int(bounds[exact]), state.tree_of(codes, int(guesses[exact]), depth)
        # Every distinct split's bound one guess deeper (each part's lookahead) guides the
        # search to a good guess early. Among guesses of equal cost the first in ``order``
        # wins (as in the compiled search), so the tree does not depend on what the memo knew
        # when the lookaheads were taken: a guess before the best so far must only match it.
        candidates: list[Candidate] = []
        if history:  # every guess's bound one guess deeper, in one compiled call
            state.ready(codes)
            hopeful = self._watched(
                lambda: search_calls.aheads(
                    state.ahead_ctx,
                    state.ahead_memo,
                    codes,
                    guesses[order],
                    bounds[order],
                    child,
                    limit,
                ),
                search_calls.stopped,
            )
        else:  # guesses splitting the codes alike are interchangeable: the first is tried
            firsts = set(state.distinct(codes, guesses[order]))
        for rank, i in enumerate(order.tolist()):
            guess = int(guesses[i])
            if history:
                if not 0 <= hopeful[rank] < limit:  # a split tried, or no better than limit
                    continue
            elif rank not in firsts:
                continue
            total, parts, owns = self._ahead(codes, guess, int(bounds[i]), child, history)
            if total < limit:
                candidates.append((total, rank, guess, parts, owns))
        best, best_rank, best_tree = limit, len(order), None
        explored = self.exploration(candidates)
        root = self.root
        if not history:
            root.floor = explored[0][0] if explored else limit
        # Their parts are tasks: the rounds of the guesses after the one settled, as far as
        # the answers known allow, are sent early to idle workers (``PartTasks.ahead``).
        ahead = len(history) == self.levels - 1 and isinstance(self.tasks.executor, Threads)
        try:
            for k, (total, rank, guess, parts, owns) in enumerate(explored):
                if not history:
                    root.next = explored[k + 1][0] if k + 1 < len(explored) else None
                    root.first = (k + 1, len(explored))
                reach = best if best_tree is None else window(best, rank, best_rank)
                if total >= reach:
                    continue
                if ahead and best_tree is not None:  # before it, windows would be wider
                    upcoming = explored[k + 1 :], history, best, best_rank, self.tasks
                    self.tasks.ahead(child, functools.partial(rounds_ahead, *upcoming))
                found = self._settle(parts, owns, guess, child, total, reach, history)
                if found is not None:
                    best, best_tree = found
                    best_rank = rank
                    if ahead:  # those sent ahead under way: windows of the old best, wider
                        self.tasks.ahead(child, None)
                    if not history:
                        root.best, root.tree = best, best_tree
                        self.report()
        finally:
            if ahead:
                self.tasks.ahead(child, None)
        return None if best_tree is None else (best, best_tree)

    @staticmethod
    def exploration(candidates: list[Candidate]) -> list[Candidate]:
        """The order in which ``_branch`` tries its guesses: lowest bound first, then the
        canonical order. Any order gives the same tree (the tests try others); this one
        finds the best guess early, so that the others are refuted against its cost."""
        return sorted(candidates, key=lambda candidate: candidate[:2])

    def _ahead(
        self,
        codes: IndexArray,
        guess: int,
        bound: int,
        depth: int,
        history: History,
    ) -> tuple[int, list[tuple[int, int, IndexArray]], list[int]]:
        """The bound of ``guess`` one guess deeper (``bound`` charged every part its ideal;
        now each part is charged its lookahead), its parts (size, reply, codes) and each
        part's bound."""
        if history:  # the parts are deep enough for the compiled lookahead
            state = self.state
            state.ready(codes)
            total, split, owns = search_calls.ahead(
                state.ahead_ctx, state.ahead_memo, codes, guess, bound, depth
            )
            return total, [(len(part), reply, part) for reply, part in split], owns
        split = self.state.scores.parts(self.state.ctx, codes, guess)
        parts = [(len(part), reply, part) for reply, part in split]
        total = bound
        owns = []
        for size, reply, part in parts:
            own = self.state.ideal(size, depth)
            if size >= 3:
                ahead = self.lookahead(part, depth, ((guess, reply),))
                total += ahead - own
                own = ahead
            owns.append(own)
        return total, parts, owns

    def _settle(
        self,
        parts: list[tuple[int, int, IndexArray]],
        owns: list[int],
        guess: int,
        depth: int,
        total: int,
        limit: int,
        history: History,
    ) -> tuple[int, Node] | None:
        """Solve the parts of ``guess`` (lower bounds ``owns``, summing with the guess's own
        cost to ``total``) if together they cost less than ``limit``.

        Narrow windows first: each round asks every open part for a tree costing just what
        its bound allows (plus its share of the slack); a part that has none gets a higher
        bound instead (``settle.Settling``). Proving that a guess is no better than the best
        is the bulk of the search, and such narrow searches prove it without solving any
        part exactly.
        """
        settling = Settling(parts, owns, guess, total, limit, history)
        root = self.root
        if not history:
            root.bound = total
            root.settled = (0, sum(size for size, _, _ in parts))
        while True:
            answers = self.tasks.round(depth, settling.asked())
            try:
                for p, found in zip(settling.pending, answers, strict=False):
                    cheaper = settling.hear(p, found)
                    if not history:
                        root.bound = settling.total
                        if found is not None and root.settled is not None:
                            done, codes = root.settled
                            root.settled = (done + parts[p][0], codes)
                        self.report()
                    if not cheaper:
                        return None
            finally:
                answers.close()
            if not settling.next_pass():
                return settling.tree()

    def lookahead(self, codes: IndexArray, depth: int, history: History) -> int:
        """A lower bound on the cost of ``codes`` (one guess into the game): the lowest bound
        over every guess, or the exact cost or a better bound when known."""
        key = (codes.tobytes(), depth)
        known = self.exact.get(key)
        if known is not None:
            return known[0]
        floor = self.floor.get(key, 0)
        if key in self.looked:
            return floor
        self.looked.add(key)
        self.count_node()
        guesses = self.guesses(codes, history)
        state = self.state
        bounds = state.scores.bounds(state.ctx, codes, guesses, state.child(depth))[0]
        floor = max(floor, int(bounds.min()))
        self.floor[key] = floor
        return floor


def _stopped(cost: int) -> bool:
    return cost == STOPPED


def _no_task(*arguments: object) -> Any:
    raise AssertionError("a search without an executor sends no task")


def _checkpoint(options: SearchOptions) -> Checkpoint:
    """A checkpoint in memory for a search of ``options`` (its answers kept for the run)."""
    o = options
    return Checkpoint(None, o.rules.spec, o.objective, o.max_depth, o.consistent_only)


class Guesses:
    """The guesses worth scoring at a set of codes at most ``python_levels`` guesses into a
    game of ``rules``: one per symmetry class of its history (those still possible alone if
    ``consistent_only``).

    >>> guesses = Guesses(Rules.parse("mm"), False)
    >>> len(guesses(universe(Rules.parse("mm")).all(), ()))
    5
    """

    def __init__(self, rules: Rules, consistent_only: bool) -> None:
        self.rules = rules
        self.consistent_only = consistent_only
        self.classes: dict[tuple[int, ...], IndexArray] = {}
        self.marks = np.zeros(len(universe(rules)), dtype=bool)

    def __call__(self, codes: IndexArray, history: History) -> IndexArray:
        played = tuple(sorted({guess for guess, _ in history}))
        classes = self.classes.get(played)
        if classes is None:
            classes = guess_classes(self.rules, played)  # the replies do not matter
            self.classes[played] = classes
        if self.consistent_only:
            self.marks[codes] = True
            classes = classes[self.marks[classes]]
            self.marks[codes] = False
        return classes


__all__ = [
    "Candidate", "Guesses", "Objective", "Run", "Search", "SearchOptions", "python_levels",
]  # fmt: skip
