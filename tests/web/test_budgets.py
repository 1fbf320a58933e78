"""Every computation a request can start runs within a budget: against a real server giving
each request 0.3 s (an analysis three times as much), each large request (an analysis on
p7c8n:guesses=p7c8r, minutes; an optimal tree searched on demand for a hint or the explorer,
p9c2r, over a minute) is answered
422 with the command that runs it at home, and its process is gone; so are a solve game's
guesses there (2.5 s), the check of Logik's entropy tree uploaded (4 s) and the bench on bc
(half a second), given a fiftieth of a second. A client that leaves stops its computation;
moves go on meanwhile. A small computation, on the request's own thread, is stopped at the
budget too.

Each computation stopped takes at least 20 times its budget on a loaded 2-core machine (the
times above), so that a machine 5 times faster stops it as surely."""

from __future__ import annotations

import gzip
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bullscows.web import common
from bullscows.web.app import create_app
from bullscows.web.limits import Limits

from .conftest import WIDE, TestClient, server, wide_game

LOGIK_TREE = Path(__file__).resolve().parents[2] / "docs" / "trees" / "logik-entropy.json.gz"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server giving a request 0.3 s: its base URL and its database."""
    folder = tmp_path_factory.mktemp("budgets")
    database = f"sqlite:///{folder / 'games.sqlite3'}"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("BULLSCOWS_CACHE", str(folder / "cache"))  # no tree searched before
        with server(database, "--compute-seconds", "0.3") as url:
            yield url, database


def too_large(answer: httpx.Response, command: str, seconds: str = "0.3") -> None:
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]
    assert message.startswith(f"too large for the server: it gives one request {seconds} s; "
                              f"run it yourself with: {command}"), message  # fmt: skip


def test_each_large_request_is_stopped_at_its_budget(served: tuple[str, str]) -> None:
    base, database = served
    with httpx.Client(base_url=base, timeout=60) as http:
        game_id = wide_game(database)  # its analysis: minutes, hundreds of times the budget
        analyse = f"bullscows analyse --rules {WIDE} --strategy minimax '1234567 "
        too_large(http.get(f"/api/games/{game_id}/analysis"), analyse, "0.9")  # 3 budgets
        # A minimax hint there takes 0.05 s (a guess per symmetry class): an optimal one
        hinted = http.post("/api/games", json={"mode": "play", "rules": "p9c2r",
                                               "strategy": "optimal"}).json()["id"]  # fmt: skip
        too_large(http.post(f"/api/games/{hinted}/hint"),
                  "bullscows play --rules p9c2r --hint --strategy optimal")  # fmt: skip
        assert http.get(f"/api/games/{hinted}").json()["state"]["hints_given"] == 0
        too_large(http.get("/api/tree", params={"src": "build:optimal:p9c2r"}),
                  "bullscows tree --strategy optimal --rules p9c2r")  # fmt: skip
        page = http.get(f"/game/{game_id}/analysis")  # the page's words: no command
        assert page.status_code == 503 and "Reload this page" in page.text
        load = http.get("/api/load").json()
        assert load["running"] == 0 and load["stopped"] == load["started"] == 4


def test_requests_of_seconds_are_stopped_at_their_budget(database: str) -> None:
    """In pooled processes given a fiftieth of a second: the computer's guesses in a solve
    game of ``WIDE`` (the first, a guess per symmetry class, may fit in it; the second, over
    8,712 codes, scores a billion pairs, ``heuristic.PAIR_BUDGET``: 2.5 s) and the check of
    Logik's entropy tree uploaded (32,768 secrets: 4 s)."""
    limits = Limits(seconds=0.02)
    with TestClient(create_app(database, warm=False, limits=limits)) as http:
        tree = gzip.decompress(LOGIK_TREE.read_bytes())
        upload = http.post("/tree/upload", files={"file": ("logik.json", tree)})
        assert upload.status_code == 422 and "bullscows tree --check FILE.json" in upload.text
        assert "it gives one request 0.02 s" in upload.text
        solve = http.post("/api/games", json={"mode": "solve", "rules": WIDE})
        finished = int(solve.status_code == 201)
        if finished:
            solve = http.post(f"/api/games/{solve.json()['id']}/reply", json={"reply": "0 3"})
        assert solve.status_code == 422, solve.text
        assert solve.json()["error"] == (
            "too large for the server: it gives one request 0.02 s; run it yourself with: "
            f"bullscows solve --rules {WIDE} --strategy minimax"
        )
        load = http.get("/api/load").json()
        assert load == {"running": 0, "started": 2 + finished, "stopped": 2}, load


