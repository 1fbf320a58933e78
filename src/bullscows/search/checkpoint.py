"""A search's checkpoint file: the answers its tasks got (``search.distribute``), one JSON
line each as it comes, so that an interrupted search resumes where it stopped, on any machine.

The format, and how a cut-short file or a wrong claimed cost is handled, is in
docs/explanation/search.md ("Checkpoints").

>>> store = Checkpoint(None, "mm", "total", None, False)
>>> store.record(1, ((7, 2), (9, 1)), 5, 40, None)
>>> store.answer(1, ((7, 2), (9, 1)), 5, 30), store.answer(1, ((7, 2), (9, 1)), 5, 50)
(None, Ellipsis)
"""

from __future__ import annotations

import errno
import json
import os
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bullscows.errors import BullsCowsError
from bullscows.readers import (
    GZIP_MAGIC,
    load_json,
    quote,
    quote_path,
    quote_value,
    read_file,
    read_text,
)
from bullscows.rules import Rules
from bullscows.search.kept import KeptSets
from bullscows.tree.model import Node

FORMAT = "bullscows-search-checkpoint"
VERSION = 2
#: The largest checkpoint read (whole, into memory): a file of ours grows with its search,
#: past the cap of other files (``readers.MAX_FILE_BYTES``): 90 MB for ``bc-nolead`` after
#: 45 minutes.
CHECKPOINT_BYTES = 4 * 2**30

History = tuple[tuple[int, int], ...]
Found = tuple[int, Node] | None
#: The key of a question: (weight, history, depth).
Question = tuple[int, History, int]
#: Whether a part's claimed (cost, tree) holds: the tree settles the part, at that cost.
Check = Callable[[tuple[int, Node]], bool]
#: What to do with a file that is no checkpoint of a search (the end of its error): never to
#: delete it (it may be a tree, or another search's hours).
INSTEAD = "give this search's checkpoint, or a new file's name"
#: What to do with a checkpoint of another search.
ANOTHER = "resume it with those options, or give another file"


