"""Benchmarks: how many guesses each strategy needs, over every secret of a variant (or a sample).

The work is distribution over a ``concurrent.futures.Executor``: none (in this process), local
processes (``jobs``), a Dask cluster named by its scheduler's address, or any executor passed
in. A deterministic strategy is split by the subtrees under its first guess, each walked as a
decision tree on its own; a random one is split into chunks of secrets, each game seeded from the
run's seed and its secret. Either way the figures do not depend on how the work was distribution.

>>> report = run_bench(Rules.parse("p2c3n"), ["minimax"])
>>> result = report.results[0]
>>> result.total, result.worst, result.distribution
(13, 3, {1: 1, 2: 3, 3: 2})
"""

from __future__ import annotations

import copy
import csv
import io
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from bullscows.errors import BullsCowsError
from bullscows.estimates import expected_seconds, needs_search
from bullscows.executors import make_executor, run_tasks
from bullscows.feedback import Feedback
from bullscows.figures import figures
from bullscows.knowledge import Knowledge, Step
from bullscows.outcomes import DEFAULT_MAX_GUESSES, play_games, targets_of, walk
from bullscows.rules import Rules
from bullscows.strategies import STRATEGIES, Strategy, StrategySpec, get_strategy
from bullscows.tree.walk import Follow, walk_secrets
from bullscows.universe import IndexArray, universe

#: ``progress(label, done, total)``: ``done`` of the ``total`` secrets of a strategy are settled.
Progress = Callable[[str, int, int], None]
Counts = npt.NDArray[np.int64]
T = TypeVar("T")

#: A random strategy's secrets are dealt out in at most this many chunks.
CHUNKS = 64


@dataclass(frozen=True, slots=True)
class StrategyResult:
    """The figures of one strategy. ``average`` and ``worst`` count solved secrets only;
    ``unsolved`` games hit the guess cap (``average`` is ``None`` when none was solved)."""

    name: str
    total: int
    average: float | None
    worst: int
    at_worst: int
    distribution: dict[int, int]
    secrets: int
    unsolved: int
    seconds: float

    @classmethod
    def from_counts(cls, name: str, counts: Counts, seconds: float) -> StrategyResult:
        """The figures of ``counts[i]`` guesses per secret (``figures.UNSOLVED`` past the cap)."""
        f = figures(counts)
        return cls(
            name, f.total, f.average, f.worst, f.at_worst, f.distribution, f.secrets,
            f.unsolved, seconds,
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON values (distribution keys become strings)."""
        return {
            "name": self.name, "total": self.total, "average": self.average,
            "worst": self.worst, "at_worst": self.at_worst,
            "distribution": {str(k): v for k, v in self.distribution.items()},
            "secrets": self.secrets, "unsolved": self.unsolved,
            "seconds": round(self.seconds, 3),
        }  # fmt: skip


@dataclass(frozen=True, slots=True)
class Skipped:
    """A strategy that cannot play the variant, and why."""

    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class BenchReport:
    """Every strategy's figures over the same secrets of one variant."""

    rules: Rules
    results: tuple[StrategyResult, ...]
    skipped: tuple[Skipped, ...] = ()
    #: How many secrets were drawn at random, or ``None`` when every secret was played.
    sample: int | None = None
    seed: int | None = None
    #: Games of random strategies were given up after this many guesses.
    max_guesses: int = DEFAULT_MAX_GUESSES

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"rules": spec, "strategies": [...], "skipped": [...], ...}``."""
        return {
            "rules": self.rules.spec,
            "sample": self.sample,
            "seed": self.seed,
            "max_guesses": self.max_guesses,
            "strategies": [r.to_json() for r in self.results],
            "skipped": [{"name": s.name, "reason": s.reason} for s in self.skipped],
        }

    def to_csv(self) -> str:
        """One row per strategy; the distribution reads ``1:1 2:6 3:62 ...``."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        fields = ["name", "total", "average", "worst", "at_worst", "secrets", "unsolved"]
        writer.writerow(["rules", *fields, "seconds", "distribution"])
        for r in self.results:
            row = r.to_json()
            writer.writerow(
                [self.rules.spec, *(row[f] for f in fields), row["seconds"], distribution_text(r)]
            )
        return out.getvalue()


def distribution_text(result: StrategyResult, limit: int = 12) -> str:
    """The distribution as ``1:1 2:6 3:62``; a long one in decades, ``1-9:5 10-99:40 ...``."""
    items = result.distribution.items()
    if len(result.distribution) <= limit:
        return " ".join(f"{k}:{n}" for k, n in items)
    decades: dict[int, int] = {}
    for guesses, n in items:
        decade = len(str(guesses)) - 1
        decades[decade] = decades.get(decade, 0) + n
    return " ".join(f"{10**d}-{10 ** (d + 1) - 1}:{n}" for d, n in sorted(decades.items()))


