"""About how long a strategy takes to play the secrets of a variant: what ``bench`` and
``tree`` announce before they start, and what the bench's default leaves out.

>>> from bullscows.strategies import get_strategy
>>> round(expected_seconds(Rules.parse("bc"), get_strategy("cows"), 5040))
25
"""

from __future__ import annotations

import math

from bullscows.rules import Rules
from bullscows.strategies import Strategy

#: Rough seconds per unit of work, by kind of strategy, from ``bullscows bench --csv`` on bc,
#: mm and p4c8n (two shared cores): what ``expected_seconds`` multiplies.
RATES = {
    "tree": 1e-4,  # per secret, a stored tree followed
    "scoring": 2e-9,  # per secret, code to guess and guess of a game, every guess scored
    "sampling": 5e-4,  # per secret, a random code that fits drawn at each guess
    "blind": 2.5e-8,  # per secret and code of the variant, guesses that ignore the replies
    "cows": 1.25e-4,  # per secret, position and symbol, cows' rule-out games
}


def needs_search(rules: Rules, strategy: Strategy) -> bool:
    """Whether ``strategy`` searches for its tree before its first move on ``rules``: how long
    that takes cannot be told in advance (from a second to hours)."""
    return strategy.problem(rules) is None and strategy.needs_search(rules)


def expected_seconds(rules: Rules, strategy: Strategy, secrets: int) -> float | None:
    """About how long ``strategy`` takes to play ``secrets`` secrets of ``rules`` (``RATES``),
    or ``None`` when it searches for its tree first. An estimate, to announce a run.

    >>> from bullscows.strategies import get_strategy
    >>> mm = Rules.parse("mm")
    >>> expected_seconds(mm, get_strategy("minimax"), 1296) < 1
    True
    """
    if needs_search(rules, strategy):
        return None
    if strategy.name == "cows":
        return secrets * rules.length * len(rules.symbols) * RATES["cows"]
    if strategy.ignores_replies:
        return secrets * rules.size * RATES["blind"]
    if not strategy.deterministic:
        return secrets * RATES["sampling"]
    if strategy.name.startswith(("optimal", "tree")) or strategy.name == "simple":
        return secrets * RATES["tree"]
    guesses = 1 + math.log(rules.size, rules.length * (rules.length + 3) / 2)
    return secrets * rules.guess_rules.size * guesses * RATES["scoring"]
