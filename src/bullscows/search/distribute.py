"""Long searches: the parts two guesses deep as tasks, spread over an executor and kept in a
checkpoint file, so that an interrupted search resumes where it stopped.

The search settles the parts of a guess in rounds of narrow windows (``Search._settle`` in
``search.engine``). Two guesses into the game every part of a round is an independent task,
``(part, window)``: find the part's optimal tree if it costs less than ``window``, or prove that
none does. On an executor a round's tasks start in order, as many at once as it has workers (a
guess refuted early wastes at most the tasks already started, and on ``executors.Threads``
closing the round stops them); the search above them stays in this process. A round's tasks
alone would leave workers idle whenever the next round waits on the last answer of this one, so
the parts one guess above the tasks are spare work (work stealing): while a worker would be idle
it takes one, whole, from the end of its round (at most one fewer at a time than there are
workers), while this process goes through the round from the start; a part it reaches that no
worker took it solves itself, and one a worker took it awaits, so no part is solved twice.
Awaiting an answer, this process wakes as soon as any task in flight is done, spare ones
included, to give the worker come free more work at once; and each worker that is another
process is sent a start-up task (``start_workers``) as the search begins. Each answer is the
same wherever it is computed (the search picks, among equal costs, the first guess of a fixed
order), so a search spread over threads, processes or a Dask cluster gives the tree one process
gives. Parts of fewer than ``TASK_MIN`` codes are solved where they are asked: sending them
would cost more than solving them.

Each answer is appended to the checkpoint file as it comes, one JSON line (the first line says
which search the file belongs to; a line cut short by an interruption is ignored). A resumed
search asks the same questions and finds the answers there: an exact cost answers every
window, a failure every window up to its own. The file names codes and replies by their index
in the variant, which every machine enumerates alike: a copy resumes anywhere.

A task whose worker is lost (its process killed, a Dask worker gone for good, the local pool
broken) is sent again while the executor takes tasks, up to ``RETRIES`` times, and is then
solved in this process: a lost worker costs its task's time, never the search. A task that
fails for any other reason fails the same way here, so its error is not hidden.

>>> store = Checkpoint(None, "mm", "total", None, False)
>>> store.record(1, ((7, 2), (9, 1)), 5, 40, None)
>>> store.answer(1, ((7, 2), (9, 1)), 5, 30), store.answer(1, ((7, 2), (9, 1)), 5, 50)
(None, Ellipsis)
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from pathlib import Path
from typing import Any

from bullscows.errors import BullsCowsError
from bullscows.executors import Threads, workers
from bullscows.readers import load_json, quote, quote_path, quote_value, read_file, read_text
from bullscows.rules import Rules
from bullscows.tree.model import Node
from bullscows.universe import IndexArray

FORMAT = "bullscows-search-checkpoint"
VERSION = 2
#: The parts whose history has this many guesses are tasks in most variants (the level of a
#: search's tasks is ``search.engine.python_levels``).
TASK_LEVEL = 2
#: Smaller parts are solved where they are asked, and not kept in the checkpoint.
TASK_MIN = 30
#: Seconds between two calls of ``done`` while a task's answer is awaited.
WAIT_TICK = 1.0
#: How many times a task whose worker was lost is sent again before it is solved here.
RETRIES = 2
#: The largest checkpoint read (whole, into memory): a file of ours grows with its search,
#: past the cap of other files (``readers.MAX_FILE_BYTES``): 90 MB for ``bc-nolead`` after
#: 45 minutes.
CHECKPOINT_BYTES = 4 * 2**30

History = tuple[tuple[int, int], ...]
Found = tuple[int, Node] | None
#: ``(history, codes, window)``: one part and the window it is asked about.
Request = tuple[History, IndexArray, int]
#: What solves one request where it runs: (history, codes, depth, window) -> (found, nodes).
Task = Callable[..., tuple[Found, int]]
#: The key of a question: (weight, history, depth).
_Question = tuple[int, History, int]


def start_workers(executor: Executor, prepare: Callable[[], None]) -> None:
    """Send ``prepare`` (``search.worker.prepare``) to each of the executor's workers, ahead
    of any task: a local process starts (imports, loads the compiled kernels) while this
    one gets its own search ready, and its first task starts at once. Whether it worked does
    not matter: a worker lost or a pool broken shows again with the first task. Threads of
    this process (``executors.Threads``) need no start: this process loads the kernels.

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     start_workers(pool, lambda: None)
    """
    if isinstance(executor, Threads):
        return
    for _ in range(workers(executor)):
        try:
            executor.submit(prepare)
        except RuntimeError:  # a broken pool, or one shut down: the tasks will say so
            return


class Checkpoint:
    """The answers a search got about its tasks, kept in ``path`` (in memory only if ``None``).

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
        self.exact: dict[_Question, tuple[int, Node]] = {}
        self.failed: dict[_Question, int] = {}  # the highest window proven out of reach
        self.resumed = 0
        if path is not None and path.exists():
            self.resumed = self._load(path)
        elif path is not None:
            self._write(json.dumps(self.header), "w")

    def _load(self, path: Path) -> int:
        """Read the file's answers, each checked against the schema; how many there were."""
        where = f"checkpoint {quote_path(path)}"
        lines = read_text(read_file(path, where, CHECKPOINT_BYTES), where).splitlines()
        header = load_json(lines[0], where) if lines else None
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise BullsCowsError(f"{quote_path(path)} is not a bullscows search checkpoint")
        if header.get("version") != VERSION:
            raise BullsCowsError(
                f"{where} was written by another version of bullscows "
                f"(format {quote(str(header.get('version')))}, this one reads {VERSION}): "
                "delete it"
            )
        theirs = {key: header.get(key) for key in self.header}
        if theirs != self.header:
            raise BullsCowsError(
                f"{where} is for another search ({quote(_describe(theirs), 200)}), not "
                f"{_describe(self.header)}: give another file or delete it"
            )
        schema = _Schema(Rules.parse(str(self.header["rules"])))
        count = 0
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = load_json(line, where, line=number)
            except BullsCowsError:
                if number == len(lines):
                    break  # the last line, cut short when the search was interrupted
                raise
            try:
                question, window, found = schema.entry(entry)
            except _Invalid as error:
                raise BullsCowsError(f"{where} line {number}: {error}") from None
            if found is None:
                self.failed[question] = max(window, self.failed.get(question, window))
            else:
                self.exact[question] = found
            count += 1
        return count

    def answer(self, weight: int, history: History, depth: int, window: int) -> Any:
        """The recorded answer to a request: ``(cost, tree)``, ``None`` (no tree below
        ``window``), or ``...`` when the file does not know."""
        question = (weight, history, depth)
        known = self.exact.get(question)
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
        if self.path is None:
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
        assert self.path is not None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open(mode, encoding="utf-8") as out:
                out.write(line + "\n")
        except OSError as error:
            raise BullsCowsError(
                f"checkpoint {quote_path(self.path)} cannot be written: {error.strerror or error}"
            ) from None


