"""A lower bound on a variant's lowest total one guess deeper than the root bound
(``search.frontier``), for variants no search settles.

The root bound charges each part ``P`` of a first guess its lookahead ``LA(P)``: the lowest,
over second guesses ``h``, of ``len(P)`` plus the ideal cost of each part ``h`` leaves. The
deep bound charges it ``LB2(P)``: the lowest, over ``h``, of ``len(P)`` plus the lookahead of
each part ``Q`` that ``h`` leaves (the lowest over third guesses of ``len(Q)`` plus the ideal
costs of its parts). Any tree's subtree at ``Q`` costs at least ``LA(Q)`` and at least the
ideal cost of ``Q``, so ``LA(P) <= LB2(P) <=`` the cost of any tree of ``P``. Second guesses
are taken one per class of the symmetries that fix the first guess, third guesses one per
class of those that fix both; a first guess whose root bound reaches the best deep bound
found is not bounded deeper (it cannot lower the bound), nor is a part once the sum passes it.

The *deeper* bound (``levels=3``) charges each part ``Q`` a second guess leaves its own deep
bound, third guesses one per class as above and fourth guesses every code; on ``mm`` and
``p4c7r`` it is the optimum itself.

>>> from bullscows.rules import Rules
>>> found = deep_bound(Rules.parse("p2c6r"))
>>> found.root, found.lower, [(found.text(first.guess), first.exact) for first in found.firsts]
(124, 132, [('01', True), ('00', False)])
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from bullscows._kernels.tables import INFEASIBLE, level_caps
from bullscows.errors import BullsCowsError
from bullscows.executors import make_executor, run_tasks
from bullscows.feedback import reply_count, valid_replies
from bullscows.rules import Rules
from bullscows.search.frontier import root_bound
from bullscows.symmetry import guess_classes
from bullscows.universe import Universe, distinct, universe

IndexArray = npt.NDArray[np.int64]
#: Told, as each part of a first guess is bounded: the first guess, parts done, parts in all.
PartProgress = Callable[[int, int, int], None]


@dataclass(frozen=True, slots=True)
class FirstDeep:
    """One first guess of each class: its root bound, and its deep bound (``exact``) or a
    figure it reaches, at least the variant's bound (not ``exact``: bounded no further once
    it could not lower the bound; its root bound when not bounded deeper at all)."""

    guess: int
    root: int
    deep: int
    exact: bool


@dataclass(frozen=True, slots=True)
class DeepBound:
    """No tree of ``rules`` costs less than ``lower``; ``root`` is the root bound, and
    ``firsts`` each first guess's bounds, lowest root bound first."""

    rules: Rules
    lower: int
    root: int
    firsts: tuple[FirstDeep, ...]

    def text(self, guess: int) -> str:
        """A first guess as the game writes it."""
        return universe(self.rules).text(guess)


@dataclass(frozen=True, slots=True)
class _Shape:
    """What every part's bound reads: second guesses, third guesses after each (concatenated,
    from ``starts``), replies and level capacities."""

    seconds: IndexArray
    thirds: IndexArray
    starts: IndexArray
    valid: npt.NDArray[np.uint8]
    win: int
    caps: IndexArray
    slots: int
    levels: int


def deep_bound(
    rules: Rules, jobs: int = 1, progress: PartProgress | None = None, levels: int = 2
) -> DeepBound:
    """The deep bound of ``rules`` (see the module docstring), its parts bounded on ``jobs``
    threads: no tree costs less than ``lower``. With ``levels`` 3, the deeper bound: each
    part ``Q`` a second guess leaves is charged its own deep bound rather than its lookahead
    (fourth guesses: every code)."""
    if levels not in (2, 3):
        raise BullsCowsError(f"levels {levels}: the deep bound looks 2 or 3 guesses deep")
    root = root_bound(rules)
    order = sorted(root.firsts, key=lambda first: (first[1], first[0]))
    best = INFEASIBLE
    found: list[FirstDeep] = []
    for guess, cheap in order:
        if cheap >= best:  # the deep bound is at least the root bound: no lower
            found.append(FirstDeep(guess, cheap, cheap, False))
            continue
        first = _first(rules, guess, cheap, best, jobs, progress, levels)
        found.append(first)
        if first.exact:
            best = min(best, first.deep)
    return DeepBound(rules, best, root.lower, tuple(found))


