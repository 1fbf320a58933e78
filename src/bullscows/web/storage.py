"""Where the web app keeps its games: one row per game, its record as JSON, over SQLAlchemy.

SQLite in the user's data directory by default, any SQLAlchemy URL otherwise; a versioned
schema, and a version on every row so that concurrent servers never overwrite each other's
moves (docs/server.md). A database that cannot be reached or written raises ``Unavailable``.

>>> store = Store("sqlite://")
>>> from bullscows.records import GameRecord
>>> game_id = store.add(GameRecord("codebreaker", "bc", seed=1), "solve")
>>> store.read(game_id)[:2]
(GameRecord('codebreaker', 'bc', 0 events), 'solve')
>>> record, mode, version = store.read(game_id)
>>> store.put(game_id, record, version), store.put(game_id, record, version)
(True, False)
>>> store.read("no-such-game") is None
True
"""

from __future__ import annotations

import base64
import contextlib
import functools
import os
import random
import secrets
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

try:
    import fcntl
except ImportError:  # Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import (
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    case,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    IntegrityError,
    NoSuchModuleError,
    OperationalError,
    ProgrammingError,
    SQLAlchemyError,
)
from sqlalchemy.pool import StaticPool

from bullscows.errors import BullsCowsError
from bullscows.records import GameRecord

SCHEMA_VERSION = 3
#: The environment variable that names the database (tests point it at a file of their own).
DATABASE_ENV = "BULLSCOWS_DATABASE"
#: The environment variable that names the durability of a SQLite file's commits.
DURABILITY_ENV = "BULLSCOWS_DURABILITY"
#: What a committed move survives on SQLite (docs/server.md): ``process``, the crash of the
#: server's process (``kill -9``); ``full``, also the machine's crash or power loss (an fsync
#: a commit). SQLite's ``synchronous`` setting of each.
DURABILITY = {"process": "NORMAL", "full": "FULL"}
#: The default database's file, in ``data_dir()`` (created, with its folder, on first use).
DEFAULT_FILE = "web.sqlite3"
#: A SQLite database file's first bytes (an empty file is a database not yet written).
SQLITE_HEADER = b"SQLite format 3\x00"

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
    Column("version", Integer, nullable=False, server_default="0"),
    Column("player", String(64), nullable=True, index=True),  # whose record counts the game
)
#: The columns added since version 1, as an older database gains them.
ADDED = {"version": "INTEGER NOT NULL DEFAULT 0", "player": "VARCHAR(64)"}
#: The rate limits' counters (``limits.DatabaseStorage``): hits of a key in its window, and
#: when the window ends (seconds since the epoch). Shared by every process on the database.
rates = Table(
    "rates",
    metadata,
    Column("key", String(255), primary_key=True),
    Column("hits", Integer, nullable=False),
    Column("ends", Float, nullable=False),
)
#: A game's record, mode and version; a move's compare-and-set (built once: a move's
#: statements cost microseconds, not the building of their expressions).
READ = select(games.c.record, games.c.mode, games.c.version).where(games.c.id == bindparam("game"))
PUT = (
    update(games)
    .where(games.c.id == bindparam("game"), games.c.version == bindparam("known"))
    .values(record=bindparam("record"), updated=bindparam("now"), version=games.c.version + 1)
)
trees = Table(
    "trees",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("data", Text, nullable=False),
    Column("created", DateTime(timezone=True), nullable=False),
)
#: A game's analysis (JSON), computed once for the game at ``version`` and kept beside it: a
#: second look reads it (a table that an older database gains when it is opened).
analyses = Table(
    "analyses",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("data", Text, nullable=False),
)


def data_dir() -> Path:
    """The user's data directory: ``$XDG_DATA_HOME/bullscows``, else
    ``~/.local/share/bullscows``."""
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "bullscows"


def default_url() -> str:
    """``$BULLSCOWS_DATABASE`` if set (a URL, or a SQLite file's path: ``database_url``),
    else a SQLite file in ``data_dir()``."""
    given = os.environ.get(DATABASE_ENV, "").strip()
    return database_url(given) if given else f"sqlite:///{data_dir() / DEFAULT_FILE}"


