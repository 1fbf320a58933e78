"""The one walker that splits codes by reply (``tree.walk``), and what each of its callers
keeps of its own: a tree's trace names what is wrong, the search's distribution raises on a
missing branch, a strategy's walk and the bench count a secret listed twice twice."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from bullscows.bench import run_bench
from bullscows.errors import BullsCowsError
from bullscows.outcomes import build_tree, guess_counts
from bullscows.rules import Rules
from bullscows.search import optimal_tree
from bullscows.search.options import SearchOptions
from bullscows.search.state import SearchState
from bullscows.search.tree import distribution
from bullscows.strategies import get_strategy
from bullscows.tree import Node, load_tree
from bullscows.tree.model import trace_secrets
from bullscows.tree.walk import Follow, Next, walk_secrets
from bullscows.universe import IndexArray, universe

P3C4N = Rules.parse("p3c4n")


def chain(n: int) -> tuple[IndexArray, Any, int]:
    """Codes ``0..n-1`` where a guess tells only whether it is the secret (reply 1 if so)."""

    def score(guess: int, codes: IndexArray) -> Any:
        return (codes == guess).astype(np.uint8)

    return np.arange(n), score, 1


def first_code(position: str, codes: IndexArray, depth: int) -> tuple[int, Follow[str]]:
    """Guess the first code left, every time."""
    return int(codes[0]), lambda reply, part, wanted: position


def test_a_secret_listed_twice_counts_twice_in_order() -> None:
    codes, score, win = chain(5)
    counts = walk_secrets("here", codes, score, win, first_code, np.array([4, 1, 4, 0]))
    assert counts.tolist() == [5, 2, 5, 1]


def test_secrets_whose_reply_is_not_followed_count_zero() -> None:
    codes, score, win = chain(4)

    def stop(position: str, codes: IndexArray, depth: int) -> tuple[int, Follow[str]]:
        return int(codes[0]), lambda reply, part, wanted: None

    assert walk_secrets("here", codes, score, win, stop).tolist() == [1, 0, 0, 0]


def test_a_position_settled_at_once_counts_from_its_depth_when_most_codes_are_played() -> None:
    codes, score, win = chain(6)
    asked: list[int] = []

    def settle(position: str, here: IndexArray) -> Any:
        asked.append(len(here))
        return np.arange(1, len(here) + 1) * 10  # the i-th code left needs 10 * i guesses

    # Every code is played: the root is settled at once, and nothing is visited.
    counts = walk_secrets("here", codes, score, win, first_code, settle=settle)
    assert counts.tolist() == [10, 20, 30, 40, 50, 60] and asked == [6]
    # Two secrets of six: played move by move until they are most of the codes left.
    asked.clear()
    counts = walk_secrets("here", codes, score, win, first_code, np.array([5, 4]), settle=settle)
    assert asked == [3] and counts.tolist() == [3 + 30, 3 + 20]  # settled at guess 4 of 3, 4, 5


def test_a_part_whose_one_code_is_guessed_next_needs_one_guess_more() -> None:
    u = universe(P3C4N)
    seen: list[int] = []

    def visit(position: str, codes: IndexArray, depth: int) -> tuple[int, Follow[str]]:
        seen.append(len(codes))

        def follow(reply: int, part: IndexArray, wanted: IndexArray) -> str | Next:
            return Next.WINS if len(part) == 1 else position

        return int(codes[0]), follow

    counts = walk_secrets("", u.secrets, u.score_row, 12, visit)
    assert 1 not in seen  # no position of one code was visited
    visited = walk_secrets("", u.secrets, u.score_row, 12, first_code)
    assert counts.tolist() == visited.tolist()  # the same play, one visit fewer per leaf


def test_replies_are_followed_in_increasing_order_depth_first() -> None:
    u = universe(P3C4N)
    seen: list[tuple[str, int]] = []

    def visit(path: str, codes: IndexArray, depth: int) -> tuple[int, Follow[str]]:
        seen.append((path, depth))
        return int(codes[0]), lambda reply, part, wanted: f"{path} {reply}"

    walk_secrets("", u.secrets, u.score_row, 12, visit)
    first = [(path, depth) for path, depth in seen if depth == 2]
    replies = [int(path.split()[0]) for path, _ in first]
    assert replies == sorted(replies, reverse=True)  # a stack: the highest reply first
    # Depth first: every position under the first reply comes before the next reply's.
    under = [i for i, (path, _) in enumerate(seen) if path.split()[:1] == [str(replies[0])]]
    assert under == list(range(1, 1 + len(under)))


def test_a_walk_deeper_than_the_stack_allows() -> None:
    codes, score, win = chain(5000)
    assert walk_secrets("here", codes, score, win, first_code)[-1] == 5000


def test_the_trace_names_lost_secrets_and_unreached_branches() -> None:
    tree = build_tree(P3C4N, get_strategy("minimax"))
    data = json.loads(tree.to_json())
    del data["summary"]
    after_120 = data["tree"]["replies"]["0 3"]["replies"]
    after_120["1 1"] = after_120.pop("0 3")  # 201 replies '0 3' to 120: it is lost
    del data["tree"]["replies"]["1 1"]["replies"]["1 1"]  # 031 and 213 are lost
    counts, problems = trace_secrets(load_tree(json.dumps(data)), consistent_only=True)
    assert problems == [
        "2 replies leave the tree: after 012 '1 1' 023, reply '1 1' (secrets 031, 213) has no "
        "branch, after 012 '0 3' 120, reply '0 3' (secrets 201) has no branch",
        "1 branch no secret reaches: after 012 '0 3' 120, reply '1 1'",
        "1 guess cannot be the secret: 012 '2 0' 023",
    ]
    u = universe(P3C4N)
    lost = [u.text(int(s)) for s in u.secrets[counts == 0]]
    assert lost == ["031", "201", "213"]
    played = guess_counts(P3C4N, get_strategy("minimax"))
    assert (counts[counts > 0] == played[counts > 0]).all()


def test_the_distribution_raises_on_a_missing_branch() -> None:
    result = optimal_tree(P3C4N)
    search = SearchState(SearchOptions(P3C4N))
    everything = universe(P3C4N).secrets
    found = distribution(search.scores, search.win, result.tree, everything)
    assert found == result.distribution
    reply = max(result.tree.branches)
    pruned = Node(result.tree.guess, {r: c for r, c in result.tree.branches.items() if r != reply})
    with pytest.raises(ValueError, match=f"^the tree has no branch for reply {reply} at depth 1$"):
        distribution(search.scores, search.win, pruned, everything)


def test_the_bench_and_the_walk_count_a_secret_listed_twice_twice() -> None:
    minimax = get_strategy("minimax")
    every = guess_counts(P3C4N, minimax)
    secrets = np.array([5, 0, 5, 23])
    assert guess_counts(P3C4N, minimax, secrets).tolist() == every[secrets].tolist()
    (result,) = run_bench(P3C4N, ["minimax"], secrets=secrets).results
    assert result.secrets == 4 and result.total == int(every[secrets].sum())


def test_a_tree_of_too_many_nodes_is_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows.strategies import walked

    monkeypatch.setattr(walked, "MAX_NODES", 10)
    with pytest.raises(BullsCowsError, match="has more than 10 nodes; it is not built"):
        build_tree(P3C4N, get_strategy("minimax"))
