"""Cards: their exact figures against a plain brute force, the book search, files, and cards
played as strategies (bench, tree, hints)."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from fractions import Fraction
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from bench_scripts import load
from bullscows.errors import StrategyError
from bullscows.hints import give_hint
from bullscows.knowledge import Knowledge
from bullscows.outcomes import build_tree, guess_counts
from bullscows.rules import Rules
from bullscows.strategies import get_strategy
from bullscows.strategies.card import Card, CardFigures, card_text, load_card, load_frontier
from bullscows.strategies.card_exact import RuleCosts
from bullscows.strategies.card_search import BookSearch
from bullscows.strategies.card_strategy import SHIPPED_LINES, best_cards, shipped_file

SMALL = ["p3c4n", "p2c5r", "p3c5n"]

# --- an independent brute force: codes by itertools, replies by Counter -------------------


def plain_codes(rules: Rules) -> list[str]:
    """Every code in reading order, without the library's universe."""
    symbols = rules.symbols
    if rules.repeats:
        rows = itertools.product(symbols, repeat=rules.length)
    else:
        rows = itertools.permutations(symbols, rules.length)
    return ["".join(row) for row in rows]


def plain_reply(secret: str, guess: str) -> str:
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    cows = sum((Counter(secret) & Counter(guess)).values()) - bulls
    return f"{bulls}B{cows}C"


def plain_book(card: Card) -> dict[tuple[str, ...], str]:
    """The card's lines as replies written ``1B2C`` -> guess text (read from its JSON, where
    Mastermind variants write pegs, ``1B2W``)."""
    return {
        tuple(r.replace("W", "C") for r in line["after"]): line["guess"]
        for line in card.to_json()["book"]
    }


def plain_first(card: Card) -> tuple[int, int]:
    """Total and worst guesses of a ``first`` card, secret by secret."""
    codes, book = plain_codes(card.rules), plain_book(card)
    total = worst = 0
    for secret in codes:
        history: list[tuple[str, str]] = []
        path: tuple[str, ...] | None = ()
        while True:
            fits = [c for c in codes if all(plain_reply(c, g) == r for g, r in history)]
            guess = book.get(path) if path is not None and len(fits) > 1 else None
            if guess is None:
                guess, path = fits[0], None
            reply = plain_reply(secret, guess)
            history.append((guess, reply))
            if guess == secret:
                break
            path = None if path is None else (*path, reply)
        total += len(history)
        worst = max(worst, len(history))
    return total, worst


def plain_any(rules: Rules, book: dict[tuple[str, ...], str]) -> tuple[Fraction, int]:
    """Exact expected total and worst game of an ``any`` card: every choice weighed."""
    codes = plain_codes(rules)

    @cache
    def play(fits: frozenset[str], path: tuple[str, ...] | None) -> tuple[Fraction, int]:
        """Expected guesses summed over the secrets in ``fits``, and the longest game."""
        line = book.get(path) if path is not None and len(fits) > 1 else None
        choices = sorted(fits) if line is None else [line]
        total, worst = Fraction(0), 0
        for guess in choices:
            parts: dict[str, set[str]] = {}
            for secret in fits:
                parts.setdefault(plain_reply(secret, guess), set()).add(secret)
            summed, longest = Fraction(len(fits)), 1
            for reply, part in parts.items():
                if reply != f"{rules.length}B0C":
                    after = None if line is None else (*path, reply)  # type: ignore[misc]
                    part_total, part_worst = play(frozenset(part), after)
                    summed += part_total
                    longest = max(longest, 1 + part_worst)
            total += summed
            worst = max(worst, longest)
        return total / len(choices), worst

    return play(frozenset(codes), ())


def small_cards(spec: str, rule: str) -> list[Card]:
    rules = Rules.parse(spec)
    found = BookSearch(rules, rule, widths=(3, 4)).frontier(4)
    return [Card(rules, rule, book) for _, book in found]


