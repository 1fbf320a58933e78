"""Long searches: the parts two guesses deep as tasks, spread over an executor, so that a search
runs on threads, processes or a Dask cluster and an interrupted one resumes where it stopped.

Each task, ``(part, window)``, finds the part's optimal tree if it costs less than ``window``, or
proves that none does; the answer is the same wherever it is computed. Idle workers take whole
parts from the end of a round (work stealing); a lost worker's task is sent again up to
``RETRIES`` times, then solved here; answers are kept in the search's checkpoint
(``search.checkpoint``). docs/explanation/search.md says how, and why.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from bullscows.dask_tasks import DaskTasks
from bullscows.errors import BullsCowsError
from bullscows.executors import (
    TaskStopped,
    Threads,
    current_team,
    stop_flag,
    withdraw,
    workers,
)
from bullscows.search.checkpoint import Check, Checkpoint, Found, History
from bullscows.tree.model import Node
from bullscows.universe import IndexArray

#: The parts whose history has this many guesses are tasks in most variants (the level of a
#: search's tasks is ``search.engine.python_levels``).
TASK_LEVEL = 2
#: Smaller parts are solved where they are asked, and not kept in the checkpoint.
TASK_MIN = 30
#: Seconds between two calls of ``done`` while a task's answer is awaited (each may report
#: progress, and so see a budget spent: ``search.reporting``).
WAIT_TICK = 0.2
#: How many times a task whose worker was lost is sent again before it is solved here.
RETRIES = 2
#: ``(history, codes, window)``: one part and the window it is asked about.
Request = tuple[History, IndexArray, int]
#: What solves one request where it runs: (history, codes, depth, window) -> (found, nodes).
Task = Callable[..., tuple[Found, int]]
#: What solves a part in the process that asks: (history, codes, depth, window) -> found.
Local = Callable[[History, IndexArray, int, int], Found]
#: The requests the search will likely ask next, in order (``PartTasks.ahead``).
Upcoming = Callable[[], Iterable[Request]]
#: ``PartTasks.known``'s answer for a part too small to be a task, not solved yet.
LATER: Any = object()
#: The priorities of a search's tasks on ``executors.Threads``, where a thread come free takes
#: the lowest first: a round's tasks that the searching thread waits for; those of a spare
#: part's round, which its worker waits for; whole spare parts, the longest chains of rounds,
#: not waited for yet; a split's helpers (``search.split``), which only hasten a task under
#: way; and the rounds sent ahead (``PartTasks.ahead``), which no round waits for while they
#: wait (a round that asks one not started yet takes it back and sends it at its own priority).
ROUND, SPARE_ROUND, SPARE, HELP, AHEAD = range(5)


def start_workers(executor: Executor, prepare: Callable[[], None]) -> None:
    """Send ``prepare`` (``search.worker.prepare``) to each of the executor's workers, ahead
    of any task: a local process starts (imports, loads the compiled kernels) while this
    one gets its own search ready, and its first task starts at once. Whether it worked does
    not matter: a worker lost or a pool broken shows again with the first task. For threads
    of this process (``executors.Threads``) it runs once here, on a thread of its own that
    this one waits for (no search watch of this thread is armed, and no thread of the team
    loads a kernel while the search may be interrupted).

    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(2) as pool:
    ...     start_workers(pool, lambda: None)
    """
    if isinstance(executor, Threads):
        loader = threading.Thread(target=prepare, name="bullscows-prepare", daemon=True)
        loader.start()
        loader.join()
        return
    for _ in range(workers(executor)):
        try:
            executor.submit(prepare)
        except RuntimeError:  # a broken pool, or one shut down: the tasks will say so
            return


def submit_at(executor: Executor, priority: int, task: Task, *arguments: Any) -> Future[Any]:
    """``task(*arguments)`` sent to ``executor``, at ``priority`` on ``Threads`` (the others
    keep their own order)."""
    if isinstance(executor, Threads):
        return executor.submit_at(priority, task, *arguments)
    return executor.submit(task, *arguments)


class PartTasks:
    """Answers requests about parts: those ``level`` guesses deep of at least ``TASK_MIN``
    codes from the checkpoint, else by ``task`` on the executor, else in this process by
    ``local``; the others by ``local`` alone. ``done`` hears the sets each task searched
    elsewhere (0 while one is awaited). ``trust`` tells whether a tree the checkpoint gives
    for a part (codes, depth) costs what it claims; one that does not is searched again."""

    def __init__(
        self,
        checkpoint: Checkpoint,
        weight: int,
        executor: Executor | None,
        task: Task,
        options: tuple[Any, ...],
        local: Local,
        done: Callable[[int], None],
        level: int,
        trust: Callable[[IndexArray, int, tuple[int, Node]], bool],
    ) -> None:
        self.checkpoint = checkpoint
        self.level = level
        self.weight = weight
        self.executor = executor
        self.task = task
        self.options = options
        self.local = local
        self.done = done
        self.trust = trust
        self.width = 1 if executor is None else workers(executor)
        self.lost = 0  # tasks whose worker was lost (each sent again, or solved here)
        # Parts one guess above the tasks that a worker with nothing else to do may take
        # (``_fill``), the last first.
        self.spare: list[_Spare] = []
        self.active: set[Future[tuple[Found, int]]] = set()  # every task sent, while it runs
        # Every task sent whose sets ``done`` has not heard yet (``in_flight``).
        self.uncounted: set[Future[tuple[Found, int]]] = set()
        self.stolen: set[Future[tuple[Found, int]]] = set()  # the spare ones among them
        # The rounds the search will likely ask next (``ahead``), their parts' depth, and
        # each task sent early: its future and the window it was sent with.
        self.upcoming: Upcoming | None = None
        self.upcoming_depth = 0
        self.early: dict[History, tuple[Future[tuple[Found, int]], int]] = {}
        # The answers of parts too small to be tasks, solved here ahead of their round.
        self.solved: dict[tuple[History, int], Found] = {}

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
        futures: dict[int, Future[tuple[Found, int]]] = {}
        sent: dict[int, int] = {}  # the window of each task sent early and adopted
        for i, (history, codes, window) in enumerate(requests):
            as_spare = self._is_spare(i, history, codes)
            if as_spare or self.is_task(history, codes):
                early = self._early(history, depth, window)
                check = self._check(codes, depth)
                known[i] = answer = self.checkpoint.answer(
                    self.weight, history, depth, window, check
                )
                if as_spare and answer is ...:
                    spare[i] = _Spare((*self.options, history, codes, depth, window))
                elif early is not None and answer is ...:
                    futures[i], sent[i] = early
                    self.active.add(early[0])
                elif early is not None:
                    self._drop(early[0])
        self.spare.extend(spare.values())  # taken from the end (``_fill``)
        waiting = deque(
            i for i, answer in known.items() if answer is ... and i not in spare and i not in sent
        )

        def submit(i: int) -> bool:
            """Send task ``i`` to the executor; ``False`` if it takes no more tasks."""
            if self.executor is None:
                return False
            sent.pop(i, None)
            history, codes, window = requests[i]
            arguments = (*self.options, history, codes, depth, window)
            # A spare part's worker (on the team) asks its own rounds: after the searching thread's.
            priority = SPARE_ROUND if current_team() is self.executor else ROUND
            try:
                futures[i] = submit_at(self.executor, priority, self.task, *arguments)
                self.active.add(futures[i])
                self.uncounted.add(futures[i])
            except RuntimeError:  # a broken pool (BrokenExecutor), or one shut down
                self.executor = None  # the tasks left are solved here
                return False
            return True

        def start() -> None:
            running = sum(not future.done() for future in futures.values())
            while waiting and running < self.width and self._room() and submit(waiting[0]):
                waiting.popleft()
                running += 1
            self._fill()

        try:
            if spare:  # to idle workers at once, not once this round's first part has tasks
                self._fill()  # (inside the ``try``: its ``finally`` cancels what was sent)
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
                    used = sent.pop(i, window) if answer is not ... else window
                    if answer is ...:  # no executor, or none that took it
                        answer = self.local(history, codes, depth, window)
                    self.checkpoint.record(self.weight, history, depth, used, answer)
                    if answer is not None and answer[0] >= window:  # sent early, wider
                        answer = None
                else:
                    answer = self.solved.pop((history, window), ...)
                    if answer is ...:
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

    def _check(self, codes: IndexArray, depth: int) -> Check:
        """``trust`` of one part, as the checkpoint asks it."""
        return lambda found: self.trust(codes, depth, found)

    def in_flight(self) -> int:
        """Sets searched so far by the tasks sent whose sets ``done`` has not heard yet: a
        finished task's count, and a running one's so far on ``Threads`` (its search's
        counters, read live) or a Dask cluster (as its worker last told it, every
        ``dask_tasks.TELL_EVERY`` seconds); a task in a local process counts once it ends."""
        finished = 0
        for future in self.uncounted:
            if future.done() and not future.cancelled() and future.exception() is None:
                finished += future.result()[1]
        running = self.executor.counted() if isinstance(self.executor, (Threads, DaskTasks)) else 0
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
                entry.future = submit_at(self.executor, SPARE, self.task, *entry.arguments)
            except RuntimeError:  # a broken pool: this process solves it when it gets there
                self.executor = None
                return
            self.active.add(entry.future)
            self.stolen.add(entry.future)
            self.uncounted.add(entry.future)
        self.send_ahead()

    def ahead(self, depth: int, upcoming: Upcoming | None) -> None:
        """Tell the tasks what the search will likely ask next: ``upcoming()`` gives the
        requests of its next rounds, in order (the rounds of the guesses left at a set, as
        far as the answers known go: ``settle.rounds_ahead``), their parts ``depth`` deep.
        While a worker of ``Threads`` is idle, their tasks are sent early (``send_ahead``);
        a round that asks one takes its answer, or its future while it runs. ``None``: no
        more; the tasks sent early that no round took are stopped (the answers of those
        finished are kept in the checkpoint)."""
        self.upcoming, self.upcoming_depth = upcoming, depth
        if upcoming is None:
            self.solved.clear()
            for history in [h for h, (future, _) in self.early.items() if not future.done()]:
                self._drop(self.early.pop(history)[0])  # all stopped before any answer is read
            for history in list(self.early):
                self._early(history, depth, 0)

    def known(self, request: Request) -> Any:
        """The answer known to a request of the rounds ``ahead``: a task's, as the
        checkpoint knows it (a task sent early and finished heard first), else ``...``; a
        part too small to be a task, solved here (``solve``) if it was, else ``LATER``."""
        history, codes, window = request
        depth = self.upcoming_depth
        if not self.is_task(history, codes):
            return self.solved.get((history, window), LATER)
        entry = self.early.get(history)
        if entry is not None and entry[0].done():
            self._early(history, depth, window)  # its answer, into the checkpoint
        check = self._check(codes, depth)
        return self.checkpoint.answer(self.weight, history, depth, window, check)

    def solve(self, request: Request) -> Found:
        """A part too small to be a task of the rounds ``ahead``, solved here now: its
        round takes the answer, rather than solve it again."""
        history, codes, window = request
        found = self.local(history, codes, self.upcoming_depth, window)
        self.solved[history, window] = found
        return found

    def send_ahead(self) -> None:
        """Send the tasks of the rounds to come (``ahead``), in order, while a worker of
        ``Threads`` is idle: each to be adopted by the round that asks it."""
        team, depth = self.executor, self.upcoming_depth
        if self.upcoming is None or not isinstance(team, Threads) or team.idle() == 0:
            return
        for history, codes, window in self.upcoming():
            if history in self.early or not self.is_task(history, codes):
                continue
            try:
                arguments = (*self.options, history, codes, depth, window)
                future = team.submit_at(AHEAD, self.task, *arguments)
            except RuntimeError:  # shut down: the rounds solve them as they come
                return
            self.early[history] = (future, window)
            self.uncounted.add(future)
            if team.idle() == 0:
                return

    def _early(
        self, history: History, depth: int, window: int
    ) -> tuple[Future[tuple[Found, int]], int] | None:
        """The task sent early for the part ``history`` (``send_ahead``), no longer early:
        its future and window if under way and sent with at least ``window`` (its answer
        then answers ``window`` too); once finished, its answer kept in the checkpoint
        instead; else ``None``: one not started is taken back, for the round that asks it
        to send it again at its own priority, not wait for it behind every other task."""
        entry = self.early.pop(history, None)
        if entry is None:
            return None
        future, sent = entry
        if future.done():
            answer = ... if future.cancelled() else self._result(future)
            if answer is not ...:
                self.checkpoint.record(self.weight, history, depth, sent, answer)
            self.uncounted.discard(future)
            return None
        if withdraw(future):  # not started: it would wait at ``AHEAD``
            self.uncounted.discard(future)
            return None
        if sent < window:
            self._drop(future)
            return None
        return entry

    def _drop(self, future: Future[tuple[Found, int]]) -> None:
        """Stop a task sent early whose answer no round will use."""
        future.cancel()
        self.uncounted.discard(future)

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
        running.update(future for future, _ in self.early.values() if not future.done())
        wait([*futures, *running], timeout=WAIT_TICK, return_when=FIRST_COMPLETED)
        flag = stop_flag()  # a task on a worker that waits for others: told to stop?
        if flag is not None and flag[0]:
            raise TaskStopped("told to stop")

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
            if i not in futures and not (self._room() and submit(i)):
                return ...
            if self._take_back(futures[i]):
                del futures[i]
                return ...
            while not futures[i].done():
                self._wait([future for future in futures.values() if not future.done()])
                start()
                self.done(0)
            answer = self._result(futures.pop(i))
            if answer is not ...:
                return answer
        return ...

    def _room(self) -> bool:
        """Whether a task may be sent now: always from the searching thread; from a worker
        of the executor (a spare part's rounds) only while one of its workers is idle, so
        that a busy team leaves the parts to this worker and its memo."""
        team = self.executor
        return current_team() is not team or not isinstance(team, Threads) or team.idle() > 0

    def _take_back(self, future: Future[tuple[Found, int]]) -> bool:
        """On a worker of the executor (a spare part's rounds, ``search.worker``): whether
        ``future``'s task, not started yet, was taken back, to be solved on this thread
        rather than waited for (no worker then waits for a task that no idle one takes); one
        under way is left to run."""
        if current_team() is not self.executor or not withdraw(future):
            return False
        self.uncounted.discard(future)
        self.active.discard(future)
        return True

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
