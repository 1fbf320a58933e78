"""Analysis of a game, move by move: each guess against the best guess at that moment.

A guess's cost is the number of guesses it needs on average, itself included, over the codes
still possible, when the best play follows it. Where the search answers quickly (a few hundred
codes left: ``search.position``) the best play is the proven optimum, and the best guess the
optimal one (``by`` is ``"optimal"``); elsewhere it is the hint strategy's (minimax unless the
game chose another deterministic one) playing on. The sentence says how the two guesses split
the codes; ``fits`` says whether the guess fitted every reply so far (hard mode's rule).

>>> from bullscows.sessions import Codemaker
>>> game = Codemaker(Rules.parse("p3c4n"), secret="012")
>>> for guess in ("013", "012"):
...     _ = game.guess(guess)
>>> moves = analyse(game)
>>> moves[0]["best"], moves[0]["cost"], moves[0]["best_cost"], moves[0]["by"]
('012', 3.0, 3.0, 'optimal')
>>> moves[1]["codes"], moves[1]["fits"], moves[1]["sentence"]
(3, True, 'as good as the best: splits 3 codes into 2 parts')
"""

from __future__ import annotations

from typing import Any

from bullscows.codes import Code
from bullscows.feedback import Feedback
from bullscows.hints import Hint, explain_guess, give_hint
from bullscows.knowledge import Knowledge, Step
from bullscows.outcomes import walk
from bullscows.rules import Rules
from bullscows.search.engine import Search
from bullscows.search.position import optimal_from, position_search, searchable
from bullscows.seeding import MoveRandom
from bullscows.sessions import Adversary, Codemaker
from bullscows.strategies import Strategy, get_strategy
from bullscows.universe import distinct


def analyse(game: Codemaker | Adversary) -> list[dict[str, Any]]:
    """Each move of ``game``: the guess, the best one, their costs and why."""
    strategy = game.hinter
    if strategy is None or not strategy.deterministic:
        strategy = get_strategy("minimax")
    knowledge = Knowledge.start(game.rules)
    moves = []
    search: Search | None = None  # one for the whole game, made when first needed
    for number, step in enumerate(game.history, 1):
        yours = explain_guess(knowledge, step.guess)
        optimum = None
        if searchable(knowledge) and not knowledge.is_contradictory:
            search = search or position_search(game.rules)
            optimum = optimal_from(knowledge, search=search)
        if optimum is not None and optimum.guess is not None:
            best = explain_guess(knowledge, knowledge.code(optimum.guess))
            cost = optimal_from(knowledge, step.guess, search).average
            best_cost, by = optimum.average, "optimal"
        else:
            best = give_hint(knowledge, strategy, MoveRandom(game.seed, "analysis", number))
            cost = _cost(knowledge, step.guess, strategy)
            best_cost, by = _cost(knowledge, best.guess, strategy), strategy.label
        moves.append({
            "number": number, "guess": step.guess.text, "reply": step.feedback.format("words"),
            "codes": len(knowledge), "fits": yours.is_candidate,
            "best": best.guess.text, "cost": round(cost, 3), "best_cost": round(best_cost, 3),
            "by": by, "left": _left(knowledge, step),
            "sentence": _why(yours, best, cost, best_cost),
        })  # fmt: skip
        knowledge = knowledge.after(step.guess, step.feedback)
    return moves


def _cost(knowledge: Knowledge, guess: Code, strategy: Strategy) -> float:
    """Guesses needed on average over the candidates when ``guess`` is played now and the
    strategy after it."""
    rules: Rules = knowledge.rules
    replies = knowledge.universe.score_row(guess.index, knowledge.candidates)
    win = Feedback.win(rules.length).index(rules.length)
    total = 0
    for reply in distinct(replies).tolist():
        part = knowledge.candidates[replies == reply]
        if reply == win:
            total += len(part)
            continue
        step = Step(guess, Feedback.from_index(reply, rules.length))
        after = Knowledge(rules, (*knowledge.history, step), part)
        total += int(walk(after, strategy, part, 2).sum())
    return total / len(knowledge)


def _left(knowledge: Knowledge, step: Step) -> int:
    return len(knowledge.after(step.guess, step.feedback))


def _why(yours: Hint, best: Hint, cost: float, best_cost: float) -> str:
    if yours.remaining == 1:
        return "the only code left"
    if yours.guess == best.guess or cost <= best_cost:
        return f"as good as the best: splits {yours.remaining:,} codes into {yours.count} parts"
    return (
        f"{best.guess} splits {best.remaining:,} codes into {best.count} parts (largest "
        f"{best.largest:,}); yours into {yours.count} (largest {yours.largest:,}): "
        f"{cost - best_cost:.2f} guesses more on average"
    )