def _first(
    rules: Rules,
    first: int,
    cheap: int,
    best: int,
    jobs: int,
    progress: PartProgress | None,
    levels: int,
) -> FirstDeep:
    """The deep bound of ``first`` (root bound ``cheap``), or a figure of at least ``best``."""
    u = universe(rules)
    secrets = u.secrets
    shape = _shape(rules, first, levels)
    replies = u.score_row(first, secrets)
    parts = [secrets[replies == r] for r in distinct(replies).tolist() if r != shape.win]
    parts.sort(key=len, reverse=True)  # the largest first: they take longest
    large = [part for part in parts if len(part) >= 3]
    state = _Sum(cheap, best)
    with make_executor(None, jobs, None, threads=True) as pool:
        tasks = [(_part, (u, part, shape, state)) for part in large]
        for number, (_, gain) in enumerate(run_tasks(tasks, pool)):
            state.add(gain)
            if progress is not None:
                progress(first, number + 1, len(large))
            if state.over:
                break
    return FirstDeep(first, cheap, state.total, not state.over)


class _Sum:
    """A first guess's bound as its parts are bounded: its root bound with each part's deep
    bound in place of its lookahead, and the slack a part may add before the sum reaches
    ``best`` (read by each part as it starts, so later parts stop sooner)."""

    def __init__(self, cheap: int, best: int) -> None:
        self.total, self.best = cheap, best
        self._lock = threading.Lock()

    @property
    def over(self) -> bool:
        return self.total >= self.best

    def slack(self) -> int:
        with self._lock:
            return INFEASIBLE if self.best >= INFEASIBLE else max(self.best - self.total, 0)

    def add(self, gain: int) -> None:
        with self._lock:
            self.total += gain


_SCORING = threading.Lock()  # one block scored at a time (numba's threads score it)


def _part(u: Universe, part: IndexArray, shape: _Shape, state: _Sum) -> int:
    """How much the deep bound of ``part`` adds to its lookahead (at least the slack left
    when it starts, if it reaches it)."""
    from bullscows._kernels import deep_bounds, search_kernels

    slack = state.slack()
    if slack == 0:  # the first guess is refuted already
        return 0
    with _SCORING:
        block = u.score_matrix(part, u.all())  # scoring is symmetric: the part's rows
    codes = np.arange(len(part), dtype=np.int64)
    depth = len(part) + 1
    cheap = search_kernels.guess_bounds(
        block, shape.seconds, codes, shape.valid, shape.win, shape.caps, depth
    )[0]
    ahead = int(cheap.min())
    limit = INFEASIBLE if slack >= INFEASIBLE else ahead + slack
    kernel = deep_bounds.part_bound3 if shape.levels == 3 else deep_bounds.part_bound
    deep = kernel(
        block, shape.seconds, cheap, shape.thirds, shape.starts, shape.valid,
        shape.win, shape.caps, shape.slots, limit,
    )[0]  # fmt: skip
    return int(deep) - ahead


def _shape(rules: Rules, first: int, levels: int) -> _Shape:
    """The second guesses after ``first`` and the third guesses after each."""
    u = universe(rules)
    n = len(u.secrets)
    win = rules.length * (rules.length + 1)
    valid = np.array([r for r in valid_replies(rules) if r != win], dtype=np.uint8)
    seconds = guess_classes(rules, (first,)).astype(np.int64)
    after = [guess_classes(rules, (first, int(h))) for h in seconds.tolist()]
    starts = np.zeros(len(after) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(t) for t in after])
    thirds = np.concatenate(after).astype(np.int64) if after else np.zeros(0, np.int64)
    caps = level_caps(reply_count(rules), covering=n)
    return _Shape(seconds, thirds, starts, valid, win, caps, rules.reply_slots, levels)
