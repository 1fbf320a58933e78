"""A variant of one code: the headers of bench, tree (and its bound) and card say '1 secret'."""

from __future__ import annotations

from click.testing import CliRunner

from bullscows.cli import main


def test_headers_count_one_secret_in_the_singular() -> None:
    expected = {
        ("tree", "--rules", "p1c1r"): "allowed (1 secret)",
        ("tree", "--rules", "p1c1r", "--strategy", "optimal", "--bound", "root"): "(1 secret)",
        ("bench", "--rules", "p1c1r", "--strategy", "minimax"): "allowed (all 1 secret)",
        ("card", "--rules", "p1c1r"): "guesses over all 1 secret, worst 1",
    }
    for command, words in expected.items():
        result = CliRunner().invoke(main, list(command), env={"COLUMNS": "200"})
        assert result.exit_code == 0, (command, result.output)
        assert words in result.stdout, (command, result.stdout)
        assert "1 secrets" not in result.output, (command, result.output)
    announced = CliRunner().invoke(main, ["bench", "--rules", "p1c1r", "--strategy", "minimax"])
    assert "Playing 1 strategy over all 1 secret of p1c1r (minimax)" in announced.stderr
