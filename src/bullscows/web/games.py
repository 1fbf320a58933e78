"""The web's games: start one from a form or a JSON body, apply a move, describe it.

Nothing here knows HTTP: ``api`` and ``pages`` call these functions and render what they
return. A game is a library session (``bullscows.sessions``) rebuilt from its record for each
move, and a move is one of the library's typed moves (``sessions.moves``); ``state`` is
everything a page or a program may see, and never holds the computer's secret (nor the seed
it was drawn from) before the game is over.

>>> from bullscows.sessions import Guess
>>> game = new_game(Setup(mode="play", rules="bc", hints=True))
>>> told = apply(game, Guess("0123", number=1))
>>> view = state(game, "play")
>>> view.remaining > 0, view.secret, view.move
(True, None, 2)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bullscows.daily import day_of
from bullscows.errors import BullsCowsError, RulesError, StrategyError
from bullscows.feedback import Feedback, default_style
from bullscows.hints import Hint, explain_guess
from bullscows.knowledge import Fix, Step
from bullscows.records import GameRecord, Status
from bullscows.rules import PRESETS, Rules
from bullscows.sessions import (
    Adversary,
    Codebreaker,
    Codemaker,
    Duel,
    DuelTurn,
    Game,
    Move,
    Viewer,
    restore,
)
from bullscows.sessions.moves import command_words
from bullscows.standings import counts
from bullscows.strategies import STRATEGIES, Strategy, get_strategy, registered
from bullscows.strategies.card_strategy import CardStrategy
from bullscows.web.coaching import card_problem, coach_card, coach_out, review_out
from bullscows.web.models import (
    AskingOut,
    BreakerOut,
    ChoiceOut,
    ContradictionOut,
    FixOut,
    HintOut,
    PartOut,
    ReplyOut,
    StateOut,
    StepOut,
)

MODES = ("play", "solve", "duel", "assist")
#: A game's variant may have at most this many codes (a move then answers in well under a second).
MAX_GAME_CODES = 50_000
#: An optimal strategy with no shipped or cached tree is searched on demand only up to this size.
MAX_SEARCH_CODES = 1_000
#: Candidates are listed (assist, solve) when at most this many remain.
LISTED = 20


@dataclass(frozen=True)
class Setup:
    """What a new game asks for: its mode, variant and strategy (the computer's, or the
    hints' in ``play``)."""

    mode: str = "play"
    rules: str = "bc"
    strategy: str = "minimax"
    consistent_only: bool = False
    hints: bool = True
    adversary: bool = False
    hard: bool = False  # play: every guess must fit every reply so far
    max_guesses: int | None = None  # play: the game is lost when these are used up
    coach: bool = False  # play: the card's advice at each move, the game beside it at the end


def variant(
    spec: str = "bc",
    length: int | None = None,
    symbols: str | None = None,
    repeats: bool | None = None,
    no_leading_zero: bool = False,
) -> Rules:
    """The variant of a preset or spec, adjusted as the custom form asks, within the web's
    size bound.

    >>> variant("bc", length=3).spec
    'p3c10n'
    >>> variant("logik", length=6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.RulesError: 6 symbols of 1-8, repeats allowed has 262,144 codes; the web ...
    """
    rules = Rules.from_options(
        spec.strip()[:200], length=length, symbols=symbols or None, repeats=repeats,
        no_leading_zero=no_leading_zero,
    )  # fmt: skip
    return check_size(rules, MAX_GAME_CODES, "the web plays variants")


def check_size(rules: Rules, limit: int, what: str) -> Rules:
    """``rules`` if it has at most ``limit`` codes, else a ``RulesError`` giving both."""
    if rules.size > limit:
        raise RulesError(
            f"{rules.describe()} has {rules.size:,} codes; {what} of at most {limit:,}"
        )
    return rules


def strategy_for(name: str, rules: Rules, consistent_only: bool = False) -> Strategy:
    """A named strategy (no tree files: the server's files are not the user's) that can play
    ``rules`` here; an optimal one needs a shipped or cached tree or a small variant."""
    registered(name)  # a name only: the server's files are not the user's
    strategy = get_strategy(name, consistent_only=consistent_only)
    problem = card_problem(rules) if name == CardStrategy.name else strategy.problem(rules)
    if problem is not None:
        raise StrategyError(problem)
    if strategy.needs_search(rules) and rules.size > MAX_SEARCH_CODES:
        raise StrategyError(
            f"{name} on {rules.describe()} ({rules.size:,} codes) needs a search the web does not "
            f"start: it searches variants of at most {MAX_SEARCH_CODES:,} codes and plays the "
            "shipped trees (the Trees page lists them); choose one of those, or a strategy that "
            "needs no search, such as minimax"
        )
    return strategy


def check_mode(mode: str) -> str:
    """``mode`` if it is one of ``MODES``, else a ``BullsCowsError`` naming them."""
    if mode not in MODES:
        raise BullsCowsError(f"mode {mode[:40]!r}: one of {', '.join(MODES)}")
    return mode


def new_game(setup: Setup, seed: int | None = None) -> Game:
    """A new game as ``setup`` asks, of ``seed`` (``None``: a fresh one)."""
    check_mode(setup.mode)
    rules = variant(setup.rules)
    strategy = strategy_for(setup.strategy, rules, setup.consistent_only)
    if setup.mode == "play":
        hints = strategy if setup.hints else None
        if setup.coach:
            coach_card(rules)  # a variant with no card is refused here, not at the first move
        kind = Adversary if setup.adversary else Codemaker
        return kind(rules, hints=hints, hard=setup.hard, max_guesses=setup.max_guesses,
                    coach=setup.coach, seed=seed)  # fmt: skip
    if setup.mode == "duel":
        return Duel(rules, strategy, seed=seed)
    return Codebreaker(rules, strategy, seed=seed, assist=setup.mode == "assist")


@dataclass(frozen=True)
class Told:
    """What a move tells besides the new state: the reply to a guess, a hint, a step undone,
    and the lines of a move that only shows something (the codes left, the history, help)."""

    reply: ReplyOut | None = None
    hint: HintOut | None = None
    undone: StepOut | None = None
    lines: tuple[str, ...] = ()


def apply(game: Game, move: Move) -> Told:
    """Carry out one move (``Game.apply``); what it tells besides the new state."""
    outcome = game.apply(move)
    scored, hinted, undone = outcome.scored, outcome.hinted, outcome.undone
    shows = not (move.changes or move.asks_strategy)  # a suggestion: on the page already
    return Told(
        reply=None if scored is None else reply_out(scored, game.rules),
        hint=None if hinted is None else hint_out(hinted, game.rules),
        undone=None if undone is None else step_out(undone, game.rules),
        lines=outcome.lines(default_style(game.rules)) if shows else (),
    )


def kind_name(game: Game) -> str:
    return type(game).kind


# --- describing a game --------------------------------------------------------------------------


def reply_out(feedback: Feedback, rules: Rules) -> ReplyOut:
    """A reply as the variant's players write it (``default_style``): bulls and cows in
    words, or black and white pegs (1B2W) where a code may repeat a symbol."""
    return ReplyOut(
        bulls=feedback.bulls, cows=feedback.cows, text=feedback.format(default_style(rules)),
        pair=feedback.format("pair"), win=feedback.is_win(rules.length),
    )  # fmt: skip


def step_out(step: Step, rules: Rules) -> StepOut:
    return StepOut(guess=step.guess.text, reply=reply_out(step.feedback, rules))


def hint_out(hint: Hint, rules: Rules) -> HintOut:
    style = default_style(rules)
    return HintOut(
        guess=hint.guess.text, remaining=hint.remaining, could_be_secret=hint.is_candidate,
        largest=hint.largest, expected=round(hint.expected, 3),
        parts=[PartOut(reply=f.format(style), pair=f.format("pair"), codes=n)
               for f, n in hint.parts],
        lines=hint.describe(style),
    )  # fmt: skip


def fix_out(fix: Fix, breaker: Codebreaker) -> FixOut:
    """A reply that would mend a contradiction: step (from 1), the reply, codes it leaves."""
    return FixOut(
        step=fix.step + 1, reply=fix.feedback.format("pair"),
        text=fix.feedback.format(default_style(breaker.rules)),
        codes=fix.codes, guess=breaker.history[fix.step].guess.text,
    )  # fmt: skip


def breaker_out(breaker: Codebreaker, asks: bool) -> BreakerOut:
    """The computer's side as codebreaker: its guesses, what is left, a contradiction with
    its fixes, and (``asks``) the guess awaiting a reply with only the replies still possible."""
    rules = breaker.rules
    contradiction, asking = breaker.contradiction, None
    if contradiction is None and asks and not breaker.over:
        guess = breaker.suggest()
        split = explain_guess(breaker.knowledge, guess)
        choices = sorted(split.parts, key=lambda p: p[0].index(rules.length))
        asking = AskingOut(
            number=len(breaker.history) + 1, guess=guess.text,
            choices=[ChoiceOut(pair=f.format("pair"), text=f.format(default_style(rules)), codes=n)
                     for f, n in choices],
        )  # fmt: skip
    return BreakerOut(
        steps=[step_out(s, rules) for s in breaker.history],
        remaining=breaker.remaining,
        solved=breaker.solved,
        known=None if breaker.known is None else breaker.known.text,
        candidates=[c.text for c in breaker.knowledge.candidate_codes(LISTED)]
        if breaker.remaining <= LISTED
        else None,
        contradiction=None
        if contradiction is None
        else ContradictionOut(
            lines=contradiction.describe(default_style(rules)),
            core=[i + 1 for i in contradiction.core],
            fixes=[fix_out(f, breaker) for f in contradiction.fixes],
        ),
        asking=asking,
    )


def state(game: Game, mode: str) -> StateOut:
    """Everything the person may see of ``game`` now (the secret only once it is over)."""
    rules = game.rules
    over = game.over
    data: dict[str, Any] = {
        "mode": mode,
        "hard": False,
        "kind": kind_name(game),
        "rules": rules.spec,
        "variant": rules.describe(),
        "length": rules.length,
        "symbols": sorted(set("".join(rules.allowed_at(i) for i in range(rules.length))),
                          key=rules.symbols.index),
        "repeats": rules.repeats,
        "status": game.status.value,
        "over": over,
        "move": game.move_number,
        "record": game.to_record().public_json(over=over),
        "playing": game.status in (Status.PLAYING, Status.CONTRADICTORY) and not over,
    }  # fmt: skip
    data.update(game.shown_by(FIELDS))
    return StateOut(**data)


class Fields(Viewer[dict[str, Any]]):
    """The fields of ``state`` each kind of game has (``sessions.Viewer``)."""

    def maker(self, game: Codemaker | Adversary) -> dict[str, Any]:
        from bullscows.analysis import result_to_share, symbol_states  # loads the search

        rules, over = game.rules, game.over
        data: dict[str, Any] = {
            "hard": game.hard, "max_guesses": game.max_guesses,
            "guesses": [step_out(s, rules) for s in game.history], "remaining": game.remaining,
            "hints": game.hinter is not None, "hints_given": game.hints_given,
            "keypad": symbol_states(game.knowledge), "day": day_of(game),
            "giving_up": game.giving_up, "title": game.title, "commands": command_words(game),
        }  # fmt: skip
        if over:
            secret, kept = game.secret, game.keeps_secret
            data["secret"] = None if secret is None or kept else secret.text
            if kept:  # nor its record's secret and seed (played again, it is the same game)
                data["record"] = game.to_record().public_json(over=False)
            data["counted"] = counts(game)
            grid = result_to_share(game, data["day"])  # None where the game does not count
            if grid is not None:
                data["grid"] = grid
        if game.coach:
            data["coach"] = True
            if over:
                data["review"] = review_out(game)
            else:
                data["advice"] = coach_out(game)
        return data

    def breaker(self, game: Codebreaker) -> dict[str, Any]:
        data: dict[str, Any] = {"breaker": breaker_out(game, asks=not game.assist)}
        if game.assist and not game.over and game.contradiction is None:
            data["suggestion"] = hint_out(explain_guess(game.knowledge, game.suggest()),
                                          game.rules)  # fmt: skip
        return data

    def duel(self, game: Duel) -> dict[str, Any]:
        awaiting, winner = game.awaiting, game.winner()
        data: dict[str, Any] = {
            "guesses": [step_out(s, game.rules) for s in game.maker.history],
            "broken": game.maker.solved,
            "awaiting": None if awaiting is None else awaiting.value,
            "breaker": breaker_out(game.breaker, awaiting is DuelTurn.REPLY),
            "winner": None if winner is None else winner.value,
            "giving_up": game.giving_up,
        }
        if game.over:
            data["secret"] = game.maker.secret.text
        return data


FIELDS = Fields()


def shown(game: Game, mode: str) -> dict[str, Any]:
    """``state`` as the pages render it: the fields that apply to the game, as plain data."""
    return state(game, mode).model_dump(exclude_unset=True)


def analysed(game: Game) -> list[dict[str, Any]]:
    """``analysis.review`` of a game of yours against my code, once it is over or, with
    hints on, during it (the analysis names the best guess of every move so far)."""
    from bullscows.analysis import review  # loads the search: when used

    return review(game)


def restored(record: GameRecord, mode: str) -> Game:
    """The game of ``record``, played in ``mode`` (assisted: it reads lines as ``assist``
    does)."""
    return restore(record, assist=mode == "assist")


def presets() -> list[tuple[str, str, int]]:
    """The preset variants the web offers: name, description, size."""
    return [(name, Rules.parse(name).describe(), Rules.parse(name).size) for name in PRESETS
            if Rules.parse(name).size <= MAX_GAME_CODES]  # fmt: skip


def strategy_names() -> list[str]:
    return list(STRATEGIES)
