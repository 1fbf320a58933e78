"""What a history of guesses and replies says about the secret, and why it may say nothing.

>>> rules = Rules.parse("moo5,5,5")
>>> k = Knowledge.start(rules).after(Code("330", rules), Feedback(0, 1))
>>> len(k)
30
>>> k = k.after(Code("413", rules), Feedback(1, 1)).after(Code("243", rules), Feedback(1, 1))
>>> k.candidate_codes()
[Code('123', Rules.parse('p3c5r'))]
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows.codes import Code, of_variant
from bullscows.errors import ContradictionError
from bullscows.feedback import Feedback, counted
from bullscows.rules import Rules
from bullscows.universe import IndexArray, Universe, universe


@dataclass(frozen=True, slots=True)
class Step:
    """One guess and the reply it got."""

    guess: Code
    feedback: Feedback


class Knowledge:
    """The history so far and the codes that are still possible (as universe indices).

    Values: ``after`` returns a new ``Knowledge``, so keeping the old one is an undo.
    """

    __slots__ = ("candidates", "history", "rules", "universe")

    def __init__(self, rules: Rules, history: tuple[Step, ...], candidates: IndexArray) -> None:
        self.rules = rules
        self.universe: Universe = universe(rules)
        self.history = history
        self.candidates = candidates

    @classmethod
    def start(cls, rules: Rules) -> Knowledge:
        """Nothing known yet: every secret is possible."""
        return cls(rules, (), universe(rules).secrets)

    @classmethod
    def from_history(cls, rules: Rules, history: tuple[Step, ...] | list[Step]) -> Knowledge:
        knowledge = cls.start(rules)
        for step in history:
            knowledge = knowledge.after(step.guess, step.feedback)
        return knowledge

    def after(self, guess: Code, feedback: Feedback) -> Knowledge:
        """The knowledge once ``guess`` got ``feedback``; a code of another variant is a
        ``CodeError`` (``codes.of_variant``)."""
        of_variant(guess, self.rules)
        replies = self.universe.score_row(guess.index, self.candidates)
        keep = self.candidates[replies == feedback.index(self.rules.length)]
        return Knowledge(self.rules, (*self.history, Step(guess, feedback)), keep)

    def __len__(self) -> int:
        return len(self.candidates)

    @property
    def is_candidate(self) -> npt.NDArray[np.bool_]:
        """A mask over the universe: True for the codes still possible."""
        mask = np.zeros(len(self.universe), dtype=bool)
        mask[self.candidates] = True
        return mask

    @property
    def is_contradictory(self) -> bool:
        return len(self.candidates) == 0

    def refuse_contradiction(self) -> None:
        """A ``ContradictionError``, explained, when no code fits the replies."""
        if self.is_contradictory:
            raise ContradictionError("no code fits the replies so far", self.explain())

    @property
    def is_solved(self) -> bool:
        """The last reply was all bulls, and every reply before it agrees."""
        return (
            bool(self.history)
            and self.history[-1].feedback.is_win(self.rules.length)
            and len(self.candidates) > 0
        )

    def candidate_codes(self, limit: int | None = None) -> list[Code]:
        """The remaining codes in the variant's order (the first ``limit`` of them)."""
        chosen = self.candidates if limit is None else self.candidates[:limit]
        return [self.code(int(i)) for i in chosen]

    def code(self, index: int) -> Code:
        """The code at universe ``index``."""
        return Code.of_index(index, self.rules)

    def explain(self) -> Contradiction:
        """Why no code fits (see ``explain_contradiction``)."""
        return explain_contradiction(self.rules, self.history)


# --- contradictions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fix:
    """Replacing the reply of step ``step`` by ``feedback`` makes the history consistent,
    leaving ``codes`` possible secrets."""

    step: int
    feedback: Feedback
    codes: int


