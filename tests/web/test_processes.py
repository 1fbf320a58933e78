"""Servers in several processes on one database lose no move: five games, each sent twenty
guesses at once, alternating between two servers (or spread by the kernel over the workers of
``serve --workers 2``). Every guess answered 200 is in the stored game exactly once, and the
history each answer showed is a beginning of the stored one (nothing reordered). On SQLite and
on PostgreSQL."""

from __future__ import annotations

import itertools
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest

from .conftest import server

GAMES, GUESSES = 5, 20
#: Twenty different codes of bc, to tell each guess from the others.
PERMUTATIONS = itertools.permutations("0123456789", 4)
CODES = ["".join(code) for code in itertools.islice(PERMUTATIONS, 0, 4_000, 200)]


def hammer(bases: list[str]) -> None:
    """The games started, the guesses sent at once, and each stored game checked."""
    with httpx.Client(timeout=60) as http:
        ids = [http.post(f"{bases[0]}/api/games", json={"mode": "play", "rules": "bc",
                                                       "hints": False}).json()["id"]
               for _ in range(GAMES)]  # fmt: skip

    def guess(job: tuple[int, int]) -> tuple[str, str, list[str]] | None:
        game, number = job
        base = bases[number % len(bases)]
        with httpx.Client(timeout=60) as http:
            answer = http.post(f"{base}/api/games/{ids[game]}/guess", json={"code": CODES[number]})
        if answer.status_code != 200:  # a guess after the game was won; nothing else
            assert answer.status_code == 400 and "already broken" in answer.json()["error"]
            return None
        shown = [step["guess"] for step in answer.json()["state"]["guesses"]]
        return ids[game], CODES[number], shown

    jobs = [(game, number) for number in range(GUESSES) for game in range(GAMES)]
    with ThreadPoolExecutor(max_workers=GAMES * 4) as pool:
        answered = [result for result in pool.map(guess, jobs) if result is not None]
    with httpx.Client(timeout=60) as http:
        states = {game_id: http.get(f"{bases[-1]}/api/games/{game_id}").json()["state"]
                  for game_id in ids}  # fmt: skip
    stored = {game_id: [step["guess"] for step in state["guesses"]]
              for game_id, state in states.items()}  # fmt: skip
    for game_id, state in states.items():  # a guess is refused only once its game is won
        if len(stored[game_id]) < GUESSES:
            assert state["over"] and state["guesses"][-1]["reply"]["win"], state
    for game_id, code, shown in answered:
        history = stored[game_id]
        assert Counter(history)[code] == 1, (code, history)  # kept, and kept once
        assert history[: len(shown)] == shown and shown[-1] == code  # in the order answered
    for game_id, history in stored.items():
        acknowledged = [code for found, code, _ in answered if found == game_id]
        assert sorted(history) == sorted(acknowledged)  # nothing stored that was not answered


@pytest.mark.parametrize("layout", ["two servers", "--workers 2"])
def test_no_move_lost_across_processes_on_sqlite(tmp_path: Path, layout: str) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with ExitStack() as stack:
        if layout == "two servers":
            bases = [stack.enter_context(server(database)) for _ in range(2)]
        else:
            bases = [stack.enter_context(server(database, "--workers", "2"))]
        hammer(bases)


def test_no_move_lost_across_processes_on_postgresql(postgres: str) -> None:
    with server(postgres) as first, server(postgres) as second:
        hammer([first, second])
