"""Helpers for the web tests: an app over a fresh database, a client that plays as a person
would, and the real server in a process of its own."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from bullscows.records import GameRecord
from bullscows.web.app import create_app
from bullscows.web.process import serving
from bullscows.web.storage import Store


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, warm=False), follow_redirects=False) as test_client:
        yield test_client


def start(client: TestClient | httpx.Client, **setup: Any) -> tuple[str, dict[str, Any]]:
    """A new game through the API: its id and state."""
    response = client.post("/api/games", json=setup)
    assert response.status_code == 201, response.text
    body = response.json()
    return body["id"], body["state"]


def submit(client: TestClient | httpx.Client, page: str, data: dict[str, str], **options: Any
           ) -> httpx.Response:  # fmt: skip
    """Post a form of the game ``page`` as a browser would: with the move number that the
    page's forms carry (read from the page)."""
    found = re.search(r'name="move" value="(\d+)"', client.get(page).text)
    assert found is not None, "the page's forms carry no move number"
    return client.post(page, data={"move": found.group(1), **data}, **options)


def move(client: TestClient | httpx.Client, game_id: str, action: str, **body: Any
         ) -> dict[str, Any]:  # fmt: skip
    response = client.post(f"/api/games/{game_id}/{action}", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def refused(client: TestClient | httpx.Client, path: str, body: Any = None, status: int = 400
            ) -> str:  # fmt: skip
    """The error message of a request that must be refused with ``status``."""
    response = client.post(path, json=body) if body is not None else client.post(path)
    assert response.status_code == status, response.text
    message: str = response.json()["error"]
    assert message and "Traceback" not in message
    return message


@contextmanager
def server(database: str, *options: str) -> Iterator[str]:
    """``bullscows serve`` on 127.0.0.1 and a free port over ``database`` (with ``options``);
    its base URL. The process and its workers are killed (SIGKILL) when the block ends. It
    answers within seconds; a loaded machine is given minutes."""
    with serving(database, *options, seconds=300) as base:
        yield base


#: A wide variant: 40,320 secrets, 2,097,152 guesses (its computations are large).
WIDE = "p7c8n:guesses=p7c8r"


def wide_game(database: str) -> str:
    """A game of ``WIDE`` after one guess, with 14,833 codes left, so that its analysis takes
    minutes (on a loaded 2-core machine, 622 s), written straight into ``database``: made
    through the server, its first state and guess are computed within the server's budget,
    which a test's small budget may not leave them on a loaded machine."""
    record = GameRecord.loads(json.dumps({
        "version": 1, "kind": "codemaker", "rules": WIDE, "seed": 1, "secret": "0123456",
        "strategy": {"name": "minimax"}, "events": [{"do": "guess", "code": "1234567"}],
    }))  # fmt: skip
    with Store(database) as store:
        return store.add(record, "play")


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: PostgreSQL's programs come from Debian's package (``.ci/run`` installs it).
HOW = "install Debian's PostgreSQL (apt-get install -y postgresql): the tests start a cluster"


def _program(name: str) -> str:
    found = shutil.which(name) or next(
        (str(p) for p in sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))), None
    )
    if found is None:
        pytest.fail(f"PostgreSQL's {name} is missing: {HOW}")
    return found


@pytest.fixture
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster of its own; its SQLAlchemy URL. Stopped and removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="bullscows-pg-"))  # where the server's user can go
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        shutil.chown(folder, "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    run = [*as_user]
    subprocess.run([*run, _program("initdb"), "-D", str(data), "-A", "trust", "-U", "bullscows"],
                   check=True, capture_output=True)  # fmt: skip
    for _ in range(3):  # a port free a moment ago may be taken by the time it listens
        port = free_port()
        options = f"-k {folder} -p {port} -c listen_addresses=127.0.0.1"
        # -t: wait minutes for it to answer (pg_ctl's own 60 s may pass on a loaded machine)
        start = [*run, _program("pg_ctl"), "-D", str(data), "-o", options, "-w", "-t", "300",
                 "start", "-l", str(folder / "log")]  # fmt: skip
        started = subprocess.run(start, capture_output=True, check=False)
        if started.returncode == 0:
            break
    else:
        pytest.fail(f"PostgreSQL did not start: {started.stderr.decode(errors='replace')}")
    try:
        yield f"postgresql+psycopg://bullscows@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*run, _program("pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       check=False, capture_output=True)  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)