@pytest.mark.parametrize("spec", SMALL)
def test_first_rule_figures_match_brute_force(spec: str) -> None:
    for card in small_cards(spec, "first"):
        figures = card.figures()
        assert (figures.total, figures.worst) == plain_first(card)


@pytest.mark.parametrize("spec", SMALL)
def test_any_rule_expectation_matches_brute_force(spec: str) -> None:
    for card in small_cards(spec, "any")[::2]:
        figures = card.figures(exact=True)
        assert (figures.total, figures.worst) == plain_any(card.rules, plain_book(card))
        assert isinstance(figures.total, Fraction)


def test_search_finds_better_books_with_more_lines() -> None:
    rules = Rules.parse("p3c5n")
    found = BookSearch(rules, "first", widths=(None, None)).frontier(5)
    totals = [total for total, _ in found]
    assert totals == sorted(totals, reverse=True) and totals[0] > totals[-1]
    for size, (total, book) in enumerate(found):
        assert len(book) <= size
        assert Card(rules, "first", book).figures().total == total


def test_exhaustive_first_guess_is_the_best_one_line_card() -> None:
    rules = Rules.parse("p3c4n")
    found = BookSearch(rules, "first", widths=(None,)).frontier(1)
    every = [Card(rules, "first", {(): g}).figures().total for g in range(rules.size)]
    assert found[1][0] == min(every)


# --- files -------------------------------------------------------------------------------


def test_card_file_round_trip(tmp_path: Path) -> None:
    card = small_cards("p3c5n", "first")[-1]
    text = card_text(card)
    assert load_card(text, "card") == card
    assert json.loads(text)["figures"]["total"] == card.figures().total


def test_replies_are_written_in_the_variants_style() -> None:
    """Bulls and cows (``1B0C``) where codes are distinct, pegs (``1B0W``) where a code may
    repeat a symbol; a file in either notation reads back as the same card."""
    for spec, mark, other in (("p3c5n", "C", "W"), ("p2c5r", "W", "C")):
        card = small_cards(spec, "first")[-1]
        replies = [r for line in card.to_json()["book"] for r in line["after"]]
        assert replies and all(r.endswith(mark) for r in replies), replies
        written = re.findall(r"\b\dB\d([A-Z])\b", "\n".join(card.describe()))
        assert written and set(written) == {mark}
        data = card.to_json()
        for line in data["book"]:
            line["after"] = [r[:-1] + other for r in line["after"]]
        assert Card.from_json(data) == card


def card_data(rule: str = "first", book: list[object] | None = None) -> dict[str, object]:
    return {"format": "bullscows-card", "version": 1, "rules": "p3c5n", "rule": rule,
            "book": book or []}  # fmt: skip


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"format": "other"}, 'not a card (no "format": "bullscows-card")'),
        (card_data("best"), "card rule 'best': rules are first, any"),
        (
            card_data(book=[{"after": ["1B0C"], "guess": "012"}]),
            "card line ? 1B0C: no line leads to it",
        ),
        (card_data(book=[{"after": [], "guess": "0123"}]), "code"),
    ],
)
def test_bad_card_files_are_refused_in_one_line(data: object, message: str) -> None:
    with pytest.raises(StrategyError) as caught:
        load_card(json.dumps(data), "card file 'x.json'")
    assert str(caught.value).startswith("card file 'x.json': ")
    assert message in str(caught.value) and "\n" not in str(caught.value)


# --- cards as strategies -----------------------------------------------------------------


@pytest.fixture(scope="module")
def card_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("cards") / "p3c5n.json"
    path.write_text(card_text(small_cards("p3c5n", "first")[-1]), encoding="utf-8")
    return path


