"""Analysis of a game, move by move: each guess against the best guess at that moment.

A guess's cost is the guesses it needs on average, itself included, over the codes still
possible: exact along the shipped optimal tree and where the position search answers
(``exact``), else measured by a strategy playing on (``by``); docs/terminal.md ("Analysing a
game") says more.

>>> from bullscows.sessions import Codemaker
>>> game = Codemaker(Rules.parse("p3c4n"), secret="012")
>>> for guess in ("013", "012"):
...     _ = game.guess(guess)
>>> moves = analyse(game)
>>> moves[0]["best"], moves[0]["cost"], moves[0]["best_cost"], moves[0]["by"]
('012', 3.0, 3.0, 'the optimal search')
>>> moves[1]["codes"], moves[1]["fits"], moves[1]["sentence"]
(3, True, 'optimal (exact, by the optimal search): splits 3 codes into 2 parts')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bullscows.codes import Code
from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback, counted
from bullscows.hints import Hint, explain_guess, give_hint
from bullscows.knowledge import Contradiction, Knowledge, Step
from bullscows.outcomes import walk
from bullscows.rules import Rules
from bullscows.search.engine import Search
from bullscows.search.position import optimal_from, position_search, searchable
from bullscows.seeding import MoveRandom
from bullscows.sessions import Adversary, Codemaker
from bullscows.standings import counts
from bullscows.strategies import Strategy, get_strategy
from bullscows.tree import Node, load_tree
from bullscows.tree.store import shipped_file
from bullscows.universe import distinct


@dataclass(frozen=True, slots=True)
class Played:
    """A history of guesses and replies to analyse as a game's (``analyse_history``)."""

    rules: Rules
    history: tuple[Step, ...]
    hinter: Strategy | None = None
    seed: int = 0


def analyse_history(
    rules: Rules, history: Sequence[Step], strategy: Strategy | None = None, seed: int = 0
) -> list[dict[str, Any]]:
    """Each move of a history of guesses and replies, as ``analyse`` gives a game's (best
    play by ``strategy`` where no exact figure exists, seeded from ``seed``). A reply that
    leaves no code ends the analysis at its move: there is no best play from nowhere.

    >>> rules = Rules.parse("p3c4n")
    >>> steps = [Step(Code("013", rules), Feedback(2, 0)), Step(Code("012", rules), Feedback(0, 0)),
    ...          Step(Code("123", rules), Feedback(0, 0))]
    >>> [move["left"] for move in analyse_history(rules, steps)]
    [3, 0]
    """
    knowledge, kept = Knowledge.start(rules), []
    for step in history:
        if knowledge.is_contradictory:
            break
        kept.append(step)
        knowledge = knowledge.after(step.guess, step.feedback)
    return analyse(Played(rules, tuple(kept), strategy, seed))


def contradiction_in(
    rules: Rules, history: Sequence[Step], moves: Sequence[dict[str, Any]]
) -> tuple[str, Contradiction] | None:
    """Why ``history`` is bad input to analyse, given the ``moves`` ``analyse_history`` made
    of it: an error's words, naming the move whose reply left no code, and the account of
    the replies that contradict each other; ``None`` when some code fits every reply.

    >>> rules = Rules.parse("p3c4n")
    >>> steps = [Step(Code("013", rules), Feedback(2, 0)), Step(Code("013", rules), Feedback(1, 1)),
    ...          Step(Code("123", rules), Feedback(0, 0))]
    >>> words, account = contradiction_in(rules, steps, analyse_history(rules, steps))
    >>> words
    'no code fits the replies up to move 2; the moves after it are not analysed'
    >>> account.describe("pair")[0]
    'These replies cannot all be true: #1 013 -> 2 0; #2 013 -> 1 1.'
    """
    if not moves or moves[-1]["left"]:
        return None
    analysed = len(moves)
    after = "; the moves after it are not analysed" if analysed < len(history) else ""
    account = Knowledge.from_history(rules, tuple(history[:analysed])).explain()
    return f"no code fits the replies up to move {analysed}{after}", account


