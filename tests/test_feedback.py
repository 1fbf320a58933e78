"""Replies: every notation people type, every style we print, and which replies can occur."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows._kernels import reference
from bullscows.errors import BullsCowsError, FeedbackError
from bullscows.feedback import STYLES, Feedback
from bullscows.rules import DIGITS, Rules
from bullscows.universe import universe

BC = Rules.parse("bc")
MM = Rules.parse("mm")
P4C6N = Rules.parse("p4c6n")


@pytest.mark.parametrize(
    ("text", "bulls", "cows"),
    [
        ("1 2", 1, 2),
        ("1,2", 1, 2),
        ("12", 1, 2),
        ("1B2C", 1, 2),
        ("1b 2c", 1, 2),
        ("1 bull 2 cows", 1, 2),
        ("1 bull, 2 cows", 1, 2),
        ("1 bull and 2 cows", 1, 2),
        ("1A2B", 1, 2),
        ("2b1w", 2, 1),
        ("2 blacks 1 white", 2, 1),
        ("bcc", 1, 2),
        ("bbw", 2, 1),
        ("b", 1, 0),
        ("cc", 0, 2),
        ("b c c", 1, 2),
        ("bull cow cow", 1, 2),  # words alone: one per symbol
        ("Bull, cow", 1, 1),
        ("black white", 1, 1),
        ("cow", 0, 1),
        ("one bull, two cows", 1, 2),  # counts as words
        ("No bulls, three cows", 0, 3),
        ("two cows and one bull", 1, 2),
        ("zero", 0, 0),
        ("0", 0, 0),
        ("00", 0, 0),
        ("-", 0, 0),
        ("none", 0, 0),
        ("NONE", 0, 0),
        ("4 bulls", 4, 0),
        ("2 cows", 0, 2),
        ("2c 1b", 1, 2),
        ("  0 4  ", 0, 4),
        ("40", 4, 0),
    ],
)
def test_notations(text: str, bulls: int, cows: int) -> None:
    assert Feedback.parse(text, BC) == Feedback(bulls, cows)
    assert Feedback.parse(text, MM) == Feedback(bulls, cows)


def _rejected(text: str, rules: Rules = BC) -> str:
    with pytest.raises(FeedbackError) as info:
        Feedback.parse(text, rules)
    assert isinstance(info.value, BullsCowsError)
    assert isinstance(info.value, ValueError)
    message = str(info.value)
    assert repr(text.strip()) in message
    return message


#: Replies that cannot be read; those with a minus sign give a count below zero.
GARBAGE = ["x", "", "   ", "5", "123", "1 2 3", "1q", "1 bulls 2 goats", "1 2c", "1b 1b", "2c 1w"]
NEGATIVE = ["-1 2", "1 -2", "-12", "1, -2", "-1b 2c"]


@pytest.mark.parametrize("text", [*GARBAGE, "bx", *NEGATIVE])
def test_rejects_garbage(text: str) -> None:
    message = _rejected(text)
    assert ("-" in text) == ("a count cannot be negative" in message)


def test_a_dash_between_counts_separates_them() -> None:
    assert Feedback.parse("1-2", BC) == Feedback(1, 2)
    assert Feedback.parse("1:2", BC) == Feedback(1, 2)  # as a score is written
    assert "a count cannot be negative" in _rejected("1:-2")
    assert Feedback.parse("-", BC) == Feedback(0, 0)


@pytest.mark.parametrize("text", ["bulls cows", "one", "ten", "1 one", "one bull one bull"])
def test_rejects_words_that_count_nothing(text: str) -> None:
    # a count in words counts the word after it; a plural alone counts nothing
    _rejected(text)


def test_two_digits_are_ambiguous_for_ten_symbol_codes() -> None:
    ten = Rules(10, DIGITS, True, (DIGITS[:2],) * 10)
    message = _rejected("12", ten)
    assert "ambiguous" in message
    assert Feedback.parse("1 2", ten) == Feedback(1, 2)
    assert Feedback.parse("10 0", ten) == Feedback(10, 0)
    assert Feedback.parse("1b2c", ten) == Feedback(1, 2)
    assert Feedback.parse("12", Rules(9, "01", True)) == Feedback(1, 2)


@pytest.mark.parametrize("text", ["3 2", "5 0", "0 5", "5 bulls", "ccccc", "bbbbc", "23"])
def test_rejects_more_than_length(text: str) -> None:
    message = _rejected(text)
    assert "a code has 4" in message
    assert "a code has 4" in _rejected(text, MM)


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        ("3 1", BC),
        ("31", MM),
        ("3b1c", BC),
        ("bbbc", MM),
        ("3 bulls 1 cow", BC),
        ("4 1", Rules(5)),
        ("bbbbc", Rules(5, "01", True)),
        ("0 1", Rules(1, "012", True)),
    ],
)
def test_rejects_all_but_one_bull_and_one_cow(text: str, rules: Rules) -> None:
    bulls = rules.length - 1
    assert f"{bulls} bull{'s' if bulls != 1 else ''} and 1 cow cannot happen" in _rejected(
        text, rules
    )


@pytest.mark.parametrize("text", ["0", "-", "none", "1 0", "0 1", "b", "c", "w", "1b"])
def test_rejects_too_few_shared_symbols(text: str) -> None:
    assert "share at least 2" in _rejected(text, P4C6N)
    Feedback.parse(text, Rules(4, "012345", True))  # with repeats any small count can happen


@pytest.mark.parametrize("text", ["2 0", "0 2", "1 1", "bc", "4 bulls"])
def test_accepts_enough_shared_symbols(text: str) -> None:
    feedback = Feedback.parse(text, P4C6N)
    assert feedback.bulls + feedback.cows >= 2


def test_negative_counts() -> None:
    with pytest.raises(FeedbackError, match="-1"):
        Feedback(-1, 0)
    with pytest.raises(FeedbackError):
        Feedback(0, -2)


# --- printing ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("feedback", "style", "text"),
    [
        (Feedback(1, 2), "words", "1 bull, 2 cows"),
        (Feedback(2, 1), "words", "2 bulls, 1 cow"),
        (Feedback(0, 0), "words", "0 bulls, 0 cows"),
        (Feedback(1, 2), "bc", "1B2C"),
        (Feedback(1, 2), "ab", "1A2B"),
        (Feedback(2, 1), "pegs", "2B1W"),
        (Feedback(1, 2), "digits", "12"),
        (Feedback(10, 0), "digits", "10 0"),
        (Feedback(1, 2), "pair", "1 2"),
        (Feedback(1, 2), "letters", "bcc"),
        (Feedback(0, 0), "letters", "-"),
        (Feedback(4, 0), "letters", "bbbb"),
    ],
)
def test_format(feedback: Feedback, style: str, text: str) -> None:
    assert feedback.format(style) == text


def test_format_examples_are_the_styles() -> None:
    for style, example in STYLES.items():
        assert Feedback(1, 2).format(style) == (example if style != "pegs" else "1B2W")
        assert Feedback.parse(example, BC) == (Feedback(1, 2))
    assert str(Feedback(1, 2)) == "1 bull, 2 cows"


def test_unknown_style() -> None:
    with pytest.raises(FeedbackError, match="'stars'"):
        Feedback(1, 2).format("stars")


def _possible(rules: Rules) -> list[Feedback]:
    n = rules.length
    pairs = itertools.product(range(n + 1), repeat=2)
    return [Feedback(b, c) for b, c in pairs if Feedback(b, c).problem(rules) is None]


@pytest.mark.parametrize("length", range(1, 11))
@pytest.mark.parametrize("style", list(STYLES))
def test_parse_format_round_trip(length: int, style: str) -> None:
    rules = Rules(length, "01", True)
    for feedback in _possible(rules):
        text = feedback.format(style)
        if style == "digits" and length >= 10 and len(text) == 2 and text != "00":
            with pytest.raises(FeedbackError, match="ambiguous"):
                Feedback.parse(text, rules)
        else:
            assert Feedback.parse(text, rules) == feedback, text


# --- which replies can occur ---------------------------------------------------------------


@pytest.mark.parametrize(("spec", "count"), [("bc", 14), ("mm", 14), ("p4c6n", 11), ("p5c6n", 10)])
def test_problem_is_exact_for_classic_variants(spec: str, count: int) -> None:
    rules = Rules.parse(spec)
    u = universe(rules)
    sizes = u.partition_sizes(u.all(), u.all()).sum(axis=0)
    occurring = {Feedback.from_index(r, rules.length) for r in range(rules.reply_slots) if sizes[r]}
    assert occurring == set(_possible(rules))
    assert len(occurring) == count


@settings(max_examples=60)
@given(st.data())
def test_replies_that_occur_have_no_problem(data: st.DataObject) -> None:
    """``problem`` never rejects a reply that two codes of the variant really give."""
    length = data.draw(st.integers(1, 6))
    repeats = data.draw(st.booleans())
    colours = data.draw(st.integers(1 if repeats else length, 10))
    rules = Rules(length, DIGITS[:colours], repeats)
    digits = st.integers(0, colours - 1)
    codes = st.lists(digits, min_size=length, max_size=length, unique=not repeats).map(tuple)
    for _ in range(20):
        a, b = data.draw(codes), data.draw(codes)
        feedback = Feedback(*reference.score(a, b))
        assert feedback.problem(rules) is None, (a, b)
        assert Feedback.parse(feedback.format("pair"), rules) == feedback


# --- indices ----------------------------------------------------------------------------------


@pytest.mark.parametrize("length", range(1, 11))
def test_index_round_trip(length: int) -> None:
    seen = set()
    for bulls, cows in itertools.product(range(length + 1), repeat=2):
        if bulls + cows > length:
            continue
        feedback = Feedback(bulls, cows)
        index = feedback.index(length)
        assert 0 <= index < (length + 1) ** 2
        assert Feedback.from_index(index, length) == feedback
        seen.add(index)
    assert len(seen) == (length + 1) * (length + 2) // 2


def test_index_values() -> None:
    assert Feedback(1, 2).index(4) == 7
    assert Feedback.from_index(7, 4) == Feedback(1, 2)
    assert Feedback.win(4).index(4) == 20
    assert Feedback.win(4).is_win(4)
    assert not Feedback(3, 0).is_win(4)
    assert Feedback(0, 0).index(4) == 0


def test_repr_and_order() -> None:
    assert repr(Feedback(1, 2)) == "Feedback(bulls=1, cows=2)"
    assert eval(repr(Feedback(3, 0)), {"Feedback": Feedback}) == Feedback(3, 0)
    assert sorted([Feedback(1, 0), Feedback(0, 3), Feedback(0, 1)]) == [
        Feedback(0, 1),
        Feedback(0, 3),
        Feedback(1, 0),
    ]


# --- replies no secret can give, taken as data (Codeforces 63C) ------------------------------


def codeforces_63c(text: str) -> str:
    """Codeforces 63C through the library: ``n``, then ``n`` lines of a guess (4 distinct
    digits), its bulls and its cows; the secret if one code fits every reply, 'Need more data'
    if several do, 'Incorrect data' if none does. A reply no guess can get ('3 1') is legal
    input there: it makes the data incorrect, it is not a typo to refuse."""
    from bullscows.codes import Code
    from bullscows.knowledge import Knowledge

    first, *lines = text.splitlines()
    knowledge = Knowledge.start(BC)
    for line in lines[: int(first)]:
        guess, bulls, cows = line.split()
        reply = Feedback.parse(f"{bulls} {cows}", BC, impossible=True)
        knowledge = knowledge.after(Code(guess, BC), reply)
    if knowledge.is_contradictory:
        return "Incorrect data"
    return knowledge.candidate_codes()[0].text if len(knowledge) == 1 else "Need more data"


@pytest.mark.parametrize(
    ("batch", "expected"),
    [
        ("2\n1263 1 2\n8103 2 1\n", "Need more data"),  # the problem's three examples
        ("2\n1234 2 2\n1256 0 2\n", "2134"),
        ("2\n0123 1 1\n4567 1 2\n", "Incorrect data"),
        ("1\n0123 3 1\n", "Incorrect data"),  # no guess can get 3 bulls and 1 cow
        ("3\n1234 0 4\n4123 0 4\n9876 3 1\n", "Incorrect data"),  # one impossible among many
        ("2\n0123 0 0\n4567 0 0\n", "Incorrect data"),  # only 8 and 9 left: no 4 distinct
        ("3\n6027 0 2\n7950 0 4\n0537 2 1\n", "0579"),  # the leading zero kept
        ("1\n1023 0 4\n", "Need more data"),
    ],
)
def test_a_codeforces_63c_batch(batch: str, expected: str) -> None:
    assert codeforces_63c(batch) == expected


def test_games_still_refuse_a_reply_no_guess_can_get() -> None:
    with pytest.raises(FeedbackError, match="reply '3 1': 3 bulls and 1 cow cannot happen"):
        Feedback.parse("3 1", BC)
    with pytest.raises(FeedbackError, match="make 5, but a code has 4"):
        Feedback.parse("4 1", BC, impossible=True)  # beyond the code's length: not data
