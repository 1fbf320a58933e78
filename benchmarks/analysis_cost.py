"""What analysing a game costs: the CPU seconds of ``analysis.analyse`` over games played by
a player who guesses a random code that fits every reply so far.

Run: python benchmarks/analysis_cost.py [--rules bc] [--games 60] [--seed 11] [--open 0123]

Every other game opens with ``--open`` (default: none), the others with a random code; the
games and their secrets follow from ``--seed``, so two runs (two versions of the code, say)
analyse the same games. It prints the mean, median and largest CPU seconds a game, and how
many games took more than the web's budget for a game's analysis (``ANALYSIS_BUDGET``
times a request's, ``Limits().seconds``; wall clock there: a loaded server reaches it with
less CPU).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bullscows.analysis import analyse
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.sessions import Codemaker
from bullscows.web.common import ANALYSIS_BUDGET
from bullscows.web.limits import Limits


def played(rules: Rules, rng: random.Random, opening: str | None) -> Codemaker:
    """A game to its end: ``opening`` first (if given), then a random code that fits."""
    game = Codemaker(rules, seed=rng.randrange(10**9))
    knowledge = Knowledge.start(rules)
    while not game.over:
        if opening is not None and not game.history:
            guess = opening
        else:
            guess = rng.choice(knowledge.candidate_codes()).text
        game.guess(guess)
        knowledge = Knowledge.from_history(rules, tuple(game.history))
    return game


def costs(rules: Rules, games: int, seed: int, opening: str | None) -> list[float]:
    """The CPU seconds of ``analyse`` of each game, in the order played."""
    rng = random.Random(seed)
    seconds = []
    for number in range(games):
        game = played(rules, rng, opening if number % 2 == 0 else None)
        start = time.process_time()
        analyse(game)
        seconds.append(time.process_time() - start)
    return seconds


def summary(seconds: list[float], budget: float) -> str:
    """One line of the figures of ``seconds``.

    >>> summary([0.5, 1.0, 12.0], 10.0)
    '3 games: mean 4.50 s, median 1.00 s, largest 12.00 s of CPU; 1 over 10 s'
    """
    over = sum(second > budget for second in seconds)
    return (
        f"{len(seconds)} games: mean {statistics.mean(seconds):.2f} s, median "
        f"{statistics.median(seconds):.2f} s, largest {max(seconds):.2f} s of CPU; "
        f"{over} over {budget:g} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="bc", help="the variant (bc)")
    parser.add_argument("--games", type=int, default=60, help="games analysed (60)")
    parser.add_argument("--seed", type=int, default=11, help="seed of the games (11)")
    parser.add_argument("--open", help="every other game's first guess (none)")
    args = parser.parse_args()
    seconds = costs(Rules.parse(args.rules), args.games, args.seed, args.open)
    print(summary(seconds, ANALYSIS_BUDGET * Limits().seconds))


if __name__ == "__main__":
    main()
