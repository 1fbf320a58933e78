"""How long a player waits: start-up, the first-ever kernel compile, and minimax moves.

Run: .venv/bin/python benchmarks/moves.py

* ``bullscows --help``: the whole process, best of five.
* first-ever compile: a fresh process with an empty numba cache directory plays the first two
  minimax moves on ``bc``; then the same with the cache warm (what every later run pays).
* minimax moves: the first two moves on ``bc``, ``bc5`` (5 distinct digits of 10) and
  ``logik``, with the second move after the reply that leaves the most codes (the slowest case).
* a whole tree: minimax over every secret of ``mm`` and ``bc``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bullscows.feedback import Feedback
from bullscows.knowledge import Knowledge
from bullscows.outcomes import guess_counts
from bullscows.rules import Rules
from bullscows.strategies import get_strategy

BIN = Path(sys.executable).parent
FIRST_SCORE = "from bullscows import *; from bullscows.sessions import Codebreaker; " \
    "b = Codebreaker(Rules.parse('bc')); b.reply('1 1'); b.suggest()"  # fmt: skip


def wall(command: list[str], env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def startup() -> None:
    help_time = min(wall([str(BIN / "bullscows"), "--help"]) for _ in range(5))
    print(f"bullscows --help (whole process, best of 5): {help_time:.3f} s")
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = wall([sys.executable, "-c", FIRST_SCORE], env)
        warm = min(wall([sys.executable, "-c", FIRST_SCORE], env) for _ in range(3))
    print(
        "first two minimax moves in a new process: "
        f"first-ever compile {cold:.2f} s, cached {warm:.2f} s"
    )


def moves() -> None:
    strategy, rng = get_strategy("minimax"), random.Random(0)
    for spec in ("bc", "bc5", "logik"):
        rules = Rules.parse(spec)
        knowledge = Knowledge.start(rules)
        strategy.next_guess(knowledge, rng)  # warm-up
        start = time.perf_counter()
        first = strategy.next_guess(knowledge, rng)
        t1 = time.perf_counter() - start
        u = knowledge.universe
        replies = np.bincount(u.score_row(first), minlength=rules.reply_slots)
        worst = Feedback.from_index(int(replies.argmax()), rules.length)
        after = knowledge.after(knowledge.code(first), worst)
        start = time.perf_counter()
        strategy.next_guess(after, rng)
        t2 = time.perf_counter() - start
        print(f"minimax on {spec:<6} ({len(u):>6} codes): move 1 {t1:.3f} s, "
              f"move 2 after {worst.format('pair')!r} ({len(after)} left) {t2:.3f} s")  # fmt: skip


def trees() -> None:
    for spec in ("mm", "bc"):
        start = time.perf_counter()
        counts = guess_counts(Rules.parse(spec), get_strategy("minimax"))
        seconds = time.perf_counter() - start
        print(f"minimax over every {spec} secret: total {counts.sum()}, worst {counts.max()}, "
              f"{seconds:.2f} s")  # fmt: skip


if __name__ == "__main__":
    startup()
    moves()
    trees()
