"""Proven-optimal play: the tree found by the exhaustive search, followed reply by reply.

``optimal`` has the lowest total of guesses over all secrets (the best average);
``optimal-worst`` needs the fewest guesses in the worst case, and then has the lowest total;
``optimal-worst-count`` also has the fewest secrets needing that worst case before the lowest
total; ``optimal-total-worst`` has the lowest total and, among such trees, the lowest worst case.
The tree comes from the first of: a tree shipped with the package (``shipped_file``: gzip files
in ``bullscows/data/trees``, made by ``scripts/ship_trees.py``), the user's cache directory
(``cache_file``), or the search (``bullscows.search.optimal_tree``: under a second for
Mastermind), whose tree is then cached, so later games start at once. Both files are named by
``tree_file_name`` (variant, strategy and options). A cached tree is checked when it is loaded
(``cache_problem``: the variant, strategy and options it states, its play of every secret, its
stated summary, and the options' limits); one that fails is passed over with a
``BullsCowsWarning`` and searched again. Variants the search cannot finish quickly yet are
refused by ``problem``, unless a tree for them is shipped.

>>> from bullscows.outcomes import guess_counts
>>> from bullscows.rules import Rules
>>> int(guess_counts(Rules.parse("p3c4n"), OptimalTotal()).sum())
72
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import warnings
from concurrent.futures import Executor
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from bullscows.errors import BullsCowsError, BullsCowsWarning, StrategyError
from bullscows.knowledge import Knowledge
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.strategies.base import Strategy
from bullscows.strategy_spec import StrategySpec
from bullscows.tree import DecisionTree, Node, check_tree, follow, load_tree

if TYPE_CHECKING:
    from bullscows.search.optimal import Objective, Progress
    from bullscows.search.tree import Tree

#: Changes when the search changes what it finds: cached trees of older searches are redone.
KEY_VERSION = 1
#: The largest variant whose optimal tree a game searches for by itself (4 distinct of 9,
#: 3,024 codes: about 2 s; Bulls & Cows, 5,040 codes: about 35 s, and shipped). Larger ones
#: are searched with ``bullscows tree`` (progress, processes, checkpoints), then played from
#: the cache.
MAX_OPTIMAL_CODES = 5040


def cache_dir() -> Path:
    """Where searched trees are kept: ``$BULLSCOWS_CACHE``, else ``$XDG_CACHE_HOME/bullscows``,
    else ``~/.cache/bullscows``."""
    if os.environ.get("BULLSCOWS_CACHE"):
        return Path(os.environ["BULLSCOWS_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "bullscows"


def tree_file_name(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None, suffix: str = ".json"
) -> str:
    """The file name of one variant's optimal tree: the spec made safe for a file name, the
    strategy and its options, for the cache (``.json``) and the shipped trees (``.json.gz``).

    >>> tree_file_name(Rules.parse("mm"), "optimal-worst", False, None, ".json.gz")
    'mm--optimal-worst.json.gz'
    >>> tree_file_name(Rules.parse("moo3,3,2"), "optimal", True, 4)
    'moo3%2c3%2c2--optimal--consistent-only--depth-4.json'
    """
    spec = re.sub(r"[^A-Za-z0-9._-]", lambda m: f"%{ord(m.group()):02x}", rules.spec)
    options = ("--consistent-only" if consistent_only else "") + (
        f"--depth-{max_depth}" if max_depth is not None else ""
    )
    return f"{spec}--{name}{options}{suffix}"


def cache_file(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None = None
) -> Path:
    """The user's cached copy of one variant's optimal tree (it may not exist yet)."""
    return cache_dir() / tree_file_name(rules, name, consistent_only, max_depth)


def shipped_dir() -> Traversable:
    """The folder of the trees shipped with the package (``bullscows/data/trees``)."""
    return resources.files("bullscows") / "data" / "trees"


def shipped_file(
    rules: Rules, name: str, consistent_only: bool, max_depth: int | None = None
) -> Traversable | None:
    """The shipped tree of one variant, strategy and options, or ``None`` if none is shipped."""
    found = shipped_dir().joinpath(
        tree_file_name(rules, name, consistent_only, max_depth, ".json.gz")
    )
    return found if found.is_file() else None


def describe(name: str, consistent_only: bool, max_depth: int | None) -> str:
    """The strategy's label: its name and the options that shape its tree."""
    options = (["consistent only"] if consistent_only else []) + (
        [f"at most {max_depth} guesses"] if max_depth is not None else []
    )
    return f"{name} ({', '.join(options)})" if options else name


