"""``bullscows serve``: the web app (``bullscows.web``) on one process."""

from __future__ import annotations

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="Port."
)
@click.option(
    "--database",
    metavar="URL",
    help="Any SQLAlchemy URL; default $BULLSCOWS_DATABASE, else a SQLite file in the user's "
    "data directory ($XDG_DATA_HOME/bullscows, else ~/.local/share/bullscows).",
)
def serve(host: str, port: int, database: str | None) -> None:
    """Serve the web app: play, solve, duel, assist and explore trees in a browser."""
    import uvicorn

    from bullscows.web.app import create_app
    from bullscows.web.storage import default_url, shown_url

    url = database or default_url()
    app = create_app(url)
    click.echo(f"bullscows serving on http://{host}:{port}/ (games kept in {shown_url(url)})")
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
