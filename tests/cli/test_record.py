"""``bullscows record``: the games kept in the data folder, per variant (in-process)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows.cli import main
from bullscows.cli.record import MODE, keep
from bullscows.sessions import Codebreaker, Codemaker, Rules
from bullscows.standings import ABANDONED
from bullscows.web.storage import Store

P3 = Rules.parse("p3c4n")


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    monkeypatch.setenv("BULLSCOWS_DATABASE", url)
    yield url


def finish(secret: str, *guesses: str, rules: Rules = P3) -> Codemaker:
    game = Codemaker(rules, secret=secret, seed=1)
    for guess in guesses:
        game.guess(guess)
    if not game.solved:
        game.give_up()
    return game


def test_an_empty_record_says_how_to_start_one(database: str) -> None:
    result = CliRunner().invoke(main, ["record"])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"No finished game yet in {database}: play one (bullscows play).\n"


def test_played_won_streaks_and_guesses_per_variant(database: str) -> None:
    for game in (
        finish("012", "013", "012"), finish("321", "321"), finish("123", "012"),
        finish("230", "230"), finish("1122", "1122", rules=Rules.parse("mm")),
    ):  # fmt: skip
        keep(game.to_record())
    unfinished = Codemaker(P3, secret="012", seed=1)
    unfinished.guess("013")
    keep(unfinished.to_record())  # not over: not counted
    keep(Codebreaker(P3).to_record())  # the computer breaking a code: not counted
    result = CliRunner().invoke(main, ["record"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1:] == [
        "p3c4n: played 4, won 3 (75%), streak 1 (best 2); wins: 2 in 1 guess, 1 in 2 guesses",
        "mm: played 1, won 1 (100%), streak 1 (best 1); wins: 1 in 1 guess",
    ]
    data = json.loads(CliRunner().invoke(main, ["record", "--json"]).stdout)
    assert data["database"] == database
    assert data["variants"][0]["distribution"] == {"1": 2, "2": 1}
    assert len(Store(database).records(MODE)) == 7


def test_a_store_that_cannot_be_written_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BULLSCOWS_DATABASE", "sqlite:////proc/no-such-folder/games.sqlite3")
    with pytest.warns(Warning, match="the game is not kept in your record: database"):
        keep(finish("012", "012").to_record())


@pytest.mark.parametrize("kept", [True, False])
def test_a_game_says_it_is_kept_only_when_it_is(
    kept: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store that cannot be written is said once, as a warning: the game's last lines do
    not say the game was kept, nor send the player to ``analyse --last``."""
    folder = tmp_path if kept else tmp_path / "missing"
    monkeypatch.setenv("BULLSCOWS_DATABASE", f"sqlite:///{folder / 'games.sqlite3'}")
    result = CliRunner().invoke(main, ["play", "--rules", "p3c5n", "--seed", "1"], input="012\n")
    assert result.exit_code == 0, result.output
    assert ("Kept in your record" in result.output) is kept, result.output
    assert ("the game is not kept in your record" in result.output) is not kept, result.output


def test_a_durability_in_the_environment_that_is_none_is_named_so(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BULLSCOWS_DURABILITY", "fsync")
    result = CliRunner().invoke(main, ["record"])
    assert result.exit_code == 1
    assert result.output == "Error: $BULLSCOWS_DURABILITY 'fsync': one of process, full\n"


@pytest.mark.parametrize("typed", ["q\n", "quit\n", "hint\nquit\n", ""])
def test_a_game_quit_before_its_first_guess_is_not_kept(database: str, typed: str) -> None:
    """Quit (or the input's end) at the first prompt, a hint asked or not: a game never
    started, not kept, and the player is told why; the record stays empty."""
    result = CliRunner().invoke(main, ["play", "--rules", "p3c4n", "--hint"], input=typed)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == ABANDONED
    assert "Kept in your record" not in result.output
    assert Store(database).records(MODE) == []
    assert CliRunner().invoke(main, ["record"]).stdout.startswith("No finished game yet")


def test_a_guess_taken_back_then_given_up_is_a_loss(database: str) -> None:
    result = CliRunner().invoke(main, ["play", "--rules", "p3c4n", "--seed", "1"],
                                input="013\nundo\nquit\n")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert ABANDONED not in result.output
    assert CliRunner().invoke(main, ["record"]).stdout.splitlines()[1] == (
        "p3c4n: played 1, won 0 (0%), streak 0 (best 0); no win yet"
    )


def test_a_game_out_of_guesses_counts_as_lost(database: str) -> None:
    keep(finish("012", "013").to_record())  # given up after a guess: lost
    out_of_guesses = Codemaker(P3, secret="012", seed=1, max_guesses=1)
    out_of_guesses.guess("013")
    keep(out_of_guesses.to_record())
    assert CliRunner().invoke(main, ["record"]).stdout.splitlines()[1] == (
        "p3c4n: played 2, won 0 (0%), streak 0 (best 0); no win yet"
    )


def test_the_win_percentage_is_rounded_to_the_nearest(database: str) -> None:
    """1 win of 6 is 16.7%: shown as 17%, by ``standings.win_percent``, which the web's record
    page shows too."""
    keep(finish("012", "012").to_record())
    for _ in range(5):
        keep(finish("012", "013").to_record())
    assert CliRunner().invoke(main, ["record"]).stdout.splitlines()[1] == (
        "p3c4n: played 6, won 1 (17%), streak 0 (best 1); wins: 1 in 1 guess"
    )
