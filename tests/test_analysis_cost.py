"""``benchmarks/analysis_cost.py``: the games it analyses, and the line it prints."""

from __future__ import annotations

import random

from bench_scripts import load
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules

cost = load("analysis_cost")


def test_its_games_replay_and_each_guess_after_the_first_fits() -> None:
    rules = Rules.parse("p3c5n")
    first = cost.played(rules, random.Random(3), "012")
    again = cost.played(rules, random.Random(3), "012")
    assert first.over and first.history == again.history and first.secret == again.secret
    assert first.history[0].guess.text == "012"
    for number, step in enumerate(first.history[1:], 1):
        before = Knowledge.from_history(rules, first.history[:number])
        assert step.guess.text in {code.text for code in before.candidate_codes()}


def test_it_times_every_game_and_sums_them_up() -> None:
    seconds = cost.costs(Rules.parse("p3c5n"), 4, 5, "012")
    assert len(seconds) == 4 and all(second >= 0 for second in seconds)
    # How many games pass the budget is the machine's: the first game's analysis took 122 s
    # of CPU while numba compiled the kernels at run time (the compiled modules stale).
    over = sum(second > 10.0 for second in seconds)
    line = cost.summary(seconds, 10.0)
    assert line.startswith("4 games: mean ") and line.endswith(f"; {over} over 10 s")
    assert cost.summary([0.5, 1.0, 12.0], 10.0) == (
        "3 games: mean 4.50 s, median 1.00 s, largest 12.00 s of CPU; 1 over 10 s"
    )
