"""Helpers for the web tests: an app over a fresh database, a client that plays as a person
would, and the real server in a process of its own."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
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

from bullscows.web.app import create_app

BULLSCOWS = Path(sys.executable).parent / "bullscows"


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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def server(database: str, port: int | None = None) -> Iterator[str]:
    """``bullscows serve`` on 127.0.0.1 and a free port, over ``database``; its base URL.
    The process is killed when the block ends."""
    port = port or free_port()
    env = {**os.environ, "BULLSCOWS_DATABASE": database}
    process = subprocess.Popen(
        [str(BULLSCOWS), "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base, process)
        yield base
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=30)
        assert process.stdout is not None
        process.stdout.close()


def wait_until_up(base: str, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            assert process.stdout is not None
            raise AssertionError(f"the server stopped: {process.stdout.read().decode()}")
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError(f"the server at {base} did not answer within {seconds} s")