@lru_cache(maxsize=16)
def _tree(
    rules: Rules, name: str, objective: Objective, consistent_only: bool, max_depth: int | None
) -> Node:
    """The optimal tree's root: shipped, else cached, else searched (and cached)."""
    wanted = (rules, describe(name, consistent_only, max_depth), f"optimal-{objective}")
    shipped = shipped_file(rules, name, consistent_only, max_depth)
    try:  # a shipped tree is checked by the tests, for every release
        saved = None if shipped is None else load_tree(shipped.read_bytes())
    except (OSError, BullsCowsError):
        saved = None  # a damaged installation: look further
    if saved is not None and (saved.rules, saved.strategy, saved.objective) == wanted:
        return saved.root
    path = cache_file(rules, name, consistent_only, max_depth)
    if path.exists() or path.is_symlink():
        try:
            cached = load_tree(path)
            problem = cache_problem(cached, wanted, consistent_only, max_depth)
        except BullsCowsError as error:
            problem = str(error)
        if problem is None:
            return cached.root
        warnings.warn(
            f"the cached tree {quote_path(path)} is passed over: {problem}",
            BullsCowsWarning,
            stacklevel=2,
        )
    if _too_large(rules):  # only a shipped or cached tree let it past ``problem``
        raise StrategyError(
            f"{wanted[1]}: the tree saved for {rules.spec!r} cannot be read; search it again "
            f"with `bullscows tree --rules {rules.spec} --strategy {name}`"
        )
    found = search_tree(rules, name, objective, consistent_only, max_depth)
    _keep(found, path, consistent_only, max_depth)
    return found.root