def test_a_saved_card_plays_as_a_strategy(card_file: Path) -> None:
    rules = Rules.parse("p3c5n")
    strategy = get_strategy(f"card:{card_file}")
    card = load_card(card_file.read_text(), "card")
    counts = guess_counts(rules, strategy)
    assert (counts.sum(), counts.max()) == (card.figures().total, card.figures().worst)
    tree = build_tree(rules, strategy)
    assert tree.summary().total == counts.sum()
    assert strategy.label == "card:p3c5n.json"
    assert strategy.problem(Rules.parse("mm")) == "card:p3c5n.json is for p3c5n, not mm"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("card:", "strategy 'card:': give the card file, e.g. card:bc.json"),
        ("tree:", "strategy 'tree:': give the tree file, e.g. tree:mm.json"),
        ("card:no-such.json", "strategy 'card:no-such.json': "),
        ("tree:no-such.json", "strategy 'tree:no-such.json': "),
    ],
)
def test_a_strategy_file_that_cannot_be_read_is_named(name: str, message: str) -> None:
    with pytest.raises(StrategyError) as caught:
        get_strategy(name)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_hints_follow_the_card(card_file: Path) -> None:
    rules = Rules.parse("p3c5n")
    card = load_card(card_file.read_text(), "card")
    hint = give_hint(Knowledge.start(rules), get_strategy(f"card:{card_file}"))
    assert hint.guess.index == card.book[()]


def test_any_rule_card_is_random() -> None:
    card = small_cards("p3c5n", "any")[-1]
    from bullscows.strategies.card_strategy import CardStrategy

    strategy = CardStrategy(card)
    assert not strategy.deterministic
    knowledge = Knowledge.start(card.rules)
    guesses = {strategy.next_guess(knowledge, random.Random(seed)) for seed in range(5)}
    assert guesses == {card.book[()]}


def test_card_strategy_refuses_large_variants_without_a_card() -> None:
    problem = get_strategy("card").problem(Rules.parse("p5c10n"))
    assert problem is not None and "bullscows card --rules bc5 --search" in problem


def test_small_variants_get_a_card_found_on_first_use() -> None:
    rules = Rules.parse("p2c5r")
    assert get_strategy("card").problem(rules) is None
    counts = guess_counts(rules, get_strategy("card"))
    assert counts.sum() == best_cards(rules)[-1].figures().total


# --- the shipped cards: what docs/card.md states -------------------------------------------


@pytest.mark.parametrize(("spec", "average", "worst"), [("bc", 5.42, 8), ("mm", 4.51, 6)])
def test_shipped_card_meets_the_goal(spec: str, average: float, worst: int) -> None:
    rules = Rules.parse(spec)
    path = shipped_file(rules)
    assert path is not None
    cards = load_frontier(path.read_text(), path.name)
    assert len(cards) == SHIPPED_LINES + 1
    stated = json.loads(path.read_text())["cards"]
    for card, data in zip(cards, stated, strict=True):
        assert card.lines <= len(stated) - 1
        figures = card.figures()
        stated_figures = data["figures"]
        assert (figures.total, figures.worst) == (stated_figures["total"], stated_figures["worst"])
    best = cards[-1].figures()
    assert best.average <= average and best.worst <= worst


def test_the_docs_frontier_table_is_the_benchmarks_with_the_shipped_cards() -> None:
    """docs/card.md's frontier table is what benchmarks/card_frontier.py prints: its ``first``
    columns (and the optimum) are the shipped cards' figures in the benchmark's format."""
    root = Path(__file__).resolve().parents[1]
    bench = load("card_frontier")
    results = {}
    for spec in ("bc", "mm"):
        rules = Rules.parse(spec)
        path = shipped_file(rules)
        assert path is not None
        stated = [card["figures"] for card in json.loads(path.read_text())["cards"]]
        rows = [
            (card, CardFigures(data["secrets"], data["total"], data["worst"]), None)
            for card, data in zip(load_frontier(path.read_text(), path.name), stated, strict=True)
        ]
        results[spec] = ({"first": rows}, bench.optimum(rules))
    docs = (root / "docs" / "card.md").read_text().splitlines()
    start = docs.index(next(line for line in docs if line.startswith("| lines |")))
    documented = docs[start : start + len(bench.TABLE_SIZES) + 3]

    def cells(row: str) -> list[str]:
        return [cell.strip() for cell in row.split("|")[1:-1]]

    for ours, theirs in zip(bench.table(results), documented, strict=True):
        assert cells(ours) == [cells(theirs)[i] for i in (0, 1, 2, 5, 6)]