class Checkpoint:
    """The answers a search got about its tasks, kept in ``path`` (in memory only if ``None``).

    A file made for another variant or other options, or that is no checkpoint, or that is
    damaged, is refused and left as it was; a file that cannot be written, or that another
    process's search holds (a lock for the life of this object), is refused before the search
    starts. An empty file, or one whose header was cut short, starts afresh. With
    ``keep_sets``, the sets its search settled inside the parts it did not finish are kept
    beside it (``search.kept``).
    """

    def __init__(
        self,
        path: Path | None,
        spec: str,
        objective: str,
        max_depth: int | None,
        consistent_only: bool,
        keep_sets: bool = False,
    ) -> None:
        self.path = path
        self.header = {
            "format": FORMAT, "version": VERSION, "rules": spec, "objective": objective,
            "max_depth": max_depth, "consistent_only": consistent_only,
        }  # fmt: skip
        self.exact: dict[Question, tuple[int, Node]] = {}
        self.failed: dict[Question, int] = {}  # the highest window proven out of reach
        self.checked: set[Question] = set()  # exact answers whose cost was checked
        self.resumed = 0
        self.refuted = 0  # exact answers whose claimed cost was wrong (searched again)
        self._out = -1  # the file, open for appending and locked, once read
        #: The sets settled inside unfinished parts, kept beside the file (``search.kept``).
        self.kept: KeptSets | None = None
        self.kept_written = 0  # the sets ``close`` wrote there
        if path is None:
            return
        where = f"checkpoint {quote_path(path)}"
        try:
            data = read_file(path, where, CHECKPOINT_BYTES, unpacked=False) if (
                path.exists()
            ) else b""  # fmt: skip
        except BullsCowsError as error:
            raise _refused(error) from None
        if data[:2] == GZIP_MAGIC:  # read whole, it would be appended to as text
            raise BullsCowsError(
                f"{where} is compressed (gzip): uncompress it to resume from it, or give "
                "another file"
            )
        if b"\n" not in data and json.dumps(self.header).encode().startswith(data):
            self._hold()
            self._write(json.dumps(self.header), "w")  # new, or its header cut short
        else:
            self.resumed = self._load(path, data)
        try:
            self.kept = KeptSets(path, self.header) if keep_sets else None
        except BullsCowsError:
            self.close()  # the sets are not open yet: this only ends the lock
            raise

    def _hold(self) -> None:
        """Open the file for appending (refused now if it cannot be written, not at the first
        answer) and lock it until ``close`` (or the end of this object): a second search on
        it, in this process or another, would interleave its answers with this one's. The lock
        (``flock``) belongs to this descriptor alone: another descriptor of the file, opened
        and closed in this process, leaves it held (a lock of ``lockf`` would end)."""
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            out = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as error:
            raise self._unwritable(error) from None
        try:
            import fcntl

            fcntl.flock(out, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK):
                os.close(out)
                raise BullsCowsError(
                    f"checkpoint {quote_path(self.path)} is in use by another search: let it "
                    "end, or give another file"
                ) from None  # else a file system without locks: go on unlocked
        self._out = out
        self._close = weakref.finalize(self, os.close, out)

    @property
    def sets_read(self) -> int:
        """The sets read back from beside the file (``search.kept``), while it is open."""
        return 0 if self.kept is None else self.kept.loaded

    def close(self, finished: bool = False) -> None:
        """Close the file, ending its lock: a search on it may start (answers are then kept
        in memory alone). With ``keep_sets``, the sets settled inside the parts of a search not
        ``finished`` are kept beside it (``search.kept``). Closing again does nothing."""
        kept, self.kept = self.kept, None
        if kept is not None:
            self.kept_written = kept.close(finished)
        if self._out >= 0:
            self._close()
            self._out = -1

    def _load(self, path: Path, data: bytes) -> int:
        """Read the file's answers, each checked against the schema; how many there were. A
        last line cut short is ignored and cut off the file, and a last line whose newline
        was lost gets it back, so that the next answer starts a line of its own."""
        where = f"checkpoint {quote_path(path)}"
        try:
            text = read_text(data, where)
            lines = text.split("\n")
            if text.endswith("\n"):
                lines.pop()
            header = load_json(lines[0], where) if lines else None
        except BullsCowsError as error:
            raise _refused(error) from None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise BullsCowsError(
                f"{quote_path(path)} is not a bullscows search checkpoint; {INSTEAD}"
            )
        if header.get("version") != VERSION:
            raise BullsCowsError(
                f"{where} was written by another version of bullscows "
                f"(format {quote(str(header.get('version')))}, this one reads {VERSION}): "
                "resume it with that version, or give another file"
            )
        theirs = {key: header.get(key) for key in self.header}
        if theirs != self.header:
            raise BullsCowsError(
                f"{where} is for another search ({quote(_describe(theirs), 200)}), not "
                f"{_describe(self.header)}: {ANOTHER}"
            )
        schema = _Schema(Rules.parse(str(self.header["rules"])))
        self._hold()
        count = 0
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = load_json(line, where, line=number)
            except BullsCowsError as error:
                if number == len(lines) and not text.endswith("\n"):  # cut short
                    self._cut(len("".join(kept + "\n" for kept in lines[:-1]).encode()))
                    return count
                raise BullsCowsError(f"{error}; {_mend(number)}") from None
            try:
                question, window, found = schema.entry(entry)
            except _Invalid as error:
                raise BullsCowsError(f"{where} line {number}: {error}; {_mend(number)}") from None
            if found is None:
                self.failed[question] = max(window, self.failed.get(question, window))
            else:
                self.exact[question] = found
                self.checked.discard(question)
            count += 1
        if not text.endswith("\n"):
            self._write("", "a")  # the newline the last line lost
        return count

    def _cut(self, size: int) -> None:
        """Cut the file to its first ``size`` bytes."""
        try:
            os.ftruncate(self._out, size)
        except OSError as error:
            raise self._unwritable(error) from None

    def answer(
        self, weight: int, history: History, depth: int, window: int, check: Check | None = None
    ) -> Any:
        """The recorded answer to a request: ``(cost, tree)``, ``None`` (no tree below
        ``window``), or ``...`` when the file does not know. A recorded tree that ``check``
        refutes is forgotten (the part is to be searched again)."""
        question = (weight, history, depth)
        known = self.exact.get(question)
        if known is not None and check is not None and question not in self.checked:
            if check(known):
                self.checked.add(question)
            else:
                del self.exact[question]
                self.refuted += 1
                known = None
        if known is not None:
            return known if known[0] < window else None
        if self.failed.get(question, -1) >= window:
            return None
        return ...

    def record(self, weight: int, history: History, depth: int, window: int, found: Found) -> None:
        """Keep one answer, and append it to the file."""
        question = (weight, history, depth)
        if found is None:
            self.failed[question] = max(window, self.failed.get(question, window))
        else:
            self.exact[question] = found
            self.checked.add(question)  # found by this search
        if self._out < 0:  # in memory alone, or closed
            return
        cost, tree = (None, None) if found is None else (found[0], _plain(found[1]))
        line = json.dumps(
            {"weight": weight, "history": [list(step) for step in history], "depth": depth,
             "window": window, "cost": cost, "tree": tree},
            separators=(",", ":"),
        )  # fmt: skip
        self._write(line, "a")

    def _write(self, line: str, mode: str) -> None:
        """Write (``"w"``) or append (``"a"``) one line to the file."""
        data = memoryview((line + "\n").encode("utf-8"))
        try:
            if mode == "w":
                os.ftruncate(self._out, 0)
            while data:
                data = data[os.write(self._out, data) :]
        except OSError as error:
            raise self._unwritable(error) from None

    def _unwritable(self, error: OSError) -> BullsCowsError:
        assert self.path is not None
        return BullsCowsError(
            f"checkpoint {quote_path(self.path)} cannot be written: {error.strerror or error}"
        )


def _refused(error: BullsCowsError) -> BullsCowsError:
    """``error`` (a file that cannot be read as a checkpoint) saying what to do instead."""
    return BullsCowsError(f"{error}; {INSTEAD}")