def move_text(move: dict[str, Any], reply_style: str = "words") -> str:
    """One move of ``analyse`` as a line for people: the guess and its reply, the codes
    before and after it, and the sentence that compares it with the best guess.

    >>> move = {"number": 2, "guess": "012", "bulls": 3, "cows": 0, "codes": 3, "left": 1,
    ...         "fits": True, "sentence": "the only code left"}
    >>> print(move_text(move, "bc"))
    2. 012  3B0C  3 codes -> 1: the only code left
    >>> print(move_text({**move, "number": 3, "codes": 1, "sentence": "..."}, "bc"))
    3. 012  3B0C  1 code -> 1: ...
    """
    reply = Feedback(move["bulls"], move["cows"]).format(reply_style)
    fits = "" if move["fits"] else " (it did not fit every reply so far: hard mode refuses it)"
    codes = "code" if move["codes"] == 1 else "codes"
    return (
        f"{move['number']}. {move['guess']}  {reply}  {move['codes']:,} {codes} -> "
        f"{move['left']:,}: {move['sentence']}{fits}"
    )


def review(game: object) -> list[dict[str, Any]]:
    """``analyse`` of a game of a person's guesses at the computer's code, once it is over
    or, with hints on, during it (the analysis names the best guess of every move so far);
    any other game is a ``BullsCowsError`` that says why not."""
    if not isinstance(game, Codemaker | Adversary):
        raise BullsCowsError("only your guesses at my code are analysed (play)")
    if not game.over and game.hinter is None:
        raise BullsCowsError(
            "the analysis comes at the end of the game, or during it with hints on"
        )
    return analyse(game)


def analyse(game: Codemaker | Adversary | Played) -> list[dict[str, Any]]:
    """Each move of ``game``: the guess, the best one, their costs, how they were measured,
    and why."""
    strategy = game.hinter
    if strategy is None or not strategy.deterministic:
        strategy = get_strategy("minimax")
    knowledge = Knowledge.start(game.rules)
    node = _shipped_root(game.rules)
    moves = []
    search: Search | None = None  # one for the whole game, made when first needed
    for number, step in enumerate(game.history, 1):
        yours = explain_guess(knowledge, step.guess)
        optimum = None
        searched = searchable(knowledge) and not knowledge.is_contradictory
        if searched and node is None:  # along the tree's line its subtree is the optimum
            search = search or position_search(game.rules)
            optimum = optimal_from(knowledge, search=search)
        if optimum is not None and optimum.guess is not None:
            best = explain_guess(knowledge, knowledge.code(optimum.guess))
            cost = optimal_from(knowledge, step.guess, search).average
            best_cost, by, exact = optimum.average, "the optimal search", True
        elif node is not None:
            best = explain_guess(knowledge, knowledge.code(node.guess))
            best_cost, by = _tree_total(node, knowledge) / len(knowledge), "the optimal tree"
            on_line = node.guess == step.guess.index
            exact = on_line or searched
            if on_line:
                cost = best_cost
            elif searched:  # yours exact too: its parts searched, not the whole position
                search = search or position_search(game.rules)
                cost = optimal_from(knowledge, step.guess, search).average
            else:
                cost = _cost(knowledge, step.guess, strategy)
        else:
            best = give_hint(knowledge, strategy, MoveRandom(game.seed, "analysis", number))
            cost = _cost(knowledge, step.guess, strategy)
            best_cost, by, exact = _cost(knowledge, best.guess, strategy), strategy.label, False
        measure = by if exact else f"{strategy.label} playing on after your guess"
        moves.append({
            "number": number, "guess": step.guess.text, "reply": step.feedback.format("words"),
            "bulls": step.feedback.bulls, "cows": step.feedback.cows,
            "codes": len(knowledge), "fits": yours.is_candidate,
            "best": best.guess.text, "cost": round(cost, 3), "best_cost": round(best_cost, 3),
            "by": by, "exact": exact, "measure": measure, "left": _left(knowledge, step),
            "sentence": _why(yours, best, cost, best_cost, by, exact, strategy.label),
        })  # fmt: skip
        if node is not None:
            same = node.guess == step.guess.index
            node = node.branches.get(step.feedback.index(game.rules.length)) if same else None
        knowledge = knowledge.after(step.guess, step.feedback)
    return moves


