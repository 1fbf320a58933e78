"""``fix N REPLY``: any earlier reply corrected in place, in ``solve``, ``duel`` and ``assist``.

The lines are typed ahead at a keyboard (``spawn``) and read one by one.
"""

from __future__ import annotations

import pytest

from .conftest import Spawn


@pytest.fixture
def run(spawn: Spawn):  # type: ignore[no-untyped-def]
    def play(*args: str, lines: list[str]) -> str:
        game = spawn(*args)
        for line in lines:
            game.send(line)
        game.send_eof()
        assert game.finish() == 0
        return game.transcript

    return play


def test_solve_fixes_an_earlier_reply_named_by_the_contradiction(run) -> None:  # type: ignore[no-untyped-def]
    # The secret is 2745; the second reply (1456 -> 2 0) was a slip for 0 2.
    out = run("solve", lines=["0 1", "2 0", "2 1", "0 1", "1 3", "fix 2 0 2", "4 0", ""])
    assert "If #2 1456 was not 2 bulls, 0 cows, it could be: 0 bulls, 2 cows" in out
    assert "#2 1456: 2 bulls, 0 cows is now 0 bulls, 2 cows" in out
    assert "one choice left; it must be 2745" in out
    assert "I found it in 6 guesses: 2745." in out


def test_a_bad_fix_is_refused_and_changes_nothing(run) -> None:  # type: ignore[no-untyped-def]
    out = run("solve", lines=["0 1", "fix 3 0 0", "fix 1 5 5", "fix 1 4 0", "quit"])
    assert "there is no reply #3 to correct: replies #1 to #1 were given" in out
    assert "'5 5'" in out
    assert out.count("1440 choices left") == 1


@pytest.mark.parametrize("mode", ["solve", "assist"])
def test_a_badly_formed_fix_says_what_a_fix_looks_like(run, mode: str) -> None:  # type: ignore[no-untyped-def]
    first = "0 1" if mode == "solve" else "0123 0 1"
    out = run(mode, lines=[first, "fix 1", "fix x 1 1", "FIX 99", "correct", "quit"])
    for typed in ("fix 1", "fix x 1 1", "FIX 99", "correct"):
        assert (
            f"cannot read fix command '{typed}': write 'fix N REPLY', N a reply number "
            "(1 to 1) and REPLY in any notation"
        ) in out
    assert "cannot read reply" not in out
    assert out.count("1440 choices left" if mode == "solve" else "1440 codes possible") == 1


def test_assist_fixes_any_entry(run) -> None:  # type: ignore[no-untyped-def]
    out = run(
        "assist",
        lines=["1389 0 0", "1234 0 3", "1759 1 1", "fix 2 0 2", "1785 2 0", "quit"],
    )
    assert "#2 1234: 0 bulls, 3 cows is now 0 bulls, 2 cows" in out
    assert "2745 4725" in out  # the two codes left after the fourth entry


def test_duel_fix_is_a_reply_command(run) -> None:  # type: ignore[no-untyped-def]
    out = run("duel", "--seed", "1", lines=["0123", "0 0", "4567", "fix 1 0 1", "quit"])
    assert "#1 0123: 0 bulls, 0 cows is now 0 bulls, 1 cow" in out
