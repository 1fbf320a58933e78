"""``bullscows serve`` refuses, before it listens, what would leave it serving nothing: a rate
that allows no game, a database it cannot keep games in. One line each, exit 1, no traceback,
and no folder made anywhere."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from bullscows.cli import main
from bullscows.web.storage import shown_url


def serve(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["serve", "--port", "0", *args])
    return result.exit_code, result.output


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--games-rate", "0/minute", "'0/minute': 0 allows none; give at least 1"),
        ("--uploads-rate", "0/day", "'0/day': 0 allows none; give at least 1"),
        ("--games-rate", "5/minute;10/hour", "'5/minute;10/hour': give one rate, such as"),
        ("--games-rate", "-1/minute", "'-1/minute': give a rate such as '60/minute'"),
    ],
)
def test_a_rate_that_allows_nothing_is_refused(option: str, value: str, words: str) -> None:
    code, output = serve("--database", "sqlite://", option, value)
    assert code == 2 and f"Invalid value for '{option}': {words}" in output, output
    assert "Traceback" not in output and "serving" not in output


def database_cases(tmp_path: Path) -> dict[str, tuple[str, str]]:
    """Each database URL a server cannot use, and the words its refusal says."""
    (tmp_path / "notes.txt").write_text("not a database\n")
    with sqlite3.connect(tmp_path / "places.sqlite") as other:
        other.execute("CREATE TABLE bookmarks (url TEXT)")
    other.close()
    return {
        "missing folder": (
            f"sqlite:///{tmp_path}/missing/deeper/games.sqlite3",
            f"the folder {tmp_path}/missing/deeper does not exist: create it first",
        ),
        "a folder named": (f"sqlite:///{tmp_path}", f"{tmp_path} is a folder: name a file in it"),
        "a file as folder": (
            f"sqlite:///{tmp_path}/notes.txt/games.sqlite3",
            f"{tmp_path}/notes.txt is not a folder",
        ),
        "not SQLite": (
            f"sqlite:///{tmp_path}/notes.txt",
            f"{tmp_path}/notes.txt is not a SQLite database: name a new file",
        ),
        "another program's": (
            f"sqlite:///{tmp_path}/places.sqlite",
            "another program's (tables bookmarks): name a new file, or one this program made",
        ),
        "not writable": ("sqlite:////proc/games.sqlite3", "/proc/games.sqlite3 cannot be written"),
        "unknown dialect": ("nosuch://x", "no kind of database is called 'nosuch'"),
        "malformed URL": ("://games", "this is not a database URL; give a SQLAlchemy URL"),
        "driver missing": ("mysql://host/games", "its driver is not installed"),
    }


CASES = ["missing folder", "a folder named", "a file as folder", "not SQLite", "another program's",
         "not writable",
         "unknown dialect", "malformed URL", "driver missing"]  # fmt: skip


@pytest.mark.parametrize("case", CASES)
def test_a_database_it_cannot_keep_games_in_is_one_line(case: str, tmp_path: Path) -> None:
    url, words = database_cases(tmp_path)[case]
    before = sorted(tmp_path.rglob("*"))
    code, output = serve("--database", url)
    assert code == 1 and output.startswith(f"Error: database '{shown_url(url)}': "), output
    assert words in output and output.count("\n") == 1, output
    assert "Traceback" not in output and "serving" not in output
    assert sorted(tmp_path.rglob("*")) == before  # no folder, no file made
    assert (tmp_path / "notes.txt").read_text() == "not a database\n"


def test_the_default_database_s_folder_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's data directory is created on first use, as the default file needs it."""
    from bullscows.web.storage import DATABASE_ENV, Store, default_url

    monkeypatch.delenv(DATABASE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path}/data/bullscows/web.sqlite3"
    Store().engine.dispose()
    assert (tmp_path / "data" / "bullscows" / "web.sqlite3").is_file()


def test_the_database_variable_takes_a_plain_file_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``BULLSCOWS_DATABASE=club.sqlite3 bullscows record`` names a file, as ``--database``
    does; a URL stays a URL."""
    from bullscows.web.storage import DATABASE_ENV, default_url

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(DATABASE_ENV, "club.sqlite3")
    assert default_url() == f"sqlite:///{tmp_path / 'club.sqlite3'}"
    monkeypatch.setenv(DATABASE_ENV, "sqlite:///other.sqlite3")
    assert default_url() == "sqlite:///other.sqlite3"


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:"])
def test_several_workers_are_refused_a_database_in_memory(url: str) -> None:
    """Each process would have its own: a game started on one would be missing on another."""
    code, output = serve("--database", url, "--workers", "2")
    assert code == 1 and output == (
        f"Error: database {url!r} is in memory, one per process: 2 workers need a file "
        "(sqlite:///games.sqlite3) or a server's database\n"
    )


@pytest.mark.parametrize("url", ["", "  "])
def test_an_empty_database_url_is_refused_not_taken_for_the_default(url: str) -> None:
    """``--database "$DB"`` with the variable unset would else use the default file."""
    code, output = serve("--database", url)
    assert code == 2, output
    assert f"Invalid value for '--database': {url!r}: give a SQLAlchemy URL or a SQLite" in output


def test_a_plain_path_is_a_sqlite_file_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text without '://' names a SQLite file, relative to the folder the command runs in:
    the refusal of its missing folder quotes the absolute URL it was read as."""
    monkeypatch.chdir(tmp_path)
    code, output = serve("--database", "missing/games.sqlite3")
    assert code == 1 and output == (
        f"Error: database 'sqlite:///{tmp_path}/missing/games.sqlite3': the folder "
        f"{tmp_path}/missing does not exist: create it first, or name another\n"
    ), output
    assert not (tmp_path / "missing").exists()


def test_a_data_folder_that_cannot_be_made_says_which_variables_choose_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bullscows.errors import BullsCowsError
    from bullscows.web.storage import DATABASE_ENV, Store

    (tmp_path / "file").write_text("")
    monkeypatch.delenv(DATABASE_ENV, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file"))
    with pytest.raises(BullsCowsError) as refused:
        Store()
    assert str(refused.value) == (
        f"cannot make the data folder {tmp_path}/file/bullscows (Not a directory): set "
        "$XDG_DATA_HOME to a folder you may write, or $BULLSCOWS_DATABASE to another database"
    )
