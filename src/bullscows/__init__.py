"""bullscows: play and solve Bulls & Cows (MOO), Mastermind and their whole family.

>>> from bullscows import Rules, Code, Feedback, score
>>> score(Code("4271"), Code("1234"))
Feedback(bulls=1, cows=2)
>>> score(Code("1122", Rules.parse("mm")), Code("1234", Rules.parse("mm"))).format("pegs")
'1B1W'
"""

from __future__ import annotations

__version__ = "0.1.0"

#: ``typing.TYPE_CHECKING`` without importing ``typing`` (a hundredth of a second).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from bullscows.codes import Code
    from bullscows.errors import (
        BullsCowsError,
        CodeError,
        ContradictionError,
        FeedbackError,
        RulesError,
        StrategyError,
    )
    from bullscows.feedback import Feedback
    from bullscows.knowledge import Knowledge, explain_contradiction
    from bullscows.rules import Rules
    from bullscows.sessions import Codebreaker, Codemaker, Duel
    from bullscows.strategies import Strategy, get_strategy

# Every name loads on first use: importing the package runs next to nothing, so that the
# command's entry point (``__main__.main``) is in charge, Ctrl-C included, from its first moment.
_LAZY = {
    "Code": "bullscows.codes",
    "BullsCowsError": "bullscows.errors",
    "CodeError": "bullscows.errors",
    "ContradictionError": "bullscows.errors",
    "FeedbackError": "bullscows.errors",
    "RulesError": "bullscows.errors",
    "StrategyError": "bullscows.errors",
    "Feedback": "bullscows.feedback",
    "Rules": "bullscows.rules",
    "Knowledge": "bullscows.knowledge",
    "explain_contradiction": "bullscows.knowledge",
    "Codebreaker": "bullscows.sessions",
    "Codemaker": "bullscows.sessions",
    "Duel": "bullscows.sessions",
    "Strategy": "bullscows.strategies",
    "get_strategy": "bullscows.strategies",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'bullscows' has no attribute {name!r}")


def score(secret: Code, guess: Code) -> Feedback:
    """The reply ``guess`` gets when the secret is ``secret`` (both of one variant)."""
    from bullscows._kernels.reference import score as reference_score
    from bullscows.errors import BullsCowsError
    from bullscows.feedback import Feedback

    if secret.rules != guess.rules:
        raise BullsCowsError(f"codes {secret.text!r} and {guess.text!r} are of different variants")
    return Feedback(*reference_score(guess.digits, secret.digits))


__all__ = [
    "BullsCowsError",
    "Code",
    "CodeError",
    "Codebreaker",
    "Codemaker",
    "ContradictionError",
    "Duel",
    "Feedback",
    "FeedbackError",
    "Knowledge",
    "Rules",
    "RulesError",
    "Strategy",
    "StrategyError",
    "explain_contradiction",
    "get_strategy",
    "score",
]