def _mend(number: int) -> str:
    """What to do with a checkpoint damaged at line ``number`` (the end of its error)."""
    return f"mend or remove line {number} to resume from the other answers"


class _Invalid(Exception):
    """A checkpoint line that does not follow the schema (the message says how)."""


class _Schema:
    """The answer lines of a checkpoint for one variant: every field's type and range, and
    every code and reply within the variant.

    >>> from bullscows.rules import Rules
    >>> _Schema(Rules.parse("mm")).entry({"weight": 1, "history": [[7, 2]], "depth": 3,
    ...     "window": 9, "cost": None, "tree": None})
    ((1, ((7, 2),), 3), 9, None)
    >>> _Schema(Rules.parse("mm")).entry({"weight": 1, "history": [], "depth": 1,
    ...     "window": 9, "cost": 2, "tree": {"guess": 1296, "replies": {}}})
    Traceback (most recent call last):
    ...
    bullscows.search.checkpoint._Invalid: 'tree' guess 1296 is not a code index (0 to 1295)
    """

    KEYS = ("weight", "history", "depth", "window", "cost", "tree")

    def __init__(self, rules: Rules) -> None:
        self.codes = rules.size
        self.replies = rules.reply_slots

    def entry(self, entry: object) -> tuple[Question, int, Found]:
        """``(question, window, found)`` of one line's JSON value."""
        if not isinstance(entry, dict) or set(entry) != set(self.KEYS):
            raise _Invalid(f"expected an object with the keys {', '.join(self.KEYS)}")
        weight = _count(entry["weight"], "'weight'", 1)
        depth = _count(entry["depth"], "'depth'", 1 << 16)
        window = _count(entry["window"], "'window'", 1 << 62)
        history = entry["history"]
        if not isinstance(history, list) or len(history) > 64:
            raise _Invalid("'history' must be a list of [guess, reply] pairs")
        steps = tuple(self._step(step) for step in history)
        question = (weight, steps, depth)
        if entry["cost"] is None:
            if entry["tree"] is not None:
                raise _Invalid("'tree' must be null when 'cost' is")
            return question, window, None
        cost = _count(entry["cost"], "'cost'", 1 << 62)
        return question, window, (cost, self._tree(entry["tree"]))

    def _step(self, step: object) -> tuple[int, int]:
        if not isinstance(step, list) or len(step) != 2:
            raise _Invalid("'history' must be a list of [guess, reply] pairs")
        return self._code(step[0], "'history' guess"), self._reply(step[1], "'history' reply")

    def _code(self, value: object, what: str) -> int:
        if type(value) is not int or not 0 <= value < self.codes:
            raise _Invalid(
                f"{what} {quote_value(value)} is not a code index (0 to {self.codes - 1})"
            )
        return value

    def _reply(self, value: object, what: str) -> int:
        if isinstance(value, str) and value.isdigit() and len(value) <= 4:
            value = int(value)
        if type(value) is not int or not 0 <= value < self.replies:
            raise _Invalid(
                f"{what} {quote_value(value)} is not a reply index (0 to {self.replies - 1})"
            )
        return value

    def _tree(self, data: object) -> Node:
        """The tree of ``data`` (a node as JSON: string reply keys), read without recursion."""
        root = self._node(data)
        stack = [(data, root)]
        while stack:
            raw, node = stack.pop()
            assert isinstance(raw, dict)
            for key, sub in raw["replies"].items():
                node.branches[self._reply(key, "'tree' reply")] = child = self._node(sub)
                stack.append((sub, child))
        return root

    def _node(self, data: object) -> Node:
        if (
            not isinstance(data, dict)
            or set(data) != {"guess", "replies"}
            or not isinstance(data["replies"], dict)
        ):
            raise _Invalid("'tree' nodes must be objects with a 'guess' and 'replies' (an object)")
        return Node(self._code(data["guess"], "'tree' guess"))


def _plain(tree: Node) -> dict[str, Any]:
    """A tree as a checkpoint line holds it: ``{"guess": index, "replies": {"reply index":
    subtree}}`` at every node, leaves included (``_Schema._tree`` reads it back), built without
    recursion.

    >>> _plain(Node(7, {3: Node(9)}))
    {'guess': 7, 'replies': {'3': {'guess': 9, 'replies': {}}}}
    """
    top: dict[str, Any] = {"guess": tree.guess, "replies": {}}
    stack = [(tree, top)]
    while stack:
        node, out = stack.pop()
        for reply, child in node.branches.items():
            out["replies"][str(reply)] = below = {"guess": child.guess, "replies": {}}
            stack.append((child, below))
    return top


def _count(value: object, what: str, most: int) -> int:
    if type(value) is not int or not 0 <= value <= most:
        raise _Invalid(f"{what} {quote_value(value)} must be a whole number from 0 to {most:,}")
    return value


def _describe(header: dict[str, Any]) -> str:
    options = [f"{header['objective']}"]
    if header.get("max_depth") is not None:
        options.append(f"max depth {header['max_depth']}")
    if header.get("consistent_only"):
        options.append("consistent only")
    return f"{header['rules']}, {', '.join(options)}"
