"""The options that build a custom variant, given bad values or ones that contradict each
other: one usage error that quotes what was typed and says what is valid."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bullscows.cli import main

RADIX = "a radix list is 1 to 10 whole numbers from 1 to 62"


def error_of(args: list[str]) -> str:
    """The one-line error of ``bullscows play ARGS``: a usage error (exit 2), no traceback."""
    result = CliRunner().invoke(main, ["play", *args], input="quit\n", env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stdout == ""
    return result.stderr.splitlines()[-1]


@pytest.mark.parametrize("radix", ["1,x", "0,5", "", "5,,5", "5,5,", "63", "9" * 30, "5," * 11])
def test_a_bad_radix_list_is_quoted_as_typed(radix: str) -> None:
    error = error_of(["--radix", radix])
    assert error.startswith(f"Error: --radix '{radix}': {RADIX}"), error
    assert "moo" not in error


@pytest.mark.parametrize("spec", ["moo1,x", "moo0,5", "moo5,,5", "moo,5"])
def test_a_bad_radix_spec_is_quoted_as_typed(spec: str) -> None:
    assert error_of(["--rules", spec]).startswith(f"Error: rules spec '{spec}': {RADIX}")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["--length", "4"], "Error: --radix '5,5,5' has 3 positions, not 4 (--length)"),
        (["--no-repeats"], "Error: --radix '5,5,5': a radix universe allows repeats"),
        (["--rules", "mm"], "Error: --rules 'mm' and --radix '5,5,5' each give the variant"),
        (["--rules", "bc"], "Error: --rules 'bc' and --radix '5,5,5' each give the variant"),
        (["--symbols", "abc"], "Error: radix 5 needs 5 symbols; symbols 'abc' has 3"),
    ],
)
def test_an_option_the_radix_list_contradicts_is_refused(args: list[str], error: str) -> None:
    assert error_of(["--radix", "5,5,5", *args]).startswith(error)


@pytest.mark.parametrize(
    "args", [["--radix", "5 5 5"], ["--radix", "5, 5, 5"], ["--radix", "5,5,5", "--length", "3"]]
)
def test_a_radix_list_as_j_writes_it_or_with_its_length(args: list[str]) -> None:
    result = CliRunner().invoke(main, ["play", *args], input="quit\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("I have picked a secret: 3 symbols of 0-4, repeats allowed.")


def test_a_modifier_given_twice_is_refused() -> None:
    spec = "p4c6r:symbols=abcdef:symbols=uvwxyz"
    assert error_of(["--rules", spec]) == (
        f"Error: rules spec '{spec}': 'symbols=uvwxyz' repeats :symbols; "
        "each modifier may appear once"
    )


@pytest.mark.parametrize(
    ("args", "first_line"),
    [
        (["--rules", "bc-nolead", "--length", "3"],
         "3 distinct symbols of 0-9 (allowed at position 1: 1-9)"),
        (["--rules", "bc-nolead", "--length", "5", "--no-leading-zero"],
         "5 distinct symbols of 0-9 (allowed at position 1: 1-9)"),
        (["--rules", "p4c10n:nolead", "--length", "2", "--repeats"],
         "2 symbols of 0-9, repeats allowed (allowed at position 1: 1-9)"),
        (["--rules", "bc-nolead", "--symbols", "1234567890"],  # 0 stays barred, by name
         "4 distinct symbols of 1234567890 (allowed at position 1: 1-9)"),
        (["--rules", "mm:nolead", "--symbols", "654321"],  # mm's zero is 1
         "4 symbols of 654321, repeats allowed (allowed at position 1: 65432)"),
        (["--rules", "p3c4r:allowed=123/0123/01", "--no-repeats"],
         "3 distinct symbols of 0-3 (allowed at position 1: 1-3, 3: 01)"),
        (["--rules", "p3c4r:allowed=123/0123/01", "--symbols", "wxyz"],
         "3 symbols of w-z, repeats allowed (allowed at position 1: x-z, 3: wx)"),
    ],
)  # fmt: skip
def test_a_variants_limits_are_kept_when_options_change_it(
    args: list[str], first_line: str
) -> None:
    """No leading zero stays at any length and alphabet; other limits stay through a change
    of repeats or a renaming of the symbols."""
    result = CliRunner().invoke(main, ["play", *args], input="quit\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == f"I have picked a secret: {first_line}."


def test_no_leading_zero_with_symbols_that_hold_no_zero_is_refused() -> None:
    assert error_of(["--rules", "bc-nolead", "--symbols", "abcdef"]) == (
        "Error: the symbols 'abcdef' hold no '0', which 'bc-nolead' bars from the first "
        "position: a variant with no leading zero needs its zero ('0') among its symbols"
    )


@pytest.mark.parametrize(
    ("args", "changed"),
    [
        (["--length", "4"], "a length of 4"),
        (["--symbols", "abcdef"], "the symbols 'abcdef'"),
    ],
)
def test_limits_that_no_rule_carries_over_are_refused(args: list[str], changed: str) -> None:
    assert error_of(["--rules", "moo5,3,4", *args]) == (
        f"Error: {changed}: 'moo5,3,4' limits the symbols of each of its 3 positions, and no "
        "rule carries those limits over; give the whole variant as one spec, its limits as "
        ":allowed=SYMBOLS/SYMBOLS/... (one per position)"
    )


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("bc:guesses=p4c10r:foo", "cannot read 'foo'; modifiers are :nolead"),
        ("bc:guesses=digits:symbols=abc", "digits has 10 symbols but 3 given"),
        ("bc:guesses=p4c10r:nolead:nolead", "'nolead' repeats :nolead"),
        ("bc:guesses=p4c10r:symbols=abc", "10 colours but 3 symbols given"),
        ("p4c6r:symbols=abc:guesses=p4c6r", "6 colours but 3 symbols given"),
        ("bc:guesses=moo5,,", RADIX),
        ("bc:guesses=xyz", "unknown rules 'xyz'; expected a preset"),
        ("bc:guesses=", "a variant's spec is needed on each side of :guesses="),
        (":guesses=bc", "a variant's spec is needed on each side of :guesses="),
    ],
)
def test_an_error_in_either_side_of_guesses_quotes_the_spec_once(spec: str, problem: str) -> None:
    """As the other modifiers' errors: the whole spec quoted once, then the part that is
    wrong."""
    error = error_of(["--rules", spec])
    assert error.startswith(f"Error: rules spec '{spec}': {problem}"), error
    assert error.count("rules spec") == 1, error
