"""``bullscows analyse``: a history or a saved game, move by move, in-process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Code, Rules, score
from bullscows.cli import main
from bullscows.cli.record import keep
from bullscows.sessions import Adversary, Codebreaker, Codemaker

P3 = Rules.parse("p3c4n")


def run(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, ["analyse", *args], input=stdin)


def steps(rules: Rules, secret: str, *guesses: str) -> list[str]:
    """'GUESS B C' for each guess against ``secret``."""
    lines = []
    for guess in guesses:
        reply = score(Code(secret, rules), Code(guess, rules))
        lines.append(f"{guess} {reply.bulls} {reply.cows}")
    return lines


def test_a_history_move_by_move() -> None:
    result = run("--rules", "p3c4n", *steps(P3, "012", "013", "012"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "p3c4n: 3 distinct symbols of 0-3: 2 of 2 moves analysed"
    assert lines[1].startswith("1. 013  2 bulls, 0 cows  24 codes -> 3: ")
    assert lines[2] == (
        "2. 012  3 bulls, 0 cows  3 codes -> 1: optimal (exact, by the optimal search): "
        "splits 3 codes into 2 parts"
    )


def test_a_guess_worse_than_the_best_says_by_how_much_and_that_it_did_not_fit() -> None:
    history = steps(Rules.parse("mm"), "3632", "1122", "1344", "1462", "3632")
    result = run("--rules", "mm", "--reply-style", "pegs", *history)
    assert result.exit_code == 0, result.output
    third = result.stdout.splitlines()[3]
    assert third.startswith("3. 1462  1B1W  44 codes -> 11: ")
    assert "guesses more on average" in third
    assert "it did not fit every reply so far: hard mode refuses it" in third


def test_a_history_from_standard_input_as_json() -> None:
    history = "\n".join(["# my game", *steps(P3, "321", "012", "123", "321")]) + "\n"
    result = run("--rules", "p3c4n", "--from", "-", "--json", stdin=history)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["rules"] == "p3c4n"
    assert [m["guess"] for m in data["moves"]] == ["012", "123", "321"]
    assert data["moves"][0]["codes"] == 24
    assert data["moves"][-1]["left"] == 1


def test_a_contradiction_ends_the_analysis_explained_and_exits_1() -> None:
    """Bad input: the moves up to the one that left no code, the account of why the replies
    contradict each other on stdout, one error line on stderr, exit 1."""
    result = run("--rules", "p3c4n", "--reply-style", "pair", "012 1 1", "013 3 0", "123 0 0")
    assert result.exit_code == 1, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith("2 of 3 moves analysed")
    assert lines[3:] == [
        "These replies cannot all be true: #1 012 -> 1 1; #2 013 -> 3 0.",
        "  If #1 012 was not 1 1, it could be: 2 0 (1 code left)",
        "  If #2 013 was not 3 0, it could be: 2 0 (2 codes left), 1 2 (2 codes left), 0 2 (2 "
        "codes left)",
    ]
    assert result.stderr == (
        "Error: no code fits the replies up to move 2; the moves after it are not analysed\n"
    )


def test_a_contradiction_in_json_is_explained_there_and_exits_1() -> None:
    result = run("--rules", "p3c4n", "--json", "012 1 1", "013 3 0")
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert [move["left"] for move in data["moves"]] == [6, 0]
    assert data["contradiction"]["steps"] == [1, 2]
    assert data["contradiction"]["text"][0].startswith("These replies cannot all be true")
    assert result.stderr == "Error: no code fits the replies up to move 2\n"


def test_a_saved_game_of_each_kind(tmp_path: Path) -> None:
    game = Codemaker(P3, secret="210", seed=5)
    for guess in ("012", "102", "210"):
        game.guess(guess)
    (tmp_path / "play.json").write_text(game.to_record().dumps())
    result = run("--record", str(tmp_path / "play.json"))
    assert result.exit_code == 0, result.output
    assert "p3c4n: 3 distinct symbols of 0-3: 3 of 3 moves analysed" in result.stdout
    assert "3. 210  3 bulls, 0 cows" in result.stdout
    solver = Codebreaker(P3, "minimax", seed=1)
    solver.record("012", score(Code("321", P3), Code("012", P3)))
    (tmp_path / "solve.json").write_text(solver.to_record().dumps())
    result = run("--record", str(tmp_path / "solve.json"))
    assert result.exit_code == 0, result.output
    assert "1 of 1 moves analysed" in result.stdout


def test_an_adversary_game_marked_a_challenge_is_refused(tmp_path: Path) -> None:
    """An adversary commits to no secret, so its game cannot be a friend's challenge: the
    record is refused in one line that quotes its file and says why."""
    game = Adversary(P3, seed=5)
    game.guess("012")
    (tmp_path / "adversary.json").write_text(
        json.dumps(game.to_record().to_json() | {"challenge": True})
    )
    result = run("--record", str(tmp_path / "adversary.json"))
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"Error: game record '{tmp_path / 'adversary.json'}': 'challenge' in an adversary game: a "
        "challenge is a friend's fixed secret, and an adversary game has none (leave it out)\n"
    )


def test_bad_input_is_one_line() -> None:
    for args, message in [
        (["--rules", "p3c4n", "01x 1 0"], "'01x'"),
        (["--record", "no-such-file.json"], "no-such-file.json"),
        (["--rules", "p3c4n", "012 1 0", "--from", "-"], "give the history as arguments"),
    ]:
        result = run(*args, stdin="")
        assert result.exit_code in (1, 2), result.output
        assert message in result.stderr and "Traceback" not in result.output
    empty = run("--from", "-", stdin="# nothing\n")
    assert empty.exit_code == 1
    assert "no guess to analyse" in empty.stderr


def test_the_last_game_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BULLSCOWS_DATABASE", f"sqlite:///{tmp_path / 'games.sqlite3'}")
    none = run("--last")
    assert none.exit_code == 1
    assert "no game kept in sqlite:///" in none.stderr and "play one first" in none.stderr
    for secret, guesses in (("210", ("012", "210")), ("321", ("012", "123", "321"))):
        game = Codemaker(P3, secret=secret, seed=1)
        for guess in guesses:
            game.guess(guess)
        keep(game.to_record())
    result = run("--last")
    assert result.exit_code == 0, result.output
    assert "3 of 3 moves analysed" in result.stdout
    assert "3. 321  3 bulls, 0 cows" in result.stdout


def test_a_variant_other_than_the_games_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # --rules bc was silently left aside: the game of p3c4n was analysed as if nothing was
    # asked. The same variant, or none, still reads the game.
    monkeypatch.setenv("BULLSCOWS_DATABASE", f"sqlite:///{tmp_path / 'games.sqlite3'}")
    game = Codemaker(P3, secret="210", seed=5)
    for guess in ("012", "210"):
        game.guess(guess)
    keep(game.to_record())
    saved = tmp_path / "play.json"
    saved.write_text(game.to_record().dumps())
    for args, what, whose in (
        (["--last"], "your last game", "the game's"),
        (["--record", str(saved)], f"game record '{saved}'", "the file's"),
    ):
        refused = run(*args, "--rules", "bc")
        assert refused.exit_code == 2, refused.output
        assert refused.stderr.splitlines()[-1] == (
            f"Error: {what} is of p3c4n, not of bc (--rules): leave the variant out, or give "
            f"{whose}"
        )
        for given in (["--rules", "p3c4n"], []):
            result = run(*args, *given)
            assert result.exit_code == 0, result.output
            assert result.stdout.startswith("p3c4n: ")
