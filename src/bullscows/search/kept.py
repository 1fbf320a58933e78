"""The sets a stopped search settled inside the parts it had not finished, kept beside its
checkpoint (``FILE.sets``) so that the next run starts from them.

A checkpoint keeps a part's answer only once its search ends, and a big part may take hours:
stopped before that (``--time-limit``, Ctrl-C), its search's memos still know the exact cost
or a proven floor of every set they settled below it (``search_memo``). They are written here
as the search stops, and read into the memo of every search of the same options that the next
run makes in this process (the searching thread's and each of its threads'): it goes through
what was settled at once instead of searching it again. A search that ends removes the file
(its checkpoint holds every answer).

Kept by the search of a fixed opening (``search.opening``) and by the whole search
(``search.optimal``), in one thread or on threads (``executors.Threads``); a search given them
orders the guesses of its python levels by lookaheads taken apart from them
(``SearchState.apart``), as the stopped run did. Not on the processes of a Dask cluster
(their memos are not in this process). A search's sets are read into one read-only table
(``base_table``) that every memo of the search falls back on, copying a set in as it first
reads it: one copy for any number of threads. At most ``KEPT_MOST`` sets a search, those of
the highest costs or floors (the largest sets, whose search took longest): a base table of
0.45 GiB.

>>> import tempfile
>>> from bullscows._kernels.search_calls import Memo
>>> path = Path(tempfile.mkdtemp()) / "mm.ckpt"
>>> header = {"rules": "mm", "objective": "total", "max_depth": None, "consistent_only": False}
>>> kept = KeptSets(path, header)
>>> memo = Memo(16)
>>> memo.arrays[0][:7] = (5, 6, 3, 40, 2, 30, 0)
>>> memo.arrays[1][0] = 1
>>> kept.adopt(memo, "total", 1)  # a search's first run: no sets to give it
0
>>> kept.close(finished=False), sets_path(path).exists()
(1, True)
>>> again = KeptSets(path, header)
>>> seeded = Memo(16)
>>> again.adopt(seeded, "total", 1)
1
>>> again.loaded, len(seeded), entries(seeded.arrays[2]).tolist()  # in its base, not copied yet
(1, 0, [[5, 6, 3, 40, 2, 30, 0]])
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from bullscows._kernels.search_calls import MEMO_SLOTS, NO_BASE, Memo, kernels, largest
from bullscows.atomic import check_folder, write_atomic
from bullscows.errors import BullsCowsError
from bullscows.readers import quote, quote_path

FORMAT = "bullscows-search-sets"
#: What a memo slot means (``search_memo.SLOT``: key, cost, guess, floor, looked): a change
#: to it, or to what the compiled search stores there, makes this number grow, and files of
#: another number are refused.
VERSION = 1
#: Integers a memo slot holds, and those of its key (the set's two hashes and depth).
SLOT, KEY = 7, 3
#: The most sets kept of one search (``merged``): their base table has 2 slots a set
#: (``base_table``), 0.45 GiB.
KEPT_MOST = 1 << 22
#: A ``(objective, weight)``: which search of a run a group of sets belongs to.
Group = tuple[str, int]
IntArray = npt.NDArray[np.int64]
#: The files open in this process, by the options of their searches (``opened``).
_OPEN: dict[tuple[str, int | None, bool], KeptSets] = {}
_LOCK = threading.Lock()


def sets_path(checkpoint: Path) -> Path:
    """The file beside ``checkpoint`` where its search's sets are kept.

    >>> sets_path(Path("runs/bc5.ckpt")).as_posix()
    'runs/bc5.ckpt.sets'
    """
    return checkpoint.with_name(checkpoint.name + ".sets")


def entries(table: IntArray) -> IntArray:
    """The occupied slots of a memo's table, one row each (``SLOT`` integers)."""
    rows = table.reshape(-1, SLOT)
    return rows[rows[:, 2] >= 0]


