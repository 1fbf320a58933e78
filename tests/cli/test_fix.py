"""``fix N REPLY``: any earlier reply corrected in place, in ``solve``, ``duel`` and ``assist``.

Run in-process with click's runner: the lines are read one by one as a person types them.
"""

from __future__ import annotations

from click.testing import CliRunner

from bullscows.cli import main


def run(*args: str, lines: list[str]) -> str:
    result = CliRunner().invoke(main, list(args), input="\n".join(lines) + "\n")
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.output


def test_solve_fixes_an_earlier_reply_named_by_the_contradiction() -> None:
    # The secret is 2745; the second reply (1456 -> 2 0) was a slip for 0 2.
    out = run("solve", lines=["0 1", "2 0", "2 1", "0 1", "1 3", "fix 2 0 2", "4 0", ""])
    assert "If #2 1456 was not 2 bulls, 0 cows, it could be: 0 bulls, 2 cows" in out
    assert "#2 1456: 2 bulls, 0 cows is now 0 bulls, 2 cows" in out
    assert "one choice left; it must be 2745" in out
    assert "I found it in 6 guesses: 2745." in out


def test_a_bad_fix_is_refused_and_changes_nothing() -> None:
    out = run("solve", lines=["0 1", "fix 3 0 0", "fix 1 5 5", "fix 1 4 0", "quit"])
    assert "there is no reply #3 to correct: replies #1 to #1 were given" in out
    assert "'5 5'" in out
    assert out.count("1440 choices left") == 1


def test_assist_fixes_any_entry() -> None:
    out = run(
        "assist",
        lines=["1389 0 0", "1234 0 3", "1759 1 1", "fix 2 0 2", "1785 2 0", "quit"],
    )
    assert "#2 1234: 0 bulls, 3 cows is now 0 bulls, 2 cows" in out
    assert "2745 4725" in out  # the two codes left after the fourth entry


def test_duel_fix_is_a_reply_command() -> None:
    out = run("duel", "--seed", "1", lines=["0123", "0 0", "4567", "fix 1 0 1", "quit"])
    assert "#1 0123: 0 bulls, 0 cows is now 0 bulls, 1 cow" in out