# --- the coach ---------------------------------------------------------------------------


def test_the_coach_follows_the_card_and_reviews_the_game() -> None:
    from bullscows.codes import Code
    from bullscows.feedback import Feedback
    from bullscows.strategies.card_coach import advise, review
    from bullscows.strategies.card_strategy import CardStrategy

    card = small_cards("p3c5n", "first")[-1]
    rules, strategy = card.rules, CardStrategy(card)
    numbers = card.line_numbers()
    for secret_text in plain_codes(rules):
        secret, knowledge = Code(secret_text, rules), Knowledge.start(rules)
        while True:
            advice = advise(card, knowledge)
            assert advice.guess.index == strategy.next_guess(knowledge, random.Random(0))
            assert advice.left == len(knowledge)
            path = card.book_path(knowledge)
            if path in card.book and advice.left > 1:
                assert advice.line == numbers[path]
            reply = plain_reply(secret_text, advice.guess.text)
            bulls, cows = int(reply[0]), int(reply[2])
            knowledge = knowledge.after(advice.guess, Feedback(bulls, cows))
            if bulls == rules.length:
                break
        game = review(card, knowledge.history, secret, get_strategy("optimal"))
        assert game.played == game.followed == game.card
        assert game.optimum is not None and game.optimum <= 4
    assert "The card takes" in game.text()


def test_the_review_compares_each_guess_with_the_card_and_the_optimum() -> None:
    """A game off the card: each guess beside the card's advice at that moment (the card
    re-walked here by its book and the plain rule) and the optimal strategy's guess there."""
    from bullscows.codes import Code
    from bullscows.feedback import Feedback
    from bullscows.strategies.card_coach import review

    card = small_cards("p3c5n", "first")[-1]
    rules, optimal = card.rules, get_strategy("optimal")
    secret, guesses = "234", ["012", "340", "234"]
    knowledge, history = Knowledge.start(rules), []
    for guess in guesses:
        reply = plain_reply(secret, guess)
        history.append((guess, reply))
        knowledge = knowledge.after(Code(guess, rules), Feedback(int(reply[0]), int(reply[2])))
    game = review(card, knowledge.history, Code(secret, rules), optimal)
    assert game.played == 3 and len(game.moves) == 3
    assert not game.moves[0].followed and not game.moves[1].followed  # the third is off the book
    first = card.book[()]
    assert game.moves[0].advice.guess.index == first and game.moves[0].advice.line == 1
    for number, move in enumerate(game.moves):
        assert move.number == number + 1 and move.guess.text == guesses[number]
        assert move.followed == (move.advice.guess == move.guess)
        before = Knowledge.start(rules)
        for step in knowledge.history[:number]:
            before = before.after(step.guess, step.feedback)
        assert move.advice.left == len(before)
        assert move.optimum is not None
        assert move.optimum.index == optimal.next_guess(before, random.Random(0))
        if card.book_path(before) is None:  # off the book: the first code that fits, plainly
            fits = [c for c in plain_codes(rules)
                    if all(plain_reply(c, g) == r for g, r in history[:number])]  # fmt: skip
            assert move.advice.guess.text == fits[0] and move.advice.line is None
            assert move.advice.brief == ("the rule, off the book" if len(fits) > 1
                                         else "the only code left")  # fmt: skip
    assert game.followed == sum(move.followed for move in game.moves)
    lines = game.lines()
    assert lines[0] == game.text() and len(lines) == 1 + 3 - game.followed
    assert all(line.startswith("Guess ") and "the optimal strategy plays" in line
               for line in lines[1:])  # fmt: skip
    one = review(card, knowledge.history[:1], Code(secret, rules), None)
    assert one.text().startswith("You took 1 guess; it was") and one.moves[0].optimum is None


