"""A cache bounded by the memory its values hold, for a long-running process (a server).

``functools.cache`` keeps every value for ever: a process that meets many variants would keep
every universe it ever built (10 distinct digits alone pin 181 MB). ``sized_cache`` keeps the
values most recently used while their sizes add up to at most ``budget`` bytes; the newest
value is kept whatever its size, so a large variant is built once per use, not once per call.
Threads asking at once for a value not yet kept wait for one build of it. ``Kept`` keeps
the last results by key, for results computed elsewhere (the server's bench and explorer).

>>> calls = []
>>> @sized_cache(budget=10, size_of=len)
... def word(n: int) -> str:
...     calls.append(n)
...     return "x" * n
>>> [len(word(n)) for n in (4, 4, 5, 3, 4)], calls
([4, 4, 5, 3, 4], [4, 5, 3, 4])
>>> word.cache_info()
(2, 7)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import wraps
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SizedCache(Generic[K, V]):
    """The values of ``function`` by argument, least recently used first out."""

    def __init__(self, function: Callable[[K], V], budget: int, size_of: Callable[[V], int]):
        self.function = function
        self.budget = budget
        self.size_of = size_of
        self._values: OrderedDict[K, tuple[V, int]] = OrderedDict()
        self._lock = threading.Lock()
        #: The keys being built, each with the event its build sets once done.
        self._building: dict[K, threading.Event] = {}
        wraps(function)(self)

    def __call__(self, key: K) -> V:
        while True:
            with self._lock:
                if key in self._values:
                    self._values.move_to_end(key)
                    return self._values[key][0]
                building = self._building.get(key)
                if building is None:  # this thread builds it
                    building = self._building[key] = threading.Event()
                    break
            building.wait()  # another thread builds it: one build, then look again
        try:
            value = self.function(key)  # outside the lock: building may take seconds
            with self._lock:
                self._values[key] = (value, self.size_of(value))
                self._values.move_to_end(key)
                held = sum(size for _, size in self._values.values())
                while held > self.budget and len(self._values) > 1:
                    _, (_, size) = self._values.popitem(last=False)
                    held -= size
        finally:
            with self._lock:
                del self._building[key]
            building.set()
        return value

    def cache_info(self) -> tuple[int, int]:
        """How many values are kept, and the bytes they hold."""
        with self._lock:
            return len(self._values), sum(size for _, size in self._values.values())

    def cache_clear(self) -> None:
        with self._lock:
            self._values.clear()


def sized_cache(
    budget: int, size_of: Callable[[V], int]
) -> Callable[[Callable[[K], V]], SizedCache[K, V]]:
    """Decorate a function of one hashable argument with a ``SizedCache``."""

    def decorate(function: Callable[[K], V]) -> SizedCache[K, V]:
        return SizedCache(function, budget, size_of)

    return decorate


class Kept(Generic[K, V]):
    """The results of the last ``size`` computations by key, the least recently used dropped
    first (a page, its chart and its downloads run a computation once).

    >>> kept = Kept[str, int](2)
    >>> kept.put("a", 1), kept.put("b", 2), kept.get("a"), kept.put("c", 3), kept.get("b")
    ([], [], 1, [2], None)
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The result kept for ``key`` (now the most recently used), or ``None``."""
        with self._lock:
            if key not in self._values:
                return None
            self._values.move_to_end(key)
            return self._values[key]

    def put(self, key: K, value: V) -> list[V]:
        """Keep ``value`` for ``key``; the results dropped to make room."""
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            extra = max(0, len(self._values) - self.size)
            return [self._values.popitem(last=False)[1] for _ in range(extra)]
