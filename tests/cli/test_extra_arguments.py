"""An argument beyond those a command takes is a usage error (exit 2) in one line that quotes
the arguments given and says what the command takes, never click's bare "unexpected extra
argument": every command is a ``cli.common.Command``."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from bullscows.cli import COMMANDS, main

#: Arguments each command takes, valid; the others take none (or any number: not checked).
VALID = {"score": ["1234", "5678"], "rules": ["bc"]}


def error_line(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and "unexpected extra" not in result.output
    return result.output.splitlines()[-1]


def test_one_code_too_many_for_score() -> None:
    assert error_line("score", "1234", "5678", "9012") == (
        "Error: '1234 5678 9012': score takes a secret and a guess (SECRET GUESS); "
        "'9012' is one too many"
    )


def test_two_variants_too_many_for_rules() -> None:
    assert error_line("rules", "bc", "mm", "logik") == (
        "Error: 'bc mm logik': rules takes at most one variant ([SPEC]); 'mm logik' are 2 too many"
    )


def test_options_given_between_the_arguments_are_left_out_of_the_quote() -> None:
    assert error_line("score", "--rules", "mm", "1122", "1234", "--json", "3456").startswith(
        "Error: '1122 1234 3456': score takes"
    )


def taking_a_fixed_number() -> list[str]:
    names = []
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert command is not None
        if not any(isinstance(p, click.Argument) and p.nargs == -1 for p in command.params):
            names.append(name)
    return names


@pytest.mark.parametrize("name", taking_a_fixed_number())
def test_every_command_quotes_an_extra_argument_and_says_what_it_takes(name: str) -> None:
    line = error_line(name, *VALID.get(name, []), "extra")
    given = " ".join([*VALID.get(name, []), "extra"])
    if name in VALID:
        assert line.startswith(f"Error: '{given}': {name} takes "), line
        assert line.endswith("; 'extra' is one too many"), line
    else:
        assert line == f"Error: 'extra': {name} takes no arguments, only options (see --help)"


@pytest.mark.parametrize(
    ("args", "meant"),
    [(["play", "mm"], "--rules mm"), (["tree", "moo5,5,5"], "--rules moo5,5,5"),
     (["solve", "entropy"], "--strategy entropy"), (["bench", "Mastermind"], None),
     (["play", "0123"], None), (["serve", "mm"], None)],
)  # fmt: skip
def test_a_variant_or_strategy_given_as_an_argument_is_told_its_option(
    args: list[str], meant: str | None
) -> None:
    # A newcomer's 'bullscows play mm' was only told that play takes no arguments.
    line = error_line(*args)
    start = f"Error: {args[1]!r}: {args[0]} takes no arguments, only options"
    said = "" if meant is None else f"; did you mean {meant!r}?"
    assert line == f"{start}{said} (see --help)"
