"""One optimal-tree search (``search.optimal`` explains the algorithm): its state (score
matrix, memo, counters) and the first two levels of the branch and bound, run here in Python
where the symmetry classes are; deeper sets go to the compiled search
(``_kernels.search_dfs``), and the parts two guesses deep are tasks (``search.distribute``),
which ``search.worker.solve_task`` answers wherever they are sent. Progress is reported as
``search.progress`` describes.
"""

from __future__ import annotations

import threading
import time
import weakref
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from bullscows._kernels import search_calls
from bullscows._kernels.tables import CTX_STOP, FAIL, STOPPED, level_caps
from bullscows.executors import TaskStopped
from bullscows.feedback import reply_count, valid_replies
from bullscows.rules import Rules
from bullscows.search.checkpoint import Checkpoint
from bullscows.search.distribute import TASK_LEVEL, PartTasks, Task
from bullscows.search.progress import PROGRESS_EVERY, Costs, Progress, SearchReport
from bullscows.search.tree import tree_cost
from bullscows.search.watch import Watch
from bullscows.symmetry import guess_classes
from bullscows.tree.model import Node
from bullscows.universe import IndexArray, universe

Objective = Literal["total", "worst", "worst-count", "total-worst"]
#: The objectives searched under a depth cap (``search.optimal`` finds the cap).
CAPPED: tuple[Objective, ...] = ("worst", "worst-count", "total-worst")
#: The lowest worst case ``"worst-count"`` handles: its penalty must outweigh any total.
PENALTY_DEPTH = 32
#: A guess at a node: its bound one guess deeper, its rank in the canonical order, the guess,
#: its parts (size, reply, codes) and each part's bound.
Candidate = tuple[int, int, int, list[tuple[int, int, IndexArray]], list[int]]


def python_levels(rules: Rules) -> int:
    """The levels searched here, in Python: sets with a shorter history. The sets one level
    down are the tasks (``search.distribute``) and the compiled search's starting sets; up
    to them the guesses are reduced by symmetry (deeper it rarely pays).

    Two levels (``TASK_LEVEL``), unless the variant has fewer symbols than two guesses have
    places (``mm``: 6 colours, 8 places): two guesses can then leave few symbols unused, the
    symmetry classes two guesses deep save little, and the lookaheads that order the guesses
    one guess deep cost more than they save, so the compiled search starts one guess into the
    game (``benchmarks/levels.py`` times both on 15 variants). Either way the tree is optimal.

    >>> python_levels(Rules.parse("mm")), python_levels(Rules.parse("bc"))
    (1, 2)
    """
    return 1 if len(rules.symbols) < 2 * rules.length else TASK_LEVEL