@dataclass(frozen=True, slots=True)
class Contradiction:
    """An account of a history no code satisfies.

    ``core`` holds the steps (0-based) of a smallest set of replies that cannot all be true
    (``smallest`` is False when the history was too long to prove no smaller set exists);
    ``fixes`` lists, for each step of the core, the other replies that would make the whole
    history consistent again, likeliest typo first.
    """

    history: tuple[Step, ...]
    core: tuple[int, ...]
    fixes: tuple[Fix, ...]
    smallest: bool = True

    def to_json(self) -> dict[str, Any]:
        """The account as JSON: ``steps`` of the core and each fix's ``step`` counted from 1,
        ``text`` its lines (``describe``) with replies written as pairs."""
        return {
            "steps": [i + 1 for i in self.core],
            "smallest": self.smallest,
            "fixes": [
                {
                    "step": f.step + 1,
                    "bulls": f.feedback.bulls,
                    "cows": f.feedback.cows,
                    "codes": f.codes,
                }
                for f in self.fixes
            ],
            "text": self.describe("pair"),
        }

    def describe(self, style: str = "words") -> list[str]:
        """Lines for a person."""
        steps = [
            f"#{i + 1} {self.history[i].guess} -> {self.history[i].feedback.format(style)}"
            for i in self.core
        ]
        if len(self.core) == 1:
            lines = [f"No code can give reply {steps[0]}."]
        else:
            lines = ["These replies cannot all be true: " + "; ".join(steps) + "."]
        for i in self.core:
            alternatives = [f for f in self.fixes if f.step == i]
            step = self.history[i]
            if alternatives:
                shown = ", ".join(
                    f"{f.feedback.format(style)} ({counted(f.codes, 'code')} left)"
                    for f in alternatives[:4]
                )
                given = step.feedback.format(style)
                lines.append(f"  If #{i + 1} {step.guess} was not {given}, it could be: {shown}")
            else:
                lines.append(
                    f"  Changing only the reply to #{i + 1} {step.guess} would not be enough."
                )
        return lines


#: Subsets of a history examined in search of a smaller core before settling for a minimal one.
CORE_SEARCH_BUDGET = 200_000


def explain_contradiction(rules: Rules, history: tuple[Step, ...] | list[Step]) -> Contradiction:
    """Name a smallest set of replies that cannot all hold, and the replies that would fix each.

    >>> rules = Rules.parse("bc")
    >>> history = [Step(Code("0123"), Feedback(4, 0)), Step(Code("4567"), Feedback(1, 0))]
    >>> explain_contradiction(rules, history).core
    (0, 1)
    """
    history = tuple(history)
    u = universe(rules)
    secrets = u.secrets
    fits = np.array([
        u.score_row(step.guess.index, secrets) == step.feedback.index(rules.length)
        for step in history
    ]).reshape(len(history), len(secrets))  # fmt: skip
    if history and fits.all(axis=0).any():
        raise ValueError("the history is consistent; there is nothing to explain")
    packed = np.packbits(fits, axis=1)
    core, smallest = _smallest_core(packed)
    fixes = []
    for i in core:
        others = np.delete(fits, i, axis=0).all(axis=0)
        codes = secrets[others]
        if len(codes) == 0:
            continue
        replies = np.bincount(
            u.score_row(history[i].guess.index, codes), minlength=rules.reply_slots
        )
        given = history[i].feedback
        options = [
            Fix(i, Feedback.from_index(r, rules.length), int(n)) for r, n in enumerate(replies) if n
        ]
        options.sort(
            key=lambda f: (
                abs(f.feedback.bulls - given.bulls) + abs(f.feedback.cows - given.cows),
                -f.codes,
            )
        )
        fixes.extend(options)
    return Contradiction(history, core, tuple(fixes), smallest)


def _smallest_core(packed: npt.NDArray[np.uint8]) -> tuple[tuple[int, ...], bool]:
    def unsatisfiable(steps: tuple[int, ...]) -> bool:
        return not np.bitwise_and.reduce(packed[list(steps)], axis=0).any()

    # A minimal core by deletion: drop every step the contradiction does not need.
    core = tuple(range(len(packed)))
    for i in reversed(range(len(packed))):
        trial = tuple(s for s in core if s != i)
        if trial and unsatisfiable(trial):
            core = trial
    # Then look for a smaller one among all smaller subsets, smallest first, within the budget.
    budget = CORE_SEARCH_BUDGET
    for size in range(1, len(core)):
        count = math.comb(len(packed), size)
        if count > budget:
            return core, False
        budget -= count
        for subset in itertools.combinations(range(len(packed)), size):
            if unsatisfiable(subset):
                return subset, True
    return core, True


# --- audit ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mistake:
    """Step ``step`` (0-based) got ``given`` where the secret gives ``true``."""

    step: int
    given: Feedback
    true: Feedback


def audit(rules: Rules, history: tuple[Step, ...] | list[Step], secret: Code) -> list[Mistake]:
    """Every reply in the history that the secret would not have given.

    >>> audit(Rules.parse("bc"), [Step(Code("1234"), Feedback(0, 2))], Code("4271"))
    [Mistake(step=0, given=Feedback(bulls=0, cows=2), true=Feedback(bulls=1, cows=2))]
    """
    u = universe(rules)
    secret = secret.as_secret()
    mistakes = []
    for i, step in enumerate(history):
        true = Feedback.from_index(
            int(u.score_row(step.guess.index, np.array([secret.index]))[0]), rules.length
        )
        if true != step.feedback:
            mistakes.append(Mistake(i, step.feedback, true))
    return mistakes
