"""Full-width digits, letters and spaces (a phone's or an East-Asian keyboard's) read as their
plain selves wherever codes, replies and commands are read (``readers.normal_text``), and in
variants' specs, symbols and radix lists (``readers.normal_symbols``)."""

from __future__ import annotations

import pytest

from bullscows import Code, Feedback, Rules
from bullscows.errors import CodeError, RulesError
from bullscows.readers import normal_text
from bullscows.sessions import Codebreaker, Codemaker, read_move
from bullscows.sessions.moves import GiveUp, History, reply_to
from bullscows.sessions.question import read_step

BC = Rules.parse("bc")
#: Full width: the plain character's code point + 0xFEE0 (U+FF01 to U+FF5E); the ideographic space.
WIDE = {chr(c): chr(c + 0xFEE0) for c in range(0x21, 0x7F)} | {" ": "\u3000"}


def wide(text: str) -> str:
    return "".join(WIDE[ch] for ch in text)


def test_a_full_width_code_is_its_plain_code() -> None:
    assert Code(wide("1234"), BC) == Code("1234", BC)
    assert Code(wide("1 2 3 4"), BC).text == "1234"
    assert Code(wide("rgby"), Rules.parse("mm-colours")).text == "RGBY"


def test_a_full_width_code_that_is_no_code_is_quoted_as_typed() -> None:
    with pytest.raises(CodeError, match=f"code '{wide('1123')}': '1' appears twice"):
        Code(wide("1123"), BC)


@pytest.mark.parametrize("reply", ["1B2C", "1 2", "12", "1 bull 2 cows", "bcc", "1A2B"])
def test_a_full_width_reply_reads_in_every_notation(reply: str) -> None:
    assert Feedback.parse(wide(reply), BC) == Feedback(1, 2)


def test_full_width_commands_and_lines() -> None:
    game = Codemaker(BC, secret="2745")
    assert read_move(game, wide("quit")) == GiveUp()
    assert read_move(game, wide("history")) == History()
    step = read_step(wide("0123 1B2C"), BC)
    assert (step.guess.text, step.feedback) == ("0123", Feedback(1, 2))
    assert reply_to(Code("0123", BC), wide("0123 1 2")) == "1 2"
    assist = Codebreaker(BC, assist=True)
    assist.apply(read_move(assist, wide("0123 0B2C")))
    assert assist.history[0].feedback == Feedback(0, 2)


def test_an_alphabet_of_full_width_symbols_is_its_plain_alphabet() -> None:
    # It kept them: its spec then read back as another variant, of plain symbols.
    rules = Rules(3, wide("abcd"), repeats=False, allowed=(wide("ab"), "abcd", "abcd"))
    assert (rules.symbols, rules.allowed) == ("abcd", ("ab", "abcd", "abcd"))
    assert Rules.parse(rules.spec) == rules
    assert Code(wide("abc"), rules).text == "abc"


def test_a_symbol_whose_plain_form_is_a_separator_is_refused() -> None:
    # A full-width comma made a variant whose spec, 'p2c2n:symbols=a,', read back as nothing.
    with pytest.raises(RulesError) as refused:
        Rules(2, "a\uff0c")
    assert str(refused.value) == (
        "symbols 'a,': ',' cannot be a symbol (use printable characters other than space , ; : /)"
        "; 'a\uff0c' reads as 'a,'"
    )


def test_two_symbols_of_one_plain_form_are_refused_as_typed() -> None:
    with pytest.raises(RulesError) as refused:
        Rules(2, "a\u00aa")  # a feminine ordinal indicator: an 'a'
    assert str(refused.value).startswith("symbols 'a\u00aa': 'a' and '\u00aa' are both 'a';")


@pytest.mark.parametrize(
    ("spec", "plain"),
    [("bc", "bc"), ("mm", "mm"), ("p4c6r", "p4c6r"), ("BC-NOLEAD", "bc-nolead"),
     ("moo5,5,5", "moo5,5,5"), ("p4c6r:symbols=RGBYOP", "p4c6r:symbols=RGBYOP"),
     ("bc:guesses=p4c10r", "bc:guesses=p4c10r")],
)  # fmt: skip
def test_a_full_width_spec_is_its_plain_spec(spec: str, plain: str) -> None:
    assert Rules.parse(wide(spec)) == Rules.parse(plain)
    assert Rules.from_options(wide(spec)) == Rules.parse(plain)  # the web reads specs here


def test_full_width_symbols_and_radix_are_their_plain_selves() -> None:
    assert Rules.from_options("mm", symbols=wide("RGBYOP")).symbols == "RGBYOP"
    assert Rules.from_options(radix=wide("5,5,5")) == Rules.parse("moo5,5,5")
    assert Rules.parse("moo\u00b2,3") == Rules.parse("moo2,3")  # a superscript two


def test_a_symbol_whose_plain_form_is_several_stays_one_symbol() -> None:
    circled = "".join(map(chr, range(0x2460, 0x246A)))  # circled 1 to 10; 10's plain form is '10'
    rules = Rules.from_options("p2c10n", symbols=circled)
    assert rules.symbols == "123456789\u2469"
    assert Code("9\u2469", rules).text == "9\u2469"
    assert Code(wide("1") + "\u2469", rules).text == "1\u2469"
    assert normal_text(wide("1") + "\u2469", keep=rules.symbols) == "1\u2469"
    assert Rules.parse(rules.spec) == rules