class PartTasks:
    """Answers requests about parts: those ``level`` guesses deep of at least ``TASK_MIN``
    codes from the checkpoint, else by ``task`` on the executor, else in this process by
    ``local``; the others by ``local`` alone. ``done`` hears the sets each task searched
    elsewhere (0 while one is awaited)."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        weight: int,
        executor: Executor | None,
        task: Task,
        options: tuple[Any, ...],
        local: Callable[[History, IndexArray, int, int], Found],
        done: Callable[[int], None],
        level: int,
    ) -> None:
        self.checkpoint = checkpoint
        self.level = level
        self.weight = weight
        self.executor = executor
        self.task = task
        self.options = options
        self.local = local
        self.done = done
        self.width = 1 if executor is None else workers(executor)
        self.lost = 0  # tasks whose worker was lost (each sent again, or solved here)
        # Parts one guess above the tasks that a worker with nothing else to do may take
        # (``_fill``), the last first.
        self.spare: list[_Spare] = []
        self.active: set[Future[tuple[Found, int]]] = set()  # every task sent, while it runs
        # Every task sent whose sets ``done`` has not heard yet (``in_flight``).
        self.uncounted: set[Future[tuple[Found, int]]] = set()
        self.stolen: set[Future[tuple[Found, int]]] = set()  # the spare ones among them

    def is_task(self, history: History, codes: IndexArray) -> bool:
        """Whether a part is a task (answered by the checkpoint or the executor)."""
        return len(history) == self.level and len(codes) >= TASK_MIN

    def round(self, depth: int, requests: Sequence[Request]) -> Generator[Found, None, None]:
        """The answers, in order, computed as they are asked for. On an executor the tasks
        start in order, as many at a time as it has workers, ahead of the one awaited: the
        search stops asking once the guess is refuted, and closing the generator cancels the
        tasks started in vain."""
        known: dict[int, Any] = {}
        spare: dict[int, _Spare] = {}
        for i, (history, codes, window) in enumerate(requests):
            as_spare = self._is_spare(i, history, codes)
            if as_spare or self.is_task(history, codes):
                known[i] = answer = self.checkpoint.answer(self.weight, history, depth, window)
                if as_spare and answer is ...:
                    spare[i] = _Spare((*self.options, history, codes, depth, window))
        self.spare.extend(spare.values())  # taken from the end (``_fill``)
        waiting = deque(i for i, answer in known.items() if answer is ... and i not in spare)
        futures: dict[int, Future[tuple[Found, int]]] = {}

        def submit(i: int) -> bool:
            """Send task ``i`` to the executor; ``False`` if it takes no more tasks."""
            if self.executor is None:
                return False
            history, codes, window = requests[i]
            arguments = (*self.options, history, codes, depth, window)
            try:
                futures[i] = self.executor.submit(self.task, *arguments)
                self.active.add(futures[i])
                self.uncounted.add(futures[i])
            except RuntimeError:  # a broken pool (BrokenExecutor), or one shut down
                self.executor = None  # the tasks left are solved here
                return False
            return True

        def start() -> None:
            running = sum(not future.done() for future in futures.values())
            while waiting and running < self.width and submit(waiting[0]):
                waiting.popleft()
                running += 1
            self._fill()

        try:
            for i, (history, codes, window) in enumerate(requests):
                answer = known.get(i, ...)
                if answer is not ...:
                    yield answer
                    continue
                if i in known:
                    if i in spare:
                        answer = self._take(spare.pop(i))
                    else:
                        answer = self._await(i, futures, start, submit)
                    if answer is ...:  # no executor, or none that took it
                        answer = self.local(history, codes, depth, window)
                    self.checkpoint.record(self.weight, history, depth, window, answer)
                else:
                    answer = self.local(history, codes, depth, window)
                yield answer
        finally:
            for future in futures.values():
                future.cancel()
                self.uncounted.discard(future)
            for entry in spare.values():
                if entry in self.spare:
                    self.spare.remove(entry)
                if entry.future is not None:
                    entry.future.cancel()
                    self.uncounted.discard(entry.future)

    def in_flight(self) -> int:
        """Sets searched so far by the tasks sent whose sets ``done`` has not heard yet: a
        finished task's count, and a running one's so far on ``Threads`` (its search's
        counters, read live); a task in another process counts once it ends."""
        finished = 0
        for future in self.uncounted:
            if future.done() and not future.cancelled() and future.exception() is None:
                finished += future.result()[1]
        running = self.executor.counted() if isinstance(self.executor, Threads) else 0
        return finished + running

    def _is_spare(self, i: int, history: History, codes: IndexArray) -> bool:
        """Whether request ``i`` of a round is spare work for idle workers (work stealing):
        on an executor, every part one guess above the tasks of at least ``TASK_MIN`` codes
        but a round's first, which this process starts on. Workers take them from the last,
        this process from the first; one it reaches that no worker took is solved here."""
        return (
            self.executor is not None
            and i > 0
            and len(history) == self.level - 1
            and len(codes) >= TASK_MIN
        )

    def _fill(self) -> None:
        """Send spare requests (``_is_spare``) while a worker would be idle, the last first,
        at most one fewer at a time than the executor has workers (so a task of the search
        under way always finds one)."""
        self.active = {future for future in self.active if not future.done()}
        self.stolen &= self.active
        while self.spare and len(self.active) < self.width and len(self.stolen) < self.width - 1:
            if self.executor is None:  # a broken pool: this process solves them
                return
            entry = self.spare.pop()
            try:
                entry.future = self.executor.submit(self.task, *entry.arguments)
            except RuntimeError:  # a broken pool: this process solves it when it gets there
                self.executor = None
                return
            self.active.add(entry.future)
            self.stolen.add(entry.future)
            self.uncounted.add(entry.future)

    def _take(self, entry: _Spare) -> Any:
        """The answer to a spare request: its task's if a worker took it (awaited, sending
        more spare work to a worker come free meanwhile); ``...`` when it is to be solved
        here: no worker took it, or its worker was lost."""
        if entry in self.spare:
            self.spare.remove(entry)
        future = entry.future
        if future is None:
            return ...
        while not future.done():
            self._wait([future])
            self._fill()
            self.done(0)
        return self._result(future)

    def _wait(self, futures: list[Future[tuple[Found, int]]]) -> None:
        """Wait until one of ``futures`` or of the tasks in flight (``active``, spare ones
        included: a worker that finished one is to be given more at once) is done, or
        ``WAIT_TICK`` seconds."""
        running = {future for future in self.active if not future.done()}
        wait([*futures, *running], timeout=WAIT_TICK, return_when=FIRST_COMPLETED)

    def _await(
        self,
        i: int,
        futures: dict[int, Future[tuple[Found, int]]],
        start: Callable[[], None],
        submit: Callable[[int], bool],
    ) -> Any:
        """The answer of task ``i``, starting more tasks as workers come free meanwhile;
        ``...`` when it is to be solved here: no executor takes it, or its worker was lost
        more than ``RETRIES`` times."""
        for _ in range(RETRIES + 1):
            start()
            if i not in futures and not submit(i):
                return ...
            while not futures[i].done():
                self._wait([future for future in futures.values() if not future.done()])
                start()
                self.done(0)
            answer = self._result(futures.pop(i))
            if answer is not ...:
                return answer
        return ...

    def _result(self, future: Future[tuple[Found, int]]) -> Any:
        """A finished task's answer (its sets searched told to ``done``), or ``...`` if its
        worker was lost; a task that failed otherwise fails the same way here."""
        self.uncounted.discard(future)
        try:
            found, nodes = future.result()
        except (BullsCowsError, AssertionError):
            raise  # not a lost worker: the task itself failed
        except Exception:  # a lost worker shows as BrokenProcessPool, KilledWorker, ...
            self.lost += 1
            return ...
        self.done(nodes)
        return found


class _Spare:
    """A spare request (``PartTasks._is_spare``): its task's arguments, and its future once a
    worker was sent it."""

    def __init__(self, arguments: tuple[Any, ...]) -> None:
        self.arguments = arguments
        self.future: Future[tuple[Found, int]] | None = None


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
    bullscows.search.distribute._Invalid: 'tree' guess 1296 is not a code index (0 to 1295)
    """

    KEYS = ("weight", "history", "depth", "window", "cost", "tree")

    def __init__(self, rules: Rules) -> None:
        self.codes = rules.size
        self.replies = rules.reply_slots

    def entry(self, entry: object) -> tuple[_Question, int, Found]:
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