def database_url(given: str) -> str:
    """The SQLAlchemy URL of a database given as a URL or as a plain file path: text with
    ``://`` is a URL, kept as it is; any other is the path of a SQLite file, made absolute.

    >>> database_url("postgresql://host/games"), database_url("/srv/games.sqlite3")
    ('postgresql://host/games', 'sqlite:////srv/games.sqlite3')
    """
    if "://" in given:
        return given
    return f"sqlite:///{Path(given).expanduser().resolve()}"


def shown_url(url: str) -> str:
    """``url`` without its password, cut to a sensible length.

    >>> shown_url("postgresql://me:hunter2@db.example/games")
    'postgresql://me:***@db.example/games'
    """
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        shown = url.rsplit("@", 1)[-1]
    return shown[:160]


def shared_by(url: str, processes: int) -> None:
    """Refuse a database that ``processes`` server processes would not share: SQLite in
    memory is one database per process (a game started on one would be missing on the
    others).

    >>> shared_by("sqlite://", 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: database 'sqlite://' is in memory, one per process: ...
    """
    if url.startswith("sqlite") and sqlite_path(url) is None:
        raise BullsCowsError(
            f"database {url[:100]!r} is in memory, one per process: {processes} workers "
            "need a file (sqlite:///games.sqlite3) or a server's database"
        )


class Unavailable(BullsCowsError):
    """The database cannot be reached or written now (down, locked, disk full): try later."""


P = ParamSpec("P")
R = TypeVar("R")