def _shipped_root(rules: Rules) -> Node | None:
    """The root of the variant's shipped optimal tree (lowest total), if one ships."""
    return _shipped_tree(rules.spec)


@lru_cache(maxsize=4)
def _shipped_tree(spec: str) -> Node | None:
    rules = Rules.parse(spec)
    found = shipped_file(rules, "optimal", False)
    return None if found is None else load_tree(found.read_bytes(), rules).root


def _tree_total(node: Node, knowledge: Knowledge) -> int:
    """The guesses the subtree at ``node`` needs over the codes still possible, all told."""
    rules = knowledge.rules
    replies = knowledge.universe.score_row(node.guess, knowledge.candidates)
    total = len(knowledge)
    for reply, child in node.branches.items():
        part = knowledge.candidates[replies == reply]
        if len(part):
            step = Step(knowledge.code(node.guess), Feedback.from_index(reply, rules.length))
            total += _tree_total(child, Knowledge(rules, (*knowledge.history, step), part))
    return total


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


def _why(yours: Hint, best: Hint, cost: float, best_cost: float, by: str, exact: bool,
         playing: str) -> str:  # fmt: skip
    """The move in a sentence. The best guess's cost is measured ``by`` (the optimal search
    or tree, else the strategy ``playing`` on); the guess's cost too when ``exact``, else with
    ``playing`` on after it.

    >>> from bullscows.codes import Code
    >>> k = Knowledge.start(Rules.parse("p2c3n")).after(Code("01", Rules.parse("p2c3n")),
    ...                                                 Feedback(0, 2))
    >>> only = explain_guess(k, k.candidate_codes(1)[0])
    >>> _why(explain_guess(k, k.code(0)), only, 2, 1, "minimax", False, "minimax")
    'one code was left, 10: this guess could not win'
    >>> k = Knowledge.start(Rules.parse("p2c3n"))
    >>> yours, best = explain_guess(k, k.code(1)), explain_guess(k, k.code(0))
    >>> _why(yours, best, 2.3341, 2.3333, "minimax", False, "minimax").split(":")[0]
    "as good as minimax's choice 01 (both measured with minimax playing on)"
    >>> _why(yours, best, 2.3333, 2.3341, "minimax", False, "minimax").split(":")[0]
    "as good as minimax's choice 01 (both measured with minimax playing on)"
    >>> _why(yours, best, 2.5, 2.3333, "minimax", False, "minimax").split(": ")[1]
    '0.17 guesses more on average (both measured with minimax playing on)'
    """
    split = f"splits {yours.remaining:,} codes into {yours.count} parts"
    if yours.remaining == 1:
        if yours.is_candidate:
            return "the only code left"
        return f"one code was left, {best.guess}: this guess could not win"
    if by == playing:
        measured = f" (both measured with {playing} playing on)"
    elif exact:
        measured = ""
    else:
        measured = f" (the best's by {by}, exact; yours with {playing} playing on)"
    if exact and abs(cost - best_cost) < 1e-9:
        return f"optimal (exact, by {by}): {split}"
    if yours.guess == best.guess:
        return f"{by}'s own choice: {split}"
    more = round(cost - best_cost, 2)  # as the sentence says it: 0.00 reads "as good as"
    if more < 0:
        gain = f"{-more:.2f} guesses on average"
        return f"better than {by}'s choice {best.guess} by {gain}{measured}: {split}"
    if more == 0:
        return f"as good as {by}'s choice {best.guess}{measured}: {split}"
    return (
        f"{best.guess} splits {best.remaining:,} codes into {best.count} parts (largest "
        f"{best.largest:,}); yours into {yours.count} (largest {yours.largest:,}): "
        f"{more:.2f} guesses more on average{measured}"
    )


