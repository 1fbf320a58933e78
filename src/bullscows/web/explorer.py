"""The tree explorer: a decision tree node by node, for the shipped optimal trees, any
deterministic strategy built on demand for a small variant, or an uploaded tree file checked by
``tree.check_tree``.

A tree is named by its source (``shipped:bc--optimal``, ``build:minimax:mm``, ``upload:ID``)
and a node by the replies from the root (``at``: ``"0 1/1 2"``, any reply notation), so every
node has a permalink.

>>> tree = source(None, "build:minimax:p2c3n")
>>> node = node_json(tree, "0 1")
>>> node["node"]["guess"], node["node"]["secrets"], [r["pair"] for r in node["replies"]]
('12', 2, ['0 1', '2 0'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import numpy as np

from bullscows.caching import Kept
from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback, default_style
from bullscows.knowledge import Knowledge
from bullscows.outcomes import strategy_tree
from bullscows.readers import quote_path
from bullscows.rules import Rules
from bullscows.strategies import Strategy
from bullscows.tree import DecisionTree, Node, check_tree, load_tree
from bullscows.tree.store import read_shipped, shipped_dir, tree_file_name
from bullscows.web.compute import INLINE, SEARCH_WORK, Client, Pool
from bullscows.web.games import MAX_GAME_CODES, check_size, strategy_for

if TYPE_CHECKING:
    from bullscows.web.storage import Store

#: Strategies' trees are built on demand for variants of at most this many codes.
MAX_BUILD_CODES = 5_040
#: Trees kept in memory, least recently used dropped first.
KEPT = 8
#: A tree built scores about its depth times the pairs of codes of its variant.
TREE_DEPTH = 8


@dataclass
class Explored:
    """A tree being explored, with the height of each subtree (by node identity); its title
    is ``lead`` then ``name``, a name the page keeps on one line (``bc--optimal``)."""

    src: str
    lead: str
    name: str
    tree: DecisionTree
    heights: dict[int, int] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return f"{self.lead} {self.name}".strip()

    def height(self, node: Node) -> int:
        """How many guesses the subtree at ``node`` needs at most (a leaf: 1)."""
        if not self.heights:
            order, stack = [], [self.tree.root]
            while stack:
                current = stack.pop()
                order.append(current)
                stack.extend(current.branches.values())
            for current in reversed(order):
                below = [self.heights[id(child)] for child in current.branches.values()]
                self.heights[id(current)] = 1 + max(below, default=0)
        return self.heights[id(node)]


_kept: Kept[str, Explored] = Kept(KEPT)


def shipped() -> list[str]:
    """The names of the shipped trees (``bc--optimal``, ``bc:guesses=digits--optimal``, ...):
    their files' names without the escapes that make a spec a file name."""
    return sorted(
        unquote(item.name.removesuffix(".json.gz"))
        for item in shipped_dir().iterdir()
        if item.name.endswith(".json.gz")
    )


def source(store: Store | None, src: str, pool: Pool = INLINE, client: Client | None = None
           ) -> Explored:  # fmt: skip
    """The tree ``src`` names, from memory if it was explored lately; one built on demand is
    built in ``pool`` when large."""
    src = src.strip()[:300]
    kept = _kept.get(src)
    if kept is not None:
        return kept
    explored = _load(store, src, pool, client)
    _kept.put(src, explored)
    return explored


def _load(store: Store | None, src: str, pool: Pool, client: Client | None) -> Explored:
    kind, _, rest = src.partition(":")
    rest = unquote(rest) if kind == "shipped" else rest
    if kind == "shipped" and rest in shipped():
        spec, _, name = rest.partition("--")
        file = tree_file_name(Rules.parse(spec), name, False, None, ".json.gz")
        tree = load_tree(read_shipped(file))  # checked against its recorded digest
        return Explored(src, "the shipped tree", rest, tree)
    if kind == "build":
        name, _, spec = rest.partition(":")
        rules = check_size(Rules.parse(spec or "bc"), MAX_BUILD_CODES,
                           "trees are built here for variants")  # fmt: skip
        strategy = _deterministic(strategy_for(name, rules))
        command = f"bullscows tree --strategy {strategy.name} --rules {rules.spec}"
        work = rules.size * rules.guess_rules.size * TREE_DEPTH
        work = SEARCH_WORK if strategy.needs_search(rules) else work
        tree = pool.call(client, work, strategy_tree, rules,
                         strategy, command=command)  # fmt: skip
        return Explored(src, f"{strategy.label} on", rules.spec, tree)
    if kind == "upload" and store is not None:
        data = store.get_tree(rest)
        if data is not None:
            return Explored(src, "an uploaded tree", "", load_tree(data.encode("utf-8")))
    raise BullsCowsError(
        f"tree {src[:60]!r}: give shipped:NAME ({', '.join(shipped())}), build:STRATEGY:RULES "
        "(e.g. build:minimax:mm) or the upload: link an upload gave"
    )