class Search:
    """The state of one search: score matrix, level capacities, memos and counters."""

    def __init__(
        self,
        rules: Rules,
        objective: Objective,
        max_depth: int | None,
        consistent_only: bool,
        progress: Progress | None = None,
        start: float = 0.0,
        checkpoint: Checkpoint | None = None,
        executor: Executor | None = None,
        weight: int = 1,
        task: Task | None = None,
        stop: npt.NDArray[np.int64] | None = None,
    ) -> None:
        """A search for ``rules`` with these options, reporting to ``progress`` the seconds
        since ``start``; its tasks answered by ``checkpoint`` (else kept in memory) and sent
        to ``executor`` as calls of ``task`` (``search.worker.solve_task``), else run here.
        Once ``stop[0]`` is set (by another thread), ``solve`` raises ``TaskStopped``."""
        if executor is not None and task is None:
            raise ValueError("a search on an executor needs the task its workers run")
        u = universe(rules)
        self.rules = rules
        self.weight = weight  # 1; or 0 to ask only whether a tree fits (every cost is 0)
        # "worst-count": every secret that needs the whole cap costs more than any total of a
        # tree within PENALTY_DEPTH guesses, so the cost counts them first (search_dfs).
        self.penalty = PENALTY_DEPTH * len(u) if objective == "worst-count" and weight else 0
        self.scores = _score_matrix(rules)
        self.win = rules.length * (rules.length + 1)
        self.slots = rules.reply_slots
        self.capped = max_depth is not None or objective in CAPPED
        # Level capacities up to the first that holds every code, and one more.
        self.caps = level_caps(reply_count(rules), covering=len(u))
        self.unlimited = len(u) + 1  # no tree is deeper than it has codes (each guess helps)
        self.consistent_only = consistent_only
        self.levels = python_levels(rules)
        self.progress = progress
        self.start = start
        self.own_nodes = 0
        self.reported = start
        self.valid = np.array([r for r in valid_replies(rules) if r != self.win], dtype=np.uint8)
        self.stats = np.zeros(2, dtype=np.int64)
        # What every call of the compiled search reads (see search_dfs).
        self.ctx = search_calls.context(
            self.scores,
            self.caps,
            self.valid,
            self.win,
            search_calls.code_keys(len(u)),
            self.stats,
            self.capped,
            consistent_only,
            u.all(),
            self.slots,
            weight,
            self.penalty,
            np.zeros(1, dtype=np.int64) if stop is None else stop,
        )
        self.memo = search_calls.Memo()
        # Its own thread's long compiled calls watched (``search.watch``): a search reporting
        # progress, or one the person at the keyboard may interrupt.
        main = threading.current_thread() is threading.main_thread()
        watched = progress is not None or main
        self.watch = Watch(self.ctx[CTX_STOP], self.report) if watched else None
        self.root_bound: int | None = None
        self.far_nodes = 0  # searched by the tasks (other threads or processes)
        self.prior = 0  # sets searched before this search by the run it belongs to (reported)
        self.shown = 0  # the most sets reported (``sets``)
        if checkpoint is None:
            checkpoint = Checkpoint(None, rules.spec, objective, max_depth, consistent_only)
        self.tasks = PartTasks(
            checkpoint, weight, executor, task or _no_task,
            (rules, objective, max_depth, consistent_only, weight), self._solve_here,
            self._count_far, self.levels, self.trust,
        )  # fmt: skip
        self.root_best: int | None = None
        self.root_tree: Node | None = None  # the best tree found at the root (the incumbent)
        self.root_next: int | None = None  # the lowest bound of a first guess not yet tried
        self.root_floor: int | None = None  # no tree of the root's codes costs less
        self.root_first: tuple[int, int] | None = None  # the first guess tried, of how many
        self.root_settled: tuple[int, int] | None = None  # its parts' codes settled, of all
        self.costs = Costs(self.penalty)
        self.exact: dict[tuple[bytes, int], tuple[int, Node]] = {}
        self.floor: dict[tuple[bytes, int], int] = {}
        self.marks = np.zeros(len(u), dtype=bool)
        self.classes: dict[tuple[int, ...], IndexArray] = {}
        self.looked: set[tuple[bytes, int]] = set()

    def shallowest(self, codes: int) -> int:
        """The fewest guesses within which some tree could settle ``codes`` codes."""
        return int(np.searchsorted(self.caps, codes))

    def ideal(self, n: int, depth: int) -> int:
        """No tree settles ``n`` codes within ``depth`` guesses for less (``search.bounds``)."""
        return search_calls.ideal_cost(self.ctx, n, depth)

    @property
    def nodes(self) -> int:
        """Sets whose guesses were scored, here and in the compiled search."""
        return self.own_nodes + int(self.stats.sum()) + self.far_nodes

    def _solve_here(
        self, history: tuple[tuple[int, int], ...], codes: IndexArray, depth: int, limit: int
    ) -> tuple[int, Node] | None:
        return self.solve(codes, depth, limit, history)

    def trust(self, codes: IndexArray, depth: int, found: tuple[int, Node]) -> bool:
        """Whether ``found``'s tree settles ``codes`` within ``depth`` guesses at the cost it
        claims (one read from a checkpoint: the file may be damaged or edited)."""
        cost = tree_cost(self.scores, self.win, found[1], codes, depth, self.penalty,
                         self.weight, self.consistent_only)  # fmt: skip
        return cost == found[0]

    def _count_far(self, nodes: int) -> None:
        self.far_nodes += nodes
        self.report()

    def guesses(self, codes: IndexArray, history: tuple[tuple[int, int], ...]) -> IndexArray:
        """The guesses worth scoring at ``codes`` (at most ``levels`` guesses into the game):
        one per symmetry class of the history."""
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

    def solve(
        self, codes: IndexArray, depth: int, limit: int, history: tuple[tuple[int, int], ...]
    ) -> tuple[int, Node] | None:
        """The optimal (cost, tree) for ``codes`` within ``depth`` guesses if it costs less
        than ``limit``, else ``None`` (then no tree costs less than ``limit``)."""
        if not codes.flags.writeable:  # as the parts are: one compiled variant of each kernel
            codes = codes.copy()
        n = len(codes)
        cost = self.ideal(n, depth)
        if cost >= limit:
            return None
        if n <= 2:  # one code costs 1, two cost 3 (and any penalty): exactly their bound
            return cost, self._rebuild(codes, depth)
        if len(history) >= self.levels:
            return self._compiled(codes, depth, limit, history)
        if not history:
            self.root_floor = cost
            self.costs = Costs(self.penalty, depth if self.capped else None)
        key = (codes.tobytes(), depth)
        known = self.exact.get(key)
        if known is not None:
            return known if known[0] < limit else None
        if self.floor.get(key, 0) >= limit:
            return None
        self.count_node()
        found = self._perfect(codes, depth)
        if found is None:
            found = self._branch(codes, depth, limit, history)
        if found is None:
            self.floor[key] = limit
        else:
            self.exact[key] = found
        return found

    def count_node(self) -> None:
        """One more set whose guesses were scored; report progress every so often."""
        self.own_nodes += 1
        self.report()

    def report(self) -> None:
        """Tell the progress callback, if any, how far the search is."""
        now = time.perf_counter()
        if self.progress is not None and now - self.reported >= PROGRESS_EVERY:
            self.reported = now
            resumed = self.tasks.checkpoint.resumed
            lower = self.root_lower() if self.weight else None
            sets, seconds = self.sets(), now - self.start
            report = SearchReport(sets, self.root_bound, self.root_best, seconds, resumed)
            where = replace(report, first=self.root_first, settled=self.root_settled)
            self.progress(replace(where, lower=lower, costs=self.costs))

    def sets(self) -> int:
        """The sets searched so far by the run this search belongs to: before it (``prior``),
        by it, and by its tasks under way (``PartTasks.in_flight``); never fewer than said
        before (a task stopped in vain takes its sets with it)."""
        self.shown = max(self.shown, self.prior + self.nodes + self.tasks.in_flight())
        return self.shown

    def root_lower(self) -> int | None:
        """The proven lower bound of the root (no tree of every code costs less), once the
        root's search has begun: the lowest of the best cost found, the climbing bound of the
        first guess being settled and the bound of every first guess not yet tried (a guess
        refuted or skipped costs at least the best)."""
        if self.root_floor is None:
            return None
        if self.root_bound is None:
            return self.root_floor
        known = (self.root_best, self.root_bound, self.root_next)
        return min(value for value in known if value is not None)

    def _compiled(
        self, codes: IndexArray, depth: int, limit: int, history: tuple[tuple[int, int], ...]
    ) -> tuple[int, Node] | None:
        """``solve`` for a set deep enough to search in compiled code (``search_dfs``)."""
        guesses = self.guesses(codes, history)
        while True:
            if self.watch is None:
                cost = search_calls.solve(self.ctx, self.memo, codes, depth, limit, guesses)
                break
            with self.watch:  # progress, limits and Ctrl-C while the call runs
                cost = search_calls.solve(self.ctx, self.memo, codes, depth, limit, guesses)
            if cost != STOPPED or not self.watch.resume():
                break
        self.report()
        if cost == STOPPED:
            raise TaskStopped("told to stop")
        if cost == FAIL:
            return None
        return int(cost), self._rebuild(codes, depth)

    def _rebuild(self, codes: IndexArray, depth: int) -> Node:
        """The tree of a set the compiled search settled, read back from its memo."""
        if len(codes) == 1:
            return Node(int(codes[0]))
        if len(codes) == 2:
            a, b = int(codes[0]), int(codes[1])
            return Node(a, {int(self.scores[a, b]): Node(b)})
        guess = search_calls.best_guess(self.ctx, self.memo, codes, depth)
        if guess < 0:
            raise RuntimeError("the compiled search lost a settled set")  # a bug, not input
        return self._tree_of(codes, guess, depth)

    def _tree_of(self, codes: IndexArray, guess: int, depth: int) -> Node:
        """``guess`` at ``codes``, each part's tree read back from the memo (parts of one or two
        codes need none)."""
        child = depth - 1 if self.capped else depth
        branches = {
            reply: self._rebuild(part, child)
            for reply, part in search_calls.parts(self.ctx, codes, guess)
        }
        return Node(guess, dict(sorted(branches.items())))

    def _perfect(self, codes: IndexArray, depth: int) -> tuple[int, Node] | None:
        """A candidate splitting the others into single codes: cost ``2n - 1`` (and any
        penalty), the ideal, hence optimal."""
        row = search_calls.perfect(self.ctx, codes)
        if row < 0:
            return None
        cost = self.ideal(len(codes), depth)
        return cost, self._tree_of(codes, int(codes[row]), depth)

    def _branch(
        self, codes: IndexArray, depth: int, limit: int, history: tuple[tuple[int, int], ...]
    ) -> tuple[int, Node] | None:
        child = depth - 1 if self.capped else depth
        guesses = self.guesses(codes, history)
        # The compiled search's order: lowest bound, most even split, may win (``_order``).
        order, bounds, exact = search_calls.guess_order(self.ctx, codes, guesses, child, limit)
        if exact >= 0:  # parts of one or two codes: the lowest bound is the cost, optimal
            return int(bounds[exact]), self._tree_of(codes, int(guesses[exact]), depth)
        # Every distinct split's bound one guess deeper (each part's lookahead) guides the
        # search to a good guess early. Among guesses of equal cost the first in ``order``
        # wins (as in the compiled search), so the tree does not depend on what the memo knew
        # when the lookaheads were taken: a guess before the best so far must only match it.
        tried: set[bytes] = set()  # guesses splitting the codes alike are interchangeable
        candidates: list[Candidate] = []
        if history:  # every guess's bound one guess deeper, in one compiled call
            hopeful = search_calls.aheads(
                self.ctx, self.memo, codes, guesses[order], bounds[order], child, limit
            )
        for rank, i in enumerate(order.tolist()):
            guess = int(guesses[i])
            if history:
                if not 0 <= hopeful[rank] < limit:  # a split tried, or no better than limit
                    continue
            else:
                split = self.scores[guess, codes].tobytes()
                if split in tried:
                    continue
                tried.add(split)
            total, parts, owns = self._ahead(codes, guess, int(bounds[i]), child, history)
            if total < limit:
                candidates.append((total, rank, guess, parts, owns))
        best, best_rank, best_tree = limit, len(order), None
        explored = self.exploration(candidates)
        if not history:
            self.root_floor = explored[0][0] if explored else limit
        for k, (total, rank, guess, parts, owns) in enumerate(explored):
            if not history:
                self.root_next = explored[k + 1][0] if k + 1 < len(explored) else None
                self.root_first = (k + 1, len(explored))
            reach = best + 1 if rank < best_rank and best_tree is not None else best
            if total >= reach:
                continue
            found = self._settle(parts, owns, guess, child, total, reach, history)
            if found is not None:
                best, best_tree = found
                best_rank = rank
                if not history:
                    self.root_best, self.root_tree = best, best_tree
                    self.report()
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
        history: tuple[tuple[int, int], ...],
    ) -> tuple[int, list[tuple[int, int, IndexArray]], list[int]]:
        """The bound of ``guess`` one guess deeper (``bound`` charged every part its ideal;
        now each part is charged its lookahead), its parts (size, reply, codes) and each
        part's bound."""
        if history:  # the parts are deep enough for the compiled lookahead
            total, split, owns = search_calls.ahead(self.ctx, self.memo, codes, guess, bound, depth)
            return total, [(len(part), reply, part) for reply, part in split], owns
        parts = [
            (len(part), reply, part) for reply, part in search_calls.parts(self.ctx, codes, guess)
        ]
        total = bound
        owns = []
        for size, reply, part in parts:
            own = self.ideal(size, depth)
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
        history: tuple[tuple[int, int], ...],
    ) -> tuple[int, Node] | None:
        """Solve the parts of ``guess`` (lower bounds ``owns``, summing with the guess's own
        cost to ``total``) if together they cost less than ``limit``.

        Narrow windows first: each round asks every open part for a tree costing just what
        its bound allows (plus its share of the slack); a part that has none gets a higher
        bound instead. Proving that a guess is no better than the best is the bulk of the
        search, and such narrow searches prove it without solving any part exactly.
        """
        branches: dict[int, Node] = {}
        owns = list(owns)
        pending = list(range(len(parts)))
        still: list[int] = []
        if not history:
            self.root_bound = total
            self.root_settled = (0, sum(size for size, _, _ in parts))
        while pending:
            share = max(1, (limit - total) // len(pending))
            asked = [
                ((*history, (guess, parts[p][1])), parts[p][2], owns[p] + share) for p in pending
            ]
            answers = self.tasks.round(depth, asked)
            try:
                for p, found in zip(pending, answers, strict=False):
                    if found is None:
                        total += share
                        owns[p] += share
                        still.append(p)
                    else:
                        total += found[0] - owns[p]
                        owns[p] = found[0]
                        branches[parts[p][1]] = found[1]
                    if not history:
                        self.root_bound = total
                        if found is not None and self.root_settled is not None:
                            done, codes = self.root_settled
                            self.root_settled = (done + parts[p][0], codes)
                        self.report()
                    if total >= limit:
                        return None
            finally:
                answers.close()
            pending, still = still, []
        return total, Node(guess, dict(sorted(branches.items())))

    def guess_bounds(
        self, guesses: IndexArray, codes: IndexArray, depth: int
    ) -> tuple[IndexArray, IndexArray, IndexArray, IndexArray]:
        """``search_kernels.guess_bounds`` with this search's replies, level capacities, weight
        and penalty (``search_calls.bounds``)."""
        return search_calls.bounds(self.ctx, codes, guesses, depth)

    def lookahead(self, codes: IndexArray, depth: int, history: tuple[tuple[int, int], ...]) -> int:
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
        child = depth - 1 if self.capped else depth
        bounds = self.guess_bounds(guesses, codes, child)[0]
        floor = max(floor, int(bounds.min()))
        self.floor[key] = floor
        return floor


#: The score matrix of each variant some search of this process holds (its threads share it).
_SCORES: weakref.WeakValueDictionary[Rules, npt.NDArray[np.uint8]]
_SCORES = weakref.WeakValueDictionary()


def _score_matrix(rules: Rules) -> npt.NDArray[np.uint8]:
    """Every code's reply to every guess, computed once while a search of ``rules`` holds it:
    the searches of a search's tasks on threads of its process (``search.worker``) share it.

    >>> held = _score_matrix(Rules.parse("mm"))
    >>> held is _score_matrix(Rules.parse("mm"))
    True
    """
    scores = _SCORES.get(rules)
    if scores is None:
        u = universe(rules)
        scores = u.score_matrix(u.all(), u.all())
        _SCORES[rules] = scores
    return scores


def _no_task(*arguments: object) -> Any:
    raise AssertionError("a search without an executor sends no task")