def merged(rows: IntArray, most: int = KEPT_MOST) -> IntArray:
    """``rows`` with one row a set: of a set's rows, the one that knows most (an exact cost
    before none, then the highest floor, then looked ahead at); at most ``most`` rows, those
    of the highest cost or floor.

    >>> merged(np.array([[1, 2, 3, -1, -1, 10, 0], [1, 2, 3, 12, 4, 10, 0],
    ...                  [1, 2, 3, -1, -1, 11, 1], [7, 7, 3, -1, -1, 5, 0]]), most=1).tolist()
    [[1, 2, 3, 12, 4, 10, 0]]
    """
    if not len(rows):
        return rows
    known = rows[:, 3] >= 0
    order = np.lexsort((rows[:, 6], rows[:, 5], known, rows[:, 2], rows[:, 1], rows[:, 0]))
    rows = rows[order]
    keys = rows[:, :KEY]
    last = np.ones(len(rows), dtype=bool)
    last[:-1] = (keys[1:] != keys[:-1]).any(axis=1)
    rows = rows[last]
    return largest(rows, most)


def base_table(rows: IntArray) -> IntArray:
    """A memo table holding ``rows`` (``SLOT`` integers each), at most half full: the base
    that the memos of one search share (``Memo.rest_on``), which no compiled call writes.

    >>> base = base_table(np.array([[5, 6, 3, 40, 2, 30, 0]]))
    >>> len(base) // SLOT, len(entries(base))
    (65536, 1)
    """
    slots = max(MEMO_SLOTS, 1 << (2 * len(rows) - 1).bit_length())
    table = np.ascontiguousarray(rows, dtype=np.int64).ravel()
    base: IntArray = kernels().grow_memo((table, _NO_STATE, NO_BASE), slots)
    return base


_NO_STATE = np.zeros(2, dtype=np.int64)


