"""A Store lets go of its writer file (``<database>-writer``) when closed or dropped, the
web app's own when the app stops."""

from __future__ import annotations

import contextlib
import gc
import os
from pathlib import Path

import pytest

from bullscows.records import GameRecord
from bullscows.web.app import create_app
from bullscows.web.storage import Store

from .conftest import TestClient, start

pytest.importorskip("fcntl")  # the writer file is an flock
pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


def writer_files(database: Path) -> int:
    """How many descriptors of this process are open on the database's writer file."""
    writer, count = f"{database}-writer", 0
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):  # the listing's own descriptor, closed by now
            count += os.readlink(f"/proc/self/fd/{fd}") == writer
    return count


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def test_closing_stores_leaves_no_writer_file_open(database: Path) -> None:
    url = f"sqlite:///{database}"
    with Store(url) as first:
        first.add(GameRecord("codebreaker", "bc", seed=1), "solve")
        before = writer_files(database)
        assert before == 1
        for _ in range(20):
            store = Store(url)
            assert len(store.records("solve")) == 1
            store.add(GameRecord("codebreaker", "bc", seed=2), "play")
            store.close()
        assert writer_files(database) == before
    assert writer_files(database) == 0


def test_dropping_stores_leaves_no_writer_file_open(database: Path) -> None:
    url = f"sqlite:///{database}"
    for _ in range(20):
        Store(url).add(GameRecord("codebreaker", "bc", seed=1), "solve")
    gc.collect()
    assert writer_files(database) == 0


def test_a_closed_store_writes_again(database: Path) -> None:
    store = Store(f"sqlite:///{database}")
    store.close()
    store.close()  # twice is fine
    game_id = store.add(GameRecord("codebreaker", "bc", seed=1), "solve")
    assert store.read(game_id) is not None
    assert writer_files(database) == 1
    store.close()
    assert writer_files(database) == 0


def test_a_refused_store_leaves_no_writer_file_open(database: Path) -> None:
    Store(f"sqlite:///{database}").close()
    with Store(f"sqlite:///{database}") as store, store.engine.begin() as db:
        db.exec_driver_sql("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    for _ in range(5):
        with pytest.raises(ValueError, match="schema version 999"):
            Store(f"sqlite:///{database}")
    assert writer_files(database) == 0


def test_the_app_closes_its_store_when_it_stops(database: Path) -> None:
    app = create_app(f"sqlite:///{database}", warm=False)
    with TestClient(app) as client:
        start(client, mode="play", rules="bc")  # a game written: the writer file opened
        assert writer_files(database) == 1
    assert writer_files(database) == 0


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///:memory:", "file"])
def test_an_app_started_again_finds_its_games(database: Path, url: str) -> None:
    """A stop closes the app's store; an app started again on it finds the games it kept,
    in a file or in memory (the one connection that holds them is kept open)."""
    app = create_app(f"sqlite:///{database}" if url == "file" else url, warm=False)
    with TestClient(app) as client:
        first, _ = start(client, mode="play", rules="bc")
    with TestClient(app) as client:
        assert client.get(f"/api/games/{first}").status_code == 200
