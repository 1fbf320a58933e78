"""Live progress on stderr for the long runs (``bench``, ``tree``, the optimal search, also
where ``solve`` and ``assist`` search first): rich bars with the time left at the pace so far,
drawn only on a terminal (``showing``); and the announcement of what will run and about how
long, made before it starts."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import click

from bullscows.cli import streams
from bullscows.cli.common import Number
from bullscows.feedback import counted

if TYPE_CHECKING:  # rich is loaded only where a display is drawn
    from rich.progress import Progress, ProgressColumn, Task, TaskID

    from bullscows.rules import Rules
    from bullscows.search.progress import SearchReport
    from bullscows.strategies import Strategy

#: A search of a variant of at least this many codes is announced first (smaller ones take
#: a second or less: docs/results.md).
ANNOUNCE_CODES = 2_000

#: Seconds of a search between two lines of its progress in a log (stderr not a terminal),
#: unless ``--log-every`` says otherwise; the first comes after as long.
LOG_EVERY = 60.0

#: ``--log-every``: a long run's progress in a log (stderr not a terminal), as plain lines.
log_every_option = click.option(
    "--log-every",
    type=Number(min=0),
    default=LOG_EVERY,
    show_default=True,
    metavar="SECONDS",
    help="When stderr is not a terminal (a log file or a pipe): a line of the progress (time "
    "of day, then what the terminal shows) every SECONDS, the first after SECONDS; 0: none.",
)

#: ``update(label, done, total)``: ``done`` of the ``total`` items of ``label`` are settled.
Count = Callable[[str, int, int], None]
#: Shows a search's report (``search.progress.SearchReport``).
Show = Callable[["SearchReport"], None]


def showing(quiet: bool) -> bool:
    """Whether to draw progress: not ``quiet`` and standard error is a terminal (written to a
    file or a pipe, it stays quiet, and rich is not even loaded to say so)."""
    if quiet:
        return False
    if not sys.stderr.isatty() and not any(map(os.environ.get, ("TTY_COMPATIBLE", "FORCE_COLOR"))):
        return False
    return streams.console(stderr=True).is_terminal


def say(text: str) -> None:
    """A line on standard error: what will run, before it starts."""
    streams.console(stderr=True).print(text)


def duration(seconds: float) -> str:
    """A rough duration: ``'a second'``, ``'40 s'``, ``'3 min'``, ``'2.5 h'``.

    >>> [duration(s) for s in (0.2, 40, 200, 9000)]
    ['a second', '40 s', '3 min', '2.5 h']
    """
    if seconds < 1.5:
        return "a second"
    if seconds < 100:
        return f"{seconds:.0f} s"
    if seconds < 6000:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def time_left(task: Task, what: str = "") -> str:
    """The time ``task`` has left at its pace so far (``'0:01:20 left'``, ``what`` saying what
    the estimate covers), or ``'estimate unknown'`` before any pace is known.

    >>> from rich.progress import Task, TaskID
    >>> time_left(Task(TaskID(0), "x", None, 0, _get_time=lambda: 0.0))
    'estimate unknown'
    """
    left = task.time_remaining
    if left is None or not task.completed:
        return "estimate unknown"
    minutes, seconds = divmod(int(left), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d} left{what}"


def _display(*columns: ProgressColumn) -> Progress:
    """A display on stderr that leaves nothing behind."""
    from rich.progress import Progress

    return Progress(*columns, console=streams.console(stderr=True), transient=True)


def _task(bars: Progress, task: TaskID) -> Task:
    return next(shown for shown in bars.tasks if shown.id == task)


def stamped(line: str) -> None:
    """``line`` on stderr after the time of day in UTC, for a log."""
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    print(f"{stamp}  {line}", file=sys.stderr, flush=True)


def _due(every: float) -> Callable[[float], bool]:
    """Whether a line is due after ``seconds``: one every ``every`` seconds, the first after
    ``every`` (never for 0).

    >>> due = _due(2.0)
    >>> [due(seconds) for seconds in (1.0, 2.5, 3.9, 4.0)]
    [False, True, False, True]
    """
    next_one = [every]

    def due(seconds: float) -> bool:
        if not every or seconds < next_one[0]:
            return False
        next_one[0] = (seconds // every + 1) * every
        return True

    return due


@contextmanager
def counting(show: bool, log_every: float = 0.0) -> Iterator[Count]:
    """A ``Count`` callback drawing one bar per label (done of total, time spent, time left),
    while the block runs, when ``show``; else, with ``log_every``, a plain line (``stamped``)
    of the label updated at most every ``log_every`` seconds, for a log.

    >>> with counting(False) as update:
    ...     update("minimax", 10, 5040)
    """
    if not show:
        start, due = time.monotonic(), _due(log_every)

        def log(label: str, done: int, total: int) -> None:
            seconds = time.monotonic() - start
            if due(seconds):
                stamped(f"{label}: {done:,} of {total:,} settled, {seconds:.0f} s")

        yield log
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn

    bars = _display(TextColumn("{task.description:<28}"), BarColumn(),
                    MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("{task.fields[left]}", style="progress.remaining"))  # fmt: skip
    tasks: dict[str, TaskID] = {}

    def update(label: str, done: int, total: int) -> None:
        if label not in tasks:
            tasks[label] = bars.add_task(label, total=total, left="estimate unknown")
        bars.update(tasks[label], completed=done, total=total)
        bars.update(tasks[label], left=time_left(_task(bars, tasks[label])), refresh=True)

    with bars:
        yield update


def where(label: str, report: SearchReport) -> str:
    """A search's report in words: which first guess it is settling of how many, sets
    searched, bounds, seconds.

    >>> from bullscows.search.progress import SearchReport
    >>> where("optimal on bc", SearchReport(10, 9, None, 2.0, first=(1, 3)))
    'optimal on bc, first guess 1 of 3: 10 sets searched, bound 9, best none yet, 2 s'
    """
    first = report.first
    at = "" if first is None else f", first guess {first[0]} of {first[1]}"
    return f"{label}{at}: {report}"


def log_lines(label: str, every: float) -> Show:
    """A callback writing a search's report as one plain line on stderr every ``every``
    seconds of the search (the first after ``every``; never if 0): the time of day (UTC),
    then its words (``where``) and the codes settled of those to settle, if known.

    >>> from bullscows.search.progress import SearchReport
    >>> log = log_lines("optimal on bc", 60)
    >>> log(SearchReport(10, 9, None, 59.0))  # not yet
    """
    due = _due(every)

    def log(report: SearchReport) -> None:
        if due(report.seconds):
            settled = report.settled
            codes = "" if settled is None else f"; {settled[0]:,} of {settled[1]:,} codes settled"
            stamped(f"{where(label, report)}{codes}")

    return log


@contextmanager
def searching(show: bool, label: str, log_every: float = 0.0) -> Iterator[Show]:
    """A callback showing an optimal search's reports while the block runs, when ``show``:
    which first guess it is settling of how many, sets searched, bounds, seconds; a bar of the
    codes of that guess's parts settled, and the time left for that guess at its pace so far
    (how long the other first guesses take to refute is not known in advance). Else, with
    ``log_every``, a plain line every ``log_every`` seconds (``log_lines``), for a log.

    >>> from bullscows.search.progress import SearchReport
    >>> with searching(False, "optimal") as show:
    ...     show(SearchReport(10, None, None, 1.0, first=(1, 3), settled=(0, 5040)))
    """
    if not show:
        yield log_lines(label, log_every) if log_every else lambda report: None
        return
    from rich.progress import BarColumn, SpinnerColumn, TextColumn

    bars = _display(SpinnerColumn(), BarColumn(bar_width=20),
                    TextColumn("{task.fields[left]}", style="progress.remaining"),
                    TextColumn("{task.description}"))  # fmt: skip
    task = bars.add_task(f"{label}: starting", total=None, left="estimate unknown")
    current: list[tuple[int, int] | None] = [None]

    def update(report: SearchReport) -> None:
        first = report.first
        description = where(label, report)
        if report.settled is None:
            bars.update(task, description=description, refresh=True)
            return
        done, codes = report.settled
        if first != current[0]:  # the next first guess: a pace of its own
            current[0] = first
            bars.reset(task, total=codes)
        bars.update(task, description=description, completed=done, total=codes)
        left = time_left(_task(bars, task), " for this first guess")
        bars.update(task, left=left, refresh=True)

    with bars:
        yield update


def announce_search(rules: Rules, strategy: Strategy, until: str = "", then: str = "") -> None:
    """Say that a search for ``strategy``'s tree starts, when the variant is large enough for
    it to take long (``ANNOUNCE_CODES``): how long cannot be told in advance. ``until``: what
    limits it (``', at most 60 s'``); ``then``: what else to know (``'; ...'``)."""
    if rules.size >= ANNOUNCE_CODES:
        say(
            f"Searching for the {strategy.label} tree of {rules.spec} "
            f"({counted(rules.size, 'secret', True)}): "
            f"from seconds to hours{until} (Ctrl-C stops{then})."
        )


def search_first(
    rules: Rules,
    strategies: list[Strategy],
    quiet: bool,
    announce: bool = True,
    log_every: float = 0.0,
) -> None:
    """Search now for the trees of those of ``strategies`` that need one (neither shipped nor
    cached), each announced (unless the caller did: ``announce=False``) and with its live
    display (in a log, a line every ``log_every`` seconds), so that a bench or a game does
    not wait for them in silence (``quiet``: none of them).
    """
    from bullscows.estimates import needs_search
    from bullscows.strategies.optimal_strategy import OptimalSearch

    for strategy in strategies:
        if not needs_search(rules, strategy):
            continue
        assert isinstance(strategy, OptimalSearch)  # the only strategies that search
        if announce and not quiet:
            announce_search(rules, strategy)
        with searching(showing(quiet), f"{strategy.label}: searching", log_every) as report:
            strategy.search(rules, progress=report)
