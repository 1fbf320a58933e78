"""``bullscows serve``: the web app (``bullscows.web``) on one process or ``--workers N``."""

from __future__ import annotations

import errno
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Callable

import click

from bullscows.cli.common import Choice, Command, Number, Whole
from bullscows.errors import BullsCowsError
from bullscows.readers import quote
from bullscows.web import MAX_EXPIRE_HOURS


def _rate(context: click.Context, parameter: click.Parameter, value: str) -> str:
    """A rate the web app's limiter reads (``limits``), or a usage error quoting it."""
    from bullscows.web.limits import rate_problem

    problem = rate_problem(value)
    if problem is not None:
        raise click.BadParameter(f"{quote(value)}: {problem} (per second, minute, hour or day)")
    return value


def _url(context: click.Context, parameter: click.Parameter, value: str | None) -> str | None:
    """The database's URL (``storage.database_url``: a plain path is a SQLite file), or a
    usage error for an empty one (an unset variable, say)."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter(
            f"{quote(value)}: give a SQLAlchemy URL or a SQLite file's path, or leave "
            "--database out for the default"
        )
    from bullscows.web.storage import database_url  # SQLAlchemy: not needed for --help

    return database_url(value)


@click.command(cls=Command)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=Whole(0, 65535), default=8000, show_default=True, help="Port.")
@click.option(
    "--database",
    metavar="URL|FILE",
    callback=_url,
    help="Any SQLAlchemy URL, or a SQLite file's path (text without '://', made absolute); "
    "default $BULLSCOWS_DATABASE, else a SQLite file in the user's data directory "
    "($XDG_DATA_HOME/bullscows, else ~/.local/share/bullscows, made if need be). Another "
    "SQLite file must be in a folder that exists.",
)
@click.option(
    "--workers", type=Whole(1, 64), default=1, show_default=True,
    help="Server processes, all on the one database (moves are ordered by the database).",
)  # fmt: skip
@click.option(
    "--expire-hours", type=Number(0, MAX_EXPIRE_HOURS), default=24 * 30, show_default=True,
    help="Delete games, challenges and uploads untouched this long (0: keep them; at most "
    f"{MAX_EXPIRE_HOURS:,}, a hundred years).",
)  # fmt: skip
@click.option("--games-rate", default="120/minute", show_default=True, metavar="RATE",
              callback=_rate,
              help="Games one client may start, counted for all workers.")  # fmt: skip
@click.option("--uploads-rate", default="10/minute", show_default=True, metavar="RATE",
              callback=_rate,
              help="Trees one client may upload, counted for all workers.")  # fmt: skip
@click.option(
    "--compute-seconds", type=Number(0.1, 3600), default=10, show_default=True,
    help="Time one request's computation may take (analysis, hints, trees, bench, ...).",
)  # fmt: skip
@click.option("--pool", type=Whole(0, 64), default=0, show_default=True,
              help="Such computations run at once, for all workers (0: one fewer than the "
              "cores); they pause while requests are answered.")  # fmt: skip
@click.option(
    "--durability", type=Choice(["process", "full"]), default="process",
    show_default=True,
    help="What an answered move survives on SQLite: the server's crash (process), or also "
    "the machine's (full: an fsync per move).",
)  # fmt: skip
def serve(
    host: str, port: int, database: str | None, workers: int, expire_hours: float,
    games_rate: str, uploads_rate: str, compute_seconds: float, pool: int, durability: str,
) -> None:  # fmt: skip
    """Serve the web app: play, solve, duel, assist and explore trees in a browser.

    \b
    bullscows serve                       then open http://127.0.0.1:8000/
    bullscows serve --port 0              any free port (the line printed names it)
    bullscows serve --host 0.0.0.0 --workers 4 --database postgresql://host/bullscows

    Ctrl-C (or SIGTERM) stops every process of the server, each after the requests it is
    answering, and the command exits 0 with one line, however many --workers.
    """
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    from bullscows.web.app import seed_from
    from bullscows.web.limits import LIMITS_ENV, Limits
    from bullscows.web.storage import (
        DATABASE_ENV,
        DURABILITY_ENV,
        Store,
        default_url,
        shared_by,
        shown_url,
    )

    url = database or default_url()
    try:
        limits = Limits(expire_hours, games_rate, uploads_rate, compute_seconds, pool)
        if workers > 1:
            shared_by(url, workers)
        Store(url, durability).close()  # reachable, and of a schema this program knows
        seed_from(os.environ)  # BULLSCOWS_SEED, as each worker reads it (web.app)
    except BullsCowsError as error:
        raise click.ClickException(str(error)) from None
    listening = _listen(host, port)
    os.environ.update({DATABASE_ENV: url, DURABILITY_ENV: durability,
                       LIMITS_ENV: limits.to_environment()})  # fmt: skip
    config = uvicorn.Config("bullscows.web.app:from_environment", factory=True, workers=workers,
                            log_level="warning", access_log=False)  # fmt: skip
    click.echo(GETTING_READY, err=True)
    _warm(workers)
    bound = listening.getsockname()[1]
    where = f"{workers} processes, " if workers > 1 else ""
    kept = shown_url(url)
    click.echo(f"bullscows serving on http://{host}:{bound}/ ({where}games kept in {kept})")
    if workers > 1:
        supervisor = Multiprocess(config, sockets=[listening])
        supervisor.run()  # until Ctrl-C or SIGTERM, or a process that cannot start
        started = all(process.exitcode != STARTUP_FAILURE for process in supervisor.processes)
    else:
        server = uvicorn.Server(config)
        started = _stopped_by_signal(lambda: server.run(sockets=[listening])) or server.started
    if not started:
        raise click.ClickException("the server did not start; see the lines above")
    click.echo("\nServer stopped.", err=True)


#: Said on stderr before the kernels are warmed (seconds of compiling the first time).
GETTING_READY = "Getting ready (compiling, up to a minute the first time)..."

#: Compiles the kernels a game uses into numba's cache (or loads them from it).
WARM = "from bullscows._kernels.compiled import warm_up; warm_up()"


def _warm(workers: int) -> None:
    """The kernels the first requests need compiled before the server says it listens (the
    first time on a machine, seconds of numba's compilation a first hint would else wait
    for): in this process, the one server process; else in a process of its own, whose
    compilation numba's cache keeps for the workers (which load it as they start)."""
    if workers == 1:
        from bullscows._kernels import compiled

        compiled.warm_up()
    else:
        subprocess.run([sys.executable, "-c", WARM], check=False, stdout=subprocess.DEVNULL)


