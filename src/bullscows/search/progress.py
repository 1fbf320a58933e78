"""How a long search tells a person how far it is: a ``SearchReport`` every so often, with
the proven lower bound, the best tree found (the upper bound) and the gap between them; and
how a search is given a budget (``Budget``) after which it stops and reports those bounds.

>>> print(SearchReport(1234567, 26180, 26290, 12.34, lower=26101))
1,234,567 sets searched, lower bound 26,101, upper bound 26,290, gap 189 (0.72%), 12 s
>>> print(Costs(penalty=161280, cap=7).text(50 * 161280 + 26484))
50 at 7, total 26,484
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bullscows.errors import BullsCowsError
from bullscows.feedback import counted
from bullscows.tree.model import Node

#: Seconds between two progress reports.
PROGRESS_EVERY = 1.0


@dataclass(frozen=True, slots=True)
class Costs:
    """How a search's costs read. A cost is the total of guesses over every secret, within
    ``cap`` guesses if the search has one; under the ``"worst-count"`` objective each secret
    settled by the last guess the cap allows also costs ``penalty`` (more than any total), so a
    cost reads as secrets at the cap, then total.

    >>> Costs().text(26274), Costs().gap(26101, 26290), Costs(cap=5).text(5626)
    ('26,274', '189 (0.72%)', '5,626 within 5')
    >>> worst = Costs(penalty=1000, cap=5)
    >>> worst.text(539 * 1000 + 627), worst.gap(530 * 1000 + 900, 539 * 1000 + 627)
    ('539 at 5, total 627', '9 secrets at 5')
    >>> worst.gap(539 * 1000 + 600, 539 * 1000 + 627)
    '27 in the total'
    """

    penalty: int = 0
    cap: int | None = None

    def split(self, cost: int) -> tuple[int, int]:
        """``(secrets at the cap, total)``: what a cost counts (no secrets without a penalty).
        For a lower bound, no tree has fewer secrets at the cap, nor as few and a lower total."""
        return divmod(cost, self.penalty) if self.penalty else (0, cost)

    def text(self, cost: int) -> str:
        """A cost for people."""
        at_cap, total = self.split(cost)
        if self.penalty:
            return f"{at_cap:,} at {self.cap}, total {total:,}"
        return f"{total:,}" if self.cap is None else f"{total:,} within {self.cap}"

    def gap(self, lower: int, upper: int) -> str:
        """How far apart a lower and an upper bound are."""
        if not self.penalty:
            share = (upper - lower) / upper if upper else 0.0
            return f"{upper - lower:,} ({share:.2%})"
        low, high = self.split(lower), self.split(upper)
        if low[0] != high[0]:
            return f"{high[0] - low[0]:,} secrets at {self.cap}"
        return f"{high[1] - low[1]:,} in the total"

    def bounds(self, lower: int, upper: int | None) -> str:
        """A lower and an upper bound (if any) and their gap, for people.

        >>> Costs().bounds(24575, None)
        'lower bound 24,575, upper bound none yet'
        """
        if upper is None:
            return f"lower bound {self.text(lower)}, upper bound none yet"
        return (
            f"lower bound {self.text(lower)}, upper bound {self.text(upper)}, "
            f"gap {self.gap(lower, upper)}"
        )


@dataclass(frozen=True, slots=True)
class SearchReport:
    """How far a search is: sets searched, the lower bound of the first guess being settled
    (it climbs as its parts are settled, then starts again at the next first guess), the best
    cost found at the root (``None`` until one is: the upper bound), the seconds spent, the
    answers taken from a checkpoint, the proven lower bound of the whole search (no tree
    costs less; ``None`` while the search only asks which cap fits), how costs read, and
    where the root stands: the first guess being settled of those to try (``first``, one
    per symmetry class, in the order tried) and the codes of its parts settled so far of
    all its parts' codes (``settled``), ``None`` before the root's search has them."""

    nodes: int
    bound: int | None
    best: int | None
    seconds: float
    resumed: int = 0
    lower: int | None = None
    kept: int = 0
    costs: Costs = Costs()
    first: tuple[int, int] | None = None
    settled: tuple[int, int] | None = None

    def __str__(self) -> str:
        """One line for people.

        >>> print(SearchReport(1234567, 26180, None, 12.34, 3))
        1,234,567 sets searched, bound 26,180, best none yet, 12 s (3 answers from the checkpoint)
        >>> print(SearchReport(5000, 24575, None, 10.0, lower=24575))
        5,000 sets searched, lower bound 24,575, upper bound none yet, 10 s
        >>> print(SearchReport(9, None, None, 1.0, 99, kept=1234))  # doctest: +ELLIPSIS
        9 sets searched, ..., 1 s (99 answers and 1,234 sets from the checkpoint)
        """
        read = [f"{self.resumed:,} answers"] if self.resumed else []
        read += [f"{self.kept:,} sets"] if self.kept else []
        resumed = f" ({' and '.join(read)} from the checkpoint)" if read else ""
        if self.lower is None:
            bound = "none yet" if self.bound is None else self.costs.text(self.bound)
            best = "none yet" if self.best is None else self.costs.text(self.best)
            where = f"bound {bound}, best {best}"
        else:
            where = self.costs.bounds(self.lower, self.best)
        sets = "set" if self.nodes == 1 else "sets"
        return f"{self.nodes:,} {sets} searched, {where}, {self.seconds:.0f} s{resumed}"


#: Called every so often (``PROGRESS_EVERY`` seconds at most) with a ``SearchReport``.
Progress = Callable[[SearchReport], None]


class BudgetSpent(Exception):
    """Raised by a budget's progress callback to stop a search; ``optimal_tree`` turns it
    into ``SearchStopped`` with the bounds reached."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search may run: ``seconds`` of wall-clock time and ``sets`` searched (either
    may be ``None``: no limit). The search looks at it wherever it may report its progress
    (``search.reporting``): at each set its Python levels score, after each compiled call,
    every ``search.watch.TICK`` seconds during one, and while it awaits its tasks; once it is
    spent, a report says so and the search stops.

    >>> Budget(seconds=60).spent(SearchReport(10, None, None, 61.0))
    'the time limit of 60 s'
    >>> Budget(sets=1000).spent(SearchReport(999, None, None, 5.0)) is None
    True
    """

    seconds: float | None = None
    sets: int | None = None

    def __post_init__(self) -> None:
        for name, value in (("time limit", self.seconds), ("budget", self.sets)):
            if value is not None and value <= 0:
                raise BullsCowsError(f"{name} {value}: give a positive number")

    def spent(self, report: SearchReport) -> str | None:
        """Why the budget is spent at ``report``, or ``None`` while it is not."""
        return self.spent_after(report.seconds, lambda: report.nodes)

    def spent_after(self, seconds: float, sets: Callable[[], int]) -> str | None:
        """Why the budget is spent after ``seconds`` and ``sets()`` sets searched (counted
        only for a budget of sets), or ``None`` while it is not.

        >>> Budget(sets=10).spent_after(0.0, lambda: 10), Budget(seconds=5).spent_after(4.9, int)
        ('the budget of 10 sets', None)
        >>> Budget(sets=1).spent_after(0.0, lambda: 1)
        'the budget of 1 set'
        """
        if self.seconds is not None and seconds >= self.seconds:
            return f"the time limit of {self.seconds:g} s"
        if self.sets is not None and sets() >= self.sets:
            return f"the budget of {counted(self.sets, 'set', grouped=True)}"
        return None

    def watch(self, progress: Progress | None) -> Limited:
        """A progress callback that passes reports on to ``progress`` and raises
        ``BudgetSpent`` once the budget is spent."""
        return Limited(self, progress)


@dataclass(frozen=True, slots=True)
class Limited:
    """A progress callback under ``budget`` (``Budget.watch``): passes each report on to
    ``progress`` and raises ``BudgetSpent`` once the budget is spent. A search given one
    reports as soon as the budget runs out, not only every ``PROGRESS_EVERY`` seconds.

    >>> told = []
    >>> Budget(sets=5).watch(told.append)(SearchReport(4, None, None, 1.0))
    >>> Budget(sets=5).watch(None)(SearchReport(5, None, None, 1.0))
    Traceback (most recent call last):
    ...
    bullscows.search.progress.BudgetSpent: the budget of 5 sets
    """

    budget: Budget
    progress: Progress | None

    def __call__(self, report: SearchReport) -> None:
        if self.progress is not None:
            self.progress(report)
        reason = self.budget.spent(report)
        if reason is not None:
            raise BudgetSpent(reason)


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a stopped search stood: why it stopped, its sets and seconds, the proven lower
    bound, the best cost found and its tree (the incumbent: a valid tree, not proven
    optimal), and how costs read; bounds are ``None`` when the search stopped before it had
    one (while it asked which cap fits); and the sets it kept beside its checkpoint
    (``search.kept``)."""

    reason: str
    nodes: int
    seconds: float
    lower: int | None
    upper: int | None
    tree: Node | None
    costs: Costs
    kept: int = 0

    def __str__(self) -> str:
        """
        >>> print(Standing("the time limit of 60 s", 10, 60.2, 24575, 26290, None, Costs()))
        stopped at the time limit of 60 s after 10 sets, 60 s: lower bound 24,575, upper
        bound 26,290, gap 1,715 (6.52%)
        """
        lower, upper = self.lower, self.upper
        bounds = "no bound yet" if lower is None else self.costs.bounds(lower, upper)
        return f"stopped at {self.reason} after {self.nodes:,} sets, {self.seconds:.0f} s: {bounds}"


class SearchInterrupted(KeyboardInterrupt):
    """A search stopped by Ctrl-C (or SIGTERM, in the console command) once it was under
    way: ``standing`` says how far it got. A ``KeyboardInterrupt``, so that whatever stops
    on Ctrl-C stops on it too."""

    def __init__(self, standing: Standing) -> None:
        super().__init__(f"the search {standing}")
        self.standing = standing


class SearchStopped(BullsCowsError):
    """A search stopped by its budget before it settled the variant: ``standing`` says how
    far it got."""

    def __init__(self, standing: Standing) -> None:
        super().__init__(f"the search {standing}")
        self.standing = standing
