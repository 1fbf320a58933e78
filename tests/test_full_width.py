"""Full-width digits, letters and spaces (a phone's or an East-Asian keyboard's) read as their
plain selves wherever codes, replies and commands are read (``readers.normal_text``)."""

from __future__ import annotations

import pytest

from bullscows import Code, Feedback, Rules
from bullscows.errors import CodeError
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


def test_an_alphabet_of_full_width_symbols_keeps_them() -> None:
    rules = Rules.from_options("p3c4n", symbols=wide("abcd"))
    assert Code(wide("abc"), rules).text == wide("abc")
    assert normal_text(wide("ab"), keep=rules.symbols) == wide("ab")