class _Stop(Exception):
    """Ctrl-C or SIGTERM, once the server has shut down."""


def _stopped_by_signal(run: Callable[[], None]) -> bool:
    """``run()`` (one server process), whether Ctrl-C or SIGTERM stopped it. The server shuts
    down on either, then raises it again (uvicorn), as ``_Stop`` here: so the command ends as
    ``--workers N`` does, with exit 0, not 130 or killed by the signal."""

    def stop(number: int, frame: object) -> None:
        raise _Stop

    stopping = (signal.SIGINT, signal.SIGTERM)
    previous = {number: signal.signal(number, stop) for number in stopping}
    try:
        run()
    except _Stop:
        return True
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    return False


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (as uvicorn binds one) and listening, or a one-line error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listening = socket.socket(family)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind((host, port))
    except OSError as error:
        listening.close()
        if isinstance(error, socket.gaierror):
            reason = f"is no address here ({error.strerror}); give one such as 127.0.0.1"
        elif error.errno == errno.EADDRINUSE:
            reason = "is taken by another program; choose another with --port (0: any free one)"
        else:
            reason = f"cannot be listened on: {error.strerror or error}"
        raise click.ClickException(f"{host}:{port} {reason}") from None
    # Listening already (the server listens again, as it starts): a client that connects as
    # soon as the "serving on" line shows waits in the queue, not refused.
    listening.listen(2048)
    return listening