def _entropy(seed: int | None) -> int | list[int] | None:
    """What seeds NumPy's generator: any integer seed, negative ones included (NumPy takes
    only non-negative entropy, so ``-n`` becomes the pair ``[n, 1]``).

    >>> _entropy(5), _entropy(-5), _entropy(None)
    (5, [5, 1], None)
    """
    return seed if seed is None or seed >= 0 else [-seed, 1]


def sample_secrets(rules: Rules, size: int, seed: int | None = None) -> IndexArray:
    """``size`` distinct secrets drawn at random (the same ones for the same seed), in order.

    >>> mm = Rules.parse("mm")
    >>> a, b = sample_secrets(mm, 3, seed=1), sample_secrets(mm, 3, seed=1)
    >>> len(set(a.tolist())), bool((a == b).all())
    (3, True)
    """
    if size < 1:
        raise BullsCowsError(f"sample of {size}: a sample needs at least 1 secret")
    secrets = universe(rules).secrets
    if size >= len(secrets):
        return secrets
    chosen = np.random.default_rng(_entropy(seed)).choice(len(secrets), size=size, replace=False)
    return secrets[np.sort(chosen)].astype(np.int64)


def run_bench(
    rules: Rules,
    strategies: Sequence[Strategy | StrategySpec | str] | None = None,
    *,
    secrets: IndexArray | None = None,
    sample: int | None = None,
    seed: int | None = None,
    consistent_only: bool = False,
    max_depth: int | None = None,
    max_guesses: int = DEFAULT_MAX_GUESSES,
    executor: Executor | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> BenchReport:
    """Play each strategy (all registered ones by default) against the same secrets.

    A strategy is given as itself, as a ``StrategySpec``, or by name; a name takes
    ``consistent_only`` and ``max_depth`` (see below). Each is made once, and its work is
    sent to the workers as it is (a tree file is read once, not once per task).

    The secrets are ``secrets`` (universe indices), a ``sample`` of that many drawn with
    ``seed``, or every code. ``seed`` also seeds the games of random strategies, which are
    given up after ``max_guesses``; without one, a seed is drawn and kept in the report.
    ``consistent_only`` and ``max_depth`` are passed to ``get_strategy`` (a depth cap only
    to strategies that take one, or it is a ``StrategyError``).
    The work runs on ``executor`` if given, else on ``jobs`` local processes, or on the Dask
    cluster whose scheduler is at ``scheduler``.
    """
    given = list(STRATEGIES) if strategies is None else list(strategies)
    made: dict[StrategySpec, Strategy] = {}  # each once, in the order given
    for item in given:
        strategy = item if isinstance(item, Strategy) else _make(item, consistent_only, max_depth)
        made.setdefault(strategy.spec, strategy)
    players = list(made.values())
    if max_guesses < 1:
        raise BullsCowsError(f"max guesses {max_guesses}: a game needs at least 1 guess")
    if secrets is not None and sample is not None:
        raise BullsCowsError("give either the secrets or a sample size, not both")
    if seed is None and (sample is not None or not all(s.deterministic for s in players)):
        # One seed for the whole run, reported, so that any run can be repeated.
        seed = random.SystemRandom().getrandbits(32)
    targets = _targets(rules, secrets, sample, seed)
    results, skipped = [], []
    with make_executor(executor, jobs, scheduler) as pool:
        for strategy in players:
            reason = strategy.problem(rules)
            if reason is not None:
                skipped.append(Skipped(strategy.label, reason))
                continue
            start = time.perf_counter()
            counts = _counts(rules, strategy, targets, seed, max_guesses, pool, progress)
            seconds = time.perf_counter() - start
            results.append(StrategyResult.from_counts(strategy.label, counts, seconds))
    sampled = len(targets) if sample is not None and len(targets) < rules.size else None
    return BenchReport(rules, tuple(results), tuple(skipped), sampled, seed, max_guesses)


#: The bench's default plays the strategies expected to take at most this long each.
QUICK_SECONDS = 10.0


def quick_strategies(
    rules: Rules, secrets: int | None = None
) -> tuple[list[Strategy], list[tuple[Strategy, str]]]:
    """The bench's default over ``secrets`` secrets of ``rules`` (all by default): every
    registered strategy that plays the variant without a search first and is expected to
    take at most ``QUICK_SECONDS``; and those left out, each with why.

    >>> quick, left_out = quick_strategies(Rules.parse("bc"))
    >>> [(s.name, why) for s, why in left_out]  # doctest: +NORMALIZE_WHITESPACE
    [('cows', 'about 25 s'), ('optimal-worst-count', 'searches for its tree first'),
     ('optimal-total-worst', 'searches for its tree first')]
    """
    secrets = rules.size if secrets is None else secrets
    quick, left_out = [], []
    for name in STRATEGIES:
        strategy = get_strategy(name)
        if strategy.problem(rules) is not None:
            continue
        seconds = expected_seconds(rules, strategy, secrets)
        if seconds is None:
            left_out.append((strategy, "searches for its tree first"))
        elif seconds > QUICK_SECONDS:
            left_out.append((strategy, f"about {seconds:.0f} s"))
        else:
            quick.append(strategy)
    return quick, left_out


def _make(item: StrategySpec | str, consistent_only: bool, max_depth: int | None) -> Strategy:
    if isinstance(item, str):
        item = StrategySpec(item, consistent_only, max_depth)
    return get_strategy(item)


def _targets(
    rules: Rules, secrets: IndexArray | None, sample: int | None, seed: int | None
) -> IndexArray:
    if sample is not None:
        return sample_secrets(rules, sample, seed)
    if secrets is None:
        return universe(rules).secrets
    targets = np.asarray(secrets, dtype=np.int64)  # a secret listed twice counts twice
    if len(targets) == 0:
        raise BullsCowsError("no secrets to play against")
    return targets_of(rules, targets)


def _counts(
    rules: Rules,
    strategy: Strategy,
    targets: IndexArray,
    seed: int | None,
    max_guesses: int,
    pool: Executor | None,
    progress: Progress | None,
) -> Counts:
    """Guesses per secret of ``targets``, distribution over ``pool`` as independent tasks."""
    label = strategy.label
    counts = np.zeros(len(targets), dtype=np.int64)
    parts: list[npt.NDArray[np.intp]] = []  # where each task's secrets stand in ``targets``
    tasks: list[tuple[Callable[..., Counts], tuple[Any, ...]]] = []
    if strategy.deterministic and not strategy.ignores_replies:
        # The first guess splits the secrets (``tree.walk``): one task per reply.
        start = Knowledge.start(rules)
        first = strategy.next_guess(start, random.Random(0))

        def visit(
            knowledge: Knowledge, codes: IndexArray, depth: int
        ) -> tuple[int, Follow[Knowledge]]:
            def follow(reply: int, part: IndexArray, wanted: IndexArray) -> None:
                parts.append(wanted)
                after = (rules, strategy, first, reply, part, targets[wanted])
                tasks.append((_walk_part, after))

            return first, follow

        win = Feedback.win(rules.length).index(rules.length)
        u = universe(rules)
        counts = walk_secrets(start, start.candidates, u.score_row, win, visit, targets)
    else:
        for part in np.array_split(np.arange(len(targets)), min(CHUNKS, len(targets))):
            parts.append(part)
            tasks.append((_play_chunk, (rules, strategy, targets[part], seed, max_guesses)))
    # The largest tasks start first, so that no straggler starts last.
    order = sorted(range(len(tasks)), key=lambda i: -len(parts[i]))
    done = len(targets) - sum(len(p) for p in parts)
    if progress:
        progress(label, done, len(targets))
    for i, result in run_tasks([tasks[i] for i in order], pool):
        counts[parts[order[i]]] = result
        done += len(parts[order[i]])
        if progress:
            progress(label, done, len(targets))
    return counts


def _walk_part(
    rules: Rules,
    strategy: Strategy,
    first: int,
    reply: int,
    part: IndexArray,
    targets: IndexArray,
) -> Counts:
    """Guess counts of ``targets``, all of which gave ``reply`` to the first guess ``first``
    (as did the codes ``part``, the candidates left)."""
    strategy = copy.copy(strategy)  # its own game state, whatever thread runs the task
    start = Knowledge.start(rules)
    step = Step(start.code(first), Feedback.from_index(reply, rules.length))
    return walk(Knowledge(rules, (step,), part), strategy, targets, 2)


def _play_chunk(
    rules: Rules, strategy: Strategy, secrets: IndexArray, seed: int | None, max_guesses: int
) -> Counts:
    """Guess counts of one game per secret, each seeded from ``seed`` and its secret."""
    strategy = copy.copy(strategy)  # its own game state, whatever thread runs the task
    return play_games(rules, strategy, secrets, seed, max_guesses)


__all__ = [
    "BenchReport",
    "Progress",
    "Skipped",
    "StrategyResult",
    "distribution_text",
    "expected_seconds",
    "needs_search",
    "quick_strategies",
    "run_bench",
    "sample_secrets",
]
