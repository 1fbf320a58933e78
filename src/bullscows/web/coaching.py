"""The coach in a web game of ``play``: the card's advice before each guess and, once the game
is over, the game beside the card and the optimum, move by move. The words and figures are
the library's (``strategies.card_coach``, as ``bullscows play --coach`` says them).

>>> from bullscows.rules import Rules
>>> from bullscows.sessions import Codemaker
>>> game = Codemaker(Rules.parse("mm"), secret="1122", coach=True)
>>> coach_out(game).text
'The card says 1124 (line 1: the first guess); 1,296 codes fit.'
>>> _ = game.guess("1122")
>>> review = review_out(game)
>>> review.played, review.followed, review.card, review.optimum, review.moves[0].card.guess
(1, 0, 4, 4, '1124')
"""

from __future__ import annotations

from bullscows.errors import StrategyError
from bullscows.rules import Rules
from bullscows.sessions import Adversary, Codemaker
from bullscows.strategies.card import Card
from bullscows.strategies.card_coach import Advice, Coached, advise, optimum_for, review
from bullscows.strategies.card_strategy import best_card, search_problem
from bullscows.web.models import AdviceOut, CoachedOut, ReviewOut

#: What a web player can do where no card is at hand (``search_problem``'s remedy): the web
#: reads no card file, so it says which variants have one.
CHOOSE_CARD = (
    "the web has cards for {shipped}, and finds one for any variant of at most {limit} "
    "secrets: choose one of those (the menu's Card page shows each card)"
)


def card_problem(rules: Rules) -> str | None:
    """Why the web has no card for ``rules``, and what to choose instead; or ``None``.

    >>> card_problem(Rules.parse("mm")) is None, card_problem(Rules.parse("p4c7r"))[:25]
    (True, 'no card ships for p4c7r; ')
    """
    return search_problem(rules, CHOOSE_CARD)


def coach_card(rules: Rules) -> Card:
    """The card the coach follows in ``rules`` (a ``StrategyError`` where there is none)."""
    try:
        return best_card(rules, remedy=CHOOSE_CARD)
    except StrategyError as error:
        raise StrategyError(f"coach: {error}") from None


def advice_out(advice: Advice) -> AdviceOut:
    return AdviceOut(guess=advice.guess.text, line=advice.line, why=advice.why,
                     where=advice.where, brief=advice.brief, left=advice.left, fit=advice.fit,
                     text=advice.text())  # fmt: skip


def coach_out(game: Codemaker | Adversary) -> AdviceOut:
    """What the card says before the next guess of ``game``."""
    return advice_out(advise(coach_card(game.rules), game.knowledge))


def coached_out(move: Coached) -> CoachedOut:
    optimum = None if move.optimum is None else move.optimum.text
    return CoachedOut(number=move.number, guess=move.guess.text, followed=move.followed,
                      card=advice_out(move.advice), optimum=optimum, text=move.text())  # fmt: skip


def review_out(game: Codemaker | Adversary) -> ReviewOut | None:
    """The finished ``game`` beside the card and the optimum (``None`` before any guess)."""
    secret = game.secret
    if secret is None or not game.history:
        return None
    found = review(coach_card(game.rules), game.history, secret, optimum_for(game.rules))
    moves = [coached_out(move) for move in found.moves]
    return ReviewOut(played=found.played, followed=found.followed, card=found.card,
                     optimum=found.optimum, text=found.text(), moves=moves)  # fmt: skip
