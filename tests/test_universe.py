"""The universe: every valid code in order, indices, and scoring facts from the seed documents."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows._kernels import reference
from bullscows.codes import Code
from bullscows.errors import CodeError, RulesError
from bullscows.feedback import Feedback
from bullscows.rules import DEFAULT_ALPHABET, Rules
from bullscows.universe import Universe, enumerate_codes, universe
from variants import variant_with_limits

BC = Rules.parse("bc")
DIGITS4 = Rules.parse("digits")  # 4 digits, repeats allowed: the uLisp game


@st.composite
def small_variants(draw: st.DrawFn) -> Rules:
    """Variants small enough to list by brute force, often with per-position limits."""
    length = draw(st.integers(1, 5))
    repeats = draw(st.booleans())
    colours = draw(st.integers(1 if repeats else length, 7))
    symbols = DEFAULT_ALPHABET[:colours]
    return variant_with_limits(draw, length, symbols, repeats)


def _brute_force(rules: Rules) -> list[tuple[int, ...]]:
    positions = [[rules.symbols.index(s) for s in rules.allowed_at(i)] for i in range(rules.length)]
    return sorted(
        code
        for code in itertools.product(*positions)
        if rules.repeats or len(set(code)) == len(code)
    )


@settings(max_examples=100)
@given(small_variants())
def test_universe_is_every_valid_code_in_order(rules: Rules) -> None:
    rows = [tuple(row) for row in enumerate_codes(rules).tolist()]
    assert rows == _brute_force(rules)
    assert len(rows) == rules.size


@pytest.mark.parametrize("spec", ["bc", "bc-nolead", "mm", "moo5,3,4", "p5c10n"])
def test_lexicographic_and_valid(spec: str) -> None:
    rules = Rules.parse(spec)
    u = universe(rules)
    assert len(u) == rules.size
    assert np.all(np.diff(u.keys) > 0)  # strictly increasing: sorted, no duplicates
    codes = u.codes
    assert codes.shape == (rules.size, rules.length)
    for position in range(rules.length):
        allowed = [rules.symbols.index(s) for s in rules.allowed_at(position)]
        assert np.isin(codes[:, position], allowed).all()
    if not rules.repeats:
        assert all(len(set(row)) == rules.length for row in codes.tolist())


def test_moo_2_2_universe() -> None:
    u = universe(Rules.parse("moo2,2"))
    assert [u.text(i) for i in u.all()] == ["00", "01", "10", "11"]


def test_ends_of_the_order() -> None:
    u = universe(BC)
    assert (u.text(0), u.text(1), u.text(len(u) - 1)) == ("0123", "0124", "9876")
    u = universe(Rules.parse("mm-colours"))
    assert (u.text(0), u.text(1), u.text(1295)) == ("RRRR", "RRRG", "PPPP")


@settings(max_examples=50)
@given(small_variants())
def test_index_indices_and_text_agree(rules: Rules) -> None:
    u = Universe(rules)
    for i, row in enumerate(u.codes.tolist()):
        assert u.index(row) == i
        assert Code(u.text(i), rules).digits == tuple(row)
    assert np.array_equal(u.indices(u.codes), u.all())
    assert np.array_equal(u.indices(u.codes[::-1]), u.all()[::-1])


def test_index_rejects_non_codes() -> None:
    u = universe(BC)
    for digits in [(0, 0, 1, 2), (0, 1, 2), (0, 1, 2, 3, 4)]:
        with pytest.raises(CodeError, match=re.escape(str(list(digits)))):
            u.index(digits)
    with pytest.raises(CodeError, match="1-9"):
        universe(Rules.parse("bc-nolead")).index((0, 1, 2, 3))


@pytest.mark.parametrize("digits", [(1, -1), (0, 10)])
def test_index_rejects_out_of_range_digits(digits: tuple[int, int]) -> None:
    with pytest.raises(CodeError):
        universe(Rules.parse("p2c10r")).index(digits)


def test_many_symbols_without_repeats() -> None:
    symbols = "".join(chr(0x100 + i) for i in range(62))
    rules = Rules(2, symbols, False)
    assert len(enumerate_codes(rules)) == rules.size == 62 * 61
    with pytest.raises(RulesError, match="63 symbols; an alphabet has at most 62"):
        Rules(2, symbols + "!", False)


def test_universe_is_cached_and_pastes_back() -> None:
    assert universe(BC) is universe(Rules.parse("p4c10n"))
    assert repr(universe(BC)) == "universe(Rules.parse('bc'))"
    assert np.array_equal(universe(BC).all(), np.arange(5040))


# --- scoring facts from the seed documents -------------------------------------------------


def _reply(rules: Rules, guess: str, secret: str) -> Feedback:
    u = universe(rules)
    row = u.score_row(Code(guess, rules).index, np.array([Code(secret, rules).index]))
    return Feedback.from_index(int(row[0]), rules.length)


@pytest.mark.parametrize(
    ("rules", "secret", "guess", "bulls", "cows"),
    [
        (DIGITS4, "1234", "4324", 1, 2),  # uLisp: bullcow 4 #x1234 #x4324 = #x12
        (BC, "2745", "1389", 0, 0),  # the uLisp sample game
        (BC, "2745", "1234", 0, 2),
        (BC, "2745", "1759", 1, 1),
        (BC, "2745", "1785", 2, 0),
        (BC, "2745", "2745", 4, 0),
        (BC, "4271", "1234", 1, 2),  # kuniga.me
        (BC, "1234", "4130", 1, 2),  # Adam Richardson's page, scored with 0-9
    ],
)
def test_published_scores(rules: Rules, secret: str, guess: str, bulls: int, cows: int) -> None:
    assert _reply(rules, guess, secret) == Feedback(bulls, cows)
    assert _reply(rules, secret, guess) == Feedback(bulls, cows)
    assert reference.score(Code(guess, rules).digits, Code(secret, rules).digits) == (bulls, cows)


# uLisp duel, 4 digits with repeats: (secret, [(guess, reply as two digits), ...]).
ULISP_DUEL = [
    ("8217", [("1234", "11"), ("5678", "02"), ("3456", "00"), ("1782", "04"), ("7218", "22"),
              ("8217", "40")]),
    ("1234", [("2396", "02"), ("3002", "02"), ("4123", "04"), ("1234", "40")]),
]  # fmt: skip


@pytest.mark.parametrize(("secret", "moves"), ULISP_DUEL)
def test_ulisp_duel(secret: str, moves: list[tuple[str, str]]) -> None:
    u = universe(DIGITS4)
    candidates = u.all()
    for guess, reply in moves:
        feedback = Feedback.parse(reply, DIGITS4)
        assert _reply(DIGITS4, guess, secret) == feedback
        keep = u.score_row(Code(guess, DIGITS4).index, candidates) == feedback.index(4)
        candidates = candidates[keep]
        assert Code(secret, DIGITS4).index in candidates
    assert [u.text(i) for i in candidates] == [secret]


def _filter(rules: Rules, moves: list[tuple[str, str]]) -> list[list[str]]:
    """What is left after each (guess, reply), replies typed as in the transcripts."""
    u = universe(rules)
    candidates = u.all()
    left = []
    for guess, reply in moves:
        index = Feedback.parse(reply, rules).index(rules.length)
        candidates = candidates[u.score_row(Code(guess, rules).index, candidates) == index]
        left.append([u.text(i) for i in candidates])
    return left


def test_j_moo_5_5_5() -> None:
    rules = Rules.parse("moo5,5,5")
    left = _filter(rules, [("330", "c"), ("413", "bc"), ("243", "bc")])
    assert [len(step) for step in left] == [30, 4, 1]
    assert left[-1] == ["123"]
    assert all("123" in step for step in left)
    for guess, reply in [("330", "c"), ("413", "bc"), ("243", "bc")]:
        assert _reply(rules, guess, "123") == Feedback.parse(reply, rules)


def test_j_moo_2_2() -> None:
    rules = Rules.parse("moo2,2")
    left = _filter(rules, [("00", "b"), ("10", "cc")])
    assert left == [["01", "10"], ["01"]]


def test_universes_are_kept_within_their_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from bullscows import universe as module

    cache = module.universe
    small, medium = Rules.parse("p3c4n"), Rules.parse("p4c6r")
    both = universe(small).size() + universe(medium).size()
    monkeypatch.setattr(cache, "budget", both)
    cache.cache_clear()
    first = universe(medium)
    assert universe(small) is universe(small) and universe(medium) is first  # both fit
    assert cache.cache_info() == (2, both)
    monkeypatch.setattr(cache, "budget", both - 1)
    universe(Rules.parse("p2c3n"))  # a third: the least recently used (small) goes
    assert cache.cache_info()[0] == 2 and universe(medium) is first
    larger = universe(Rules.parse("p4c8r"))  # larger than the budget: kept alone
    assert cache.cache_info() == (1, larger.size())
    assert universe(medium) is not first  # built again
    cache.cache_clear()
