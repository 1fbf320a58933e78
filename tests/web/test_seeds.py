"""A seed in the web app is what it is on the command line: a whole number of at most 18
digits, either sign, refused with the same words. A server seeded (``create_app(seed=...)``,
``BULLSCOWS_SEED``) starts the same games in the same order each run, each of its own seed."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from bullscows.seeding import MAX_SEED
from bullscows.web.app import SEED_ENV, create_app, worker_seed
from bullscows.web.process import BULLSCOWS
from bullscows.web.storage import Store

from .conftest import server, start


def test_the_bench_page_takes_a_negative_seed_and_refuses_a_long_one(client: TestClient) -> None:
    params = {"rules": "p3c4n", "strategy": "random"}
    assert client.get("/bench", params={**params, "seed": "-1"}).status_code == 200
    assert client.get("/api/bench", params={**params, "seed": str(-MAX_SEED)}).status_code == 200
    refused = client.get("/bench", params={**params, "seed": str(MAX_SEED + 1)})
    assert refused.status_code == 400
    assert "give a whole number of at most 18 digits, either sign" in refused.text
    typed = client.get("/bench", params={**params, "seed": "x"})  # the form's free box
    assert typed.status_code == 400 and 'id="bench-form"' in typed.text
    assert "seed &#39;x&#39;: give a whole number of at most 18 digits" in typed.text
    assert "valid integer" not in typed.text
    assert client.get("/api/bench", params={**params, "seed": str(MAX_SEED + 1)}).status_code in (
        400, 422,
    )  # fmt: skip


#: The new games a seeded server is asked for, in this order (every mode that draws).
SETUPS = [
    {"mode": "play", "rules": "bc"},
    {"mode": "play", "rules": "mm"},
    {"mode": "duel", "rules": "bc", "strategy": "random"},
    {"mode": "solve", "rules": "mm", "strategy": "random"},
    {"mode": "play", "rules": "bc"},
]


def drawn(client: TestClient | httpx.Client, database: str
          ) -> list[tuple[str, int, str | None]]:  # fmt: skip
    """The id, seed and secret of each game of ``SETUPS``, started in order through the API."""
    ids = [start(client, **setup)[0] for setup in SETUPS]
    with Store(database) as store:
        records = [(game_id, store.read(game_id)) for game_id in ids]
    return [(game_id, found[0].seed, found[0].secret) for game_id, found in records if found]


def test_apps_seeded_alike_start_the_same_games_in_the_same_order(tmp_path: Path) -> None:
    runs = {}
    for name, seed in (("first", 5), ("again", 5), ("other", -5), ("unseeded", None)):
        database = f"sqlite:///{tmp_path / name}.sqlite3"
        with TestClient(create_app(database, warm=False, seed=seed)) as client:
            runs[name] = drawn(client, database)
    first = runs["first"]
    assert len(first) == len(SETUPS) and runs["again"] == first
    assert len({seed for _, seed, _ in first}) == len(SETUPS)  # each game its own seed
    assert len({game_id for game_id, _, _ in first}) == len(SETUPS)
    assert first[0][2] is not None and first[1][2] is not None  # play's secrets
    assert runs["other"] != first and runs["unseeded"] != first  # -5 is not 5


def test_two_servers_seeded_by_the_environment_draw_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SEED_ENV, "2026")
    runs = []
    for name in ("one", "two"):
        database = f"sqlite:///{tmp_path / name}.sqlite3"
        with server(database) as base, httpx.Client(base_url=base, timeout=300) as client:
            runs.append(drawn(client, database))
    assert runs[0] == runs[1] and len(runs[0]) == len(SETUPS)  # ids too: the same links
    assert len({seed for _, seed, _ in runs[0]}) == len(SETUPS)


def test_a_seed_that_is_no_seed_stops_the_server_with_one_line(tmp_path: Path) -> None:
    """Refused before the server gets ready or says it serves (exit 1), as any bad option."""
    env = {**os.environ, SEED_ENV: "seven"}
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    result = subprocess.run(
        [str(BULLSCOWS), "serve", "--port", "0", "--database", database],
        env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    said = result.stdout + result.stderr
    assert (result.returncode, result.stdout) == (1, ""), said
    assert (
        result.stderr
        == f"Error: {SEED_ENV} 'seven': give a whole number of at most 18 digits, either sign\n"
    )


def test_each_worker_of_a_seeded_server_draws_its_own_games() -> None:
    assert worker_seed(5) == 5  # the one process of a server
    spawn = multiprocessing.get_context("spawn")
    workers = []
    for _ in range(2):
        with spawn.Pool(1) as pool:
            workers.append(pool.apply(worker_seed, (5,)))
    assert 5 not in workers and workers[0] != workers[1]


def test_a_seeded_server_started_again_on_its_database_draws_new_ids(tmp_path: Path) -> None:
    """Its first ids are drawn again, and passed over where a game already holds them."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with TestClient(create_app(database, warm=False, seed=5)) as client:
        first = [start(client, mode="play")[0] for _ in range(3)]
    with TestClient(create_app(database, warm=False, seed=5)) as client:
        again = [start(client, mode="play")[0] for _ in range(3)]
        assert all(client.get(f"/api/games/{game_id}").status_code == 200 for game_id in first)
    assert not set(first) & set(again)
