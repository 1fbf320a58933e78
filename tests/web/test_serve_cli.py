"""``bullscows serve`` as a command: its help, a database it cannot use (one line, no
traceback, no password), and ``bullscows --help`` still without the web stack."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

BULLSCOWS = Path(sys.executable).parent / "bullscows"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BULLSCOWS), *args], capture_output=True, text=True, timeout=60)


def test_help() -> None:
    result = run("serve", "--help")
    assert result.returncode == 0
    for option in ("--host", "--port", "--database", "127.0.0.1", "8000", "--workers",
                   "--expire-hours", "--games-rate", "--compute-seconds", "--pool"):  # fmt: skip
        assert option in result.stdout
    assert "serve" in run("--help").stdout


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("nosuch://x", "no kind of database is called 'nosuch'"),
        ("postgresql://me:hunter2@localhost/games", "postgresql://me:***@localhost/games"),
    ],
)
def test_a_database_it_cannot_use(url: str, words: str) -> None:
    result = run("serve", "--database", url, "--port", "0")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: database ") and words in result.stderr
    assert "Traceback" not in result.stderr and "hunter2" not in result.stderr


def test_top_level_help_loads_no_web_stack() -> None:
    code = (
        "import sys; from bullscows.cli import main\n"
        "try: main(['--help'])\n"
        "except SystemExit: pass\n"
        "heavy = ('fastapi', 'sqlalchemy', 'uvicorn', 'numpy')\n"
        "print(sorted(m for m in heavy if m in sys.modules))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
    )
    assert result.stdout.strip().endswith("[]"), result.stdout


def test_a_port_taken_is_said_before_serving() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--port", str(port), "--database", "sqlite://")
    assert result.returncode == 1 and "serving" not in result.stdout
    assert result.stderr.strip() == (
        f"Error: 127.0.0.1:{port} is taken by another program; choose another with --port "
        "(0: any free one)"
    )


@pytest.mark.parametrize(
    ("option", "words"),
    [(("--games-rate", "lots"), "'--games-rate': 'lots': give a rate such as '60/minute'"),
     (("--workers", "0"), "0 is not in the range 1<=x<=64"),
     (("--host", "no.such.host.invalid"), "no.such.host.invalid:0 is no address here")],
)  # fmt: skip
def test_bad_options_are_one_line(option: tuple[str, str], words: str) -> None:
    result = run("serve", "--port", "0", "--database", "sqlite://", *option)
    assert result.returncode != 0 and words in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and "serving" not in result.stdout


def test_a_started_server_is_asked_past_any_proxy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A proxy named in the environment (with no ``no_proxy``) is not asked for 127.0.0.1."""
    from bullscows.web.process import serving

    for name in ("http_proxy", "HTTP_PROXY"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    for name in ("no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    with serving(f"sqlite:///{tmp_path}/games.sqlite3", seconds=300) as base:
        assert base.startswith("http://127.0.0.1:")


@pytest.mark.parametrize("workers", [1, 2])
def test_the_kernels_are_warm_before_the_server_says_it_listens(
    workers: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Compiled (or loaded from numba's cache) before the line that sends people to the
    server: in the one server process, or for several in a process whose compilation
    numba's cache keeps for them."""
    import uvicorn
    from click.testing import CliRunner
    from uvicorn.supervisors import Multiprocess

    from bullscows._kernels import compiled
    from bullscows.cli import main
    from bullscows.cli import serve as command
    from bullscows.web.limits import LIMITS_ENV
    from bullscows.web.storage import DATABASE_ENV, DURABILITY_ENV

    events: list[str] = []

    def served(server: uvicorn.Server, sockets: object = None) -> None:
        server.started = True
        events.append("serving")

    for name in (LIMITS_ENV, DATABASE_ENV, DURABILITY_ENV):  # restored after
        monkeypatch.setenv(name, "")
    monkeypatch.setattr(compiled, "warm_up", lambda parallel=True: events.append("warmed"))
    monkeypatch.setattr(command.subprocess, "run",
                        lambda args, **_: events.append(f"warmed by {args[-1]}"))  # fmt: skip
    monkeypatch.setattr(command.click, "echo", lambda text="", err=False, **_: events.append(
        f"stderr: {text}" if err else str(text)))  # fmt: skip
    monkeypatch.setattr(uvicorn.Server, "run", served)
    monkeypatch.setattr(Multiprocess, "run", lambda supervisor: events.append("serving"))
    database = f"sqlite:///{tmp_path / 'games.db'}"
    result = CliRunner().invoke(
        main, ["serve", "--port", "0", "--database", database, "--workers", str(workers)]
    )
    assert result.exit_code == 0, result.output
    warmed = "warmed" if workers == 1 else f"warmed by {command.WARM}"
    ready = f"stderr: {command.GETTING_READY}"
    assert events[:4] == [ready, warmed, events[2], "serving"], events
    assert events[2].startswith("bullscows serving on http://127.0.0.1:")


def test_the_socket_listens_before_the_serving_line() -> None:
    """A client that connects as soon as "serving on" shows is queued, not refused: the
    socket listens before the server starts."""
    from bullscows.cli.serve import _listen

    listening = _listen("127.0.0.1", 0)
    try:
        with socket.create_connection(listening.getsockname()[:2], timeout=60):
            pass
    finally:
        listening.close()
