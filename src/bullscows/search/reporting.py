"""How one optimal-tree search counts its sets and reports to its progress callback
(``search.progress``): where its root stands (``Root``: the bounds of the best tree) and
when a report is due.

>>> root = Root(floor=50)
>>> root.lower(), Root(floor=50, bound=60, best=70, next=65).lower()
(50, 60)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from bullscows.search.progress import PROGRESS_EVERY, Costs, Limited, Progress, SearchReport
from bullscows.tree.model import Node


@dataclass(slots=True)
class Root:
    """Where the search of every code stands: ``floor``, no tree costs less (once its
    search began); ``bound``, the climbing bound of the first guess being settled; ``best``
    and ``tree``, the best tree found (the incumbent); ``next``, the lowest bound of a first
    guess not yet tried; ``first``, the first guess being settled of those to try (one per
    symmetry class, in the order tried); ``settled``, the codes of its parts settled so far
    of all its parts' codes; ``costs``, how its costs read."""

    floor: int | None = None
    bound: int | None = None
    best: int | None = None
    tree: Node | None = None
    next: int | None = None
    first: tuple[int, int] | None = None
    settled: tuple[int, int] | None = None
    costs: Costs = field(default_factory=Costs)

    def lower(self) -> int | None:
        """The proven lower bound (no tree of every code costs less), once the search has
        begun: the lowest of the best cost found, the climbing bound of the first guess being
        settled and the bound of every first guess not yet tried (a guess refuted or skipped
        costs at least the best)."""
        if self.floor is None:
            return None
        if self.bound is None:
            return self.floor
        known = (self.best, self.bound, self.next)
        return min(value for value in known if value is not None)


class Reporting:
    """A search's counts of sets and its reports to ``progress`` (every ``PROGRESS_EVERY``
    seconds, of the seconds since ``start``, and at once when the budget of a ``Limited``
    one runs out); ``lower``: whether reports give the root's lower bound (not when every
    cost is 0)."""

    def __init__(
        self, progress: Progress | None, start: float, penalty: int, lower: bool = True
    ) -> None:
        self.progress = progress
        self.budget = progress.budget if isinstance(progress, Limited) else None
        self.start = start
        self.reported = start
        self.with_lower = lower
        self.root = Root(costs=Costs(penalty))
        self.own = 0  # sets whose guesses were scored here, in Python
        self.far = 0  # sets searched by the tasks (other threads or processes)
        self.prior = 0  # sets searched before this search by the run it belongs to
        self.shown = 0  # the most sets reported (``sets``)

    def sets(self, searched: int, in_flight: int) -> int:
        """The sets searched so far by the run: before this search (``prior``), by it
        (``searched``) and by its tasks under way (``in_flight``); never fewer than said
        before (a task stopped in vain takes its sets with it)."""
        self.shown = max(self.shown, self.prior + searched + in_flight)
        return self.shown

    def due(self, sets: Callable[[], int]) -> bool:
        """Whether a report is due (and it is now reported): ``PROGRESS_EVERY`` seconds
        since the last, or the budget spent (``sets()``: the sets searched so far, counted
        only for a budget of sets). A look at the clock, and at the counters under a budget
        of sets: cheap enough for every set the Python levels score."""
        now = time.perf_counter()
        if self.progress is None:
            return False
        if now - self.reported < PROGRESS_EVERY and (
            self.budget is None or self.budget.spent_after(now - self.start, sets) is None
        ):
            return False
        self.reported = now
        return True

    def report(self, sets: int, resumed: int, kept: int = 0) -> None:
        """Tell the progress callback how far the search is (``resumed``: answers read back
        from the checkpoint; ``kept``: sets read back from beside it, ``search.kept``)."""
        assert self.progress is not None  # only once ``due``
        root = self.root
        lower = root.lower() if self.with_lower else None
        seconds = self.reported - self.start
        report = SearchReport(sets, root.bound, root.best, seconds, resumed, kept=kept)
        where = replace(report, first=root.first, settled=root.settled)
        self.progress(replace(where, lower=lower, costs=root.costs))


__all__ = ["Reporting", "Root"]
