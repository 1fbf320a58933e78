"""A search's limits and Ctrl-C act in the middle of one long compiled call on its own thread
(``search.watch``): ``p2c20r``'s first compiled call alone runs for minutes (over 8 on a
loaded 2-core machine)."""

from __future__ import annotations

import os
import signal
import threading
from typing import Any

import numpy as np
import pytest

from bullscows._kernels import search_calls
from bullscows._kernels.tables import CTX_STATS, STOPPED
from bullscows.rules import Rules
from bullscows.search import optimal_tree
from bullscows.search.optimal import Budget, SearchReport, SearchStopped
from bullscows.search.watch import Watch

LONG = Rules.parse("p2c20r")


class Calls(list[int]):
    """What each call of the compiled search returns; ``first`` runs as the first starts, and
    ``sets`` reads the sets the calls searched."""

    first: threading.Timer | None = None
    stats: Any = None

    def sets(self) -> int:
        return int(self.stats.sum())


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    returned = Calls()
    real = search_calls.solve

    def solve(*arguments: Any) -> int:
        if returned.stats is None:
            returned.stats = arguments[0][CTX_STATS]
            if returned.first is not None:
                returned.first.start()
        cost = real(*arguments)
        returned.append(cost)
        return cost

    monkeypatch.setattr(search_calls, "solve", solve)
    return returned


def test_a_budget_of_sets_stops_a_long_compiled_call(calls: Calls) -> None:
    reports: list[SearchReport] = []
    with pytest.raises(SearchStopped) as stopped:
        optimal_tree(LONG, progress=reports.append, budget=Budget(sets=30_000))
    assert calls[-1] == STOPPED and calls.sets() < 300_000  # stopped in the call
    assert reports  # progress was reported while it ran
    assert 30_000 <= stopped.value.standing.nodes < 300_000


def test_ctrl_c_stops_a_long_compiled_call(calls: Calls) -> None:
    # Ctrl-C half a second into the first compiled call (minutes long, were it not stopped).
    calls.first = interrupt = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    # Python's own Ctrl-C, even where the suite runs with SIGINT ignored (a background job)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            optimal_tree(LONG)
    finally:
        interrupt.cancel()
        signal.signal(signal.SIGINT, before)
    # The first call did not end: it runs for over 8 minutes, where 3,000,000 sets are a
    # minute's worth (50,000 a second on a loaded 2-core machine; half a second: 25,000)
    assert calls.sets() < 3_000_000


def test_a_report_that_raises_stops_the_call_and_is_raised() -> None:
    stop = np.zeros(1, dtype=np.int64)

    def report() -> None:
        raise RuntimeError("spent")

    watch = Watch(stop, report, tick=0.01)
    with pytest.raises(RuntimeError, match="spent"), watch:
        while not stop[0]:  # the compiled call, until it sees the flag
            threading.Event().wait(0.01)
    assert stop[0] == 0 and not watch.resume()


def test_a_flag_set_by_others_is_left_alone() -> None:
    stop = np.zeros(1, dtype=np.int64)
    with Watch(stop, lambda: None, tick=0.01):
        stop[0] = 1  # a search's executor stopping it
    assert stop[0] == 1