def _deterministic(strategy: Strategy) -> Strategy:
    if not strategy.deterministic:
        raise BullsCowsError(f"strategy {strategy.name!r} is random: it has no decision tree")
    return strategy


def check_upload(raw: bytes, name: str = "") -> tuple[str, dict[str, Any]]:
    """An uploaded tree file (JSON, or gzip of it) named ``name`` checked as ``tree --check``
    checks it: its JSON text and the report; a tree that is not valid is refused with its
    problems, each refusal naming the file."""
    name = name or "uploaded"
    tree = load_tree(raw, name=name)  # gzip unpacked by ``readers.unpack``, within its cap
    check_size(tree.rules, MAX_GAME_CODES, "uploaded trees are checked here for variants")
    report = check_tree(tree)
    if not report.valid:
        problems = "; ".join(report.problems[:3])
        raise BullsCowsError(f"tree file {quote_path(name)} is not valid: {problems}")
    text = tree.to_json()
    return text, report.to_json()


def node_json(explored: Explored, at: str) -> dict[str, Any]:
    """The node reached by the replies ``at`` ('b c/b c/...'): its guess, how many secrets
    reach it, each reply with its secrets and subtree height, and the breadcrumbs."""
    tree = explored.tree
    rules = tree.rules
    knowledge, node = Knowledge.start(rules), tree.root
    crumbs: list[dict[str, Any]] = [{"label": "start", "at": ""}]
    path: list[str] = []
    for text in [part for part in at.split("/") if part.strip()][:100]:
        reply = Feedback.parse(text, rules)
        guess = knowledge.code(node.guess)
        child = node.branches.get(reply.index(rules.length))
        if child is None:
            raise BullsCowsError(
                f"reply {text.strip()[:20]!r} to {guess}: no secret here gives it; the replies "
                f"are {', '.join(_pair(r, rules) for r in sorted(node.branches)) or 'none'}"
            )
        knowledge, node = knowledge.after(guess, reply), child
        path.append(reply.format("pair"))
        crumbs.append({"label": f"{guess} {reply.format('pair')}", "at": "/".join(path)})
    guess = knowledge.code(node.guess)
    replies = knowledge.universe.score_row(node.guess, knowledge.candidates)
    counts = np.bincount(replies, minlength=rules.reply_slots)
    out = []
    for index in np.flatnonzero(counts).tolist():
        feedback = Feedback.from_index(index, rules.length)
        child = node.branches.get(index)
        out.append({
            "pair": feedback.format("pair"), "text": feedback.format(default_style(rules)),
            "bulls": feedback.bulls, "cows": feedback.cows,
            "secrets": int(counts[index]), "win": feedback.is_win(rules.length),
            "guess": None if child is None else knowledge.code(child.guess).text,
            "depth": 0 if child is None else explored.height(child),
            "at": "/".join([*path, feedback.format("pair")]),
        })  # fmt: skip
    summary = tree.stated or tree.summary()
    return {
        "src": explored.src,
        "title": explored.title,
        "lead": explored.lead,
        "name": explored.name,
        "rules": rules.spec,
        "repeats": rules.repeats,
        "variant": rules.describe(),
        "strategy": tree.strategy,
        "summary": summary.to_json(),
        "crumbs": crumbs,
        "at": "/".join(path),
        "node": {"guess": guess.text, "level": len(path) + 1, "secrets": len(knowledge),
                 "depth": explored.height(node), "leaf": node.is_leaf,
                 "candidates": [c.text for c in knowledge.candidate_codes(12)]},
        "replies": out,
    }  # fmt: skip


def _pair(index: int, rules: Rules) -> str:
    return Feedback.from_index(index, rules.length).format("pair")
