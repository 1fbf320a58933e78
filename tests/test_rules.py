"""Variants: presets, spec strings, radix universes, code counts and every impossible variant."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bullscows.errors import BullsCowsError, RulesError
from bullscows.rules import (
    DIGITS,
    MAX_CODES,
    PRESETS,
    Rules,
    count_codes,
    default_symbols,
    describe_symbols,
    preset,
)
from bullscows.universe import enumerate_codes
from variants import variant_with_limits

GREEK = "\u03b1\u03b2\u03b3"
# Printable symbols that are legal in an alphabet, including a few that look like spec syntax.
SYMBOL_POOL = DIGITS + "abcdefXYZ" + "=-+.'\"!#*" + GREEK


@st.composite
def variants(draw: st.DrawFn, max_length: int = 5, max_symbols: int = 8) -> Rules:
    """Small variants with arbitrary alphabets and, often, random per-position allowed sets."""
    length = draw(st.integers(1, max_length))
    repeats = draw(st.booleans())
    symbols = "".join(
        draw(
            st.lists(
                st.sampled_from(SYMBOL_POOL),
                min_size=1 if repeats else length,
                max_size=max_symbols,
                unique=True,
            )
        )
    )
    return variant_with_limits(draw, length, symbols, repeats)


# --- presets and sizes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "size"),
    [
        ("bc", 5040),
        ("bc-nolead", 4536),
        ("bc-1to9", 3024),
        ("mm", 1296),
        ("logik", 32768),
        ("p5c10n", 30240),
        ("moo5,5,5", 125),
        ("moo2,2", 4),
        ("digits", 10_000),
        ("bc5", 30240),
        ("p10c10n", 3_628_800),
    ],
)
def test_variant_sizes(spec: str, size: int) -> None:
    rules = Rules.parse(spec)
    assert rules.size == size
    assert count_codes(rules) == size


@pytest.mark.parametrize(
    "spec", ["bc", "bc-nolead", "bc-1to9", "mm", "logik", "moo5,5,5", "moo2,2"]
)
def test_enumeration_matches_size(spec: str) -> None:
    rules = Rules.parse(spec)
    assert len(enumerate_codes(rules)) == rules.size


def test_presets_are_what_their_names_say() -> None:
    assert preset("bc") == Rules(4, DIGITS, False)
    assert preset("mm") == Rules(4, "123456", True)
    assert preset("logik") == Rules(5, "12345678", True)
    assert preset("bc-1to9") == Rules(4, "123456789", False)
    assert preset("bc-nolead").allowed == ("123456789", DIGITS, DIGITS, DIGITS)
    assert preset("mm-colours").symbols == "RGBYOP"
    assert Rules() == preset("bc")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_spec_is_its_name(name: str) -> None:
    assert Rules.parse(name).spec == name
    assert Rules.parse(f"  {name} ") == preset(name)


def test_presets_are_distinct() -> None:
    assert len({preset(name) for name in PRESETS}) == len(PRESETS)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="'nope'"):
        preset("nope")


# --- spec strings ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("p4c10n", Rules(4, DIGITS, False)),
        ("P4C6R", Rules(4, "012345", True)),
        ("p3c5n:symbols=abcde", Rules(3, "abcde", False)),
        ("p4c6r:symbols=RGBYOP", Rules(4, "RGBYOP", True)),
        ("p4c10n:nolead", Rules(4, DIGITS, False).with_no_leading()),
        ("p2c3r:allowed=012/2", Rules(2, "012", True, ("012", "2"))),
        ("moo5,3,4", Rules(3, "01234", True, ("01234", "012", "0123"))),
        ("moo 2 2", Rules(2, "01", True)),
        ("moo3,1:symbols=xyz", Rules(2, "xyz", True, ("xyz", "x"))),
    ],
)
def test_parse(spec: str, expected: Rules) -> None:
    assert Rules.parse(spec) == expected


@pytest.mark.parametrize(
    ("spec", "same"),
    [
        ("MM", "mm"),  # a preset's name in any case, as a compact spec's
        (" Bc-NoLead ", "bc-nolead"),
        ("mm:symbols=RGBYOP", "mm-colours"),  # a preset with modifiers, as a compact spec
        ("BC:nolead", "bc-nolead"),
        ("bc-nolead:symbols=abcdefghij", "p4c10n:symbols=abcdefghij:allowed=bcdefghij/abcdefghij"
                                         "/abcdefghij/abcdefghij"),
        ("mm:guesses=MM", "mm"),
        ("MM:NOLEAD", "mm:nolead"),  # a modifier's key in any case too; symbols keep theirs
        ("P4C6R:SYMBOLS=RGBYOP", "p4c6r:symbols=RGBYOP"),
        ("bc:GUESSES=P4C10R", "bc:guesses=p4c10r"),
    ],
)  # fmt: skip
def test_a_preset_is_read_in_any_case_and_with_modifiers(spec: str, same: str) -> None:
    rules = Rules.parse(spec)
    assert rules == Rules.parse(same)
    assert Rules.parse(rules.spec) == rules


def test_a_preset_renamed_with_too_few_symbols_says_how_many() -> None:
    with pytest.raises(RulesError, match="rules spec 'mm:symbols=RGB': mm has 6 symbols but 3"):
        Rules.parse("mm:symbols=RGB")


@pytest.mark.parametrize(
    ("rules", "spec"),
    [
        (Rules(4, DIGITS, False), "bc"),
        (Rules(4, "RGBYOP", True), "mm-colours"),
        (Rules(3, "01234", True, ("01234", "012", "0123")), "moo5,3,4"),
        (Rules.parse("moo5,5,5"), "p3c5r"),
        (Rules.parse("p5c10n:nolead"), "p5c10n:nolead"),
        (Rules(3, "abc", False), "p3c3n:symbols=abc"),
        (Rules(2, "012", True, ("012", "2")), "p2c3r:allowed=012/2"),
    ],
)
def test_spec(rules: Rules, spec: str) -> None:
    assert rules.spec == spec
    assert repr(rules) == f"Rules.parse({spec!r})"


ROUND_TRIP = [
    Rules(),
    Rules(1, "0", False),
    Rules(1, "0", True),
    Rules(10, DIGITS, False),
    Rules(6, "abcdefghij", True),
    Rules(4, "RGBYOP", False).with_no_leading(),
    Rules(4, "RGBYOP", True).with_no_leading(),
    Rules(3, "a=b-c", True),
    Rules(3, "x'y\"z", False),
    Rules(2, GREEK, True, (GREEK[0] + GREEK[2], GREEK[1])),
    Rules(5, DIGITS, False, ("13579", "02468", DIGITS, "123", DIGITS)),
    Rules.from_radix([3, 1]),
    Rules.from_radix([2, 7, 2], "abcdefg"),
    Rules.parse("moo5,5,5:nolead"),
]


@pytest.mark.parametrize("rules", ROUND_TRIP, ids=lambda r: r.spec)
def test_spec_and_repr_round_trip(rules: Rules) -> None:
    assert Rules.parse(rules.spec) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules


@settings(max_examples=100)
@given(variants())
def test_spec_round_trip_random(rules: Rules) -> None:
    assert Rules.parse(rules.spec) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules


# --- radix universes and leading zeros ------------------------------------------------------


def test_from_radix() -> None:
    assert Rules.from_radix([5, 5, 5]) == Rules(3, "01234", True)
    assert Rules.from_radix([3, 1]).allowed == ("012", "0")
    assert Rules.from_radix((2, 2), "ab") == Rules(2, "ab", True)
    assert Rules.from_radix([2, 3], "abcdef").symbols == "abc"  # only as many symbols as needed
    assert Rules.from_radix([1]).size == 1


@pytest.mark.parametrize(
    ("radix", "symbols", "quoted"),
    [([], None, "5,5,5"), ([3, 0], None, "radix 0"), ([5, 2], "abc", "'abc'"), ([63], None, "63")],
)
def test_from_radix_rejects(radix: list[int], symbols: str | None, quoted: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_radix(radix, symbols)
    assert quoted in str(info.value)


def test_with_no_leading() -> None:
    assert Rules().with_no_leading().size == 4536
    assert Rules.parse("mm").with_no_leading().allowed == ("23456", *["123456"] * 3)
    assert Rules.parse("mm").with_no_leading().size == 5 * 6**3
    assert Rules.from_radix([3, 3]).with_no_leading().allowed == ("12", "012")
    with pytest.raises(RulesError, match="'0'"):
        Rules(2, "01", True, ("0", "01")).with_no_leading()


# --- counting -------------------------------------------------------------------------------


def _brute_count(rules: Rules) -> int:
    positions = [rules.allowed_at(i) for i in range(rules.length)]
    return sum(
        1 for code in itertools.product(*positions) if rules.repeats or len(set(code)) == len(code)
    )


@settings(max_examples=100)
@given(variants())
def test_count_codes_equals_enumeration(rules: Rules) -> None:
    assert count_codes(rules) == rules.size == len(enumerate_codes(rules)) == _brute_count(rules)


def test_count_codes_without_enumerating() -> None:
    assert Rules(10, DIGITS, False).with_no_leading().size == 9 * 3_628_800 // 10
    assert Rules.parse("p6c13r").size == 13**6  # just under the limit
    assert Rules(3, DIGITS, False, ("01", "01", DIGITS)).size == 2 * 8


# --- impossible variants --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("make", "quoted"),
    [
        (lambda: Rules(5, "0123", False), ["5 distinct", "0-3"]),
        (lambda: Rules.parse("p5c4n"), ["5 distinct", "0-3"]),
        (lambda: Rules(0), ["length 0"]),
        (lambda: Rules.parse("p0c10n"), ["length 0"]),
        (lambda: Rules(11, DIGITS, True), ["length 11"]),
        (lambda: Rules.parse("p11c10r"), ["length 11"]),
        (lambda: Rules(4, "0012"), ["'0012'", "'0' appears twice"]),
        (lambda: Rules.parse("p4c6r:symbols=AABBCD"), ["'AABBCD'", "'A'"]),
        (lambda: Rules(4, ""), ["at least one symbol"]),
        (lambda: Rules(2, "a b"), ["'a b'", "' '"]),
        (lambda: Rules(2, "a/b"), ["'a/b'", "'/'"]),
        (lambda: Rules.parse("p4c0r"), ["0 colours"]),
        (lambda: Rules.parse("p4c63r"), ["63 colours"]),
        (lambda: Rules(2, "01", True, ("01",)), ["'01'", "2 in all"]),
        (lambda: Rules.parse("p3c4r:allowed=0123/01"), ["symbols '0123/01'", "3 in all"]),
        (lambda: Rules(2, "01", True, ("01", "2")), ["'2'", "position 2"]),
        (lambda: Rules(2, "01", True, ("01", "")), ["position 2"]),
        (lambda: Rules(2, "01", False, ("0", "0")), ["no code fits", "per-position"]),
        (lambda: Rules.parse("p3c3r:symbols=ab"), ["'p3c3r:symbols=ab'", "3 colours"]),
        (lambda: Rules.parse("p4c6r:foo"), ["'p4c6r:foo'", "'foo'"]),
        (lambda: Rules.parse("p4c6r:nolead=1"), ["'p4c6r:nolead=1'"]),
        (lambda: Rules.parse("xyz"), ["'xyz'", "p4c10n"]),
        (lambda: Rules.parse("p4x6r"), ["'p4x6r'"]),
        (lambda: Rules.parse("pc6r"), ["'pc6r'"]),
        (lambda: Rules.parse("moo5,x"), ["'moo5,x'"]),
        (lambda: Rules.parse("moo"), ["5,5,5"]),
        (lambda: Rules.parse("   "), ["empty"]),
    ],
)
def test_impossible_variants(make: Callable[[], Rules], quoted: list[str]) -> None:
    with pytest.raises(RulesError) as info:
        make()
    assert isinstance(info.value, BullsCowsError)
    assert isinstance(info.value, ValueError)
    for text in quoted:
        assert text in str(info.value)


@pytest.mark.parametrize(
    ("spec", "codes"),
    [("p10c10r", "10,000,000,000"), ("p7c10r", "10,000,000"), ("p8c20n", "5,079,110,400")],
)
def test_too_large_names_count_and_limit(spec: str, codes: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.parse(spec)
    message = str(info.value)
    assert codes in message
    assert f"{MAX_CODES:,}" in message


@pytest.mark.parametrize("spec", ["p5c4n", "p0c10n", "p10c10r"])
def test_parse_errors_quote_the_spec(spec: str) -> None:
    with pytest.raises(RulesError, match=repr(spec)):
        Rules.parse(spec)


# --- description ----------------------------------------------------------------------------


def test_describe() -> None:
    assert Rules().describe() == "4 distinct symbols of 0-9"
    assert Rules.parse("mm").describe() == "4 symbols of 1-6, repeats allowed"
    assert Rules.parse("bc-nolead").describe() == (
        "4 distinct symbols of 0-9 (allowed at position 1: 1-9)"
    )
    assert describe_symbols("RGBYOP") == "RGBYOP"
    assert describe_symbols("ab") == "ab"
    assert default_symbols(12) == "0123456789ab"
    assert Rules(3).reply_slots == 16


# --- guesses wider than the secrets -----------------------------------------------------------

WIDE = [
    ("bc:guesses=p4c10r", "bc:guesses=digits", 5040, 10000),
    ("bc-nolead:guesses=bc", "bc-nolead:guesses=bc", 4536, 5040),
    ("p3c6n:nolead:guesses=p3c6r", "p3c6n:nolead:guesses=p3c6r", 100, 216),
    ("moo3,2:guesses=p2c3r", "moo3,2:guesses=p2c3r", 6, 9),
    (
        "p4c6n:symbols=RGBYOP:guesses=mm-colours",
        "p4c6n:symbols=RGBYOP:guesses=mm-colours",
        360,
        1296,
    ),
]


@pytest.mark.parametrize(("spec", "printed", "secrets", "guesses"), WIDE)
def test_guesses_wider_than_the_secrets(
    spec: str, printed: str, secrets: int, guesses: int
) -> None:
    rules = Rules.parse(spec)
    assert rules.spec == printed and Rules.parse(printed) == rules
    assert eval(repr(rules), {"Rules": Rules}) == rules
    assert (rules.size, rules.guess_rules.size) == (secrets, guesses)
    assert rules.secret_rules.guesses is None and rules.secret_rules.size == secrets
    assert rules.guess_rules.guesses is None
    every = {tuple(c) for c in enumerate_codes(rules.guess_rules).tolist()}
    assert {tuple(c) for c in enumerate_codes(rules.secret_rules).tolist()} <= every


def test_guesses_no_wider_than_the_secrets_are_no_guesses_at_all() -> None:
    assert Rules.parse("bc:guesses=p4c10n") == Rules.parse("bc")
    assert Rules.parse("bc").with_guesses(Rules.parse("bc")).guesses is None


def test_no_leading_zero_keeps_the_guesses() -> None:
    rules = Rules.parse("bc:guesses=p4c10r").with_no_leading()
    assert rules.spec == "bc-nolead:guesses=digits"


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ("bc:guesses=p5c10r", "the secrets' length and alphabet"),
        ("mm:guesses=p4c6r", "the secrets' length and alphabet"),  # 1-6 is not 0-5
        ("mm:guesses=bc", "the secrets' length and alphabet"),
        ("p4c10r:guesses=bc", "repeats are barred"),
        ("bc:guesses=bc-nolead", "position 1 allows fewer symbols"),
        ("bc:guesses=p4c10r:guesses=p4c10r", "give :guesses= once"),
        ("bc:guesses=", "a variant's spec is needed on each side of :guesses="),
        ("bc:guesses=zzz", "unknown rules 'zzz'"),
    ],
)
def test_guesses_that_do_not_hold_every_secret_are_refused(spec: str, reason: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.parse(spec)
    assert reason in str(caught.value)
    assert repr(spec) in str(caught.value)


@pytest.mark.parametrize(
    ("spec", "modifier", "key"),
    [
        ("p4c6r:symbols=abcdef:symbols=uvwxyz", "symbols=uvwxyz", "symbols"),
        ("bc:nolead:NOLEAD", "NOLEAD", "nolead"),
        ("moo3,3:allowed=abc/ab/a:allowed=a/a/a", "allowed=a/a/a", "allowed"),
    ],
)
def test_a_modifier_given_twice_is_refused(spec: str, modifier: str, key: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.parse(spec)
    assert str(caught.value) == (
        f"rules spec {spec!r}: {modifier!r} repeats :{key}; each modifier may appear once"
    )


@pytest.mark.parametrize("spec", ["p\u0663c5n", "moo5,\u0665", "p4c\u0966r"])
def test_digits_of_other_scripts_are_no_numbers_of_a_spec(spec: str) -> None:
    """Arabic-Indic and Devanagari digits have no plain form; full-width and superscript
    digits do, and read as it (``tests/test_full_width.py``)."""
    with pytest.raises(RulesError):
        Rules.parse(spec)


def test_no_leading_zero_bars_its_zero_by_name_in_a_new_alphabet() -> None:
    moved = Rules.from_options("bc-nolead", symbols="1234567890")
    assert moved.allowed is not None and moved.allowed[0] == "123456789"  # not '1' barred
    with pytest.raises(RulesError, match=r"^the symbols 'abcdef' hold no '0'"):
        Rules.from_options("bc-nolead", symbols="abcdef")
