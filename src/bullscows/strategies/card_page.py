"""A card as a printable page (SVG or PDF, drawn by matplotlib).

>>> import io
>>> from bullscows.rules import Rules
>>> from bullscows.strategies.card import Card
>>> out = io.BytesIO()
>>> draw_card(Card(Rules.parse("p2c3n"), "first", {(): 1}), out, "svg")
>>> out.getvalue()[:5]
b'<?xml'
"""

from __future__ import annotations

from typing import Any, BinaryIO

from bullscows.codes import Code, code_and_rest
from bullscows.errors import BullsCowsError
from bullscows.feedback import Feedback, counted
from bullscows.knowledge import Knowledge
from bullscows.readers import quote
from bullscows.rules import Rules
from bullscows.strategies.card import Card, CardFigures
from bullscows.strategies.card_coach import advise
from bullscows.strategies.card_strategy import MAKE_CARD, best_card

#: The page formats a card is drawn in.
PAGE_FORMATS = ("svg", "pdf")


def heading(card: Card, figures: CardFigures) -> list[str]:
    """The lines above the book: the variant, the size of the card and its exact figures."""
    average = "expected average" if card.rule == "any" else "average"
    return [
        f"Card for {card.rules.spec}: {card.rules.describe()}",
        f"{counted(card.lines, 'line')}; {average} {figures.average:.3f} guesses over all "
        f"{counted(figures.secrets, 'secret', True)}, worst {figures.worst}",
    ]


def draw_card(card: Card, out: BinaryIO, form: str, figures: CardFigures | None = None) -> None:
    """Write the card (heading, book lines, rule) to ``out`` as one page in ``form``
    (``figures``: the card's, where they are known already)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    lines = [*heading(card, figures or card.figures()), "", *card.describe()]
    height = 1.0 + 0.22 * len(lines)
    figure = Figure(figsize=(8.27, max(height, 2.0)))
    for number, text in enumerate(lines):
        figure.text(
            0.05, 1 - (0.5 + 0.22 * number) / figure.get_figheight(), text,
            family="monospace", fontsize=9, weight="bold" if number == 0 else "normal",
            va="top",
        )  # fmt: skip
    metadata = {"Date": None} if form == "svg" else {"CreationDate": None}
    figure.savefig(out, format=form, metadata=metadata)


def card_view(spec: str, lines: int, after: str = "", remedy: str = MAKE_CARD) -> dict[str, Any]:
    """What a page shows of the best card of at most ``lines`` lines for the variant ``spec``:
    its heading, its book lines, its rule, its JSON data and, for a game so far (``after``:
    guesses and replies, ``1124 0 1, 4656 2 0``), the coach's advice. Where no card is at
    hand, the error says ``remedy`` (``card_strategy.search_problem``).

    >>> view = card_view("mm", 1, "1132 0 0")
    >>> view["lines"]
    ['Start with 1132.']
    >>> view["advice"]  # doctest: +ELLIPSIS
    'The card says 4444 (the rule: guess the first code, ...); 81 codes fit.'
    """
    rules = Rules.parse(spec)
    card = best_card(rules, max(lines, 0), remedy)
    figures = card.figures()
    *book, rule = card.describe()
    knowledge = Knowledge.start(rules)
    for number, item in enumerate(filter(None, (i.strip() for i in after.split(","))), 1):
        guess, reply = code_and_rest(item, rules)
        if not reply.strip():
            raise BullsCowsError(f"game so far, entry {number} {quote(item)}: give a guess "
                                 "and its reply, e.g. 1234 1 2")  # fmt: skip
        knowledge = knowledge.after(Code(guess, rules), Feedback.parse(reply, rules))
    knowledge.refuse_contradiction()
    return {"heading": heading(card, figures), "lines": book, "rule": rule,
            "data": card.to_json(figures), "advice": advise(card, knowledge).text()}  # fmt: skip
