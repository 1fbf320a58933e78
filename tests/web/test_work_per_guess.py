"""The work of a guess request, counted: the database statements it sends and the templates
it renders, through the routes (the API's and the form's, with the page the browser then
asks), so that work added to every guess (a lookup, a second read, a render) shows here
rather than only as a slower load run (``benchmarks/web_load.py``)."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from bullscows.web import common
from bullscows.web.storage import Store

from .conftest import move, start, submit

#: Guesses that cannot be the secret (repeats; the secrets' symbols are distinct), so the game
#: goes on whatever its secret.
WIDER = "bc:guesses=p4c10r"
#: Seconds the benchmark's process may take on a loaded machine (it takes a few).
LIMIT = 300
#: The statements of a move: the game read by its key once (the first move this process makes
#: on it; it keeps the game for the next), and written by its key with a compare-and-set.
READ = "SELECT games.record, games.mode, games.version FROM games WHERE games.id = ?"
WRITE = "UPDATE games SET record=?, updated=?, version=(games.version + ?) WHERE games.id = ?"


@contextmanager
def statements(store: Store) -> Iterator[list[str]]:
    """The SQL ``store`` sends meanwhile, each on one line."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        sent.append(" ".join(statement.split()))

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the templates the app renders from now on."""
    shown: list[str] = []
    respond = common.templates.TemplateResponse

    def counted(request: Any, name: str, *args: Any, **kwargs: Any) -> Any:
        shown.append(name)
        return respond(request, name, *args, **kwargs)

    monkeypatch.setattr(common.templates, "TemplateResponse", counted)
    return shown


def store_of(client: TestClient) -> Store:
    store: Store = client.app.state.games.store  # type: ignore[attr-defined]
    return store


def test_an_api_guess_reads_the_game_once_and_writes_it_once(
    client: TestClient, renders: list[str]
) -> None:
    game_id, _ = start(client, mode="play", rules=WIDER)
    with statements(store_of(client)) as sent:
        for code in ("0000", "1111", "2222"):
            move(client, game_id, "guess", code=code)
    assert [s.startswith(READ) for s in sent] == [True, False, False, False]
    assert all(s.startswith(WRITE) for s in sent[1:]), sent
    assert renders == []


def test_a_guess_typed_in_the_page_is_a_move_and_one_page(
    client: TestClient, renders: list[str]
) -> None:
    """The form's post writes the move and redirects; the page it redirects to reads the game
    (one statement, by its key) and renders one template: no lookup of the player's games,
    of a kept analysis or of the daily puzzle."""
    response = client.post("/new/play", data={"rules": WIDER, "strategy": "minimax"})
    page = response.headers["location"]
    game_id = page.rsplit("/", 1)[1]
    move(client, game_id, "guess", code="0000")  # the game now kept by this process
    for code in ("1111", "2222"):
        with statements(store_of(client)) as sent:
            posted = submit(client, page, {"say": code})  # reads the page's move number
        assert posted.status_code == 303 and sent[-1].startswith(WRITE)
        assert [s.startswith(READ) for s in sent] == [True, False], sent  # the page, the move
        renders.clear()
        with statements(store_of(client)) as sent:
            shown = client.get(posted.headers["location"])
        assert shown.status_code == 200 and code in shown.text
        assert [s.startswith(READ) for s in sent] == [True] and renders == ["game.html"], sent


def test_the_benchmark_counts_the_work_of_each_kind() -> None:
    """``benchmarks/guess_work.py``, whose figures docs/server.md quotes, in its own process
    (it instruments SQLAlchemy, jinja and the threads' profiles for the whole process)."""
    script = Path(__file__).parents[2] / "benchmarks" / "guess_work.py"
    done = subprocess.run([sys.executable, str(script), "--games", "3"], capture_output=True,
                          text=True, timeout=LIMIT, check=True)  # fmt: skip
    api, page = done.stdout.split("\npage: ")
    assert api.startswith("api: ") and "guess requests (3 games of mm" in page
    assert "renders        0.00 per guess" in api and "renders        1.00 per guess" in page
    assert re.search(r"UPDATE +1\.00 per guess", api) and re.search(r"calls +\d+ per", page)
