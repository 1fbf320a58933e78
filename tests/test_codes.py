"""Codes: reading what people type, every error message, digits, indices and repr."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows.codes import Code, example_code, parse_digits
from bullscows.errors import BullsCowsError, CodeError
from bullscows.rules import DIGITS, PRESETS, Rules
from bullscows.universe import universe

BC = Rules.parse("bc")
MM = Rules.parse("mm")
COLOURS = Rules.parse("mm-colours")
NOLEAD = Rules.parse("bc-nolead")


@pytest.mark.parametrize(
    "text", ["0123", "0 1 2 3", "0,1,2,3", "0-1-2-3", "  0123  ", "0, 1, 2, 3", "01 23", "0_1.2.3"]
)
def test_separators_are_ignored(text: str) -> None:
    code = Code(text)
    assert code.text == "0123"
    assert code.digits == (0, 1, 2, 3)
    assert code == Code("0123")
    assert hash(code) == hash(Code("0123"))


def test_separators_that_are_symbols_are_kept() -> None:
    rules = Rules(2, "-+", True)
    assert Code("-+", rules).digits == (0, 1)
    assert Code("- -", rules).text == "--"
    dashed = Rules(3, "-123", False)
    assert Code("1-2", dashed).digits == (1, 0, 2)
    with pytest.raises(CodeError, match="has 5 symbols"):
        Code("1-2-3", dashed)


@pytest.mark.parametrize(
    ("text", "rules", "expected"),
    [
        ("rgby", COLOURS, "RGBY"),
        ("rGbY", COLOURS, "RGBY"),
        ("ABCD", Rules(4, "abcdef", True), "abcd"),
        ("ABCD", Rules.parse("p4c16r"), "abcd"),
        ("Fa", Rules(2, "0123456789abcdef", False), "fa"),
    ],
)
def test_case_folding_for_letter_alphabets(text: str, rules: Rules, expected: str) -> None:
    assert Code(text, rules).text == expected


def test_no_case_folding_when_both_cases_are_symbols() -> None:
    rules = Rules.parse("p4c40r")  # 0-9, a-z, A-D
    assert Code("ABCD", rules) != Code("abcd", rules)
    assert Code("ABCD", rules).digits == (36, 37, 38, 39)
    with pytest.raises(CodeError, match="'E' is not a symbol"):
        Code("ABCE", rules)


def _message(text: object, rules: Rules = BC) -> str:
    with pytest.raises(CodeError) as info:
        Code(text, rules)  # type: ignore[arg-type]
    assert isinstance(info.value, BullsCowsError)
    assert isinstance(info.value, ValueError)
    return str(info.value)


@pytest.mark.parametrize(
    ("text", "count"),
    [("012", "3 symbols"), ("01234", "5 symbols"), ("", "0 symbols"), ("7", "1 symbol;")],
)
def test_wrong_length(text: str, count: str) -> None:
    message = _message(text)
    assert repr(text) in message
    assert count in message
    assert "a code has 4, e.g. '0123'" in message


def test_wrong_length_quotes_the_stripped_input() -> None:
    message = _message("  0 1 2  ")
    assert "'0 1 2'" in message


def test_wrong_length_example_is_a_valid_code() -> None:
    assert "e.g. '1023'" in _message("12", NOLEAD)
    assert "e.g. '1234'" in _message("12", MM)
    assert "e.g. 'RGBY'" in _message("RR", COLOURS)


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_named_variants_example_is_a_code_of_distinct_symbols(name: str) -> None:
    # mm-colours's was 'RRRR' (the lowest code): it showed one of the six colours.
    rules = Rules.parse(name)
    example = example_code(rules)
    assert Code(example, rules).text == example
    assert len(set(example)) == min(rules.length, len(rules.symbols)), example


@pytest.mark.parametrize(
    ("spec", "example"),
    [("p5c3r", "01201"), ("p2c1r", "00"), (Rules(3, "abc", True, ("a", "a", "ab")), "aab")],
)
def test_an_example_repeats_symbols_only_where_it_must(spec: str | Rules, example: str) -> None:
    rules = spec if isinstance(spec, Rules) else Rules.parse(spec)
    assert example_code(rules) == example
    assert Code(example, rules).text == example


def test_unknown_symbol() -> None:
    message = _message("012x")
    assert "'012x'" in message
    assert "'x' is not a symbol" in message
    assert "0-9" in message
    message = _message("1237", MM)
    assert "'7' is not a symbol" in message and "1-6" in message
    assert "RGBYOP" in _message("RGBX", COLOURS)


def test_repeated_symbol_where_forbidden() -> None:
    message = _message("0012")
    assert "'0012'" in message
    assert "'0' appears twice" in message
    assert Code("0012", Rules.parse("digits")).digits == (0, 0, 1, 2)
    assert Code("1122", MM).text == "1122"


def test_symbol_not_allowed_at_position() -> None:
    message = _message("0123", NOLEAD)
    assert "'0123'" in message
    assert "'0' cannot stand at position 1" in message
    assert "allowed there: 1-9" in message
    moo = Rules.parse("moo5,3,4")
    assert Code("420", moo).digits == (4, 2, 0)
    message = _message("431", moo)
    assert "'3' cannot stand at position 2" in message
    assert "allowed there: 0-2" in message


def test_not_text() -> None:
    message = _message(1234)
    assert "1234" in message
    assert "'0123'" in message


def test_from_digits() -> None:
    assert Code.from_digits([1, 1, 2, 2], MM) == Code("2233", MM)
    assert Code.from_digits((0, 1, 2, 3)) == Code("0123")
    assert Code.from_digits([0, 5, 1], Rules(3, "RGBYOP", True)).text == "RPG"
    for digits in ([0, 1, 2, 10], [0, 1, 2, -1]):
        with pytest.raises(CodeError, match="from 0 to 9"):
            Code.from_digits(digits)
    with pytest.raises(CodeError, match="appears twice"):
        Code.from_digits([1, 1, 2, 3])
    with pytest.raises(CodeError, match="3 symbols"):
        Code.from_digits([1, 2, 3])


def test_parse_digits() -> None:
    assert parse_digits("3-1-2-0", BC) == (3, 1, 2, 0)
    assert parse_digits("6543", MM) == (5, 4, 3, 2)
    assert example_code(BC) == "0123"
    assert example_code(NOLEAD) == "1023"


@pytest.mark.parametrize(
    ("text", "rules", "index"),
    [
        ("0123", BC, 0),
        ("0124", BC, 1),
        ("9876", BC, 5039),
        ("1023", NOLEAD, 0),
        ("9876", NOLEAD, 4535),
        ("1111", MM, 0),
        ("1234", MM, 51),
        ("6666", MM, 1295),
        ("123", Rules.parse("moo5,5,5"), 38),
    ],
)
def test_index(text: str, rules: Rules, index: int) -> None:
    assert Code(text, rules).index == index


@settings(max_examples=50)
@given(st.sampled_from(["bc", "bc-nolead", "mm", "moo5,3,4", "p3c5n:symbols=abcde"]), st.data())
def test_index_and_from_digits_agree_with_universe(spec: str, data: st.DataObject) -> None:
    rules = Rules.parse(spec)
    u = universe(rules)
    i = data.draw(st.integers(0, len(u) - 1))
    code = Code.from_digits(u.codes[i].tolist(), rules)
    assert code.index == i
    assert code.text == u.text(i)
    assert Code(code.text, rules) == code


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (Code("0123"), "Code('0123')"),
        (Code("1 1 2 2", MM), "Code('1122', Rules.parse('mm'))"),
        (Code("rgby", COLOURS), "Code('RGBY', Rules.parse('mm-colours'))"),
        (Code("ab", Rules(2, "ab", True)), "Code('ab', Rules.parse('p2c2r:symbols=ab'))"),
    ],
)
def test_repr(code: Code, text: str) -> None:
    assert repr(code) == text
    assert eval(text, {"Code": Code, "Rules": Rules}) == code


def test_repr_pastes_back_with_awkward_symbols() -> None:
    rules = Rules(3, "x'y\"z", False)
    code = Code("x\"'", rules)
    assert eval(repr(code), {"Code": Code, "Rules": Rules}) == code
    assert str(code) == "x\"'"


def test_codes_of_different_variants_differ() -> None:
    assert Code("1234", BC) != Code("1234", Rules.parse("digits"))
    assert Code("1234").rules == Rules(4, DIGITS, False)
