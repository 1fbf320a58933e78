"""``--strategy`` names its valid values in every command's help, without importing the
strategies to do it: the names the help shows are the strategies there are."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from bullscows.cli import main
from bullscows.strategies import STRATEGIES
from bullscows.strategy_spec import CHOICES, NAMES


def test_the_names_the_help_shows_are_the_strategies() -> None:
    assert tuple(STRATEGIES) == NAMES


@pytest.mark.parametrize("name", ["play", "solve", "duel", "assist", "analyse", "bench", "tree"])
def test_the_help_of_strategy_lists_every_name(name: str) -> None:
    result = CliRunner().invoke(main, [name, "--help"], terminal_width=1000, max_content_width=1000)
    assert result.exit_code == 0, result.output
    [line] = [line for line in result.stdout.splitlines() if line.lstrip().startswith("--strategy")]
    assert line.split()[:2] == ["--strategy", "NAME"], line
    assert CHOICES in line, line
    assert "optimal-worst-count" in CHOICES and "tree:FILE.json" in CHOICES
