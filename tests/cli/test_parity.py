"""``bullscows play``: what the web has too (list, undo, the analysis after a game, the record
of games), Mastermind's pegs, and whole lines when the output is a file (in-process)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from bullscows import Rules
from bullscows.cli import main
from bullscows.sessions import seeded_secret

from .conftest import Spawn, bulls_cows, still_possible

P3 = Rules.parse("p3c4n")
YOUR_GUESS = re.compile(r"\[(\d+)\] Your guess: ")


@pytest.fixture(autouse=True)
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test keeps its games in a database of its own."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    monkeypatch.setenv("BULLSCOWS_DATABASE", url)
    return url


def play(*args: str, lines: list[str]) -> Result:
    return CliRunner().invoke(main, ["play", *args], input="".join(f"{x}\n" for x in lines))


def other_than(secret: str, *codes: str) -> str:
    return next(code for code in codes if code != secret)


def test_list_and_undo(spawn: Spawn) -> None:
    secret = seeded_secret(P3, 3).text
    first = other_than(secret, "012", "013")
    game = spawn("play", "--rules", "p3c4n", "--seed", "3")
    game.expect(YOUR_GUESS)
    game.send(first)
    game.expect(YOUR_GUESS)
    game.send("list")
    possible = still_possible(P3, [(first, bulls_cows(secret, first))])
    game.expect_text("  " + " ".join(possible))
    game.expect(YOUR_GUESS)
    game.send("undo")
    game.expect_text(f"    took back {first} -> ")
    assert game.expect(YOUR_GUESS).group(1) == "1"
    game.send("history")
    game.expect_text("  Nothing yet.")
    game.expect(YOUR_GUESS)
    game.send("undo")
    game.expect_text("nothing to undo: no guess has been made yet")
    game.expect(YOUR_GUESS)
    game.send(secret)
    game.expect_text(f"You broke it in 1 guess: {secret}.")
    assert game.finish() == 0


def test_a_game_is_kept_in_the_record_and_analysed_after(record: str) -> None:
    secret = seeded_secret(P3, 5).text
    first = other_than(secret, "012", "013")
    result = play("--rules", "p3c4n", "--seed", "5", "--analyse", lines=[first, secret])
    assert result.exit_code == 0, result.output
    assert "Each guess against the best guess at that moment:" in result.stdout
    assert re.search(rf"^1\. {first}  \d bulls?, \d cows?  24 codes -> \d+: ", result.stdout, re.M)
    assert re.search(rf"^2\. {secret}  3 bulls, 0 cows  \d+ codes -> 1: ", result.stdout, re.M)
    grid = result.stdout.split("To share (no code in it):\n")[1].splitlines()
    assert grid[0] == "bullscows p3c4n: broken in 2 guesses"
    bulls, cows = bulls_cows(secret, first)
    assert grid[1:3] == ["\u25cf" * bulls + "\u25cb" * cows or "\u00b7", "\u25cf" * 3]
    missed = other_than(seeded_secret(P3, 6).text, "012", "013")
    quit_game = play("--rules", "p3c4n", "--seed", "6", lines=[missed, "quit"])  # a guess: kept
    assert "Kept in your record (bullscows record)" in quit_game.stdout
    kept = json.loads(CliRunner().invoke(main, ["record", "--json"]).stdout)
    [p3] = kept["variants"]
    assert (p3["played"], p3["won"], p3["streak"], p3["best_streak"]) == (2, 1, 0, 1)
    assert p3["distribution"] == {"2": 1}


def test_mastermind_replies_are_pegs_unless_asked_otherwise() -> None:
    mm = Rules.parse("mm")
    secret = seeded_secret(mm, 2).text
    guess = other_than(secret, "1122", "3456")
    bulls, cows = bulls_cows(secret, guess)
    pegs = play("--rules", "mm", "--seed", "2", lines=[guess, "quit"])
    assert f"    {bulls}B{cows}W\n" in pegs.stdout
    words = play("--rules", "mm", "--seed", "2", "--reply-style", "words", lines=[guess, "quit"])
    assert f"    {bulls} bull" in words.stdout
    score = CliRunner().invoke(main, ["score", "--rules", "mm", "1122", "1234"])
    assert score.stdout == "1B1W\n"
    assert CliRunner().invoke(main, ["score", "1234", "4130"]).stdout == "1 bull, 2 cows\n"


def test_prose_written_to_a_file_is_not_wrapped() -> None:
    """Lines longer than COLUMNS come whole: rich wraps only on a terminal."""
    result = CliRunner().invoke(
        main, ["play", "--rules", "mm", "--seed", "2", "--hint"], input="hint\nquit\n",
        env={"COLUMNS": "40"},
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Type your guesses; 'history' shows them so far, 'quit' gives up.\n" in result.stdout
    assert "  Of the 1296 codes still possible, its reply would leave at most 256" in result.stdout


def test_a_hint_reads_in_the_terminal_as_on_the_web() -> None:
    """The same lines, from the library: its parts one paragraph, not three to a line."""
    from bullscows.hints import give_hint
    from bullscows.knowledge import Knowledge
    from bullscows.strategies import get_strategy
    from bullscows.web.games import hint_out

    mm = Rules.parse("mm")
    web = hint_out(give_hint(Knowledge.start(mm), get_strategy("minimax")), mm).lines
    assert web[-1] == (
        "  13 parts: 0B0W: 256; 0B1W: 256; 1B0W: 256; 1B1W: 208; 2B0W: 114; 0B2W: 96; and 7 more"
    )
    result = play("--rules", "mm", "--seed", "2", "--hint", lines=["hint", "quit"])
    shown = result.stdout.splitlines()
    start = shown.index("[1] Your guess: " + web[0])
    assert shown[start + 1 : start + len(web)] == web[1:]
    assert shown[start + len(web)].startswith("[1] Your guess: ")


def test_optimal_hints_off_the_tree_say_where_they_come_from() -> None:
    result = play(
        "--rules", "bc", "--seed", "1", "--hint", "--strategy", "optimal", lines=["9876", "hint"]
    )  # fmt: skip
    assert "(the optimal tree, by symmetry: this game is one of its own)" in result.stdout


def test_quit_after_a_contradiction_offers_the_audit(spawn: Spawn) -> None:
    game = spawn("solve", "--seed", "1")
    game.expect(r"\[1\] My guess: (\d{4})  reply: ")
    game.send("0 0")
    game.expect(r"\[2\] My guess: (\d{4})  reply: ")
    game.send("0 0")  # 0123 and 4567 both without a digit of the secret: impossible
    game.expect_text("Your replies contradict each other: no code fits them all.")
    game.expect_text("or 'quit': ")
    game.send("quit")
    game.expect_text("Stopped.")
    game.expect_text("What was your secret? I'll check your replies (Enter to skip): ")
    game.send("4589")
    game.expect_text("  #2 4567: you said 0 bulls, 0 cows, but 4589 gives 2 bulls, 0 cows")
    assert game.finish() == 0


def test_the_last_game_analysed_in_its_variants_style() -> None:
    mm = Rules.parse("mm")
    secret = seeded_secret(mm, 3).text
    guess = other_than(secret, "1234", "5566")
    assert play("--rules", "mm", "--seed", "3", lines=[guess, secret]).exit_code == 0
    bulls, cows = bulls_cows(secret, guess)
    result = CliRunner().invoke(main, ["analyse", "--last"])
    assert result.exit_code == 0, result.output
    assert f"1. {guess}  {bulls}B{cows}W  1,296 codes -> " in result.stdout
    words = CliRunner().invoke(main, ["analyse", "--last", "--reply-style", "words"])
    assert f"1. {guess}  {bulls} bull" in words.stdout


def test_assist_with_an_optimal_strategy_off_its_tree_answers_and_says_how() -> None:
    result = CliRunner().invoke(main, ["assist", "--strategy", "optimal"], input="9876 0 1\n")
    assert result.exit_code == 0, result.output
    assert "it can only continue its own games" not in result.output
    assert (
        "Suggested guess: 8012 (the optimal tree, by symmetry: this game is one of its own)"
        in result.stdout
    )


@pytest.mark.parametrize(
    "moves", [["quit"], ["012", "undo", "quit"], ["012", "quit"], ["012", "undo", "013", "quit"]]
)
def test_the_terminal_and_the_web_share_the_same_games(record: str, moves: list[str]) -> None:
    """A game counts (and offers its result to share) in the terminal exactly where it does
    on the web, by ``analysis.result_to_share``: a guess taken back, then given up, is a loss
    to share; given up before any guess, it does not count. Against the adversary, whose
    first reply is never a win, the same moves give the same result whatever the seed."""
    import warnings

    from bullscows.analysis import result_to_share
    from bullscows.sessions import Adversary
    from bullscows.sessions.moves import read_move
    from bullscows.standings import ABANDONED
    from bullscows.web.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    game = Adversary(P3, seed=1)
    for typed in moves:
        game.apply(read_move(game, typed))
    expected = result_to_share(game)
    with TestClient(create_app(record, warm=False)) as client:
        created = client.post("/api/games", json={"rules": "p3c4n", "adversary": True})
        game_id = created.json()["id"]
        for typed in moves:
            action = {"undo": "undo", "quit": "give-up"}.get(typed, "guess")
            body = {"code": typed} if action == "guess" else {}
            answered = client.post(f"/api/games/{game_id}/{action}", json=body)
            assert answered.status_code == 200, answered.text
        state = answered.json()["state"]
    assert state.get("grid") == expected and state["counted"] is (expected is not None)
    shown = play("--rules", "p3c4n", "--adversary", "--seed", "2", lines=moves).stdout
    if expected is None:
        assert shown.splitlines()[-1] == ABANDONED and "To share" not in shown
    else:
        assert f"To share (no code in it):\n{expected}\n" in shown and ABANDONED not in shown
