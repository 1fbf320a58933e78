"""The web app on PostgreSQL: a real server (a cluster made for the test, on 127.0.0.1 and a
free port), a game played half, the app started again over the same database, the game
finished. PostgreSQL's programs come from Debian's package (``.ci/run`` installs it)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bullscows.rules import Rules
from bullscows.sessions import Codebreaker
from bullscows.web.app import create_app

from .conftest import TestClient, move, start

HOW = "install Debian's PostgreSQL (apt-get install -y postgresql): the tests start a cluster"


def _program(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))), None
    )
    if found is None:
        pytest.fail(f"PostgreSQL's {name} is missing: {HOW}")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster of its own; its SQLAlchemy URL. Stopped and removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="bullscows-pg-"))  # where the server's user can go
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", _free_port()
    run = [*as_user]
    subprocess.run([*run, _program("initdb"), "-D", str(data), "-A", "trust", "-U", "bullscows"],
                   check=True, capture_output=True)  # fmt: skip
    options = f"-k {folder} -p {port} -c listen_addresses=127.0.0.1"
    subprocess.run([*run, _program("pg_ctl"), "-D", str(data), "-o", options, "-w", "start",
                    "-l", str(folder / "log")], check=True, capture_output=True)  # fmt: skip
    try:
        yield f"postgresql+psycopg://bullscows@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*run, _program("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       check=False, capture_output=True)  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


def test_a_game_on_postgresql_goes_on_after_the_app_restarts(postgres: str) -> None:
    solver = Codebreaker(Rules.parse("bc"), "minimax")
    with TestClient(create_app(postgres, warm=False)) as client:
        game_id, _ = start(client, mode="play", rules="bc")
        for _ in range(2):
            body = move(client, game_id, "guess", code=solver.suggest().text)
            solver.reply(body["reply"]["pair"])
        before = body["state"]["guesses"]
    with TestClient(create_app(postgres, warm=False)) as client:  # a new app, same database
        state = client.get(f"/api/games/{game_id}").json()["state"]
        assert state["guesses"] == before and not state["over"]
        while not state["over"]:
            body = move(client, game_id, "guess", code=solver.suggest().text)
            state = body["state"]
            if not state["over"]:
                solver.reply(body["reply"]["pair"])
        assert state["status"] == "solved" and state["guesses"][:2] == before
