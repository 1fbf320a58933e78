"""A misspelt variant, modifier or strategy is one line that quotes it, says which name was
probably meant, and still lists what is valid."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bullscows.cli import main


def error_of(*args: str) -> str:
    """The one error line of ``bullscows play ARGS`` (a usage error: exit 2)."""
    result = CliRunner().invoke(main, ["play", *args], input="quit\n", env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    [line] = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    return line


@pytest.mark.parametrize(
    ("spec", "meant"),
    [
        ("bcc", "'bc'"),
        ("bc-nolaed", "'bc-nolead'"),
        ("Logic", "'logik'"),
        ("mastermind", "'mm'"),
        ("Mastermnd", "'mm'"),
        ("moo", "'bc'"),
        ("bulls&cows", "'bc'"),
        ("p4c6", "'p4c6r', repeats, or 'p4c6n', none"),
        ("p5c8:nolead", "'p5c8r', repeats, or 'p5c8n', none"),
    ],
)
def test_a_misspelt_variant_suggests_the_one_meant(spec: str, meant: str) -> None:
    error = error_of("--rules", spec)
    assert error.startswith(f"Error: unknown rules '{spec}' (did you mean {meant}?); expected a "
                            "preset (bc, bc-nolead,"), error  # fmt: skip


def test_a_name_close_to_none_gets_no_suggestion() -> None:
    assert error_of("--rules", "xyz").startswith("Error: unknown rules 'xyz'; expected a preset")


@pytest.mark.parametrize(
    ("modifier", "meant"), [("nolaed", "nolead"), ("symbol=RGBYOP", "symbols")]
)
def test_a_misspelt_modifier_suggests_the_one_meant(modifier: str, meant: str) -> None:
    error = error_of("--rules", f"mm:{modifier}")
    assert error.startswith(
        f"Error: rules spec 'mm:{modifier}': cannot read '{modifier}' (did you mean '{meant}'?); "
        "modifiers are :nolead,"
    ), error


@pytest.mark.parametrize(
    ("name", "meant"),
    [("minmax", "minimax"), ("entrpy", "entropy"), ("Optimal", "optimal"),
     ("optimal_worst", "optimal-worst"), ("random-consistant", "random-consistent")],
)  # fmt: skip
def test_a_misspelt_strategy_suggests_the_one_meant(name: str, meant: str) -> None:
    error = error_of("--strategy", name)
    assert error.startswith(
        f"Error: Invalid value for --strategy: unknown strategy '{name}' (did you mean "
        f"'{meant}'?); strategies: simple, random-consistent, minimax,"
    ), error


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["solve", "--reply-style", "peg"], "Invalid value for '--reply-style': 'peg' is not one "
         "of 'words', 'bc', 'ab', 'pegs', 'digits', 'pair', 'letters' (did you mean 'pegs'?)."),
        (["tree", "--format", "txt"], "Invalid value for '--format': 'txt' is not one of "
         "'summary', 'text', 'irving' (did you mean 'text'?)."),
        (["card", "--rule", "frist"], "Invalid value for '--rule': 'frist' is not one of "
         "'first', 'any' (did you mean 'first'?)."),
        (["serve", "--durability", "ful"], "Invalid value for '--durability': 'ful' is not one "
         "of 'process', 'full' (did you mean 'full'?)."),
        (["tree", "--format", "x" * 60], "Invalid value for '--format': "
         f"'{'x' * 50}...' (60 characters) is not one of 'summary', 'text', 'irving'."),
    ],
)  # fmt: skip
def test_a_misspelt_choice_suggests_the_one_meant(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, args, env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines()[-1] == f"Error: {said}"
