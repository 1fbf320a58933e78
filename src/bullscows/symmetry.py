"""Symmetries of a variant that let a search look at one code of each equivalent class.

Before any guess, relabelling symbols and permuting positions map codes onto each other
without changing any outcome (when every symbol is allowed everywhere), so only one code per
*pattern* of repeated symbols needs to be considered: the lowest code of its class.

>>> from bullscows.universe import universe
>>> u = universe(Rules.parse("mm"))
>>> [u.text(i) for i in opening_representatives(Rules.parse("mm"))]
['1111', '1112', '1122', '1123', '1234']
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from bullscows.rules import Rules
from bullscows.universe import IndexArray, distinct, universe


def _patterns(total: int, largest: int, parts: int) -> list[list[int]]:
    """Partitions of ``total`` into at most ``parts`` parts up to ``largest``, largest first."""
    if total == 0:
        return [[]]
    if parts == 0:
        return []
    found = []
    for first in range(min(total, largest), 0, -1):
        for rest in _patterns(total - first, first, parts - 1):
            found.append([first, *rest])
    return found


def opening_representatives(rules: Rules) -> IndexArray | None:
    """The lowest code of each class of openings, or ``None`` when positions are restricted.

    A class's lowest code gives its most repeated symbol the lowest label, and sorts. The
    classes are those of the codes that may be guessed.
    """
    if rules.allowed is not None or rules.guess_rules.allowed is not None:
        return None
    largest = rules.length if rules.guess_rules.repeats else 1
    rows = []
    for pattern in reversed(_patterns(rules.length, largest, len(rules.symbols))):
        rows.append([symbol for symbol, times in enumerate(pattern) for _ in range(times)])
    u = universe(rules)
    return np.sort(u.indices(np.array(rows, dtype=np.uint8)))


# --- symmetries of a history ---------------------------------------------------------------
#
# A symmetry is a permutation of positions (pi) with a relabelling of symbols (sigma) mapping
# every code of the variant to a code, and every guess made so far to itself. It then maps each
# code to one with the same replies to every guess, so candidates to candidates, and a guess to
# one that splits the candidates the same way. Symbols never guessed can be relabelled freely
# among themselves (within the symbols allowed at the same positions); positions can be permuted
# where the guesses allow it. The lowest code of each class stands for the class. When guesses
# are wider than secrets, a symmetry must map both sets onto themselves: what is allowed where
# is compared for both (``_allowed``).

#: Symmetries collected at most; a history with more uses only relabellings (still sound).
MAX_GROUP = 720

Digits = tuple[int, ...]
Element = tuple[tuple[int, ...], tuple[int, ...]]  # (pi, sigma as a lookup table)


def guess_classes(rules: Rules, guessed: Iterable[int]) -> IndexArray:
    """The lowest code of each class of guesses that are equivalent once the codes
    ``guessed`` (universe indices) were played, whatever their replies.

    >>> from bullscows.codes import Code
    >>> mm = Rules.parse("mm")
    >>> len(guess_classes(mm, [])), len(guess_classes(mm, [Code("1122", mm).index]))
    (5, 39)
    >>> len(guess_classes(Rules.parse("bc-nolead"), []))  # 1023 and 1234: no 0 first
    2
    """
    codes = universe(rules)
    guesses = sorted(set(guessed))
    if not guesses:  # restricted positions: the symmetries that keep what is allowed where
        opening = opening_representatives(rules)
        return _group_classes(rules, ()) if opening is None else opening
    played = tuple(tuple(int(d) for d in codes.codes[g]) for g in guesses)
    unguessed = _free_symbols(rules, frozenset(d for g in played for d in g))
    if not _has_symmetry(rules, played):
        if all(len(g) < 2 for g in unguessed):
            return codes.all()
        return _relabelling_classes(rules, unguessed)
    return _group_classes(rules, tuple(sorted(set(played))))


def _has_symmetry(rules: Rules, played: tuple[Digits, ...]) -> bool:
    """Whether some symmetries other than relabelling free symbols fix every guess played,
    and few enough to use (at most ``MAX_GROUP``)."""
    if _symmetry_free(rules, played):
        return False
    return bool(_history_group(rules, tuple(sorted(set(played)))))


@lru_cache(maxsize=8192)
def _symmetry_free(rules: Rules, played: tuple[Digits, ...]) -> bool:
    """Whether no symmetry but relabelling free symbols fixes every guess played.

    More guesses only remove symmetries, so once a prefix has none, no longer history has
    (a prefix with too many to collect says nothing).
    """
    if len(played) > 1 and _symmetry_free(rules, played[:-1]):
        return True
    return _history_group(rules, tuple(sorted(set(played)))) == ()


def _allowed(rules: Rules, position: int) -> tuple[str, str]:
    """The symbols a secret and a guess may have at ``position``."""
    return rules.allowed_at(position), rules.guess_rules.allowed_at(position)


def _signature(rules: Rules, symbol: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    s = rules.symbols[symbol]
    return tuple(i for i in range(rules.length) if s in rules.allowed_at(i)), tuple(
        i for i in range(rules.length) if s in rules.guess_rules.allowed_at(i)
    )


@lru_cache(maxsize=1024)
def _free_symbols(rules: Rules, used: frozenset[int]) -> tuple[tuple[int, ...], ...]:
    """Never-guessed symbols (not in ``used``), grouped by the positions that allow them."""
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
    for symbol in range(len(rules.symbols)):
        if symbol not in used:
            groups.setdefault(_signature(rules, symbol), []).append(symbol)
    return tuple(tuple(g) for g in groups.values())


@lru_cache(maxsize=1024)
def _history_group(rules: Rules, guesses: tuple[Digits, ...]) -> tuple[Element, ...] | None:
    """The symmetries (other than the identity) that fix every guess, found by backtracking;
    ``None`` when there are more than ``MAX_GROUP``."""
    length, k = rules.length, len(rules.symbols)
    found: list[Element] = []
    pi: list[int] = []
    sigma: dict[int, int] = {}

    def extend(i: int) -> None:
        if len(found) > MAX_GROUP:
            return
        if i == length:
            table = tuple(sigma.get(s, s) for s in range(k))
            if tuple(pi) != tuple(range(length)) or any(table[s] != s for s in range(k)):
                found.append((tuple(pi), table))
            return
        for j in range(length):
            if j in pi or _allowed(rules, j) != _allowed(rules, i):
                continue
            added = []
            ok = True
            for g in guesses:  # sigma(g[pi(i)]) must be g[i]
                a, b = g[j], g[i]
                if a in sigma:
                    ok = sigma[a] == b
                elif b in sigma.values() or _signature(rules, a) != _signature(rules, b):
                    ok = False
                else:
                    sigma[a] = b
                    added.append(a)
                if not ok:
                    break
            if ok:
                pi.append(j)
                extend(i + 1)
                pi.pop()
            for a in added:
                del sigma[a]

    extend(0)
    return None if len(found) > MAX_GROUP else tuple(found)


def _class_minima(
    rules: Rules, elements: tuple[Element, ...], free: tuple[tuple[int, ...], ...]
) -> IndexArray:
    """The sorted universe indices of the lowest code of each class (compiled kernel)."""
    from bullscows._kernels import ahead

    k, length = len(rules.symbols), rules.length
    identity: Element = (tuple(range(length)), tuple(range(k)))
    perms = np.array([pi for pi, _ in (identity, *elements)], dtype=np.int64)
    tables = np.array([table for _, table in (identity, *elements)], dtype=np.int64)
    free_group = np.full(k, -1, dtype=np.int64)
    free_labels = np.full(
        (max(len(free), 1), max([len(g) for g in free] + [1])), -1, dtype=np.int64
    )
    for number, group in enumerate(free):
        free_group[list(group)] = number
        free_labels[number, : len(group)] = group
    u = universe(rules)
    keys = ahead.canonical_keys(u.codes.astype(np.int64), perms, tables, free_group, free_labels, k)
    return distinct(np.searchsorted(u.keys, keys))


@lru_cache(maxsize=256)
def _relabelling_classes(rules: Rules, free: tuple[tuple[int, ...], ...]) -> IndexArray:
    return _class_minima(rules, (), free)


@lru_cache(maxsize=256)
def _group_classes(rules: Rules, guesses: tuple[Digits, ...]) -> IndexArray:
    used = frozenset(d for g in guesses for d in g)
    group = _history_group(rules, guesses) or ()  # a history with symmetries to use
    return _class_minima(rules, group, _free_symbols(rules, used))


@lru_cache(maxsize=64)
def symmetry_arrays(rules: Rules) -> tuple[IndexArray, IndexArray, IndexArray]:
    """What a compiled kernel needs to find the symmetries of any history itself: the
    permutations of positions that keep what is allowed where (the identity first; only the
    identity past 6 positions, as with ``MAX_GROUP``), each symbol's group of symbols allowed at
    the same positions, and each group's symbols (rows padded with -1).

    >>> perms, group, symbols = symmetry_arrays(Rules.parse("bc-nolead"))
    >>> len(perms), group.tolist(), symbols[:, :3].tolist()
    (6, [0, 1, 1, 1, 1, 1, 1, 1, 1, 1], [[0, -1, -1], [1, 2, 3]])
    """
    length, k = rules.length, len(rules.symbols)
    positions = range(length)
    if length <= 6:
        perms = [
            pi
            for pi in itertools.permutations(positions)
            if all(_allowed(rules, pi[i]) == _allowed(rules, i) for i in positions)
        ]
    else:
        perms = [tuple(positions)]
    groups: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
    for symbol in range(k):
        groups.setdefault(_signature(rules, symbol), []).append(symbol)
    group = np.empty(k, dtype=np.int64)
    symbols = np.full((len(groups), k), -1, dtype=np.int64)
    for number, members in enumerate(groups.values()):
        group[members] = number
        symbols[number, : len(members)] = members
    return np.array(perms, dtype=np.int64), group, symbols
