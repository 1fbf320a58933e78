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


@pytest.mark.parametrize("spec", ["moo1,x", "moo0,5", "moo5,,5", "moo"])
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
