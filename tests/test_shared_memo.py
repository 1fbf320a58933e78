"""The table of sets that the threads of a search share (``search_memo.publish``,
``search.state.shared_table``): what it keeps, a torn slot read as a miss, a tree read back
from a memo that took its sets from the table, and fewer sets searched for the same trees;
the sets its threads have in flight (``search_memo.board``), a set in flight elsewhere
searched alike for the same tree, and the counts of sets searched twice or floored."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from bench_scripts import load
from bullscows._kernels import search_calls
from bullscows._kernels.search_memo import (
    SHARED_SLOT,
    WAYS,
    board,
    flying,
    land,
    publish,
    shared_entry,
    store,
)
from bullscows._kernels.tables import (
    CTX_KEYS,
    FLIGHT,
    INFEASIBLE,
    STOPPED,
    TRAFFIC_AGAIN,
    TRAFFIC_BESIDE,
    TRAFFIC_BESIDE_AHEAD,
    TRAFFIC_DISPLACED,
    TRAFFIC_FLOORED,
    TRAFFIC_KEPT,
    TRAFFIC_LOOKED,
    TRAFFIC_READ,
    TRAFFIC_WRITTEN,
)
from bullscows.executors import Threads
from bullscows.rules import Rules
from bullscows.search import optimal_tree, split, state
from bullscows.search.engine import Search
from bullscows.search.options import SearchOptions
from bullscows.search.state import SearchState, shared_table
from bullscows.search.tree import tree_cost
from bullscows.universe import universe

KEY = (np.int64(0x1234_5678_9ABC), np.int64(-77), np.int64(5))
MISS = (-1, -1, 0)


def slot_of(table: np.ndarray, key: tuple[np.int64, ...], way: int = 0) -> slice:
    bucket = int(key[0]) & ((len(table) - FLIGHT) // (WAYS * SHARED_SLOT) - 1)
    at = (bucket * WAYS + way) * SHARED_SLOT
    return slice(at, at + SHARED_SLOT)


def test_a_set_published_reads_back_and_a_torn_slot_reads_as_a_miss() -> None:
    table = search_calls.shared_table(10)
    assert shared_entry(table, KEY) == MISS  # an empty (all-zero) bucket
    publish(table, KEY, 50, 40, 7, 12)
    assert shared_entry(table, KEY) == (40, 7, 12)
    assert np.any(table[slot_of(table, KEY)])  # the bucket's first slot
    assert shared_entry(table, (KEY[0], KEY[1], np.int64(4))) == MISS  # another depth
    whole = table[slot_of(table, KEY)].copy()
    for word in range(SHARED_SLOT):  # any one word changed, as a racing write would
        table[slot_of(table, KEY)] = whole
        table[slot_of(table, KEY).start + word] += 1
        assert shared_entry(table, KEY) == MISS, word
    table[slot_of(table, KEY)] = whole
    half = search_calls.shared_table(10)  # the first half of one write, the rest of another
    publish(half, KEY, 50, 41, 8, 13)
    table[slot_of(table, KEY).start + 3 :][:2] = half[slot_of(half, KEY).start + 3 :][:2]
    assert shared_entry(table, KEY) == MISS
    assert shared_entry(np.zeros(0, dtype=np.int64), KEY) == MISS  # no table


def test_a_slot_keeps_a_sets_exact_cost_and_highest_floor() -> None:
    table = search_calls.shared_table(10)
    assert publish(table, KEY, 50, -1, -1, 30) == TRAFFIC_WRITTEN  # an empty slot
    assert publish(table, KEY, 50, -1, -1, 20) == TRAFFIC_KEPT  # nothing written
    assert publish(table, KEY, 50, -1, -1, 30) == TRAFFIC_KEPT
    assert shared_entry(table, KEY) == (-1, -1, 30)
    assert publish(table, KEY, 50, -1, -1, 31) == TRAFFIC_WRITTEN
    assert publish(table, KEY, 50, 35, 4, 25) == TRAFFIC_WRITTEN
    assert shared_entry(table, KEY) == (35, 4, 31)
    before = table.copy()
    assert publish(table, KEY, 50, -1, -1, 33) == TRAFFIC_KEPT  # the cost says more
    assert publish(table, KEY, 50, 35, 4, 0) == TRAFFIC_KEPT
    assert np.array_equal(table, before)  # the slot's cache line left alone


def test_a_bucket_keeps_the_larger_sets_entry() -> None:
    table = search_calls.shared_table(10)
    big, small, smaller = ((KEY[0], KEY[1] + i, KEY[2]) for i in range(3))  # one bucket
    assert publish(table, big, 90, 60, 1, 0) == TRAFFIC_WRITTEN
    assert publish(table, small, 20, 30, 2, 0) == TRAFFIC_WRITTEN  # the other, empty slot
    assert shared_entry(table, big) == (60, 1, 0) and shared_entry(table, small) == (30, 2, 0)
    assert publish(table, smaller, 10, 9, 3, 0) == TRAFFIC_DISPLACED  # over the smaller set
    assert shared_entry(table, small) == MISS
    assert shared_entry(table, big) == (60, 1, 0) and shared_entry(table, smaller) == (9, 3, 0)
    assert publish(table, small, 20, 30, 2, 0) == TRAFFIC_DISPLACED
    assert shared_entry(table, smaller) == MISS and shared_entry(table, big) == (60, 1, 0)
    assert publish(table, small, 20, -1, -1, 5) == TRAFFIC_KEPT  # its own slot, held
    table[slot_of(table, big).start + 4] += 1  # torn: taken first, not counted as lost
    assert publish(table, smaller, 10, 9, 3, 0) == TRAFFIC_WRITTEN
    assert shared_entry(table, small) == (30, 2, 0) and shared_entry(table, smaller) == (9, 3, 0)


def test_a_search_on_one_thread_has_no_table() -> None:
    search = Search(SearchOptions(Rules.parse("p3c4n")))
    assert len(search.state.shared) == 0
    assert search.solve(search.state.everything, 9, INFEASIBLE, ()) is not None
    assert search.state.shared_hits == 0 and len(search.state.shared) == 0


def test_a_team_shares_one_table_a_search_of_other_options_another() -> None:
    mm, p3c4n = SearchOptions(Rules.parse("mm")), SearchOptions(Rules.parse("p3c4n"))
    with Threads(2) as team, Threads(2) as other:
        table = shared_table(mm, team)
        assert table is not None and shared_table(mm, team) is table
        assert shared_table(mm, other) is not table
        assert shared_table(p3c4n, team) is not table


@pytest.mark.parametrize("length", [8, 24, 48, 15, 32, FLIGHT + 48])
def test_a_table_of_broken_buckets_is_refused(length: int) -> None:
    # the compiled calls index the table unchecked: a part of a bucket would be written past
    options = SearchOptions(Rules.parse("p3c4n"))
    with pytest.raises(ValueError, match=rf"^a shared table of {length} integers: give 0, or 16"):
        SearchState(options, shared=np.zeros(length, dtype=np.int64))
    with pytest.raises(ValueError, match=r"^a shared table"):
        SearchState(options).share(np.zeros(length, dtype=np.int64))
    SearchState(options).share(np.zeros(32 + FLIGHT, dtype=np.int64))  # two buckets


@pytest.mark.parametrize(("spec", "depth", "consistent"), [("p4c6n", 9, False), ("p3c6r", 9, True)])
def test_a_tree_reads_back_from_sets_another_memo_settled(
    spec: str, depth: int, consistent: bool
) -> None:
    # A solves every code, publishing to the table; B, a fresh memo with the same table,
    # takes the whole set from it at once, so its parts are only in A's memo
    rules = Rules.parse(spec)
    options = SearchOptions(rules, consistent_only=consistent)
    table = search_calls.shared_table(len(universe(rules)))
    a, b = SearchState(options, shared=table), SearchState(options, shared=table)
    every = a.everything
    cost = a.solve(every, depth, INFEASIBLE, every)
    assert b.solve(every, depth, INFEASIBLE, every) == cost
    assert b.sets == 0 and b.shared_hits == 1 and len(b.memo) == 1
    tree = b.rebuild(every, depth)
    assert tree == a.rebuild(every, depth)  # the same, optimal tree
    assert tree_cost(b.scores, b.win, tree, every, depth, b.penalty, 1, consistent) == cost
    assert b.shared_hits > 1  # its parts, read back through the table too
    assert b.again[0] >= 1 and b.again[1] == b.sets  # counted: searched again to read back


def test_a_part_lost_from_the_table_is_searched_again() -> None:
    options = SearchOptions(Rules.parse("p4c6n"))
    table = search_calls.shared_table(1296)
    a, b = SearchState(options, shared=table), SearchState(options, shared=table)
    every = a.everything
    cost = a.solve(every, 9, INFEASIBLE, every)
    b.solve(every, 9, INFEASIBLE, every)
    table[:] = 0  # every part overwritten by other sets since
    tree = b.rebuild(every, 9)
    assert b.sets > 0 and tree == a.rebuild(every, 9)
    parts, sets, _ = b.again  # each part read back searched again: every set B searched
    assert parts >= 1 and sets == b.sets
    assert tree_cost(b.scores, b.win, tree, every, 9, b.penalty, 1, False) == cost
    assert np.any(table)  # B published what it searched again


@pytest.mark.parametrize("share_from", [0, 20, 1297])
def test_only_sets_of_a_size_go_through_the_table(
    share_from: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(state, "SHARE_FROM", share_from)
    options = SearchOptions(Rules.parse("p4c6n"))
    table = search_calls.shared_table(1296)
    a, b = SearchState(options, shared=table), SearchState(options, shared=table)
    every = a.everything
    cost = a.solve(every, 9, INFEASIBLE, every)
    assert b.solve(every, 9, INFEASIBLE, every) == cost
    tree = b.rebuild(every, 9)
    assert tree == a.rebuild(every, 9)
    assert tree_cost(b.scores, b.win, tree, every, 9, b.penalty, 1, False) == cost
    held = table.reshape(-1, SHARED_SLOT)  # a slot in use ends with its checksum
    if share_from > len(every):  # nothing shared: B searched what A did
        assert not np.any(table[:-FLIGHT]) and b.sets == a.sets
        again = b.traffic[TRAFFIC_AGAIN]  # sets branched on again, as on one thread
        assert again == a.traffic[TRAFFIC_AGAIN] and not np.any(np.delete(b.traffic, TRAFFIC_AGAIN))
        return
    assert b.traffic[TRAFFIC_READ] >= 1 and b.shared_hits >= 1
    writes = a.traffic[TRAFFIC_WRITTEN] + a.traffic[TRAFFIC_DISPLACED]
    assert 0 < np.count_nonzero(held[:, 7]) <= writes  # each slot in use written, by A
    if share_from:  # B searched again the small parts that its tree needs, and only those
        assert 0 < b.sets < a.sets and b.traffic[TRAFFIC_WRITTEN] == 0


@pytest.fixture(scope="module")
def occupancy() -> ModuleType:
    return load("occupancy")


def test_memos_sharing_a_table_search_fewer_sets(
    occupancy: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one thread, each shared set's guesses tried by 4 memos in turn (deterministic)
    monkeypatch.setattr(split, "SPLIT_MIN", 30)  # p3c10n's tasks have their guesses shared
    found = {}
    for on in (False, True):
        with occupancy.memos(4), occupancy.sharing(on):
            _, (_, _, found[on]) = occupancy.run("p3c10n", "total", 1, 0.01)
    assert state.SHARE
    assert found[True] < found[False]


@pytest.mark.parametrize(("objective", "jobs"), [("total", 4), ("worst-count", 3)])
def test_threads_sharing_a_table_find_the_tree_of_one_thread(
    objective: str, jobs: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Rules.parse("p4c6n")
    alone = optimal_tree(rules, objective=objective)  # type: ignore[arg-type]
    for on in (False, True):
        monkeypatch.setattr(state, "SHARE", on)
        with Threads(jobs) as team:
            found = optimal_tree(rules, objective=objective, executor=team)  # type: ignore[arg-type]
        assert (found.total, found.worst) == (alone.total, alone.worst)
        assert found.tree == alone.tree


def test_a_set_in_flight_is_seen_until_its_mark_is_cleared() -> None:
    table = search_calls.shared_table(10)
    other = (KEY[0] + 1, KEY[1], KEY[2])  # the same bucket of sets in flight
    assert not flying(table, KEY)
    mark = board(table, KEY)
    assert mark > len(table) - FLIGHT and flying(table, KEY) and not flying(table, other)
    assert not flying(table, (KEY[0], KEY[1], KEY[2] - 1))  # another depth
    marks = [board(table, other) for _ in range(7)]  # the bucket, one cache line, fills
    assert 0 not in marks and board(table, other) == 0
    land(table, mark, KEY)
    assert not flying(table, KEY) and flying(table, other)
    table[marks[0] - 1] = 99  # another search wrote over the mark: left alone
    land(table, marks[0], other)
    assert table[marks[0] - 1] == 99
    for at in marks[1:]:
        land(table, at, other)
    assert not flying(table, other) and not np.any(table[:-FLIGHT])
    assert board(np.zeros(0, dtype=np.int64), KEY) == 0  # no table: nothing marked
    assert not flying(np.zeros(0, dtype=np.int64), KEY)


def first_parts(
    state: SearchState, codes: np.ndarray, depth: int, guesses: int
) -> list[np.ndarray]:
    """The parts (of more than two codes) of the first ``guesses`` guesses the compiled
    search tries at ``codes``."""
    order, _, _ = search_calls.guess_order(state.ctx, codes, codes, depth, INFEASIBLE)
    found = []
    for guess in codes[order[:guesses]]:
        for _, part in state.scores.parts(state.ctx, codes, int(guess)):
            if len(part) > 2:
                found.append(part)
    return found


def key_of(state: SearchState, codes: np.ndarray, depth: int) -> tuple[np.int64, ...]:
    """The key of the set ``codes`` at ``depth`` in the memo and the table."""
    keys = state.ctx[CTX_KEYS]
    return (keys[0, codes].sum(), keys[1, codes].sum(), np.int64(depth))


@pytest.mark.parametrize("spec", ["p4c6n", "p3c6r"])
def test_sets_in_flight_elsewhere_are_counted_and_searched_alike(spec: str) -> None:
    # another thread has the whole set, the parts of the first guesses and theirs in
    # flight: the search counts them (branched on, and looked ahead at one level down),
    # finds the tree and cost of a search with no table, and clears its own marks
    rules = Rules.parse(spec)
    options = SearchOptions(rules)
    alone = SearchState(options)
    every = alone.everything
    cost = alone.solve(every, 9, INFEASIBLE, every)
    table = search_calls.shared_table(len(universe(rules)))
    state = SearchState(options, shared=table)
    parts = first_parts(state, every, 9, 3)
    for part in [every, *parts]:
        assert board(table, key_of(state, part, 9))
    for part in parts:  # one level down: a bucket may be full, then a set is not marked
        for below in first_parts(state, part, 9, 3):
            board(table, key_of(state, below, 9))
    planted = table[-FLIGHT:].copy()
    assert state.solve(every, 9, INFEASIBLE, every) == cost
    assert 1 < state.traffic[TRAFFIC_BESIDE] <= state.stats[0]  # the root and some parts
    assert 1 <= state.traffic[TRAFFIC_BESIDE_AHEAD] <= state.stats[1]
    assert state.rebuild(every, 9) == alone.rebuild(every, 9)
    assert np.array_equal(table[-FLIGHT:], planted)  # its own marks all cleared
    assert alone.traffic[TRAFFIC_BESIDE] == alone.traffic[TRAFFIC_FLOORED] == 0


def test_a_set_looked_ahead_at_by_another_thread_is_not_again() -> None:
    options = SearchOptions(Rules.parse("p4c6n"))
    table = search_calls.shared_table(1296)
    a, b = SearchState(options, shared=table), SearchState(options, shared=table)
    every = a.everything
    bound = a.ideal(len(every), 9)
    for guess in (0, 7, 35):  # the parts of three guesses, looked ahead at by A
        total, _, bounds = search_calls.ahead(a.ctx, a.memo, every, guess, bound, 9)
        again, _, taken = search_calls.ahead(b.ctx, b.memo, every, guess, bound, 9)
        assert (again, taken) == (total, bounds)
    assert a.stats[1] > 0 and b.stats[1] == 0  # B took every lookahead from the table
    assert b.traffic[TRAFFIC_LOOKED] > 0 and a.traffic[TRAFFIC_LOOKED] == 0


def test_a_floor_is_counted_as_from_the_table_only_when_it_is_higher() -> None:
    # the root's floor read from the table counts as floored; a table entry adding only the
    # flag "looked ahead at" to the memo's higher floor counts as the memo's (again)
    rules = Rules.parse("p4c6n")
    options = SearchOptions(rules)
    alone = SearchState(options)
    every = alone.everything
    cost = alone.solve(every, 9, INFEASIBLE, every)
    table = search_calls.shared_table(len(universe(rules)))
    floored = SearchState(options, shared=table)
    root = key_of(floored, every, 9)
    publish(table, root, np.int64(len(every)), np.int64(-1), np.int64(-1), np.int64(3))
    assert floored.solve(every, 9, INFEASIBLE, every) == cost
    assert floored.traffic[TRAFFIC_FLOORED] == 1
    table = search_calls.shared_table(len(universe(rules)))
    again = SearchState(options, shared=table)
    store(again.memo.arrays, root, (np.int64(-1), np.int64(-1), np.int64(5), np.int64(0)))
    publish(table, root, np.int64(len(every)), np.int64(-1), np.int64(-2), np.int64(3))
    assert again.solve(every, 9, INFEASIBLE, every) == cost
    assert again.stats[0] == floored.stats[0]  # the same sets branched on
    assert again.traffic[TRAFFIC_FLOORED] == 0  # the root's floor counts as the memo's
    assert again.traffic[TRAFFIC_AGAIN] == floored.traffic[TRAFFIC_AGAIN] + 1
    assert again.traffic[TRAFFIC_LOOKED] == 1


def test_a_stopped_search_leaves_no_set_in_flight() -> None:
    table = search_calls.shared_table(1296)
    state = SearchState(SearchOptions(Rules.parse("p4c6n")), shared=table)
    state.stop[0] = 1  # told to stop once its first frame is open
    every = state.everything
    assert state.solve(every, 9, INFEASIBLE, every) == STOPPED
    assert state.stats[0] == 1 and not np.any(table[-FLIGHT:])


@pytest.mark.parametrize(("objective", "jobs"), [("total", 4), ("worst-count", 3)])
def test_the_sets_a_team_searched_twice_are_counted(
    objective: str, jobs: int, occupancy: ModuleType
) -> None:
    rules = Rules.parse("p4c6n")
    with occupancy.counting() as single:
        alone = optimal_tree(rules, objective=objective)  # type: ignore[arg-type]
    assert single.beside == single.beside_ahead == single.floored == single.looked == 0
    with Threads(jobs) as team, occupancy.counting() as counted:
        found = optimal_tree(rules, objective=objective, executor=team)  # type: ignore[arg-type]
        _, table = state._TABLES[team]  # the last search's
    assert found.tree == alone.tree
    assert counted.beside <= counted.branched and counted.beside_ahead <= counted.ahead
    assert counted.floored + counted.again <= counted.branched
    assert counted.reread_sets <= counted.branched + counted.ahead
    assert counted.reread_again <= counted.again
    assert not np.any(table[-FLIGHT:])  # every mark cleared
