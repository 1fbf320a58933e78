"""``bullscows card``: a strategy a person can follow, printed as a card."""

from __future__ import annotations

import io
import json
from pathlib import Path

import click

from bullscows.atomic import write_file
from bullscows.cli.common import (
    Choice,
    Command,
    Whole,
    contradicted,
    ending,
    variant_options,
    writes,
)
from bullscows.cli.progress import say
from bullscows.errors import StrategyError
from bullscows.rules import Rules
from bullscows.strategies.card import Card, card_text, read_card
from bullscows.strategies.card_exact import RULE_NAMES, RuleCosts
from bullscows.strategies.card_page import PAGE_FORMATS, draw_card, heading
from bullscows.strategies.card_strategy import (
    ANY_LIMIT,
    QUICK_WIDTHS,
    SEARCH_LIMIT,
    SHIPPED_LINES,
    any_problem,
    best_card,
    search_cards,
)


@click.command(cls=Command)
@variant_options
@click.option(
    "--lines",
    type=Whole(0, 200),
    default=SHIPPED_LINES,
    show_default=True,
    metavar="N",
    help="The best card of at most N lines.",
)
@click.option(
    "--rule",
    type=Choice(RULE_NAMES),
    default="first",
    show_default=True,
    help="Where the book says nothing: the first code in reading order that fits every reply, "
    "or any code that fits (its figures are the exact expectation; its card is searched now, "
    f"for at most {ANY_LIMIT:,} secrets).",
)
@click.option(
    "--search",
    is_flag=True,
    help="Search for the card now instead of reading the shipped one (minutes on bc).",
)
@click.option(
    "--card",
    "card_file",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="FILE.json",
    help="Show the card saved in FILE.json (by --out) instead.",
)
@click.option(
    "--format",
    "form",
    type=Choice(["text", *PAGE_FORMATS]),
    default="text",
    show_default=True,
    help="Text, or a printable page (svg, pdf: needs --out).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the card and its figures as JSON.")
@click.option(
    "--out",
    type=click.Path(path_type=Path),  # a folder, or a file not to be written: writes says
    callback=writes("the card"),
    metavar="FILE",
    help="Write the card to FILE.json (or the page of --format to FILE.svg or FILE.pdf), in a "
    "folder that exists; play a JSON card with --strategy card:FILE.json.",
)
def card(
    rules: Rules,
    lines: int,
    rule: str,
    search: bool,
    card_file: Path | None,
    form: str,
    as_json: bool,
    out: Path | None,
) -> None:
    """Print a card: an opening book, then a rule a person can apply, with its exact figures.

    \b
    bullscows card --rules bc                 the shipped bc card (20 lines)
    bullscows card --rules mm --lines 8       the best mm card of at most 8 lines
    bullscows card --rules bc --format pdf --out bc-card.pdf
    bullscows card --rules mm --rule any      a card for the any-code-that-fits rule
    bullscows bench --rules bc --strategy card --strategy optimal
    """
    if form != "text" and out is None:
        raise click.UsageError(f"--format {form} writes a page: give --out FILE.{form}")
    if form != "text" and as_json:
        raise click.UsageError(f"--json prints JSON: give it without --format {form}")
    if out is not None:  # before a search (--search, --rule any) can take minutes
        ending(out, (".json",) if form == "text" else (f".{form}",), "'--out'")
    chosen, costs = _chosen(rules, lines, rule, search, card_file)
    figures = chosen.figures(costs)
    if form != "text":
        buffer = io.BytesIO()
        draw_card(chosen, buffer, form, figures)
        assert out is not None
        write_file(out, buffer.getvalue(), "the card")
        click.echo(f"Card written to {out} ({len(buffer.getvalue()):,} bytes)", err=True)
        return
    if out is not None:
        write_file(out, card_text(chosen, figures).encode("utf-8"), "the card")
        click.echo(f"Card written to {out} (play it with --strategy card:{out})", err=True)
        return
    if as_json:
        click.echo(json.dumps(chosen.to_json(figures), indent=1))
        return
    text = [*heading(chosen, figures), ""]
    text += [f"{number:>3}. {line}" for number, line in enumerate(chosen.describe()[:-1], 1)]
    text.append(chosen.describe()[-1])
    if chosen.rule == "first":
        reads = chosen.checks()
        text.append(f"(a rule guess reads {reads:.1f} codes in reading order, on average)")
    click.echo("\n".join(text))


def _chosen(
    rules: Rules, lines: int, rule: str, search: bool, card_file: Path | None
) -> tuple[Card, RuleCosts | None]:
    """The card to show, and the rule's figures its search kept (``None``: no search)."""
    if card_file is not None:
        from bullscows.readers import quote_path

        saved = read_card(card_file)
        contradicted(f"card file {quote_path(card_file)}", saved.rules, rules)
        return saved, None
    if rule == "first" and not search:
        return best_card(rules, lines), None
    problem = any_problem(rules) if rule == "any" else None
    if problem is not None:
        raise StrategyError(problem)
    size = rules.secret_rules.size
    if size > SEARCH_LIMIT:
        say(f"Searching for the {rule} rule's card of {rules.spec} ({size:,} secrets): "
            "up to minutes.")  # fmt: skip
    costs = RuleCosts(rules, rule)
    return search_cards(rules, rule, lines, QUICK_WIDTHS, costs)[-1], costs
