"""The memory-bounded cache: threads asking at once for one value wait for one build."""

from __future__ import annotations

import threading

import pytest

from bullscows.caching import sized_cache

#: The longest wait for a thread (to start, to end): minutes, for a loaded machine.
WAIT = 300


def test_threads_asking_at_once_share_one_build() -> None:
    calls, started, release = [], threading.Event(), threading.Event()

    @sized_cache(budget=100, size_of=len)
    def slow(n: int) -> list[int]:
        calls.append(n)
        started.set()
        release.wait(WAIT)
        return [n]

    results: list[list[int]] = []
    threads = [threading.Thread(target=lambda: results.append(slow(3))) for _ in range(4)]
    threads[0].start()
    assert started.wait(WAIT)
    for thread in threads[1:]:
        thread.start()
    release.set()
    for thread in threads:
        thread.join(WAIT)
    assert calls == [3] and len(results) == 4
    assert all(result is results[0] for result in results)


def test_a_failed_build_is_raised_and_tried_again() -> None:
    calls = []

    @sized_cache(budget=100, size_of=len)
    def fragile(n: int) -> list[int]:
        calls.append(n)
        if len(calls) == 1:
            raise ValueError(f"no value {n}")
        return [n]

    with pytest.raises(ValueError, match="no value 5"):
        fragile(5)
    assert fragile(5) == [5] and calls == [5, 5]
    assert fragile.cache_info() == (1, 1)
