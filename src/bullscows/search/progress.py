"""How a long search tells a person how far it is: a ``SearchReport`` every so often."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: Seconds between two progress reports.
PROGRESS_EVERY = 1.0


@dataclass(frozen=True, slots=True)
class SearchReport:
    """How far a search is: sets searched, the lower bound of the first guess being settled
    (it climbs as its parts are settled, then starts again at the next first guess), the best
    total found at the root (``None`` until one is), the seconds spent, and the answers taken
    from a checkpoint."""

    nodes: int
    bound: int | None
    best: int | None
    seconds: float
    resumed: int = 0

    def __str__(self) -> str:
        """One line for people.

        >>> print(SearchReport(1234567, 26180, None, 12.34, 3))
        1,234,567 sets searched, bound 26,180, best none yet, 12 s (3 answers from the checkpoint)
        """
        bound = "none yet" if self.bound is None else f"{self.bound:,}"
        best = "none yet" if self.best is None else f"{self.best:,}"
        resumed = f" ({self.resumed:,} answers from the checkpoint)" if self.resumed else ""
        return (
            f"{self.nodes:,} sets searched, bound {bound}, best {best}, "
            f"{self.seconds:.0f} s{resumed}"
        )


#: Called every so often (``PROGRESS_EVERY`` seconds at most) with a ``SearchReport``.
Progress = Callable[[SearchReport], None]
