"""Trees played by the textbook definition of a reply (itertools and Counter, nothing of the
library's scoring): an independent check of a tree file's figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any


def plain_counts(tree: dict[str, Any], secrets: Iterable[str]) -> tuple[Counter[int], int]:
    """Guesses each secret needs down ``tree`` (a tree file's ``"tree"``), and how many
    guesses played could not be the secret (a code of repeated symbols in a game of
    distinct ones is such a guess, when the secret has none)."""
    counts: Counter[int] = Counter()
    wider = 0
    for secret in secrets:
        node, guesses = tree, 1
        while True:
            guess = node["guess"]
            wider += len(set(guess)) < len(guess) and len(set(secret)) == len(secret)
            bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
            cows = sum((Counter(secret) & Counter(guess)).values()) - bulls
            if bulls == len(secret):
                break
            node, guesses = node["replies"][f"{bulls} {cows}"], guesses + 1
        counts[guesses] += 1
    return counts, wider
