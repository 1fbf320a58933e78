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

from bullscows.rules import Rules
from bullscows.strategies.card import Card, CardFigures
from bullscows.strategies.card_strategy import best_card

#: The page formats a card is drawn in.
PAGE_FORMATS = ("svg", "pdf")


def heading(card: Card, figures: CardFigures) -> list[str]:
    """The lines above the book: the variant, the size of the card and its exact figures."""
    average = "expected average" if card.rule == "any" else "average"
    return [
        f"Card for {card.rules.spec}: {card.rules.describe()}",
        f"{card.lines} lines; {average} {figures.average:.3f} guesses over all "
        f"{figures.secrets:,} secrets, worst {figures.worst}",
    ]


def draw_card(card: Card, out: BinaryIO, form: str) -> None:
    """Write the card (heading, book lines, rule) to ``out`` as one page in ``form``."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    lines = [*heading(card, card.figures()), "", *card.describe()]
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


def card_view(spec: str, lines: int) -> dict[str, Any]:
    """What a page shows of the best card of at most ``lines`` lines for the variant ``spec``:
    its heading, its book lines, its rule and its JSON data.

    >>> view = card_view("mm", 1)
    >>> view["lines"], view["rule"]
    (['Start with 1132.'], 'Then: guess the first code, in reading order, that fits every reply.')
    """
    card = best_card(Rules.parse(spec), max(lines, 0))
    figures = card.figures()
    *book, rule = card.describe()
    return {"heading": heading(card, figures), "lines": book, "rule": rule,
            "data": card.to_json(figures)}  # fmt: skip
