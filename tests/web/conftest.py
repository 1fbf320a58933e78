"""Helpers for the web tests: an app over a fresh database, a client that plays as a person
would, and the real server in a process of its own."""

from __future__ import annotations

import re
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
from bullscows.web.process import serving


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
def server(database: str) -> Iterator[str]:
    """``bullscows serve`` on 127.0.0.1 and a free port over ``database``; its base URL. The
    process is killed (SIGKILL) when the block ends."""
    with serving(database) as base:
        yield base
