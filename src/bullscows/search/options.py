"""What one optimal-tree search looks for (``SearchOptions``) and the run it is part of
(``Run``: where its progress, its tasks and its stop flag go), each one value.

>>> options = SearchOptions(Rules.parse("mm"), "worst")
>>> options.capped, options.penalty(1296), options.task_options()[1:]
(True, 0, ('worst', None, False, 1))
>>> SearchOptions(Rules.parse("mm"), "worst-count").penalty(1296) == PENALTY_DEPTH * 1296
True
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from bullscows.errors import SearchError
from bullscows.rules import Rules
from bullscows.search.checkpoint import Checkpoint
from bullscows.search.distribute import TASK_LEVEL, Local, Task
from bullscows.search.progress import Progress

Objective = Literal["total", "worst", "worst-count", "total-worst"]
#: The objectives searched under a depth cap (``search.optimal`` finds the cap).
CAPPED: tuple[Objective, ...] = ("worst", "worst-count", "total-worst")
#: The lowest worst case ``"worst-count"`` handles: its penalty must outweigh any total.
PENALTY_DEPTH = 32


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """The trees one search ranks: of ``rules``, by ``objective``, within ``max_depth``
    guesses, guessing only codes still possible if ``consistent_only``; ``weight`` 1, or 0
    to ask only whether a tree fits (every cost is then 0)."""

    rules: Rules
    objective: Objective = "total"
    max_depth: int | None = None
    consistent_only: bool = False
    weight: int = 1

    @property
    def capped(self) -> bool:
        """Whether each guess spends one level of a depth cap."""
        return self.max_depth is not None or self.objective in CAPPED

    def penalty(self, codes: int) -> int:
        """What each secret settled by the cap's last guess adds to a cost, in a universe of
        ``codes`` codes: under ``"worst-count"`` more than the total of any tree within
        ``PENALTY_DEPTH`` guesses, so that a cost counts those secrets first (``search_dfs``);
        else 0."""
        return PENALTY_DEPTH * codes if self.objective == "worst-count" and self.weight else 0

    def task_options(self) -> tuple[Any, ...]:
        """The options as a task takes them (``search.worker.solve_task``)."""
        return (self.rules, self.objective, self.max_depth, self.consistent_only, self.weight)


@dataclass(frozen=True, slots=True)
class Run:
    """What a search belongs to: ``progress`` is told the seconds since ``start``; tasks are
    answered by ``checkpoint`` (else kept in memory) and sent to ``executor`` as calls of
    ``task`` (``search.worker.solve_task``), else solved here, by ``local`` if given (a
    worker's, ``search.worker``) or by the search itself; once ``stop[0]`` is set (by
    another thread) the search raises ``TaskStopped``. One run's searches share it."""

    progress: Progress | None = None
    start: float = 0.0
    checkpoint: Checkpoint | None = None
    executor: Executor | None = None
    task: Task | None = None
    stop: npt.NDArray[np.int64] | None = None
    local: Local | None = None

    def __post_init__(self) -> None:
        if self.executor is not None and self.task is None:
            raise SearchError("a search on an executor needs the task its workers run")


def python_levels(rules: Rules) -> int:
    """The levels searched in Python: sets with a shorter history. The sets one level
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


__all__ = ["CAPPED", "PENALTY_DEPTH", "Objective", "Run", "SearchOptions", "python_levels"]
