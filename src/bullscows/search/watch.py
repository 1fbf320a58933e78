"""A search's limits, progress and Ctrl-C while its own thread is in one long compiled call.

While a call is under way (``with watch:``) a thread of the watch reports progress and, when
the report raises or Ctrl-C is pressed, sets the search's stop flag, then raises what the
report raised (``resume`` says whether to call again); docs/kernels.md ("Stopping a compiled
call") explains why and how.

>>> import numpy as np
>>> stop, told = np.zeros(1, dtype=np.int64), []
>>> watch = Watch(stop, lambda: told.append(1), tick=0.01)
>>> with watch:
...     while not told:
...         time.sleep(0.01)
>>> bool(told), int(stop[0])
(True, 0)
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time
from collections.abc import Callable
from types import TracebackType

import numpy as np
import numpy.typing as npt

#: Seconds between two looks at the call under way.
TICK = 0.2
#: Seconds without a call under way after which the watch's thread ends (the next call
#: starts another).
IDLE = 5.0


class Watch:
    """Calls ``report`` every ``tick`` seconds while a call is under way (``with``), and
    sets ``stop[0]`` when it raises or Ctrl-C is pressed."""

    def __init__(
        self, stop: npt.NDArray[np.int64], report: Callable[[], None], tick: float = TICK
    ) -> None:
        self.stop = stop
        self.report = report
        self.tick = tick
        self.lock = threading.Lock()
        self.armed = False
        self.since = 0.0  # when the last call ended
        self.failure: BaseException | None = None  # what a report raised
        self.interrupted = False  # Ctrl-C was pressed during the call
        self.thread: threading.Thread | None = None
        self.wakeup: tuple[int, int] | None = None  # the wakeup pipe, while the thread runs
        self.previous = -1  # the wakeup file before the call (restored after it)

    def __enter__(self) -> Watch:
        with self.lock:
            self.armed = True
            self.failure, self.interrupted = None, False
            if self.thread is None:
                main = threading.current_thread() is threading.main_thread()
                self.wakeup = os.pipe() if main else None
                if self.wakeup is not None:
                    os.set_blocking(self.wakeup[1], False)
                self.thread = threading.Thread(target=self._run, name="search watch", daemon=True)
                self.thread.start()
        self._take_signals()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        with self.lock:
            self.armed = False
            self.since = time.monotonic()
        self._give_back_signals()
        if self.stop[0] and (self.failure is not None or self.interrupted):
            self.stop[0] = 0  # set by the watch, not by whoever else may stop the search
            if self.failure is not None and kind is None:
                raise self.failure
            if self.interrupted:
                time.sleep(0.01)  # the signal's handler runs (Ctrl-C: KeyboardInterrupt)

    def resume(self) -> bool:
        """Whether the call just made stopped only for a Ctrl-C that raised nothing: make it
        again (its memo keeps what it settled)."""
        return self.interrupted and self.failure is None

    def _take_signals(self) -> None:
        """Have a signal write to the watch's pipe during the call (main thread only, when
        no other wakeup file is set)."""
        self.previous = -1
        if self.wakeup is None:
            return
        try:
            self.previous = signal.set_wakeup_fd(self.wakeup[1], warn_on_full_buffer=False)
        except ValueError:  # not the main thread after all
            return
        if self.previous != -1:  # another part of the program listens: leave it alone
            signal.set_wakeup_fd(self.previous)
            self.previous = -2

    def _give_back_signals(self) -> None:
        if self.wakeup is not None and self.previous != -2:
            with contextlib.suppress(ValueError):  # not the main thread
                signal.set_wakeup_fd(self.previous)

    def _run(self) -> None:
        """The watch's thread: report while a call is under way, stop it when told to."""
        wakeup = self.wakeup
        while True:
            if wakeup is not None:
                ready = select.select([wakeup[0]], [], [], self.tick)[0]
                signalled = bool(ready) and bool(os.read(wakeup[0], 512))
            else:
                time.sleep(self.tick)
                signalled = False
            with self.lock:
                if not self.armed:
                    if time.monotonic() - self.since > IDLE:
                        self.thread = None
                        break
                    continue
                if signalled:
                    self.interrupted = True
                    self.stop[0] = 1
                    continue
                try:
                    self.report()
                except BaseException as error:  # a budget spent, a progress callback's error
                    self.failure = error
                    self.stop[0] = 1
        if wakeup is not None:
            os.close(wakeup[0])
            os.close(wakeup[1])