class KeptSets:
    """The sets file of the checkpoint ``path`` of a search with ``header``'s options (its
    rules, objective, max depth, consistent only): read now if there is one, offered to each
    memo of those options (``adopt``) until ``close``, which writes what they all hold."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = sets_path(path)
        self.header: dict[str, Any] = {"format": FORMAT, "version": VERSION} | {
            key: header[key] for key in ("rules", "objective", "max_depth", "consistent_only")
        }
        self.groups: dict[Group, IntArray] = self._read() if self.path.exists() else {}
        self.loaded = sum(len(rows) for rows in self.groups.values())
        self.memos: list[tuple[Group, Memo]] = []
        #: Each group's sets in one read-only table that its memos fall back on (``adopt``).
        self.bases: dict[Group, IntArray] = {}
        # Kept only where a new file can be written (a checkpoint may resume where none can).
        try:
            check_folder(self.path, "the sets")
            self.writable = True
        except BullsCowsError:
            self.writable = False
        with _LOCK:
            _OPEN[self._options()] = self

    def _options(self) -> tuple[str, int | None, bool]:
        h = self.header
        depth = h["max_depth"]
        return str(h["rules"]), None if depth is None else int(depth), bool(h["consistent_only"])

    def adopt(self, memo: Memo, objective: str, weight: int) -> int:
        """Fill ``memo`` (new, of a search of ``objective`` and ``weight``) with the sets
        read for that search, and keep it, to write what it holds at ``close``; the sets
        it was given."""
        group = (objective, weight)
        with _LOCK:
            self.memos.append((group, memo))
            rows = self.groups.get(group)
            if rows is None or not len(rows):
                return 0
            if group not in self.bases:
                self.bases[group] = base_table(rows)
            memo.rest_on(self.bases[group])
        return len(rows)

    def close(self, finished: bool) -> int:
        """Stop offering sets; write those of every memo adopted (and those read) unless the
        search ``finished``, which removes the file. The sets written (0 if none could be)."""
        with _LOCK:
            if _OPEN.get(self._options()) is self:
                del _OPEN[self._options()]
            memos, self.memos, self.bases = self.memos, [], {}
        if finished:
            self.path.unlink(missing_ok=True)
            return 0
        groups = {group: [rows] for group, rows in self.groups.items()}
        for group, memo in memos:
            groups.setdefault(group, []).append(entries(memo.arrays[0]))
        kept = {group: merged(np.concatenate(parts)) for group, parts in groups.items()}
        count = sum(len(rows) for rows in kept.values())
        if not count or not self.writable:
            return 0
        try:
            write_atomic(self.path, self._encode(kept))
        except OSError:
            return 0  # a full disk: the file before stays as it was
        return count

    def _encode(self, kept: dict[Group, IntArray]) -> bytes:
        arrays = {f"sets{i}": rows for i, rows in enumerate(kept.values())}
        header = self.header | {
            "groups": [[objective, weight] for objective, weight in kept],
            "digest": _digest(arrays),
        }  # fmt: skip
        arrays["header"] = np.frombuffer(json.dumps(header).encode(), dtype=np.uint8)
        out = io.BytesIO()
        np.savez(out, **arrays)  # type: ignore[arg-type]
        return out.getvalue()

    def _read(self) -> dict[Group, IntArray]:
        """The sets of the file, by group; a file of another search, of another version or
        damaged is refused (left as it was)."""
        where = f"the sets file {quote_path(self.path)}"
        try:
            with np.load(self.path, allow_pickle=False) as data:
                header = json.loads(bytes(data["header"]).decode())
                arrays = {name: np.asarray(data[name]) for name in data.files if name != "header"}
        except (OSError, ValueError, KeyError, UnicodeDecodeError, zipfile.BadZipFile):
            raise _damaged(where) from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise _damaged(where)
        if header.get("version") != VERSION:
            raise BullsCowsError(
                f"{where} was written by another version of bullscows (format "
                f"{quote(str(header.get('version')))}, this one reads {VERSION}): {_INSTEAD}"
            )
        theirs = {key: header.get(key) for key in self.header}
        if theirs != self.header:
            raise BullsCowsError(f"{where} is for another search than its checkpoint: {_INSTEAD}")
        groups = header.get("groups")
        if (
            not isinstance(groups, list)
            or len(groups) != len(arrays)
            or header.get("digest") != _digest(arrays)
            or any(a.dtype != np.int64 or a.shape[1:] != (SLOT,) for a in arrays.values())
        ):
            raise _damaged(where)
        try:
            return {(str(o), int(w)): arrays[f"sets{i}"] for i, (o, w) in enumerate(groups)}
        except (TypeError, ValueError, KeyError):  # groups of another shape
            raise _damaged(where) from None


#: What to do with a sets file that cannot serve: it only saves time.
_INSTEAD = "move it away (the search then starts its unfinished parts again)"


def _damaged(where: str) -> BullsCowsError:
    return BullsCowsError(f"{where} is damaged or no sets file of bullscows: {_INSTEAD}")


def _digest(arrays: dict[str, IntArray]) -> str:
    """A digest of the arrays' names, shapes and integers (a file damaged on the way)."""
    digest = hashlib.sha256()
    for name, rows in sorted(arrays.items()):
        digest.update(f"{name}{rows.shape}".encode())
        digest.update(np.ascontiguousarray(rows).tobytes())
    return digest.hexdigest()


def kept_words(count: int) -> str:
    """What a stopped search says of the sets it kept (its summary's ``kept`` row).

    >>> kept_words(1234)  # doctest: +ELLIPSIS
    '1,234 sets the search settled, beside the checkpoint (its .sets file): ...'
    """
    return (
        f"{count:,} sets the search settled, beside the checkpoint (its .sets file): the same "
        "command goes on from them"
    )


def adopt(memo: Memo, options: Any) -> int:
    """Offer ``memo``, that of a new search of ``options`` (``SearchOptions``), to the sets
    file open for its options in this process, if any (``KeptSets.adopt``); the sets it was
    given."""
    key = (options.rules.spec, options.max_depth, bool(options.consistent_only))
    with _LOCK:
        kept = _OPEN.get(key)
    return 0 if kept is None else kept.adopt(memo, options.objective, options.weight)


__all__ = ["KeptSets", "adopt", "base_table", "entries", "kept_words", "merged", "sets_path"]
