"""Numbers that would go wrong later, refused as the options are read: a seed is the same
whole number of at most 18 digits, either sign, in every command (and in the web app and a
game record), and ``serve --expire-hours`` is at most a hundred years (any more and the
moment before which games are deleted falls before the year 1)."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from bullscows.cli import main
from bullscows.errors import BullsCowsError
from bullscows.seeding import MAX_SEED, check_seed
from bullscows.web import MAX_EXPIRE_HOURS
from bullscows.web.limits import Limits

#: The commands that take ``--seed``, found from their options (none is left out).
SEEDED = sorted(
    name
    for name in main.list_commands(click.Context(main))
    if any(option.name == "seed" for option in main.get_command(click.Context(main), name).params)
)
SEED_ERROR = "give a whole number of at most 18 digits, either sign"


def error_of(args: list[str]) -> str:
    """The one-line error of ``bullscows ARGS``, a usage error (exit 2), no traceback."""
    result = CliRunner().invoke(main, args, env={"COLUMNS": "300"})
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return result.stderr.splitlines()[-1]


def test_every_command_with_a_seed_is_found() -> None:
    assert {"assist", "bench", "duel", "play", "solve"} <= set(SEEDED)


@pytest.mark.parametrize("command", SEEDED)
@pytest.mark.parametrize("seed", [MAX_SEED + 1, -MAX_SEED - 1, 10**30])
def test_a_seed_past_18_digits_is_refused_alike_by_every_command(command: str, seed: int) -> None:
    error = error_of([command, "--seed", str(seed)])
    assert error == f"Error: Invalid value for '--seed': seed {seed}: {SEED_ERROR}", error


@pytest.mark.parametrize("command", SEEDED)
def test_a_seed_that_is_no_whole_number_is_refused_alike(command: str) -> None:
    assert error_of([command, "--seed", "1.5"]).endswith("'1.5' is not a valid integer.")


def test_a_negative_seed_is_a_seed_of_its_own_in_the_bench() -> None:
    def rows(seed: str) -> list[dict[str, object]]:
        args = ["bench", "--rules", "mm", "--strategy", "random", "--sample", "20", "--json"]
        result = CliRunner().invoke(main, [*args, "--seed", seed, "--quiet"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.stdout)
        assert report["seed"] == int(seed)
        return [{k: v for k, v in row.items() if k != "seconds"} for row in report["strategies"]]

    minus = rows("-1")
    assert rows("-1") == minus
    assert minus != rows("1")


def test_the_library_says_the_same_of_a_seed() -> None:
    assert check_seed(-MAX_SEED) == -MAX_SEED
    for wrong in (MAX_SEED + 1, 1.0, "1", True, None):
        with pytest.raises(BullsCowsError, match=SEED_ERROR):
            check_seed(wrong)


@pytest.mark.parametrize(
    ("hours", "shown"),
    [("1e300", "1e+300"), (str(MAX_EXPIRE_HOURS + 1), f"{MAX_EXPIRE_HOURS + 1}.0")],
)
def test_serve_refuses_an_expiry_past_a_hundred_years(hours: str, shown: str) -> None:
    error = error_of(["serve", "--expire-hours", hours])
    assert f"'--expire-hours': {shown} is not in the range 0<=x<={MAX_EXPIRE_HOURS}." in error


def test_a_number_longer_than_any_option_takes_is_quoted_short() -> None:
    error = error_of(["serve", "--expire-hours", "9" * 400])
    assert error.endswith("'99999999999999999999999999999999999999999999999999...' (400 characters)"
                          " is not a valid number."), error  # fmt: skip


@pytest.mark.parametrize("hours", [1e300, -1.0, float("nan")])
def test_the_limits_a_worker_reads_refuse_an_expiry_out_of_range(hours: float) -> None:
    environment = {"BULLSCOWS_LIMITS": json.dumps({"expire_hours": hours})}
    with pytest.raises(BullsCowsError, match=r"expire_hours .*: give 0 to 876,600"):
        Limits.from_environment(environment)
    assert Limits(MAX_EXPIRE_HOURS).expire_hours == MAX_EXPIRE_HOURS


@pytest.mark.parametrize("command", main.list_commands(click.Context(main)))
def test_the_help_shows_no_range_an_option_does_not_have(command: str) -> None:
    # A whole number with no bound (--seed) showed click's '[x<=None]'.
    result = CliRunner().invoke(main, [command, "--help"], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "None" not in result.output, result.output
