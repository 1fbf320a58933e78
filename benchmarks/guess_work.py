"""The work of one guess request, in figures that do not depend on the machine's load.

Run: .venv/bin/python benchmarks/guess_work.py [--games 100] [--rules mm] [--kind api page]
     [--top 0]

In this process (a test client over a fresh SQLite file, no HTTP), ``--games`` games are
started through the API and each is given two guesses (the first move this process makes on a
game reads it; the second finds it kept). ``api`` posts each guess to the API;
``page`` posts it as the game's form does and asks the page it redirects to, as a browser
does. Printed per guess request: the database statements (and each kind of them) and the rows
they return (SQLAlchemy's events, and its cursors' fetches), the templates rendered, the
function calls of the server's threads (``cProfile``) and, load-dependent, the CPU seconds of
the process (the test client's included). ``--top N`` adds the profile's N heaviest
functions, by cumulative time. Put another checkout's ``src`` first on ``PYTHONPATH`` to
count an older version's work with the same script.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import tempfile
import threading
import time
import warnings
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any

import jinja2
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.engine import cursor as cursors

from bullscows import Code, Rules
from bullscows.web.app import create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

COUNTED: Counter[str] = Counter()
#: Whether the requests made now are counted (not the games' creation).
COUNTING = threading.Event()
PROFILES: list[cProfile.Profile] = []


def count_statement(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
    if COUNTING.is_set():
        COUNTED["statements"] += 1
        COUNTED[statement.split()[0].upper()] += 1


def counting_rows(fetch: Callable[..., Any]) -> Callable[..., Any]:
    def fetched(*args: Any, **kwargs: Any) -> Any:
        rows = fetch(*args, **kwargs)
        if COUNTING.is_set():
            COUNTED["rows"] += len(rows) if isinstance(rows, list) else rows is not None
        return rows

    return fetched


def counting_renders(render: Callable[..., str]) -> Callable[..., str]:
    def rendered(*args: Any, **kwargs: Any) -> str:
        if COUNTING.is_set():
            COUNTED["renders"] += 1
        return render(*args, **kwargs)

    return rendered


def profile_threads(_frame: FrameType, _event: str, _arg: Any) -> None:
    """Each server thread's first event while counting starts a profile of that thread."""
    if COUNTING.is_set():
        profile = cProfile.Profile()
        PROFILES.append(profile)
        profile.enable()


def instrument() -> None:
    event.listen(Engine, "before_cursor_execute", count_statement)
    strategies = [cursors.CursorFetchStrategy, *cursors.CursorFetchStrategy.__subclasses__()]
    for strategy in strategies:
        for name in ("fetchone", "fetchmany", "fetchall"):
            if name in vars(strategy):
                setattr(strategy, name, counting_rows(vars(strategy)[name]))
    jinja2.Template.render = counting_renders(jinja2.Template.render)  # type: ignore[method-assign]
    threading.setprofile(profile_threads)


def measure(kind: str, games: int, rules: Rules, top: int) -> None:
    """Print the work per guess request of ``kind`` (``api`` or ``page``)."""
    guesses = [Code.of_index(0, rules).text, Code.of_index(rules.size - 1, rules).text]
    with (
        tempfile.TemporaryDirectory() as folder,
        TestClient(create_app(f"sqlite:///{folder}/games.sqlite3", warm=False),
                   follow_redirects=False) as client,
    ):  # fmt: skip
        made = [client.post("/api/games", json={"mode": "play", "rules": rules.spec})
                for _ in range(games + 1)]  # fmt: skip
        ids = [response.json()["id"] for response in made]
        warm = ids.pop()  # the first request's costs (imports, compiled kernels) paid
        client.post(f"/api/games/{warm}/guess", json={"code": guesses[0]})
        client.get(f"/game/{warm}")
        served = client.app.state.games  # type: ignore[attr-defined]
        COUNTED.clear()
        PROFILES.clear()
        requests, cpu = 0, 0.0
        for number, code in enumerate(guesses, start=1):
            for game_id in ids:
                if served.load(game_id)[0].over:  # in this thread: neither counted nor profiled
                    continue  # broken by the first guess: no second
                started = time.process_time()
                COUNTING.set()
                if kind == "api":
                    response = client.post(f"/api/games/{game_id}/guess", json={"code": code})
                else:
                    form = {"say": code, "move": str(number)}
                    response = client.get(client.post(f"/game/{game_id}", data=form)
                                          .headers["location"])  # fmt: skip
                COUNTING.clear()
                cpu += time.process_time() - started
                assert response.status_code == 200, response.text[:200]
                requests += 1
    for profile in PROFILES:
        profile.create_stats()
    out = io.StringIO()
    stats = pstats.Stats(*PROFILES, stream=out)
    calls: int = stats.total_calls  # type: ignore[attr-defined]
    print(f"{kind}: {requests} guess requests ({games} games of {rules.spec}, two guesses each)")
    for key in ("statements", "SELECT", "INSERT", "UPDATE", "DELETE", "rows", "renders"):
        print(f"  {key:<11}{COUNTED[key] / requests:8.2f} per guess")
    print(f"  {'calls':<11}{calls / requests:8.0f} per guess (the server's threads)")
    print(f"  {'cpu ms':<11}{cpu / requests * 1000:8.2f} per guess (the whole process; load-bound)")
    if top:
        stats.sort_stats("cumulative").print_stats(top)
        print(out.getvalue())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games (100)")
    parser.add_argument("--rules", default="mm", help="the variant played (mm)")
    parser.add_argument("--kind", nargs="+", default=["api", "page"], choices=["api", "page"])
    parser.add_argument("--top", type=int, default=0, help="the profile's N heaviest functions")
    args = parser.parse_args()
    instrument()
    for kind in args.kind:
        measure(kind, args.games, Rules.parse(args.rules), args.top)


if __name__ == "__main__":
    main()
