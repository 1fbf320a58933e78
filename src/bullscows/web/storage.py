"""Where the web app keeps its games: one row per game, its record as JSON, over SQLAlchemy.

SQLite in the user's data directory by default, any SQLAlchemy URL otherwise. The schema is
versioned: a ``meta`` table holds ``schema_version``, and a database of a later version than
this program knows is refused rather than written to.

>>> store = Store("sqlite://")
>>> from bullscows.records import GameRecord
>>> game_id = store.add(GameRecord("codebreaker", "bc", seed=1), "solve")
>>> store.get(game_id)
(GameRecord('codebreaker', 'bc', 0 events), 'solve')
>>> store.get("no-such-game") is None
True
"""

from __future__ import annotations

import contextlib
import os
import secrets
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import StaticPool

from bullscows.errors import BullsCowsError
from bullscows.records import GameRecord

SCHEMA_VERSION = 1
#: The environment variable that names the database (tests point it at a file of their own).
DATABASE_ENV = "BULLSCOWS_DATABASE"

metadata = MetaData()
meta = Table("meta", metadata, Column("key", String(64), primary_key=True), Column("value", Text))
games = Table(
    "games",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("mode", String(16), nullable=False),
    Column("record", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
    Column("updated", DateTime(timezone=True), nullable=False),
)
trees = Table(
    "trees",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("data", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)


def data_dir() -> Path:
    """The user's data directory: ``$XDG_DATA_HOME/bullscows``, else
    ``~/.local/share/bullscows``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "bullscows"


def default_url() -> str:
    """``$BULLSCOWS_DATABASE`` if set, else a SQLite file in ``data_dir()``."""
    return os.environ.get(DATABASE_ENV) or f"sqlite:///{data_dir() / 'web.sqlite3'}"


def shown_url(url: str) -> str:
    """``url`` without its password, cut to a sensible length.

    >>> shown_url("postgresql://me:hunter2@db.example/games")
    'postgresql://me:***@db.example/games'
    """
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        shown = url.rsplit("@", 1)[-1]
    return shown[:100]


def new_id() -> str:
    """An unguessable id (128 random bits)."""
    return secrets.token_urlsafe(16)


def _now() -> datetime:
    return datetime.now(UTC)


class Store:
    """Games (and uploaded trees) by id; every write is committed before it returns."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_url()
        try:
            self.engine = _engine(self.url)
            metadata.create_all(self.engine)
            self._check_version()
        except (SQLAlchemyError, OSError, ValueError, ImportError) as error:
            if isinstance(error, BullsCowsError):
                raise
            reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
            raise BullsCowsError(
                f"database {shown_url(self.url)!r}: {reason}; give a SQLAlchemy URL such as "
                "sqlite:///games.sqlite3 (with its driver installed)"
            ) from None

    def _check_version(self) -> None:
        with self.engine.begin() as db:
            found = db.execute(select(meta.c.value).where(meta.c.key == "schema_version"))
            version = found.scalar_one_or_none()
            if version is None:
                db.execute(insert(meta).values(key="schema_version", value=str(SCHEMA_VERSION)))
            elif int(version) > SCHEMA_VERSION:
                raise BullsCowsError(
                    f"the database is of schema version {version}; this program knows "
                    f"version {SCHEMA_VERSION} at most"
                )

    def add(self, record: GameRecord, mode: str) -> str:
        """Store a new game, played in ``mode`` (play, solve, duel, assist); its id."""
        game_id, now = new_id(), _now()
        with self.engine.begin() as db:
            db.execute(
                insert(games).values(
                    id=game_id, mode=mode, record=record.dumps(), created=now, updated=now
                )
            )
        return game_id

    def get(self, game_id: str) -> tuple[GameRecord, str] | None:
        """The game's record and mode, or ``None`` if there is no such game."""
        with self.engine.connect() as db:
            row = db.execute(
                select(games.c.record, games.c.mode).where(games.c.id == game_id)
            ).first()
        return None if row is None else (GameRecord.loads(row[0]), str(row[1]))

    def records(self, mode: str) -> list[GameRecord]:
        """The records of the games played in ``mode``, oldest first (one that no longer
        reads, from a later version, is passed over)."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(games.c.record).where(games.c.mode == mode).order_by(games.c.created)
            ).all()
        found = []
        for (text,) in rows:
            with contextlib.suppress(BullsCowsError):
                found.append(GameRecord.loads(text))
        return found

    def put(self, game_id: str, record: GameRecord) -> None:
        """Replace a game's record (committed when this returns)."""
        with self.engine.begin() as db:
            db.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(record=record.dumps(), updated=_now())
            )

    def add_tree(self, data: str) -> str:
        """Store an uploaded tree file's JSON text; its id."""
        tree_id = new_id()
        with self.engine.begin() as db:
            db.execute(insert(trees).values(id=tree_id, data=data, created=_now()))
        return tree_id

    def get_tree(self, tree_id: str) -> str | None:
        with self.engine.connect() as db:
            text = db.execute(select(trees.c.data).where(trees.c.id == tree_id)).scalar()
        return None if text is None else str(text)


def _engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is created on first use."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(engine, "connect", _sqlite_pragmas)
            return engine
        return create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _: object) -> None:
    """Write-ahead logging: readers do not wait for a writer, and a commit is durable."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()
