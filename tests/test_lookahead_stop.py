"""The compiled lookaheads of many guesses (``search_queries.aheads``) read the search's stop
flag, so that a time limit stops a search past 10,000 codes within about a second, in the
middle of those lookaheads too."""

from __future__ import annotations

import time

import numpy as np
import numpy.typing as npt
import pytest

from bullscows import Code, Rules
from bullscows._kernels import search_calls
from bullscows._kernels.tables import INFEASIBLE, STOPPED
from bullscows.search.engine import Search, SearchOptions
from bullscows.search.options import Run
from bullscows.search.progress import Budget, BudgetSpent
from bullscows.universe import universe

#: ``bc5`` after 01234 answered with one bull and three cows: 1,100 codes, whose 36 second
#: guesses take seconds to look ahead at (each scores every one of the 30,240 codes).
REPLY = 9


def _part(rules: Rules) -> tuple[int, npt.NDArray[np.int64]]:
    u = universe(rules)
    first = Code("01234", rules).index
    return first, u.secrets[u.score_row(first, u.secrets) == REPLY]


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


def test_a_time_limit_stops_a_bc5_search_inside_its_lookaheads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = Rules.parse("bc5")
    first, codes = _part(rules)
    run = Run(Budget(seconds=1).watch(None), time.perf_counter())
    search = Search(SearchOptions(rules), run)
    answers: list[npt.NDArray[np.int64]] = []
    aheads = search_calls.aheads

    def kept(*arguments: object) -> npt.NDArray[np.int64]:
        answers.append(aheads(*arguments))  # type: ignore[arg-type]
        return answers[-1]

    monkeypatch.setattr(search_calls, "aheads", kept)
    with pytest.raises(BudgetSpent, match="the time limit of 1 s"):
        search.solve(codes, search.state.unlimited, INFEASIBLE, ((first, REPLY),))
    assert answers, "the search stopped before its lookaheads"
    assert search_calls.stopped(answers[-1])  # stopped inside the compiled call
    assert int(search.state.stop[0]) == 0  # the watch's stop, taken back