def symbol_states(knowledge: Knowledge) -> dict[str, str]:
    """What the replies so far tell of each symbol, as a keypad shows it: ``placed`` (every
    code still possible has it, at one same place), ``in`` (every one has it), ``out`` (none
    has it) or ``""`` (not known yet). Known from the replies alone, never from the secret.

    >>> bc = Rules.parse("bc")
    >>> k = Knowledge.start(bc).after(Code("0123", bc), Feedback(0, 0))
    >>> k = k.after(Code("4567", bc), Feedback(1, 3))
    >>> states = symbol_states(k)
    >>> states["0"], states["4"], states["8"]
    ('out', 'in', 'out')
    """
    rules = knowledge.rules.guess_rules
    codes = knowledge.universe.codes[knowledge.candidates]
    states = {symbol: "" for symbol in rules.symbols}
    if not len(codes):
        return states
    for digit, symbol in enumerate(rules.symbols):
        where = codes == digit
        having = where.any(axis=1)
        if not having.any():
            states[symbol] = "out"
        elif having.all():
            states[symbol] = "placed" if where.all(axis=0).any() else "in"
    return states


#: How the shared result draws a bull, a cow and a reply of neither.
BULL, COW, NOTHING = "\u25cf", "\u25cb", "\u00b7"


def share_text(game: Codemaker | Adversary, day: int | None = None, limit: int | None = None
               ) -> str:  # fmt: skip
    """A finished game as text for a chat, without any code: the variant (and the daily
    puzzle's number), the outcome, the hints used and hard mode, then one line per guess with
    its bulls and cows as symbols.

    >>> game = Codemaker(Rules.parse("bc"), secret="0132", hints="minimax", hard=True)
    >>> _ = game.hint()
    >>> for guess in ("0123", "0132"):
    ...     _ = game.guess(guess)
    >>> print(share_text(game, day=330, limit=7))
    bullscows bc #330: broken in 2/7 guesses, 1 hint, hard mode
    ●●○○
    ●●●●
    """
    count = len(game.history)
    out_of = f"{count}/{limit}" if limit else f"{count}"
    if game.solved:
        outcome = f"broken in {out_of} guess{'es' if count != 1 else ''}"
    elif limit and count >= limit:
        outcome = f"not broken in {counted(limit, 'guess')}"
    else:
        outcome = f"given up after {count} guess{'es' if count != 1 else ''}"
    extras = [outcome]
    if game.hints_given:
        extras.append(f"{game.hints_given} hint{'s' if game.hints_given != 1 else ''}")
    if game.hard:
        extras.append("hard mode")
    title = f"bullscows {game.rules.spec}{f' #{day}' if day else ''}"
    lines = [f"{title}: {', '.join(extras)}"]
    lines += [BULL * s.feedback.bulls + COW * s.feedback.cows or NOTHING for s in game.history]
    return "\n".join(lines)


def result_to_share(game: Codemaker | Adversary, day: int | None = None) -> str | None:
    """What the terminal and the web offer to share of ``game``: its ``share_text`` (out of
    its guesses allowed) when it counts in a player's record (``standings.counts``), else
    ``None`` (not over, or given up before its first guess). A guess taken back, then given
    up, counts: lost after no guess.

    >>> game = Codemaker(Rules.parse("p3c4n"), secret="012")
    >>> _ = game.guess("013"), game.undo(), game.give_up()
    >>> print(result_to_share(game))
    bullscows p3c4n: given up after 0 guesses
    >>> unstarted = Codemaker(Rules.parse("p3c4n"), secret="012")
    >>> _ = unstarted.give_up()
    >>> result_to_share(unstarted) is None
    True
    """
    return share_text(game, day, game.max_guesses) if counts(game) else None
