"""How many guesses a strategy needs, secret by secret.

A deterministic strategy is walked as a decision tree: one guess per node, one branch per
reply, so each position is decided once however many secrets pass through it. A random strategy
is played game by game, each game with its own generator seeded from the run's seed and the
secret, so the result never depends on how the games are spread over processes.

>>> from bullscows.strategies import get_strategy
>>> counts = guess_counts(Rules.parse("moo2,2"), get_strategy("simple"))
>>> counts.tolist()
[1, 2, 3, 2]
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from bullscows.errors import CodeError, StrategyError
from bullscows.feedback import Feedback
from bullscows.figures import UNSOLVED
from bullscows.knowledge import Knowledge
from bullscows.rules import Rules
from bullscows.strategies.base import ReplyBlindStrategy, Strategy
from bullscows.strategies.optimal_strategy import OptimalSearch
from bullscows.strategies.walked import walk_strategy
from bullscows.tree import MAX_DEPTH, DecisionTree, TreeSummary
from bullscows.universe import IndexArray, universe

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from bullscows.search.optimal import Progress

#: Games of a random strategy are given up after this many guesses (counted as unsolved).
DEFAULT_MAX_GUESSES = 100_000


def guess_counts(
    rules: Rules, strategy: Strategy, secrets: IndexArray | None = None
) -> npt.NDArray[np.int64]:
    """``counts[i]``: guesses a deterministic strategy needs for ``secrets[i]`` (all by default).

    Only the branches of the tree that lead to one of ``secrets`` are walked; the guesses
    themselves still see every remaining code, as in a real game.
    """
    if not strategy.deterministic:
        raise StrategyError(
            f"strategy {strategy.name!r} is random: it has no single outcome per secret; "
            "play it game by game (play_games)"
        )
    if strategy.ignores_replies:  # a fixed sequence: where each secret comes in it
        return play_games(rules, strategy, targets_of(rules, secrets), seed=0)
    return walk(Knowledge.start(rules), strategy, targets_of(rules, secrets), 1)


def targets_of(rules: Rules, secrets: IndexArray | None) -> IndexArray:
    """``secrets`` (universe indices) as an index array, or every secret of the variant;
    raises ``BullsCowsError`` for an index that is no secret of the variant."""
    u = universe(rules)
    if secrets is None:
        return u.secrets
    targets = np.asarray(secrets, dtype=np.int64)
    inside = (targets >= 0) & (targets < len(u))
    inside[inside] = np.isin(targets[inside], u.secrets)
    if not inside.all():
        wrong = int(targets[~inside][0])
        raise CodeError(
            f"secret index {wrong} is no code of {rules.describe()} "
            f"(indices 0 to {len(u) - 1}"
            + (", of the codes that may be the secret)" if rules.guesses is not None else ")")
        )
    return targets


def walk(
    knowledge: Knowledge, strategy: Strategy, targets: IndexArray, depth: int
) -> npt.NDArray[np.int64]:
    """Guess counts for ``targets`` (universe indices among the candidates) from this node on."""
    return walk_strategy(knowledge, strategy, targets, depth, build=False)[0]


def build_tree(rules: Rules, strategy: Strategy, objective: str = "strategy") -> DecisionTree:
    """The decision tree of a deterministic ``strategy`` on ``rules``, walked as ``walk`` walks
    (a part of one code is guessed next when the strategy plays a sole candidate, so that
    code is a leaf without asking the strategy).

    >>> from bullscows.strategies import get_strategy
    >>> tree = build_tree(Rules.parse("p2c3n"), get_strategy("minimax"))
    >>> tree.stated.total, tree.stated.nodes
    (13, 6)
    """
    if not strategy.deterministic:
        raise StrategyError(
            f"strategy {strategy.label!r} is random: it has no decision tree; "
            "choose a deterministic one"
        )
    problem = strategy.problem(rules)
    if problem is not None:
        raise StrategyError(problem)
    deep = strategy.depth_at_least(rules)
    if deep > MAX_DEPTH:
        raise StrategyError(
            f"the tree of {strategy.label} on {rules.spec} is {deep:,} guesses deep: a tree "
            f"holds at most {MAX_DEPTH} (`bullscows bench --strategy {strategy.name}` "
            "measures it without a tree)"
        )
    start = Knowledge.start(rules)
    counts, root, nodes = walk_strategy(start, strategy, start.candidates, 1, build=True)
    assert root is not None
    summary = TreeSummary.from_counts(counts, nodes)
    return DecisionTree(rules, strategy.label, objective, root, summary)


def strategy_tree(
    rules: Rules,
    strategy: Strategy,
    progress: Progress | None = None,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
) -> DecisionTree:
    """A deterministic strategy's decision tree: an optimal strategy's is searched for (its
    optimality proven) with ``progress``, ``executor`` and ``checkpoint`` (see
    ``OptimalSearch.search``) and kept in the user's cache; any other is built by ``build_tree``,
    which takes none of them.

    >>> from bullscows.strategies import get_strategy
    >>> strategy_tree(Rules.parse("p3c4n"), get_strategy("minimax")).summary().total
    72
    """
    if isinstance(strategy, OptimalSearch):
        return strategy.search(rules, progress, executor, checkpoint)
    if progress is not None or executor is not None or checkpoint is not None:
        raise StrategyError(
            f"{strategy.label} is not searched: only the optimal strategies' trees take a "
            "search's progress, executor or checkpoint"
        )
    return build_tree(rules, strategy)


def play_game(
    rules: Rules,
    strategy: Strategy,
    secret: int,
    rng: random.Random,
    max_guesses: int = DEFAULT_MAX_GUESSES,
) -> int:
    """Guesses ``strategy`` needs to break ``secret`` in one game (``UNSOLVED`` past the cap)."""
    if isinstance(strategy, ReplyBlindStrategy):
        return _first_hit(rules, strategy, secret, rng, max_guesses)
    knowledge = Knowledge.start(rules)
    universe = knowledge.universe
    targets = np.array([secret], dtype=np.int64)
    for number in range(1, max_guesses + 1):
        guess_index = strategy.next_guess(knowledge, rng)
        if guess_index == secret:
            return number
        reply = Feedback.from_index(int(universe.score_row(guess_index, targets)[0]), rules.length)
        knowledge = knowledge.after(knowledge.code(guess_index), reply)
    return UNSOLVED


#: A strategy that ignores replies is played in batches of this many guesses.
BATCH = 4096


def _first_hit(
    rules: Rules, strategy: ReplyBlindStrategy, secret: int, rng: random.Random, cap: int
) -> int:
    made = 0
    while made < cap:
        batch = strategy.sequence(rules, rng, made, min(BATCH, cap - made))
        if len(batch) == 0:  # the strategy has nothing more to guess
            return UNSOLVED
        hits = np.flatnonzero(batch == secret)
        if len(hits):
            return made + int(hits[0]) + 1
        made += len(batch)
    return UNSOLVED


def game_rng(seed: int | None, secret: int) -> random.Random:
    """The generator of the game against ``secret`` in a run seeded with ``seed``."""
    return random.Random(f"{seed}:{secret}")


def play_games(
    rules: Rules,
    strategy: Strategy,
    secrets: IndexArray,
    seed: int | None,
    max_guesses: int = DEFAULT_MAX_GUESSES,
) -> npt.NDArray[np.int64]:
    """Guess counts of a (random) strategy, one seeded game per secret.

    Without a seed, one is drawn at random for the whole run.
    """
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    return np.array(
        [play_game(rules, strategy, int(s), game_rng(seed, int(s)), max_guesses) for s in secrets],
        dtype=np.int64,
    )
