"""The one-shot question about a history (``sessions.question``), against a brute force that
shares no code with the library: random honest, ambiguous and inconsistent histories."""

from __future__ import annotations

import itertools
import random

import pytest

from bullscows import Rules
from bullscows.errors import BullsCowsError
from bullscows.knowledge import Step
from bullscows.sessions.question import answer, read_history, read_step

VARIANTS = ["p2c3n", "p3c4n", "p3c3r", "p4c5n", "p2c4r", "p3c5n"]


def brute_codes(length: int, symbols: str, repeats: bool) -> list[str]:
    codes = ("".join(t) for t in itertools.product(symbols, repeat=length))
    return [c for c in codes if repeats or len(set(c)) == length]


def brute_score(secret: str, guess: str) -> tuple[int, int]:
    bulls = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum(min(secret.count(x), guess.count(x)) for x in set(guess))
    return bulls, common - bulls


def brute_answer(codes: list[str], history: list[tuple[str, int, int]]) -> list[str]:
    return [c for c in codes if all(brute_score(c, g) == (b, w) for g, b, w in history)]


def random_history(
    rng: random.Random, codes: list[str], length: int, kind: str
) -> list[tuple[str, int, int]]:
    secret = rng.choice(codes)
    steps = rng.randint(1, 3) if kind == "ambiguous" else rng.randint(2, 5)
    history = [(g, *brute_score(secret, g)) for g in rng.sample(codes, min(steps, len(codes)))]
    if kind == "inconsistent":  # a wrong reply somewhere, sometimes one no guess can get
        i = rng.randrange(len(history))
        guess, b, w = history[i]
        options = [(x, y) for x in range(length + 1) for y in range(length + 1 - x)]
        b, w = rng.choice([o for o in options if o != (b, w)])
        history[i] = (guess, b, w)
    return history


@pytest.mark.parametrize("seed", range(60))
def test_answers_agree_with_a_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    spec = VARIANTS[seed % len(VARIANTS)]
    rules = Rules.parse(spec)
    codes = brute_codes(rules.length, rules.symbols, rules.repeats)
    for kind in ("honest", "ambiguous", "inconsistent"):
        history = random_history(rng, codes, rules.length, kind)
        lines = [f"{g} {b} {w}" for g, b, w in history]
        found = answer(rules, read_history(lines, rules), limit=len(codes))
        expected = brute_answer(codes, history)
        assert found.count == len(expected), (spec, lines)
        assert sorted(c.text for c in found.codes) == sorted(expected), (spec, lines)
        status = (
            "inconsistent"
            if not expected
            else "determined"
            if len(expected) == 1
            else ("undetermined")
        )
        assert found.status == status
        assert (found.contradiction is None) == bool(expected)
        if found.contradiction is not None:  # the core really cannot hold together
            core = [history[i] for i in found.contradiction.core]
            assert brute_answer(codes, core) == []


def test_a_reply_no_guess_can_get_is_data() -> None:
    rules = Rules.parse("bc")
    lines = ["7019 1 1", "5873 0 1", "7921 3 1", "3412 1 1"]
    found = answer(rules, read_history(lines, rules))
    assert found.status == "inconsistent"
    assert found.contradiction is not None and found.contradiction.core == (2,)
    assert found.to_json()["contradiction"]["steps"] == [3]
    assert answer(rules, read_history(lines[:2], rules)).count == 222


def test_a_determined_secret_and_the_limit() -> None:
    rules = Rules.parse("mm")
    found = answer(rules, [read_step("1122 4 0", rules)], limit=0)
    assert found.lines() == ["Determined: the secret is 1122."]
    some = answer(rules, [read_step("1122 0 0", rules)], limit=3)
    assert some.lines() == [
        "Undetermined: 256 codes possible.",
        "  3333 3334 3335 ... and 253 more",
    ]
    assert answer(rules, [], limit=0).lines() == ["Undetermined: 1,296 codes possible."]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("0123", "a guess and its reply go on one line, e.g. '0123 1 2'"),
        ("0123 5 0", "line 2: reply '5 0'"),
        ("0113 1 1", "line 2: code '0113'"),
    ],
)
def test_unreadable_lines_are_named(line: str, message: str) -> None:
    with pytest.raises(BullsCowsError, match=message):
        read_history(["# a comment", line], Rules.parse("bc"))


def test_steps_are_values() -> None:
    rules = Rules.parse("bc")
    assert read_step("  0123   1B2C ", rules) == read_history(["0123 1 2"], rules)[0]
    assert isinstance(read_step("0123 1 2", rules), Step)
    # a code typed apart, as play takes it, is read whole (its first symbol was the code)
    assert read_step("0 1 2 3 1B2C", rules) == read_step("0123 1 2", rules)