def test_the_bench_is_stopped_at_its_budget(database: str) -> None:
    """The bench of bc (5,040 secrets, five strategies: half a second) in a pooled process,
    given a fiftieth of a second."""
    with TestClient(create_app(database, warm=False, limits=Limits(seconds=0.02))) as http:
        answer = http.get("/api/bench", params={"rules": "bc"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"].startswith(
            "too large for the server: it gives one request 0.02 s; run it yourself with: "
            "bullscows bench --rules bc --strategy simple --strategy minimax"
        )
        assert http.get("/api/load").json() == {"running": 0, "started": 1, "stopped": 1}


def test_a_client_that_leaves_stops_its_computation(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with server(database, "--compute-seconds", "300") as url:
        http = httpx.Client(base_url=url, timeout=60)
        game_id = wide_game(database)
        with pytest.raises(httpx.ReadTimeout):  # the client gives up after a second
            http.get(f"/api/games/{game_id}/analysis", timeout=1)
        other = http.post("/api/games", json={"mode": "play", "rules": "bc"}).json()["id"]
        assert http.post(f"/api/games/{other}/guess", json={"code": "0123"}).status_code == 200
        for _ in range(600):  # it notices within a tenth of a second: a minute on a loaded machine
            load = http.get("/api/load").json()
            if load["running"] == 0:
                break
            time.sleep(0.1)
        http.close()
    # stopped once started; on a loaded machine the client may leave before it starts
    if load["started"] == 0:
        pytest.skip("the client left before its computation started")
    assert load["running"] == 0 and load["stopped"] == load["started"] <= 1, load


def test_a_small_computation_on_the_request_s_thread_is_stopped_too(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the pool's threshold a computation runs on the request's thread, under the same
    budget: made slow here, a move and an analysis are answered 422, and the game is as it
    was."""

    def slowly(function: Any) -> Any:
        def slow(*args: Any) -> Any:
            end = time.monotonic() + 30
            while time.monotonic() < end:
                sum(range(1000))
            return function(*args)

        return slow

    with TestClient(create_app(database, warm=False)) as http:  # the kernels loaded at leisure
        game_id = http.post("/api/games", json={"mode": "play", "rules": "mm"}).json()["id"]
        assert http.post(f"/api/games/{game_id}/guess", json={"code": "1122"}).status_code == 200
    app = create_app(database, warm=False, limits=Limits(seconds=0.3))
    with TestClient(app) as http:
        monkeypatch.setattr(common, "apply", slowly(common.apply))
        monkeypatch.setattr(common, "analysed_of", slowly(common.analysed_of))
        answer = http.post(f"/api/games/{game_id}/guess", json={"code": "3456"})
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"] == ("too large for the server: it gives one request 0.3 s; "
                                          "run it yourself with: bullscows play --rules mm "
                                          "--hint --strategy minimax")  # fmt: skip
        analysis = http.get(f"/api/games/{game_id}/analysis")
        assert analysis.status_code == 422 and "bullscows analyse --rules mm" in analysis.text
        monkeypatch.undo()
        state = http.get(f"/api/games/{game_id}").json()["state"]
        assert [g["guess"] for g in state["guesses"]] == ["1122"]
        assert http.get("/api/load").json() == {"running": 0, "started": 0, "stopped": 2}


def test_a_pooled_computation_runs_to_its_budget_not_to_a_crash(tmp_path: Path) -> None:
    """The process computations fork from holds no OpenMP threads (a child forked after
    GNU OpenMP started is terminated at once): the wide analysis runs in its process until
    its budget and is answered 422, never "the computation's process died"."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with (
        server(database, "--compute-seconds", "6") as base,
        httpx.Client(base_url=base, timeout=60) as http,
    ):
        game_id = wide_game(database)
        for _ in range(2):  # the second forks from a forkserver surely started and warm
            answer = http.get(f"/api/games/{game_id}/analysis")
            assert answer.status_code == 422, answer.text
            assert "too large for the server" in answer.json()["error"]