def guarded(method: Callable[P, R]) -> Callable[P, R]:
    """``method`` with the database's failures raised as ``Unavailable`` (one line)."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (SQLAlchemyError, OSError) as error:
            cause = getattr(error, "orig", None) or error
            reason = (str(cause).splitlines() or [type(cause).__name__])[0][:160]
            message = f"the game store is unavailable ({reason}); try again shortly"
            raise Unavailable(message) from None

    return run


def new_id(drawn: random.Random | None = None) -> str:
    """An unguessable id (128 random bits); with ``drawn``, the next one drawn from it (a
    seeded server's, whose ids follow from its seed).

    >>> len(new_id()), new_id(random.Random(1)) == new_id(random.Random(1))
    (22, True)
    """
    if drawn is None:
        return secrets.token_urlsafe(16)
    return base64.urlsafe_b64encode(drawn.getrandbits(128).to_bytes(16, "big")).decode()[:22]


def _now() -> datetime:
    return datetime.now(UTC)


def durability_of(name: str | None = None) -> str:
    """``name``, else ``$BULLSCOWS_DURABILITY``, else ``process``, if it is one of
    ``DURABILITY``.

    >>> durability_of("fsync")
    Traceback (most recent call last):
    ...
    bullscows.errors.BullsCowsError: durability 'fsync': one of process, full
    """
    chosen = name or os.environ.get(DURABILITY_ENV) or "process"
    if chosen not in DURABILITY:
        where = "durability" if name else f"${DURABILITY_ENV}"
        raise BullsCowsError(f"{where} {chosen[:40]!r}: one of {', '.join(DURABILITY)}")
    return chosen


class Store:
    """Games (and uploaded trees) by id; every write is committed before it returns, as
    durable as ``durability`` says (``durability_of``). ``close`` (or leaving ``with``) lets
    go of its connections and its writer file, as dropping it does; used again, it opens them
    anew. An in-memory database lives in its one connection: ``close`` keeps it (an app
    started again on it finds its games), and dropping the store frees it."""

    def __init__(self, url: str | None = None, durability: str | None = None) -> None:
        self.url = url or default_url()
        self.durability = durability_of(durability)
        #: Where new ids come from: ``None``, unguessable; a seeded server's generator.
        self.ids: random.Random | None = None
        self._writer: Writer | None = None
        try:
            self.engine = _engine(self.url, DURABILITY[self.durability])
            self._writer = Writer(self.url) if self.url.startswith("sqlite") else None
            for attempt in range(3):  # servers started together race to create the tables
                try:
                    metadata.create_all(self.engine)
                    self._check_version()
                    break
                except (IntegrityError, OperationalError, ProgrammingError):
                    if attempt == 2:
                        raise
        except (SQLAlchemyError, OSError, ValueError, ImportError) as error:
            self.close()
            if isinstance(error, BullsCowsError):
                raise
            raise BullsCowsError(f"database {shown_url(self.url)!r}: {_refusal(error)}") from None

    def close(self) -> None:
        """Close the pooled connections (but an in-memory database's, which holds its games)
        and the writer file (``Writer``)."""
        in_memory = self.url.startswith("sqlite") and sqlite_path(self.url) is None
        if getattr(self, "engine", None) is not None and not in_memory:
            self.engine.dispose()
        if self._writer is not None:
            self._writer.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _check_version(self) -> None:
        with self.engine.begin() as db:
            found = db.execute(select(meta.c.value).where(meta.c.key == "schema_version"))
            version = found.scalar_one_or_none()
            if version is None:
                db.execute(insert(meta).values(key="schema_version", value=str(SCHEMA_VERSION)))
            elif int(version) < SCHEMA_VERSION:
                present = {c["name"] for c in inspect(db).get_columns("games")}
                for name, kind in ADDED.items():
                    if name not in present:
                        db.execute(text(f"ALTER TABLE games ADD COLUMN {name} {kind}"))
                db.execute(text("CREATE INDEX IF NOT EXISTS ix_games_player ON games (player)"))
                db.execute(update(meta).where(meta.c.key == "schema_version")
                           .values(value=str(SCHEMA_VERSION)))  # fmt: skip
            elif int(version) > SCHEMA_VERSION:
                raise BullsCowsError(
                    f"the database is of schema version {version}; this program knows "
                    f"version {SCHEMA_VERSION} at most"
                )

    @contextlib.contextmanager
    def _write(self) -> Iterator[Connection]:
        """A transaction that writes, committed on leaving (one at a time on SQLite)."""
        with self._writer or contextlib.nullcontext(), self.engine.begin() as db:
            yield db

    def _new_id(self, db: Connection, table: Table) -> str:
        """A new row's id: ``new_id()``, or the next drawn from ``ids`` (a seeded server's)
        that no row of ``table`` holds yet (a seeded server started again on its database
        draws its first ids again)."""
        while True:
            found = new_id(self.ids)
            if (
                self.ids is None
                or db.execute(select(table.c.id).where(table.c.id == found)).first() is None
            ):
                return found

    @guarded
    def add(self, record: GameRecord, mode: str, player: str | None = None) -> str:
        """Store a new game, played in ``mode`` (play, solve, duel, assist) by ``player`` (the
        id their browser keeps, if any); its id."""
        now = _now()
        with self._write() as db:
            game_id = self._new_id(db, games)
            db.execute(
                insert(games).values(
                    id=game_id,
                    mode=mode,
                    record=record.dumps(),
                    created=now,
                    updated=now,
                    player=player,
                )
            )
        return game_id

    @guarded
    def read(self, game_id: str) -> tuple[GameRecord, str, int] | None:
        """The game's record, mode and version, or ``None`` if there is no such game."""
        with self.engine.connect() as db:
            row = db.execute(READ, {"game": game_id}).first()
        return None if row is None else (GameRecord.loads(row[0]), str(row[1]), int(row[2]))

    def records_of(self, player: str) -> list[GameRecord]:
        """The records of the games ``player`` started, oldest first (challenges aside)."""
        return [record for _, record in self.games_of(player)]

    def games_of(self, player: str, since: datetime | None = None) -> list[tuple[str, GameRecord]]:
        """The ids and records of the games ``player`` started (``since`` then, if given),
        oldest first (challenges aside)."""
        where = [games.c.player == player, games.c.mode != "challenge"]
        if since is not None:
            where.append(games.c.created >= since)
        return self._games(*where)

    def records(self, mode: str) -> list[GameRecord]:
        """The records of the games played in ``mode``, oldest first (one that no longer
        reads, from a later version, is passed over)."""
        return [record for _, record in self._games(games.c.mode == mode)]

    @guarded
    def _games(self, *where: Any) -> list[tuple[str, GameRecord]]:
        query = select(games.c.id, games.c.record).where(*where).order_by(games.c.created)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        found = []
        for game_id, stored in rows:
            with contextlib.suppress(BullsCowsError):
                found.append((str(game_id), GameRecord.loads(stored)))
        return found

    @guarded
    def put(self, game_id: str, record: GameRecord, version: int) -> bool:
        """Replace a game's record if it is still at ``version`` (then one more, committed when
        this returns); ``False`` if another move came first and nothing was written."""
        values = {"game": game_id, "known": version, "record": record.dumps(), "now": _now()}
        with self._write() as db:
            done = db.execute(PUT, values)
        return done.rowcount == 1

    @guarded
    def expire(self, idle: timedelta, batch: int = 5_000) -> int:
        """Delete what was left alone for ``idle``: games abandoned unfinished (and their
        analyses), challenges and uploaded trees (finished games stay: they are the players'
        record). How many."""
        before = _now() - idle
        with self.engine.connect() as db:
            old = db.execute(
                select(games.c.id, games.c.record, games.c.mode)
                .where(games.c.updated < before).limit(batch)
            ).all()  # fmt: skip
        gone = [
            game_id for game_id, stored, mode in old if mode == "challenge" or _abandoned(stored)
        ]
        with self._write() as db:
            removed = 0
            if gone:
                removed = db.execute(delete(games).where(games.c.id.in_(gone))).rowcount
                db.execute(delete(analyses).where(analyses.c.id.in_(gone)))
            removed += db.execute(delete(trees).where(trees.c.created < before)).rowcount
            db.execute(delete(rates).where(rates.c.ends < time.time()))
        return int(removed)

    @guarded
    def hit(self, key: str, seconds: int, amount: int = 1, now: float | None = None) -> int:
        """Count ``amount`` hits of ``key`` in its window (a new one of ``seconds`` if it had
        none, or it ended by ``now``, the time since the epoch): how many there are now. One
        statement on SQLite and PostgreSQL (an insert that updates the key's row if there is
        one, returning the count)."""
        now = time.time() if now is None else now
        dialect = self.engine.dialect.name
        if dialect == "sqlite":
            new: sqlite.Insert | postgresql.Insert = sqlite.insert(rates)
        elif dialect == "postgresql":
            new = postgresql.insert(rates)
        else:
            return self._hit_portably(key, seconds, amount, now)
        new = new.values(key=key, hits=amount, ends=now + seconds)
        ended = rates.c.ends <= now
        counted = new.on_conflict_do_update(
            index_elements=[rates.c.key],
            set_={"hits": case((ended, amount), else_=rates.c.hits + amount),
                  "ends": case((ended, now + seconds), else_=rates.c.ends)},
        ).returning(rates.c.hits)  # fmt: skip
        with self._write() as db:
            return int(db.execute(counted).scalar_one())

    def _hit_portably(self, key: str, seconds: int, amount: int, now: float) -> int:
        """``hit`` on another database: an update, else an insert (a race for a new key is
        lost by one of them, which tries again)."""
        ended = rates.c.ends <= now
        for _ in range(3):
            with contextlib.suppress(IntegrityError), self._write() as db:
                counted = db.execute(
                    update(rates).where(rates.c.key == key).values(
                        hits=case((ended, amount), else_=rates.c.hits + amount),
                        ends=case((ended, now + seconds), else_=rates.c.ends),
                    )
                ).rowcount  # fmt: skip
                if not counted:
                    db.execute(insert(rates).values(key=key, hits=amount, ends=now + seconds))
                return int(db.execute(select(rates.c.hits).where(rates.c.key == key)).scalar_one())
        raise Unavailable(f"the rate of {key[:60]!r} could not be counted; try again shortly")

    @guarded
    def hits(self, key: str) -> tuple[int, float]:
        """The hits of ``key`` in its window, and when it ends (0 and now if it has none)."""
        now = time.time()
        with self.engine.connect() as db:
            window = select(rates.c.hits, rates.c.ends).where(rates.c.key == key)
            row = db.execute(window.where(rates.c.ends > now)).first()
        return (0, now) if row is None else (int(row[0]), float(row[1]))

    @guarded
    def clear_hits(self, key: str | None = None) -> int:
        """Forget the hits of ``key`` (``None``: of every key); how many keys."""
        with self._write() as db:
            query = delete(rates) if key is None else delete(rates).where(rates.c.key == key)
            return int(db.execute(query).rowcount)

    @guarded
    def analysis(self, game_id: str, version: int) -> str | None:
        """The analysis kept for the game at ``version`` (its JSON), or ``None``."""
        kept = select(analyses.c.data).where(analyses.c.id == game_id,
                                             analyses.c.version == version)  # fmt: skip
        with self.engine.connect() as db:
            data = db.execute(kept).scalar()
        return None if data is None else str(data)

    @guarded
    def keep_analysis(self, game_id: str, version: int, data: str) -> None:
        """Keep ``data``, the analysis of the game at ``version``, in place of any before."""
        with self._write() as db:
            db.execute(delete(analyses).where(analyses.c.id == game_id))
            db.execute(insert(analyses).values(id=game_id, version=version, data=data))

    @guarded
    def add_tree(self, data: str) -> str:
        """Store an uploaded tree file's JSON text; its id."""
        with self._write() as db:
            tree_id = self._new_id(db, trees)
            db.execute(insert(trees).values(id=tree_id, data=data, created=_now()))
        return tree_id

    @guarded
    def get_tree(self, tree_id: str) -> str | None:
        with self.engine.connect() as db:
            text = db.execute(select(trees.c.data).where(trees.c.id == tree_id)).scalar()
        return None if text is None else str(text)


def _refusal(error: Exception) -> str:
    """What is wrong with a database that ``error`` refused, in one line that says what to do."""
    if isinstance(error, NoSuchModuleError):
        kind = str(error).rsplit(":", 1)[-1].strip()[:40]
        return f"no kind of database is called {kind!r}; {URL_EXAMPLES}"
    if isinstance(error, ArgumentError) and "parse" in str(error):
        return f"this is not a database URL; {URL_EXAMPLES}"
    reason = (str(error).splitlines() or [type(error).__name__])[0][:200]
    if isinstance(error, ImportError):
        return f"its driver is not installed ({reason}): install it, or use sqlite:///FILE"
    return f"{reason}; {URL_EXAMPLES} (with its driver installed)"


#: The URLs a refusal names as examples.
URL_EXAMPLES = "give a SQLAlchemy URL such as sqlite:///games.sqlite3 or postgresql://host/games"


def _abandoned(stored: str) -> bool:
    """Whether the record ``stored`` is of a game left unfinished (or no longer readable)."""
    from bullscows.sessions import restore

    try:
        return not restore(GameRecord.loads(stored)).over
    except BullsCowsError:
        return True


class Writer:
    """One writer at a time on a SQLite file: the threads of this process wait on a lock, and
    the processes on an ``flock`` of the file ``<database>-writer`` beside it, so that they wait
    for each other in the kernel, woken the moment the writer is done, not in SQLite's busy
    handler (which sleeps up to 100 ms between tries). A folder that takes no such file leaves
    the processes to SQLite's handler."""

    def __init__(self, url: str) -> None:
        self._threads = threading.Lock()
        self._path = sqlite_path(url) if fcntl is not None else None
        self._file: int | None = None
        self._closer: weakref.finalize[[int], Writer] | None = None
        self._open()

    def _open(self) -> None:
        """Open the writer file, closed again by ``close`` or when this Writer is dropped."""
        if self._path is not None:
            try:
                self._file = os.open(f"{self._path}-writer", os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:
                self._path = None  # a folder that takes no such file: SQLite's handler
            else:
                self._closer = weakref.finalize(self, os.close, self._file)

    def close(self) -> None:
        """Close the writer file (after the write in progress); the next write opens it."""
        with self._threads:
            if self._closer is not None:
                self._closer()
            self._file = self._closer = None

    def __enter__(self) -> None:
        self._threads.acquire()
        try:
            if self._file is None:
                self._open()
            if self._file is not None and fcntl is not None:
                fcntl.flock(self._file, fcntl.LOCK_EX)
        except BaseException:
            self._threads.release()
            raise

    def __exit__(self, *_: object) -> None:
        if self._file is not None and fcntl is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
        self._threads.release()


def _engine(url: str, synchronous: str = "NORMAL") -> Engine:
    """An engine for ``url``; a SQLite file's commits are as durable as ``synchronous``
    (SQLite's setting) make them. The default file's folder is created on first use; any
    other file must be in a folder that exists (``sqlite_problem``)."""
    if url.startswith("sqlite"):
        path = sqlite_path(url)
        if path is not None:
            if path == data_dir() / DEFAULT_FILE:
                try:
                    path.parent.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise BullsCowsError(
                        f"cannot make the data folder {path.parent} ({error.strerror}): set "
                        f"$XDG_DATA_HOME to a folder you may write, or ${DATABASE_ENV} to "
                        "another database"
                    ) from None
            problem = sqlite_problem(path)
            if problem is not None:
                raise BullsCowsError(f"database {shown_url(url)!r}: {problem}")
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
            event.listen(engine, "connect", functools.partial(_sqlite_pragmas, synchronous))
            return engine
        return create_engine(url, connect_args={"check_same_thread": False}, poolclass=StaticPool)
    return create_engine(url, pool_pre_ping=True)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL; ``None`` for an in-memory database (or another kind).

    >>> sqlite_path("sqlite:////srv/games.sqlite3"), sqlite_path("sqlite://")
    (PosixPath('/srv/games.sqlite3'), None)
    """
    path = url.split("///", 1)[1] if url.startswith("sqlite") and "///" in url else ""
    return Path(path) if path and path != ":memory:" else None


def sqlite_problem(path: Path) -> str | None:
    """Why SQLite cannot keep games in the file ``path`` (a folder missing or not writable, a
    folder named, a file not SQLite's), in words that say what to do; ``None`` if it can.
    A file that does not exist is created (empty: SQLite's database before its first write).

    >>> sqlite_problem(Path("/no-such-folder/games.sqlite3"))
    'the folder /no-such-folder does not exist: create it first, or name another'
    """
    if path.is_dir():
        return f"{path} is a folder: name a file in it, such as {path / 'games.sqlite3'}"
    if not path.parent.is_dir():
        if path.parent.exists():
            return f"{path.parent} is not a folder: name a file in a folder that exists"
        return f"the folder {path.parent} does not exist: create it first, or name another"
    try:
        with os.fdopen(os.open(path, os.O_RDWR | os.O_CREAT, 0o644), "rb") as file:
            start = file.read(len(SQLITE_HEADER))
    except OSError as error:
        return f"{path} cannot be written ({error.strerror}): name a file you may write"
    if start and start != SQLITE_HEADER:
        return f"{path} is not a SQLite database: name a new file, or one this program made"
    return _foreign(path) if start else None


def _foreign(path: Path) -> str | None:
    """Why the SQLite file ``path`` is another program's (tables, none of them this
    program's), read without writing a byte; ``None`` if it is not."""
    try:
        with contextlib.closing(
            sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro", uri=True)
        ) as db:
            found = {
                name
                for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
    except sqlite3.Error:
        return None  # SQLite's own error comes when the engine opens it
    if not found or found & set(metadata.tables):
        return None
    shown = ", ".join(sorted(found)[:3]) + (", ..." if len(found) > 3 else "")
    return f"another program's (tables {shown}): name a new file, or one this program made"


def _sqlite_pragmas(synchronous: str, connection: Any, _: object) -> None:
    """Write-ahead logging: readers do not wait for a writer. A commit is in the log when it
    returns (``NORMAL``: the machine's crash may lose the last ones; ``FULL``: an fsync each)."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA synchronous={synchronous}")
    cursor.close()
