"""What a move costs the database, and what a commit survives: a move on a game this process
wrote last is one statement (the compare-and-set ``UPDATE``), a game moved meanwhile by
another process is read again (nothing lost), and ``--durability`` sets SQLite's
``synchronous``."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import event, text

from bullscows.cli import main
from bullscows.errors import BullsCowsError
from bullscows.records import GameRecord
from bullscows.sessions import Guess
from bullscows.web.common import Games
from bullscows.web.games import Setup
from bullscows.web.storage import DURABILITY_ENV, Store


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL statements ``store`` sends while the block runs."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(statement.split()[0])

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


def guesses(games: Games, game_id: str) -> list[str]:
    record, _, _ = games.read(game_id)
    return [event["code"] for event in record.to_json()["events"] if event.get("code")]


def test_a_move_is_one_statement_and_another_process_s_move_is_read(database: str) -> None:
    here, there = Games(Store(database)), Games(Store(database))  # two processes' stores
    game_id, _ = here.start(None, Setup(mode="play", rules="mm"))
    with statements(here.store) as sent:
        here.play(None, game_id, lambda *_: Guess("1122"))
        here.play(None, game_id, lambda *_: Guess("1344"))
    assert sent == ["SELECT", "UPDATE", "UPDATE"]  # the first move reads the game, once
    there.play(None, game_id, lambda *_: Guess("3456"))
    with statements(here.store) as sent:
        _, played = here.play(None, game_id, lambda *_: Guess("6543"))
    assert sent == ["UPDATE", "SELECT", "UPDATE"]  # refused as stale, read, written
    assert played.shown.move == 5
    assert guesses(here, game_id) == ["1122", "1344", "3456", "6543"]


def test_a_stale_move_number_is_judged_on_the_stored_game(database: str) -> None:
    here, there = Games(Store(database)), Games(Store(database))
    game_id, _ = here.start(None, Setup(mode="play", rules="mm"))
    here.play(None, game_id, lambda *_: Guess("1122", number=1))
    there.play(None, game_id, lambda *_: Guess("3456", number=2))
    _, played = here.play(None, game_id, lambda *_: Guess("1344", number=3))  # not stale
    assert played.shown.move == 4
    assert guesses(there, game_id) == ["1122", "3456", "1344"]


def synchronous(store: Store) -> int:
    with store.engine.connect() as db:
        return int(db.execute(text("PRAGMA synchronous")).scalar_one())


def test_durability_sets_sqlite_s_synchronous(database: str, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:  # fmt: skip
    assert synchronous(Store(database)) == 1  # NORMAL: survives kill -9, one log write a move
    assert synchronous(Store(database, "full")) == 2  # FULL: an fsync a commit
    monkeypatch.setenv(DURABILITY_ENV, "full")
    assert synchronous(Store(database)) == 2
    monkeypatch.setenv(DURABILITY_ENV, "always")
    with pytest.raises(
        BullsCowsError, match=r"\$BULLSCOWS_DURABILITY 'always': one of process, full"
    ):
        Store(database)


def test_serve_refuses_an_unknown_durability() -> None:
    result = CliRunner().invoke(main, ["serve", "--durability", "fsync"])
    assert result.exit_code == 2
    assert "'fsync' is not one of 'process', 'full'" in result.output


def test_writers_on_one_sqlite_file_wait_for_each_other_in_the_kernel(database: str) -> None:
    """Two stores on one file (as two processes have) take turns by the ``-writer`` file's
    flock: the second write waits for the first writer, not in SQLite's sleeping retries."""
    one, two = Store(database), Store(database)
    order: list[str] = []

    def write() -> None:
        two.add(GameRecord("codemaker", "mm", seed=1), "play")
        order.append("two")

    assert one._writer is not None
    with one._writer:
        other = threading.Thread(target=write)
        other.start()
        time.sleep(0.3)
        order.append("one")
    other.join(300)
    assert order == ["one", "two"]
    assert Path(database.split("///", 1)[1] + "-writer").exists()