def cache_key(tree: DecisionTree, consistent_only: bool, max_depth: int | None) -> str:
    """What binds a searched tree to its search: a digest of the variant, the strategy, the
    options and the tree itself, written into the cached file. A tree made otherwise (by
    another strategy, or with other options) and relabelled does not carry it.

    >>> found = search_tree(Rules.parse("p2c3n"), "optimal", "total", False, None)
    >>> key = cache_key(found, False, None)
    >>> len(key), key == cache_key(found, True, 3)
    (64, False)
    """
    made = [KEY_VERSION, tree.rules.spec, tree.strategy, tree.objective, consistent_only, max_depth]
    text = json.dumps([made, tree.to_dict()["tree"]], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_problem(
    saved: DecisionTree,
    wanted: tuple[Rules, str, str],
    consistent_only: bool,
    max_depth: int | None,
) -> str | None:
    """Why a cached tree cannot stand for the one ``wanted`` (variant, strategy label with its
    options, objective), or ``None``. Cheap next to a search: every secret is played down the
    tree once (``check_tree``), so a damaged tree, a stated summary that is not the tree's, a
    tree of other options (deeper than ``max_depth``, or guessing non-candidates when
    ``consistent_only``) are all refused; and a valid tree without the key its search wrote
    (``cache_key``: another strategy's tree, relabelled) is refused too.

    >>> from bullscows.outcomes import build_tree
    >>> from bullscows.strategies import get_strategy
    >>> rules = Rules.parse("p3c4n")
    >>> planted = build_tree(rules, get_strategy("simple"))
    >>> print(cache_problem(planted, (rules, "optimal", "optimal-total"), False, None))
    it is a tree of simple (strategy) on p3c4n, not of optimal (optimal-total) on p3c4n
    """
    rules, label, objective = wanted
    if (saved.rules, saved.strategy, saved.objective) != wanted:
        return (
            f"it is a tree of {saved.strategy[:60]} ({saved.objective[:60]}) on "
            f"{saved.rules.spec}, not of {label} ({objective}) on {rules.spec}"
        )
    if saved.stated is None:
        return "it has no summary to check"
    report = check_tree(saved, consistent_only)
    if report.summary is None or report.problems:
        return report.problems[0]
    if max_depth is not None and report.summary.worst > max_depth:
        return f"it needs {report.summary.worst} guesses, more than {max_depth}"
    if saved.key != cache_key(saved, consistent_only, max_depth):
        return "its key is not that of the search with these options (it was not made by it)"
    return None


def _keep(found: DecisionTree, path: Path, consistent_only: bool, max_depth: int | None) -> None:
    """Write a searched tree to the user's cache with its key, if the cache can be written.

    The file is written beside and then renamed over the entry: a reader never sees half a
    file, and an entry that was a link (to a device, say) is replaced, not written through.
    """
    part = path.with_name(f"{path.name}.{os.getpid()}.part")
    key = cache_key(found, consistent_only, max_depth)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace(found, key=key).save(part)
        os.replace(part, path)
    except (OSError, BullsCowsError):
        part.unlink(missing_ok=True)  # the cache is a convenience: a read-only home still plays


def search_tree(
    rules: Rules,
    name: str,
    objective: Objective,
    consistent_only: bool,
    max_depth: int | None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    checkpoint: Path | None = None,
) -> DecisionTree:
    """Search for the optimal tree (``bullscows.search.optimal_tree``, which calls ``progress``
    now and then, runs on ``executor`` and keeps its answers in ``checkpoint``), as a
    ``DecisionTree`` labelled as the strategy ``name`` labels itself; no tree within
    ``max_depth`` is a ``StrategyError``.

    >>> found = search_tree(Rules.parse("p3c4n"), "optimal-worst", "worst", False, None)
    >>> found.strategy, found.objective, found.summary().total, found.summary().worst
    ('optimal-worst', 'optimal-worst', 72, 4)
    """
    from bullscows.search import optimal_tree  # the search uses the strategies' bounds

    try:
        found = optimal_tree(
            rules, objective, max_depth, consistent_only, progress, executor, checkpoint
        ).tree
    except ValueError as error:  # no tree within max_depth
        raise StrategyError(f"{name}: {error}") from None
    label = describe(name, consistent_only, max_depth)
    return DecisionTree(rules, label, f"optimal-{objective}", _node(found))


def _too_large(rules: Rules) -> bool:
    """Whether a game would wait too long for the search of ``rules``: every code that may be
    guessed is a row of its score matrix."""
    return rules.guess_rules.size > MAX_OPTIMAL_CODES


def _node(tree: Tree) -> Node:
    return Node(tree["guess"], {reply: _node(sub) for reply, sub in tree["replies"].items()})


class OptimalSearch(Strategy):
    """Follows the optimal tree of the variant along the history's replies."""

    objective: ClassVar[Objective]

    def __init__(self, consistent_only: bool = False, max_depth: int | None = None) -> None:
        self.consistent_only = consistent_only
        self.max_depth = max_depth

    @property
    def label(self) -> str:
        return describe(self.name, self.consistent_only, self.max_depth)

    @property
    def spec(self) -> StrategySpec:
        return StrategySpec(self.name, self.consistent_only, self.max_depth)

    def problem(self, rules: Rules) -> str | None:
        if _too_large(rules) and not self.shipped(rules) and not self.cached(rules):
            return (
                f"{self.name} does not search {rules.describe()} during a game: it has "
                f"{rules.guess_rules.size:,} codes to guess (at most {MAX_OPTIMAL_CODES:,}); "
                "search it first with "
                f"`bullscows tree --rules {rules.spec} --strategy {self.name}`"
            )
        return None

    def needs_search(self, rules: Rules) -> bool:
        """Whether no tree is shipped or cached for ``rules``: the first move searches.

        >>> OptimalTotal().needs_search(Rules.parse("bc"))
        False
        """
        return not (self.shipped(rules) or self.cached(rules))

    def cached(self, rules: Rules) -> bool:
        """Whether the user's cache holds this strategy's tree for ``rules``."""
        return cache_file(rules, self.name, self.consistent_only, self.max_depth).is_file()

    def search(
        self,
        rules: Rules,
        progress: Progress | None = None,
        executor: Executor | None = None,
        checkpoint: Path | None = None,
    ) -> DecisionTree:
        """Search for (prove) this strategy's tree now, whatever is shipped or cached, and
        keep it in the user's cache (see ``search_tree`` for the arguments)."""
        found = search_tree(
            rules, self.name, self.objective, self.consistent_only, self.max_depth, progress,
            executor, checkpoint,
        )  # fmt: skip
        path = cache_file(rules, self.name, self.consistent_only, self.max_depth)
        _keep(found, path, self.consistent_only, self.max_depth)
        _tree.cache_clear()
        return found

    def shipped(self, rules: Rules) -> bool:
        """Whether the package ships this strategy's tree for ``rules`` (no search needed)."""
        return shipped_file(rules, self.name, self.consistent_only, self.max_depth) is not None

    def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
        problem = self.problem(knowledge.rules)
        if problem is not None:
            raise StrategyError(problem)
        node = _tree(
            knowledge.rules, self.name, self.objective, self.consistent_only, self.max_depth
        )
        return follow(node, knowledge, f"the {self.label} tree")


class OptimalTotal(OptimalSearch):
    """The lowest total (best average) over all secrets, proven by exhaustive search."""

    name = "optimal"
    objective = "total"
    summary = "the tree with the lowest total of guesses over all secrets (exhaustive search)"


class OptimalWorst(OptimalSearch):
    """The fewest guesses that always suffice, then the lowest total among such trees."""

    name = "optimal-worst"
    objective = "worst"
    summary = "the fewest guesses that always suffice, then the lowest total (exhaustive search)"


class OptimalWorstCount(OptimalSearch):
    """The fewest guesses that always suffice, then the fewest secrets needing that many, then
    the lowest total (a lexicographic objective)."""

    name = "optimal-worst-count"
    objective = "worst-count"
    summary = (
        "the fewest guesses that always suffice, then the fewest secrets needing them, then the "
        "lowest total (exhaustive search)"
    )


class OptimalTotalWorst(OptimalSearch):
    """The lowest total, then the lowest worst case among such trees."""

    name = "optimal-total-worst"
    objective = "total-worst"
    summary = "the lowest total of guesses, then the fewest that always suffice (exhaustive search)"
