"""The compiled lookaheads of many guesses (``search_queries.aheads``) read the search's stop
flag, so that a time limit stops a search past 10,000 codes within about a second, in the
middle of those lookaheads too (not minutes later, once they end)."""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt
import pytest

from bullscows import Code, Rules
from bullscows._kernels import search_calls
from bullscows._kernels.tables import INFEASIBLE, STOPPED
from bullscows.search import reporting
from bullscows.search.engine import Search, SearchOptions
from bullscows.search.options import Run
from bullscows.search.progress import BudgetSpent, SearchReport
from bullscows.universe import universe

#: ``bc5`` after 01234 answered with one bull and three cows: 1,100 codes, whose 36 second
#: guesses take about a second to look ahead at (each scores every one of the 30,240
#: codes); with no bull and one cow, 2,400 codes.
REPLY, WIDE = 9, 1


def _part(rules: Rules, reply: int = REPLY) -> tuple[int, npt.NDArray[np.int64]]:
    u = universe(rules)
    first = Code("01234", rules).index
    return first, u.secrets[u.score_row(first, u.secrets) == reply]


def test_a_set_stop_flag_stops_the_lookaheads_before_any_guess() -> None:
    rules = Rules.parse("bc5")
    first, codes = _part(rules)
    search = Search(SearchOptions(rules))
    state = search.state
    guesses = search.guesses(codes, ((first, REPLY),))
    state.ready(codes)
    state.stop[0] = 1
    bounds = np.zeros(len(guesses), dtype=np.int64)
    totals = search_calls.aheads(state.ctx, state.memo, codes, guesses, bounds, 10**6, INFEASIBLE)
    state.stop[0] = 0
    assert totals.tolist() == [STOPPED] * len(guesses)
    assert search_calls.stopped(totals) and int(state.stats[1]) == 0  # nothing looked at


def test_a_budget_spent_stops_a_bc5_search_inside_its_lookaheads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The budget is spent as soon as the lookaheads run (not after a time, which a fast
    # machine would let them finish in): the search must stop inside that compiled call.
    monkeypatch.setattr(reporting, "PROGRESS_EVERY", 0.0)
    rules = Rules.parse("bc5")
    first, codes = _part(rules, WIDE)
    inside: list[bool] = []

    def budget(report: SearchReport) -> None:
        if inside:
            raise BudgetSpent("the budget, spent in the lookaheads")

    search = Search(SearchOptions(rules), Run(budget, time.perf_counter()))
    assert search.watch is not None
    search.watch.tick = 0.01
    answers: list[npt.NDArray[np.int64]] = []
    aheads = search_calls.aheads

    def kept(*arguments: object) -> npt.NDArray[np.int64]:
        inside.append(True)
        answers.append(aheads(*arguments))  # type: ignore[arg-type]
        return answers[-1]

    monkeypatch.setattr(search_calls, "aheads", kept)
    with pytest.raises(BudgetSpent, match="spent in the lookaheads"):
        search.solve(codes, search.state.unlimited, INFEASIBLE, ((first, WIDE),))
    assert len(answers) == 1 and search_calls.stopped(answers[0])  # stopped inside the call
    assert int((answers[0] == STOPPED).sum()) > 0
    assert int(search.state.stop[0]) == 0  # the watch's stop, taken back