def test_a_variant_of_too_few_codes_for_a_line_gets_the_rule_alone() -> None:
    rules = Rules.from_options("bc", length=1, symbols="01")
    cards = best_cards(rules)
    assert len(cards) == SHIPPED_LINES + 1 and all(card.lines == 0 for card in cards)
    assert cards[-1].figures().total == 3  # 0 then 1, or 0 at once


# --- the any rule's sets kept up to symmetry -----------------------------------------------


@pytest.mark.parametrize("spec", ["p3c4n", "p2c4r", "p3c3r"])
def test_sets_share_a_key_exactly_when_a_relabelling_maps_one_onto_the_other(spec: str) -> None:
    """Against a brute force: the smallest sorted image of the set over every renaming of
    symbols and every order of positions."""
    from bullscows._kernels.set_keys import canonical_set

    rules = Rules.parse(spec)
    codes = [tuple(rules.symbols.index(c) for c in text) for text in plain_codes(rules)]
    base, length = len(rules.symbols), rules.length
    orders = list(itertools.permutations(range(length)))

    def smallest(chosen: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
        return min(
            tuple(sorted(tuple(names[code[p]] for p in order) for code in chosen))
            for names in itertools.permutations(range(base))
            for order in orders
        )

    rng = random.Random(7)
    by_orbit: dict[object, set[bytes]] = {}
    by_key: dict[bytes, set[object]] = {}
    for _ in range(150):
        chosen = rng.sample(codes, rng.randint(1, 7))
        key = canonical_set(np.array(chosen), np.array(orders), base, 10**6)
        assert key is not None
        orbit = smallest(chosen)
        by_orbit.setdefault(orbit, set()).add(key.tobytes())
        by_key.setdefault(key.tobytes(), set()).add(orbit)
        names, order = rng.sample(range(base), base), rng.choice(orders)
        image = np.array([[names[code[p]] for p in order] for code in chosen])
        again = canonical_set(image, np.array(orders), base, 10**6)
        assert again is not None and again.tolist() == key.tolist()
    assert all(len(keys) == 1 for keys in by_orbit.values())
    assert all(len(orbits) == 1 for orbits in by_key.values())
    assert len(by_orbit) > 50


def test_the_any_rule_keeps_sets_up_to_symmetry_where_the_variant_allows() -> None:
    shared = RuleCosts(Rules.parse("p3c5n"), "any", exact=True)
    plain = RuleCosts(Rules.parse("p3c5n"), "any", exact=True)
    plain.symmetric = False
    every = shared.universe.secrets
    assert shared.total(every) == plain.total(every) and shared.worst(every) == plain.worst(every)
    assert shared.sets * 5 < plain.sets  # the same figures from a fifth of the sets
    assert not RuleCosts(Rules.parse("bc-nolead"), "any").symmetric  # 0 is not like 1 there
    assert not RuleCosts(Rules.parse("p3c5n"), "first").symmetric  # reading order is not


def test_a_review_leaves_out_an_optimum_that_gives_no_guess() -> None:
    """An optimum that refuses a position (as a strategy may off its own games) is left out
    of that move, not the end of the game."""
    from bullscows.codes import Code
    from bullscows.feedback import Feedback
    from bullscows.strategies.card_coach import review

    minimax = type(get_strategy("minimax"))

    class OwnGamesOnly(minimax):  # type: ignore[misc, valid-type]
        def choose(self, knowledge: Knowledge, rng: random.Random) -> int:
            if any(step.guess.text == "340" for step in knowledge.history):
                raise StrategyError("not one of its own games")
            return int(super().choose(knowledge, rng))

    card = small_cards("p3c5n", "first")[-1]
    rules, secret = card.rules, "234"
    knowledge = Knowledge.start(rules)
    for guess in ("340", "234"):
        reply = plain_reply(secret, guess)
        knowledge = knowledge.after(Code(guess, rules), Feedback(int(reply[0]), int(reply[2])))
    game = review(card, knowledge.history, Code(secret, rules), OwnGamesOnly())
    assert game.moves[0].optimum is not None and game.moves[1].optimum is None
    assert game.optimum is not None and "optimal strategy plays" not in game.moves[1].text()
