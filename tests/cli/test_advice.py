"""What the commands advise: never a command that cannot succeed."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from bullscows import Rules
from bullscows.cli import main
from bullscows.rules import PRESETS
from bullscows.search.optimal import MAX_SEARCH_CODES
from bullscows.strategies import get_strategy


def test_a_variant_past_the_search_is_not_sent_to_the_search() -> None:
    result = CliRunner().invoke(main, ["solve", "--rules", "bc5", "--strategy", "optimal"])
    assert result.exit_code == 2
    assert "bullscows tree" not in result.stderr
    assert "30,240 codes to guess, and a search is advised for at most 10,000" in result.stderr
    assert "play a heuristic such as minimax or entropy" in result.stderr


@pytest.mark.parametrize("spec", [*PRESETS, "p5c8n", "p4c9r", "p5c10n", "p6c10n"])
@pytest.mark.parametrize("name", ["optimal", "optimal-worst"])
def test_every_tree_command_advised_is_one_the_search_takes(spec: str, name: str) -> None:
    rules = Rules.parse(spec)
    problem = get_strategy(name).problem(rules)
    advised = re.search(r"`bullscows tree --rules (\S+) --strategy (\S+)`", problem or "")
    if advised is not None:
        assert Rules.parse(advised[1]).guess_rules.size <= MAX_SEARCH_CODES, problem
        assert advised[2] == name
