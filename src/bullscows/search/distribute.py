"""Long searches: the parts under the first guess as tasks, spread over an executor and kept
in a checkpoint file, so that an interrupted search resumes where it stopped.

The search settles the parts of a guess in rounds of narrow windows (``search.optimal``); at
the root every part of a round is an independent task, ``(part, window)``: find the part's
optimal tree if it costs less than ``window``, or prove that none does. Each answer is the
same wherever it is computed (the search picks, among equal costs, the first guess of a fixed
order), so a search spread over processes or a Dask cluster gives the tree one process gives.

Each answer is written to the checkpoint file as it comes (the file is replaced whole, so an
interruption leaves the old file or the new one). A resumed search asks the same questions and
finds the answers there: an exact cost answers every window, a failure every window up to its
own.

>>> store = Checkpoint(None, "mm", "total", None, False)
>>> store.record(1, ((7, 2),), 5, 40, None)
>>> store.answer(1, ((7, 2),), 5, 30), store.answer(1, ((7, 2),), 5, 50)
(None, Ellipsis)
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from bullscows.errors import BullsCowsError
from bullscows.executors import run_tasks
from bullscows.search.tree import Tree
from bullscows.universe import IndexArray

FORMAT = "bullscows-search-checkpoint"
VERSION = 1

History = tuple[tuple[int, int], ...]
Found = tuple[int, Tree] | None
#: ``(history, codes, window)``: one part of the root and the window it is asked about.
Request = tuple[History, IndexArray, int]
#: What solves one request where it runs: (history, codes, depth, window) -> (found, nodes).
Task = Callable[..., tuple[Found, int]]


class Checkpoint:
    """The answers a search got at the root, kept in ``path`` (in memory only if ``None``).

    A file made for another variant or other options is refused, never overwritten.
    """

    def __init__(
        self,
        path: Path | None,
        spec: str,
        objective: str,
        max_depth: int | None,
        consistent_only: bool,
    ) -> None:
        self.path = path
        self.header = {
            "format": FORMAT, "version": VERSION, "rules": spec, "objective": objective,
            "max_depth": max_depth, "consistent_only": consistent_only,
        }  # fmt: skip
        self.entries: list[dict[str, Any]] = []
        if path is not None and path.exists():
            self.entries = self._load(path)
        self.resumed = len(self.entries)

    def _load(self, path: Path) -> list[dict[str, Any]]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise BullsCowsError(f"checkpoint {str(path)!r} cannot be read: {error}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BullsCowsError(f"{str(path)!r} is not a bullscows search checkpoint")
        theirs = {key: data.get(key) for key in self.header}
        if theirs != self.header:
            raise BullsCowsError(
                f"checkpoint {str(path)!r} is for another search ({_describe(theirs)}), not "
                f"{_describe(self.header)}: give another file or delete it"
            )
        entries: list[dict[str, Any]] = data.get("entries", [])
        return entries

    def answer(self, weight: int, history: History, depth: int, window: int) -> Any:
        """The recorded answer to a request: ``(cost, tree)``, ``None`` (no tree below
        ``window``), or ``...`` when the file does not know."""
        for entry in self.entries:
            if (entry["weight"], _history(entry["history"]), entry["depth"]) != (
                weight,
                history,
                depth,
            ):
                continue
            if entry["cost"] is not None:
                cost = int(entry["cost"])
                return (cost, _tree(entry["tree"])) if cost < window else None
            if entry["window"] >= window:
                return None
        return ...

    def record(self, weight: int, history: History, depth: int, window: int, found: Found) -> None:
        """Keep one answer, and write the file."""
        self.entries.append({
            "weight": weight, "history": [list(step) for step in history], "depth": depth,
            "window": window, "cost": None if found is None else found[0],
            "tree": None if found is None else found[1],
        })  # fmt: skip
        if self.path is None:
            return
        text = json.dumps({**self.header, "entries": self.entries}, separators=(",", ":"))
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".checkpoint-")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, self.path)


class RootTasks:
    """Answers requests about the root's parts: from the checkpoint, else by ``task`` on the
    executor (all requests of a round at once), else in this process by ``local``."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        weight: int,
        executor: Executor | None,
        task: Task,
        options: tuple[Any, ...],
        local: Callable[[History, IndexArray, int, int], Found],
        done: Callable[[int], None],
    ) -> None:
        self.checkpoint = checkpoint
        self.weight = weight
        self.executor = executor
        self.task = task
        self.options = options
        self.local = local
        self.done = done

    def round(self, depth: int, requests: Sequence[Request]) -> Iterator[Found]:
        """The answers, in order. Without an executor they are computed one at a time, as
        they are asked for (the search stops asking once the guess is refuted)."""
        known = [self.checkpoint.answer(self.weight, h, depth, w) for h, _, w in requests]
        if self.executor is None:
            for (history, codes, window), answer in zip(requests, known, strict=True):
                if answer is ...:
                    answer = self.local(history, codes, depth, window)
                    self.checkpoint.record(self.weight, history, depth, window, answer)
                yield answer
            return
        missing = [i for i, answer in enumerate(known) if answer is ...]
        tasks = [
            (self.task, (*self.options, *requests[i][:2], depth, requests[i][2])) for i in missing
        ]
        for j, (found, nodes) in run_tasks(tasks, self.executor):
            history, _, window = requests[missing[j]]
            self.checkpoint.record(self.weight, history, depth, window, found)
            known[missing[j]] = found
            self.done(nodes)
        yield from known


def _history(steps: list[list[int]]) -> History:
    return tuple((int(guess), int(reply)) for guess, reply in steps)


def _tree(data: dict[str, Any]) -> Tree:
    """A tree read back from JSON (whose object keys are strings)."""
    return {
        "guess": int(data["guess"]),
        "replies": {int(reply): _tree(sub) for reply, sub in data["replies"].items()},
    }


def _describe(header: dict[str, Any]) -> str:
    options = [f"{header['objective']}"]
    if header.get("max_depth") is not None:
        options.append(f"max depth {header['max_depth']}")
    if header.get("consistent_only"):
        options.append("consistent only")
    return f"{header['rules']}, {', '.join(options)}"
